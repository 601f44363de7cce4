/**
 * No request can break the call log (docs/api.md#api-call-log), through a real `bizapi serve` process on the
 * dialect under test: a request refused for its signature whose ~40 KB JSON body nests 20,000 deep is logged
 * with its body kept as text, and `GET /v1/log/` answers 200 showing it; a row of that kind written before the
 * fix (the deep JSON stored as JSON) is shown as text too; a body that is not JSON is shown as the text sent.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { type BizapiProcess, type Outcome, request, startServer } from '../../setup/server-process.ts';
import { DIALECT } from '../../setup/test-db.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let t: TestApp;
let dataDir: string;
let server: BizapiProcess;
beforeAll(async () => {
  t = await buildTestApp();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-log-poisoned-'));
  server = await startServer({ databaseUrl: t.testDb.url, dataDir });
});
afterAll(async () => {
  await server?.stop();
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

interface Entry {
  id: number;
  method: string;
  path: string;
  statusCode: string;
  requestBody: unknown;
  responseBody: unknown;
}

function ok(o: Outcome): Extract<Outcome, { status: number }> {
  if (!('status' in o)) throw new Error(`request failed: ${o.error}`);
  return o;
}

/** The business's log entries (GET /v1/log/ over HTTP), once `predicate` holds for them (the log is written about once a second). */
async function logUntil(b: TestBusiness, predicate: (entries: Entry[]) => boolean): Promise<Entry[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const res = ok(await request(server.port, b, 'GET', '/v1/log/?page_size=100'));
    expect(res.status, res.body.slice(0, 300)).toBe(200);
    const entries = (JSON.parse(res.body) as { results: Entry[] }).results.filter((e) => !e.path.startsWith('/v1/log'));
    if (predicate(entries)) return entries;
    if (Date.now() > deadline)
      throw new Error(`the log never showed the expected rows: ${JSON.stringify(entries).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A JSON text of `depth` nested arrays around `0`. */
function nested(depth: number): string {
  return `${'['.repeat(depth)}0${']'.repeat(depth)}`;
}

describe(`the call log under hostile bodies (${DIALECT}, a real server process)`, () => {
  it('logs a 20,000-deep body refused for its signature as text, and GET /v1/log/ answers 200', async () => {
    const b = await newBusiness(t);
    const body = nested(20_000);
    expect(body.length).toBeGreaterThan(39_000);
    const res = ok(await rawPost(server.port, b, '/v1/client', body));
    expect(res.status).toBe(403);
    const entries = await logUntil(b, (es) =>
      es.some((e) => e.statusCode === '403' && typeof e.requestBody === 'string'),
    );
    const entry = entries.find((e) => e.statusCode === '403' && typeof e.requestBody === 'string')!;
    expect(entry.requestBody).toBe(body);
    expect(entry.method).toBe('POST');
    expect(entry.path).toBe('/v1/client');
    // the list keeps answering on every page that includes the row
    const page = ok(await request(server.port, b, 'GET', '/v1/log/?page_size=1'));
    expect(page.status).toBe(200);
  });

  it('shows a deep body stored as JSON before the fix as text', async () => {
    const b = await newBusiness(t);
    const deep = nested(20_000);
    const deepObject = `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`;
    const now = new Date().toISOString();
    await t.testDb.db
      .insertInto('api_log')
      .values([
        {
          business_id: b.businessId,
          ip_address: '203.0.113.9',
          method: 'POST',
          path: '/v1/client',
          referrer: '',
          status_code: '403',
          request_body: deep,
          response_body: deepObject,
          created: now,
          idempotent_replayed: null,
        },
        {
          business_id: b.businessId,
          ip_address: '203.0.113.9',
          method: 'POST',
          path: '/v1/todo',
          referrer: '',
          status_code: '400',
          request_body: '{"ok": [1, {"two": 2}]}',
          response_body: 'not json {',
          created: now,
          idempotent_replayed: null,
        },
      ])
      .execute();
    const entries = await logUntil(b, (es) => es.length >= 2);
    const client = entries.find((e) => e.path === '/v1/client')!;
    expect(client.requestBody).toBe(deep);
    expect(client.responseBody).toBe(deepObject);
    const todo = entries.find((e) => e.path === '/v1/todo')!;
    expect(todo.requestBody).toEqual({ ok: [1, { two: 2 }] });
    expect(todo.responseBody).toBe('not json {');
  });

  it('keeps JSON nested up to 32 levels as JSON and deeper as text; a body that is not JSON as the text sent', async () => {
    const b = await newBusiness(t);
    const shallow = nested(32);
    const deeper = nested(33);
    for (const [text, contentType] of [
      [shallow, 'application/json'],
      [deeper, 'application/json'],
      ['{"companyName": ', 'application/json'],
      ['plain words', 'text/plain'],
    ] as const) {
      const res = ok(await rawPost(server.port, b, '/v1/client', text, contentType));
      expect(res.status).toBe(403);
    }
    const entries = await logUntil(b, (es) => es.length >= 4);
    const bodies = entries.map((e) => e.requestBody);
    expect(bodies).toContainEqual(JSON.parse(shallow));
    expect(bodies).toContain(deeper);
    expect(bodies).toContain('{"companyName": ');
    expect(bodies).toContain('plain words');
  });
});

/** POSTs `body` as is (no JSON encoding) with the business's `X-API-Key` and a signature that cannot verify. */
function rawPost(
  port: number,
  b: TestBusiness,
  urlPath: string,
  body: string,
  contentType = 'application/json',
): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: urlPath,
        agent: false,
        headers: {
          'x-api-key': b.apiKey,
          'x-signature': 'f'.repeat(64),
          'content-type': contentType,
          'content-length': String(Buffer.byteLength(body)),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', (err) => resolve({ error: (err as NodeJS.ErrnoException).code ?? err.message }));
    req.end(body);
  });
}
