/**
 * The SDK against a real server: the app (`buildApp`) listening on port 0 with signatures required, on
 * SQLite (or the PostgreSQL database `DATABASE_URL` names). Signing (v1; v2 headers checked byte for byte),
 * typed calls, auto-pagination, typed errors, retries with one Idempotency-Key, webhook verification.
 */
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildSiblingApp, buildTestApp, type TestApp } from '../../test/setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../test/setup/factories.ts';
import {
  BizapiError,
  BizapiNetworkError,
  createBizapi,
  nodeCryptoHmac,
  operations,
  retryAfterMs,
  signRequest,
  signWebhook,
  verifyWebhook,
  webCryptoHmac,
  WebhookVerificationError,
} from '../src/index.ts';

let t: TestApp;
let base: string;
let b: TestBusiness;
beforeAll(async () => {
  t = await buildTestApp({ BIZAPI_SIGNATURE_MODE: 'required' });
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  b = await newBusiness(t);
});
afterAll(async () => {
  await t.close();
});

const client = (extra: Partial<Parameters<typeof createBizapi>[0]> = {}) =>
  createBizapi({ baseUrl: base, apiKey: b.apiKey, secretKey: b.secretKey, ...extra });

describe('signing', () => {
  it('v1: hex HMAC-SHA256 of the body; Node crypto and Web Crypto agree', async () => {
    const body = '{"companyName":"Ünïcode"}';
    const expected = createHmac('sha256', 'sekret').update(body).digest('hex');
    for (const hmac of [nodeCryptoHmac, webCryptoHmac]) {
      expect(
        await signRequest({ method: 'POST', pathAndQuery: '/v1/client', body }, { secretKey: 'sekret', hmac }),
      ).toEqual({ 'X-Signature': expected });
    }
    expect((await signRequest({ method: 'GET', pathAndQuery: '/v1/client' }, { secretKey: 's' }))['X-Signature']).toBe(
      createHmac('sha256', 's').update('').digest('hex'),
    );
  });

  it('v2: timestamp header and v2=HMAC of "{ts}.{METHOD}.{path?query}.{body}"', async () => {
    for (const hmac of [nodeCryptoHmac, webCryptoHmac]) {
      const headers = await signRequest(
        { method: 'patch', pathAndQuery: '/v1/client/5?x=1', body: '{"a":1}' },
        { secretKey: 'k', version: 'v2', timestamp: 1700000000, hmac },
      );
      expect(headers).toEqual({
        'X-Signature-Timestamp': '1700000000',
        'X-Signature': `v2=${createHmac('sha256', 'k').update('1700000000.PATCH./v1/client/5?x=1.{"a":1}').digest('hex')}`,
      });
    }
  });

  it('the default signs v1, which a server accepting only v1 (as the reference service) takes: a real HTTP server', async () => {
    // Accepts a request only with X-Signature = hex HMAC-SHA256 of the body and no version-2 header.
    const seen: { signature: string | undefined; timestamp: string | undefined }[] = [];
    const v1only = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const signature = req.headers['x-signature'] as string | undefined;
        const timestamp = req.headers['x-signature-timestamp'] as string | undefined;
        seen.push({ signature, timestamp });
        const expected = createHmac('sha256', b.secretKey).update(Buffer.concat(chunks)).digest('hex');
        const valid = req.headers['x-api-key'] === b.apiKey && signature === expected && timestamp === undefined;
        res.writeHead(valid ? (req.method === 'POST' ? 201 : 200) : 403, { 'content-type': 'application/json' });
        if (!valid) return res.end(JSON.stringify({ detail: 'Invalid signature.' }));
        res.end(
          req.method === 'POST'
            ? JSON.stringify({ id: 1, companyName: 'V1 Only' })
            : JSON.stringify({ next: null, previous: null, results: [] }),
        );
      });
    });
    await new Promise<void>((resolve) => v1only.listen(0, '127.0.0.1', resolve));
    try {
      const bizapi = createBizapi({
        baseUrl: `http://127.0.0.1:${(v1only.address() as AddressInfo).port}`,
        apiKey: b.apiKey,
        secretKey: b.secretKey,
        retry: { retries: 0 },
      });
      expect((await bizapi.call('client_list')).results).toEqual([]);
      expect((await bizapi.call('client_create', { body: { companyName: 'V1 Only' } })).companyName).toBe('V1 Only');
      expect(seen).toHaveLength(2);
      for (const s of seen) {
        expect(s.signature).toMatch(/^[0-9a-f]{64}$/);
        expect(s.timestamp).toBeUndefined();
      }
    } finally {
      await new Promise((resolve) => v1only.close(resolve));
    }
  });

  it('the default moves to v2 where the server asks for it (BIZAPI_SIGNATURE_MODE=v2), repeated identical calls included; an explicit v1 is refused there', async () => {
    const v2only = await buildSiblingApp(t, { BIZAPI_SIGNATURE_MODE: 'v2' });
    try {
      const url = await v2only.listen({ host: '127.0.0.1', port: 0 });
      const seen: Headers[] = [];
      const bizapi = createBizapi({
        baseUrl: url,
        apiKey: b.apiKey,
        secretKey: b.secretKey,
        fetch: (input, init) => {
          seen.push(new Headers(init?.headers));
          return fetch(input, init);
        },
      });
      for (let i = 0; i < 4; i++)
        expect(Array.isArray((await bizapi.call('client_list', { params: { query: { page_size: 1 } } })).results)).toBe(
          true,
        );
      // The first request signed v1 and was refused (signature_required); it and every later one signed v2.
      expect(seen).toHaveLength(5);
      expect(seen[0]!.get('x-signature')).toMatch(/^[0-9a-f]{64}$/);
      expect(
        seen
          .slice(1)
          .every(
            (h) =>
              /^v2=[0-9a-f]{64}$/.test(h.get('x-signature') ?? '') &&
              /^\d+$/.test(h.get('x-signature-timestamp') ?? ''),
          ),
      ).toBe(true);
      const created = await bizapi.call('client_create', { body: { companyName: 'Upgraded Ltd' } });
      expect(created.companyName).toBe('Upgraded Ltd');
      const v1 = createBizapi({
        baseUrl: url,
        apiKey: b.apiKey,
        secretKey: b.secretKey,
        signatureVersion: 'v1',
        retry: { retries: 0 },
      });
      await expect(v1.call('client_list')).rejects.toMatchObject({ status: 403, code: 'signature_required' });
    } finally {
      await v2only.close();
    }
  });

  it('a v2 request another process already sent this second is signed again, beyond `retries`', async () => {
    // A second copy of the SDK module stands for another process with the same key: its clients do not
    // know which signatures the first copy sent.
    vi.resetModules();
    const other = (await import('../src/client.ts')) as typeof import('../src/client.ts');
    const elsewhere = other.createBizapi({
      baseUrl: base,
      apiKey: b.apiKey,
      secretKey: b.secretKey,
      signatureVersion: 'v2',
    });
    const query = { params: { query: { page_size: 3, search: ['replayed elsewhere'] } } };
    for (let i = 0; i < 5; i++) await elsewhere.call('client_list', query);
    const statuses: number[] = [];
    const here = client({
      signatureVersion: 'v2',
      retry: { retries: 0 },
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        statuses.push(response.status);
        return response;
      },
    });
    expect(Array.isArray((await here.call('client_list', query)).results)).toBe(true);
    expect(statuses.at(-1)).toBe(200);
    expect(statuses.length).toBeGreaterThan(1);
    expect(statuses.slice(0, -1).every((s) => s === 403)).toBe(true);
  });

  it('v1 (the reference signature) works where signatures are required', async () => {
    const v1 = createBizapi({ baseUrl: base, apiKey: b.apiKey, secretKey: b.secretKey, signatureVersion: 'v1' });
    expect((await v1.call('client_create', { body: { companyName: 'V1 Ltd' } })).companyName).toBe('V1 Ltd');
  });

  it('a server requiring signatures accepts the client; a wrong secret gets a typed 403', async () => {
    const bizapi = client();
    const created = await bizapi.call('client_create', { body: { companyName: 'Signed Ltd' } });
    expect(created.companyName).toBe('Signed Ltd');
    const wrong = createBizapi({ baseUrl: base, apiKey: b.apiKey, secretKey: 'not-the-secret' });
    const err = await wrong.call('client_list').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BizapiError);
    expect(err).toMatchObject({ status: 403, code: 'signature_invalid' });
  });
});

