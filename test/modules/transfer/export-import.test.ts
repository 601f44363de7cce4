/**
 * `bizapi export` and `bizapi import --file` end to end (decisions §16, docs/deployment.md#11-moving-a-business-in-and-out),
 * as processes: a source (`bizapi serve` on its own SQLite file: the demo business plus generated data of every
 * resource, test/setup/transfer-source.ts) is exported; the file holds every record, note and history the API
 * shows and every attachment's bytes; it is imported into a fresh target (the database under test: a new SQLite
 * file, or a schema of its own on PostgreSQL), and the target's export gives the same lines apart from the
 * header's `exported`. A second import of the same file changes nothing.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadSqliteDriver } from '../../../src/db/create-db.ts';
import { runUntilExit, serverEnv } from '../../setup/server-process.ts';
import { attachmentBytes, caller, generateData, type SourceServer, startSource } from '../../setup/transfer-source.ts';
import { DIALECT } from '../../setup/test-db.ts';
import { urlWithSchema } from '../../setup/test-workers.ts';

vi.setConfig({ testTimeout: 240_000, hookTimeout: 240_000 });

/** A fresh, empty database and its data directory; `drop` removes both. */
interface Target {
  url: string;
  dir: string;
  /** Rows of a table of this target (PostgreSQL: read in its schema; SQLite: in its file). */
  count(table: string): Promise<number>;
  drop(): Promise<void>;
}

/**
 * A fresh target: a new SQLite file, or on PostgreSQL a new schema of the test database, named first in the
 * URL's `search_path` (`public` after it, for the pg_trgm operator classes). Kysely's migrator looks for its
 * two tables in every schema and would find the test database's in `public`, so the schema gets its own first.
 */
