/**
 * The API call log's security (decisions §3, §9): the shared authentication suite, tenant isolation, no
 * header values or secrets stored, `X-Forwarded-For` believed only from a trusted proxy, and what is never
 * logged (the docs, the OpenAPI document, the probes, calls that did not authenticate).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrlCredentials } from '../../../src/plugins/request-log.ts';
import { buildSiblingApp, buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { runCommonRouteTests } from '../../setup/common-route-tests.ts';
import { newBusiness, newKey, revokeKey } from '../../setup/factories.ts';
import { type LogEntryBody, logOf } from './log-helpers.ts';
import { apiClient } from '../../setup/api-client.ts';

let t: TestApp;
const { call, raw } = apiClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

runCommonRouteTests(() => t, {
  name: 'GET /v1/log/',
  request: () => ({ method: 'GET', url: '/v1/log/' }),
  okStatus: 200,
});

describe('tenant isolation', () => {
  it("never shows another business's calls, not even through a cursor issued to that business", async () => {
    const a = await newBusiness(t);
    const b = await newBusiness(t);
    for (const n of [1, 2, 3]) {
      await raw(a, { method: 'GET', url: `/v1/folder?owner=a&n=${n}` });
      await raw(b, { method: 'GET', url: `/v1/folder?owner=b&n=${n}` });
    }
    const aPaths = (await logOf(t, a)).map((e) => e.path);
    const bPaths = (await logOf(t, b)).map((e) => e.path);
    expect(aPaths).toEqual(['/v1/folder?owner=a&n=3', '/v1/folder?owner=a&n=2', '/v1/folder?owner=a&n=1']);
    expect(bPaths).toEqual(['/v1/folder?owner=b&n=3', '/v1/folder?owner=b&n=2', '/v1/folder?owner=b&n=1']);

    // A cursor of a's list, replayed by b, only ever reads b's rows.
    const page = await call<{ next: string }>(a, { method: 'GET', url: '/v1/log/?page_size=1' });
    const next = new URL(page.body.next);
    const replay = await call<{ results: LogEntryBody[] }>(b, {
      method: 'GET',
      url: next.pathname + next.search,
    });
    expect(replay.status).toBe(200);
    for (const e of replay.body.results) expect(e.path).not.toContain('owner=a');
  });

  it("logs each business's calls under the business of the key that made them, whichever key", async () => {
    const a = await newBusiness(t);
    const second = await newKey(t, a.businessId);
    await raw({ ...second }, { method: 'GET', url: '/v1/folder?key=second' });
    const paths = (await logOf(t, a)).map((e) => e.path);
    expect(paths).toContain('/v1/folder?key=second');
  });
});

describe('what is stored', () => {
  it('stores no header value: not the key, not the signature, not Authorization, Cookie or any other header', async () => {
    const b = await newBusiness(t);
    const marker = `secret-${Math.random().toString(36).slice(2)}`;
    await raw(b, {
      method: 'POST',
      url: '/v1/client?case=headers',
      body: { companyName: 'Headers Co' },
      headers: {
        authorization: `Bearer ${marker}-auth`,
        cookie: `session=${marker}-cookie`,
        'x-custom': `${marker}-custom`,
        'user-agent': `${marker}-agent`,
      },
    });
    await t.app.logWriter.flush();
    const rows = await t.testDb.db.selectFrom('api_log').selectAll().where('business_id', '=', b.businessId).execute();
    expect(rows.length).toBeGreaterThan(0);
    const stored = JSON.stringify(rows);
    expect(stored).toContain('Headers Co');
    for (const secret of [marker, b.apiKey, b.secretKey]) expect(stored).not.toContain(secret);
  });

  it('redacts signatures and tokens in the query strings of URLs inside bodies (pre-signed links)', () => {
    const text = JSON.stringify({
      url: 'https://s3.example.com/b/k.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%2F20261122&X-Amz-Signature=abc123&X-Amz-Expires=60',
      local: 'http://127.0.0.1:8000/files/k.pdf?expires=1700000000&signature=deadbeef',
      other: 'https://example.com/?q=keep&page=2',
    });
    const redacted = JSON.parse(redactUrlCredentials(text)) as Record<string, string>;
    expect(redacted.url).toBe(
      'https://s3.example.com/b/k.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=[REDACTED]&X-Amz-Signature=[REDACTED]&X-Amz-Expires=60',
    );
    expect(redacted.local).toBe('http://127.0.0.1:8000/files/k.pdf?expires=1700000000&signature=[REDACTED]');
    expect(redacted.other).toBe('https://example.com/?q=keep&page=2');
  });
});

describe('the client address', () => {
  it('is the peer address; X-Forwarded-For is believed only from a proxy BIZAPI_TRUST_PROXY trusts', async () => {
    const b = await newBusiness(t);
    const headers = { 'x-forwarded-for': '203.0.113.9' };
    await raw(b, { method: 'GET', url: '/v1/folder?via=direct', headers });
    const behindProxy = await buildSiblingApp(t, { BIZAPI_TRUST_PROXY: '127.0.0.1' });
    try {
      await apiClient(behindProxy).raw(b, { method: 'GET', url: '/v1/folder?via=proxy', headers });
      await behindProxy.logWriter.flush();
    } finally {
      await behindProxy.close();
    }
    const entries = await logOf(t, b);
    expect(entries.find((e) => e.path === '/v1/folder?via=direct')?.ipAddress).toBe('127.0.0.1');
    expect(entries.find((e) => e.path === '/v1/folder?via=proxy')?.ipAddress).toBe('203.0.113.9');
  });
});

describe('what is never logged', () => {
  it('the root, the docs UI, the OpenAPI document, the probes and the metrics, even when a valid key is sent', async () => {
    const b = await newBusiness(t);
    const headers = { 'x-api-key': b.apiKey };
    for (const url of [
      '/',
      '/docs/',
      '/docs/static/swagger-ui.css',
      '/openapi.json',
      '/openapi.json/',
      '/healthz',
      '/readyz',
      '/metrics',
    ]) {
      const res = await raw(undefined, { method: 'GET', url, headers });
      expect(res.statusCode, url).toBe(200);
    }
    expect(await logOf(t, b)).toEqual([]);
  });

  it('calls that did not authenticate: no key, an unknown key, a revoked key (to a route, or to an unknown path or method)', async () => {
    const b = await newBusiness(t);
    const doomed = await newKey(t, b.businessId);
    await revokeKey(t, doomed);
    const marker = `unauth-${Math.random().toString(36).slice(2)}`;
    expect((await raw(undefined, { method: 'GET', url: `/v1/folder?m=${marker}-none` })).statusCode).toBe(401);
    expect(
      (await raw({ apiKey: 'bz_unknown', secretKey: 'x' }, { method: 'GET', url: `/v1/folder?m=${marker}-unknown` }))
        .statusCode,
    ).toBe(401);
    expect((await raw(doomed, { method: 'GET', url: `/v1/folder?m=${marker}-revoked` })).statusCode).toBe(401);
    // An unknown path or method answers 404 / 405 without a valid key, and is not logged either.
    expect((await raw(undefined, { method: 'GET', url: `/v1/nothing-here?m=${marker}-none` })).statusCode).toBe(404);
    expect((await raw(doomed, { method: 'PUT', url: `/v1/client?m=${marker}-revoked` })).statusCode).toBe(405);
    await t.app.logWriter.flush();
    const rows = await t.testDb.db.selectFrom('api_log').select('path').where('path', 'like', `%${marker}%`).execute();
    expect(rows).toEqual([]);
  });
});
