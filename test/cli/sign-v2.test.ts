/**
 * `bizapi sign --v2` and `bizapi request --v2 --idempotency-key` (docs/authentication.md#signature-version-2,
 * docs/api.md#idempotent-retries) against a real listening server on the test database: the printed
 * signature is the one the server accepts (once), `request --v2` passes `BIZAPI_SIGNATURE_MODE=v2`, and a
 * retried `request --idempotency-key` is a replay.
 */
import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signV2 } from '../../src/modules/auth/hmac.ts';
import { buildSiblingApp, buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../setup/factories.ts';
import { BIN } from '../setup/server-process.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let t: TestApp;
let strict: FastifyInstance;
let baseUrl: string;
let b: TestBusiness;
beforeAll(async () => {
  t = await buildTestApp();
  strict = await buildSiblingApp(t, { BIZAPI_SIGNATURE_MODE: 'v2' });
  await strict.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(strict.server.address() as AddressInfo).port}`;
  b = await newBusiness(t);
});
afterAll(async () => {
  await strict.close();
  await t.close();
});

/** Runs `bin/bizapi ARGS` without any bizapi setting of the parent's environment. */
function bizapi(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (/^(BIZAPI_|DATABASE_URL$|LOG_LEVEL$)/.test(name)) delete env[name];
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env, timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr });
    });
  });
}

describe('bizapi sign --v2', () => {
  it('prints the v2 signature and timestamp the server accepts, once', async () => {
    const body = '{"companyName":"Signed by the CLI"}';
    const r = await bizapi(
      'sign',
      '--v2',
      '--secret',
      b.secretKey,
      '--method',
      'post',
      '--path',
      '/v1/client?x=1',
      '--data',
      body,
    );
    expect(r.code, r.stderr).toBe(0);
    const { signature, timestamp } = JSON.parse(r.stdout) as { signature: string; timestamp: string };
    expect(signature).toBe(`v2=${signV2(b.secretKey, timestamp, 'POST', '/v1/client?x=1', body)}`);
    const headers = {
      'x-api-key': b.apiKey,
      'x-signature': signature,
      'x-signature-timestamp': timestamp,
      'content-type': 'application/json',
    };
    const first = await fetch(`${baseUrl}/v1/client?x=1`, { method: 'POST', headers, body });
    expect(first.status).toBe(201);
    const again = await fetch(`${baseUrl}/v1/client?x=1`, { method: 'POST', headers, body });
    expect(again.status).toBe(403);
    expect(((await again.json()) as { code: string }).code).toBe('signature_replayed');
  });

  it('--timestamp fixes the time; --hex prints only the header value; missing --path fails', async () => {
    const r = await bizapi(
      'sign',
      '--v2',
      '--secret',
      's',
      '--method',
      'GET',
      '--path',
      '/v1/folder',
      '--timestamp',
      '1700000000',
      '--hex',
    );
    expect(r.stdout).toBe(`v2=${signV2('s', '1700000000', 'GET', '/v1/folder', '')}\n`);
    const bad = await bizapi('sign', '--v2', '--secret', 's', '--method', 'GET');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--path');
  });
});

describe('bizapi request --v2', () => {
  it("the same request already sent with the next seconds' timestamps is signed again until one is new", async () => {
    const path = `/v1/client?search=${Date.now()}`;
    const now = Math.floor(Date.now() / 1000);
    for (let ts = now; ts < now + 8; ts++) {
      const sent = await fetch(`${baseUrl}${path}`, {
        headers: {
          'x-api-key': b.apiKey,
          'x-signature-timestamp': String(ts),
          'x-signature': `v2=${signV2(b.secretKey, ts, 'GET', path, '')}`,
        },
      });
      expect(sent.status).toBe(200);
    }
    const r = await bizapi(
      'request',
      'GET',
      path,
      '--v2',
      '--base-url',
      baseUrl,
      '--key',
      b.apiKey,
      '--secret',
      b.secretKey,
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).results).toEqual([]);
  });

  it('passes a server that accepts only version 2, and --idempotency-key makes the retry a replay', async () => {
    const args = [
      'request',
      'POST',
      '/v1/client',
      '--v2',
      '--base-url',
      baseUrl,
      '--key',
      b.apiKey,
      '--secret',
      b.secretKey,
    ];
    const key = `cli-${Date.now()}`;
    const first = await bizapi(...args, '--data', '{"companyName":"CLI retry"}', '--idempotency-key', key);
    expect(first.code, first.stderr).toBe(0);
    // The retry at once: when it falls in the same second, its first signature is a replay and it signs again.
    const again = await bizapi(...args, '--data', '{"companyName":"CLI retry"}', '--idempotency-key', key);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe(first.stdout);
    const list = await bizapi(
      'request',
      'GET',
      '/v1/client?search=CLI%20retry',
      '--v2',
      '--base-url',
      baseUrl,
      '--key',
      b.apiKey,
      '--secret',
      b.secretKey,
    );
    expect(JSON.parse(list.stdout).results).toHaveLength(1);
    const v1 = await bizapi(
      'request',
      'GET',
      '/v1/folder',
      '--base-url',
      baseUrl,
      '--key',
      b.apiKey,
      '--secret',
      b.secretKey,
    );
    expect(v1.code).toBe(1);
    expect(JSON.parse(v1.stdout).code).toBe('signature_required');
  });
});
