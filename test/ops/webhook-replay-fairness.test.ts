/**
 * A large webhook replay (docs/webhooks.md#replay) runs in the background within the fairness caps
 * (docs/webhooks.md#fairness-and-limits): with a real `bizapi serve` process on the dialect under test (its
 * in-process dispatcher), one business replays 150 events to each of its 10 endpoints — 1,500 deliveries to a
 * receiver that takes 100 ms per answer, several seconds of backlog at its cap of 20 attempts in flight — while
 * another business writes every 200 ms: each of that business's deliveries to its own receiver arrives within
 * 2 s of the write (p99), as the fairness test (webhook-fairness.test.ts) asks of hanging receivers. The replays
 * answer 202 at once, and every replayed event reaches its receiver exactly once per endpoint.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient } from '../setup/api-client.ts';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness, type TestBusiness, webhookEndpointRow } from '../setup/factories.ts';
import { quantile } from '../setup/helpers.ts';
import { type BizapiProcess, request, startServer } from '../setup/server-process.ts';
import { DIALECT } from '../setup/test-db.ts';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

const ENDPOINTS = 10;
const EVENTS = 150;
/** How long the replaying business's receiver takes to answer (ms). */
const SLOW_MS = 100;

let t: TestApp;
const { post } = apiClient(() => t.app);
let dataDir: string;
let api: BizapiProcess;
let noisy: TestBusiness;
let victim: TestBusiness;
const endpointIds: number[] = [];

/** The replaying business's receiver: answers 204 after {@link SLOW_MS}; counts each (endpoint, webhook-id). */
let slow: http.Server;
const replayed = new Map<string, number>();
/** The other business's receiver: notes when each client's event arrived. */
let healthy: http.Server;
const arrivals = new Map<string, number>();

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  t = await buildTestApp();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-webhook-replay-'));
  slow = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const key = `${req.url} ${String(req.headers['webhook-id'])}`;
      replayed.set(key, (replayed.get(key) ?? 0) + 1);
      setTimeout(() => res.writeHead(204).end(), SLOW_MS);
    });
  });
  healthy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const name = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data?: { companyName?: string } }).data
        ?.companyName;
      if (name && !arrivals.has(name)) arrivals.set(name, at);
      res.writeHead(204).end();
    });
  });
  const [slowBase, healthyBase] = await Promise.all([listen(slow), listen(healthy)]);
  [noisy, victim] = await Promise.all([newBusiness(t, { catalog: null }), newBusiness(t, { catalog: null })]);

  // the replaying business's events, written while its endpoints are off (none is delivered now), then the
  // endpoints on: created before the events (after_event_id 0), so a replay from 0 sends all of them
  const rows = Array.from({ length: ENDPOINTS }, (_, i) => ({
    ...webhookEndpointRow(t.masterKey, noisy.businessId, `${slowBase}/${i}`),
    is_active: 0 as const,
  }));
  endpointIds.push(
    ...(await t.testDb.db.insertInto('webhook_endpoint').values(rows).returning('id').execute()).map((r) => r.id),
  );
  for (let i = 0; i < EVENTS; i += 10) {
    await Promise.all(
      Array.from({ length: 10 }, (_, j) => post(noisy, '/v1/client', { companyName: `noisy-${i + j}` })),
    );
  }
  await t.testDb.db
    .updateTable('webhook_endpoint')
    .set({ is_active: 1 })
    .where('business_id', '=', noisy.businessId)
    .execute();
  await t.testDb.db
    .insertInto('webhook_endpoint')
    .values(webhookEndpointRow(t.masterKey, victim.businessId, `${healthyBase}/victim`))
    .execute();

  api = await startServer({
    databaseUrl: t.testDb.url,
    dataDir,
    env: {
      BIZAPI_WEBHOOK_ALLOW_PRIVATE: 'true',
      BIZAPI_DISPATCHER: 'in-process',
      // only this file's businesses: the PostgreSQL test database is shared
      BIZAPI_DISPATCHER_BUSINESS_IDS: `${noisy.businessId},${victim.businessId}`,
    },
  });
});

afterAll(async () => {
  await api?.stop();
  // no leftovers for other test files' dispatchers on the shared PostgreSQL database
  const ids = [noisy, victim].filter(Boolean).map((b) => b.businessId);
  if (ids.length > 0) await t.testDb.db.deleteFrom('webhook_endpoint').where('business_id', 'in', ids).execute();
  for (const s of [slow, healthy]) {
    s?.closeAllConnections();
    s?.close();
  }
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe(`a webhook replay beside another business's deliveries (${DIALECT}, one bizapi serve)`, () => {
  it("a replay of 1,500 deliveries does not delay another business's: within 2 s of the write (p99)", async () => {
    for (const id of endpointIds) {
      const res = await request(api.port, noisy, 'POST', `/v1/webhook/${id}/replay`, { after_sequence: 0 });
      expect('status' in res && res.status, JSON.stringify(res)).toBe(202);
      expect(JSON.parse((res as { body: string }).body)).toEqual({ count: EVENTS, next_after_sequence: null });
    }
    // the backlog is being worked through, at its caps
    const backlogFrom = Date.now();
    while (replayed.size < 40 && Date.now() - backlogFrom < 10_000) await new Promise((r) => setTimeout(r, 20));
    expect(replayed.size).toBeGreaterThanOrEqual(40);
    expect(replayed.size).toBeLessThan(ENDPOINTS * EVENTS);

    // the other business writes every 200 ms for 4 s
    const sent = new Map<string, number>();
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 20; i++) {
      const name = `victim-${i}`;
      sent.set(name, Date.now());
      writes.push(request(api.port, victim, 'POST', '/v1/client', { companyName: name }));
      await new Promise((r) => setTimeout(r, 200));
    }
    await Promise.all(writes);
    const deadline = Date.now() + 10_000;
    while ([...sent.keys()].some((n) => !arrivals.has(n)) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    const delays = [...sent].map(([name, at]) => (arrivals.has(name) ? arrivals.get(name)! - at : Infinity));
    const replayedMeanwhile = replayed.size;
    expect(quantile(delays, 0.99), JSON.stringify(delays)).toBeLessThanOrEqual(2000);
    // the replay was still running while the other business's deliveries went through
    expect(replayedMeanwhile, 'the replay ended before the other business wrote: no contention measured').toBeLessThan(
      ENDPOINTS * EVENTS,
    );

    // and every replayed event reaches each endpoint, once
    const end = Date.now() + 60_000;
    while (replayed.size < ENDPOINTS * EVENTS && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    expect(replayed.size).toBe(ENDPOINTS * EVENTS);
    expect(Math.max(...replayed.values())).toBe(1);
  });
});
