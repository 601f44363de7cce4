/**
 * Database faults (issue 13, items 1 and 7): the processes survive them and clients get 503 with
 * `Retry-After`, never a 500, never a crash; the next requests succeed once the database is back.
 *
 * - PostgreSQL, a real `bizapi serve`: its backends terminated while idle (`pg_terminate_backend`, on this
 *   run's database only, chosen by `application_name`) → the process keeps running and answers; a request
 *   waiting in the database when its backend is terminated → 503 with `Retry-After`, then the retry → 201.
 * - PostgreSQL, a real `bizapi worker`: its backends terminated again and again → it keeps running, and
 *   stops cleanly on SIGTERM.
 * - Both: the database unreachable (PostgreSQL: connection refused; SQLite: the write lock held by another
 *   connection beyond the busy timeout) → 503 `{"detail": …}` with `Retry-After`; back → 201.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createDb, loadSqliteDriver } from '../../src/db/create-db.ts';
import type { Database } from '../../src/db/database.ts';
import { buildTestApp, TEST_MASTER_KEY_HEX, type TestApp } from '../setup/build-test-app.ts';
import { type BizapiProcess, fetchJson, serverEnv, startBizapi } from '../setup/server-process.ts';
import { newBusiness, type TestBusiness } from '../setup/factories.ts';
import { DIALECT } from '../setup/test-db.ts';
import { directWorkerUrl } from '../setup/test-workers.ts';
import { apiClient } from '../setup/api-client.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let t: TestApp;
let dataDir: string;
beforeAll(async () => {
  t = await buildTestApp();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-faults-'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/**
 * Starts a `bin/bizapi` child process on the test database whose PostgreSQL sessions carry `appName`. In the
 * pooled run (test/setup/test-workers.ts) it connects directly: these tests terminate the server's own
 * sessions, which behind PgBouncer are the pooler's (and carry no `application_name` of the client's).
 */
function startChild(args: string[], appName: string, ready: RegExp): Promise<BizapiProcess> {
  const url = new URL(directWorkerUrl()!);
  url.searchParams.set('application_name', appName);
  const env = serverEnv({
    databaseUrl: url.toString(),
    dataDir,
    // a worker restricted to a business that does not exist touches no other test's outbox rows
    env: { LOG_LEVEL: 'info', BIZAPI_DISPATCHER_BUSINESS_IDS: '999999999', BIZAPI_DISPATCHER_POLL_MS: '100' },
  });
  return startBizapi(args, env, ready);
}

/** Terminates every PostgreSQL session of this database opened by `appName`; returns how many. */
async function terminate(db: Kysely<Database>, appName: string): Promise<number> {
  const r = await sql<{ n: number | string }>`SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity
    WHERE datname = current_database() AND application_name = ${appName} AND pid <> pg_backend_pid()`.execute(db);
  return Number(r.rows[0]!.n);
}

/** One signed request with fetch. */
async function call(port: number, b: TestBusiness, method: string, url: string, body?: unknown) {
  const res = await fetchJson(`http://127.0.0.1:${port}`, b, method, url, body);
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: res.body };
}

describe.runIf(DIALECT === 'postgres')('PostgreSQL backends terminated (real processes)', () => {
  it('bizapi serve keeps running when its idle connections are terminated; a request in flight gets 503 + Retry-After; the next succeed', async () => {
    const b = await newBusiness(t);
    const appName = `bizapi-fault-${process.pid}-${Date.now()}`;
    const server = await startChild(['serve'], appName, /bizapi listening on http:\/\/127\.0\.0\.1:(\d+)/);
    const port = Number(server.match[1]);
    const own = createDb(t.testDb.config);
    try {
      expect((await call(port, b, 'GET', '/v1/folder')).status).toBe(200);
      // Idle connections terminated: the old code died here with an unhandled 'error' event of the pool.
      expect(await terminate(own, appName)).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(server.process.exitCode).toBeNull();
      expect((await call(port, b, 'GET', '/v1/folder')).status).toBe(200);
      expect((await call(port, b, 'POST', '/v1/client', { companyName: 'After the blip' })).status).toBe(201);

      // A request in flight (its insert waits for a lock) when its backend is terminated.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const holder = own.transaction().execute(async (trx) => {
        await sql`LOCK TABLE client IN EXCLUSIVE MODE`.execute(trx);
        locked();
        await released;
      });
      await isLocked;
      const inFlight = call(port, b, 'POST', '/v1/client', { companyName: 'Cut off' });
      try {
        await vi.waitFor(
          async () => {
            const r = await sql<{ n: number | string }>`SELECT count(*) AS n FROM pg_stat_activity
              WHERE datname = current_database() AND application_name = ${appName} AND wait_event_type = 'Lock'`.execute(
              own,
            );
            expect(Number(r.rows[0]!.n)).toBe(1);
          },
          { timeout: 15_000, interval: 50 },
        );
        await terminate(own, appName);
      } finally {
        release();
        await holder;
      }
      const cut = await inFlight;
      expect(cut.status, JSON.stringify(cut.body)).toBe(503);
      expect(cut.retryAfter).toMatch(/^\d+$/);
      expect(cut.body).toMatchObject({ detail: 'Service temporarily unavailable, try again later.' });
      expect(server.process.exitCode).toBeNull();
      const again = await call(port, b, 'POST', '/v1/client', { companyName: 'Cut off' });
      expect(again.status).toBe(201);
      const names = await own
        .selectFrom('client')
        .select('company_name')
        .where('business_id', '=', b.businessId)
        .execute();
      expect(names.map((r) => r.company_name).sort()).toEqual(['After the blip', 'Cut off']);
    } finally {
      await own.destroy();
      server.process.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
  });

  it('bizapi worker keeps running when its connections are terminated again and again, and stops cleanly', async () => {
    const appName = `bizapi-fault-worker-${process.pid}-${Date.now()}`;
    const worker = await startChild(['worker'], appName, /bizapi worker: delivering notifications/);
    const own = createDb(t.testDb.config);
    try {
      let terminated = 0;
      for (let i = 0; i < 6; i++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        terminated += await terminate(own, appName);
        expect(worker.process.exitCode, worker.stderr()).toBeNull();
      }
      expect(terminated).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(worker.process.exitCode, worker.stderr()).toBeNull();
    } finally {
      await own.destroy();
      worker.process.kill('SIGTERM');
    }
    expect(await worker.exited).toBe(0);
    expect(worker.stderr()).toContain('bizapi worker: stopped');
  });
});

