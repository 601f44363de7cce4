/**
 * The feed as Server-Sent Events (`GET /v1/event/stream`, docs/api.md#stream) over real HTTP (the app
 * listening on a port): the backlog then each event as it commits, `id:` the sequence, `event:` the type,
 * `data:` the standard JSON; where it starts (`after_sequence` over `Last-Event-ID`, else 0); type patterns;
 * the `: ping` heartbeat; authentication; one call log row when it ends; the per-business limit.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../setup/api-client.ts';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { openEventStream } from '../../setup/event-stream.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await buildTestApp({ BIZAPI_EVENT_STREAM_HEARTBEAT_MS: '200', BIZAPI_EVENT_FOLLOWERS_MAX_PER_BUSINESS: '2' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

const { get, post, patch, delete: del } = apiClient(() => t.app);

async function newClient(b: TestBusiness, companyName: string): Promise<number> {
  const res = await post(b, '/v1/client', { companyName });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

/** The business's events as the feed lists them, oldest first. */
async function feed(b: TestBusiness, query = ''): Promise<any[]> {
  const res = await get(b, `/v1/event?after_sequence=0&page_size=100${query}`);
  expect(res.status).toBe(200);
  return res.body.results;
}

describe('GET /v1/event/stream', () => {
  it('sends the backlog, then each event as it commits: id the sequence, event the type, data the standard JSON', async () => {
    const b = await newBusiness(t);
    const a = await newClient(b, 'A');
    const s = openEventStream(port, b, '/v1/event/stream');
    const res = await s.response;
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    await s.waitFor(1);
    await patch(b, `/v1/client/${a}`, { companyName: 'A2' });
    await newClient(b, 'B');
    const messages = await s.waitFor(3);
    const listed = await feed(b);
    expect(messages.map((m) => m.data)).toEqual(listed);
    expect(messages.map((m) => [m.id, m.event])).toEqual(listed.map((e) => [String(e.sequence), e.type]));
    // each event exactly as GET /v1/event/{event_id} answers it
    const one = await get(b, `/v1/event/${listed[1].id}`);
    expect(messages[1]!.data).toEqual(one.body);
    expect(s.comments[0]).toBe('stream open');
    s.close();
  });

  it('resumes after Last-Event-ID; after_sequence wins over it; a bad Last-Event-ID is a 400', async () => {
    const b = await newBusiness(t);
    for (const name of ['A', 'B', 'C']) await newClient(b, name);
    const [first, second, third] = await feed(b);
    const resumed = openEventStream(port, b, '/v1/event/stream', { 'last-event-id': String(first.sequence) });
    expect((await resumed.waitFor(2)).map((m) => m.data.id)).toEqual([second.id, third.id]);
    resumed.close();
    const overridden = openEventStream(port, b, `/v1/event/stream?after_sequence=${second.sequence}`, {
      'last-event-id': String(first.sequence),
    });
    expect((await overridden.waitFor(1)).map((m) => m.data.id)).toEqual([third.id]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(overridden.messages).toHaveLength(1);
    overridden.close();
    const bad = openEventStream(port, b, '/v1/event/stream', { 'last-event-id': 'yesterday' });
    expect((await bad.response).statusCode).toBe(400);
    await bad.ended;
    expect(JSON.parse(bad.text())).toMatchObject({ 'Last-Event-ID': ['A valid integer is required.'] });
  });

  it('keeps only the types asked for; a bad pattern is a 400', async () => {
    const b = await newBusiness(t);
    const s = openEventStream(port, b, '/v1/event/stream?type=inquiry.*&type=client.deleted');
    await s.response;
    const c = await newClient(b, 'A');
    await post(b, '/v1/inquiry', { name: 'Q' });
    expect((await del(b, `/v1/client/${c}`)).status).toBe(204);
    expect((await s.waitFor(2)).map((m) => m.event)).toEqual(['inquiry.created', 'client.deleted']);
    s.close();
    const bad = openEventStream(port, b, '/v1/event/stream?type=client*');
    expect((await bad.response).statusCode).toBe(400);
    await bad.ended;
    expect(JSON.parse(bad.text())).toMatchObject({ type: ['"client*" is not a valid choice.'] });
  });

  it('sends a : ping comment every BIZAPI_EVENT_STREAM_HEARTBEAT_MS', async () => {
    const b = await newBusiness(t);
    const s = openEventStream(port, b, '/v1/event/stream');
    await s.response;
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(s.comments.filter((c) => c === 'ping').length).toBeGreaterThanOrEqual(2);
    s.close();
  });

  it('is authenticated like any GET: no key 401, a wrong signature 403, another business’s events never', async () => {
    const b = await newBusiness(t);
    const none = openEventStream(port, undefined, '/v1/event/stream');
    expect((await none.response).statusCode).toBe(401);
    const forged = openEventStream(port, { ...b, secretKey: 'not-the-secret' }, '/v1/event/stream');
    expect((await forged.response).statusCode).toBe(403);
    const other = await newBusiness(t);
    const s = openEventStream(port, b, '/v1/event/stream');
    await s.response;
    await newClient(other, 'Theirs');
    const ours = await newClient(b, 'Ours');
    expect((await s.waitFor(1))[0]!.data.data.id).toBe(ours);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(s.messages).toHaveLength(1);
    s.close();
  });

  it('the call log records one row per stream, when it ends; a third stream of a business beyond the limit (2) is a 429', async () => {
    const b = await newBusiness(t);
    const s1 = openEventStream(port, b, '/v1/event/stream?after_sequence=0');
    const s2 = openEventStream(port, b, '/v1/event/stream');
    await Promise.all([s1.response, s2.response]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const s3 = openEventStream(port, b, '/v1/event/stream');
    const refused = await s3.response;
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('5');
    await s3.ended;
    await t.app.logWriter.flush();
    const rows = () =>
      t.testDb.db
        .selectFrom('api_log')
        .select(['path', 'status_code'])
        .where('business_id', '=', b.businessId)
        .where('path', 'like', '/v1/event/stream%')
        .orderBy('id')
        .execute();
    expect(await rows()).toEqual([{ path: '/v1/event/stream', status_code: '429' }]);
    s1.close();
    s2.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    await t.app.logWriter.flush();
    expect((await rows()).map((r) => r.status_code).sort()).toEqual(['200', '200', '429']);
  });
});
