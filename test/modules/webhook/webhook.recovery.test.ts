/**
 * Webhook recovery (docs/webhooks.md#recovery) on the dialect under test, through HTTP, to a real receiver
 * (node:http on 127.0.0.1) and a real dispatcher:
 * - `POST /v1/webhook/{webhook_id}/recover {since}` queues again exactly the endpoint's deliveries since
 *   `since` that failed (ended `failed`, or waiting for a retry): not the succeeded ones, not older ones, not
 *   another endpoint's; the receiver then gets exactly those;
 * - `POST /v1/webhook/{webhook_id}/replay {after_sequence, types?, limit?}` sends exactly the events after N
 *   the endpoint would have received (its types, narrowed by `types`), never one from before the endpoint,
 *   never another business's, with their own id and sequence; `limit` and `next_after_sequence`;
 * - 5 a minute per endpoint and operation (429 with `Retry-After`, nothing written), idempotency keys, the
 *   call log, the event feed untouched; bad inputs answer 400 in DRF's shape, 404 for another business's.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookDispatcher, type WebhookDispatcher } from '../../../src/jobs/webhook-dispatcher.ts';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { apiClient } from '../../setup/api-client.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { DIALECT } from '../../setup/test-db.ts';
import { logOf } from '../log/log-helpers.ts';

let t: TestApp;
const { get, post, patch, delete: del, call } = apiClient(() => t.app);

/** One request the receiver got: its path, `webhook-id` and parsed body. */
interface Receipt {
  path: string;
  webhookId: string;
  body: { id: number; sequence: number; type: string };
}

let server: http.Server;
let base: string;
const receipts: Receipt[] = [];
/** The status each path answers (default 204). */
const answers = new Map<string, number>();

beforeAll(async () => {
  t = await buildTestApp({ BIZAPI_WEBHOOK_ALLOW_PRIVATE: 'true' });
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      receipts.push({
        path,
        webhookId: String(req.headers['webhook-id']),
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      });
      res.writeHead(answers.get(path) ?? 204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await t.close();
});

/** A clock the dispatcher runs on, ahead of the real one (a write's deliveries are due at its real time). */
function testClock(start = Date.now() + 60_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

function dispatcher(businessIds: number[], now: () => number): WebhookDispatcher {
  return createWebhookDispatcher({
    db: t.testDb.db,
    masterKey: t.masterKey,
    config: { dispatcher: t.config.dispatcher, webhookAllowPrivate: true },
    businessIds,
    now,
    timeoutMs: 10_000,
  });
}

/** Polls until nothing is left to publish or claim. */
async function drain(d: WebhookDispatcher): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const r = await d.runOnce();
    if (r.published === 0 && r.resumed === 0 && r.claimed === 0) return;
  }
  throw new Error('the dispatcher never ran dry');
}

let pathSeq = 0;
/** An endpoint created through the API on a path of the receiver no other test uses. */
async function newEndpoint(b: TestBusiness, eventTypes: string[], answer = 204): Promise<{ id: number; path: string }> {
  const path = `/recovery-${++pathSeq}`;
  answers.set(path, answer);
  const res = await post(b, '/v1/webhook', { url: `${base}${path}`, eventTypes });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id, path };
}

