/**
 * One name for the server's address (issue 36, item 2), in real `bin/bizapi` processes against a real HTTP
 * server that records what reaches it:
 * - `BIZAPI_URL` and `--url` (which wins) name the server of `bizapi request`, silently;
 * - the old names still work, each with exactly one deprecation line on stderr: `--base-url`,
 *   `BIZAPI_BASE_URL`, and the address derived from `PORT` (here from a `.env` file, as after `--port 8080`);
 * - `bizapi mcp` takes `--url` too (checked by its refusal of a non-http address, before it starts);
 * - `request FETCH …` is refused with a message naming the methods, and sends nothing (it answered a raw
 *   `{"error":"Bad Request","message":"Client Error"}` from Node's HTTP parser).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BIN, cleanEnv } from '../setup/server-process.ts';

vi.setConfig({ testTimeout: 60_000 });

let dir: string;
let server: http.Server;
let url: string;
const received: { method: string; url: string; port: number }[] = [];
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-address-'));
  server = http.createServer((req, res) => {
    received.push({ method: req.method ?? '', url: req.url ?? '', port: (server.address() as AddressInfo).port });
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ reached: req.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs `bin/bizapi ARGS` in a directory of its own with the key, the secret and `env`. */
function run(
  args: string[],
  env: Record<string, string> = {},
  dotEnv?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const cwd = fs.mkdtempSync(path.join(dir, 'run-'));
  if (dotEnv !== undefined) fs.writeFileSync(path.join(cwd, '.env'), dotEnv);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd, env: { ...cleanEnv(), BIZAPI_API_KEY: 'bz_k', BIZAPI_SECRET_KEY: 's', ...env }, timeout: 30_000 },
      (err, stdout, stderr) =>
        resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr }),
    );
  });
}

const deprecations = (stderr: string) => stderr.split('\n').filter((l) => /deprecated/.test(l));

describe('the address of the server', () => {
  it('BIZAPI_URL, and --url over it, silently', async () => {
    const viaEnv = await run(['request', 'GET', '/v1/client?via=env'], { BIZAPI_URL: url });
    expect(viaEnv.code, viaEnv.stderr).toBe(0);
    expect(JSON.parse(viaEnv.stdout)).toEqual({ reached: '/v1/client?via=env' });
    expect(deprecations(viaEnv.stderr)).toEqual([]);
    const viaFlag = await run(['request', 'GET', '/v1/client?via=flag', '--url', url], {
      BIZAPI_URL: 'http://127.0.0.1:1',
    });
    expect(viaFlag.code, viaFlag.stderr).toBe(0);
    expect(JSON.parse(viaFlag.stdout)).toEqual({ reached: '/v1/client?via=flag' });
    expect(deprecations(viaFlag.stderr)).toEqual([]);
  });

  it.each([
    ['--base-url', ['--base-url', '{url}'], {}, undefined, /--base-url is deprecated; use --url/],
    ['BIZAPI_BASE_URL', [], { BIZAPI_BASE_URL: '{url}' }, undefined, /BIZAPI_BASE_URL is deprecated; use BIZAPI_URL/],
    [
      'PORT in .env',
      [],
      {},
      'PORT={port}\n',
      /deriving the server's address from PORT \/ HOST \(http:\/\/127\.0\.0\.1:\d+\) is deprecated; use BIZAPI_URL=/,
    ],
  ])('the old name %s still works, with one deprecation line', async (_name, flags, env, dotEnv, line) => {
    const port = new URL(url).port;
    const fill = (v: string) => v.replace('{url}', url).replace('{port}', port);
    const r = await run(
      ['request', 'GET', '/v1/client?old=1', ...flags.map(fill)],
      Object.fromEntries(Object.entries(env).map(([k, v]) => [k, fill(v)])),
      dotEnv === undefined ? undefined : fill(dotEnv),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ reached: '/v1/client?old=1' });
    expect(deprecations(r.stderr)).toHaveLength(1);
    expect(deprecations(r.stderr)[0]).toMatch(line);
  });

  it('bizapi mcp takes --url (over BIZAPI_URL)', async () => {
    const r = await run(['mcp', '--url', 'ftp://files.example'], { BIZAPI_URL: url });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('"ftp://files.example" is not an http:// or https:// URL');
  });

  it('request FETCH: a clear refusal naming the methods; nothing is sent', async () => {
    const before = received.length;
    const r = await run(['request', 'FETCH', '/v1/client'], { BIZAPI_URL: url });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      '"FETCH" is not an HTTP method bizapi answers: use one of GET, POST, PUT, PATCH, DELETE',
    );
    expect(received.length).toBe(before);
  });
});
