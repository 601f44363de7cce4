/**
 * bizapi behind a real PgBouncer in transaction mode (docs/deployment.md#transaction-mode-poolers-pgbouncer):
 * Debian's PgBouncer 1.18, which keeps no prepared statements, started by this file with two server
 * connections per database alias (test/setup/pgbouncer.ts), in front of this run's PostgreSQL database.
 * Real `bizapi` processes throughout:
 *
 * - named prepared statements break there (`BIZAPI_PG_PREPARED=true`: requests fail with 500 and the log
 *   names the setting), and `DATABASE_POOL_MODE=transaction` turns them off: every request answers;
 * - `bizapi migrate` through the pooler, twice at once, applies every migration once (the lock is taken
 *   inside the migration's transaction);
 * - live webhook delivery: a `bizapi worker` whose poll is an hour away is woken up by the API process's
 *   `NOTIFY` through its `LISTEN` on `DATABASE_DIRECT_URL`; without it, the poll delivers.
 *
 * Skipped on SQLite, and where PgBouncer is not installed (`apt-get install pgbouncer`; CI installs it).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDb } from '../../src/db/create-db.ts';
import { pendingMigrations } from '../../src/db/migrator.ts';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../setup/factories.ts';
import { hasPgbouncer, type Pgbouncer, startPgbouncer } from '../setup/pgbouncer.ts';
import {
  type BizapiProcess,
  request,
  runUntilExit,
  serverEnv,
  startBizapi,
  startServer,
} from '../setup/server-process.ts';
import { DIALECT } from '../setup/test-db.ts';
import { directDatabaseUrl, workerSchema } from '../setup/test-workers.ts';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 90_000 }); // several server starts under tsx on a loaded machine

const RUNS = DIALECT === 'postgres' && hasPgbouncer();
const WHY = DIALECT !== 'postgres' ? 'PostgreSQL only' : 'pgbouncer is not installed (apt-get install pgbouncer)';

let t: TestApp;
let bouncer: Pgbouncer;
let direct: string;
let dataDir: string;
const fresh = `pgbouncer_${process.pid}`;
const children: BizapiProcess[] = [];

beforeAll(async () => {
  if (!RUNS) return;
  t = await buildTestApp();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-pgbouncer-'));
  direct = directDatabaseUrl()!;
  const admin = new pg.Client({ connectionString: direct });
  await admin.connect();
  await admin.query(`drop schema if exists ${fresh} cascade`);
  await admin.query(`create schema ${fresh}`);
  await admin.end();
  // `api`: this worker's schema, where buildTestApp's businesses are; `fresh`: an empty schema to migrate
  // `named`: the same schema for the server with named statements, whose failed transactions may hold its pool
  const schema = workerSchema(Number(process.env.VITEST_POOL_ID ?? 1));
  bouncer = await startPgbouncer({ direct, aliases: { api: schema, named: schema, fresh }, poolSize: 2 });
});

afterAll(async () => {
  if (!RUNS) return;
  await Promise.all(children.map((c) => c.stop()));
  await bouncer?.stop();
  const admin = new pg.Client({ connectionString: direct });
  await admin.connect();
  await admin.query(`drop schema if exists ${fresh} cascade`);
  await admin.end();
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A server (or `bizapi worker`) child through the pooler's `alias`, with `env`; stopped after the file. */
async function start(args: 'serve' | 'worker', env: Record<string, string>, alias = 'api'): Promise<BizapiProcess> {
  const options = {
    databaseUrl: bouncer.url(alias),
    dataDir,
    env: { DATABASE_POOL_MODE: 'transaction', DATABASE_DIRECT_URL: '', ...env },
  };
  // a worker says it is delivering at level info (serverEnv's default is warn: the line would never come)
  const child =
    args === 'serve'
      ? await startServer(options)
      : await startBizapi(
          ['worker'],
          serverEnv({ ...options, env: { LOG_LEVEL: 'info', ...options.env } }),
          /bizapi worker: delivering/,
        );
  children.push(child);
  return child;
}

/** `rounds` rounds of `width` signed requests at once (a record by id, the list), through `port`; their statuses. */
async function burst(
  port: number,
  b: TestBusiness,
  clientId: number,
  rounds = 3,
  width = 16,
): Promise<(number | string)[]> {
  const statuses: (number | string)[] = [];
  for (let round = 0; round < rounds; round++) {
    const outcomes = await Promise.all(
      Array.from({ length: width }, (_, i) =>
        request(port, b, 'GET', i % 2 === 0 ? `/v1/client/${clientId}` : '/v1/client'),
      ),
    );
    statuses.push(...outcomes.map((o) => ('status' in o ? o.status : o.error)));
  }
  return statuses;
}

