/**
 * Webhook delivery (docs/webhooks.md#delivery) on the dialect under test, to a real receiver (node:http on
 * 127.0.0.1, private addresses allowed): signed Standard Webhooks deliveries of client changes, the
 * `pluuug` envelope, retries on the schedule (the dispatcher's clock moved), redirects and timeouts as
 * failures, rotation (two signatures), deleted and disabled endpoints, tenant isolation, two dispatchers
 * delivering each event once, the connect-time address check, metrics and retention.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { createDb } from '../../../src/db/create-db.ts';
import {
  createWebhookDispatcher,
  type WebhookDispatcher,
  type WebhookDispatchResult,
} from '../../../src/jobs/webhook-dispatcher.ts';
import { encryptSecret } from '../../../src/modules/auth/secret-box.ts';
import { maxEventId, record } from '../../../src/modules/event/event.service.ts';
import { deliveryBody, localMicros } from '../../../src/modules/webhook/webhook-body.ts';
import {
  MAX_ATTEMPTS,
  publish,
  purgeDeliveries,
  QUEUE_CAP,
  RETRY_DELAYS_MS,
  retryDelayMs,
  WRITE_DELIVERIES_MAX_ENDPOINTS,
} from '../../../src/modules/webhook/webhook-delivery.service.ts';
import * as repo from '../../../src/modules/webhook/webhook-delivery.repository.ts';
import { isPublicAddress } from '../../../src/shared/public-address.ts';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { DIALECT } from '../../setup/test-db.ts';
import { apiClient } from '../../setup/api-client.ts';
import { until } from '../../setup/helpers.ts';
import { countStatements } from '../../setup/statement-count.ts';
import { isCitus } from '../../../src/db/citus.ts';

let t: TestApp;
const { get, post, patch, delete: del, raw } = apiClient(() => t.app);

/** One request the receiver got. */
interface Receipt {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

/**
 * What the receiver does for a path: a status (default 204), `hang` (never answers), a redirect, or a 204
 * after `delayMs`.
 */
type Behaviour = number | 'hang' | { redirect: string } | { delayMs: number };

let server: http.Server;
let base: string;
const receipts: Receipt[] = [];
const behaviour = new Map<string, Behaviour[]>();
const hanging = new Set<http.ServerResponse>();
/** Per path: requests being answered now, and the most there were at once. */
const concurrency = new Map<string, { now: number; max: number }>();

beforeAll(async () => {
  t = await buildTestApp({ BIZAPI_WEBHOOK_ALLOW_PRIVATE: 'true' });
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      receipts.push({
        path,
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      const c = concurrency.get(path) ?? { now: 0, max: 0 };
      concurrency.set(path, c);
      c.now += 1;
      c.max = Math.max(c.max, c.now);
      res.on('close', () => (c.now -= 1));
      const plan = behaviour.get(path);
      const next = plan && plan.length > 1 ? plan.shift()! : (plan?.[0] ?? 204);
      if (next === 'hang') {
        hanging.add(res);
        return;
      }
      if (typeof next === 'object' && 'delayMs' in next) {
        setTimeout(() => res.writeHead(204).end(), next.delayMs);
        return;
      }
      if (typeof next === 'object') {
        res.writeHead(302, { location: next.redirect }).end();
        return;
      }
      res.writeHead(next, { 'content-type': 'text/plain' }).end(next === 204 ? undefined : `answer ${next}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of hanging) res.destroy();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await t.close();
});

/** A new `whsec_` secret. */
function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

let pathSeq = 0;
/** A path of the receiver no other test uses. */
function uniquePath(name: string): string {
  return `/${name}-${++pathSeq}`;
}

interface EndpointInput {
  url?: string;
  eventTypes?: string[];
  format?: 'standard' | 'pluuug';
  isActive?: boolean;
  secret?: string;
  previousSecret?: { secret: string; expiresAt: string };
}

/** Writes an endpoint row (as the webhook API does); returns its id, secret and receiver path. */
async function newEndpoint(
  b: TestBusiness,
  input: EndpointInput = {},
): Promise<{ id: number; secret: string; path: string; url: string }> {
  const secret = input.secret ?? newSecret();
  const path = uniquePath('hook');
  const url = input.url ?? `${base}${path}`;
  const now = new Date().toISOString();
  const { id } = await t.testDb.db
    .insertInto('webhook_endpoint')
    .values({
      business_id: b.businessId,
      url,
      event_types: JSON.stringify(input.eventTypes ?? ['*']),
      description: null,
      is_active: input.isActive === false ? 0 : 1,
      format: input.format ?? 'standard',
      secret: encryptSecret(t.masterKey, secret),
      previous_secret: input.previousSecret ? encryptSecret(t.masterKey, input.previousSecret.secret) : null,
      previous_secret_expires_at: input.previousSecret?.expiresAt ?? null,
      last_success_at: null,
      failing_since: null,
      created: now,
      updated: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, secret, path, url };
}

/**
 * A clock the test moves, starting a minute ahead of the real one: on SQLite a write writes its deliveries
 * due at its own (real) time (docs/webhooks.md#deliveries-written-by-the-write), which a dispatcher's clock
 * must not be behind.
 */
function testClock(start = Date.now() + 60_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

function dispatcher(
  businessIds: number[],
  options: {
    now?: () => number;
    allowPrivate?: boolean;
    timeoutMs?: number;
    pollIntervalMs?: number;
    concurrency?: number;
    perEndpoint?: number;
  } = {},
): WebhookDispatcher {
  return createWebhookDispatcher({
    db: t.testDb.db,
    masterKey: t.masterKey,
    config: {
      dispatcher: {
        ...t.config.dispatcher,
        pollIntervalMs: options.pollIntervalMs ?? t.config.dispatcher.pollIntervalMs,
      },
      webhookAllowPrivate: options.allowPrivate ?? true,
    },
    businessIds,
    now: options.now,
    timeoutMs: options.timeoutMs,
    concurrency: options.concurrency,
    perEndpoint: options.perEndpoint,
  });
}

/**
 * The dispatcher of a test's phase where its receivers answer: like the hanging phase's (`perEndpoint` 4, the
 * test clock) but with a 10 s timeout, so that an answer delayed by a loaded machine is still an answer (the
 * 200 ms timeout of the hanging phase made such a delivery a retry, due minutes later on the test clock).
 */
function answering(businessId: number, now: () => number): WebhookDispatcher {
  return dispatcher([businessId], { now, timeoutMs: 10_000, perEndpoint: 4 });
}

/** Polls until nothing is left to publish or claim; returns the summed results. */
async function drain(d: WebhookDispatcher): Promise<WebhookDispatchResult> {
  const total: WebhookDispatchResult = { published: 0, resumed: 0, claimed: 0, succeeded: 0, retried: 0, failed: 0 };
  for (let i = 0; i < 100; i++) {
    const r = await d.runOnce();
    for (const k of Object.keys(total) as (keyof WebhookDispatchResult)[]) total[k] += r[k];
    if (r.published === 0 && r.resumed === 0 && r.claimed === 0) return total;
  }
  throw new Error('the dispatcher never ran dry');
}

function receivedAt(path: string): Receipt[] {
  return receipts.filter((r) => r.path === path);
}

async function deliveriesOf(webhookId: number) {
  return t.testDb.db
    .selectFrom('webhook_delivery')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .orderBy('id')
    .execute();
}

async function endpointRow(id: number) {
  return t.testDb.db.selectFrom('webhook_endpoint').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function newClient(b: TestBusiness, companyName = 'Acme'): Promise<number> {
  const res = await post(b, '/v1/client', { companyName });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

describe(`webhook delivery on ${DIALECT}`, () => {
  it('delivers a client change signed (Standard Webhooks), the body being the event GET /v1/event/{id} answers', async () => {
    const b = await newBusiness(t);
    const all = await newEndpoint(b);
    const deletesOnly = await newEndpoint(b, { eventTypes: ['client.deleted'] });
    const updatesOnly = await newEndpoint(b, { eventTypes: ['client.updated'] });
    const id = await newClient(b);
    expect((await patch(b, `/v1/client/${id}`, { email: 'a@acme.example' })).status).toBe(200);
    const d = dispatcher([b.businessId]);
    const result = await drain(d);
    expect(result).toMatchObject({ published: 0, claimed: 3, succeeded: 3, retried: 0, failed: 0 });

    const events = (await get(b, '/v1/event?page_size=100')).body.results.reverse();
    expect(events.map((e: { type: string }) => e.type)).toEqual(['client.created', 'client.updated']);
    // sent concurrently: order is not guaranteed
    const got = receivedAt(all.path).sort((x, y) => Number(x.headers['webhook-id']) - Number(y.headers['webhook-id']));
    expect(got.map((r) => r.headers['webhook-id'])).toEqual(events.map((e: { id: number }) => String(e.id)));
    for (const [i, r] of got.entries()) {
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['user-agent']).toMatch(/^bizapi-webhooks\/\d+\.\d+\.\d+/);
      expect(r.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
      expect(Math.abs(Number(r.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
      expect(new Webhook(all.secret).verify(r.body, r.headers)).toEqual(events[i]);
      expect(JSON.parse(r.body)).toEqual((await get(b, `/v1/event/${events[i].id}`)).body);
      expect(Object.keys(JSON.parse(r.body))).toEqual([
        'id',
        'sequence',
        'type',
        'created',
        'changedFields',
        'parent',
        'data',
      ]);
      // another secret does not verify
      expect(() => new Webhook(newSecret()).verify(r.body, r.headers)).toThrow();
    }
    expect(receivedAt(deletesOnly.path)).toEqual([]);
    expect(receivedAt(updatesOnly.path).map((r) => JSON.parse(r.body).type)).toEqual(['client.updated']);

    const rows = await deliveriesOf(all.id);
    expect(rows.map((r) => [r.status, r.attempts, r.last_status_code, r.next_attempt_at, r.lease_owner])).toEqual([
      ['succeeded', 1, 204, null, null],
      ['succeeded', 1, 204, null, null],
    ]);
    expect((await endpointRow(all.id)).last_success_at).not.toBeNull();
    // nothing is delivered twice
    expect(await drain(d)).toMatchObject({ published: 0, claimed: 0 });
    expect(receivedAt(all.path)).toHaveLength(2);
  });

  it('sends the pluuug envelope for an inquiry status change, snake_case, in the business time zone', async () => {
    const b = await newBusiness(t, { timezone: 'Asia/Seoul' });
    const pluuug = await newEndpoint(b, { format: 'pluuug', eventTypes: ['*'] });
    const res = await post(b, '/v1/inquiry', { name: 'Website' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const inquiry = (await get(b, `/v1/inquiry/${res.body.id}`)).body;
    // The inquiry's own events come with its module; the event is written here as that module writes it.
    const event = await t.testDb.db
      .transaction()
      .execute((trx) =>
        record(
          trx,
          b.businessId,
          { type: 'inquiry.updated', changedFields: ['status', 'inChargeSet'], data: inquiry },
          '2026-01-15T01:30:45.123Z',
        ),
      );
    // not for pluuug: a client event, an inquiry change of other properties
    await newClient(b);
    await t.testDb.db
      .transaction()
      .execute((trx) => record(trx, b.businessId, { type: 'inquiry.updated', changedFields: ['memo'], data: inquiry }));
    await drain(dispatcher([b.businessId]));

    const got = receivedAt(pluuug.path);
    expect(got).toHaveLength(1);
    const body = got[0]!.body;
    expect(got[0]!.headers['webhook-id']).toBe(String(event.id));
    expect(new Webhook(pluuug.secret).verify(body, got[0]!.headers)).toBeTruthy();
    expect(
      body.startsWith(
        '{"event_type":"inquiry","timestamp":"2026-01-15T10:30:45.123000","changed_fields":["status","in_charge_set"],"data":{"id":',
      ),
    ).toBe(true);
    const parsed = JSON.parse(body);
    expect(Object.keys(parsed)).toEqual(['event_type', 'timestamp', 'changed_fields', 'data']);
    const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    expect(Object.keys(parsed.data)).toEqual(Object.keys(inquiry).map(snake));
    expect(parsed.data.id).toBe(inquiry.id);
    expect(parsed.data.name).toBe('Website');
    expect(Object.keys(parsed.data)).toContain('in_charge_set');
    // nested objects too
    const nested = (v: unknown): string[] =>
      Array.isArray(v)
        ? v.flatMap(nested)
        : v && typeof v === 'object'
          ? Object.entries(v).flatMap(([k, x]) => [k, ...nested(x)])
          : [];
    expect(nested(parsed.data).filter((k) => /[A-Z]/.test(k))).toEqual([]);
    expect(body).toBe(deliveryBody('pluuug', { ...event, sequence: 1, data: inquiry }, 'Asia/Seoul'));
  });

  it('formats the pluuug timestamp in the time zone with microseconds and no offset', () => {
    expect(localMicros('2026-01-15T01:30:45.123Z', 'Asia/Seoul')).toBe('2026-01-15T10:30:45.123000');
    expect(localMicros('2026-07-01T23:59:59.007Z', 'America/New_York')).toBe('2026-07-01T19:59:59.007000');
    expect(localMicros('2026-01-01T00:00:00.000Z', 'UTC')).toBe('2026-01-01T00:00:00.000000');
  });

  it('retries a 500 after 5 s (the clock moved), then succeeds on attempt 2', async () => {
    const b = await newBusiness(t);
    const hook = await newEndpoint(b);
    behaviour.set(hook.path, [500, 204]);
    await newClient(b);
    const clock = testClock();
    const d = dispatcher([b.businessId], { now: clock.now });
    expect(await drain(d)).toMatchObject({ claimed: 1, retried: 1, succeeded: 0 });
    let [row] = await deliveriesOf(hook.id);
    expect(row).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_status_code: 500,
      last_error: 'HTTP 500',
      last_response: 'answer 500',
    });
    expect(row!.next_attempt_at).toBe(new Date(clock.now() + 5000).toISOString());
    expect(row!.last_duration_ms).toBeGreaterThanOrEqual(0);
    expect((await endpointRow(hook.id)).failing_since).not.toBeNull();

    // not due yet
    clock.advance(4000);
    expect(await drain(d)).toMatchObject({ claimed: 0 });
    clock.advance(1000);
    expect(await drain(d)).toMatchObject({ claimed: 1, succeeded: 1 });
    [row] = await deliveriesOf(hook.id);
    expect(row).toMatchObject({
      status: 'succeeded',
      attempts: 2,
      last_status_code: 204,
      last_error: null,
      next_attempt_at: null,
    });
    const got = receivedAt(hook.path);
    expect(got).toHaveLength(2);
    expect(got[1]!.headers['webhook-id']).toBe(got[0]!.headers['webhook-id']);
    const endpoint = await endpointRow(hook.id);
    expect(endpoint.failing_since).toBeNull();
    expect(endpoint.last_success_at).not.toBeNull();
  });

  it('follows the schedule 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then ends failed after 8 attempts', async () => {
    expect(RETRY_DELAYS_MS).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(MAX_ATTEMPTS).toBe(8);
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(retryDelayMs)).toEqual([...RETRY_DELAYS_MS, undefined]);

    const b = await newBusiness(t);
    const hook = await newEndpoint(b);
    behaviour.set(hook.path, [503]);
    await newClient(b);
    const clock = testClock();
    const d = dispatcher([b.businessId], { now: clock.now });
    await drain(d);
    for (const delay of RETRY_DELAYS_MS) {
      clock.advance(delay - 1);
      expect((await drain(d)).claimed).toBe(0);
      clock.advance(1);
      expect((await drain(d)).claimed).toBe(1);
    }
    const [row] = await deliveriesOf(hook.id);
    expect(row).toMatchObject({ status: 'failed', attempts: 8, last_status_code: 503, next_attempt_at: null });
    expect(receivedAt(hook.path)).toHaveLength(8);
    clock.advance(100 * 3_600_000);
    expect((await drain(d)).claimed).toBe(0);
  });

  it('disables an endpoint that has failed for 5 days; its pending deliveries end as "endpoint disabled"', async () => {
    const b = await newBusiness(t);
    const hook = await newEndpoint(b);
    behaviour.set(hook.path, [500]);
    const clock = testClock();
    const d = dispatcher([b.businessId], { now: clock.now });
    await newClient(b);
    await drain(d);
    expect((await endpointRow(hook.id)).is_active).toBe(1);
    // five days of failures later
    await t.testDb.db
      .updateTable('webhook_endpoint')
      .set({ failing_since: new Date(clock.now() - 5 * 86_400_000 - 1000).toISOString() })
      .where('id', '=', hook.id)
      .execute();
    await newClient(b, 'Second');
    await drain(d);
    expect((await endpointRow(hook.id)).is_active).toBe(0);
    const before = receivedAt(hook.path).length;
    clock.advance(RETRY_DELAYS_MS[0]!);
    await drain(d);
    expect(receivedAt(hook.path)).toHaveLength(before);
    const rows = await deliveriesOf(hook.id);
    expect(rows.map((r) => [r.status, r.last_error])).toEqual([
      ['failed', 'endpoint disabled'],
      ['failed', 'endpoint disabled'],
    ]);
    // an inactive endpoint gets no new deliveries
    await newClient(b, 'Third');
    await drain(d);
    expect(await deliveriesOf(hook.id)).toHaveLength(rows.length);
  });

  it('treats a redirect as a failure and does not follow it', async () => {
    const b = await newBusiness(t);
    const target = uniquePath('target');
    const hook = await newEndpoint(b);
    behaviour.set(hook.path, [{ redirect: `${base}${target}` }]);
    await newClient(b);
    expect(await drain(dispatcher([b.businessId]))).toMatchObject({ claimed: 1, retried: 1, succeeded: 0 });
    const [row] = await deliveriesOf(hook.id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 302 });
    expect(row!.last_error).toMatch(/redirect/);
    expect(receivedAt(hook.path)).toHaveLength(1);
    expect(receivedAt(target)).toEqual([]);
  });

  it('a hanging receiver does not slow the API, nor the deliveries to other endpoints', async () => {
    const b = await newBusiness(t);
    await newClient(b, 'Warm-up'); // the first request of a process compiles a lot: not measured
    await drain(dispatcher([b.businessId])); // its event published before the endpoints exist
    const slow = await newEndpoint(b);
    const fast = await newEndpoint(b);
    behaviour.set(slow.path, ['hang']);
    // two slots, one per endpoint: the hanging endpoint may take only one of them
    const d = dispatcher([b.businessId], { timeoutMs: 3000, pollIntervalMs: 20, concurrency: 2, perEndpoint: 1 });
    d.start();
    try {
      const timings: number[] = [];
      for (let i = 0; i < 6; i++) {
        const started = performance.now();
        await newClient(b, `Client ${i}`);
        timings.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, 30));
      }
      // every POST answered fast while deliveries to `slow` hang
      expect(Math.max(...timings), JSON.stringify(timings)).toBeLessThan(1000);
      // all of them before the first hanging attempt has timed out
      await until(() => receivedAt(fast.path).length === 6, 2500);
      expect(receivedAt(slow.path).length).toBeGreaterThan(0);
      expect(hanging.size).toBeGreaterThan(0);
    } finally {
      const stopping = performance.now();
      await d.stop();
      // draining waits at most for the timeout of the attempts under way
      expect(performance.now() - stopping).toBeLessThan(5000);
    }
    const rows = await deliveriesOf(slow.id);
    expect(rows.some((r) => r.last_error === 'timeout after 3000 ms')).toBe(true);
    expect(rows.every((r) => r.status === 'pending')).toBe(true);
    expect((await deliveriesOf(fast.id)).every((r) => r.status === 'succeeded')).toBe(true);
  }, 30_000);

  it('drains a backlog with the slots of finished attempts handed straight back: never more than perEndpoint at once per endpoint, each delivery once', async () => {
    const b = await newBusiness(t);
    const first = await newEndpoint(b);
    const second = await newEndpoint(b);
    behaviour.set(first.path, [{ delayMs: 60 }]);
    behaviour.set(second.path, [{ delayMs: 5 }]);
    for (let i = 0; i < 30; i++) await newClient(b, `Backlog ${i}`);
    // the idle poll a minute away: the backlog is drained by freed slots, refilled or polled at once
    const d = dispatcher([b.businessId], { pollIntervalMs: 60_000, perEndpoint: 3 });
    d.start();
    try {
      await until(() => receivedAt(first.path).length >= 30 && receivedAt(second.path).length >= 30, 20_000);
    } finally {
      await d.stop();
    }
    for (const hook of [first, second]) {
      expect(concurrency.get(hook.path)!.max).toBeLessThanOrEqual(3);
      const rows = await deliveriesOf(hook.id);
      expect(rows).toHaveLength(30);
      expect(rows.every((r) => r.status === 'succeeded' && r.attempts === 1 && r.lease_owner === null)).toBe(true);
      expect(new Set(receivedAt(hook.path).map((r) => r.headers['webhook-id'])).size).toBe(30);
    }
    // the slower receiver had more than one attempt at once (how many of its three slots fill at the same
    // instant depends on the machine's load: the cap above is the assertion)
    expect(concurrency.get(first.path)!.max).toBeGreaterThan(1);
  }, 30_000);

  it('moves an endpoint whose last 3 attempts got no answer to the sick lane: one attempt at a time until one succeeds', async () => {
    const b = await newBusiness(t);
    const hook = await newEndpoint(b);
    behaviour.set(hook.path, ['hang']);
    for (let i = 0; i < 6; i++) await newClient(b, `Sick ${i}`);
    const clock = testClock();
    const d = dispatcher([b.businessId], { now: clock.now, timeoutMs: 200, perEndpoint: 4 });
    // healthy: up to 4 at once; all time out (no answer) → the streak reaches 4 ≥ 3
    expect(await d.runOnce()).toMatchObject({ published: 0, claimed: 4, retried: 4 });
    expect((await endpointRow(hook.id)).sick_streak).toBe(4);
    // sick: one attempt at a time, whatever is due (4 retries after 5 s, and 2 never tried)
    clock.advance(5_000);
    expect(await d.runOnce()).toMatchObject({ claimed: 1, retried: 1 });
    expect(await d.runOnce()).toMatchObject({ claimed: 1, retried: 1 });
    // an HTTP answer (even an error) ends the streak of no answers; a success takes it back to the normal lane
    behaviour.set(hook.path, [204]);
    expect(await d.runOnce()).toMatchObject({ claimed: 1, succeeded: 1 });
    expect((await endpointRow(hook.id)).sick_streak).toBe(0);
    expect(await d.runOnce()).toMatchObject({ claimed: 3, succeeded: 3 });
    // a 500 is an answer: the streak stays 0
    behaviour.set(hook.path, [500]);
    await newClient(b, 'Answered');
    expect(await d.runOnce()).toMatchObject({ published: 0, claimed: 1, retried: 1 });
    expect((await endpointRow(hook.id)).sick_streak).toBe(0);
  });

  it("counts a business's attempts in flight in both lanes against its cap: one claimed before its endpoint became sick still counts", async () => {
    const b = await newBusiness(t);
    const sick = await newEndpoint(b);
    const healthy = await newEndpoint(b);
    for (let i = 0; i < 4; i++) await newClient(b, `Lanes ${i}`);
    const now = Date.now();
    const at = (ms: number) => new Date(now + ms).toISOString();
    await publish(t.testDb.db, { limit: 100, businessIds: [b.businessId], now: at(0) });
    expect([...(await deliveriesOf(sick.id)), ...(await deliveriesOf(healthy.id))]).toHaveLength(8);
    // two attempts to the first endpoint in flight (another dispatcher's), then it became sick
    const inFlight = (await deliveriesOf(sick.id)).slice(0, 2).map((r) => r.id);
    await t.testDb.db
      .updateTable('webhook_delivery')
      .set({ lease_owner: 'other', lease_until: at(60_000) })
      .where('id', 'in', inFlight)
      .execute();
    await t.testDb.db.updateTable('webhook_endpoint').set({ sick_streak: 3 }).where('id', '=', sick.id).execute();
    const claim = (lane: 'normal' | 'sick') =>
      repo.claimDue(t.testDb.db, {
        owner: 'test',
        now: at(1),
        leaseUntil: at(60_000),
        limit: 100,
        businessIds: [b.businessId],
        lane,
        sickAfter: 3,
        perEndpoint: 4,
        perBusiness: 4,
      });
    // the business's cap of 4 leaves 2 slots: the healthy endpoint gets 2 of its 4, not 4
    const normal = await claim('normal');
    expect(normal.map((r) => r.webhook_id)).toEqual([healthy.id, healthy.id]);
    // and the sick lane none: the business is at its cap (and the sick endpoint has an attempt in flight)
    expect(await claim('sick')).toEqual([]);
  });

  it('parks an endpoint whose last 3 attempts got no answer: its later events are owed, not queued; an answer resumes it and every event arrives', async () => {
    const b = await newBusiness(t);
    const hook = await newEndpoint(b);
    behaviour.set(hook.path, ['hang']);
    for (let i = 0; i < 6; i++) await newClient(b, `Parked ${i}`);
    const clock = testClock();
    const d = dispatcher([b.businessId], { now: clock.now, timeoutMs: 200, perEndpoint: 4 });
    // 4 attempts, none answered: the streak reaches 4 ≥ 3, and the 2 deliveries never tried are owed instead
    expect(await d.runOnce()).toMatchObject({ published: 0, claimed: 4, retried: 4 });
    expect((await endpointRow(hook.id)).parked_after_event_id).not.toBeNull();
    expect(await deliveriesOf(hook.id)).toHaveLength(4);
    expect((await get(b, `/v1/webhook/${hook.id}`)).body).toMatchObject({ isParked: true, isActive: true });
    // while parked, new events write no delivery for it
    for (let i = 6; i < 46; i++) await newClient(b, `Parked ${i}`);
    expect(await d.runOnce()).toMatchObject({ published: 0, resumed: 0, claimed: 0 });
    expect(await deliveriesOf(hook.id)).toHaveLength(4);
    // the receiver answers again: a retry, due in 5 s, succeeds in the sick lane; the 42 owed events are queued and sent
    // (by a dispatcher with a timeout a loaded machine cannot reach: 200 ms was only for the hanging receiver)
    behaviour.set(hook.path, [204]);
    clock.advance(5_000);
    await drain(answering(b.businessId, clock.now));
    const rows = await deliveriesOf(hook.id);
    expect(rows).toHaveLength(46);
    expect(rows.every((r) => r.status === 'succeeded')).toBe(true);
    expect(new Set(receivedAt(hook.path).map((r) => r.headers['webhook-id'])).size).toBe(46);
    expect((await endpointRow(hook.id)).parked_after_event_id).toBeNull();
    expect((await get(b, `/v1/webhook/${hook.id}`)).body.isParked).toBe(false);
  });

  it('POST /v1/webhook/{id}/resume queues what a parked endpoint is owed at once, a chunk at a time as its queue drains', async () => {
    const b = await newBusiness(t);
    const hook = await newEndpoint(b);
    const other = await newEndpoint(b);
    behaviour.set(hook.path, ['hang']);
    for (let i = 0; i < 4; i++) await newClient(b, `Resume ${i}`);
    const clock = testClock();
    const d = dispatcher([b.businessId], { now: clock.now, timeoutMs: 200, perEndpoint: 4 });
    expect(await d.runOnce()).toMatchObject({ published: 0, retried: 4, succeeded: 4 });
    expect((await endpointRow(hook.id)).parked_after_event_id).not.toBeNull();
    for (let i = 4; i < 154; i++) await newClient(b, `Resume ${i}`);
    await drain(d);
    expect(await deliveriesOf(hook.id)).toHaveLength(4);
    expect(await deliveriesOf(other.id)).toHaveLength(154);
    expect((await endpointRow(other.id)).parked_after_event_id).toBeNull();
    // another business's endpoint, and a missing one: 404
    const stranger = await newBusiness(t);
    expect((await post(stranger, `/v1/webhook/${hook.id}/resume`, {})).status).toBe(404);
    expect((await post(b, `/v1/webhook/999999999/resume`, {})).status).toBe(404);
    // resumed before any retry is due: the owed 150 are queued, 20 (a chunk: the queue cap) first, the next
    // once fewer than 20 wait
    behaviour.set(hook.path, [204]);
    const res = await post(b, `/v1/webhook/${hook.id}/resume`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toMatchObject({ id: hook.id, isParked: true });
    expect((await endpointRow(hook.id)).sick_streak).toBe(0);
    // (the answering receiver served by a dispatcher with a timeout a loaded machine cannot reach)
    const served = answering(b.businessId, clock.now);
    expect(await served.runOnce()).toMatchObject({ resumed: QUEUE_CAP });
    expect(await deliveriesOf(hook.id)).toHaveLength(4 + QUEUE_CAP);
    await drain(served);
    clock.advance(5_000);
    await drain(served);
    const rows = await deliveriesOf(hook.id);
    expect(rows).toHaveLength(154);
    expect(rows.every((r) => r.status === 'succeeded')).toBe(true);
    expect((await get(b, `/v1/webhook/${hook.id}`)).body.isParked).toBe(false);
    // resuming an endpoint that is not parked changes nothing
    const again = await post(b, `/v1/webhook/${hook.id}/resume`, {});
    expect(again.status).toBe(202);
    expect(again.body.isParked).toBe(false);
  });

  it('caps the deliveries not attempted yet per endpoint at the fan-out: the events beyond are owed, queued as the queue drains', async () => {
    const b = await newBusiness(t);
    const hook = await newEndpoint(b);
    for (let i = 0; i < 50; i++) await newClient(b, `Capped ${i}`);
    const d = dispatcher([b.businessId]);
    // one fan-out of the 50 events: 20 queued, the endpoint parked after them (it has not failed)
    await publish(t.testDb.db, { limit: 100, businessIds: [b.businessId], now: new Date().toISOString() });
    expect(await deliveriesOf(hook.id)).toHaveLength(QUEUE_CAP);
    const parkedAt = (await endpointRow(hook.id)).parked_after_event_id;
    expect(parkedAt).not.toBeNull();
    expect((await deliveriesOf(hook.id)).every((r) => r.event_id <= Number(parkedAt))).toBe(true);
    // the receiver answers: as the queue drains the owed 30 are queued, and every event arrives once
    await drain(d);
    const rows = await deliveriesOf(hook.id);
    expect(rows).toHaveLength(50);
    expect(rows.every((r) => r.status === 'succeeded' && r.attempts === 1)).toBe(true);
    expect(new Set(receivedAt(hook.path).map((r) => r.headers['webhook-id'])).size).toBe(50);
    expect((await endpointRow(hook.id)).parked_after_event_id).toBeNull();
  });

  it("bounds a fan-out's deliveries: the round's later turns wait for the next fan-out, so a quiet business's event is never left behind a noisy one's", async () => {
    const noisy = await newBusiness(t);
    const quiet = await newBusiness(t);
    for (let i = 0; i < 4; i++) await newEndpoint(noisy);
    const quietHook = await newEndpoint(quiet);
    for (let i = 0; i < 5; i++) await newClient(noisy, `Noisy ${i}`);
    await newClient(quiet, 'Quiet');
    const now = new Date().toISOString();
    const ids = [noisy.businessId, quiet.businessId];
    // the quiet business's write wrote its one delivery itself (docs/webhooks.md#deliveries-written-by-the-write);
    // the noisy business's four endpoints (more than WRITE_DELIVERIES_MAX_ENDPOINTS) leave its events to the
    // fan-out: at most 9 deliveries, its first and second events (4 each), the last 3 left for the next one
    expect(WRITE_DELIVERIES_MAX_ENDPOINTS).toBeLessThan(4);
    expect(await deliveriesOf(quietHook.id)).toHaveLength(1);
    expect(await publish(t.testDb.db, { limit: 100, businessIds: ids, now, maxDeliveries: 9 })).toEqual({
      events: 2,
      deliveries: 8,
      deferred: 3,
    });
    expect(await publish(t.testDb.db, { limit: 100, businessIds: ids, now, maxDeliveries: 9 })).toEqual({
      events: 2,
      deliveries: 8,
      deferred: 1,
    });
    expect(await publish(t.testDb.db, { limit: 100, businessIds: ids, now, maxDeliveries: 9 })).toEqual({
      events: 1,
      deliveries: 4,
      deferred: 0,
    });
    // a single event beyond the bound is still fanned out (a round never stalls)
    await newClient(noisy, 'Noisy 5');
    expect(await publish(t.testDb.db, { limit: 100, businessIds: ids, now, maxDeliveries: 1 })).toEqual({
      events: 1,
      deliveries: 4,
      deferred: 0,
    });
  });

  it('a fan-out round and a claim run a bounded number of statements however many businesses they serve (one per business on Citus only)', async () => {
    const businesses: TestBusiness[] = [];
    for (let i = 0; i < 12; i++) businesses.push(await newBusiness(t));
    const hooks = new Map<number, number[]>();
    for (const b of businesses)
      for (let i = 0; i < 5; i++)
        hooks.set(b.businessId, [...(hooks.get(b.businessId) ?? []), (await newEndpoint(b)).id]);
    // each business's first endpoint parked before its events (owed them): the round locks its cursor again
    const firsts = [...hooks.values()].map((h) => h[0]!);
    await t.testDb.db
      .updateTable('webhook_endpoint')
      .set({ parked_after_event_id: 0, sick_streak: 5 })
      .where('id', 'in', firsts)
      .execute();
    for (const b of businesses) for (const name of ['A', 'B']) await newClient(b, name);
    const ids = businesses.map((b) => b.businessId);
    // (the other four: more than a write writes deliveries for) a queue cap of 1: each gets its first event and
    // is parked before the second
    const fanOut = await countStatements(() =>
      publish(t.testDb.db, { limit: 100, businessIds: ids, now: new Date().toISOString(), queueCap: 1 }),
    );
    expect(fanOut.result).toEqual({ events: 24, deliveries: 48, deferred: 0 });
    for (const h of hooks.values()) {
      expect(await deliveriesOf(h[0]!)).toHaveLength(0);
      for (const id of h.slice(1)) {
        const rows = await deliveriesOf(id);
        expect(rows).toHaveLength(1);
        expect(Number((await endpointRow(id)).parked_after_event_id)).toBe(rows[0]!.event_id);
      }
    }
    const now = Date.now() + 60_000;
    const claim = await countStatements(() =>
      repo.claimDue(t.testDb.db, {
        owner: 'bounded',
        now: new Date(now).toISOString(),
        leaseUntil: new Date(now + 30_000).toISOString(),
        limit: 100,
        businessIds: ids,
        lane: 'normal',
        sickAfter: 3,
        perEndpoint: 4,
        perBusiness: 20,
      }),
    );
    expect(claim.result).toHaveLength(48);
    if (await isCitus(t.testDb.db)) return;
    // round: its read, BEGIN (and the relaxed commit's SET on PostgreSQL), the events ranked and locked, the
    // endpoints, the parked ones' cursors, the queues counted, the parking (an UPDATE and its read), the
    // deliveries, published_at, COMMIT (and the one read of pg_extension per process); claim: what is due,
    // BEGIN (SET), the claims' lock, the fair choice, the claim, COMMIT — whatever the number of businesses
    const listing = (n: string[]) => n.map((q) => q.replace(/\s+/g, ' ').slice(0, 100)).join('\n');
    expect(fanOut.statements.length, listing(fanOut.statements)).toBeLessThanOrEqual(13);
    expect(claim.statements.length, listing(claim.statements)).toBeLessThanOrEqual(9);
  });

  it("a parked endpoint's further unanswered attempts leave it parked where it was, its streak growing", async () => {
    const b = await newBusiness(t);
    const hook = await newEndpoint(b);
    behaviour.set(hook.path, ['hang']);
    for (let i = 0; i < 4; i++) await newClient(b, `Still parked ${i}`);
    const clock = testClock();
    const d = dispatcher([b.businessId], { now: clock.now, timeoutMs: 200, perEndpoint: 4 });
    expect(await d.runOnce()).toMatchObject({ published: 0, claimed: 4, retried: 4 });
    const parkedAt = (await endpointRow(hook.id)).parked_after_event_id;
    expect(parkedAt).not.toBeNull();
    for (let i = 4; i < 8; i++) await newClient(b, `Still parked ${i}`);
    clock.advance(5_000);
    expect(await d.runOnce()).toMatchObject({ published: 0, claimed: 1, retried: 1 });
    const row = await endpointRow(hook.id);
    expect(row.sick_streak).toBe(5);
    expect(row.parked_after_event_id).toBe(parkedAt);
    expect(await deliveriesOf(hook.id)).toHaveLength(4);
  });

  it('during a rotation signs with both secrets, space separated; after it with the new one only', async () => {
    const b = await newBusiness(t);
    const oldSecret = newSecret();
    const clock = testClock();
    const hook = await newEndpoint(b, {
      previousSecret: { secret: oldSecret, expiresAt: new Date(clock.now() + 86_400_000).toISOString() },
    });
    await newClient(b);
    const d = dispatcher([b.businessId], { now: clock.now });
    await drain(d);
    const [first] = receivedAt(hook.path);
    expect(first!.headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
    expect(new Webhook(hook.secret).verify(first!.body, first!.headers)).toBeTruthy();
    expect(new Webhook(oldSecret).verify(first!.body, first!.headers)).toBeTruthy();
    // each signature on its own verifies with its own secret
    const [sigNew, sigOld] = first!.headers['webhook-signature']!.split(' ');
    expect(
      new Webhook(hook.secret).verify(first!.body, { ...first!.headers, 'webhook-signature': sigNew! }),
    ).toBeTruthy();
    expect(() =>
      new Webhook(hook.secret).verify(first!.body, { ...first!.headers, 'webhook-signature': sigOld! }),
    ).toThrow();
    expect(
      new Webhook(oldSecret).verify(first!.body, { ...first!.headers, 'webhook-signature': sigOld! }),
    ).toBeTruthy();

    clock.advance(86_400_000 + 1000);
    await newClient(b, 'After');
    await drain(d);
    const second = receivedAt(hook.path)[1]!;
    expect(second.headers['webhook-signature']).toMatch(/^v1,\S+$/);
    expect(new Webhook(hook.secret).verify(second.body, second.headers)).toBeTruthy();
    expect(() => new Webhook(oldSecret).verify(second.body, second.headers)).toThrow();
  });

  it('deleting the endpoint stops its deliveries', async () => {
    const b = await newBusiness(t);
    const hook = await newEndpoint(b);
    behaviour.set(hook.path, [500]);
    await newClient(b);
    const clock = testClock();
    const d = dispatcher([b.businessId], { now: clock.now });
    await drain(d);
    expect(receivedAt(hook.path)).toHaveLength(1);
    await t.testDb.db.deleteFrom('webhook_endpoint').where('id', '=', hook.id).execute();
    expect(await deliveriesOf(hook.id)).toEqual([]);
    // no endpoint left: the write publishes its event itself (docs/webhooks.md#fan-out), on both databases
    await newClient(b, 'After delete');
    clock.advance(3_600_000);
    expect(await drain(d)).toMatchObject({ published: 0, claimed: 0 });
    expect(receivedAt(hook.path)).toHaveLength(1);
  });

  it("never delivers another business's events", async () => {
    const mine = await newBusiness(t);
    const other = await newBusiness(t);
    const hook = await newEndpoint(mine);
    const otherHook = await newEndpoint(other);
    const myClient = await newClient(mine, 'Mine');
    await newClient(other, 'Theirs');
    await newClient(other, 'Theirs too');
    await drain(dispatcher([mine.businessId, other.businessId]));
    const got = receivedAt(hook.path).map((r) => JSON.parse(r.body));
    expect(got).toHaveLength(1);
    expect(got[0].data.id).toBe(myClient);
    expect(got[0].data.companyName).toBe('Mine');
    const myEvents = (await get(mine, '/v1/event')).body.results.map((e: { id: number }) => String(e.id));
    expect(receivedAt(hook.path).map((r) => r.headers['webhook-id'])).toEqual(myEvents);
    expect(
      receivedAt(otherHook.path)
        .map((r) => JSON.parse(r.body).data.companyName)
        .sort(),
    ).toEqual(['Theirs', 'Theirs too']);
  });

  it('two dispatchers on one database deliver each event once', async () => {
    const b = await newBusiness(t);
    const hook = await newEndpoint(b);
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) ids.push(await newClient(b, `Client ${i}`));
    const one = dispatcher([b.businessId], { concurrency: 3 });
    const two = dispatcher([b.businessId], { concurrency: 3 });
    const [r1, r2] = await Promise.all([drain(one), drain(two)]);
    expect(r1.published + r2.published).toBe(0);
    expect(r1.succeeded + r2.succeeded).toBe(12);
    const got = receivedAt(hook.path);
    expect(got).toHaveLength(12);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(12);
    expect(got.map((r) => JSON.parse(r.body).data.id).sort((x, y) => x - y)).toEqual(ids);
    expect(await deliveriesOf(hook.id)).toHaveLength(12);
  });

  it('refuses loopback addresses at connect time without BIZAPI_WEBHOOK_ALLOW_PRIVATE', async () => {
    const b = await newBusiness(t);
    const port = (server.address() as AddressInfo).port;
    const literal = await newEndpoint(b);
    const named = await newEndpoint(b, { url: `http://localhost:${port}${uniquePath('named')}` });
    await newClient(b);
    expect(await drain(dispatcher([b.businessId], { allowPrivate: false }))).toMatchObject({
      claimed: 2,
      retried: 2,
      succeeded: 0,
    });
    expect(receivedAt(literal.path)).toEqual([]);
    const [a] = await deliveriesOf(literal.id);
    expect(a).toMatchObject({
      status: 'pending',
      last_status_code: null,
      last_error: '127.0.0.1 is not a public address',
    });
    const [n] = await deliveriesOf(named.id);
    expect(n!.last_error).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), which is not a public address$/);
    expect(receipts.filter((r) => r.path.startsWith('/named-'))).toEqual([]);
    // with the flag, the same delivery goes through
    const clock = testClock(Date.now() + 5000);
    expect(await drain(dispatcher([b.businessId], { now: clock.now }))).toMatchObject({ succeeded: 2 });
    expect(receivedAt(literal.path)).toHaveLength(1);
  });

  it('knows public addresses from the others', () => {
    for (const ip of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111']) expect(isPublicAddress(ip), ip).toBe(true);
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      'fe80::1',
      'fc00::1',
      '::ffff:127.0.0.1',
      '100.64.0.1',
      'nonsense',
    ]) {
      expect(isPublicAddress(ip), ip).toBe(false);
    }
  });