describe('calls, pagination, errors', () => {
  it('openapi-fetch client is typed and signed', async () => {
    const { data, error, response } = await client().api.GET('/v1/client', { params: { query: { page_size: 1 } } });
    expect(error, JSON.stringify(error)).toBeUndefined();
    expect(response.status).toBe(200);
    expect(Array.isArray(data?.results)).toBe(true);
    // two clients sending the same v2-signed request in the same second: the second signs again, no 403
    const [x, y] = await Promise.all([
      client().api.GET('/v1/client', { params: { query: { page_size: 2 } } }),
      client().api.GET('/v1/client', { params: { query: { page_size: 2 } } }),
    ]);
    expect([x.response.status, y.response.status]).toEqual([200, 200]);
  });

  it('paginate follows next across pages and yields every item once', async () => {
    const c = await newBusiness(t);
    const bizapi = createBizapi({ baseUrl: base, apiKey: c.apiKey, secretKey: c.secretKey });
    const names = Array.from({ length: 7 }, (_, i) => `Page Co ${i}`);
    for (const companyName of names) await bizapi.call('client_create', { body: { companyName } });
    const seen: string[] = [];
    for await (const item of bizapi.paginate('client_list', { params: { query: { page_size: 3 } } }))
      seen.push(item.companyName);
    expect(seen.sort()).toEqual(names.sort());
    const searched: string[] = [];
    for await (const item of bizapi.paginate('client_list', { params: { query: { search: ['Co 4'] } } }))
      searched.push(item.companyName);
    expect(searched).toEqual(['Page Co 4']);
  });

  it('typed errors: 400 field map (code invalid, fields), 404 not_found with requestId', async () => {
    const bizapi = client();
    const bad = (await bizapi.call('client_create', { body: {} as never }).catch((e: unknown) => e)) as BizapiError;
    expect(bad).toBeInstanceOf(BizapiError);
    expect(bad.status).toBe(400);
    expect(bad.code).toBe('invalid');
    expect(bad.fields).toEqual({ companyName: ['This field is required.'] });
    expect(bad.message).toMatch(
      /^POST http:\/\/127\.0\.0\.1:\d+\/v1\/client: 400 companyName: This field is required\.$/,
    );
    const nested = (await bizapi
      .call('client_create', { body: { companyName: 'Nested', status: { id: 987654321 } } as never })
      .catch((e: unknown) => e)) as BizapiError;
    expect(nested.status).toBe(400);
    expect(nested.message).toMatch(/: 400 status\.id: .+/);
    expect(bad.requestId).toMatch(/.+/);
    const missing = (await bizapi
      .call('client_retrieve', { params: { path: { client_id: 999999999 } } })
      .catch((e: unknown) => e)) as BizapiError;
    expect(missing).toMatchObject({ status: 404, code: 'not_found', detail: 'Not found.', fields: undefined });
    expect(missing.requestId).toMatch(/.+/);
  });

  it('the operation map covers every operation of the document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const ids = Object.values(doc.paths).flatMap((item) =>
      Object.values(item)
        .map((op) => op.operationId)
        .filter(Boolean),
    );
    expect(Object.keys(operations).sort()).toEqual([...new Set(ids)].sort());
  });
});