describe.skipIf(!RUNS)(`through PgBouncer in transaction mode${RUNS ? '' : ` (skipped: ${WHY})`}`, () => {
  it('named prepared statements fail behind it (BIZAPI_PG_PREPARED=true); DATABASE_POOL_MODE=transaction turns them off', async () => {
    const b = await newBusiness(t);
    const created = await request(
      (await start('serve', { BIZAPI_WEBHOOK_ALLOW_PRIVATE: 'true' })).port,
      b,
      'POST',
      '/v1/client',
      { companyName: 'Pooled' },
    );
    expect('status' in created && created.status).toBe(201);
    const clientId = (JSON.parse((created as { body: string }).body) as { id: number }).id;

    // named: each of the server's connections parses bizapi_N on whichever of PgBouncer's two server
    // connections its transaction gets ("already exists"), and binds it where it was never parsed ("does not exist")
    const named = await start('serve', { BIZAPI_PG_PREPARED: 'true' }, 'named');
    const broken = await burst(named.port, b, clientId);
    expect(broken.filter((s) => s !== 200).length).toBeGreaterThan(0);
    expect(broken.filter((s) => s !== 200 && s !== 500)).toEqual([]);
    await named.stop('SIGKILL');

    // unnamed (the default in transaction mode): every request answers, reads and writes
    const pooled = children[0]!;
    expect(await burst(pooled.port, b, clientId)).toEqual(Array.from({ length: 48 }, () => 200));
    const renamed = await request(pooled.port, b, 'PATCH', `/v1/client/${clientId}`, {
      companyName: 'Pooled, renamed',
    });
    expect('status' in renamed && renamed.status).toBe(200);
    const read = await request(pooled.port, b, 'GET', `/v1/client/${clientId}`);
    expect('body' in read && (JSON.parse(read.body) as { companyName: string }).companyName).toBe('Pooled, renamed');
  });

  it('bizapi migrate through it, twice at once, applies every migration once', async () => {
    const env = serverEnv({
      databaseUrl: bouncer.url('fresh'),
      dataDir,
      env: { DATABASE_POOL_MODE: 'transaction', DATABASE_DIRECT_URL: '' },
    });
    const runs = await Promise.all([runUntilExit(['migrate'], env), runUntilExit(['migrate'], env)]);
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const db = createDb({ dialect: 'postgres', url: bouncer.url('fresh'), poolMode: 'transaction' });
    try {
      expect(await pendingMigrations(db)).toEqual([]);
    } finally {
      await db.destroy();
    }
    // once each: the bookkeeping of the fresh schema lists every migration once
    const admin = new pg.Client({ connectionString: direct });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ n: string; distinct: string }>(
        `select count(*) as n, count(distinct name) as distinct from ${fresh}.kysely_migration`,
      );
      expect(Number(rows[0]!.n)).toBeGreaterThan(0);
      expect(rows[0]!.n).toBe(rows[0]!.distinct);
    } finally {
      await admin.end();
    }
    // and a third run finds nothing to do (no lock left behind on a server connection)
    const again = await runUntilExit(['migrate'], env);
    expect(again.code, again.stderr).toBe(0);
  });

  describe('live webhook delivery', () => {
    let receiver: http.Server;
    let received: string[] = [];
    let hookUrl: string;
    beforeAll(async () => {
      receiver = http.createServer((req, res) => {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString()));
        req.on('end', () => {
          received.push(body);
          res.end('ok');
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    });
    afterAll(() => {
      receiver?.closeAllConnections();
      receiver?.close();
    });

    /** A business with a webhook for every event, and a worker delivering only its events with `env`. */
    async function setUp(
      env: Record<string, string>,
    ): Promise<{ b: TestBusiness; api: BizapiProcess; worker: BizapiProcess }> {
      const b = await newBusiness(t, { catalog: null });
      const api = children[0] ?? (await start('serve', { BIZAPI_WEBHOOK_ALLOW_PRIVATE: 'true' }));
      const hook = await request(api.port, b, 'POST', '/v1/webhook', { url: hookUrl, eventTypes: ['*'] });
      expect('status' in hook && hook.status, JSON.stringify(hook)).toBe(201);
      const worker = await start('worker', {
        BIZAPI_WEBHOOK_ALLOW_PRIVATE: 'true',
        BIZAPI_DISPATCHER_BUSINESS_IDS: String(b.businessId),
        ...env,
      });
      return { b, api, worker };
    }

    /** Writes a client named `name` of `b` through `api`; resolves once its `client.created` has arrived. */
    async function deliveredAfterWrite(api: BizapiProcess, b: TestBusiness, name: string): Promise<void> {
      const res = await request(api.port, b, 'POST', '/v1/client', { companyName: name });
      expect('status' in res && res.status).toBe(201);
      await vi.waitFor(
        () =>
          expect(
            received.some((body) => body.includes(name)),
            `${received.length} received: ${received.join('\n').slice(0, 500)}`,
          ).toBe(true),
        { timeout: 30_000, interval: 50 },
      );
    }

    it('wakes the worker through LISTEN on DATABASE_DIRECT_URL (its poll is an hour away)', async () => {
      const { b, api, worker } = await setUp({ DATABASE_DIRECT_URL: direct, BIZAPI_DISPATCHER_POLL_MS: '3600000' });
      await deliveredAfterWrite(api, b, `woken-${process.pid}`);
      expect(worker.stderr()).not.toContain('LISTEN connection failed');
      await worker.stop();
    });

    it('without DATABASE_DIRECT_URL falls back to polling (no LISTEN through the pooler)', async () => {
      received = [];
      const { b, api, worker } = await setUp({ BIZAPI_DISPATCHER_POLL_MS: '200' });
      await deliveredAfterWrite(api, b, `polled-${process.pid}`);
      expect(worker.stderr()).not.toContain('LISTEN');
      await worker.stop();
    });
  });
});
