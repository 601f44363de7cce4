/**
 * Following the feed live (docs/api.md#following-the-feed-live), in one process through HTTP: type patterns
 * on the list (exact, prefix, `*`, repeated, bad → 400), the long-poll `wait` (answers at once, on a write,
 * empty at S, refused without `after_sequence` or out of range, filtered), the per-business limit (429), and
 * the call log's one row per long-poll. Real processes (shutdown, two processes, the stream) are in
 * test/ops/event-live-processes.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, expect400 } from '../../setup/api-client.ts';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ BIZAPI_EVENT_FOLLOWERS_MAX_PER_BUSINESS: '3', LOG_LEVEL: 'error' });
});
afterAll(() => t.close());

const { get, post, patch } = apiClient(() => t.app);

/** The highest sequence of the business's feed (0 for none). */
async function lastSequence(b: TestBusiness): Promise<number> {
  const res = await get(b, '/v1/event?page_size=1');
  expect(res.status).toBe(200);
  return res.body.results[0]?.sequence ?? 0;
}

async function newClient(b: TestBusiness, companyName = 'Acme'): Promise<number> {
  const res = await post(b, '/v1/client', { companyName });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

/** Resolves once the event loop has turned `n` times with time between (lets a long-poll register). */
const settle = (ms = 100) => new Promise((resolve) => setTimeout(resolve, ms));

describe('type patterns on GET /v1/event', () => {
  it('exact, prefix, repeated and * select the types they name, with after_sequence and pages', async () => {
    const b = await newBusiness(t);
    const client = await newClient(b);
    await patch(b, `/v1/client/${client}`, { companyName: 'Acme 2' });
    const inquiry = await post(b, '/v1/inquiry', { name: 'Q' });
    expect(inquiry.status).toBe(201);
    const note = await post(b, `/v1/inquiry/${inquiry.body.id}/text_history`, { content: 'n' });
    expect(note.status, JSON.stringify(note.body)).toBe(201);
    const types = async (q: string) =>
      ((await get(b, `/v1/event?after_sequence=0&page_size=100${q}`)).body.results as any[]).map((e) => e.type);
    expect(await types('&type=client.created')).toEqual(['client.created']);
    expect(await types('&type=client.*')).toEqual(['client.created', 'client.updated']);
    // a prefix takes every type that starts with it, the notes' included
    expect(await types('&type=inquiry.*')).toEqual(['inquiry.created', 'inquiry.text_history.created']);
    expect(await types('&type=inquiry.text_history.*')).toEqual(['inquiry.text_history.created']);
    expect(await types('&type=client.updated&type=inquiry.*')).toEqual([
      'client.updated',
      'inquiry.created',
      'inquiry.text_history.created',
    ]);
    expect(await types('&type=*')).toEqual(await types(''));
    expect(await types('&type=*&type=client.created')).toEqual(await types(''));
    // newest first too, and paged
    const page1 = await get(b, '/v1/event?page_size=1&type=client.*');
    expect(page1.body.results.map((e: any) => e.type)).toEqual(['client.updated']);
    const next = new URL(page1.body.next);
    expect((await get(b, next.pathname + next.search)).body.results.map((e: any) => e.type)).toEqual([
      'client.created',
    ]);
    const paged = await get(b, '/v1/event?after_sequence=0&page_size=1&type=inquiry.*');
    const second = new URL(paged.body.next);
    expect((await get(b, second.pathname + second.search)).body.results.map((e: any) => e.type)).toEqual([
      'inquiry.text_history.created',
    ]);
  });

  it('a malformed pattern or one that names no type is a 400 naming it', async () => {
    const b = await newBusiness(t);
    for (const bad of ['client.exploded', 'nothing.*', 'client*', '*.created', 'Client.created', 'client..*', '.*']) {
      const res = await get(b, `/v1/event?type=client.created&type=${encodeURIComponent(bad)}`);
      expect400(res, { type: [`"${bad}" is not a valid choice.`] });
    }
  });
});

describe('long-poll: GET /v1/event?after_sequence=N&wait=S', () => {
  it('answers at once when there are events after N', async () => {
    const b = await newBusiness(t);
    await newClient(b);
    const started = Date.now();
    const res = await get(b, '/v1/event?after_sequence=0&wait=30');
    expect(res.status).toBe(200);
    expect(res.body.results.map((e: any) => e.type)).toEqual(['client.created']);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('holds the request and answers with the first event written after N', async () => {
    const b = await newBusiness(t);
    const n = await lastSequence(b);
    let answered = false;
    const waiting = get(b, `/v1/event?after_sequence=${n}&wait=30`).then((res) => {
      answered = true;
      return res;
    });
    await settle();
    expect(answered).toBe(false);
    const id = await newClient(b, 'Woken');
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(1);
    expect(res.body.results[0]).toMatchObject({ type: 'client.created', data: { id } });
    expect(res.body.results[0].sequence).toBeGreaterThan(n);
  });

  it('filters: a write of another type leaves it waiting, one of a wanted type answers it', async () => {
    const b = await newBusiness(t);
    const n = await lastSequence(b);
    let answered = false;
    const waiting = get(b, `/v1/event?after_sequence=${n}&wait=30&type=inquiry.*`).then((res) => {
      answered = true;
      return res;
    });
    await settle();
    await newClient(b);
    await settle(300);
    expect(answered).toBe(false);
    const inquiry = await post(b, '/v1/inquiry', { name: 'Wanted' });
    const res = await waiting;
    expect(res.body.results.map((e: any) => [e.type, e.data.id])).toEqual([['inquiry.created', inquiry.body.id]]);
  });

  it('answers the empty page at S; wait=0 does not wait', async () => {
    const b = await newBusiness(t);
    const started = Date.now();
    const res = await get(b, '/v1/event?after_sequence=0&wait=0.3');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ next: null, previous: null, results: [] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    const now = await get(b, '/v1/event?after_sequence=0&wait=0');
    expect(now.body.results).toEqual([]);
  });

  it('another business’s write does not answer it', async () => {
    const b = await newBusiness(t);
    const other = await newBusiness(t);
    const res = get(b, '/v1/event?after_sequence=0&wait=0.5');
    await settle();
    await newClient(other);
    expect((await res).body.results).toEqual([]);
  });

  it('refuses wait without after_sequence, out of range or not a number (400), in the DRF shape', async () => {
    const b = await newBusiness(t);
    expect400(await get(b, '/v1/event?wait=5'), {
      wait: ['Only with after_sequence: the long-poll waits for the events after a sequence.'],
    });
    for (const bad of ['61', '-1', 'soon', '1e3']) {
      const res = await get(b, `/v1/event?after_sequence=0&wait=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(
        Object.keys(res.body).filter((k) => k !== 'requestId'),
        bad,
      ).toEqual(['wait']);
    }
    expect400(await get(b, '/v1/event?after_sequence=0&wait=0&type=client.nope'), {
      type: ['"client.nope" is not a valid choice.'],
    });
  });

  it('holds at most BIZAPI_EVENT_FOLLOWERS_MAX_PER_BUSINESS waiters of a business: beyond, 429 with Retry-After', async () => {
    const b = await newBusiness(t);
    const other = await newBusiness(t);
    const held = [0, 1, 2].map(() => get(b, '/v1/event?after_sequence=0&wait=2'));
    await settle(300);
    const refused = await get(b, '/v1/event?after_sequence=0&wait=2');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.body.detail).toBe('Request was throttled. Expected available in 5 seconds.');
    // another business is not limited by this one's
    const theirs = get(other, '/v1/event?after_sequence=0&wait=0.2');
    await newClient(b);
    for (const res of await Promise.all(held))
      expect(res.body.results.map((e: any) => e.type)).toEqual(['client.created']);
    expect((await theirs).status).toBe(200);
  });

  it('the call log records a long-poll once, when it answers', async () => {
    const b = await newBusiness(t);
    const waiting = get(b, '/v1/event?after_sequence=0&wait=30');
    await settle();
    await newClient(b);
    expect((await waiting).status).toBe(200);
    await t.app.logWriter.flush();
    const rows = await t.testDb.db
      .selectFrom('api_log')
      .select(['path', 'status_code'])
      .where('business_id', '=', b.businessId)
      .where('path', 'like', '/v1/event%')
      .execute();
    expect(rows).toEqual([{ path: '/v1/event?after_sequence=0&wait=30', status_code: '200' }]);
  });
});