describe('retries', () => {
  /** A fake server answering from a script; records each request's headers. */
  async function fakeServer(script: ((req: http.IncomingMessage, res: http.ServerResponse, n: number) => void)[]) {
    const seen: { headers: http.IncomingHttpHeaders; body: string }[] = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        seen.push({ headers: req.headers, body });
        const step = script[Math.min(seen.length - 1, script.length - 1)]!;
        step(req, res, seen.length);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      seen,
      close: () => new Promise((r) => server.close(r)),
    };
  }
  const json =
    (status: number, body: unknown, headers: Record<string, string> = {}) =>
    (_req: http.IncomingMessage, res: http.ServerResponse) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };

  it('429 and 503 are retried after Retry-After with one Idempotency-Key; the signature is recomputed per attempt', async () => {
    const fake = await fakeServer([
      json(
        429,
        { detail: 'Request was throttled. Expected available in 0 seconds.', code: 'throttled' },
        { 'retry-after': '0' },
      ),
      json(503, { detail: 'busy', code: 'service_unavailable' }, { 'retry-after': '0' }),
      json(201, { id: 1, companyName: 'X' }),
    ]);
    try {
      const bizapi = createBizapi({
        baseUrl: fake.url,
        apiKey: 'k',
        secretKey: 's',
        signatureVersion: 'v2',
        retry: { baseDelayMs: 1 },
      });
      const created = await bizapi.call('client_create', { body: { companyName: 'X' } });
      expect(created).toEqual({ id: 1, companyName: 'X' });
      expect(fake.seen).toHaveLength(3);
      const keys = fake.seen.map((r) => r.headers['idempotency-key']);
      expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(new Set(keys).size).toBe(1);
      for (const r of fake.seen) {
        const ts = r.headers['x-signature-timestamp'] as string;
        expect(r.headers['x-signature']).toBe(
          `v2=${createHmac('sha256', 's').update(`${ts}.POST./v1/client.${r.body}`).digest('hex')}`,
        );
      }
      // a second logical request gets a new key
      await bizapi.call('client_create', { body: { companyName: 'Y' } });
      expect(fake.seen[3]!.headers['idempotency-key']).not.toBe(keys[0]);
      // GET carries none
      await bizapi.api.GET('/v1/client');
      expect(fake.seen[4]!.headers['idempotency-key']).toBeUndefined();
    } finally {
      await fake.close();
    }
  });

  it('network errors are retried; after the last retry a BizapiNetworkError; a 503 past the retries is a typed error', async () => {
    const fake = await fakeServer([
      (req) => req.socket.destroy(),
      json(200, { next: null, previous: null, results: [] }),
    ]);
    try {
      const bizapi = createBizapi({ baseUrl: fake.url, apiKey: 'k', secretKey: 's', retry: { baseDelayMs: 1 } });
      expect(await bizapi.call('client_list')).toEqual({ next: null, previous: null, results: [] });
      expect(fake.seen).toHaveLength(2);
    } finally {
      await fake.close();
    }
    const dead = createBizapi({
      baseUrl: 'http://127.0.0.1:1',
      apiKey: 'k',
      secretKey: 's',
      retry: { retries: 1, baseDelayMs: 1 },
    });
    await expect(dead.call('client_list')).rejects.toBeInstanceOf(BizapiNetworkError);
    const busy = await fakeServer([json(503, { detail: 'busy', code: 'service_unavailable' }, { 'retry-after': '0' })]);
    try {
      const bizapi = createBizapi({ baseUrl: busy.url, apiKey: 'k', secretKey: 's', retry: { retries: 2 } });
      await expect(bizapi.call('client_list')).rejects.toMatchObject({ status: 503, code: 'service_unavailable' });
      expect(busy.seen).toHaveLength(3);
    } finally {
      await busy.close();
    }
  });

  it('Retry-After in seconds or as an HTTP date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 5_000)).toBe(5_000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });
});

