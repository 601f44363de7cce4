/**
 * The server as it is deployed: real `bin/bizapi serve` child processes on random ports, on the test
 * database (a SQLite file, or the PostgreSQL database of the run).
 *
 * - Two processes on one database share the rate-limit counters (`BIZAPI_RATE_LIMIT_STORE=database`)
 *   and both write the API call log; both take concurrent writes without a single 5xx (on SQLite, transactions
 *   begin IMMEDIATE, so a second process waits for the write lock instead of failing with SQLITE_BUSY).
 * - SIGTERM during a stream of requests drops none of the requests already accepted: requests that were
 *   being received when the signal came are answered, every request the server processed got its
 *   response, nothing is half done, the buffered log rows are written, and the process exits with 0.
 * - SIGTERM while the dispatcher thread (src/jobs/dispatcher-thread.ts) has a webhook attempt under way: the
 *   attempt finishes and is recorded before the process exits with 0.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../setup/factories.ts';
import {
  type BizapiProcess,
  type Outcome,
  request,
  startServer as startProcess,
  statusOf,
} from '../setup/server-process.ts';
import { signBody } from '../../src/modules/auth/hmac.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let t: TestApp;
let dataDir: string;
beforeAll(async () => {
  t = await buildTestApp();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-processes-'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Starts `bin/bizapi serve` on a random port of 127.0.0.1, on the test database, with `env` added. */
function startServer(env: Record<string, string>): Promise<BizapiProcess> {
  return startProcess({ databaseUrl: t.testDb.url, dataDir, env });
}

/**
 * A request whose headers are sent with `Expect: 100-continue` and whose body is held back: once the
 * server has answered `100 Continue` it has accepted the request and waits for the body. `finish()` sends
 * the body and resolves with the raw response text (read until the server closes the connection).
 */
