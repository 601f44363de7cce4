/**
 * Webhook delivery (docs/webhooks.md#delivery): the fan-out of events into deliveries, the attempts and
 * their records, the retry schedule, the disabling of endpoints that only fail, and the retention purge. The
 * bodies and signatures are in webhook-body.ts; the request goes through the one HTTP client of
 * src/shared/http-client.ts, with its connect-time address check. The dispatcher (src/jobs/webhook-dispatcher.ts) drives it; nothing here runs on its own.
 *
 * The life of a delivery:
 * 1. {@link publish}: an event of a business is claimed (never twice, across dispatchers) and one `pending`
 *    delivery is written per matching active endpoint ({@link endpointWants}), in one transaction with the
 *    event's `published_at`;
 * 2. a dispatcher claims the due delivery with a lease, and {@link attemptDelivery} sends it: no database
 *    transaction is open while the receiver is talked to;
 * 3. any 2xx within the timeout ends it `succeeded`; anything else schedules the next attempt after
 *    {@link RETRY_DELAYS_MS} (8 attempts in all), then ends it `failed`. A delivery whose endpoint was
 *    disabled meanwhile ends `failed` with `lastError` `endpoint disabled`, without a request (a retry
 *    through the API after re-enabling sends it again).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Timestamp } from '../../db/columns.ts';
import { inRelaxedTransaction } from '../../db/durability.ts';
import { deleteInBatches, isPostgres } from '../../db/sql-helpers.ts';
import type { NewWebhookDeliveryRow, WebhookDeliveryRow, WebhookEndpointRow } from '../../db/tables/webhook.table.ts';
import { NotFound } from '../../shared/errors.ts';
import { post } from '../../shared/http-client.ts';
import { retrieveBusiness } from '../auth/auth.service.ts';
import {
  claimUnpublished,
  deliveriesAtInsert,
  fanOutAtInsert,
  fanOutAtWrite,
  type FanOutEvent,
  type WriteFanOutPlan,
  hasUnpublished,
  latestEventIdOf,
  listPublishedAfter,
  markPublished,
  retrieve as retrieveEvent,
  retrieveMany,
  testPingIds,
} from '../event/event.service.ts';
import type { Event } from '../event/event.schemas.ts';
import * as repo from './webhook-delivery.repository.ts';
import { deliveryBody, deliveryHeaders, signingSecrets } from './webhook-body.ts';

/** Delays before attempts 2 to 8 (docs/webhooks.md#retries): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const RETRY_DELAYS_MS: readonly number[] = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
];

/** Attempts of one delivery in all (the first, and one after each delay of {@link RETRY_DELAYS_MS}). */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** An endpoint without a success for this long (and failing) is disabled: 5 days. */
export const DISABLE_AFTER_MS = 5 * 86_400_000;

/** Total time one request may take, from connecting to the end of the (truncated) answer: 10 s (docs/webhooks.md#delivery). */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** Bytes of the receiver's answer that are read and kept: 4 KiB (docs/webhooks.md#delivery). */
export const MAX_RESPONSE_BYTES = 4096;

/** Days deliveries are kept (docs/webhooks.md#delivery). */
export const DELIVERY_RETENTION_DAYS = 30;

/** The `inquiry.updated` properties a `pluuug` endpoint is told about (the reference service's webhook). */
export const PLUUUG_FIELDS: ReadonlySet<string> = new Set(['name', 'status', 'estimate', 'inquiryDate', 'client']);

/** How an attempt ended, for the metrics: `succeeded`, `retried` (another attempt is scheduled), `failed`. */
export type AttemptOutcome = 'succeeded' | 'retried' | 'failed';

/** Told about every attempt that ended; `durationSeconds` is undefined when no request was sent. */
export type AttemptListener = (outcome: AttemptOutcome, durationSeconds: number | undefined) => void;

const listeners = new Set<AttemptListener>();

/**
 * Subscribes to the attempts of every dispatcher of this process (the metrics, src/plugins/metrics.ts).
 * @returns the function that unsubscribes
 */
