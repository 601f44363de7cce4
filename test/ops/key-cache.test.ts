/**
 * The per-process cache of resolved API keys (src/modules/auth/key-cache.ts, docs/authentication.md#keys) and
 * decisions §3: a revoked key stops at once in every process.
 *
 * - In one process: once a key has been resolved, the next request with it runs no key lookup statement
 *   (on PostgreSQL once the cache's `LISTEN` connection is up); a key revoked through this process's own
 *   database handle answers 401 on the very next request.
 * - Two real `bizapi serve` processes on one database, both having served (and cached) two keys of a
 *   business: `bizapi key revoke` (a third process) revokes one, and the very next request with it answers 401
 *   `authentication_failed` on both servers ("Invalid or revoked API key.", docs/authentication.md#failures),
 *   while the other key still answers 200; then deleting a key (`bizapi export`'s temporary-key path,
 *   `deleteApiKey`) from the test process does the same.
 * - A business's plan changed by hand in SQL (as an operator would; test/setup/plan-gate-tests.ts `setPlan`),
 *   from another connection or this process's own, and a key revoked by hand in SQL: the very next request
 *   sees it, on both servers and in this process (the triggers of migration 2026_11_28_0110). Fails when the
 *   cache holds the plan without them (the bug that reverted the cache's first version).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { apiClient } from '../setup/api-client.ts';
import { newBusiness, newKey, revokeKey } from '../setup/factories.ts';
import { countStatements } from '../setup/statement-count.ts';
import {
  type BizapiProcess,
  request,
  runUntilExit,
  serverEnv,
  startServer,
  statusOf,
} from '../setup/server-process.ts';
import { deleteApiKey } from '../../src/modules/auth/auth.service.ts';
import { sessionUrlOf } from '../../src/config.ts';
import type { Plan } from '../../src/shared/auth-context.ts';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 60_000 });

let t: TestApp;
let dataDir: string;
beforeAll(async () => {
  t = await buildTestApp();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-key-cache-'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const { get } = apiClient(() => t.app);

/** Whether one of `statements` reads the `api_key` table (the key lookup). */
const readsKeys = (statements: string[]) => statements.some((s) => /from "api_key"/i.test(s));

/** Whether this app can cache keys: SQLite always; PostgreSQL only with a session to LISTEN on. */
const cacheAvailable = () => t.config.database.dialect === 'sqlite' || sessionUrlOf(t.config.database) !== undefined;

describe('in one process', () => {
  it('a key resolved once is not looked up again', async (ctx) => {
    // behind a transaction-mode pooler without DATABASE_DIRECT_URL nothing is cached (docs/deployment.md)
    if (!cacheAvailable()) ctx.skip();
    const b = await newBusiness(t, { catalog: null });
    // PostgreSQL caches once its LISTEN connection is up (asynchronously after start).
    await vi.waitFor(
      async () => {
        const first = await countStatements(() => get(b, '/v1/client'));
        expect(first.result.status).toBe(200);
        const second = await countStatements(() => get(b, '/v1/client'));
        expect(second.result.status).toBe(200);
        expect(readsKeys(second.statements), second.statements.join('\n')).toBe(false);
      },
      { timeout: 15_000, interval: 100 },
    );
  });

  it('a key revoked by this process answers 401 on the next request', async () => {
    const b = await newBusiness(t, { catalog: null });
    const other = await newKey(t, b.businessId);
    for (let i = 0; i < 3; i++) {
      expect((await get(b, '/v1/client')).status).toBe(200);
      expect((await get(other, '/v1/client')).status).toBe(200);
    }
    await revokeKey(t, b);
    const refused = await get(b, '/v1/client');
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ detail: 'Invalid or revoked API key.', code: 'authentication_failed' });
    expect((await get(other, '/v1/client')).status).toBe(200);
  });
});

/** Moves business `b` to `plan` by SQL, as an operator would (no command changes a plan). */
async function setPlanBySql(b: { businessId: number }, plan: Plan): Promise<void> {
  await t.testDb.db.updateTable('business').set({ plan }).where('id', '=', b.businessId).execute();
}

describe('a plan changed by hand in SQL, in one process', () => {
  it('the next request sees the new plan (GET /v1/project: FREE and AGENCY only)', async () => {
    const b = await newBusiness(t, { plan: 'AGENCY', catalog: null });
    await vi.waitFor(async () => {
      // cached (PostgreSQL: once the LISTEN connection is up)
      const cached = await countStatements(() => get(b, '/v1/project'));
      expect(cached.result.status).toBe(200);
      if (cacheAvailable()) expect(readsKeys(cached.statements)).toBe(false);
    });
    for (const [plan, status] of [
      ['BASIC', 403],
      ['AGENCY', 200],
      ['TEAM', 403],
      ['FREE', 200],
    ] as const) {
      await setPlanBySql(b, plan);
      const res = await get(b, '/v1/project');
      expect(res.status, plan).toBe(status);
      if (status === 403) expect(res.body).toMatchObject({ code: 'PLAN_PERMISSION_DENIED' });
    }
  });
});

