/**
 * Hostile requests (issue 13, items 2, 3, 8, 9 and 10): every one answered with a clear 4xx in DRF's shape,
 * bounded in work, never a 500, never leaking credentials into the server log.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { signBody } from '../../src/modules/auth/hmac.ts';
import { MAX_REPORTED_ERRORS } from '../../src/shared/validation-errors.ts';
import { buildTestApp, TEST_MASTER_KEY_HEX, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../setup/factories.ts';
import { apiClient } from '../setup/api-client.ts';

let t: TestApp;
const { call, raw } = apiClient(() => t.app);
let a: TestBusiness;
let b: TestBusiness;
beforeAll(async () => {
  t = await buildTestApp();
  a = await newBusiness(t);
  b = await newBusiness(t);
});
afterAll(async () => {
  await t.close();
});

/** Every message of a DRF field map, at any depth. */
function messages(fields: unknown): string[] {
  if (Array.isArray(fields)) return fields.map(String);
  if (fields !== null && typeof fields === 'object') {
    return Object.entries(fields)
      .filter(([k]) => k !== 'requestId')
      .flatMap(([, v]) => messages(v));
  }
  return [];
}

/** Sends a raw JSON text as business `who`, signed. */
function rawJson(
  app: FastifyInstance,
  who: TestBusiness,
  method: 'POST' | 'PATCH',
  url: string,
  payload: string | Buffer,
  headers: Record<string, string> = {},
) {
  return apiClient(app).raw(who, { method, url, raw: { payload, contentType: 'application/json' }, headers });
}

/** `app` on the test database with `env` (and an optional log stream). */
async function appWith(
  env: Record<string, string>,
  logStream?: { write(line: string): unknown },
): Promise<FastifyInstance> {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    BIZAPI_MAX_EVENT_LOOP_DELAY: '0',
    BIZAPI_MASTER_KEY: TEST_MASTER_KEY_HEX,
    BIZAPI_DATA_DIR: t.config.dataDir,
    ...env,
    DATABASE_URL: t.testDb.url,
  });
  const app = await buildApp(config, { db: t.testDb.db, masterKey: t.masterKey, logStream });
  await app.ready();
  return app;
}

