/** `bizapi openapi` prints, as one JSON document, the OpenAPI document the server serves at /openapi.json. */
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { BIN } from '../setup/server-process.ts';
import { apiClient } from '../setup/api-client.ts';

let t: TestApp;
const { raw } = apiClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('bizapi openapi', () => {
  it('prints the served document, and needs no database', async () => {
    const env = { ...process.env, DATABASE_URL: 'postgres://nobody:nothing@127.0.0.1:1/none' };
    const { stdout, code } = await new Promise<{ stdout: string; code: number }>((resolve) => {
      execFile(process.execPath, [BIN, 'openapi'], { env, timeout: 30_000, maxBuffer: 64 * 1024 * 1024 }, (err, out) =>
        resolve({ stdout: out, code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1 }),
      );
    });
    expect(code).toBe(0);
    const served = (await raw(undefined, { method: 'GET', url: '/openapi.json' })).json();
    expect(JSON.parse(stdout)).toEqual(served);
  });
});
