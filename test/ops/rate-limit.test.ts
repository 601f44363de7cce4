/**
 * Rate limit per API key (decisions §2, §3): the IETF headers on every response, 429 in DRF's shape with
 * Retry-After, one counter per key, off with 0, counters shared between processes through the database and
 * through Redis, and the fixed window of the shared counter.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hit } from '../../src/modules/rate-limit/rate-limit.repository.ts';
import { buildSiblingApp, buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness, newKey, type TestBusiness } from '../setup/factories.ts';
import { type SignedRequest } from '../setup/signed-request.ts';
import { apiClient } from '../setup/api-client.ts';
import { freePort } from '../setup/helpers.ts';

let t: TestApp;
const { call, raw } = apiClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp({ BIZAPI_RATE_LIMIT: '5' });
});
afterAll(async () => {
  await t.close();
});

const folders: SignedRequest = { method: 'GET', url: '/v1/folder' };

/** Parses `"per-key";r=3;t=60` into `{r: 3, t: 60}`. */
function parseRateLimit(value: unknown): { r: number; t: number } {
  const m = /^"per-key";r=(\d+);t=(\d+)$/.exec(String(value));
  expect(m, `RateLimit: ${String(value)}`).not.toBeNull();
  return { r: Number(m![1]), t: Number(m![2]) };
}

/** Sends `n` calls and returns their statuses. */
async function burst(app: FastifyInstance, b: { apiKey: string; secretKey: string }, n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await apiClient(app).raw(b, folders)).statusCode);
  return statuses;
}

