/**
 * Signature version 2 through HTTP (decisions §15; docs/authentication.md#signature-version-2): what it
 * covers (timestamp, method, path with query, body), the ±300 s window (`signature_expired`), a malformed or
 * missing timestamp (`signature_timestamp_invalid`), the replay cache shared by every process on the
 * database and through Redis (`signature_replayed`), `BIZAPI_SIGNATURE_MODE=v2` (`signature_required`), the
 * default mode accepting both versions, and the purge of remembered signatures.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRetention } from '../../src/jobs/retention.ts';
import { signV2 } from '../../src/modules/auth/hmac.ts';
import { buildSiblingApp, buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../setup/factories.ts';
import { freePort } from '../setup/helpers.ts';
import { apiClient } from '../setup/api-client.ts';

let t: TestApp;
const { raw } = apiClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

interface V2Options {
  /** Unix seconds; default now. */
  ts?: number | string;
  /** Sign another method / URL / body than the one sent. */
  signMethod?: string;
  signUrl?: string;
  signBody?: string;
  /** Replace the signature hex. */
  hex?: string;
  timestampHeader?: string | null;
}

/** Sends a request signed with version 2. */
function sendV2(
  app: FastifyInstance,
  b: TestBusiness,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
  o: V2Options = {},
) {
  const payload = body === undefined ? '' : JSON.stringify(body);
  const ts = String(o.ts ?? Math.floor(Date.now() / 1000));
  const hex = o.hex ?? signV2(b.secretKey, ts, o.signMethod ?? method, o.signUrl ?? url, o.signBody ?? payload);
  const headers: Record<string, string> = {};
  if (o.timestampHeader !== null) headers['x-signature-timestamp'] = o.timestampHeader ?? ts;
  return apiClient(app).call(b, { method, url, body, signature: `v2=${hex}`, headers });
}

describe('a valid version-2 signature', () => {
  it('authorises GET with a query, POST with a body, and DELETE', async () => {
    const b = await newBusiness(t);
    expect((await sendV2(t.app, b, 'GET', '/v1/client?page_size=5')).status).toBe(200);
    const created = await sendV2(t.app, b, 'POST', '/v1/client', { companyName: 'Signed v2' });
    expect(created.status).toBe(201);
    expect((await sendV2(t.app, b, 'DELETE', `/v1/client/${created.body.id}`)).status).toBe(204);
  });

  it('accepts a timestamp 290 seconds in the past or the future', async () => {
    const b = await newBusiness(t);
    const now = Math.floor(Date.now() / 1000);
    expect((await sendV2(t.app, b, 'GET', '/v1/folder', undefined, { ts: now - 290 })).status).toBe(200);
    expect((await sendV2(t.app, b, 'GET', '/v1/folder', undefined, { ts: now + 290 })).status).toBe(200);
  });

  it('the default mode still accepts version 1 and unsigned requests', async () => {
    const b = await newBusiness(t);
    expect((await raw(b, { method: 'GET', url: '/v1/folder' })).statusCode).toBe(200);
    expect((await raw(b, { method: 'GET', url: '/v1/folder', signature: false })).statusCode).toBe(200);
  });
});

describe('what the signature binds', () => {
  it.each([
    ['another method', { signMethod: 'GET' }],
    ['another path', { signUrl: '/v1/client/1' }],
    ['another query', { signUrl: '/v1/client?page_size=6' }],
    ['another body', { signBody: '{"companyName":"Other"}' }],
    ['a wrong hex', { hex: '0'.repeat(64) }],
    ['a truncated hex', { hex: 'abc' }],
  ])('answers 403 signature_invalid for %s', async (_name, o) => {
    const b = await newBusiness(t);
    const res = await sendV2(t.app, b, 'POST', '/v1/client?page_size=5', { companyName: 'Bound' }, o);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'signature_invalid' });
  });

  it('a signature of another key fails', async () => {
    const a = await newBusiness(t);
    const b = await newBusiness(t);
    const ts = String(Math.floor(Date.now() / 1000));
    const res = await sendV2(t.app, a, 'GET', '/v1/folder', undefined, {
      ts,
      hex: signV2(b.secretKey, ts, 'GET', '/v1/folder', ''),
    });
    expect(res.body).toMatchObject({ code: 'signature_invalid' });
  });
});

describe('the timestamp', () => {
  it.each([
    ['310 seconds old', -310],
    ['310 seconds ahead', 310],
    ['a day old', -86_400],
  ])('answers 403 signature_expired when it is %s', async (_name, offset) => {
    const b = await newBusiness(t);
    const res = await sendV2(t.app, b, 'GET', '/v1/folder', undefined, { ts: Math.floor(Date.now() / 1000) + offset });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'signature_expired' });
  });

  it.each([
    ['missing', null],
    ['not a number', 'yesterday'],
    ['in milliseconds with a fraction', '1700000000.5'],
    ['negative', '-5'],
  ])('answers 403 signature_timestamp_invalid when it is %s', async (_name, header) => {
    const b = await newBusiness(t);
    const res = await sendV2(t.app, b, 'GET', '/v1/folder', undefined, { timestampHeader: header });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'signature_timestamp_invalid' });
  });
});

