/**
 * The webhook limits of docs/webhooks.md#fairness-and-limits through two real `bizapi serve` processes on one
 * database (the dialect under test): at most 20 endpoints per business, also when 30 creates race over both
 * processes (400 `webhook_limit`); at most 5 test pings a minute per endpoint, counted across processes —
 * of 400 pings 5 are accepted, 395 answer 429 with `Retry-After` in the rate limit's shape, and the receiver
 * gets exactly 5 requests; and at most 20 a minute per business, which deleting and re-creating endpoints
 * does not reset.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
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
let one: BizapiProcess;
let two: BizapiProcess;
let capped: TestBusiness;
let other: TestBusiness;
let pinged: TestBusiness;
let recycled: TestBusiness;
let receiver: http.Server;
let receiverUrl: string;
/** Requests the receiver got, per path. */
const received = new Map<string, number>();

beforeAll(async () => {
  t = await buildTestApp();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-webhook-limits-'));
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.set(req.url ?? '/', (received.get(req.url ?? '/') ?? 0) + 1);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  [capped, other, pinged, recycled] = await Promise.all([
    newBusiness(t, { catalog: null }),
    newBusiness(t, { catalog: null }),
    newBusiness(t, { catalog: null }),
    newBusiness(t, { catalog: null }),
  ]);
  const env = { BIZAPI_WEBHOOK_ALLOW_PRIVATE: 'true' };
  // One process delivers (only this file's businesses: the PostgreSQL test database is shared), the other only serves.
  [one, two] = await Promise.all([
    startServer({
      databaseUrl: t.testDb.url,
      dataDir,
      env: {
        ...env,
        BIZAPI_DISPATCHER: 'in-process',
        BIZAPI_DISPATCHER_POLL_MS: '100',
        BIZAPI_DISPATCHER_BUSINESS_IDS: String(pinged.businessId),
      },
    }),
    startServer({ databaseUrl: t.testDb.url, dataDir, env }),
  ]);
});
afterAll(async () => {
  await Promise.all([one?.stop(), two?.stop()]);
  receiver?.closeAllConnections();
  await new Promise((r) => receiver?.close(r));
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

type Answer = Extract<Outcome, { status: number }>;
function answered(o: Outcome): Answer {
  if (!('status' in o)) throw new Error(`request failed: ${o.error}`);
  return o;
}

/** A POST of a new endpoint of `b` to the receiver, on process `p`. */
async function createEndpoint(p: BizapiProcess, b: TestBusiness, name: string): Promise<Answer> {
  return answered(
    await request(p.port, b, 'POST', '/v1/webhook', { url: `${receiverUrl}/${name}`, eventTypes: ['client.created'] }),
  );
}

async function endpointCount(b: TestBusiness): Promise<number> {
  const row = await t.testDb.db
    .selectFrom('webhook_endpoint')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('business_id', '=', b.businessId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe(`webhook limits across two server processes (${DIALECT})`, () => {
  it('allows 20 endpoints per business, also when 30 creates race over both processes', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, i) => createEndpoint(i % 2 === 0 ? one : two, capped, `cap-${i}`)),
    );
    const statuses = outcomes.map((o) => o.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.filter((s) => s === 400)).toHaveLength(10);
    expect(await endpointCount(capped)).toBe(20);
    for (const o of outcomes.filter((x) => x.status === 400)) {
      const body = JSON.parse(o.body) as Record<string, unknown>;
      expect(body).toMatchObject({
        nonField: [expect.stringContaining('at most 20 webhook endpoints')],
        code: 'webhook_limit',
      });
      expect(Object.keys(body).sort()).toEqual(['code', 'nonField', 'requestId']);
    }
    // one more, on either process: refused; after a delete, one fits again
    expect((await createEndpoint(two, capped, 'cap-late')).status).toBe(400);
    const first = outcomes.find((o) => o.status === 201)!;
    expect(answered(await request(one.port, capped, 'DELETE', `/v1/webhook/${JSON.parse(first.body).id}`)).status).toBe(
      204,
    );
    expect((await createEndpoint(two, capped, 'cap-again')).status).toBe(201);
    expect((await createEndpoint(one, capped, 'cap-over')).status).toBe(400);
    expect(await endpointCount(capped)).toBe(20);
    // the cap is per business
    expect((await createEndpoint(one, other, 'other')).status).toBe(201);
  });

  it('accepts 5 test pings a minute per endpoint of 400 sent over both processes; the receiver gets 5', async () => {
    const created = await createEndpoint(one, pinged, 'pinged');
    expect(created.status).toBe(201);
    const id = (JSON.parse(created.body) as { id: number }).id;
    const outcomes: Answer[] = [];
    for (let batch = 0; batch < 8; batch++) {
      outcomes.push(
        ...(await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            request(i % 2 === 0 ? one.port : two.port, pinged, 'POST', `/v1/webhook/${id}/test`).then(answered),
          ),
        )),
      );
    }
    const accepted = outcomes.filter((o) => o.status === 202);
    const throttled = outcomes.filter((o) => o.status === 429);
    expect(accepted).toHaveLength(5);
    expect(throttled).toHaveLength(395);
    for (const o of throttled) {
      const wait = Number(o.headers['retry-after']);
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(60);
      expect(JSON.parse(o.body)).toMatchObject({
        detail: `Request was throttled. Expected available in ${wait} seconds.`,
      });
    }
    // nothing was written for the refused pings: 5 deliveries, and the receiver gets exactly 5 requests
    const deliveries = await t.testDb.db
      .selectFrom('webhook_delivery')
      .select('id')
      .where('webhook_id', '=', id)
      .execute();
    expect(deliveries).toHaveLength(5);
    const deadline = Date.now() + 20_000;
    while ((received.get('/pinged') ?? 0) < 5 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 1000));
    expect(received.get('/pinged')).toBe(5);
    // another endpoint's pings are counted apart
    const second = await createEndpoint(two, pinged, 'pinged-2');
    const ping = answered(await request(two.port, pinged, 'POST', `/v1/webhook/${JSON.parse(second.body).id}/test`));
    expect(ping.status).toBe(202);
  });

  it('accepts 20 test pings a minute per business: deleting and re-creating endpoints does not reset the count', async () => {
    const outcomes: Answer[] = [];
    const ids: number[] = [];
    // five rounds of: a new endpoint, 5 pings to it (its own limit), delete it
    for (let round = 0; round < 5; round++) {
      const created = await createEndpoint(round % 2 === 0 ? one : two, recycled, `recycled-${round}`);
      expect(created.status).toBe(201);
      const id = (JSON.parse(created.body) as { id: number }).id;
      ids.push(id);
      for (let i = 0; i < 5; i++)
        outcomes.push(
          answered(await request(i % 2 === 0 ? one.port : two.port, recycled, 'POST', `/v1/webhook/${id}/test`)),
        );
      expect(answered(await request(two.port, recycled, 'DELETE', `/v1/webhook/${id}`)).status).toBe(204);
    }
    expect(outcomes.map((o) => o.status)).toEqual([...Array(20).fill(202), ...Array(5).fill(429)]);
    for (const o of outcomes.slice(20)) {
      const wait = Number(o.headers['retry-after']);
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(60);
      expect(JSON.parse(o.body)).toMatchObject({
        detail: `Request was throttled. Expected available in ${wait} seconds.`,
      });
    }
    // nothing was written for the refused pings
    const events = await t.testDb.db
      .selectFrom('event')
      .select('id')
      .where('business_id', '=', recycled.businessId)
      .where('type', '=', 'webhook.test')
      .execute();
    expect(events).toHaveLength(20);
    // another business's pings are counted apart
    const elsewhere = await createEndpoint(one, other, 'other-after-recycled');
    expect(
      answered(await request(one.port, other, 'POST', `/v1/webhook/${JSON.parse(elsewhere.body).id}/test`)).status,
    ).toBe(202);
  });

  it("answers 404 for another business's endpoint, never 429", async () => {
    const created = await createEndpoint(one, other, 'other-ping');
    const id = JSON.parse(created.body).id as number;
    for (let i = 0; i < 8; i++)
      expect(answered(await request(two.port, pinged, 'POST', `/v1/webhook/${id}/test`)).status).toBe(404);
  });
});