async function newClient(b: TestBusiness, companyName: string): Promise<number> {
  const res = await post(b, '/v1/client', { companyName });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

/** The ids (as `webhook-id`) the receiver got on `path` from receipt `from` on, sorted. */
function idsAt(path: string, from = 0): string[] {
  return receipts
    .slice(from)
    .filter((r) => r.path === path)
    .map((r) => r.webhookId)
    .sort((a, b) => Number(a) - Number(b));
}

async function deliveriesOf(webhookId: number) {
  return t.testDb.db
    .selectFrom('webhook_delivery')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .orderBy('event_id')
    .execute();
}

/** The business's events oldest first, from the feed. */
async function feed(b: TestBusiness): Promise<{ id: number; sequence: number; type: string; data: { id: number } }[]> {
  const res = await get(b, '/v1/event?after_sequence=0&page_size=100');
  expect(res.status).toBe(200);
  return res.body.results;
}

/** Runs attempts on the clock until the endpoint has no pending delivery (each retry delay passed in turn). */
async function failThrough(
  d: WebhookDispatcher,
  clock: ReturnType<typeof testClock>,
  webhookIds: number[],
): Promise<void> {
  for (let round = 0; round < 12; round++) {
    await drain(d);
    const pending = (await Promise.all(webhookIds.map(deliveriesOf))).flat().filter((r) => r.status === 'pending');
    if (pending.length === 0) return;
    clock.advance(11 * 3_600_000);
  }
  throw new Error('deliveries still pending after every retry');
}

describe(`webhook recover on ${DIALECT}`, () => {
  it('queues again exactly the failed deliveries of the endpoint since `since`; the receiver gets exactly those', async () => {
    const b = await newBusiness(t);
    const failing = await newEndpoint(b, ['client.created'], 500);
    const healthy = await newEndpoint(b, ['client.created']);
    const elsewhere = await newEndpoint(b, ['client.created'], 500);
    // each phase on a clock of its own, so that the failures of all of them do not add up to the 5 days that disable an endpoint
    let clock = testClock();
    let d = dispatcher([b.businessId], clock.now);

    // an old failure: before `since`
    await newClient(b, 'Old');
    await failThrough(d, clock, [failing.id, elsewhere.id]);
    clock = testClock();
    d = dispatcher([b.businessId], clock.now);
    await t.testDb.db
      .updateTable('webhook_delivery')
      .set({ created: new Date(Date.now() - 2 * 3_600_000).toISOString() })
      .where('business_id', '=', b.businessId)
      .execute();
    const since = new Date(Date.now() - 3_600_000).toISOString();

    // two failures since, ended `failed` after every retry
    await newClient(b, 'New 1');
    await newClient(b, 'New 2');
    await failThrough(d, clock, [failing.id, elsewhere.id]);
    // and one still retrying (one failed attempt, the next one hours away)
    await newClient(b, 'New 3');
    await drain(d);
    const before = await deliveriesOf(failing.id);
    expect(before.map((r) => r.status)).toEqual(['failed', 'failed', 'failed', 'pending']);
    expect(before[3]!.attempts).toBe(1);
    expect((await deliveriesOf(healthy.id)).map((r) => r.status)).toEqual([
      'succeeded',
      'succeeded',
      'succeeded',
      'succeeded',
    ]);
    const events = (await feed(b)).filter((e) => e.type === 'client.created');
    const feedBefore = await feed(b);

    answers.set(failing.path, 204);
    const from = receipts.length;
    const res = await post(b, `/v1/webhook/${failing.id}/recover`, { since: since.replace('Z', '+00:00') });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toEqual({ count: 3, since });
    const after = await deliveriesOf(failing.id);
    expect(after.map((r) => r.status)).toEqual(['failed', 'pending', 'pending', 'pending']);
    // kept: the attempt counts (a manual redelivery's rule) and the other endpoints' deliveries
    expect(after.map((r) => r.attempts)).toEqual(before.map((r) => r.attempts));
    expect((await deliveriesOf(elsewhere.id)).map((r) => r.status)).toEqual(['failed', 'failed', 'failed', 'pending']);

    await drain(d);
    expect(idsAt(failing.path, from)).toEqual(events.slice(1).map((e) => String(e.id)));
    expect(idsAt(healthy.path, from)).toEqual([]);
    expect(idsAt(elsewhere.path, from)).toEqual([]);
    expect((await deliveriesOf(failing.id)).map((r) => r.status)).toEqual([
      'failed',
      'succeeded',
      'succeeded',
      'succeeded',
    ]);
    // the feed is untouched: a recovery writes no event
    expect(await feed(b)).toEqual(feedBefore);

    // nothing failed since: 0
    const again = await post(b, `/v1/webhook/${failing.id}/recover`, { since });
    expect(again.body).toEqual({ count: 0, since });
  });

  it('answers 400 in DRF’s shape for a missing, invalid, future or too old `since`, and 404 for an unknown or another business’s endpoint', async () => {
    const b = await newBusiness(t);
    const other = await newBusiness(t);
    const endpoint = await newEndpoint(b, ['*']);
    const foreign = await newEndpoint(other, ['*']);
    const url = `/v1/webhook/${endpoint.id}/recover`;
    const cases: [unknown, Record<string, unknown>][] = [
      [{}, { since: ['This field is required.'] }],
      [{ since: 'yesterday' }, { since: [expect.stringContaining('Datetime has wrong format.')] }],
      [{ since: 7 }, { since: [expect.any(String)] }],
      [
        { since: new Date(Date.now() + 3_600_000).toISOString() },
        { since: ['Ensure this value is not in the future.'] },
      ],
      [
        { since: new Date(Date.now() - 31 * 86_400_000).toISOString() },
        { since: [expect.stringContaining('within the last 30 days')] },
      ],
    ];
    for (const [body, error] of cases) {
      const res = await post(b, url, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual({ ...error, requestId: expect.any(String) });
    }
    const since = new Date(Date.now() - 60_000).toISOString();
    expect((await post(b, `/v1/webhook/${foreign.id}/recover`, { since })).status).toBe(404);
    expect((await post(b, `/v1/webhook/${foreign.id}/recover`, {})).status).toBe(404);
    expect((await post(b, '/v1/webhook/999999999/recover', { since })).status).toBe(404);
    expect((await post(other, url, { since })).body).toMatchObject({ detail: 'Not found.' });
    // a disabled endpoint: 400 webhook_inactive
    expect((await patch(b, `/v1/webhook/${endpoint.id}`, { isActive: false })).status).toBe(200);
    const inactive = await post(b, url, { since });
    expect(inactive.status).toBe(400);
    expect(inactive.body).toEqual({
      nonField: [expect.stringContaining('disabled')],
      code: 'webhook_inactive',
      requestId: expect.any(String),
    });
    expect((await patch(b, `/v1/webhook/${endpoint.id}`, { isActive: true })).status).toBe(200);
    // none of the refused requests counted towards the limit: 5 pass, the sixth is throttled
    for (let i = 0; i < 5; i++) expect((await post(b, url, { since })).status).toBe(202);
    expect((await post(b, url, { since })).status).toBe(429);
  });
});

describe(`webhook replay on ${DIALECT}`, () => {
  it('sends exactly the events after N the endpoint would have received: none before it, none of another business', async () => {
    const b = await newBusiness(t);
    const other = await newBusiness(t);
    await newClient(b, 'Before the endpoint');
    const endpoint = await newEndpoint(b, ['client.created', 'client.updated']);
    const everything = await newEndpoint(b, ['*']);
    const otherEndpoint = await newEndpoint(other, ['*']);
    const one = await newClient(b, 'One');
    await newClient(b, 'Two');
    expect((await patch(b, `/v1/client/${one}`, { email: 'one@example.com' })).status).toBe(200);
    expect((await del(b, `/v1/client/${one}`)).status).toBe(204);
    await newClient(other, 'Other business');
    const d = dispatcher([b.businessId, other.businessId], testClock().now);
    await drain(d);
    const events = await feed(b);
    expect(events.map((e) => e.type)).toEqual([
      'client.created',
      'client.created',
      'client.created',
      'client.updated',
      'client.deleted',
    ]);
    // what the endpoint receives: its types, after its creation
    const wanted = events.filter(
      (e) => e.id > events[0]!.id && (e.type === 'client.created' || e.type === 'client.updated'),
    );
    expect(idsAt(endpoint.path)).toEqual(wanted.map((e) => String(e.id)));
    const feedBefore = await feed(b);

    // after the first of them: the rest, each with its own id and sequence
    let from = receipts.length;
    const res = await post(b, `/v1/webhook/${endpoint.id}/replay`, { after_sequence: wanted[0]!.sequence });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toEqual({ count: wanted.length - 1, next_after_sequence: null });
    await drain(d);
    expect(idsAt(endpoint.path, from)).toEqual(wanted.slice(1).map((e) => String(e.id)));
    for (const r of receipts.slice(from)) {
      const event = events.find((e) => String(e.id) === r.webhookId)!;
      expect(r.body).toMatchObject({ id: event.id, sequence: event.sequence, type: event.type });
    }
    expect(idsAt(everything.path, from)).toEqual([]);
    expect(idsAt(otherEndpoint.path, from)).toEqual([]);

    // from 0: everything since the endpoint's creation, never the event before it nor another business's
    from = receipts.length;
    expect((await post(b, `/v1/webhook/${endpoint.id}/replay`, { after_sequence: 0 })).body).toEqual({
      count: wanted.length,
      next_after_sequence: null,
    });
    await drain(d);
    expect(idsAt(endpoint.path, from)).toEqual(wanted.map((e) => String(e.id)));

    // `types` narrows
    from = receipts.length;
    const updates = wanted.filter((e) => e.type === 'client.updated');
    expect(
      (await post(b, `/v1/webhook/${endpoint.id}/replay`, { after_sequence: 0, types: ['client.updated'] })).body,
    ).toEqual({
      count: updates.length,
      next_after_sequence: null,
    });
    await drain(d);
    expect(idsAt(endpoint.path, from)).toEqual(updates.map((e) => String(e.id)));

    // `limit`: the first two, then on from next_after_sequence
    from = receipts.length;
    const first = await post(b, `/v1/webhook/${everything.id}/replay`, { after_sequence: 0, limit: 2 });
    const afterEndpoint = events.filter((e) => e.id > events[0]!.id);
    expect(first.body).toEqual({ count: 2, next_after_sequence: afterEndpoint[1]!.sequence });
    const rest = await post(b, `/v1/webhook/${everything.id}/replay`, {
      after_sequence: first.body.next_after_sequence,
    });
    expect(rest.body).toEqual({ count: afterEndpoint.length - 2, next_after_sequence: null });
    await drain(d);
    expect(idsAt(everything.path, from)).toEqual(afterEndpoint.map((e) => String(e.id)));
    expect(idsAt(otherEndpoint.path, from)).toEqual([]);
    // still one delivery per event and endpoint, all succeeded; the feed untouched
    const rows = await deliveriesOf(endpoint.id);
    expect(rows.map((r) => r.event_id)).toEqual(wanted.map((e) => e.id));
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(['succeeded']));
    expect(await feed(b)).toEqual(feedBefore);
  });

  it('is limited to 5 a minute per endpoint and operation: 429 with Retry-After, nothing written', async () => {
    const b = await newBusiness(t);
    const endpoint = await newEndpoint(b, ['*']);
    const second = await newEndpoint(b, ['*']);
    await newClient(b, 'One');
    await drain(dispatcher([b.businessId], testClock().now));
    const url = `/v1/webhook/${endpoint.id}/replay`;
    for (let i = 0; i < 5; i++) {
      expect((await post(b, url, { after_sequence: 0 })).body).toEqual({ count: 1, next_after_sequence: null });
      await drain(dispatcher([b.businessId], testClock().now));
    }
    const throttled = await post(b, url, { after_sequence: 0 });
    expect(throttled.status).toBe(429);
    const wait = Number(throttled.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(throttled.body).toMatchObject({ detail: `Request was throttled. Expected available in ${wait} seconds.` });
    // nothing queued by the refused one
    expect((await deliveriesOf(endpoint.id)).map((r) => r.status)).toEqual(['succeeded']);
    // another endpoint, and the other operation, are counted apart
    expect((await post(b, `/v1/webhook/${second.id}/replay`, { after_sequence: 0 })).status).toBe(202);
    expect(
      (await post(b, `/v1/webhook/${endpoint.id}/recover`, { since: new Date(Date.now() - 60_000).toISOString() }))
        .status,
    ).toBe(202);
  });

  it('answers 400 for bad input and a disabled endpoint, 404 for another business’s; an idempotency key replays the answer; the call log records it', async () => {
    const b = await newBusiness(t);
    const other = await newBusiness(t);
    const endpoint = await newEndpoint(b, ['client.created']);
    const pluuug = await post(b, '/v1/webhook', {
      url: `${base}/recovery-pluuug`,
      eventTypes: ['*'],
      format: 'pluuug',
    });
    const foreign = await newEndpoint(other, ['*']);
    const url = `/v1/webhook/${endpoint.id}/replay`;
    const cases: [string, unknown, Record<string, unknown>][] = [
      [url, {}, { after_sequence: ['This field is required.'] }],
      [url, { after_sequence: -1 }, { after_sequence: [expect.any(String)] }],
      [url, { after_sequence: 'x' }, { after_sequence: [expect.any(String)] }],
      [url, { after_sequence: 0, types: [] }, { types: [expect.any(String)] }],
      [
        url,
        { after_sequence: 0, types: ['*', 'client.created'] },
        { types: [expect.stringContaining('must be alone')] },
      ],
      [url, { after_sequence: 0, types: ['no.such'] }, { types: [expect.any(String)] }],
      [
        url,
        { after_sequence: 0, types: ['client.updated'] },
        { types: [expect.stringContaining('does not receive "client.updated"')] },
      ],
      [url, { after_sequence: 0, limit: 0 }, { limit: [expect.any(String)] }],
      [url, { after_sequence: 0, limit: 5001 }, { limit: [expect.any(String)] }],
      [
        `/v1/webhook/${pluuug.body.id}/replay`,
        { after_sequence: 0, types: ['client.created'] },
        { types: [expect.stringContaining('pluuug')] },
      ],
    ];
    for (const [path, body, error] of cases) {
      const res = await post(b, path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual({ ...error, requestId: expect.any(String) });
    }
    expect((await post(b, `/v1/webhook/${foreign.id}/replay`, { after_sequence: 0 })).status).toBe(404);
    expect((await post(b, `/v1/webhook/${foreign.id}/replay`, { after_sequence: -5 })).status).toBe(404);
    expect((await post(other, url, { after_sequence: 0 })).status).toBe(404);
    expect((await patch(b, `/v1/webhook/${endpoint.id}`, { isActive: false })).status).toBe(200);
    const inactive = await post(b, url, { after_sequence: 0 });
    expect(inactive.status).toBe(400);
    expect(inactive.body).toMatchObject({ code: 'webhook_inactive' });
    expect((await patch(b, `/v1/webhook/${endpoint.id}`, { isActive: true })).status).toBe(200);

    // an idempotency key: the second request runs nothing and answers the same bytes
    await newClient(b, 'One');
    const req = {
      method: 'POST',
      url,
      body: { after_sequence: 0 },
      headers: { 'idempotency-key': 'replay-1' },
    } as const;
    const firstAnswer = await call(b, req);
    expect(firstAnswer.status).toBe(202);
    expect(firstAnswer.body).toEqual({ count: 1, next_after_sequence: null });
    const again = await call(b, req);
    expect(again.status).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(firstAnswer.body);
    // the refused requests did not count, nor did the replayed answer: four more pass
    for (let i = 0; i < 4; i++) expect((await post(b, url, { after_sequence: 0 })).status).toBe(202);
    expect((await post(b, url, { after_sequence: 0 })).status).toBe(429);

    const log = await logOf(t, b);
    const replays = log.filter((e) => e.path === url && e.method === 'POST');
    expect(replays.map((e) => e.statusCode)).toContain('202');
    expect(replays.find((e) => e.statusCode === '202')!.requestBody).toEqual({ after_sequence: 0 });
    expect(replays.map((e) => e.statusCode)).toContain('429');
  });
});
