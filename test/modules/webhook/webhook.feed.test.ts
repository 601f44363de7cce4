/**
 * Webhooks of a change feed to sync by (decisions §17) on the dialect under test, through HTTP and a real
 * receiver (node:http on 127.0.0.1):
 * - an endpoint receives only events committed after its creation, also when the fan-out runs later and
 *   when a writing transaction is still open while the endpoint is created (a real late commit); a
 *   transaction that stays open makes the creation give up after its bounded lock wait (PostgreSQL);
 * - the stored answer of a request with `Idempotency-Key` is sealed: no signing secret in the table, and the
 *   replay still answers the same bytes; an answer stored before sealing is still replayed;
 * - live delivery: a started dispatcher whose poll interval is a minute still delivers a write at once (the
 *   in-process wake-up; on PostgreSQL the `NOTIFY` a write sends, and a dispatcher woken by a `NOTIFY` of
 *   another process, also after its listening connection was killed; on SQLite a commit of another
 *   connection, as another process makes it).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/create-db.ts';
import { listen } from '../../../src/db/listen.ts';
import { createWebhookDispatcher, type WebhookDispatcher } from '../../../src/jobs/webhook-dispatcher.ts';
import { record } from '../../../src/modules/event/event.service.ts';
import { EVENT_CHANNEL } from '../../../src/modules/webhook/webhook-delivery.service.ts';
import { ENDPOINT_LOCK_TIMEOUT_MS } from '../../../src/modules/webhook/webhook.service.ts';
import { apiClient } from '../../setup/api-client.ts';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import type { SignedRequest } from '../../setup/signed-request.ts';
import { DIALECT } from '../../setup/test-db.ts';
import { type PostgresConfig, sessionUrlOf } from '../../../src/config.ts';
import { until } from '../../setup/helpers.ts';

let t: TestApp;
/** `call`: a signed request, answered raw (status, headers, exact body bytes). */
const { get, post, raw: call } = apiClient(() => t.app);

/** One request the receiver got. */
interface Receipt {
  path: string;
  body: { id: number; type: string; data: { id: number; companyName?: string } };
  at: number;
}

let server: http.Server;
let base: string;
const receipts: Receipt[] = [];