describe('the replay cache', () => {
  it('refuses the same signed request a second time (403 signature_replayed), also in another process on the database', async () => {
    const b = await newBusiness(t);
    const ts = Math.floor(Date.now() / 1000);
    const first = await sendV2(t.app, b, 'POST', '/v1/client', { companyName: 'Once' }, { ts });
    expect(first.status).toBe(201);
    const again = await sendV2(t.app, b, 'POST', '/v1/client', { companyName: 'Once' }, { ts });
    expect(again.status).toBe(403);
    expect(again.body).toMatchObject({ code: 'signature_replayed' });
    const sibling = await buildSiblingApp(t, {});
    try {
      const elsewhere = await sendV2(sibling, b, 'POST', '/v1/client', { companyName: 'Once' }, { ts });
      expect(elsewhere.body).toMatchObject({ code: 'signature_replayed' });
    } finally {
      await sibling.close();
    }
    const list = await sendV2(t.app, b, 'GET', '/v1/client?search=Once');
    expect(list.body.results).toHaveLength(1);
  });

  it('of 20 concurrent copies of one signed request exactly one passes', async () => {
    const b = await newBusiness(t);
    const ts = Math.floor(Date.now() / 1000);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => sendV2(t.app, b, 'GET', '/v1/folder', undefined, { ts })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.body?.code === 'signature_replayed')).toHaveLength(19);
  });

  it('an invalid signature is not remembered (it cannot block the real one)', async () => {
    const b = await newBusiness(t);
    const ts = Math.floor(Date.now() / 1000);
    const hex = signV2(b.secretKey, ts, 'GET', '/v1/folder', '');
    // The right hex on a request it does not match: refused, and not recorded.
    expect((await sendV2(t.app, b, 'GET', '/v1/folder?x=1', undefined, { ts, hex })).body).toMatchObject({
      code: 'signature_invalid',
    });
    expect((await sendV2(t.app, b, 'GET', '/v1/folder', undefined, { ts, hex })).status).toBe(200);
  });

  it('the retention job deletes signatures whose window has ended', async () => {
    const b = await newBusiness(t);
    await sendV2(t.app, b, 'GET', '/v1/folder');
    await t.testDb.db
      .insertInto('signature_replay')
      .values({ signature: `old-${Date.now()}`, expires_at: Date.now() - 1000 })
      .execute();
    const result = await runRetention(t.testDb.db);
    expect(result.signatures).toBeGreaterThanOrEqual(1);
    const left = await t.testDb.db.selectFrom('signature_replay').select('expires_at').execute();
    expect(left.every((r) => Number(r.expires_at) >= Date.now() - 5000)).toBe(true);
    expect(left.length).toBeGreaterThanOrEqual(1);
  });
});

describe('BIZAPI_SIGNATURE_MODE=v2', () => {
  let strict: FastifyInstance;
  beforeAll(async () => {
    strict = await buildSiblingApp(t, { BIZAPI_SIGNATURE_MODE: 'v2' });
  });
  afterAll(() => strict.close());

  it('refuses version 1 and unsigned requests with 403 signature_required, accepts version 2', async () => {
    const b = await newBusiness(t);
    const v1 = await apiClient(strict).call(b, { method: 'GET', url: '/v1/folder' });
    expect(v1.status).toBe(403);
    expect(v1.body).toMatchObject({ code: 'signature_required' });
    const none = await apiClient(strict).call(b, {
      method: 'POST',
      url: '/v1/client',
      body: { companyName: 'x' },
      signature: false,
    });
    expect(none.body).toMatchObject({ code: 'signature_required' });
    expect((await sendV2(strict, b, 'GET', '/v1/folder')).status).toBe(200);
  });
});

const redisServer = spawnSync('redis-server', ['--version']).status === 0;

describe.skipIf(!redisServer)('the replay cache in Redis (REDIS_URL)', () => {
  let redis: ChildProcess;
  let one: FastifyInstance;
  let two: FastifyInstance;
  beforeAll(async () => {
    const port = await freePort();
    redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'pipe',
    });
    await new Promise<void>((resolve, reject) => {
      redis.once('error', reject);
      redis.stdout!.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('Ready to accept connections')) resolve();
      });
    });
    const url = `redis://127.0.0.1:${port}`;
    one = await buildSiblingApp(t, { REDIS_URL: url, BIZAPI_RATE_LIMIT: '0' });
    two = await buildSiblingApp(t, { REDIS_URL: url, BIZAPI_RATE_LIMIT: '0' });
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    redis?.kill();
  });

  it('is shared by the processes, and nothing goes to the database table', async () => {
    const b = await newBusiness(t);
    const ts = Math.floor(Date.now() / 1000);
    const hex = signV2(b.secretKey, ts, 'GET', '/v1/folder', '');
    expect((await sendV2(one, b, 'GET', '/v1/folder', undefined, { ts })).status).toBe(200);
    expect((await sendV2(two, b, 'GET', '/v1/folder', undefined, { ts })).body).toMatchObject({
      code: 'signature_replayed',
    });
    const row = await t.testDb.db
      .selectFrom('signature_replay')
      .select('signature')
      .where('signature', '=', hex)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });
});