/** Creates a client of `who` and returns its id. */
async function newClient(who: TestBusiness): Promise<number> {
  const r = await call(who, { method: 'POST', url: '/v1/client', body: { companyName: 'Hostile Co' } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id as number;
}

describe('item 2: validation is bounded and linear', () => {
  it('answers a 50,000-item list property with one capped 400 while another business is served', async () => {
    const zeros = `{"inChargeSet": [${Array(50_000).fill('0').join(',')}]}`;
    const [hostile, other] = await Promise.all([
      rawJson(t.app, a, 'POST', '/v1/inquiry', zeros),
      call(b, { method: 'GET', url: '/v1/client' }),
    ]);
    expect(hostile.statusCode).toBe(400);
    const body = hostile.json();
    expect(body.inChargeSet).toEqual(['Ensure this field has no more than 1000 elements.']);
    expect(messages(body).length).toBeLessThanOrEqual(MAX_REPORTED_ERRORS);
    expect(other.status).toBe(200);
  });

  it('reports one message per list entry and at most 100 messages for a list of bad entries', async () => {
    // 1000 entries (the largest list any request may hold), each wrong in two ways.
    const entries = Array.from({ length: 1000 }, () => ({ field: { id: 'x' }, value: 5 }));
    const r = await call(a, { method: 'POST', url: '/v1/client', body: { companyName: 'X', fieldSet: entries } });
    expect(r.status).toBe(400);
    const all = messages(r.body);
    expect(all.length).toBeGreaterThan(0);
    expect(all.length).toBeLessThanOrEqual(MAX_REPORTED_ERRORS);
    // One message per entry: entry 1 is reported once, whatever else is wrong with it.
    expect(all.filter((m) => m.startsWith('Item 1 ') || m.startsWith('Item 1:'))).toHaveLength(1);
  });

  it('enforces the documented maxItems of member lists', async () => {
    const members = Array.from({ length: 101 }, (_, i) => ({ id: i + 1 }));
    const r = await call(a, { method: 'POST', url: '/v1/inquiry', body: { inChargeSet: members } });
    expect(r.status).toBe(400);
    expect(r.body.inChargeSet).toEqual(['Ensure this field has no more than 100 elements.']);
  });

  it('answers a body object with 60,000 properties 400 without looking further', async () => {
    const wide = `{${Array.from({ length: 60_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`;
    const r = await rawJson(t.app, a, 'POST', '/v1/client', wide);
    expect(r.statusCode).toBe(400);
    expect(r.json().nonField).toEqual(['Ensure this field has no more than 1000 properties.']);
  });

  it('answers a 1 MiB string 400 (413 past the body limit), never 500', async () => {
    const long = JSON.stringify({ companyName: 'x'.repeat(1_000_000) });
    const r = await rawJson(t.app, a, 'POST', '/v1/client', long);
    expect(r.statusCode).toBe(400);
    expect(r.json().companyName[0]).toMatch(/^Ensure this field has no more than \d+ characters\.$/);
    const over = await rawJson(t.app, a, 'POST', '/v1/client', JSON.stringify({ companyName: 'x'.repeat(1_100_000) }));
    expect(over.statusCode).toBe(413);
  });

  it('answers a 1 MiB array of small objects and a list of 1,000 lists 400', async () => {
    const objects = `{"companyName": "X", "fieldSet": [${Array(120_000).fill('{}').join(',')}]}`;
    const r1 = await rawJson(t.app, a, 'POST', '/v1/client', objects);
    expect(r1.statusCode).toBe(400);
    expect(r1.json().fieldSet).toEqual(['Ensure this field has no more than 1000 elements.']);
    const lists = JSON.stringify({
      companyName: 'X',
      fieldSet: Array.from({ length: 1000 }, () => Array(200).fill(null)),
    });
    const r2 = await rawJson(t.app, a, 'POST', '/v1/client', lists);
    expect(r2.statusCode).toBe(400);
    expect(messages(r2.json()).length).toBeLessThanOrEqual(MAX_REPORTED_ERRORS);
  });
});

describe('item 3: deep nesting', () => {
  for (const depth of [3_000, 100_000]) {
    it(`answers JSON nested ${depth} levels deep 400 with a clear detail`, async () => {
      const r = await rawJson(
        t.app,
        a,
        'POST',
        '/v1/client',
        `{"companyName": ${'['.repeat(depth)}${']'.repeat(depth)}}`,
      );
      expect(r.statusCode).toBe(400);
      expect(r.json().detail).toBe('JSON parse error - The body nests lists and objects deeper than 32 levels.');
      const objects = await rawJson(t.app, a, 'PATCH', '/v1/client/1', `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
      expect([400, 404]).toContain(objects.statusCode);
    });
  }

  it('counts brackets inside strings as text, not nesting', async () => {
    const r = await call(a, { method: 'POST', url: '/v1/client', body: { companyName: `${'['.repeat(100)}ok` } });
    expect(r.status).toBe(201);
  });
});

describe('item 8: BIZAPI_PUBLIC_URL and the Host header', () => {
  it('refuses an invalid BIZAPI_PUBLIC_URL at start', () => {
    for (const bad of [
      'api.example.com',
      'ftp://x.example',
      'https://x.example/base',
      'https://u:p@x.example',
      'https://x.example/?a=1',
    ]) {
      expect(() => loadConfig({ BIZAPI_PUBLIC_URL: bad }), bad).toThrow(ConfigError);
    }
    expect(loadConfig({ BIZAPI_PUBLIC_URL: 'https://api.example.com/' }).publicUrl).toBe('https://api.example.com');
  });

  it('with BIZAPI_PUBLIC_URL, links and pre-signed URLs use it and ignore Host', async () => {
    const app = await appWith({ BIZAPI_PUBLIC_URL: 'https://api.example.com' });
    try {
      await newClient(a);
      await newClient(a);
      for (const host of ['evil.example', '', 'a b']) {
        const page = await apiClient(app).raw(a, { method: 'GET', url: '/v1/client?page_size=1', headers: { host } });
        expect(page.statusCode, host).toBe(200);
        expect(page.json().next).toMatch(/^https:\/\/api\.example\.com\/v1\/client\?page_size=1&cursor=/);
        const presigned = await apiClient(app).raw(a, {
          method: 'POST',
          url: '/v1/presigned',
          body: { name: 'a.pdf' },
          headers: { host },
        });
        expect(presigned.statusCode, host).toBe(201);
        expect(presigned.json().url).toMatch(/^https:\/\/api\.example\.com\/files\//);
      }
    } finally {
      await app.close();
    }
  });

  it('without it, an empty or malformed Host is a 400 (never a 500, never http:///…)', async () => {
    await newClient(a);
    await newClient(a);
    // (An empty Host cannot be sent through inject, which fills in its own: see the socket test below.)
    for (const host of ['a b', '[::1', 'x.example:99999', 'x.example/path', 'x@y']) {
      const page = await raw(a, { method: 'GET', url: '/v1/client?page_size=1', headers: { host } });
      expect(page.statusCode, host).toBe(400);
      expect(page.json().detail).toBe('Invalid or missing Host header.');
      const presigned = await raw(a, {
        method: 'POST',
        url: '/v1/presigned',
        body: { name: 'a.pdf' },
        headers: { host },
      });
      expect(presigned.statusCode, host).toBe(400);
    }
    const ok = await raw(a, { method: 'GET', url: '/v1/client?page_size=1', headers: { host: '[::1]:8000' } });
    expect(ok.json().next).toMatch(/^http:\/\/\[::1\]:8000\/v1\/client\?/);
    const probe = await raw(undefined, { method: 'GET', url: '/healthz', headers: { host: '' } });
    expect(probe.statusCode).toBe(200);
  });

  it('answers an HTTP/1.0 request without Host, and an empty Host, 400 over a real socket', async () => {
    const app = await appWith({});
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const { port } = app.server.address() as net.AddressInfo;
      const exchange = (head: string) =>
        new Promise<string>((resolve, reject) => {
          const socket = net.connect(port, '127.0.0.1', () => {
            socket.write(
              `${head}X-API-Key: ${a.apiKey}\r\nX-Signature: ${signBody(a.secretKey, '')}\r\nConnection: close\r\n\r\n`,
            );
          });
          let text = '';
          socket.on('data', (chunk) => (text += chunk.toString()));
          socket.on('end', () => resolve(text));
          socket.on('error', reject);
        });
      for (const head of [
        'GET /v1/client?page_size=1 HTTP/1.0\r\n',
        'GET /v1/client?page_size=1 HTTP/1.1\r\nHost: \r\n',
        'POST /v1/presigned HTTP/1.0\r\n',
      ]) {
        const answer = await exchange(head);
        expect(answer, head).toMatch(/^HTTP\/1\.[01] 400 /);
        expect(answer, head).not.toContain('http:///');
      }
      expect(await exchange('GET /v1/client?page_size=1 HTTP/1.0\r\n')).toContain('Invalid or missing Host header.');
    } finally {
      await app.close();
    }
  });
});

describe('item 9: the server log holds no credentials', () => {
  it('logs no URL signature, API secret, API key header or X-Signature value at trace level', async () => {
    let log = '';
    const sink = new Writable({
      write(chunk, _enc, done) {
        log += String(chunk);
        done();
      },
    });
    const app = await appWith({ LOG_LEVEL: 'trace' }, sink);
    try {
      const presigned = await apiClient(app).raw(a, {
        method: 'POST',
        url: '/v1/presigned',
        body: { name: 'log.pdf' },
      });
      expect(presigned.statusCode).toBe(201);
      const upload = new URL(presigned.json().url as string);
      const bytes = Buffer.from('%PDF-1.4 hostile log test');
      const put = await apiClient(app).raw(undefined, {
        method: 'PUT',
        url: upload.pathname + upload.search,
        raw: { payload: bytes },
        headers: { 'content-type': 'application/pdf' },
      });
      expect(put.statusCode).toBeLessThan(300);
      const tampered = await apiClient(app).raw(undefined, {
        method: 'GET',
        url: `${upload.pathname}?expires=1&signature=forgedforgedforged`,
      });
      expect(tampered.statusCode).toBeGreaterThanOrEqual(400);
      const body = JSON.stringify({ companyName: 'Logged Co' });
      const signature = signBody(a.secretKey, body);
      const created = await apiClient(app).raw(a, {
        method: 'POST',
        url: '/v1/client',
        raw: { payload: body, contentType: 'application/json' },
      });
      expect(created.statusCode).toBe(201);
      const wrong = await apiClient(app).raw(a, {
        method: 'GET',
        url: '/v1/client?signature=querysecretvalue',
        signature: 'f'.repeat(64),
      });
      expect([200, 403]).toContain(wrong.statusCode);
      await apiClient(app).raw(undefined, {
        method: 'GET',
        url: '/v1/client',
        headers: { 'x-api-key': a.apiKey, 'x-signature': signature, authorization: 'Bearer tokentokentoken' },
      });
      expect(log).toContain('/files/');
      const signatureParam = upload.searchParams.get('signature')!;
      for (const secret of [
        signatureParam,
        'forgedforgedforged',
        'querysecretvalue',
        a.secretKey,
        a.apiKey,
        signature,
        'f'.repeat(64),
        'tokentokentoken',
      ]) {
        expect(log.includes(secret), `log contains ${secret}`).toBe(false);
      }
      expect(log).toContain('signature=[REDACTED]');
    } finally {
      await app.close();
    }
  });
});

describe('item 10: the smaller ones', () => {
  it('answers path ids that are not plain decimal 404', async () => {
    const id = await newClient(a);
    expect((await raw(a, { method: 'GET', url: `/v1/client/${id}` })).statusCode).toBe(200);
    const percent = `%3${String(id)[0]}${String(id).slice(1)}`;
    for (const bad of [
      `0${id}`,
      `${id}.0`,
      `${id}e0`,
      `0x${id.toString(16)}`,
      `+${id}`,
      percent,
      `${id}%20`,
      '99999999999',
    ]) {
      const r = await raw(a, { method: 'GET', url: `/v1/client/${bad}` });
      expect(r.statusCode, bad).toBe(404);
      expect(r.json().detail).toBe('Not found.');
    }
  });

  it('answers page sizes that are not decimal integers 400', async () => {
    for (const bad of ['1e2', '0x10', '1.0', '1e', ' 5']) {
      const r = await call(a, { method: 'GET', url: `/v1/client?page_size=${encodeURIComponent(bad)}` });
      expect(r.status, bad).toBe(400);
      expect(r.body.page_size).toEqual(['A valid integer is required.']);
    }
    expect((await call(a, { method: 'GET', url: '/v1/client?page_size=100' })).status).toBe(200);
  });

  it('answers static-file traversal with a 4xx over a real socket (inject would normalise the path)', async () => {
    const app = await appWith({});
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const { port } = app.server.address() as net.AddressInfo;
      for (const target of [
        '/docs/static/../../x',
        '/docs/static/../../package.json',
        '/docs/static/..%2f..%2fpackage.json',
        '/docs/static/%2e%2e/%2e%2e/package.json',
        '/docs/static/%00',
      ]) {
        const answer = await new Promise<string>((resolve, reject) => {
          const socket = net.connect(port, '127.0.0.1', () =>
            socket.write(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`),
          );
          let text = '';
          socket.on('data', (chunk) => (text += chunk.toString()));
          socket.on('end', () => resolve(text));
          socket.on('error', reject);
        });
        expect(answer, target).toMatch(/^HTTP\/1\.1 4\d\d /);
        expect(answer, target).not.toContain('"name": "bizapi"');
      }
    } finally {
      await app.close();
    }
  });

  it('answers a body with a Content-Encoding other than identity 415', async () => {
    const body = JSON.stringify({ companyName: 'Gz' });
    for (const coding of ['gzip', 'br', 'deflate', 'identity, gzip', 'x-custom']) {
      const r = await rawJson(t.app, a, 'POST', '/v1/client', body, { 'content-encoding': coding });
      expect(r.statusCode, coding).toBe(415);
      expect(r.json().detail).toMatch(/^Unsupported Content-Encoding ".+" in request/);
    }
    expect((await rawJson(t.app, a, 'POST', '/v1/client', body, { 'content-encoding': 'identity' })).statusCode).toBe(
      201,
    );
  });

  it('answers invalid UTF-8 400 and lone surrogates 400 like DRF', async () => {
    const bad = Buffer.concat([Buffer.from('{"companyName": "'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const r = await rawJson(t.app, a, 'POST', '/v1/client', bad);
    expect(r.statusCode).toBe(400);
    expect(r.json().detail).toBe(
      "JSON parse error - 'utf-8' codec can't decode byte 0xff in position 17: invalid UTF-8.",
    );
    const overlong = Buffer.concat([Buffer.from('{"companyName": "'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]);
    expect((await rawJson(t.app, a, 'POST', '/v1/client', overlong)).statusCode).toBe(400);
    const form = Buffer.concat([Buffer.from('companyName='), Buffer.from([0xe9]), Buffer.from('t%C3%A9')]);
    const f = await raw(a, {
      method: 'POST',
      url: '/v1/client',
      raw: { payload: form, contentType: 'application/x-www-form-urlencoded' },
    });
    expect(f.statusCode).toBe(400);
    expect(f.json().detail).toMatch(/^Form parse error - 'utf-8' codec can't decode byte 0xe9/);
    const lone = await rawJson(t.app, a, 'POST', '/v1/client', '{"companyName": "a\\ud800b"}');
    expect(lone.statusCode).toBe(400);
    expect(lone.json().companyName).toEqual(['Surrogate characters are not allowed: U+D800.']);
    const pair = await rawJson(t.app, a, 'POST', '/v1/client', '{"companyName": "smile \\ud83d\\ude00"}');
    expect(pair.statusCode).toBe(201);
    expect(pair.json().companyName).toBe('smile 😀');
  });
});

describe('item 10: files on disk and demo credentials', () => {
  it('serve --demo prints the credentials on stdout and creates the data directory 0700, its files 0600', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-modes-'));
    const env: Record<string, string | undefined> = {
      ...process.env,
      BIZAPI_DATA_DIR: path.join(dir, 'data'),
      DATABASE_URL: `sqlite:${path.join(dir, 'db', 'bizapi.db')}`,
      PORT: '0',
      LOG_LEVEL: 'warn',
      BIZAPI_DISPATCHER: 'off',
    };
    delete env.BIZAPI_MASTER_KEY;
    const child = spawn(process.execPath, [path.resolve('bin/bizapi'), 'serve', '--demo'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    try {
      await new Promise<void>((resolve, reject) => {
        child.stderr.on('data', (c: Buffer) => {
          stderr += c.toString();
          if (stderr.includes('bizapi listening on')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
      });
      expect(stdout).toMatch(/export BIZAPI_API_KEY=\S+/);
      expect(stdout).toMatch(/export BIZAPI_SECRET_KEY=\S+/);
      expect(stderr).not.toContain('BIZAPI_SECRET_KEY');
      const mode = (p: string) => fs.statSync(p).mode & 0o777;
      expect(mode(path.join(dir, 'db'))).toBe(0o700);
      expect(mode(path.join(dir, 'db', 'bizapi.db'))).toBe(0o600);
      const walk = (p: string): string[] =>
        fs.statSync(p).isDirectory() ? [p, ...fs.readdirSync(p).flatMap((e) => walk(path.join(p, e)))] : [p];
      const data = walk(path.join(dir, 'data'));
      expect(data).toContain(path.join(dir, 'data', 'master.key'));
      expect(data.some((p) => p.includes(`${path.sep}files${path.sep}`) || p.endsWith('.pdf'))).toBe(true);
      for (const p of data) expect(mode(p), p).toBe(fs.statSync(p).isDirectory() ? 0o700 : 0o600);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
