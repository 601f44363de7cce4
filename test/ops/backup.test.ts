/**
 * `bizapi backup --out FILE` (decisions §16, docs/deployment.md#8-backups-and-restore), with real processes:
 * a `bizapi serve` on an embedded SQLite database takes a stream of writes while `bizapi backup` copies the
 * database; the copy passes `integrity_check`, and a server started on it by the documented restore steps
 * (the copy in place of the database, the same master key file and files directory) answers the same GETs the
 * original answered for the records that existed before the backup started, and holds a consistent snapshot of
 * the rest. On PostgreSQL the command refuses, naming `pg_dump`.
 *
 * The backup is of the embedded database, so this file uses its own SQLite file (on the SQLite run only; the
 * PostgreSQL run tests the refusal with its own database).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadSqliteDriver } from '../../src/db/create-db.ts';
import {
  type BizapiProcess,
  cleanEnv,
  type Outcome,
  request,
  runUntilExit,
  serverEnv,
  startBizapi,
} from '../setup/server-process.ts';
import type { Credentials } from '../setup/signed-request.ts';
import { DIALECT } from '../setup/test-db.ts';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 60_000 });

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-backup-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The environment of a process on the SQLite file `db` with data directory `dataDir`; the master key is the file's. */
function envFor(db: string, dataDir: string): NodeJS.ProcessEnv {
  const { BIZAPI_MASTER_KEY: _testKey, ...env } = serverEnv({ databaseUrl: `sqlite:${db}`, dataDir });
  return env;
}

function body(o: Outcome): any {
  if (!('status' in o)) throw new Error(`request failed: ${o.error}`);
  return JSON.parse(o.body);
}

