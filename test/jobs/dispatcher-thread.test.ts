/**
 * The server's dispatcher thread (src/jobs/dispatcher-thread.ts, docs/webhooks.md#where-the-dispatcher-runs) on
 * the dialect under test, with a real `worker_threads` thread loading the TypeScript sources through tsx, its own
 * database handle, and a real receiver: a write answered through HTTP wakes the thread, which delivers; its
 * attempts are counted on the main thread's `/metrics`; `stop()` lets the delivery under way finish; a thread that
 * crashes (an uncaught error in it) is logged and restarted after the back-off, and delivers again.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDispatcherThread,
  type DispatcherThread,
  RESTART_DELAY_MS,
  restartDelayMs,
} from '../../src/jobs/dispatcher-thread.ts';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../setup/factories.ts';
import { apiClient } from '../setup/api-client.ts';
import { until } from '../setup/helpers.ts';
import { DIALECT } from '../setup/test-db.ts';

let t: TestApp;
const { post, raw } = apiClient(() => t.app);
let server: http.Server;
let base: string;
/** Paths the receiver got a request at, in order. */
const received: string[] = [];
/** Milliseconds the receiver waits before it answers 204. */
let answerDelayMs = 0;

/** Log lines the thread's and the supervisor's loggers wrote, with their component. */
const lines: { component: string; level: string; msg: string | undefined; obj: object }[] = [];

beforeAll(async () => {
  t = await buildTestApp({ BIZAPI_WEBHOOK_ALLOW_PRIVATE: 'true' });
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(req.url ?? '/');
      setTimeout(() => res.writeHead(204).end(), answerDelayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await t?.close();
});

/** A thread delivering only `b`'s events (other test files share the PostgreSQL database). */
function threadFor(b: TestBusiness): DispatcherThread {
  return createDispatcherThread({
    config: { ...t.config, dispatcher: { ...t.config.dispatcher, businessIds: [b.businessId] } },
    masterKey: t.masterKey,
    log: (component) => {
      const line = (level: string) => (obj: object, msg?: string) => lines.push({ component, level, msg, obj });
      return { info: line('info'), warn: line('warn'), error: line('error') };
    },
  });
}

/** Creates an endpoint of `b` through the API, at a receiver path of its own; returns the path. */
async function newEndpoint(b: TestBusiness, name: string): Promise<string> {
  const res = await post(b, '/v1/webhook', { url: `${base}/${name}`, eventTypes: ['client.created'] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return `/${name}`;
}

async function newClient(b: TestBusiness): Promise<void> {
  const res = await post(b, '/v1/client', { companyName: 'Acme' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

async function succeededOnMetrics(): Promise<number> {
  const text = (await raw(undefined, { method: 'GET', url: '/metrics' })).body;
  return Number(/^bizapi_webhook_deliveries_total\{outcome="succeeded"\} (\d+)$/m.exec(text)?.[1] ?? NaN);
}

describe(`dispatcher thread (${DIALECT})`, () => {
  it('delivers a write answered through HTTP, counted on the main thread’s /metrics; stop() lets the delivery under way finish', async () => {
    const b = await newBusiness(t);
    const path = await newEndpoint(b, 'drain');
    const thread = threadFor(b);
    thread.start();
    try {
      const before = await succeededOnMetrics();
      await newClient(b);
      await until(() => received.includes(path), 20_000, 'the first delivery');
      await until(async () => (await succeededOnMetrics()) === before + 1, 5000, 'the attempt on /metrics');

      // a delivery under way when stop() is called finishes before stop() resolves
      answerDelayMs = 1500;
      await newClient(b);
      await until(() => received.filter((p) => p === path).length === 2, 20_000, 'the second request');
      await thread.stop();
      expect(await succeededOnMetrics()).toBe(before + 2);
      const rows = await t.testDb.db
        .selectFrom('webhook_delivery')
        .select(['status', 'lease_owner'])
        .where('business_id', '=', b.businessId)
        .execute();
      expect(rows).toEqual([
        { status: 'succeeded', lease_owner: null },
        { status: 'succeeded', lease_owner: null },
      ]);
    } finally {
      answerDelayMs = 0;
      await thread.stop();
    }
  }, 60_000);

  it('restarts a thread that crashed, after the back-off, and the new thread delivers', async () => {
    expect([1, 2, 3, 6, 7].map(restartDelayMs)).toEqual([1000, 2000, 4000, 30_000, 30_000]);
    const b = await newBusiness(t);
    const path = await newEndpoint(b, 'crash');
    const thread = threadFor(b);
    thread.start();
    try {
      await newClient(b);
      await until(() => received.includes(path), 20_000, 'the delivery before the crash');
      lines.length = 0;
      const crashedAt = Date.now();
      thread.crash();
      await until(
        () => lines.some((l) => l.msg === 'dispatcher thread ended unexpectedly; restarting it'),
        10_000,
        'the crash logged',
      );
      expect(lines.find((l) => l.msg === 'dispatcher thread crashed')).toMatchObject({
        component: 'dispatcher-thread',
        level: 'error',
        obj: { error: expect.stringContaining('dispatcher thread crash drill') },
      });
      expect(lines.find((l) => l.msg === 'dispatcher thread ended unexpectedly; restarting it')).toMatchObject({
        obj: { exitCode: 1, retryInMs: RESTART_DELAY_MS },
      });
      await until(() => thread.starts === 2, 10_000, 'the restart');
      expect(Date.now() - crashedAt).toBeGreaterThanOrEqual(RESTART_DELAY_MS - 50);
      await newClient(b);
      await until(() => received.filter((p) => p === path).length === 2, 20_000, 'the delivery after the restart');
    } finally {
      await thread.stop();
    }
  }, 60_000);
});
