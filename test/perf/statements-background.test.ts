/**
 * The statements a write causes after its answer (issue 38 item 1, docs/webhooks.md#fan-out): the work of the
 * webhook dispatcher that the write wakes, and the cross-process wake-up itself. A business without a webhook
 * endpoint costs no fan-out at all — its events are written published in the write's own transaction
 * (PostgreSQL: by the INSERT of the event itself, event.service `writeEvents`; SQLite: after the write's one
 * indexed read of endpoints) and wake no dispatcher — and at most one background statement per write on
 * average under load (the dispatcher's own poll, every `BIZAPI_DISPATCHER_POLL_MS`, numbers the events of
 * many writes at once on PostgreSQL). The feed still numbers every event (decisions §17: `GET /v1/event`
 * assigns what no poll has yet).
 *
 * Before this change (main at cbe8a61, PostgreSQL): 100 writes, 10 at a time, caused 160 background
 * statements in one run (a sequence assignment, a fan-out transaction and a `NOTIFY` per 50 ms of writes),
 * among them the fan-out's claim and `published_at` update; SQLite 42. After it: PostgreSQL 11–20 (a
 * dispatcher poll, the call log's flush transactions), SQLite 36.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookDispatcher, type WebhookDispatcher } from '../../src/jobs/webhook-dispatcher.ts';
import { apiClient } from '../setup/api-client.ts';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../setup/factories.ts';
import { countBackgroundStatements, countStatements } from '../setup/statement-count.ts';
import { DIALECT } from '../setup/test-db.ts';

const WRITES = 100;
const AT_ONCE = 10;

let t: TestApp;
let b: TestBusiness;
let d: WebhookDispatcher;

beforeAll(async () => {
  t = await buildTestApp();
  b = await newBusiness(t);
  // the dispatcher of the API process, as `bizapi serve` runs it (LISTEN included), restricted to this
  // business; its own poll is a minute apart, so what runs meanwhile is what the writes cause
  d = createWebhookDispatcher({
    db: t.testDb.db,
    masterKey: t.masterKey,
    config: {
      dispatcher: { ...t.config.dispatcher, pollIntervalMs: 60_000 },
      webhookAllowPrivate: true,
      database: t.config.database,
    },
    businessIds: [b.businessId],
  });
  d.start();
  // its first poll (at start) is over before the count begins
  await d.runOnce();
});
afterAll(async () => {
  await d.stop();
  await t.close();
});

const { get, post } = apiClient(() => t.app);

/** The fan-out's statements: the claim of unpublished events, their `published_at`, the deliveries. */
const FAN_OUT = [
  /row_number\(\) over \(partition by business_id/i,
  /^\s*update "event" set "published_at"/i,
  /^\s*insert into "webhook_delivery"/i,
];

describe(`background statements of a write (${DIALECT})`, () => {
  it(`${WRITES} writes of a business without webhook endpoints, ${AT_ONCE} at a time: no fan-out, at most one background statement per write; the feed numbers them all`, async () => {
    const { statements } = await countBackgroundStatements(async () => {
      for (let i = 0; i < WRITES; i += AT_ONCE) {
        const answers = await Promise.all(
          Array.from({ length: AT_ONCE }, (_, j) =>
            countStatements(() => post(b, '/v1/client', { companyName: `quiet ${i + j}` })),
          ),
        );
        for (const a of answers) expect(a.result.status, JSON.stringify(a.result.body)).toBe(201);
      }
      // what the writes woke runs now: wake-ups fold into a poll 50 ms apart (FREED_SLOT_POLL_MS)
      await new Promise((resolve) => setTimeout(resolve, 500));
    });
    const listing = `${statements.length} background statements for ${WRITES} writes:\n${statements.map((s, i) => `  ${i + 1}. ${s.replace(/\s+/g, ' ').slice(0, 160)}`).join('\n')}`;
    expect(
      statements.filter((s) => FAN_OUT.some((re) => re.test(s))),
      listing,
    ).toEqual([]);
    // nor a wake-up of other processes' dispatchers (PostgreSQL's NOTIFY bizapi_event): nothing waits for them
    expect(
      statements.filter((s) => /pg_notify/i.test(s)),
      listing,
    ).toEqual([]);
    expect(statements.length, listing).toBeLessThanOrEqual(WRITES);

    // decisions §17: every event is in the feed, numbered in order, although no poll numbered them
    const feed = await get(b, `/v1/event?after_sequence=0&type=client.created&page_size=${WRITES}`);
    expect(feed.status).toBe(200);
    const events = feed.body.results as { sequence: number; data: { companyName: string } }[];
    expect(events).toHaveLength(WRITES);
    expect(new Set(events.map((e) => e.data.companyName)).size).toBe(WRITES);
    for (let i = 1; i < events.length; i++) expect(events[i]!.sequence).toBeGreaterThan(events[i - 1]!.sequence);
  });
});