describe('bizapi backup', () => {
  // The same SQLite file on either run: the PostgreSQL run would repeat it exactly.
  it.skipIf(DIALECT === 'postgres')(
    'copies a database that is being written, the copy is intact, and a server restored from it answers as the original did',
    async () => {
      const db = path.join(dir, 'live', 'bizapi.db');
      const dataDir = path.join(dir, 'live', 'data');
      fs.mkdirSync(path.dirname(db), { recursive: true });
      const env = envFor(db, dataDir);
      const created = await runUntilExit(['business', 'create', '--name', 'Backed up', '--plan', 'AGENCY'], env);
      expect(created.code, created.stderr).toBe(0);
      const creds: Credentials = JSON.parse(created.stdout);
      expect(fs.existsSync(path.join(dataDir, 'master.key'))).toBe(true);

      let server: BizapiProcess | undefined = await startBizapi(['serve'], env);
      let restored: BizapiProcess | undefined;
      try {
        const port = server.port;
        // The records that exist before the backup starts, and what the original answers for them.
        const seeded: number[] = [];
        for (let i = 0; i < 20; i += 1) {
          const r = await request(port, creds, 'POST', '/v1/client', { companyName: `고객 ${i}`, memo: `seed ${i}` });
          seeded.push(body(r).id);
        }
        const before = new Map<string, unknown>();
        for (const id of seeded)
          before.set(`/v1/client/${id}`, body(await request(port, creds, 'GET', `/v1/client/${id}`)));

        // A writer in a loop: new clients, and changes to clients of its own, until told to stop.
        let stop = false;
        let writes = 0;
        const failures: unknown[] = [];
        const writer = (async () => {
          let own: number | undefined;
          while (!stop) {
            const r =
              own === undefined || writes % 2 === 0
                ? await request(port, creds, 'POST', '/v1/client', { companyName: `Writer ${writes}` })
                : await request(port, creds, 'PATCH', `/v1/client/${own}`, { memo: `write ${writes}` });
            if (!('status' in r) || r.status >= 300) failures.push(r);
            else own ??= body(r).id;
            writes += 1;
          }
        })();
        await vi.waitFor(() => expect(writes).toBeGreaterThan(5), { timeout: 20_000, interval: 20 });
        const out = path.join(dir, 'backup.db');
        const writesAtStart = writes;
        const backup = await runUntilExit(['backup', '--out', out], env);
        const writesAtEnd = writes;
        stop = true;
        await writer;
        expect(failures).toEqual([]);
        expect(backup.code, backup.stderr).toBe(0);
        // The writer kept writing while the backup ran.
        expect(writesAtEnd).toBeGreaterThan(writesAtStart);
        const printed = JSON.parse(backup.stdout);
        expect(printed).toEqual({ path: out, bytes: fs.statSync(out).size, integrity: 'ok' });
        expect(backup.stderr).toContain(path.join(dataDir, 'master.key'));
        expect(fs.readdirSync(dir).filter((f) => f.includes('.partial-'))).toEqual([]);

        // Checked again here, independently of the command.
        const Sqlite = loadSqliteDriver();
        const copy = new Sqlite(out, { readonly: true });
        const integrity = copy.pragma('integrity_check', { simple: true });
        const copiedIds = (
          copy.prepare('select id from client where business_id = ? order by id').all(1) as { id: number }[]
        ).map((r) => r.id);
        copy.close();
        expect(integrity).toBe('ok');

        // Refuses to overwrite without --force.
        const again = await runUntilExit(['backup', '--out', out], env);
        expect(again.code).toBe(1);
        expect(again.stderr).toContain('already exists');
        expect(again.stdout).toBe('');

        await server.stop();
        server = undefined;

        // The documented restore: the copy in place of the database, the master key file and the files beside it.
        const restoredDb = path.join(dir, 'restored', 'bizapi.db');
        const restoredData = path.join(dir, 'restored', 'data');
        fs.mkdirSync(restoredData, { recursive: true });
        fs.copyFileSync(out, restoredDb);
        fs.copyFileSync(path.join(dataDir, 'master.key'), path.join(restoredData, 'master.key'));
        restored = await startBizapi(['serve'], envFor(restoredDb, restoredData));
        const port2 = restored.port;
        expect(body(await request(port2, creds, 'GET', '/readyz')).status).toBe('ready');
        for (const [url, answer] of before) expect(body(await request(port2, creds, 'GET', url)), url).toEqual(answer);
        // A snapshot: every seeded client, then the writer's clients up to some point, without gaps.
        const listed: number[] = [];
        let next: string | null = '/v1/client?page_size=100';
        while (next) {
          const page = body(await request(port2, creds, 'GET', next));
          listed.push(...page.results.map((c: { id: number }) => c.id));
          next = page.next === null ? null : `${new URL(page.next).pathname}${new URL(page.next).search}`;
        }
        listed.sort((x, y) => x - y);
        expect(listed).toEqual(copiedIds);
        expect(listed.slice(0, seeded.length)).toEqual(seeded);
        expect(listed.length).toBeGreaterThan(seeded.length);
        expect(listed).toEqual(Array.from({ length: listed.length }, (_, i) => listed[0]! + i));
        // The restored server takes writes.
        const after = await request(port2, creds, 'POST', '/v1/client', { companyName: 'After the restore' });
        expect('status' in after && after.status).toBe(201);
      } finally {
        await server?.stop();
        await restored?.stop();
      }
    },
  );

  it.skipIf(DIALECT === 'postgres')(
    'refuses --out naming a file of the live database (itself, -wal, -shm, -journal; another spelling, a symbolic or hard link), --force or not, and the server keeps every write',
    async () => {
      const db = path.join(dir, 'busy', 'bizapi.db');
      const dataDir = path.join(dir, 'busy', 'data');
      fs.mkdirSync(path.dirname(db), { recursive: true });
      const env = envFor(db, dataDir);
      const created = await runUntilExit(['business', 'create', '--name', 'Busy', '--plan', 'AGENCY'], env);
      expect(created.code, created.stderr).toBe(0);
      const creds: Credentials = JSON.parse(created.stdout);
      let server: BizapiProcess | undefined = await startBizapi(['serve'], env);
      try {
        const ids: number[] = [];
        for (let i = 0; i < 10; i += 1)
          ids.push(body(await request(server.port, creds, 'POST', '/v1/client', { companyName: `Busy ${i}` })).id);
        expect(fs.existsSync(`${db}-wal`)).toBe(true);
        fs.symlinkSync(`${db}-wal`, path.join(dir, 'wal-link'));
        fs.linkSync(db, path.join(dir, 'db-hardlink'));
        const outs = [
          [db, db],
          [`${db}-wal`, `${db}-wal`],
          [`${db}-shm`, `${db}-shm`],
          [`${db}-journal`, `${db}-journal`],
          [path.join(dir, 'busy', '..', 'busy', '.', 'bizapi.db-wal'), `${db}-wal`],
          [path.join(dir, 'wal-link'), `${db}-wal`],
          [path.join(dir, 'db-hardlink'), db],
        ];
        for (const [out, named] of outs) {
          const r = await runUntilExit(['backup', '--out', out!, '--force'], env);
          expect(r.code, `${out}: ${r.stderr}`).toBe(1);
          expect(r.stdout).toBe('');
          expect(r.stderr).toContain(`--out names ${named}, a file of the live database`);
        }
        // Every acknowledged write is still there, also after a restart of the server.
        await server.stop();
        server = await startBizapi(['serve'], env);
        for (const id of ids) expect(body(await request(server.port, creds, 'GET', `/v1/client/${id}`)).id).toBe(id);
        expect(fs.readdirSync(path.join(dir, 'busy')).filter((f) => f.includes('.partial-'))).toEqual([]);
      } finally {
        await server?.stop();
      }
    },
  );

  it(`refuses on PostgreSQL, naming pg_dump, and writes nothing (${DIALECT} run)`, async () => {
    const url = DIALECT === 'postgres' ? process.env.DATABASE_URL! : 'postgres://bizapi:secret@127.0.0.1:1/none';
    const out = path.join(dir, 'pg.db');
    const r = await runUntilExit(['backup', '--out', out], {
      ...cleanEnv(),
      DATABASE_URL: url,
      BIZAPI_DATA_DIR: path.join(dir, 'pg-data'),
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('pg_dump');
    expect(fs.existsSync(out)).toBe(false);
  });
});