describe('rate limit per API key', () => {
  it('sends RateLimit-Policy and RateLimit on every response, counting down', async () => {
    const b = await newBusiness(t);
    const remaining: number[] = [];
    for (const req of [
      folders,
      { method: 'POST', url: '/v1/client', body: {} } as SignedRequest, // 400
      { method: 'GET', url: '/v1/client/999999999' } as SignedRequest, // 404
      { ...folders, signature: '0'.repeat(64) }, // 403
    ]) {
      const res = await raw(b, req);
      expect(res.headers['ratelimit-policy'], `${req.method} ${req.url} ${res.statusCode}`).toBe('"per-key";q=5;w=60');
      const { r, t: reset } = parseRateLimit(res.headers.ratelimit);
      expect(reset).toBeGreaterThan(0);
      expect(reset).toBeLessThanOrEqual(60);
      remaining.push(r);
    }
    expect(remaining).toEqual([4, 3, 2, 1]);
  });

  it('counts, and sends the headers to, calls with a valid key to an unknown path or method (404, 405), and throttles them', async () => {
    const b = await newBusiness(t);
    const calls: SignedRequest[] = [
      { method: 'GET', url: '/v1/nothing-here' },
      { method: 'PUT', url: '/v1/client', body: {} },
      { method: 'DELETE', url: '/v1/client' },
      { method: 'POST', url: '/v1/nothing/here', body: {} },
    ];
    const seen: { status: number; r: number }[] = [];
    for (const req of calls) {
      const res = await raw(b, req);
      expect(res.headers['ratelimit-policy'], `${req.method} ${req.url}`).toBe('"per-key";q=5;w=60');
      seen.push({ status: res.statusCode, r: parseRateLimit(res.headers.ratelimit).r });
    }
    expect(seen).toEqual([
      { status: 404, r: 4 },
      { status: 405, r: 3 },
      { status: 405, r: 2 },
      { status: 404, r: 1 },
    ]);
    expect((await raw(b, folders)).statusCode).toBe(200);
    const over = await call(b, { method: 'GET', url: '/v1/nothing-here' });
    expect(over.status).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // Without a valid key the answer is the plain 404 / 405, uncounted and without the headers.
    for (const creds of [undefined, { apiKey: 'bz_unknown', secretKey: 'x' }]) {
      const res = await raw(creds, { method: 'PUT', url: '/v1/client' });
      expect(res.statusCode).toBe(405);
      expect(res.headers.ratelimit).toBeUndefined();
    }
  });

  it('counts, and sends the headers to, an unsigned call refused in required mode', async () => {
    const required = await buildSiblingApp(t, { BIZAPI_RATE_LIMIT: '5', BIZAPI_SIGNATURE_MODE: 'required' });
    try {
      const b = await newBusiness(t);
      const unsigned = await apiClient(required).call(b, { ...folders, signature: false });
      expect(unsigned.status).toBe(403);
      expect(unsigned.body.code).toBe('signature_required');
      expect(parseRateLimit(unsigned.headers.ratelimit).r).toBe(4);
      const signed = await apiClient(required).raw(b, folders);
      expect(parseRateLimit(signed.headers.ratelimit).r).toBe(3);
    } finally {
      await required.close();
    }
  });

  it('answers 429 in the DRF shape with Retry-After once the key has used its quota', async () => {
    const b = await newBusiness(t);
    expect(await burst(t.app, b, 5)).toEqual([200, 200, 200, 200, 200]);
    const res = await call(b, folders);
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(res.body).toEqual({
      detail: `Request was throttled. Expected available in ${retryAfter} seconds.`,
      code: 'throttled',
      requestId: expect.any(String),
    });
    expect(res.headers['ratelimit-policy']).toBe('"per-key";q=5;w=60');
    expect(parseRateLimit(res.headers.ratelimit).r).toBe(0);
  });

  it('counts each key on its own: another key of the same business and another business still pass', async () => {
    const b = await newBusiness(t);
    const second = await newKey(t, b.businessId);
    const other = await newBusiness(t);
    await burst(t.app, b, 6);
    expect((await raw(b, folders)).statusCode).toBe(429);
    expect((await raw(second, folders)).statusCode).toBe(200);
    expect((await raw(other, folders)).statusCode).toBe(200);
  });

  it('does not count calls that did not authenticate, and sends them no rate-limit headers', async () => {
    const res = await raw({ apiKey: 'bz_unknown', secretKey: 'x' }, folders);
    expect(res.statusCode).toBe(401);
    expect(res.headers['ratelimit-policy']).toBeUndefined();
    expect(res.headers.ratelimit).toBeUndefined();
  });

  it('logs throttled calls in the API call log', async () => {
    const b = await newBusiness(t);
    await burst(t.app, b, 6);
    await t.app.logWriter.flush();
    const rows = await t.testDb.db
      .selectFrom('api_log')
      .select('status_code')
      .where('business_id', '=', b.businessId)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => r.status_code)).toEqual(['200', '200', '200', '200', '200', '429']);
  });

  it('is off with BIZAPI_RATE_LIMIT=0: no headers, never 429', async () => {
    const off = await buildSiblingApp(t, { BIZAPI_RATE_LIMIT: '0' });
    try {
      const b = await newBusiness(t);
      const statuses = await burst(off, b, 8);
      expect(statuses.every((s) => s === 200)).toBe(true);
      const res = await apiClient(off).raw(b, folders);
      expect(res.headers['ratelimit-policy']).toBeUndefined();
      expect(res.headers.ratelimit).toBeUndefined();
    } finally {
      await off.close();
    }
  });

  it('keeps counters per process in memory by default: a second process starts from zero', async () => {
    const other = await buildSiblingApp(t, { BIZAPI_RATE_LIMIT: '5' });
    try {
      const b = await newBusiness(t);
      await burst(t.app, b, 5);
      expect((await raw(b, folders)).statusCode).toBe(429);
      expect((await apiClient(other).raw(b, folders)).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe('counters shared through the database (BIZAPI_RATE_LIMIT_STORE=database)', () => {
  let one: FastifyInstance;
  let two: FastifyInstance;
  beforeAll(async () => {
    one = await buildSiblingApp(t, { BIZAPI_RATE_LIMIT: '5', BIZAPI_RATE_LIMIT_STORE: 'database' });
    two = await buildSiblingApp(t, { BIZAPI_RATE_LIMIT: '5', BIZAPI_RATE_LIMIT_STORE: 'database' });
  });
  afterAll(async () => {
    await one.close();
    await two.close();
  });

  it('shares one quota between the processes', async () => {
    const b = await newBusiness(t);
    const seen: { status: number; r: number }[] = [];
    for (const app of [one, two, one, two, one, two, one]) {
      const res = await apiClient(app).raw(b, folders);
      seen.push({ status: res.statusCode, r: parseRateLimit(res.headers.ratelimit).r });
    }
    expect(seen).toEqual([
      { status: 200, r: 4 },
      { status: 200, r: 3 },
      { status: 200, r: 2 },
      { status: 200, r: 1 },
      { status: 200, r: 0 },
      { status: 429, r: 0 },
      { status: 429, r: 0 },
    ]);
  });

  it('counts concurrent calls exactly once each', async () => {
    const b = await newBusiness(t);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => apiClient(i % 2 ? one : two).raw(b, folders)),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
  });

  it('starts a new window once the old one has ended (fixed window)', async () => {
    const key = `test:${Math.random()}`;
    // a window start (a whole minute) a day ahead: no retention run can remove the counter mid-test
    const start = (Math.floor(Date.now() / 60_000) + 1440) * 60_000;
    expect(await hit(t.testDb.db, key, start, 60_000)).toEqual({ hits: 1, resetAt: start + 60_000 });
    expect(await hit(t.testDb.db, key, start + 1_000, 60_000)).toEqual({ hits: 2, resetAt: start + 60_000 });
    expect(await hit(t.testDb.db, key, start + 59_999, 60_000)).toEqual({ hits: 3, resetAt: start + 60_000 });
    expect(await hit(t.testDb.db, key, start + 60_000, 60_000)).toEqual({ hits: 1, resetAt: start + 120_000 });
  });
});

describe('a shared store that fails', () => {
  it('lets requests through (fail open) when Redis is unreachable', async () => {
    const port = await freePort(); // nothing listens there
    const app = await buildSiblingApp(t, { BIZAPI_RATE_LIMIT: '1', REDIS_URL: `redis://127.0.0.1:${port}` });
    try {
      const b = await newBusiness(t);
      expect(await burst(app, b, 3)).toEqual([200, 200, 200]);
    } finally {
      await app.close();
    }
  });
});

const redisServer = spawnSync('redis-server', ['--version']).status === 0;

describe.skipIf(!redisServer)(
  'counters shared through Redis (REDIS_URL) — needs the redis-server binary (Debian package redis-server)',
  () => {
    let redis: ChildProcess;
    let url: string;
    let one: FastifyInstance;
    let two: FastifyInstance;
    beforeAll(async () => {
      const port = await freePort();
      url = `redis://127.0.0.1:${port}`;
      redis = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: 'pipe' },
      );
      await new Promise<void>((resolve, reject) => {
        redis.once('error', reject);
        redis.stdout!.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('Ready to accept connections')) resolve();
        });
      });
      one = await buildSiblingApp(t, { BIZAPI_RATE_LIMIT: '5', REDIS_URL: url });
      two = await buildSiblingApp(t, { BIZAPI_RATE_LIMIT: '5', REDIS_URL: url });
    });
    afterAll(async () => {
      await one?.close();
      await two?.close();
      redis?.kill();
    });

    it('shares one quota between the processes', async () => {
      const b: TestBusiness = await newBusiness(t);
      const statuses: number[] = [];
      for (const app of [one, two, one, two, one, two, one])
        statuses.push((await apiClient(app).raw(b, folders)).statusCode);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
      const res = await apiClient(two).raw(b, folders);
      expect(res.headers['ratelimit-policy']).toBe('"per-key";q=5;w=60');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    });
  },
);