describe('two server processes on one database', () => {
  let one: BizapiProcess;
  let two: BizapiProcess;
  beforeAll(async () => {
    [one, two] = await Promise.all([
      startServer({ databaseUrl: t.testDb.url, dataDir }),
      startServer({ databaseUrl: t.testDb.url, dataDir }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([one?.stop(), two?.stop()]);
  });

  /** The status each server answers `creds` on `GET /v1/client`. */
  const statuses = async (creds: { apiKey: string; secretKey: string }) => [
    statusOf(await request(one.port, creds, 'GET', '/v1/client')),
    statusOf(await request(two.port, creds, 'GET', '/v1/client')),
  ];

  /**
   * Asserts `check` on the next request (SQLite: the counter is read by every request), or on PostgreSQL
   * once the change's notification has reached the servers' listeners (docs/authentication.md#revoking-a-key:
   * a notification's delivery, normally under a millisecond, longer on a loaded machine); without the
   * notification it never holds (entries live 60 s).
   */
  const next = async (check: () => Promise<void>) =>
    t.config.database.dialect === 'sqlite' ? check() : vi.waitFor(check, { timeout: 2_000, interval: 10 });

  /** Both servers serve both keys a few times (so each has them cached), and have their caches armed. */
  async function servedEverywhere(...keys: { apiKey: string; secretKey: string }[]): Promise<void> {
    // PostgreSQL: the servers' LISTEN connections are up before the test revokes anything (the log says so
    // only on failure; wait until each has served a few requests, the connection opens at start).
    for (let i = 0; i < 3; i++) for (const k of keys) expect(await statuses(k)).toEqual([200, 200]);
  }

  it('bizapi key revoke (another process): the next request with the key is 401 on both servers', async () => {
    const b = await newBusiness(t, { catalog: null });
    const other = await newKey(t, b.businessId);
    await servedEverywhere(b, other);
    const revoked = await runUntilExit(['key', 'revoke', b.apiKey], serverEnv({ databaseUrl: t.testDb.url, dataDir }));
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(JSON.parse(revoked.stdout)).toEqual({ revoked: true });
    const answers = [await request(one.port, b, 'GET', '/v1/client'), await request(two.port, b, 'GET', '/v1/client')];
    expect(answers.map(statusOf)).toEqual([401, 401]);
    for (const a of answers)
      expect('body' in a && JSON.parse(a.body)).toMatchObject({
        detail: 'Invalid or revoked API key.',
        code: 'authentication_failed',
      });
    expect(await statuses(other)).toEqual([200, 200]);
  });

  it('a plan changed by hand in SQL: the next request sees it on both servers', async () => {
    const b = await newBusiness(t, { plan: 'AGENCY', catalog: null });
    const project = async () => [
      statusOf(await request(one.port, b, 'GET', '/v1/project')),
      statusOf(await request(two.port, b, 'GET', '/v1/project')),
    ];
    for (let i = 0; i < 3; i++) expect(await project()).toEqual([200, 200]);
    await setPlanBySql(b, 'BASIC');
    await next(async () => expect(await project()).toEqual([403, 403]));
    await setPlanBySql(b, 'FREE');
    await next(async () => expect(await project()).toEqual([200, 200]));
  });

  it('a key revoked by hand in SQL: the next request with it is 401 on both servers', async () => {
    const b = await newBusiness(t, { catalog: null });
    const other = await newKey(t, b.businessId);
    await servedEverywhere(b, other);
    await t.testDb.db
      .updateTable('api_key')
      .set({ revoked_at: new Date().toISOString() as never })
      .where('key_hash', '=', createHash('sha256').update(b.apiKey).digest('hex'))
      .execute();
    await next(async () => expect(await statuses(b)).toEqual([401, 401]));
    expect(await statuses(other)).toEqual([200, 200]);
  });

  it('a key deleted by another process: the next request with it is 401 on both servers', async () => {
    const b = await newBusiness(t, { catalog: null });
    const other = await newKey(t, b.businessId);
    await servedEverywhere(b, other);
    expect(await deleteApiKey(t.testDb.db, b.apiKey)).toBe(true);
    await next(async () => expect(await statuses(b)).toEqual([401, 401]));
    expect(await statuses(other)).toEqual([200, 200]);
  });
});