async function freshTarget(): Promise<Target> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-export-target-'));
  if (DIALECT === 'sqlite') {
    const file = path.join(dir, 'target.db');
    const count = async (table: string) => {
      const db = new (loadSqliteDriver())(file, { readonly: true });
      try {
        return (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
      } finally {
        db.close();
      }
    };
    return { url: `sqlite:${file}`, dir, count, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const base = process.env.DATABASE_URL!;
  const schema = `export_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const run = async (...statements: string[]) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      let last: pg.QueryResult | undefined;
      for (const s of statements) last = await client.query(s);
      return last;
    } finally {
      await client.end();
    }
  };
  await run(
    `create schema ${schema}`,
    `create table ${schema}.kysely_migration (name varchar(255) not null primary key, timestamp varchar(255) not null)`,
    `create table ${schema}.kysely_migration_lock (id varchar(255) not null primary key, is_locked integer not null default 0)`,
  );
  const url = urlWithSchema(base, schema);
  return {
    url,
    dir,
    count: async (table) => Number((await run(`select count(*) as n from ${schema}.${table}`))!.rows[0].n),
    drop: async () => {
      await run(`drop schema if exists ${schema} cascade`);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The lines of an export file, parsed. */
function linesOf(file: string): any[] {
  return zlib
    .gunzipSync(fs.readFileSync(file))
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
}

let source: SourceServer;
let target: Target;
beforeAll(async () => {
  source = await startSource();
  await generateData(caller(source.baseUrl, source.keys), 3);
  target = await freshTarget();
});
afterAll(async () => {
  await source?.stop();
  await target?.drop();
});

describe(`bizapi export → import --file → export (target: ${DIALECT})`, () => {
  it('writes every record, note and file; a fresh server fed the file exports the same lines; a second import changes nothing', async () => {
    const sourceEnv = serverEnv({ databaseUrl: `sqlite:${path.join(source.dir, 'source.db')}`, dataDir: source.dir });
    const Sqlite = loadSqliteDriver();
    const sourceDb = new Sqlite(path.join(source.dir, 'source.db'), { readonly: true });
    const businessId = (sourceDb.prepare('select id from business').get() as { id: number }).id;
    sourceDb.close();

    const first = path.join(target.dir, 'first.jsonl.gz');
    const exported = await runUntilExit(['export', '--business', String(businessId), '--out', first], sourceEnv);
    expect(exported.code, exported.stderr).toBe(0);
    const summary = JSON.parse(exported.stdout);
    expect(summary.path).toBe(first);
    expect(summary.bytes).toBe(fs.statSync(first).size);
    expect(summary.warnings).toEqual([]);
    const lines = linesOf(first);

    // The header, then every item the API shows, then the files.
    expect(lines[0]).toEqual({
      format: 'bizapi-export',
      version: 1,
      business: { name: 'Demo Company', plan: 'AGENCY', timezone: 'Asia/Seoul' },
      exported: expect.any(String),
    });
    const api = caller(source.baseUrl, source.keys);
    const byType = (type: string) => lines.filter((l) => l.type === type);
    for (const [type, list] of [
      ['member', '/v1/member'],
      ['client', '/v1/client'],
      ['inquiry', '/v1/inquiry'],
      ['contract', '/v1/contract'],
      ['settlement', '/v1/settlement'],
      ['project', '/v1/project'],
      ['worker', '/v1/worker'],
      ['todo', '/v1/todo'],
      ['estimate.item', '/v1/estimate/item'],
      ['field', '/v1/field'],
    ] as const) {
      expect(
        byType(type)
          .map((l) => l.data.id)
          .sort(),
        type,
      ).toEqual((await api.all(list)).map((x) => x.id).sort());
    }
    // Records are their full GET shapes; notes and histories name their record.
    const someClient = byType('client')[0];
    expect(someClient.data).toEqual(await api.call('GET', `/v1/client/${someClient.data.id}`));
    for (const inquiry of byType('inquiry')) {
      for (const h of [
        'text_history',
        'status_history',
        'folder_history',
        'email_history',
        'email_reply_history',
        'submit_history',
      ]) {
        const listed = (await api.all(`/v1/inquiry/${inquiry.data.id}/${h}`)).map((x) => x.id).sort();
        const inFile = byType(`inquiry.${h}`)
          .filter((l) => l.parent.id === inquiry.data.id)
          .map((l) => l.data.id)
          .sort();
        expect(inFile, `inquiry ${inquiry.data.id} ${h}`).toEqual(listed);
      }
    }
    for (const contract of byType('contract')) {
      expect(byType('contract.history').filter((l) => l.parent.id === contract.data.id).length).toBe(
        (await api.all(`/v1/contract/${contract.data.id}/history`)).length,
      );
    }
    expect(byType('contract.history').length).toBeGreaterThan(0);
    expect(byType('settlement.history').length).toBeGreaterThan(0);
    // Every attachment: its bytes, size and sha256; the inquiry names its line's path.
    const bytes = await attachmentBytes(api);
    const files = byType('file');
    expect(files.length).toBe(Object.keys(bytes).length);
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const [, inquiryId, , fileId] = f.path.split('/');
      const raw = Buffer.from(f.base64, 'base64');
      expect(f.base64).toBe(bytes[`${inquiryId}/${fileId}`]);
      expect(f.size).toBe(raw.length);
      expect(f.sha256).toBe(createHash('sha256').update(raw).digest('hex'));
      const inquiry = byType('inquiry').find((l) => l.data.id === Number(inquiryId));
      expect(inquiry.data.fileSet.find((e: { id: number }) => e.id === Number(fileId)).file).toBe(f.path);
    }
    expect(lines.findIndex((l) => l.type === 'file')).toBe(lines.length - files.length);

    // Into a fresh server, and out again: the same lines apart from the header's time.
    const targetEnv = serverEnv({ databaseUrl: target.url, dataDir: target.dir });
    // A fresh server's database is made by `bizapi migrate` (or serve): import opens an existing one only.
    const migrated = await runUntilExit(['migrate'], targetEnv);
    expect(migrated.code, migrated.stderr).toBe(0);
    const imported = await runUntilExit(['import', '--file', first], targetEnv);
    expect(imported.code, imported.stderr).toBe(0);
    const answer = JSON.parse(imported.stdout);
    expect(answer.warnings).toEqual([]);
    expect(answer.idsChanged).toEqual({});
    expect(answer.business).toMatchObject({ name: 'Demo Company', plan: 'AGENCY', timezone: 'Asia/Seoul' });
    for (const [type, c] of Object.entries(answer.counts) as [string, { read: number; created: number }][])
      expect(c.created, type).toBe(c.read);
    expect(answer.files.downloaded).toBe(files.length);
    // The fresh target holds exactly the one business and its records (on PostgreSQL: in its own schema).
    expect(await target.count('business')).toBe(1);
    expect(await target.count('client')).toBe(byType('client').length);

    const second = path.join(target.dir, 'second.jsonl.gz');
    const again = await runUntilExit(['export', '--business', String(answer.business.id), '--out', second], targetEnv);
    expect(again.code, again.stderr).toBe(0);
    const secondLines = linesOf(second);
    const { exported: _t1, ...header1 } = lines[0];
    const { exported: _t2, ...header2 } = secondLines[0];
    expect(header2).toEqual(header1);
    expect(secondLines.length).toBe(lines.length);
    for (let i = 1; i < lines.length; i++) expect(secondLines[i], `line ${i + 1} (${lines[i].type})`).toEqual(lines[i]);

    // Repeatable: the same file again continues into the same business and changes nothing.
    const repeat = await runUntilExit(['import', '--file', first], targetEnv);
    expect(repeat.code, repeat.stderr).toBe(0);
    const repeated = JSON.parse(repeat.stdout);
    expect(repeated.business.id).toBe(answer.business.id);
    expect(repeated.apiKey).toBeUndefined();
    for (const [type, c] of Object.entries(repeated.counts) as [string, { read: number; unchanged: number }][])
      expect(c.unchanged, type).toBe(c.read);
    expect(repeated.files.downloaded).toBe(0);
  });

  it('refuses a file that is not an export, naming it, and writes nothing', async () => {
    const bad = path.join(target.dir, 'bad.jsonl.gz');
    fs.writeFileSync(bad, zlib.gzipSync('{"format":"something-else"}\n'));
    const r = await runUntilExit(
      ['import', '--file', bad],
      serverEnv({ databaseUrl: target.url, dataDir: target.dir }),
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('not a bizapi export header');
  });

  it('stops at a 600 MB line and at a line nested 100,000 levels deep with a message naming the line and the limit (no RangeError, no stack overflow), writing nothing', async () => {
    const header = JSON.stringify({
      format: 'bizapi-export',
      version: 1,
      business: { name: 'Huge', plan: 'AGENCY', timezone: 'Asia/Seoul' },
      exported: new Date().toISOString(),
    });
    const long = path.join(target.dir, 'long.jsonl.gz');
    const gzip = zlib.createGzip({ level: 1 });
    const written = pipeline(gzip, fs.createWriteStream(long));
    gzip.write(`${header}\n{"type":"client","data":{"id":1,"companyName":"`);
    const mib = Buffer.alloc(1024 * 1024, 'a');
    for (let i = 0; i < 600; i++) if (!gzip.write(mib)) await new Promise((resolve) => gzip.once('drain', resolve));
    gzip.end('"}}\n');
    await written;
    const deep = path.join(target.dir, 'deep.jsonl.gz');
    fs.writeFileSync(
      deep,
      zlib.gzipSync(
        `${header}\n{"type":"client","data":{"id":1,"memo":${'['.repeat(100_000)}${']'.repeat(100_000)}}}\n`,
      ),
    );
    const env = serverEnv({ databaseUrl: target.url, dataDir: target.dir });
    const before = await runUntilExit(['business', 'list'], env);

    const r = await runUntilExit(['import', '--file', long], env);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toMatch(/RangeError|Cannot create a string/);
    expect(r.stderr).toMatch(
      /long\.jsonl\.gz, line 2: longer than \d+ bytes, the limit of a line \(BIZAPI_IMPORT_MAX_ANSWER_BYTES, BIZAPI_UPLOAD_MAX_BYTES\)/,
    );
    const d = await runUntilExit(['import', '--file', deep], env);
    expect(d.code, d.stderr).toBe(1);
    expect(d.stderr).toMatch(/deep\.jsonl\.gz, line 2: JSON nested deeper than 32 levels, the limit of a record/);
    expect((await runUntilExit(['business', 'list'], env)).stdout).toBe(before.stdout);
  }, 300_000);
});