describe(`database unreachable (${DIALECT})`, () => {
  it.runIf(DIALECT === 'postgres')('connection refused: 503 {"detail"} with Retry-After, not 500', async () => {
    const b = await newBusiness(t);
    // A port nobody listens on.
    const closed = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as net.AddressInfo;
        s.close(() => resolve(port));
      });
    });
    const url = new URL(t.testDb.url);
    url.port = String(closed);
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      BIZAPI_MASTER_KEY: TEST_MASTER_KEY_HEX,
      BIZAPI_DATA_DIR: dataDir,
      DATABASE_URL: url.toString(),
    });
    const db = createDb(config.database);
    const app = await buildApp(config, { db, masterKey: t.masterKey });
    try {
      for (const req of [
        { method: 'GET', url: '/v1/client' },
        { method: 'POST', url: '/v1/client', body: { companyName: 'Nowhere' } },
      ] as const) {
        const res = await apiClient(app).call(b, req);
        expect(res.status, JSON.stringify(res.body)).toBe(503);
        expect(res.headers['retry-after']).toMatch(/^\d+$/);
        expect(res.body.detail).toBe('Service temporarily unavailable, try again later.');
      }
    } finally {
      await app.close();
      await db.destroy();
    }
  });

  it.runIf(DIALECT === 'postgres')(
    'a database that accepts but never answers: the pool times out → 503, no hang',
    async () => {
      const b = await newBusiness(t);
      const sockets: net.Socket[] = [];
      const silent = net.createServer((s) => sockets.push(s));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const url = new URL(t.testDb.url);
      url.port = String((silent.address() as net.AddressInfo).port);
      const config = loadConfig({
        LOG_LEVEL: 'silent',
        BIZAPI_MASTER_KEY: TEST_MASTER_KEY_HEX,
        BIZAPI_DATA_DIR: dataDir,
        DATABASE_URL: url.toString(),
      });
      const db = createDb(config.database, { connectionTimeoutMillis: 500 });
      const app = await buildApp(config, { db, masterKey: t.masterKey });
      try {
        const res = await apiClient(app).call(b, { method: 'GET', url: '/v1/client' });
        expect(res.status, JSON.stringify(res.body)).toBe(503);
        expect(res.headers['retry-after']).toMatch(/^\d+$/);
      } finally {
        await app.close();
        await db.destroy();
        for (const s of sockets) s.destroy();
        silent.close();
      }
    },
  );

  it.runIf(DIALECT === 'sqlite')(
    'the write lock held beyond the busy timeout (SQLITE_BUSY): 503 with Retry-After, then 201',
    async () => {
      const b = await newBusiness(t);
      const Sqlite = loadSqliteDriver();
      const other = new Sqlite((t.testDb.config as { path: string }).path);
      other.pragma('busy_timeout = 0');
      other.exec('BEGIN IMMEDIATE');
      try {
        const res = await apiClient(t.app).call(b, {
          method: 'POST',
          url: '/v1/client',
          body: { companyName: 'Locked out' },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(503);
        expect(res.headers['retry-after']).toMatch(/^\d+$/);
        expect(res.body.detail).toBe('Service temporarily unavailable, try again later.');
      } finally {
        other.exec('ROLLBACK');
        other.close();
      }
      const res = await apiClient(t.app).call(b, {
        method: 'POST',
        url: '/v1/client',
        body: { companyName: 'Locked out' },
      });
      expect(res.status).toBe(201);
    },
  );
});
