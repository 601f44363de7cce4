/**
 * The probes `/healthz` and `/readyz` (extensions): no key, liveness, readiness against a reachable
 * database with its schema current, and 503 when the database is unreachable, its migrations are missing,
 * or a graceful shutdown has begun.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createDb } from '../../src/db/create-db.ts';
import { buildTestApp, TEST_MASTER_KEY_HEX, type TestApp } from '../setup/build-test-app.ts';
import { DIALECT } from '../setup/test-db.ts';
import { poolEnvOf, urlWithSchema } from '../setup/test-workers.ts';
import { apiClient } from '../setup/api-client.ts';

let t: TestApp;
const { raw } = apiClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

/** One GET on its own keep-alive connection: status, headers and body. */
function httpGet(
  port: number,
  urlPath: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const agent = new http.Agent({ keepAlive: true });
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: urlPath, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
  }).finally(() => agent.destroy());
}

/** An application over `databaseUrl` (not migrated by this helper), with extra settings and routes. */
async function appOver(
  databaseUrl: string,
  env: Record<string, string> = {},
  beforeReady: (app: FastifyInstance) => void = () => undefined,
) {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    BIZAPI_MASTER_KEY: TEST_MASTER_KEY_HEX,
    ...env,
    DATABASE_URL: databaseUrl,
    ...poolEnvOf(databaseUrl),
  });
  const db = createDb(config.database);
  const app = await buildApp(config, { db, masterKey: config.masterKey! });
  beforeReady(app);
  await app.ready();
  return { app, db };
}

/**
 * A database URL on the dialect under test with no migrations applied: a new SQLite file, or a new
 * PostgreSQL schema (through `search_path`) holding an empty migration table (Kysely looks for that table
 * in every schema, and the test database's own is in `public`). `drop()` removes it.
 */
async function emptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (DIALECT === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-readyz-'));
    return {
      url: `sqlite:${path.join(dir, 'empty.db')}`,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const schema = `readyz_${Math.random().toString(36).slice(2, 10)}`;
  await sql`create schema ${sql.id(schema)}`.execute(t.testDb.db);
  await sql`create table ${sql.id(schema, 'kysely_migration')} (name varchar(255) not null primary key, timestamp varchar(255) not null)`.execute(
    t.testDb.db,
  );
  return {
    url: urlWithSchema(t.testDb.url, schema),
    drop: async () => void (await sql`drop schema ${sql.id(schema)} cascade`.execute(t.testDb.db)),
  };
}

describe('GET /healthz', () => {
  it('answers 200 {"status": "ok"} without a key', async () => {
    const res = await raw(undefined, { method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });
});

describe('GET /readyz', () => {
  it('answers 200 when the database answers and its schema is current', async () => {
    const res = await raw(undefined, { method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', migrations: 'ok', process: 'ok', masterKey: 'ok' },
    });
  });

  it('answers 503 migrations: pending on a database without the migrations', async () => {
    const empty = await emptyDatabase();
    const { app, db } = await appOver(empty.url);
    try {
      const res = await apiClient(app).raw(undefined, { method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        status: 'unavailable',
        checks: { database: 'ok', migrations: 'pending', process: 'ok', masterKey: 'unknown' },
      });
      expect((await apiClient(app).raw(undefined, { method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await db.destroy();
      await empty.drop();
    }
  });

  it('answers 503 database: unreachable when the database does not answer', async () => {
    // SQLite: the connection is closed under the application; PostgreSQL: nothing listens on port 1.
    const { app, db } = await appOver(
      DIALECT === 'sqlite' ? t.testDb.url : 'postgres://nobody:nothing@127.0.0.1:1/none',
    );
    try {
      if (DIALECT === 'sqlite') {
        await sql`select 1`.execute(db);
        await db.destroy();
      }
      const res = await apiClient(app).raw(undefined, { method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        status: 'unavailable',
        checks: { database: 'unreachable', migrations: 'unknown', process: 'ok', masterKey: 'unknown' },
      });
    } finally {
      await app.close();
      await db.destroy();
    }
  });

  it('answers 503 process: draining from the start of a graceful shutdown, while requests are still served and then close their connections', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { app, db } = await appOver(t.testDb.url, { BIZAPI_SHUTDOWN_DELAY: '1500' }, (a) =>
      a.get('/test/hold', { schema: { hide: true } }, async () => {
        await held;
        return { held: true };
      }),
    );
    const port = Number(new URL(await app.listen({ host: '127.0.0.1', port: 0 })).port);
    const inFlight = httpGet(port, '/test/hold');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closed = app.close();
    try {
      const ready = await httpGet(port, '/readyz');
      expect(ready.status).toBe(503);
      expect(JSON.parse(ready.body)).toEqual({
        status: 'unavailable',
        checks: { database: 'ok', migrations: 'ok', process: 'draining', masterKey: 'ok' },
      });
      expect(ready.headers.connection).toBe('close');
      const live = await httpGet(port, '/healthz');
      expect(live.status).toBe(200);
    } finally {
      release();
    }
    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(answered.headers.connection).toBe('close');
    await closed;
    await db.destroy();
  });
});