  // SQLite only: PostgreSQL numbers and fans out after commit, in the order events become visible (docs/api.md#events)
  it.skipIf(DIALECT === 'postgres')(
    'SQLite: a write numbers its events in its own transaction and publishes them there, with their deliveries',
    async () => {
      const b = await newBusiness(t);
      const hook = await newEndpoint(b);
      const lonely = await newBusiness(t);
      const parkedOnly = await newBusiness(t);
      const parked = await newEndpoint(parkedOnly);
      await t.testDb.db
        .updateTable('webhook_endpoint')
        .set({ parked_after_event_id: 0, sick_streak: 3 })
        .where('id', '=', parked.id)
        .execute();
      const id = await newClient(b, 'Listened to');
      const other = await newClient(lonely, 'Nobody listens');
      await newClient(parkedOnly, 'Owed');
      const events = await t.testDb.db
        .selectFrom('event')
        .select(['id', 'business_id', 'sequence', 'published_at'])
        .where('business_id', 'in', [b.businessId, lonely.businessId, parkedOnly.businessId])
        .where('type', '=', 'client.created')
        .orderBy('id')
        .execute();
      expect(events.map((e) => e.business_id)).toEqual([b.businessId, lonely.businessId, parkedOnly.businessId]);
      // numbered in commit order by the writes themselves
      expect(events.every((e) => e.sequence !== null)).toBe(true);
      expect(events.map((e) => Number(e.sequence))).toEqual(
        events.map((e) => Number(e.sequence)).sort((x, y) => x - y),
      );
      // published by the write: with the delivery of the one endpoint listening (docs/webhooks.md#deliveries-written-by-the-write),
      // without any for no endpoint or only a parked one (owed it)
      expect(events.map((e) => e.published_at !== null)).toEqual([true, true, true]);
      const log = (await get(b, `/v1/webhook/${hook.id}/delivery`)).body.results;
      expect(
        log.map((d: { event: { id: number }; status: string; attempts: number }) => [d.event.id, d.status, d.attempts]),
      ).toEqual([[events[0]!.id, 'pending', 0]]);
      // the feed lists them at once; the dispatcher has nothing to fan out, and sends the delivery
      expect(
        (await get(lonely, '/v1/event?after_sequence=0')).body.results.map((e: { data: { id: number } }) => e.data.id),
      ).toEqual([other]);
      expect(await drain(dispatcher([b.businessId, lonely.businessId, parkedOnly.businessId]))).toMatchObject({
        published: 0,
        claimed: 1,
        succeeded: 1,
      });
      expect(JSON.parse(receivedAt(hook.path)[0]!.body).data.id).toBe(id);
      expect(await deliveriesOf(parked.id)).toEqual([]);
      // owed: resumed, the parked endpoint gets the event the write published
      await t.testDb.db.updateTable('webhook_endpoint').set({ sick_streak: 0 }).where('id', '=', parked.id).execute();
      await drain(dispatcher([parkedOnly.businessId]));
      expect(receivedAt(parked.path).map((r) => JSON.parse(r.body).data.companyName)).toEqual(['Owed']);
    },
  );