describe('webhooks (Standard Webhooks, Web Crypto)', () => {
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const body = JSON.stringify({
    id: 7,
    type: 'client.created',
    created: '2026-11-26T04:00:00.000Z',
    changedFields: [],
    data: { id: 7, companyName: 'Ünïcode' },
  });
  /** Headers as the reference implementation (the `standardwebhooks` package) signs them. */
  const reference = (key: string, payload: string, at = new Date(), id = 'msg_7') => ({
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(key).sign(id, at, payload),
  });

  it('verifies a delivery signed by the standardwebhooks package: string, bytes, ArrayBuffer; Headers or a record', async () => {
    const headers = reference(secret, body);
    expect(await verifyWebhook(secret, headers, body)).toEqual(JSON.parse(body));
    const bytes = new TextEncoder().encode(body);
    expect(await verifyWebhook(secret, new Headers(headers), bytes)).toMatchObject({
      data: { companyName: 'Ünïcode' },
    });
    expect(
      await verifyWebhook(
        secret,
        {
          'Webhook-Id': headers['webhook-id'],
          'WEBHOOK-TIMESTAMP': headers['webhook-timestamp'],
          'webhook-signature': [headers['webhook-signature']],
        },
        bytes.buffer.slice(0),
      ),
    ).toMatchObject({ id: 7 });
    expect(await verifyWebhook(secret, headers, Buffer.from(body))).toMatchObject({ id: 7 });
  });

  it('signWebhook signs exactly as the standardwebhooks package, and the package verifies it', async () => {
    const at = new Date(1_764_000_000_000);
    const mine = await signWebhook(secret, body, { id: 'msg_1', timestamp: at });
    expect(mine).toEqual(reference(secret, body, at, 'msg_1'));
    const fresh = await signWebhook(secret, body);
    expect(new Webhook(secret).verify(body, fresh)).toEqual(JSON.parse(body));
  });

  it('rotation: two signatures, either secret verifies; a third secret does not', async () => {
    const next = `whsec_${randomBytes(24).toString('base64')}`;
    const headers = await signWebhook([next, secret], body);
    expect(String(headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(await verifyWebhook(next, headers, body)).toMatchObject({ id: 7 });
    expect(await verifyWebhook(secret, headers, body)).toMatchObject({ id: 7 });
    await expect(verifyWebhook(`whsec_${randomBytes(24).toString('base64')}`, headers, body)).rejects.toThrow(
      WebhookVerificationError,
    );
  });

  it('refuses a tampered body, another id or timestamp, a stale or future timestamp, missing headers, other versions', async () => {
    const headers = reference(secret, body);
    const refused = async (h: Record<string, string>, b: string = body, options = {}) =>
      expect(verifyWebhook(secret, h, b, options)).rejects.toThrow(WebhookVerificationError);
    await refused(headers, body.replace('7', '8'));
    await refused(headers, ` ${body}`);
    await refused({ ...headers, 'webhook-id': 'msg_8' });
    await refused({ ...headers, 'webhook-timestamp': String(Number(headers['webhook-timestamp']) + 1) });
    await refused(reference(secret, body, new Date(Date.now() - 10 * 60_000)));
    await refused(reference(secret, body, new Date(Date.now() + 10 * 60_000)));
    await refused({ ...headers, 'webhook-signature': headers['webhook-signature'].replace('v1,', 'v2,') });
    await refused({ ...headers, 'webhook-signature': 'v1,not base64!' });
    await refused({ ...headers, 'webhook-timestamp': '1e9' });
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const) {
      const { [name]: _dropped, ...rest } = headers;
      await refused(rest);
    }
    // The tolerance and the clock are options: the stale delivery verifies with a wider window.
    const old = new Date(Date.now() - 10 * 60_000);
    expect(await verifyWebhook(secret, reference(secret, body, old), body, { toleranceSeconds: 900 })).toMatchObject({
      id: 7,
    });
    expect(await verifyWebhook(secret, reference(secret, body, old), body, { now: old })).toMatchObject({ id: 7 });
    await expect(verifyWebhook('whsec_', headers, body)).rejects.toThrow(/whsec_/);
  });
});
