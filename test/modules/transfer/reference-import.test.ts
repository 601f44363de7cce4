/**
 * `bizapi import --from` against a double of the reference service written from reference-api.md
 * (test/setup/reference-double.ts), issues 43 and 44 (docs/deployment.md#11-moving-a-business-in-and-out):
 * every documented record arrives (estimate items without `created` included), the hidden flag found through
 * the `is_hidden=true` lists, undocumented shapes read tolerantly with warnings, a re-run `unchanged`, a
 * `--dry-run` that writes nothing, ids above the kept bound remapped while another business goes on
 * creating, values over the API's limits refused per record, and a fault of the target stopping the run.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_KEPT_ID } from '../../../src/db/ids.ts';
import { runUntilExit, serverEnv, startBizapi } from '../../setup/server-process.ts';
import { caller } from '../../setup/transfer-source.ts';
import {
  LARGE_ID,
  type ReferenceDouble,
  type ReferenceDoubleOptions,
  startReferenceDouble,
} from '../../setup/reference-double.ts';
import { DIALECT } from '../../setup/test-db.ts';
import { urlWithSchema } from '../../setup/test-workers.ts';
import { freePort } from '../../setup/helpers.ts';

interface Target {
  url: string;
  dir: string;
  drop(): Promise<void>;
}

let targets = 0;

/** A fresh target: a new SQLite file, or on PostgreSQL a new schema of the test database. */
async function freshTarget(): Promise<Target> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-ref-target-'));
  if (DIALECT === 'sqlite') {
    const t: Target = {
      url: `sqlite:${path.join(dir, 'target.db')}`,
      dir,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
    // `bizapi import` opens an existing SQLite database only: a fresh server's is made by `bizapi migrate`.
    const migrated = await runUntilExit(['migrate'], envOf(t));
    if (migrated.code !== 0) throw new Error(`bizapi migrate failed: ${migrated.stderr}`);
    return t;
  }
  const base = process.env.DATABASE_URL!;
  const schema = `refimport_${process.pid}_${++targets}`;
  const admin = async (q: string) => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(q);
    await c.end();
  };
  await admin(`drop schema if exists ${schema} cascade; create schema ${schema}`);
  return {
    url: urlWithSchema(base, schema),
    dir,
    drop: async () => {
      await admin(`drop schema if exists ${schema} cascade`);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The double serves its attachments from 127.0.0.1: the import admits private addresses (docs/deployment.md#source-limits). */
const envOf = (t: Target) =>
  serverEnv({
    databaseUrl: t.url,
    dataDir: t.dir,
    env: { BIZAPI_RATE_LIMIT: '0', BIZAPI_IMPORT_ALLOW_PRIVATE: 'true' },
  });

async function runImport(t: Target, double: ReferenceDouble, extra: string[] = []) {
  const r = await runUntilExit(
    [
      'import',
      '--from',
      double.baseUrl,
      '--api-key',
      double.keys.apiKey,
      '--secret-key',
      double.keys.secretKey,
      '--rate',
      '0',
      ...extra,
    ],
    envOf(t),
  );
  return { code: r.code, answer: r.code === 0 ? JSON.parse(r.stdout) : undefined, stdout: r.stdout, stderr: r.stderr };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setUp(options: ReferenceDoubleOptions = {}): Promise<{ t: Target; double: ReferenceDouble }> {
  const double = await startReferenceDouble(options);
  cleanups.push(() => double.stop());
  const t = await freshTarget();
  cleanups.push(() => t.drop());
  return { t, double };
}

/** PostgreSQL's server binaries (initdb, pg_ctl), or undefined where they are not installed. */
const PG_BIN = ['/usr/lib/postgresql/17/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/15/bin'].find((d) =>
  fs.existsSync(path.join(d, 'pg_ctl')),
);

/**
 * A throwaway PostgreSQL cluster of this test alone (never the shared server): initdb into a directory under
 * /tmp, on a free port, trust authentication on 127.0.0.1. As root the binaries run as the `postgres` user.
 */
async function throwawayPostgres(): Promise<{ url: string; stop(): void; start(): void; remove(): void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-pg-'));
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  if (asRoot) spawnSync('chown', ['postgres', dir]);
  const run = (bin: string, args: string[]) => {
    const cmd = path.join(PG_BIN!, bin);
    const r = asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { encoding: 'utf8' })
      : spawnSync(cmd, args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${bin} ${args.join(' ')}: ${r.stderr}`);
  };
  run('initdb', ['-D', path.join(dir, 'data'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const start = () =>
    run('pg_ctl', [
      '-D',
      path.join(dir, 'data'),
      '-w',
      '-l',
      path.join(dir, 'log'),
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      'start',
    ]);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop: () => run('pg_ctl', ['-D', path.join(dir, 'data'), '-w', '-m', 'fast', 'stop']),
    remove: () => {
      try {
        run('pg_ctl', ['-D', path.join(dir, 'data'), '-w', '-m', 'immediate', 'stop']);
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const ids = (items: { id: number }[]) => items.map((i) => i.id).sort((a, b) => a - b);

/** The id beyond every bound: at the top of JavaScript's exact integers (2^53 − 1). */
const TOP_ID = Number.MAX_SAFE_INTEGER;

describe('bizapi import --from the reference double', () => {
  it('imports every documented record with its hidden flag, remaps ids above the bound, refuses over-limit values per record, and a re-run is unchanged', async () => {
    const { t, double } = await setUp({
      throttleEvery: 40,
      variant: { fileWithoutCreated: true },
      mutate: (data) => {
        const base = data.clients[0]!;
        data.clients.push({ ...base, id: TOP_ID, companyName: '맨 위 id', hidden: false });
        data.clients.push({ ...base, id: 240, companyName: 'x'.repeat(1_000_000), hidden: false });
        data.clients.push({ ...base, id: 241, companyName: '긴 메모', content: 'y'.repeat(10_000_000), hidden: false });
      },
    });
    const first = await runImport(t, double);
    expect(first.code, first.stderr).toBe(0);
    const a = first.answer;
    // Every documented record, estimate items included (their shape has no `created`).
    expect(a.counts['estimate.item']).toEqual({ read: 2, created: 2, updated: 0, unchanged: 0 });
    for (const type of [
      'inquiry.email_history',
      'inquiry.email_reply_history',
      'inquiry.status_history',
      'inquiry.folder_history',
      'inquiry.submit_history',
      'inquiry.text_history',
    ]) {
      expect(a.counts[type], type).toEqual({ read: 3, created: 3, updated: 0, unchanged: 0 });
    }
    expect(a.counts.client).toMatchObject({ read: 8, created: 6 });
    expect(a.files.downloaded).toBe(4);
    // Tolerant reading: the attachment without `created` is a warning naming record and field, and is imported.
    expect(a.warnings).toContainEqual(
      expect.stringMatching(/^inquiry 301: fileSet\[1\]\.created is missing; imported with the time of the import\.$/),
    );
    // Values over the API's limits: refused per record, with the API's message, and the import goes on.
    expect(a.warnings).toContainEqual(
      expect.stringMatching(/^client 240 was not imported: .*companyName.*no more than 128 characters/),
    );
    expect(a.warnings).toContainEqual(
      expect.stringMatching(/^client 241 was not imported: .*content.*no more than 10000 characters/),
    );
    expect(a.warnings).toHaveLength(3);
    // Ids: kept up to the bound, remapped above it (never kept, so no sequence moves out of range).
    expect(
      Object.keys(a.idsChanged.client ?? {})
        .map(Number)
        .sort((x, y) => x - y),
    ).toEqual(LARGE_ID <= MAX_KEPT_ID[DIALECT] ? [TOP_ID] : [LARGE_ID, TOP_ID]);
    expect(a.idsChanged.estimate_item_classification).toBeUndefined();
    const business = a.business.id as number;

    // Another business of the same server creates and reads as before.
    const other = await runUntilExit(['business', 'create', '--name', 'Other', '--plan', 'AGENCY'], envOf(t));
    expect(other.code, other.stderr).toBe(0);
    const otherKeys = JSON.parse(other.stdout);
    const server = await startBizapi(['serve'], envOf(t));
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const target = caller(base, { apiKey: a.apiKey, secretKey: a.secretKey });
      // The hidden flag on every resource: the same records in the `is_hidden=true` lists as the source's.
      expect(ids(await target.all('/v1/client?is_hidden=true'))).toEqual([230, 231]);
      expect(ids(await target.all('/v1/inquiry?is_hidden=true'))).toEqual([302]);
      expect(ids(await target.all('/v1/contract?is_hidden=true'))).toEqual([420]);
      expect(ids(await target.all('/v1/settlement?is_hidden=true'))).toEqual([451]);
      expect(ids(await target.all('/v1/project?is_hidden=true'))).toEqual([601]);
      expect(ids(await target.all('/v1/worker?is_hidden=true'))).toEqual([137]);
      expect(ids(await target.all('/v1/estimate/item'))).toEqual([91071, 91090]);
      expect((await target.call('GET', '/v1/estimate/item/91071')).classification.id).toBe(2648);
      const remapped = a.idsChanged.client[String(TOP_ID)];
      expect((await target.call('GET', `/v1/client/${remapped}`)).companyName).toBe('맨 위 id');

      const api = caller(base, { apiKey: otherKeys.apiKey, secretKey: otherKeys.secretKey });
      const made: number[] = [];
      for (let i = 0; i < 3; i++) {
        const started = Date.now();
        const c = await api.call('POST', '/v1/client', { companyName: `다른 회사 ${i}` });
        expect(Number.isSafeInteger(c.id) && c.id <= MAX_KEPT_ID[DIALECT] + 1000).toBe(true);
        expect((await api.call('GET', `/v1/client/${c.id}`)).companyName).toBe(`다른 회사 ${i}`);
        expect(await api.call('GET', '/v1/client?search=%EB%8B%A4%EB%A5%B8')).toBeTruthy();
        // Loosely: a create and two reads, not stalled (the 25 s of issue 44).
        expect(Date.now() - started).toBeLessThan(5_000);
        made.push(c.id);
      }
      expect(new Set(made).size).toBe(3);
    } finally {
      await server.stop();
    }

    // A re-run over the unchanged source: every count unchanged, nothing written.
    const second = await runImport(t, double, ['--business', String(business)]);
    expect(second.code, second.stderr).toBe(0);
    for (const [type, c] of Object.entries(second.answer.counts) as [string, any][]) {
      const expected = type === 'client' ? 6 : c.read;
      expect({ type, created: c.created, updated: c.updated, unchanged: c.unchanged }).toEqual({
        type,
        created: 0,
        updated: 0,
        unchanged: expected,
      });
    }
    expect(second.answer.files.downloaded).toBe(0);
    // The final summary is on stderr although stdout is not a terminal; the totals were announced.
    expect(second.stderr).toMatch(/^client: 8 to read$/m);
    expect(second.stderr).toMatch(/^estimate\.item: 2 read, 0 created, 0 updated, 2 unchanged$/m);
    // Only documented paths were requested, and 429s were waited out.
    for (const r of double.requests) expect(r, r).toMatch(/^GET \/(v1\/|files\/)/);
  }, 240_000);

  it('reads undocumented history shapes tolerantly: a warning per record and field, the record imported with what is known; --dry-run predicts it and writes nothing', async () => {
    const { t, double } = await setUp({ variant: { historyShapes: 'other' } });
    const dry = await runImport(t, double, ['--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.answer.dryRun).toBe(true);
    // Nothing written: no master key, no business, the database file as it was.
    const files = fs.readdirSync(t.dir);
    expect(files).not.toContain('master.key');
    const before = await runUntilExit(['business', 'list'], envOf(t));
    expect(JSON.parse(before.stdout)).toEqual([]);
    const real = await runImport(t, double);
    expect(real.code, real.stderr).toBe(0);
    expect(real.answer.warnings).toEqual(dry.answer.warnings);
    const w = real.answer.warnings as string[];
    expect(w).toContainEqual(
      expect.stringMatching(
        /^inquiry\.email_history \d+ \(of inquiry 301\): fromEmail is missing; imported with an empty text\.$/,
      ),
    );
    expect(w).toContainEqual(
      expect.stringMatching(/^inquiry\.status_history \d+ \(of inquiry 301\): status is missing; not imported\.$/),
    );
    expect(w).toContainEqual(
      expect.stringMatching(/^inquiry\.submit_history \d+ \(of inquiry 301\): form is missing; imported with/),
    );
    expect(real.answer.counts['inquiry.email_history']).toMatchObject({ read: 3, created: 3 });
    expect(real.answer.counts['inquiry.submit_history']).toMatchObject({ read: 3, created: 3 });
    expect(real.answer.counts['inquiry.status_history']).toMatchObject({ read: 3, created: 0 });
    expect(real.answer.counts['estimate.item']).toMatchObject({ read: 2, created: 2 });
    const again = await runImport(t, double);
    expect(again.code, again.stderr).toBe(0);
    for (const [type, c] of Object.entries(again.answer.counts) as [string, any][]) {
      expect({ type, created: c.created, updated: c.updated }).toEqual({ type, created: 0, updated: 0 });
    }
  }, 180_000);

  it.skipIf(DIALECT !== 'sqlite')(
    'a fault of the target (SQLite locked by another process mid-import) stops the import non-zero and never marks it complete',
    async () => {
      let locker: Database.Database | undefined;
      const { t, double } = await setUp({
        intercept: (req) => {
          if (locker === undefined && req.url?.startsWith('/v1/inquiry/302')) {
            locker = new Database(t.url.slice('sqlite:'.length));
            locker.exec('BEGIN EXCLUSIVE');
          }
          return false;
        },
      });
      const cut = await runImport(t, double);
      locker?.exec('ROLLBACK');
      locker?.close();
      expect(cut.code).not.toBe(0);
      expect(cut.stderr).toMatch(/Import stopped by a fault of this server/);
      const list = await runUntilExit(['business', 'list'], envOf(t));
      const business = JSON.parse(list.stdout).find((b: any) => b.importedFrom);
      expect(business.importedFrom.complete).toBe(false);
      // Run again: it completes.
      const rest = await runImport(t, double);
      expect(rest.code, rest.stderr).toBe(0);
      expect(rest.answer.counts.inquiry.read).toBe(3);
      const after = JSON.parse((await runUntilExit(['business', 'list'], envOf(t))).stdout).find(
        (b: any) => b.importedFrom,
      );
      expect(after.importedFrom.complete).toBe(true);
    },
    180_000,
  );

  it.skipIf(DIALECT !== 'postgres' || PG_BIN === undefined)(
    'a fault of the target (its own PostgreSQL stopped mid-import) stops the import non-zero and never marks it complete',
    async () => {
      const cluster = await throwawayPostgres();
      cleanups.push(async () => cluster.remove());
      let stopped = false;
      const double = await startReferenceDouble({
        intercept: (req) => {
          if (!stopped && req.url?.startsWith('/v1/inquiry/302')) {
            stopped = true;
            cluster.stop();
          }
          return false;
        },
      });
      cleanups.push(() => double.stop());
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-ref-target-'));
      const t: Target = { url: cluster.url, dir, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
      cleanups.push(() => t.drop());
      const cut = await runImport(t, double);
      expect(stopped).toBe(true);
      expect(cut.code).not.toBe(0);
      expect(cut.stdout).toBe('');
      cluster.start();
      const list = await runUntilExit(['business', 'list'], envOf(t));
      expect(list.code, list.stderr).toBe(0);
      const business = JSON.parse(list.stdout).find((b: any) => b.importedFrom);
      expect(business.importedFrom.complete).toBe(false);
      const rest = await runImport(t, double);
      expect(rest.code, rest.stderr).toBe(0);
      expect(rest.answer.counts.inquiry.read).toBe(3);
      const after = JSON.parse((await runUntilExit(['business', 'list'], envOf(t))).stdout).find(
        (b: any) => b.importedFrom,
      );
      expect(after.importedFrom.complete).toBe(true);
    },
    180_000,
  );
});
