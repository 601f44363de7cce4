/** `GET /v1/log/` error paths: query parameters, cursors, methods (decisions §2, §4). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { apiClient } from '../../setup/api-client.ts';

let t: TestApp;
const { call } = apiClient(() => t.app);
let b: TestBusiness;
beforeAll(async () => {
  t = await buildTestApp();
  b = await newBusiness(t);
});
afterAll(async () => {
  await t.close();
});

describe('GET /v1/log/ — errors', () => {
  it.each(['0', '-1', 'abc', '1.5'])('answers 400 on page_size=%s', async (value) => {
    const res = await call(b, { method: 'GET', url: `/v1/log/?page_size=${value}` });
    expect(res.status).toBe(400);
    expect(res.body.page_size).toEqual([expect.any(String)]);
  });

  it('clamps page_size to 100', async () => {
    const res = await call(b, { method: 'GET', url: '/v1/log/?page_size=1000' });
    expect(res.status).toBe(200);
  });

  it('answers 404 Invalid cursor for a forged cursor and for a cursor of another list', async () => {
    const forged = await call(b, { method: 'GET', url: '/v1/log/?cursor=WzAsIjIwMjYiLDFd.AAAAAAAAAAAAAAAA' });
    expect(forged.status).toBe(404);
    expect(forged.body.detail).toBe('Invalid cursor');
    for (let i = 0; i < 2; i++) await call(b, { method: 'POST', url: '/v1/client', body: { companyName: `C${i}` } });
    const clients = await call(b, { method: 'GET', url: '/v1/client?page_size=1' });
    const cursor = new URL(clients.body.next).searchParams.get('cursor')!;
    const foreign = await call(b, { method: 'GET', url: `/v1/log/?cursor=${encodeURIComponent(cursor)}` });
    expect(foreign.status).toBe(404);
    expect(foreign.body.detail).toBe('Invalid cursor');
  });

  it.each(['POST', 'PATCH', 'DELETE'] as const)('answers 405 with Allow: GET to %s', async (method) => {
    const res = await call(b, { method, url: '/v1/log/' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET');
    expect(res.body.detail).toBe(`Method "${method}" not allowed.`);
  });
});