  it.runIf(DIALECT === 'postgres')(
    'PostgreSQL: the INSERT of a write publishes its events, with their deliveries when a few endpoints want them, or owed to a parked one',
    async () => {
      const listened = await newBusiness(t);
      const hook = await newEndpoint(listened);
      const lonely = await newBusiness(t);
      const inactiveOnly = await newBusiness(t);
      await newEndpoint(inactiveOnly, { isActive: false });
      const otherTypes = await newBusiness(t);
      await newEndpoint(otherTypes, { eventTypes: ['inquiry.created'] });
      const pluuugOnly = await newBusiness(t);
      await newEndpoint(pluuugOnly, { format: 'pluuug' });
      const parkedOnly = await newBusiness(t);
      const parked = await newEndpoint(parkedOnly);
      await t.testDb.db
        .updateTable('webhook_endpoint')
        .set({ parked_after_event_id: 0, sick_streak: 3 })
        .where('id', '=', parked.id)
        .execute();
      const all = [listened, lonely, inactiveOnly, otherTypes, pluuugOnly, parkedOnly];
      for (const b of all) await newClient(b, 'Written');
      const events = await t.testDb.db
        .selectFrom('event')
        .select(['business_id', 'sequence', 'published_at'])
        .where(
          'business_id',
          'in',
          all.map((b) => b.businessId),
        )
        .orderBy('id')
        .execute();
      // one event per business (ids are not in write order across businesses on Citus: each shard has its own range)
      expect(events.map((e) => Number(e.business_id)).sort((x, y) => x - y)).toEqual(
        all.map((b) => b.businessId).sort((x, y) => x - y),
      );
      // numbered after commit, as ever on PostgreSQL; published by the INSERT, which wrote the listener's
      // delivery itself (docs/webhooks.md#deliveries-written-by-the-write) and none for the parked endpoint (owed)
      expect(events.every((e) => e.sequence === null)).toBe(true);
      expect(events.map((e) => e.published_at !== null)).toEqual([true, true, true, true, true, true]);
      expect(
        (await get(listened, `/v1/webhook/${hook.id}/delivery`)).body.results.map(
          (d: { status: string; attempts: number }) => [d.status, d.attempts],
        ),
      ).toEqual([['pending', 0]]);
      expect(await deliveriesOf(parked.id)).toEqual([]);
      // nothing left to fan out: the dispatcher sends the delivery
      expect(await drain(dispatcher(all.map((b) => b.businessId)))).toMatchObject({
        published: 0,
        claimed: 1,
        succeeded: 1,
      });
      expect(receivedAt(hook.path)).toHaveLength(1);
      // and the feed numbers every one of them (decisions §17)
      for (const b of all) expect((await get(b, '/v1/event?after_sequence=0')).body.results).toHaveLength(1);
      // owed: resumed, the parked endpoint gets the event the write published
      await t.testDb.db.updateTable('webhook_endpoint').set({ sick_streak: 0 }).where('id', '=', parked.id).execute();
      await drain(dispatcher([parkedOnly.businessId]));
      expect(receivedAt(parked.path).map((r) => JSON.parse(r.body).data.companyName)).toEqual(['Written']);
    },
  );

