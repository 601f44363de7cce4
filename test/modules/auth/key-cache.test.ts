/**
 * The key lookup's cache (docs/authentication.md#keys, `KEY_CACHE_MS` in src/modules/auth/auth.service.ts): a
 * server reads a key's row at most once a second while the key is in use, so
 *
 * - a key revoked by another process (here: this test process, writing the database a real `bizapi serve`
 *   child reads) is refused by that server at the latest {@link KEY_CACHE_MS} after the revocation
 *   committed: every request sent after that bound answers 401, while the business's other key still works;
 * - a key revoked in the serving process itself is refused at once;
 * - a new key works at once (unknown keys are never remembered).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { KEY_CACHE_MS } from '../../../src/modules/auth/auth.service.ts';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, newKey, revokeKey } from '../../setup/factories.ts';
import { type BizapiProcess, request, startServer, statusOf } from '../../setup/server-process.ts';
import { send } from '../../setup/signed-request.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let t: TestApp;
let dataDir: string;
let server: BizapiProcess;
beforeAll(async () => {
  t = await buildTestApp();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-key-cache-'));
  server = await startServer({ databaseUrl: t.testDb.url, dataDir });
});
afterAll(async () => {
  await server?.stop();
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the key cache', () => {
  it('a key revoked by another process is refused within KEY_CACHE_MS; the other key keeps working', async () => {
    const biz = await newBusiness(t, { catalog: null });
    const other = await newKey(t, biz.businessId);
    // In use: the server has the key's row in its cache.
    for (let i = 0; i < 5; i++) expect(statusOf(await request(server.port, biz, 'GET', '/v1/client'))).toBe(200);

    await revokeKey(t, biz); // this process, not the server's
    const revokedAt = performance.now();
    // Requests keep coming while the cache may still hold the key; every one sent after the bound is refused.
    const late: (number | string)[] = [];
    const early: (number | string)[] = [];
    while (performance.now() - revokedAt < KEY_CACHE_MS + 500) {
      const sentAt = performance.now();
      const status = statusOf(await request(server.port, biz, 'GET', '/v1/client'));
      (sentAt - revokedAt > KEY_CACHE_MS ? late : early).push(status);
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(late.length).toBeGreaterThan(0);
    expect(new Set(late)).toEqual(new Set([401]));
    // Before the bound the answer is 200 (cached) or 401 (read again), nothing else.
    for (const status of early) expect([200, 401]).toContain(status);
    expect(statusOf(await request(server.port, other, 'GET', '/v1/client'))).toBe(200);
  });

  it('a new key works at once (unknown keys are never cached)', async () => {
    const biz = await newBusiness(t, { catalog: null });
    const fresh = { apiKey: `${biz.apiKey.slice(0, -4)}zzzz`, secretKey: biz.secretKey };
    expect(statusOf(await request(server.port, fresh, 'GET', '/v1/client'))).toBe(401);
    const issued = await newKey(t, biz.businessId);
    expect(statusOf(await request(server.port, issued, 'GET', '/v1/client'))).toBe(200);
  });

  it('a key revoked in the serving process is refused at once', async () => {
    const biz = await newBusiness(t, { catalog: null });
    const other = await newKey(t, biz.businessId);
    for (let i = 0; i < 3; i++) expect((await send(t.app, biz, { method: 'GET', url: '/v1/client' })).statusCode).toBe(200);
    await revokeKey(t, biz);
    expect((await send(t.app, biz, { method: 'GET', url: '/v1/client' })).statusCode).toBe(401);
    expect((await send(t.app, other, { method: 'GET', url: '/v1/client' })).statusCode).toBe(200);
  });
});