export function onDeliveryAttempt(listener: AttemptListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit(outcome: AttemptOutcome, durationMs: number | undefined): void {
  for (const l of listeners) {
    try {
      l(outcome, durationMs === undefined ? undefined : durationMs / 1000);
    } catch {
      // a listener never breaks delivery
    }
  }
}

/**
 * Tells this thread's {@link onDeliveryAttempt} listeners about an attempt another thread made: the dispatcher
 * thread of the server (src/jobs/dispatcher-thread.ts) posts its attempts to the main thread, whose metrics
 * (`bizapi_webhook_deliveries_total`, `_duration_seconds`) count them. `durationSeconds` as the listener gets it.
 */
export function reportDeliveryAttempt(outcome: AttemptOutcome, durationSeconds: number | undefined): void {
  emit(outcome, durationSeconds === undefined ? undefined : durationSeconds * 1000);
}

/** Told that events of a business were committed in this process ({@link signalEventsWritten}). */
export type EventsWrittenListener = (businessId: number) => void;

const written = new Set<EventsWrittenListener>();

/**
 * Runs a function in the async context of this module's loading, outside any request's: the wake-ups and
 * notifications a request triggers are not that request's work (its statement count, its log context).
 */
const outsideRequests = AsyncLocalStorage.snapshot();

/**
 * Subscribes to {@link signalEventsWritten} (the webhook dispatchers of this process: docs/webhooks.md#live-delivery).
 * @returns the function that unsubscribes
 */
export function onEventsWritten(listener: EventsWrittenListener): () => void {
  written.add(listener);
  return () => written.delete(listener);
}

/**
 * Tells the webhook dispatchers of this process that a write of `businessId` has committed, so that they
 * fan its events out now instead of at their next poll (docs/webhooks.md#live-delivery: the in-process
 * wake-up; on PostgreSQL {@link createEventNotifier} also reaches the other processes). Called after the answer of every
 * successful write under `/v1` (src/app.ts) but one whose events were all written published (PostgreSQL, no
 * endpoint wants them: docs/webhooks.md#fan-out); a write that wrote no event costs one idle poll.
 * Synchronous and cheap; a listener's error is swallowed.
 */
export function signalEventsWritten(businessId: number): void {
  if (written.size === 0) return;
  outsideRequests(() => {
    for (const l of written) {
      try {
        l(businessId);
      } catch {
        // a listener never breaks the request that signalled
      }
    }
  });
}

/** The PostgreSQL channel of the live wake-ups: `NOTIFY bizapi_event, '<business id>'` (docs/webhooks.md#live-delivery). */
export const EVENT_CHANNEL = 'bizapi_event';

/**
 * The cross-process half of the live wake-up on PostgreSQL (docs/webhooks.md#live-delivery): a function
 * that sends `NOTIFY bizapi_event, '<business id>'` on `db`, so that every dispatcher `LISTEN`ing (any
 * process, `bizapi worker` included) fans the business's events out at once. Called after a write has
 * committed (its answer is sent), never inside the writing transaction: a `NOTIFY` there would make
 * PostgreSQL serialize the commits of all writers. Coalesced: one notification in flight per process; the
 * businesses signalled meanwhile go in the next one (payload `''`, any business, when several). Errors are
 * dropped (the poll is the fallback). On SQLite it does nothing.
 * @returns `notify(businessId)`, synchronous; the statement runs in the background
 */
export function createEventNotifier(db: Db): (businessId: number) => void {
  if (!isPostgres(db)) return () => undefined;
  let inFlight = false;
  const pending = new Set<number>();
  const send = (): void => {
    const payload = pending.size === 1 ? String([...pending][0]) : '';
    pending.clear();
    inFlight = true;
    outsideRequests(() => sql`select pg_notify(${EVENT_CHANNEL}, ${payload})`.execute(db))
      .catch(() => undefined)
      .finally(() => {
        inFlight = false;
        if (pending.size > 0) send();
      });
  };
  return (businessId) => {
    pending.add(businessId);
    if (!inFlight) send();
  };
}

/** An endpoint as {@link endpointWants} reads it. */
export type EndpointFilter = Pick<WebhookEndpointRow, 'event_types' | 'format'>;

/**
 * Whether an endpoint receives an event (docs/webhooks.md#delivery): its `eventTypes` name the type or are
 * `["*"]`; a `pluuug` endpoint moreover only receives `inquiry.updated` events that change `name`,
 * `status`, `estimate`, `inquiryDate` or `client`. `webhook.test` events are never fanned out (the test
 * ping writes its one delivery itself).
 */
export function endpointWants(
  endpoint: EndpointFilter,
  event: { type: string; changedFields: readonly string[] },
): boolean {
  if (event.type === 'webhook.test') return false;
  let types: unknown;
  try {
    types = JSON.parse(endpoint.event_types);
  } catch {
    return false;
  }
  if (!Array.isArray(types) || !(types.includes('*') || types.includes(event.type))) return false;
  if (endpoint.format === 'pluuug')
    return event.type === 'inquiry.updated' && event.changedFields.some((f) => PLUUUG_FIELDS.has(f));
  return true;
}

/** What one {@link publish} did. */
export interface PublishResult {
  /** Events claimed and marked published. */
  events: number;
  /** Deliveries written. */
  deliveries: number;
  /**
   * Events claimed but left unpublished for the next call: their deliveries would have passed
   * `maxDeliveries` (the latest turns of the round).
   */
  deferred: number;
}

/** Deliveries one fan-out writes at most (before the queue cap): later turns of its round wait for the next one. */
export const FAN_OUT_MAX_DELIVERIES = 2000;

/**
 * The fan-out (docs/webhooks.md#delivery): claims up to `limit` unpublished events (only `businessIds`'
 * when given), per business in turn (docs/webhooks.md#fairness-and-limits), writes one `pending` delivery,
 * due at `now`, for each active endpoint of the event's business that wants it ({@link endpointWants}), was
 * created before the event was committed (the event's id above the endpoint's `after_event_id`:
 * docs/webhooks.md#which-events-an-endpoint-receives) and is not parked past it (a parked endpoint is owed
 * the events above its `parked_after_event_id` instead: docs/webhooks.md#parking) — at most `queueCap`
 * ({@link QUEUE_CAP}) not attempted yet per endpoint, the endpoint parked beyond ({@link capQueues}) —
 * and marks the events
 * published — all in one transaction, so that an event is fanned out exactly once, even by concurrent
 * dispatchers. An idle call runs one read and opens no transaction.
 */
export async function publish(
  db: Db,
  options: {
    limit: number;
    businessIds?: readonly number[];
    now: Timestamp;
    queueCap?: number;
    maxDeliveries?: number;
  },
): Promise<PublishResult> {
  // A read first: an idle poll takes no write lock (on SQLite a transaction begins IMMEDIATE).
  if (!(await hasUnpublished(db, options.businessIds))) return { events: 0, deliveries: 0, deferred: 0 };
  // without waiting for the disk (docs/deployment.md#durability): a fan-out lost to a power cut is redone
  return inRelaxedTransaction(db, async (trx) => {
    const claimed = await claimUnpublished(trx, options.limit, options.businessIds);
    if (claimed.length === 0) return { events: 0, deliveries: 0, deferred: 0 };
    const endpoints = await repo.findActiveEndpoints(trx, [...new Set(claimed.map((e) => e.businessId))]);
    // the parked ones' cursors again, locked against a resumption (repo.lockParkedEndpoints: one statement, or
    // one per business on Citus); on SQLite the transaction's write lock keeps the cursors just read
    let parked = new Map<number, number | null>();
    const parkedByBusiness = new Map<number, number[]>();
    for (const e of endpoints) {
      if (e.parked_after_event_id === null) continue;
      parkedByBusiness.set(e.business_id, [...(parkedByBusiness.get(e.business_id) ?? []), e.id]);
      parked.set(e.id, Number(e.parked_after_event_id));
    }
    if (isPostgres(trx)) parked = await repo.lockParkedEndpoints(trx, parkedByBusiness);
    const byBusiness = new Map<number, repo.FanOutEndpointRow[]>();
    for (const e of endpoints) byBusiness.set(e.business_id, [...(byBusiness.get(e.business_id) ?? []), e]);
    const deliveriesOf = (event: (typeof claimed)[number]) =>
      matchEndpoints(byBusiness.get(event.businessId) ?? [], parked, event.businessId, event, options.now);
    // in the round's order (every business's oldest, then every business's second, …), until the deliveries
    // reach the bound: the later turns wait for the next fan-out (their row locks end with this transaction)
    const maxDeliveries = options.maxDeliveries ?? FAN_OUT_MAX_DELIVERIES;
    const events: typeof claimed = [];
    const wanted: NewWebhookDeliveryRow[] = [];
    for (const event of inTurns(claimed)) {
      const rows = deliveriesOf(event);
      if (events.length > 0 && wanted.length + rows.length > maxDeliveries) break;
      events.push(event);
      wanted.push(...rows);
    }
    const rows = await capQueues(trx, wanted, options.queueCap ?? QUEUE_CAP);
    await repo.insertDeliveries(trx, rows);
    await markPublished(
      trx,
      events.map((e) => e.id),
      options.now,
    );
    return { events: events.length, deliveries: rows.length, deferred: claimed.length - events.length };
  });
}

/**
 * The deliveries of `event` of `businessId` to `endpoints` (the business's active ones), due at `now`: one per
 * endpoint that wants it ({@link endpointWants}), was created before it (docs/webhooks.md#which-events-an-endpoint-receives)
 * and is not parked before it — a parked endpoint (its cursor in `parked`, by endpoint id) is owed its later
 * events instead, written when it is resumed (docs/webhooks.md#parking).
 */
function matchEndpoints(
  endpoints: readonly repo.FanOutEndpointRow[],
  parked: ReadonlyMap<number, number | null>,
  businessId: number,
  event: FanOutEvent,
  now: Timestamp,
): NewWebhookDeliveryRow[] {
  return endpoints
    .filter((endpoint) => endpointWants(endpoint, event))
    .filter((endpoint) => event.id > Number(endpoint.after_event_id))
    .filter((endpoint) => {
      const cursor = endpoint.parked_after_event_id === null ? null : (parked.get(endpoint.id) ?? null);
      return cursor === null || event.id <= cursor;
    })
    .map((endpoint) => newDelivery(businessId, endpoint.id, event.id, now));
}

/**
 * Endpoints of a business (active, not parked, wanting one of the events) up to which a SQLite write writes
 * its events' deliveries itself (docs/webhooks.md#deliveries-written-by-the-write): a few small inserts in a
 * transaction that holds the write lock anyway. A business with more (the one whose every write would go to
 * twenty receivers) goes through the dispatcher's fan-out, fair per business and bounded per round.
 */
export const WRITE_DELIVERIES_MAX_ENDPOINTS = 3;

/**
 * The plan of a SQLite write for its events' deliveries (event.service `writeEvents`, docs/webhooks.md#fan-out),
 * in the write's transaction `trx`: of the business's active endpoints, those not parked that want one of
 * `events` ({@link endpointWants}) get a delivery of each event they want — exactly what {@link publish} would
 * write: the events' ids will be above every endpoint's `after_event_id` and parking cursor (both at most
 * the highest event id, and SQLite's write lock, held by `trx`, lets no other event in), so a parked
 * endpoint is owed them and an endpoint created before them receives them.
 * - none: `none` (written published; a parked endpoint is owed them). One indexed read.
 * - at most {@link WRITE_DELIVERIES_MAX_ENDPOINTS}, each with room in its queue for them (fewer than
 *   {@link QUEUE_CAP} not attempted yet with them): `write`, the deliveries written by the write after its
 *   events, due at once (docs/webhooks.md#deliveries-written-by-the-write). Two indexed reads.
 * - otherwise (more endpoints, or a queue that would pass its cap and park its endpoint): `dispatcher`.
 */
async function planWriteFanOut(
  trx: Db,
  businessId: number,
  events: readonly Omit<FanOutEvent, 'id'>[],
): Promise<WriteFanOutPlan> {
  const endpoints = await repo.findActiveEndpoints(trx, [businessId]);
  const wanting = endpoints.filter(
    (endpoint) => endpoint.parked_after_event_id === null && events.some((event) => endpointWants(endpoint, event)),
  );
  if (wanting.length === 0) return { kind: 'none' };
  if (wanting.length > WRITE_DELIVERIES_MAX_ENDPOINTS) return { kind: 'dispatcher' };
  const queued = await repo.countUnattempted(
    trx,
    businessId,
    wanting.map((e) => e.id),
  );
  const roomy = wanting.every(
    (endpoint) =>
      (queued.get(endpoint.id) ?? 0) + events.filter((event) => endpointWants(endpoint, event)).length <= QUEUE_CAP,
  );
  if (!roomy) return { kind: 'dispatcher' };
  return {
    kind: 'write',
    write: async (writeTrx, written) => {
      const now = new Date().toISOString();
      await repo.insertDeliveries(
        writeTrx,
        written.flatMap((event) =>
          wanting
            .filter((endpoint) => endpointWants(endpoint, event))
            .map((endpoint) => newDelivery(businessId, endpoint.id, event.id, now)),
        ),
      );
    },
  };
}

fanOutAtWrite(planWriteFanOut);

/**
 * PostgreSQL's counterpart of {@link planWriteFanOut} (docs/webhooks.md#fan-out), as a condition that the events' own
 * INSERT evaluates (event.service `writeEvents`; repo `activeEndpointWantsSql`): whether an active endpoint
 * of the business wants one of `events` ({@link endpointWants}: `webhook.test` never), or is parked.
 */
function fanOutCondition(businessId: number, events: readonly Omit<FanOutEvent, 'id'>[]): RawBuilder<SqlBool> {
  const fanned = events.filter((e) => e.type !== 'webhook.test');
  return repo.activeEndpointWantsSql(businessId, {
    types: [...new Set(fanned.map((e) => e.type))],
    pluuug: fanned.some((e) => endpointWants({ event_types: '["*"]', format: 'pluuug' }, e)),
  });
}

fanOutAtInsert(fanOutCondition);

// PostgreSQL: a write to a business with a few endpoints writes their deliveries in its events' INSERT
// (docs/webhooks.md#deliveries-written-by-the-write), the same set as planWriteFanOut on SQLite
deliveriesAtInsert((businessId, at) =>
  repo.deliveriesAtInsertSql(businessId, {
    at,
    maxEndpoints: WRITE_DELIVERIES_MAX_ENDPOINTS,
    queueCap: QUEUE_CAP,
    pluuugFields: [...PLUUUG_FIELDS],
  }),
);

/** Events (oldest first within each business) in the order of a round: every business's first, then every business's second, …; ties by id. */
function inTurns<E extends { id: number; businessId: number }>(events: readonly E[]): E[] {
  const seen = new Map<number, number>();
  const turns = events.map((event) => {
    const turn = (seen.get(event.businessId) ?? 0) + 1;
    seen.set(event.businessId, turn);
    return { event, turn };
  });
  return turns.sort((a, b) => a.turn - b.turn || a.event.id - b.event.id).map((t) => t.event);
}

/**
 * Deliveries not attempted yet that one endpoint holds at most (docs/webhooks.md#parking): beyond, its events
 * are owed (the endpoint is parked) and written as its queue drains, {@link QUEUE_CAP} at a time.
 */
export const QUEUE_CAP = 20;

/**
 * The fan-out's queue cap (docs/webhooks.md#parking): of the deliveries `rows` about to be written (events in
 * id order per business), those that would give an endpoint more than `cap` deliveries not attempted yet are
 * left out, and the endpoint is parked before the first of them ({@link repo.parkMany}) — or, parked meanwhile,
 * at its own cursor: only its rows up to that cursor are kept. One count for the whole round, and two
 * statements for its parkings (one per endpoint on Citus).
 */
async function capQueues(trx: Db, rows: NewWebhookDeliveryRow[], cap: number): Promise<NewWebhookDeliveryRow[]> {
  const byEndpoint = new Map<number, NewWebhookDeliveryRow[]>();
  for (const r of rows) byEndpoint.set(r.webhook_id, [...(byEndpoint.get(r.webhook_id) ?? []), r]);
  const businessOf = new Map([...byEndpoint].map(([webhookId, list]) => [webhookId, list[0]!.business_id]));
  const queued = await repo.countUnattempted(trx, [...new Set(businessOf.values())], [...byEndpoint.keys()]);
  const kept: NewWebhookDeliveryRow[] = [];
  const over: { businessId: number; webhookId: number; list: NewWebhookDeliveryRow[]; room: number }[] = [];
  for (const [webhookId, unsorted] of byEndpoint) {
    const list = unsorted.sort((a, b) => a.event_id - b.event_id);
    const room = Math.max(0, cap - (queued.get(webhookId) ?? 0));
    if (list.length <= room) kept.push(...list);
    else over.push({ businessId: businessOf.get(webhookId)!, webhookId, list, room });
  }
  // parked in id order, as the attempts' marks lock endpoints: no deadlock between the two on PostgreSQL
  over.sort((a, b) => a.webhookId - b.webhookId);
  const cursors = await repo.parkMany(
    trx,
    over.map((o) => ({ businessId: o.businessId, webhookId: o.webhookId, cursor: o.list[o.room]!.event_id - 1 })),
  );
  for (const o of over) {
    const cursor = cursors.get(o.webhookId);
    kept.push(...o.list.filter((r) => cursor === undefined || r.event_id <= cursor).slice(0, o.room));
  }
  return kept;
}

function newDelivery(businessId: number, webhookId: number, eventId: number, now: Timestamp): NewWebhookDeliveryRow {
  return {
    business_id: businessId,
    webhook_id: webhookId,
    event_id: eventId,
    status: 'pending',
    next_attempt_at: now,
    created: now,
  };
}

/**
 * Parks the endpoint `webhookId` of `businessId` in the caller's transaction when its streak of attempts
 * without an answer has reached `sickAfter` (docs/webhooks.md#parking): its deliveries not attempted yet
 * (test pings kept) are deleted and owed instead, with every later event — its `parked_after_event_id` is
 * set to the id before the oldest of them (or kept, when lower: parked already by the queue cap), or to
 * the business's newest event id when there is none.
 * @returns whether this call parked it or took deliveries out of its queue
 */
export async function park(trx: Db, businessId: number, webhookId: number, sickAfter: number): Promise<boolean> {
  const sick = await repo.findSick(trx, businessId, webhookId, sickAfter);
  if (sick === undefined) return false;
  const unattempted = await repo.findUnattempted(trx, businessId, webhookId);
  const pings = new Set(
    await testPingIds(
      trx,
      businessId,
      unattempted.map((d) => d.event_id),
    ),
  );
  const owed = unattempted.filter((d) => !pings.has(d.event_id));
  if (sick.parked !== null && owed.length === 0) return false;
  let cursor = owed.length > 0 ? Math.min(...owed.map((d) => d.event_id)) - 1 : await latestEventIdOf(trx, businessId);
  // parked already (by the queue cap): the cursor only moves back, over the deliveries taken out
  if (sick.parked !== null) cursor = Math.min(cursor, sick.parked);
  await repo.setParkedCursor(trx, businessId, webhookId, cursor);
  await repo.deleteDeliveries(
    trx,
    businessId,
    owed.map((d) => d.id),
  );
  return true;
}

/** Options of {@link resumeParked}. */
export interface ResumeOptions {
  now: Timestamp;
  /** Attempts without an answer in a row that make (and keep) an endpoint sick and parked. */
  sickAfter: number;
  /** Owed events written per endpoint and call; an endpoint with this many pending deliveries waits. */
  chunk: number;
  /** Endpoints resumed per call. */
  endpoints: number;
  /** Only these businesses' endpoints (undefined: all). */
  businessIds?: readonly number[];
}

/**
 * Writes what parked endpoints are owed once they answer again (docs/webhooks.md#parking): for up to
 * `endpoints` parked active endpoints whose sick streak is below `sickAfter` (an attempt got an answer, or
 * `POST /v1/webhook/{webhook_id}/resume`) and whose pending deliveries are fewer than `chunk`, one
 * transaction each: the endpoint is locked (PostgreSQL `FOR UPDATE`), the next `chunk` published events of
 * its business above its cursor are read, a pending delivery is written for each it wants, and the cursor
 * moves to the last of them — or the endpoint is unparked when fewer than `chunk` remained. So a recovered
 * endpoint's owed events enter the queue as it drains, a chunk at a time, never all at once.
 * @returns the deliveries written
 */
export async function resumeParked(db: Db, o: ResumeOptions): Promise<number> {
  const candidates = await repo.findResumable(db, {
    sickAfter: o.sickAfter,
    maxPending: o.chunk,
    limit: o.endpoints,
    businessIds: o.businessIds,
  });
  let written = 0;
  for (const candidate of candidates) {
    written += await inRelaxedTransaction(db, async (trx) => {
      const endpoint = await repo.lockResumable(trx, candidate.business_id, candidate.id, o.sickAfter);
      if (endpoint?.parked_after_event_id == null) return 0;
      const events = await listPublishedAfter(
        trx,
        endpoint.business_id,
        Number(endpoint.parked_after_event_id),
        o.chunk,
      );
      const rows = events
        .filter((event) => event.id > Number(endpoint.after_event_id) && endpointWants(endpoint, event))
        .map((event) => newDelivery(endpoint.business_id, endpoint.id, event.id, o.now));
      const ids = await repo.insertDeliveries(trx, rows);
      await repo.setParkedCursor(
        trx,
        endpoint.business_id,
        endpoint.id,
        events.length < o.chunk ? null : events.at(-1)!.id,
      );
      return ids.length;
    });
  }
  return written;
}

/**
 * Writes pending deliveries in the caller's transaction `trx` (docs/webhooks.md#delivery: written with what
 * causes them: the fan-out, the test ping); one that exists already for its (event, endpoint) is left as it is.
 * @returns the ids of the deliveries written
 */
export async function insertDeliveries(trx: Db, rows: readonly NewWebhookDeliveryRow[]): Promise<number[]> {
  return repo.insertDeliveries(trx, rows);
}

/** The delay before the attempt after `attempts` failed ones, or `undefined` when none is left. */
export function retryDelayMs(attempts: number): number | undefined {
  return attempts >= MAX_ATTEMPTS ? undefined : RETRY_DELAYS_MS[Math.max(0, attempts - 1)];
}

/** What {@link attemptDelivery} needs. */
export interface AttemptContext {
  db: Db;
  masterKey: Buffer;
  /** The lease owner of the claimed rows. */
  owner: string;
  allowPrivate: boolean;
  /** The dispatcher's clock (epoch ms): schedules, endpoint marks. Signatures use the real time. */
  now: () => number;
  timeoutMs?: number;
}

/** How {@link attemptDelivery} ended; `lost`: the row is gone or another dispatcher holds it now. */
export type DeliveryEnd = AttemptOutcome | 'lost';

/** An attempt made (or ended without a request), to be written by {@link recordAttempts}. */
export interface AttemptToRecord {
  /** The claimed delivery. */
  row: WebhookDeliveryRow;
  /** How the delivery leaves the attempt: ended, or pending again at `nextAttemptAt`. */
  status: 'succeeded' | 'failed' | 'pending';
  nextAttemptAt: Timestamp | null;
  /** What the attempt left behind (its time, status code, error, answer, duration). */
  attempt: repo.AttemptRecord;
  /**
   * The endpoint's mark: `success`, `failure` (with whether no answer came: the sick streak), or `none` (no
   * request was sent: the endpoint was disabled).
   */
  mark:
    | { kind: 'success' }
    | { kind: 'failure'; noAnswer: boolean; failingSince: Timestamp | null; disableBefore: Timestamp }
    | { kind: 'none' };
  outcome: AttemptOutcome;
  /** The lane the delivery was claimed in (set by the dispatcher): a `normal` success can be refilled. */
  lane?: 'normal' | 'sick';
}

/** The endpoints and events of a chunk of claimed deliveries, read at once ({@link preloadAttempts}). */
export interface Preloaded {
  endpoints: Map<number, WebhookEndpointRow>;
  events: Map<number, Event>;
}

/**
 * Reads the endpoints and the events of claimed deliveries in two statements (instead of two per delivery),
 * for {@link makeAttempt}: the dispatcher starts a chunk of a hundred attempts with two reads.
 */
export async function preloadAttempts(db: Db, rows: readonly WebhookDeliveryRow[]): Promise<Preloaded> {
  if (rows.length === 0) return { endpoints: new Map(), events: new Map() };
  const [endpoints, events] = await Promise.all([
    repo.findEndpointsByIds(
      db,
      rows.map((r) => r.webhook_id),
    ),
    retrieveMany(
      db,
      rows.map((r) => ({ businessId: r.business_id, id: r.event_id })),
    ),
  ]);
  return { endpoints, events };
}

/**
 * Makes one attempt of a claimed delivery (docs/webhooks.md#delivery) and says how to record it, writing
 * nothing: reads the endpoint (gone: the delivery went with it), the event (purged: likewise) and, for
 * `pluuug`, the business's time zone (the first two from `preloaded` when given); signs with the endpoint's secret (and the previous one while its
 * rotation window lasts); sends it ({@link post}). A 2xx ends the delivery `succeeded`; a failure reschedules it
 * ({@link retryDelayMs}) or ends it `failed`. An inactive endpoint's delivery ends `failed` with `endpoint
 * disabled`, nothing sent. No transaction is held during the request.
 * @returns what {@link recordAttempts} writes, or `lost`
 * @throws database errors (the lease then expires and another poll retries the row)
 */
export async function makeAttempt(
  ctx: AttemptContext,
  row: WebhookDeliveryRow,
  preloaded?: Preloaded,
): Promise<AttemptToRecord | 'lost'> {
  const { db } = ctx;
  const iso = (ms: number) => new Date(ms).toISOString();
  const endpoint = preloaded
    ? preloaded.endpoints.get(row.webhook_id)
    : await repo.findEndpointById(db, row.webhook_id);
  if (!endpoint) return 'lost';
  if (endpoint.is_active !== 1) {
    return {
      row,
      status: 'failed',
      nextAttemptAt: null,
      attempt: { at: iso(ctx.now()), statusCode: null, error: 'endpoint disabled', response: null, durationMs: null },
      mark: { kind: 'none' },
      outcome: 'failed',
    };
  }
  let event: Event;
  if (preloaded) {
    const found = preloaded.events.get(row.event_id);
    if (!found) return 'lost';
    event = found;
  } else {
    try {
      event = await retrieveEvent(db, { businessId: row.business_id }, row.event_id);
    } catch (err) {
      if (err instanceof NotFound) return 'lost';
      throw err;
    }
  }
  const timeZone =
    endpoint.format === 'pluuug' ? ((await retrieveBusiness(db, row.business_id))?.timezone ?? 'UTC') : 'UTC';
  const body = deliveryBody(endpoint.format, event, timeZone);
  const secrets = signingSecrets(ctx.masterKey, endpoint, iso(ctx.now()));
  const result = await post(endpoint.url, body, deliveryHeaders(event.id, body, secrets, new Date()), {
    allowPrivate: ctx.allowPrivate,
    timeoutMs: ctx.timeoutMs ?? DELIVERY_TIMEOUT_MS,
    maxResponseBytes: MAX_RESPONSE_BYTES,
  });
  const now = ctx.now();
  const attempt = {
    at: iso(now),
    statusCode: result.statusCode,
    error: result.error,
    response: result.response,
    durationMs: result.durationMs,
  };
  if (result.error === null)
    return { row, status: 'succeeded', nextAttemptAt: null, attempt, mark: { kind: 'success' }, outcome: 'succeeded' };
  const delay = retryDelayMs(row.attempts);
  return {
    row,
    status: delay === undefined ? 'failed' : 'pending',
    nextAttemptAt: delay === undefined ? null : iso(now + delay),
    attempt,
    // no answer at all (a timeout, a connection that failed or dropped): a step towards the sick lane
    mark: {
      kind: 'failure',
      noAnswer: result.statusCode === null,
      failingSince: endpoint.failing_since,
      disableBefore: iso(now - DISABLE_AFTER_MS),
    },
    outcome: delay === undefined ? 'failed' : 'retried',
  };
}

/**
 * Slots to hand straight back to endpoints whose attempts succeeded, in the transaction that records them
 * ({@link recordAttempts}): the backlog pace of docs/webhooks.md#fairness-and-limits.
 */
export interface RefillOptions {
  owner: string;
  now: Timestamp;
  leaseUntil: Timestamp;
  /** Attempts without an answer in a row that make an endpoint sick (the normal lane is below it). */
  sickAfter: number;
  /** Attempts in flight of one business, across dispatchers and both lanes. */
  perBusiness: number;
  /** Most rows to claim in all (the caller's free slots in its normal lane, the freed ones included). */
  limit: number;
}

/** What {@link recordAttempts} did. */
export interface RecordResult {
  /** How each attempt ended, in order (`lost`: the lease was lost meanwhile, or the row is gone). */
  ends: DeliveryEnd[];
  /** Deliveries claimed by the refill (empty without one), oldest first per endpoint. */
  claimed: WebhookDeliveryRow[];
  /** Per attempt, in order: whether its slot went to a claimed row (the caller then needs no poll for it). */
  refilled: boolean[];
}

/**
 * Folds one attempt's mark into its endpoint's net mark (docs/webhooks.md#retries): a success sets
 * `last_success_at`, clears `failing_since` and the sick streak; a failure sets `failing_since` when it is
 * null and grows the streak by one when no answer came (else sets it to 0). Applied in the attempts' order,
 * the net mark equals the marks one by one.
 */
export function foldMark(
  marks: Map<number, repo.EndpointMark>,
  webhookId: number,
  mark: { at: Timestamp; noAnswer?: boolean },
): void {
  const m = marks.get(webhookId) ?? {
    webhookId,
    lastSuccessAt: null,
    failingSince: { mode: 'keep', at: null },
    sickStreak: { mode: 'add', n: 0 },
  };
  if (mark.noAnswer === undefined) {
    m.lastSuccessAt = mark.at;
    m.failingSince = { mode: 'set', at: null };
    m.sickStreak = { mode: 'set', n: 0 };
  } else {
    if (m.failingSince.mode === 'keep') m.failingSince = { mode: 'coalesce', at: mark.at };
    else if (m.failingSince.at === null) m.failingSince = { mode: 'set', at: mark.at };
    m.sickStreak = mark.noAnswer ? { mode: m.sickStreak.mode, n: m.sickStreak.n + 1 } : { mode: 'set', n: 0 };
  }
  marks.set(webhookId, m);
}

/**
 * Whether an endpoint marked `mark` (unanswered attempts: a sick streak grown or set) and left as `after`
 * ({@link repo.markEndpoints}) is to be {@link park}ed: its streak is at `parkAfter` or more, and either it is
 * not parked, or the streak was below `parkAfter` before these attempts (set anew in them, or crossing now).
 * An endpoint sick and parked before them had its queue emptied when it crossed (nothing is queued for a
 * parked endpoint since, but test pings, which parking keeps): its further timeouts write nothing more — so a
 * wave of a thousand timeouts of parked endpoints costs no statement per endpoint beyond its mark
 * (docs/webhooks.md#parking). A deleted endpoint (`after` undefined) is not parked.
 */
export function crossesParking(
  mark: repo.EndpointMark,
  after: repo.MarkedEndpoint | undefined,
  parkAfter: number,
): boolean {
  if (after === undefined || after.sickStreak < parkAfter) return false;
  if (after.parkedAfterEventId === null || mark.sickStreak.mode === 'set') return true;
  return after.sickStreak - mark.sickStreak.n < parkAfter;
}

/**
 * Writes attempts made by {@link makeAttempt}, in one transaction (one commit, one fsync on SQLite, for a
 * whole burst of attempts that ended together): each delivery ends or is rescheduled, its lease released
 * (only while `owner` holds it), and its endpoint is marked — a success clears `failing_since` and the sick
 * streak; a failure sets `failing_since`, grows the sick streak when no answer came and zeroes it when one
 * did, and disables an endpoint failing for {@link DISABLE_AFTER_MS} (unless a later attempt of the batch
 * succeeded). In a few statements however many attempts: the deliveries by {@link repo.finishAttempts}, the
 * endpoints' marks folded per endpoint ({@link foldMark}) and written by {@link repo.markEndpoints}, so a wave
 * of timeouts does not hold up the records of other endpoints' successes (docs/webhooks.md#fairness-and-limits).
 * With `parkAfter`, an endpoint whose streak of attempts without an answer reaches it is parked in the
 * same transaction ({@link park}, docs/webhooks.md#parking). Tells the attempt listeners (metrics).
 *
 * With `refill`, the same transaction hands the slots of the attempts that succeeded in the normal lane
 * (`item.lane`) straight back to their endpoints: up to that many of each endpoint's oldest due deliveries
 * are claimed ({@link repo.claimNextOfEndpoint}), so a backlog to one endpoint is not paced by polls. The
 * caps hold without counting the endpoint: its in-flight count was at most its cap with these attempts in
 * it, and as many leases are taken as were released. An endpoint whose business would reach its
 * `perBusiness` cap gets none (a poll then shares the business's slots fairly among its endpoints), nor
 * one that failed later in the batch; at most `refill.limit` rows in all.
 * @returns how each ended, and what the refill claimed
 * @throws database errors (nothing is written; the leases expire and later polls retry the rows)
 */
export async function recordAttempts(
  db: Db,
  owner: string,
  items: readonly AttemptToRecord[],
  refill?: RefillOptions,
  parkAfter?: number,
): Promise<RecordResult> {
  if (items.length === 0) return { ends: [], claimed: [], refilled: [] };
  // without waiting for the disk (docs/deployment.md#durability): attempts lost to a power cut are made again
  const result = await inRelaxedTransaction(db, async (trx) => {
    const ends: DeliveryEnd[] = [];
    /** Per endpoint that can be refilled: its items that freed a normal-lane slot with a success. */
    const freed = new Map<number, number[]>();
    const finished = await repo.finishAttempts(
      trx,
      owner,
      items.map((item) => ({
        id: item.row.id,
        status: item.status,
        attempt: item.attempt,
        nextAttemptAt: item.nextAttemptAt,
      })),
    );
    const marks = new Map<number, repo.EndpointMark>();
    /** Endpoints to disable (failing for too long) after their marks, with the failure's time and bound. */
    const disable = new Map<number, { at: Timestamp; before: Timestamp }>();
    for (const [i, item] of items.entries()) {
      const done = finished.has(item.row.id);
      const m = item.mark;
      const webhookId = item.row.webhook_id;
      if (m.kind !== 'none')
        foldMark(
          marks,
          webhookId,
          m.kind === 'success' ? { at: item.attempt.at } : { at: item.attempt.at, noAnswer: m.noAnswer },
        );
      if (m.kind === 'success') {
        disable.delete(webhookId);
        if (done && item.lane === 'normal') freed.set(webhookId, [...(freed.get(webhookId) ?? []), i]);
      } else {
        if (m.kind === 'failure' && m.failingSince !== null && m.failingSince < m.disableBefore)
          disable.set(webhookId, { at: item.attempt.at, before: m.disableBefore });
        freed.delete(webhookId);
      }
      ends.push(done ? item.outcome : 'lost');
    }
    const marked = await repo.markEndpoints(trx, [...marks.values()]);
    if (parkAfter !== undefined) {
      // endpoints that got no answer again: parked once their streak reaches the threshold (docs/webhooks.md#parking)
      for (const m of marks.values()) {
        if (m.sickStreak.n === 0 || !crossesParking(m, marked.get(m.webhookId), parkAfter)) continue;
        const item = items.find((it) => it.row.webhook_id === m.webhookId)!;
        await park(trx, item.row.business_id, m.webhookId, parkAfter);
      }
    }
    for (const [webhookId, d] of disable) await repo.disableFailingEndpoint(trx, webhookId, d.at, d.before);
    const claimed: WebhookDeliveryRow[] = [];
    const refilled = items.map(() => false);
    if (refill !== undefined) {
      for (const [webhookId, freedItems] of freed) {
        const want = Math.min(freedItems.length, refill.limit - claimed.length);
        if (want <= 0) break;
        // strictly below the business's cap: a business that would fill it shares its slots by a poll instead
        const rows = await repo.claimNextOfEndpoint(trx, {
          owner: refill.owner,
          now: refill.now,
          leaseUntil: refill.leaseUntil,
          webhookId,
          businessId: items[freedItems[0]!]!.row.business_id,
          limit: want,
          perBusiness: refill.perBusiness,
        });
        claimed.push(...rows);
        for (const i of freedItems.slice(0, rows.length)) refilled[i] = true;
      }
    }
    return { ends, claimed, refilled };
  });
  items.forEach((item, i) => {
    // an attempt whose request went out is counted even when its row was lost meanwhile
    if (result.ends[i] !== 'lost' || item.mark.kind !== 'none')
      emit(item.outcome, item.attempt.durationMs ?? undefined);
  });
  return result;
}

/**
 * Deletes the deliveries created more than `retentionDays` days before `now` (docs/webhooks.md#delivery:
 * kept 30 days), in batches. Safe to run from several processes at once.
 * @returns the number deleted
 */
export async function purgeDeliveries(
  db: Db,
  retentionDays: number = DELIVERY_RETENTION_DAYS,
  now: Date = new Date(),
): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000).toISOString();
  return deleteInBatches((limit) => repo.deleteCreatedBefore(db, cutoff, limit));
}

export { claimDue, releaseClaims } from './webhook-delivery.repository.ts';