  it.runIf(DIALECT === 'postgres')(
    'PostgreSQL: a write that waits for an endpoint being created sees it, and the endpoint gets its event',
    async () => {
      const b = await newBusiness(t);
      await newClient(b, 'Before');
      const path = uniquePath('hook');
      const secret = newSecret();
      let createdId = 0;
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      // the creation of an endpoint as webhook.service does it: LOCK TABLE event IN SHARE MODE, read the highest
      // event id, insert — held open while a write of the business arrives
      const creation = t.testDb.db.transaction().execute(async (trx) => {
        const afterEventId = await maxEventId(trx, 10_000);
        const now = new Date().toISOString();
        const row = await trx
          .insertInto('webhook_endpoint')
          .values({
            business_id: b.businessId,
            url: `${base}${path}`,
            event_types: '["*"]',
            description: null,
            is_active: 1,
            format: 'standard',
            secret: encryptSecret(t.masterKey, secret),
            previous_secret: null,
            previous_secret_expires_at: null,
            last_success_at: null,
            failing_since: null,
            after_event_id: afterEventId,
            created: now,
            updated: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        createdId = Number(row.id);
        locked();
        await released;
      });
      await isLocked;
      const write = post(b, '/v1/client', { companyName: 'While creating' });
      // the write waits for the creation's lock (it cannot have committed meanwhile)
      await new Promise((resolve) => setTimeout(resolve, 300));
      release();
      await creation;
      const answer = await write;
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      const event = await t.testDb.db
        .selectFrom('event')
        .select(['id', 'published_at'])
        .where('business_id', '=', b.businessId)
        .where('type', '=', 'client.created')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      // committed after the endpoint was: the write saw it and wrote its delivery itself
      // (docs/webhooks.md#deliveries-written-by-the-write), which the dispatcher sends
      expect(event.published_at).not.toBeNull();
      expect((await deliveriesOf(createdId)).map((d) => Number(d.event_id))).toEqual([Number(event.id)]);
      await drain(dispatcher([b.businessId]));
      expect(receivedAt(path).map((r) => JSON.parse(r.body).data.companyName)).toEqual(['While creating']);
      expect((await deliveriesOf(createdId)).map((d) => Number(d.event_id))).toEqual([Number(event.id)]);
    },
  );

  it.runIf(DIALECT === 'postgres')(
    'PostgreSQL: a write whose endpoint is being deleted waits for the delete and answers 201 without a delivery for it (no 500)',
    async () => {
      const b = await newBusiness(t);
      const doomed = await newEndpoint(b);
      const kept = await newEndpoint(b);
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let deleted!: () => void;
      const isDeleted = new Promise<void>((resolve) => (deleted = resolve));
      // the endpoint's DELETE, held open while a write of the business arrives
      const deletion = t.testDb.db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('webhook_endpoint')
          .where('business_id', '=', b.businessId)
          .where('id', '=', doomed.id)
          .execute();
        deleted();
        await released;
      });
      await isDeleted;
      const write = post(b, '/v1/client', { companyName: 'While deleting' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      release();
      await deletion;
      const answer = await write;
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      // the write wrote the kept endpoint's delivery and none for the deleted one
      expect(await deliveriesOf(doomed.id)).toEqual([]);
      expect(await deliveriesOf(kept.id)).toHaveLength(1);
      await drain(dispatcher([b.businessId]));
      expect(receivedAt(kept.path).map((r) => JSON.parse(r.body).data.companyName)).toEqual(['While deleting']);
      expect(receivedAt(doomed.path)).toEqual([]);
    },
  );

  it("the deliveries a write writes itself exist when it answers; nothing is lost or doubled around an endpoint created, deleted or parked, nor past the write's limit of endpoints", async () => {
    const b = await newBusiness(t);
    /** Creates an endpoint through the API; returns its id and receiver path. */
    const create = async (): Promise<{ id: number; path: string }> => {
      const path = uniquePath('at-write');
      const res = await post(b, '/v1/webhook', { url: `${base}${path}`, eventTypes: ['*'] });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return { id: res.body.id, path };
    };
    /** The event ids of an endpoint's delivery log (through the API), oldest first. */
    const logged = async (id: number): Promise<number[]> =>
      (await get(b, `/v1/webhook/${id}/delivery?page_size=100`)).body.results
        .map((d: { event: { id: number } }) => d.event.id)
        .reverse();
    const eventOf = async (name: string): Promise<number> => {
      const e = await t.testDb.db
        .selectFrom('event')
        .select('id')
        .where('business_id', '=', b.businessId)
        .where('type', '=', 'client.created')
        .where('data', 'like', `%"${name}"%`)
        .executeTakeFirstOrThrow();
      return e.id;
    };
    const a = await create();
    const deleted = await create();
    await newClient(b, 'One');
    const one = await eventOf('One');
    // no dispatcher has run: the write wrote both deliveries
    expect(await logged(a.id)).toEqual([one]);
    expect(await logged(deleted.id)).toEqual([one]);
    // an endpoint created after a write gets none of it, and every write after it
    const c = await create();
    await newClient(b, 'Two');
    const two = await eventOf('Two');
    expect(await logged(c.id)).toEqual([two]);
    expect(await logged(a.id)).toEqual([one, two]);
    // a deleted endpoint's deliveries go with it; the writes after it write none for it
    expect((await del(b, `/v1/webhook/${deleted.id}`)).status).toBe(204);
    await newClient(b, 'Three');
    const three = await eventOf('Three');
    expect(await logged(a.id)).toEqual([one, two, three]);
    // a parked endpoint is owed the events written meanwhile (no delivery), the others get theirs
    await t.testDb.db
      .updateTable('webhook_endpoint')
      .set({ parked_after_event_id: three, sick_streak: 3 })
      .where('id', '=', a.id)
      .execute();
    await newClient(b, 'Four');
    const four = await eventOf('Four');
    expect(await logged(a.id)).toEqual([one, two, three]);
    expect(await logged(c.id)).toEqual([two, three, four]);
    // past WRITE_DELIVERIES_MAX_ENDPOINTS endpoints not parked, the write leaves its event to the fan-out
    const more = [];
    for (let i = 0; i < WRITE_DELIVERIES_MAX_ENDPOINTS; i++) more.push(await create());
    await newClient(b, 'Five');
    const five = await eventOf('Five');
    const row = await t.testDb.db
      .selectFrom('event')
      .select('published_at')
      .where('business_id', '=', b.businessId)
      .where('id', '=', five)
      .executeTakeFirstOrThrow();
    expect(row.published_at).toBeNull();
    expect(await logged(c.id)).toEqual([two, three, four]);
    // the parked endpoint answers again; everything arrives once
    await t.testDb.db.updateTable('webhook_endpoint').set({ sick_streak: 0 }).where('id', '=', a.id).execute();
    await drain(dispatcher([b.businessId]));
    const got = (path: string) =>
      receivedAt(path)
        .map((r) => Number(r.headers['webhook-id']))
        .sort((x, y) => x - y);
    expect(got(a.path)).toEqual([one, two, three, four, five]);
    expect(got(deleted.path)).toEqual([]);
    expect(got(c.path)).toEqual([two, three, four, five]);
    for (const m of more) expect(got(m.path)).toEqual([five]);
    expect((await endpointRow(a.id)).parked_after_event_id).toBeNull();
  });

  it('an inactive endpoint gets nothing; webhook.test events are never fanned out', async () => {
    const b = await newBusiness(t);
    const inactive = await newEndpoint(b, { isActive: false });
    const active = await newEndpoint(b);
    await t.testDb.db
      .transaction()
      .execute((trx) =>
        record(trx, b.businessId, { type: 'webhook.test', changedFields: [], data: { id: active.id } }),
      );
    await newClient(b);
    // the ping is published by its write on both databases (it wants no fan-out: the ping writes its one
    // delivery itself); the client's event by its write, with its delivery (docs/webhooks.md#deliveries-written-by-the-write)
    expect(await drain(dispatcher([b.businessId]))).toMatchObject({ published: 0, claimed: 1 });
    expect(receivedAt(inactive.path)).toEqual([]);
    expect(receivedAt(active.path).map((r) => JSON.parse(r.body).type)).toEqual(['client.created']);
    const unpublished = await t.testDb.db
      .selectFrom('event')
      .select('id')
      .where('business_id', '=', b.businessId)
      .where('published_at', 'is', null)
      .execute();
    expect(unpublished).toEqual([]);
  });

  it('counts attempts in the metrics', async () => {
    const b = await newBusiness(t);
    const hook = await newEndpoint(b);
    behaviour.set(hook.path, [500, 204]);
    const value = async (outcome: string) => {
      const text = (await raw(undefined, { method: 'GET', url: '/metrics' })).body;
      const m = new RegExp(`^bizapi_webhook_deliveries_total\\{outcome="${outcome}"\\} (\\d+)$`, 'm').exec(text);
      return Number(m?.[1] ?? NaN);
    };
    const before = { succeeded: await value('succeeded'), retried: await value('retried') };
    await newClient(b);
    const clock = testClock();
    const d = dispatcher([b.businessId], { now: clock.now });
    await drain(d);
    clock.advance(5000);
    await drain(d);
    expect(await value('retried')).toBe(before.retried + 1);
    expect(await value('succeeded')).toBe(before.succeeded + 1);
    const text = (await raw(undefined, { method: 'GET', url: '/metrics' })).body;
    expect(text).toMatch(/^bizapi_webhook_delivery_duration_seconds_count \d+$/m);
  });

  it('deletes deliveries older than 30 days', async () => {
    const b = await newBusiness(t);
    const hook = await newEndpoint(b);
    await newClient(b);
    await newClient(b, 'Second');
    await drain(dispatcher([b.businessId]));
    const [old] = await deliveriesOf(hook.id);
    await t.testDb.db
      .updateTable('webhook_delivery')
      .set({ created: new Date(Date.now() - 31 * 86_400_000).toISOString() })
      .where('id', '=', old!.id)
      .execute();
    expect(await purgeDeliveries(t.testDb.db)).toBeGreaterThanOrEqual(1);
    expect((await deliveriesOf(hook.id)).map((r) => r.id)).not.toContain(old!.id);
    expect(await deliveriesOf(hook.id)).toHaveLength(1);
  });

  it('backs off and keeps running while the database fails, and stops cleanly', async () => {
    // a database without the schema: every poll fails
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-webhook-'));
    const broken = createDb(
      loadConfig({
        DATABASE_URL: `sqlite:${path.join(dir, 'empty.db')}`,
        BIZAPI_MASTER_KEY: '0f'.repeat(32),
        BIZAPI_DATA_DIR: dir,
      }).database,
    );
    const errors: object[] = [];
    const d = createWebhookDispatcher({
      db: broken,
      masterKey: t.masterKey,
      config: { dispatcher: { ...t.config.dispatcher, pollIntervalMs: 20 }, webhookAllowPrivate: true },
      businessIds: [0],
      log: { info: () => undefined, warn: () => undefined, error: (obj) => errors.push(obj) },
    });
    d.start();
    await until(() => errors.length >= 3, 5000);
    // 20 ms, then 20, 40, 80 … between polls: a few errors, not hundreds
    await new Promise((r) => setTimeout(r, 300));
    expect(errors.length).toBeLessThan(10);
    expect(errors[0]).toMatchObject({ failedPolls: 1, retryInMs: 20 });
    expect(errors[2]).toMatchObject({ failedPolls: 3, retryInMs: 80 });
    await d.stop();
    await broken.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
