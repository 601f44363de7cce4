/**
 * `bizapi.events.follow` (sdk/README.md#following-the-event-feed) against a real `bizapi serve` process on the
 * test database (SQLite, or the PostgreSQL of `DATABASE_URL`): the long-poll `GET /v1/event?after_sequence=N&wait=S`
 * followed while the server is killed (SIGKILL) and started again on the same port, then stopped gracefully
 * (SIGTERM: the held request is answered empty) and started again, with writes before, during and after each
 * outage (through another app on the same database): the consumer gets every event of the business exactly
 * once, in the feed's order, and the loop ends cleanly when its signal aborts, also during a held request.
 * A follower beyond the server's limit of followers per business gets 429 with `Retry-After` and is served
 * once a place is free.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient } from '../../test/setup/api-client.ts';
import { buildTestApp, type TestApp } from '../../test/setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../test/setup/factories.ts';
import { type BizapiProcess, startServer } from '../../test/setup/server-process.ts';
import { createBizapi, type FeedEvent } from '../src/index.ts';
import { until } from '../../test/setup/helpers.ts';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

let t: TestApp;
const { get, post, patch } = apiClient(() => t.app);
let dataDir: string;
let server: BizapiProcess | undefined;
let port: number;

beforeAll(async () => {
  t = await buildTestApp();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-sdk-follow-'));
});
afterAll(async () => {
  await server?.stop();
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Starts `bizapi serve` on the test database, on `port` when given (the same address after a restart). */
async function start(env: Record<string, string> = {}, on?: number): Promise<BizapiProcess> {
  const p = await startServer({
    databaseUrl: t.testDb.url,
    dataDir,
    env: { ...env, ...(on === undefined ? {} : { PORT: String(on) }) },
  });
  port = p.port;
  return p;
}

function sdk(b: TestBusiness) {
  return createBizapi({
    baseUrl: `http://127.0.0.1:${port}`,
    apiKey: b.apiKey,
    secretKey: b.secretKey,
    retry: { baseDelayMs: 50, maxDelayMs: 400 },
  });
}

async function writeClients(b: TestBusiness, prefix: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) expect((await post(b, '/v1/client', { companyName: `${prefix}-${i}` })).status).toBe(201);
}

/** Every event of `b` after 0, oldest first, read page by page (through the test app). */
async function feed(b: TestBusiness): Promise<FeedEvent[]> {
  const all: FeedEvent[] = [];
  let after = 0;
  for (;;) {
    const res = await get(b, `/v1/event?after_sequence=${after}&page_size=100`);
    expect(res.status).toBe(200);
    all.push(...res.body.results);
    if (res.body.results.length < 100) return all;
    after = all.at(-1)!.sequence;
  }
}

describe('events.follow against a real server', () => {
  it('gets every event exactly once, in order, across a killed and a stopped server; ends on abort', async () => {
    server = await start();
    const b = await newBusiness(t, { catalog: null });
    await writeClients(b, 'before', 5);
    const got: FeedEvent[] = [];
    const abort = new AbortController();
    const following = (async () => {
      for await (const event of sdk(b).events.follow({ afterSequence: 0, wait: 5, signal: abort.signal }))
        got.push(event);
    })();
    await until(() => got.length === 5);

    // live: each write reaches the held request
    await writeClients(b, 'live', 5);
    await until(() => got.length === 10);

    // killed while a request is held; writes while it is down; started again on the same port
    await new Promise((r) => setTimeout(r, 200));
    await server.stop('SIGKILL');
    await writeClients(b, 'down', 5);
    await new Promise((r) => setTimeout(r, 500));
    server = await start({}, port);
    await until(() => got.length === 15);
    await writeClients(b, 'after-kill', 5);
    await until(() => got.length === 20);

    // stopped gracefully (the held request is answered empty); started again
    await server.stop('SIGTERM');
    await writeClients(b, 'stopped', 5);
    server = await start({}, port);
    await writeClients(b, 'after-stop', 5);
    await until(() => got.length === 30);

    // aborted during a held request (wait 5 s): the loop ends at once, without an error
    await new Promise((r) => setTimeout(r, 300));
    const abortedAt = Date.now();
    abort.abort();
    await following;
    expect(Date.now() - abortedAt).toBeLessThan(2000);

    const events = await feed(b);
    expect(events).toHaveLength(30);
    // exactly once each, in the feed's order (sequence strictly increasing), the same events
    expect(got.map((e) => e.id)).toEqual(events.map((e) => e.id));
    expect(got.map((e) => e.sequence)).toEqual(events.map((e) => e.sequence));
    expect(got.map((e) => (e.data as { companyName?: string }).companyName)).toEqual(
      events.map((e) => (e.data as { companyName?: string }).companyName),
    );
  });

  it('filters by type and starts after `afterSequence`', async () => {
    const b = await newBusiness(t, { catalog: null });
    await writeClients(b, 'old', 2);
    const start = (await feed(b)).at(-1)!.sequence;
    const created = await post(b, '/v1/client', { companyName: 'to change' });
    await post(b, '/v1/inquiry', {});
    const abort = new AbortController();
    const got: FeedEvent[] = [];
    const following = (async () => {
      for await (const e of sdk(b).events.follow({
        afterSequence: start,
        types: ['client.*'],
        wait: 2,
        signal: abort.signal,
      })) {
        got.push(e);
        if (got.length === 2) abort.abort();
      }
    })();
    await until(() => got.length >= 1);
    await patch(b, `/v1/client/${created.body.id}`, { email: 'x@example.com' });
    await following;
    expect(got.map((e) => e.type)).toEqual(['client.created', 'client.updated']);
  });

  it('a 4xx other than 429 ends the loop with a typed error', async () => {
    const b = await newBusiness(t, { catalog: null });
    const iterate = async () => {
      for await (const _ of sdk(b).events.follow({ afterSequence: 0, types: ['nothing.*'], wait: 1 })) void _;
    };
    await expect(iterate()).rejects.toMatchObject({ status: 400 });
  });
});

describe('events.follow beyond the followers limit', () => {
  it('is answered 429 with Retry-After, waits, and is served once a place is free', async () => {
    await server?.stop();
    server = await start({ BIZAPI_EVENT_FOLLOWERS_MAX_PER_BUSINESS: '1' });
    const b = await newBusiness(t, { catalog: null });
    const first = new AbortController();
    const firstGot: FeedEvent[] = [];
    const one = (async () => {
      for await (const e of sdk(b).events.follow({ afterSequence: 0, wait: 30, signal: first.signal }))
        firstGot.push(e);
    })();
    await new Promise((r) => setTimeout(r, 500));
    const second = new AbortController();
    const secondGot: FeedEvent[] = [];
    const requests: number[] = [];
    const counting = createBizapi({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: b.apiKey,
      secretKey: b.secretKey,
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        requests.push(res.status);
        return res;
      },
    });
    const two = (async () => {
      for await (const e of counting.events.follow({ afterSequence: 0, wait: 30, signal: second.signal }))
        secondGot.push(e);
    })();
    await until(() => requests.includes(429));
    first.abort();
    await one;
    await writeClients(b, 'limit', 1);
    await until(() => secondGot.length === 1);
    second.abort();
    await two;
    expect(firstGot).toEqual([]);
    expect(secondGot.map((e) => e.type)).toEqual(['client.created']);
  });
});