async function heldRequest(
  port: number,
  creds: TestBusiness,
  urlPath: string,
  body: unknown,
): Promise<{ finish(): Promise<string> }> {
  const payload = JSON.stringify(body);
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  socket.on('error', () => undefined);
  socket.write(
    [
      `POST ${urlPath} HTTP/1.1`,
      'Host: 127.0.0.1',
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(payload)}`,
      'Expect: 100-continue',
      `X-API-Key: ${creds.apiKey}`,
      `X-Signature: ${signBody(creds.secretKey, payload)}`,
      '',
      '',
    ].join('\r\n'),
  );
  await vi.waitFor(() => expect(received).toContain('100 Continue'), { timeout: 15_000, interval: 20 });
  return {
    async finish() {
      socket.write(payload);
      await closed;
      return received;
    },
  };
}

/** Whether a new connection to `port` is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

describe('two server processes on one database', () => {
  it('share the rate-limit counters and both write the API call log', async () => {
    const b = await newBusiness(t);
    const env = { BIZAPI_RATE_LIMIT: '4', BIZAPI_RATE_LIMIT_STORE: 'database' };
    const [one, two] = await Promise.all([startServer(env), startServer(env)]);
    let codes: (number | null)[] = [];
    try {
      const seen: (number | string)[] = [];
      for (const [server, via] of [
        [one, 'one-1'],
        [two, 'two-1'],
        [one, 'one-2'],
        [two, 'two-2'],
        [one, 'one-3'],
        [two, 'two-3'],
      ] as const) {
        seen.push(statusOf(await request(server.port, b, 'GET', `/v1/folder?via=${via}`)));
      }
      expect(seen).toEqual([200, 200, 200, 200, 429, 429]);
      const last = await request(two.port, b, 'GET', '/v1/folder?via=two-4');
      expect('status' in last && last.headers.ratelimit).toMatch(/^"per-key";r=0;t=\d+$/);
    } finally {
      codes = await Promise.all([one.stop(), two.stop()]);
    }
    expect(codes).toEqual([0, 0]);
    const rows = await t.testDb.db
      .selectFrom('api_log')
      .select(['path', 'status_code'])
      .where('business_id', '=', b.businessId)
      .orderBy('id')
      .execute();
    const byPath = Object.fromEntries(rows.map((r) => [r.path, r.status_code]));
    expect(byPath).toEqual({
      '/v1/folder?via=one-1': '200',
      '/v1/folder?via=two-1': '200',
      '/v1/folder?via=one-2': '200',
      '/v1/folder?via=two-2': '200',
      '/v1/folder?via=one-3': '429',
      '/v1/folder?via=two-3': '429',
      '/v1/folder?via=two-4': '429',
    });
  });
});

describe('two server processes writing to one database at once', () => {
  it('answer every write with 201, none with a 5xx, and store them all', async () => {
    const b = await newBusiness(t);
    const kim = b.ids.members.kim!;
    // both dispatchers on too: they write the outbox and the in-app notifications of the same business
    const env = {
      BIZAPI_RATE_LIMIT: '0',
      BIZAPI_DISPATCHER: 'in-process',
      BIZAPI_DISPATCHER_BUSINESS_IDS: String(b.businessId),
      BIZAPI_DISPATCHER_POLL_MS: '20',
    };
    const servers = await Promise.all([startServer(env), startServer(env)]);
    const outcomes: (number | string)[] = [];
    try {
      // four clients per server, 15 inquiries each (read-then-write transactions: number, status, history, outbox)
      await Promise.all(
        servers.flatMap((server) =>
          Array.from({ length: 4 }, async (_, c) => {
            for (let n = 0; n < 15; n++) {
              const o = await request(server.port, b, 'POST', '/v1/inquiry', {
                name: `p${server.port}-${c}-${n}`,
                inChargeSet: [{ id: kim }],
              });
              outcomes.push(statusOf(o));
            }
          }),
        ),
      );
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
    expect(outcomes.filter((o) => o !== 201)).toEqual([]);
    const stored = await t.testDb.db
      .selectFrom('inquiry')
      .select(['unique_id'])
      .where('business_id', '=', b.businessId)
      .execute();
    expect(stored).toHaveLength(120);
    expect(new Set(stored.map((r) => r.unique_id)).size).toBe(120);
  });
});

describe('SIGTERM', () => {
  it('drops none of the requests already accepted during a stream of requests', async () => {
    const b = await newBusiness(t);
    const server = await startServer({ BIZAPI_RATE_LIMIT: '0' });
    const run = `sig-${Math.random().toString(36).slice(2, 8)}`;

    // Requests the server has accepted and is still receiving when the signal comes.
    const held = await Promise.all(
      [1, 2, 3].map((n) => heldRequest(server.port, b, `/v1/client?held=${n}`, { companyName: `${run} held ${n}` })),
    );

    // A stream of requests from a client with keep-alive connections, still running when the signal comes.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    const outcomes: Outcome[] = [];
    let answered = 0;
    const stream = Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        request(server.port, b, 'POST', `/v1/client?stream=${i}`, { companyName: `${run} stream ${i}` }, agent).then(
          (o) => {
            outcomes[i] = o;
            if ('status' in o) answered += 1;
          },
        ),
      ),
    );
    await vi.waitFor(() => expect(answered).toBeGreaterThanOrEqual(10), { timeout: 30_000, interval: 10 });
    const exitCode = server.stop('SIGTERM');
    // The server stops accepting connections at once…
    await vi.waitFor(async () => expect(await refused(server.port)).toBe(true), { timeout: 15_000, interval: 20 });
    // …and still answers the requests it had accepted.
    const heldResponses = await Promise.all(held.map((h) => h.finish()));
    await stream;
    agent.destroy();
    expect(await exitCode, server.stderr()).toBe(0);

    // Every held request was answered in full, and told to close its connection.
    for (const raw of heldResponses) {
      const final = raw.slice(raw.lastIndexOf('HTTP/1.1 '));
      expect(final).toMatch(/^HTTP\/1\.1 201 Created\r\n/);
      expect(final.toLowerCase()).toContain('connection: close');
    }

    // Every stream request either got its full answer or was never accepted: a row exists exactly for
    // the 201s, and a refused or reset connection left nothing behind.
    const clients = await t.testDb.db
      .selectFrom('client')
      .select('company_name')
      .where('business_id', '=', b.businessId)
      .execute();
    const names = new Set(clients.map((c) => c.company_name));
    for (const n of [1, 2, 3]) expect(names.has(`${run} held ${n}`)).toBe(true);
    let created = 0;
    outcomes.forEach((o, i) => {
      const name = `${run} stream ${i}`;
      if ('status' in o) {
        expect(o.status, `stream ${i}: ${o.body}`).toBe(201);
        expect(JSON.parse(o.body)).toMatchObject({ companyName: name });
        expect(names.has(name), `stream ${i} answered 201 but is not in the database`).toBe(true);
        created += 1;
      } else {
        expect(['ECONNREFUSED', 'ECONNRESET', 'socket hang up', 'EPIPE'], `stream ${i}`).toContain(o.error);
        expect(names.has(name), `stream ${i} failed (${o.error}) but was written`).toBe(false);
      }
    });
    expect(created).toBeGreaterThanOrEqual(10);
    expect(names.size).toBe(created + 3);

    // The buffered API call log rows were written before the process exited: one per answered request.
    const logged = await t.testDb.db
      .selectFrom('api_log')
      .select(['path', 'status_code'])
      .where('business_id', '=', b.businessId)
      .execute();
    expect(logged).toHaveLength(created + 3);
    expect(logged.every((r) => r.status_code === '201')).toBe(true);
  });
});

describe('SIGTERM with the dispatcher thread delivering', () => {
  it('lets the webhook attempt under way finish and record, then exits 0', async () => {
    const b = await newBusiness(t);
    const received: number[] = [];
    const receiver = http.createServer((req, res) => {
      req.resume();
      received.push(Date.now());
      setTimeout(() => res.writeHead(204).end(), 2000);
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as net.AddressInfo).port;
    const server = await startServer({
      BIZAPI_DISPATCHER: 'in-process',
      BIZAPI_DISPATCHER_BUSINESS_IDS: String(b.businessId),
      BIZAPI_WEBHOOK_ALLOW_PRIVATE: 'true',
    });
    try {
      const hook = await request(server.port, b, 'POST', '/v1/webhook', {
        url: `http://127.0.0.1:${port}/hook`,
        eventTypes: ['client.created'],
      });
      expect(statusOf(hook)).toBe(201);
      expect(statusOf(await request(server.port, b, 'POST', '/v1/client', { companyName: 'Drained' }))).toBe(201);
      await vi.waitFor(() => expect(received).toHaveLength(1), { timeout: 30_000, interval: 20 });
      const signalled = Date.now();
      expect(await server.stop('SIGTERM'), server.stderr()).toBe(0);
      // the process waited for the receiver's answer (2 s after the request came)
      expect(Date.now()).toBeGreaterThanOrEqual(received[0]! + 1900);
      expect(Date.now() - signalled).toBeLessThan(15_000);
      const rows = await t.testDb.db
        .selectFrom('webhook_delivery')
        .select(['status', 'last_status_code', 'lease_owner'])
        .where('business_id', '=', b.businessId)
        .execute();
      expect(rows).toEqual([{ status: 'succeeded', last_status_code: 204, lease_owner: null }]);
    } finally {
      await server.stop().catch(() => undefined);
      receiver.closeAllConnections();
      await new Promise((r) => receiver.close(r));
    }
  });
});