beforeAll(async () => {
  t = await buildTestApp({ BIZAPI_WEBHOOK_ALLOW_PRIVATE: 'true' });
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      receipts.push({
        path: req.url ?? '/',
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Receipt['body'],
        at: Date.now(),
      });
      res.writeHead(204).end();
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

let pathSeq = 0;
/** Creates an endpoint for every event through `POST /v1/webhook`; returns its id and receiver path. */
async function newEndpoint(b: TestBusiness): Promise<{ id: number; path: string }> {
  const path = `/feed-${++pathSeq}`;
  const res = await post(b, '/v1/webhook', { url: `${base}${path}`, eventTypes: ['*'] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id, path };
}

function dispatcher(b: TestBusiness, pollIntervalMs = t.config.dispatcher.pollIntervalMs): WebhookDispatcher {
  return createWebhookDispatcher({
    db: t.testDb.db,
    masterKey: t.masterKey,
    config: {
      dispatcher: { ...t.config.dispatcher, pollIntervalMs },
      webhookAllowPrivate: true,
      database: t.config.database,
    },
    businessIds: [b.businessId],
  });
}

/** Polls until nothing is left to publish or claim. */
async function drain(d: WebhookDispatcher): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const r = await d.runOnce();
    if (r.published === 0 && r.claimed === 0) return;
  }
  throw new Error('the dispatcher never ran dry');
}

async function newClient(b: TestBusiness, companyName: string): Promise<number> {
  const res = await post(b, '/v1/client', { companyName });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

/** The ids of the events the receiver got at `path`. */
function eventIdsAt(path: string): number[] {
  return receipts.filter((r) => r.path === path).map((r) => r.body.id);
}

/** The business's events, oldest first. */
async function eventsOf(b: TestBusiness): Promise<{ id: number; type: string }[]> {
  return (await get(b, '/v1/event?page_size=100')).body.results.reverse();
}

describe(`webhook endpoints receive only later events on ${DIALECT}`, () => {
  it('an event written before the endpoint is not delivered to it, even when the fan-out runs after its creation', async () => {
    const b = await newBusiness(t);
    await newClient(b, 'Before');
    const endpoint = await newEndpoint(b);
    await newClient(b, 'After');
    const [before, after] = await eventsOf(b);
    await drain(dispatcher(b));
    expect(eventIdsAt(endpoint.path)).toEqual([after!.id]);
    expect(before!.id).toBeLessThan(after!.id);
  });

  it('a transaction that commits while the endpoint is being created: delivered if and only if it committed after the endpoint answered', async () => {
    const b = await newBusiness(t);
    const clientId = await newClient(b, 'Late');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let lateId = 0;
    let inserted!: () => void;
    const insertedYet = new Promise<void>((resolve) => (inserted = resolve));
    // A writer whose event row is inserted (its id handed out) now, and which commits only later.
    const late = t.testDb.db.transaction().execute(async (trx) => {
      lateId = (
        await record(trx, b.businessId, {
          type: 'client.updated',
          changedFields: ['memo'],
          data: { id: clientId, memo: 'late' },
        })
      ).id;
      inserted();
      await gate;
    });
    await insertedYet;
    // PostgreSQL: meanwhile another write commits with a greater id (SQLite has one writer at a time)
    if (DIALECT === 'postgres') await newClient(b, 'Other');
    let answeredAt = 0;
    const creating = newEndpoint(b).then((e) => ((answeredAt = performance.now()), e));
    await new Promise((r) => setTimeout(r, 300));
    const committedAt = performance.now();
    release();
    await late;
    const endpoint = await creating;
    const next = await newClient(b, 'Next');
    await drain(dispatcher(b));
    const got = eventIdsAt(endpoint.path);
    // an event committed after the endpoint's creation answer must reach it; one committed before must not
    if (answeredAt < committedAt) expect(got).toContain(lateId);
    else expect(got).not.toContain(lateId);
    // (the endpoint waits for the writer: its answer comes after the commit)
    expect(answeredAt).toBeGreaterThan(committedAt);
    const events = await eventsOf(b);
    const nextEvent = events.find((e) => e.type === 'client.created' && e.id > lateId && got.includes(e.id));
    expect(nextEvent, `client ${next}'s event delivered`).toBeDefined();
    expect(got.every((id) => id > lateId)).toBe(true);
  });

  it.skipIf(DIALECT !== 'postgres')(
    'a transaction writing events that stays open: the creation gives up after its bounded lock wait (503, nothing created), then succeeds',
    async () => {
      const b = await newBusiness(t);
      const other = await newBusiness(t);
      const clientId = await newClient(other, 'Open');
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let inserted!: () => void;
      const insertedYet = new Promise<void>((resolve) => (inserted = resolve));
      // another business's writer that holds its transaction open (its event row inserted, not committed)
      const open = t.testDb.db.transaction().execute(async (trx) => {
        await record(trx, other.businessId, {
          type: 'client.updated',
          changedFields: ['memo'],
          data: { id: clientId, memo: 'open' },
        });
        inserted();
        await gate;
      });
      await insertedYet;
      try {
        const started = performance.now();
        const res = await post(b, '/v1/webhook', { url: `${base}/never`, eventTypes: ['*'] });
        const waited = performance.now() - started;
        expect(res.status, JSON.stringify(res.body)).toBe(503);
        expect(res.headers['retry-after']).toMatch(/^\d+$/);
        expect(waited).toBeGreaterThanOrEqual(ENDPOINT_LOCK_TIMEOUT_MS - 100);
        expect(waited).toBeLessThan(ENDPOINT_LOCK_TIMEOUT_MS + 5000);
        expect((await get(b, '/v1/webhook')).body.results).toEqual([]);
      } finally {
        release();
        await open;
      }
      await newEndpoint(b);
      expect((await get(b, '/v1/webhook')).body.results).toHaveLength(1);
    },
    20_000,
  );

  it('concurrent writers while endpoints are created: every write answered before the creation started is left out, every write started after it answered is delivered', async () => {
    const b = await newBusiness(t);
    const before = new Set<string>();
    const after = new Set<string>();
    let phase: 'before' | 'during' | 'after' = 'before';
    let n = 0;
    let stop = false;
    const writers = Array.from({ length: 4 }, async () => {
      while (!stop) {
        const name = `w${++n}`;
        const startedIn = phase;
        await newClient(b, name);
        if (startedIn === 'after') after.add(name);
        else if (phase === 'before') before.add(name);
      }
    });
    await new Promise((r) => setTimeout(r, 150));
    phase = 'during';
    const endpoints = await Promise.all([newEndpoint(b), newEndpoint(b)]);
    phase = 'after';
    await new Promise((r) => setTimeout(r, 150));
    stop = true;
    await Promise.all(writers);
    await drain(dispatcher(b));
    expect(before.size).toBeGreaterThan(0);
    expect(after.size).toBeGreaterThan(0);
    for (const endpoint of endpoints) {
      const names = new Set(receipts.filter((r) => r.path === endpoint.path).map((r) => r.body.data.companyName));
      for (const name of before) expect(names.has(name), `${name} (written before) delivered`).toBe(false);
      for (const name of after) expect(names.has(name), `${name} (written after) delivered`).toBe(true);
    }
  });
});

describe(`stored idempotent answers are sealed on ${DIALECT}`, () => {
  async function storedRows(b: TestBusiness) {
    return t.testDb.db.selectFrom('idempotency_key').selectAll().where('business_id', '=', b.businessId).execute();
  }

  it('POST /v1/webhook and rotate_secret with Idempotency-Key: no secret in the table, the replay answers the same bytes', async () => {
    const b = await newBusiness(t);
    const create = {
      method: 'POST',
      url: '/v1/webhook',
      body: { url: `${base}/sealed`, eventTypes: ['*'] },
      headers: { 'idempotency-key': 'create-1' },
    } satisfies SignedRequest;
    const first = await call(b, create);
    expect(first.statusCode).toBe(201);
    const created = first.json<{ id: number; secret: string }>();
    const secret = created.secret;
    expect(secret).toMatch(/^whsec_/);
    const rotate = {
      method: 'POST',
      url: `/v1/webhook/${created.id}/rotate_secret`,
      headers: { 'idempotency-key': 'rotate-1' },
    } satisfies SignedRequest;
    const rotated = await call(b, rotate);
    expect(rotated.statusCode).toBe(200);
    const secrets = [secret, rotated.json<{ secret: string }>().secret];

    const rows = await storedRows(b);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      const text = JSON.stringify(row);
      expect(text).not.toContain('whsec_');
      for (const s of secrets) expect(text).not.toContain(s.slice('whsec_'.length));
      // not merely encoded: base64 of the stored body does not hold it either
      const decoded = Buffer.from(String(row.response_body), 'base64').toString('latin1');
      expect(decoded).not.toContain('whsec_');
      expect(row.response_body).toMatch(/^v1\./);
    }

    const again = await call(b, create);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    const rotatedAgain = await call(b, rotate);
    expect(rotatedAgain.headers['idempotent-replayed']).toBe('true');
    expect(rotatedAgain.rawPayload.equals(rotated.rawPayload)).toBe(true);
  });

  it('an answer stored before sealing (plain base64) is still replayed', async () => {
    const b = await newBusiness(t);
    const req = {
      method: 'POST',
      url: '/v1/client',
      body: { companyName: 'Plain' },
      headers: { 'idempotency-key': 'plain-1' },
    } satisfies SignedRequest;
    const first = await call(b, req);
    expect(first.statusCode).toBe(201);
    await t.testDb.db
      .updateTable('idempotency_key')
      .set({ response_body: first.rawPayload.toString('base64') })
      .where('business_id', '=', b.businessId)
      .execute();
    const again = await call(b, req);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
  });
});

describe(`live delivery on ${DIALECT}`, () => {
  /** Starts a dispatcher whose poll interval is a minute, and waits until its first poll is over. */
  async function startIdle(b: TestBusiness): Promise<WebhookDispatcher> {
    const d = dispatcher(b, 60_000);
    d.start();
    await new Promise((r) => setTimeout(r, 300));
    return d;
  }

  it('a write through the API reaches the receiver at once although the next poll is a minute away (in-process wake-up)', async () => {
    const b = await newBusiness(t);
    const endpoint = await newEndpoint(b);
    const d = await startIdle(b);
    try {
      for (let i = 0; i < 3; i++) {
        await newClient(b, `live-${i}`);
        // generous: without a wake-up nothing comes for a minute
        await until(() => eventIdsAt(endpoint.path).length === i + 1, 10_000);
      }
    } finally {
      await d.stop();
    }
  });

  it.runIf(DIALECT === 'postgres')(
    'PostgreSQL: a write through the API sends NOTIFY bizapi_event with its business after it answered',
    async () => {
      const b = await newBusiness(t);
      // an endpoint that wants the event: a business without one is woken by nothing (docs/webhooks.md#live-delivery)
      await newEndpoint(b);
      // where the app's dispatchers listen: DATABASE_DIRECT_URL behind a transaction-mode pooler (the pooled run)
      const url = sessionUrlOf(t.config.database as PostgresConfig)!;
      const heard: string[] = [];
      let ready!: () => void;
      const listening = new Promise<void>((resolve) => (ready = resolve));
      const listener = listen(url, EVENT_CHANNEL, { notify: (p) => heard.push(p), listening: () => ready() });
      try {
        await listening;
        await newClient(b, 'Notified');
        await until(() => heard.includes(String(b.businessId)), 10_000);
      } finally {
        await listener.close();
      }
    },
  );

  it.runIf(DIALECT === 'postgres')(
    'PostgreSQL: a NOTIFY from another process wakes the dispatcher, also after its listening connection was killed',
    async () => {
      const b = await newBusiness(t);
      const endpoint = await newEndpoint(b);
      const clientId = await newClient(b, 'Outside');
      const d = await startIdle(b);
      // a write of another process: committed here without this app's in-process wake-up, then announced
      const writeOutside = async (memo: string) => {
        await t.testDb.db.transaction().execute(async (trx) => {
          await record(trx, b.businessId, {
            type: 'client.updated',
            changedFields: ['memo'],
            data: { id: clientId, memo },
          });
        });
        await sql`select pg_notify(${EVENT_CHANNEL}, ${String(b.businessId)})`.execute(t.testDb.db);
      };
      try {
        await until(() => eventIdsAt(endpoint.path).length === 1, 10_000); // the create, at the first poll
        await writeOutside('one');
        await until(() => eventIdsAt(endpoint.path).length === 2, 10_000);
        // a database restart as the listener sees it: its session ends
        const killed = await sql<{ n: number }>`
        select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
        where datname = current_database() and query = 'LISTEN bizapi_event' and pid <> pg_backend_pid()`.execute(
          t.testDb.db,
        );
        expect(killed.rows[0]!.n).toBeGreaterThan(0);
        // it reconnects (0.5 s) and looks then; the write after that comes by NOTIFY again
        await new Promise((r) => setTimeout(r, 1500));
        await writeOutside('two');
        await until(() => eventIdsAt(endpoint.path).length === 3, 10_000);
      } finally {
        await d.stop();
      }
    },
  );

  it.runIf(DIALECT === 'sqlite')(
    "SQLite: another connection's commit (another process's) wakes the dispatcher",
    async () => {
      const b = await newBusiness(t);
      const endpoint = await newEndpoint(b);
      const clientId = await newClient(b, 'Outside');
      const d = await startIdle(b);
      // a second connection to the same file, as a `bizapi serve` beside a `bizapi worker` has: no in-process wake-up
      const other = createDb(t.config.database);
      try {
        await until(() => eventIdsAt(endpoint.path).length === 1, 10_000); // the create, at the first poll
        for (const memo of ['one', 'two']) {
          await other.transaction().execute(async (trx) => {
            await record(trx, b.businessId, {
              type: 'client.updated',
              changedFields: ['memo'],
              data: { id: clientId, memo },
            });
          });
          const expected = eventIdsAt(endpoint.path).length + 1;
          // generous: without the wake-up nothing comes for a minute
          await until(() => eventIdsAt(endpoint.path).length === expected, 10_000);
        }
      } finally {
        await other.destroy();
        await d.stop();
      }
    },
  );
});
