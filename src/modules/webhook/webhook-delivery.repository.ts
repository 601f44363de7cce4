/**
 * SQL for webhook deliveries (docs/webhooks.md#delivery): the endpoints a fan-out matches, the delivery
 * queue (insert, claim with a lease, end or reschedule an attempt), the endpoint's success / failure marks,
 * and the retention purge. The queue functions work across businesses (the deliveries are one queue) and
 * say so.
 */
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { inRelaxedTransaction } from '../../db/durability.ts';
import { isCitus } from '../../db/citus.ts';
import * as leaseQueue from '../../db/lease-queue.ts';
import { deleteCreatedBeforeByBusiness, isPostgres } from '../../db/sql-helpers.ts';
import type { Timestamp } from '../../db/columns.ts';
import type { NewWebhookDeliveryRow, WebhookDeliveryRow, WebhookEndpointRow } from '../../db/tables/webhook.table.ts';

/** An endpoint as the fan-out needs it. */
export type FanOutEndpointRow = Pick<
  WebhookEndpointRow,
  'id' | 'business_id' | 'event_types' | 'format' | 'after_event_id' | 'parked_after_event_id'
>;

/** The active endpoints of these businesses (for the fan-out), by id. */
export async function findActiveEndpoints(db: Db, businessIds: readonly number[]): Promise<FanOutEndpointRow[]> {
  if (businessIds.length === 0) return [];
  return db
    .selectFrom('webhook_endpoint')
    .select(['id', 'business_id', 'event_types', 'format', 'after_event_id', 'parked_after_event_id'])
    .where('business_id', 'in', [...businessIds])
    .where('is_active', '=', 1)
    .orderBy('id')
    .execute();
}

/**
 * PostgreSQL: a boolean SQL condition, true when an active endpoint of `businessId` may get a delivery of
 * one of the events `wanted` (docs/webhooks.md#fan-out) — its `event_types` name one of `wanted.types` or
 * `*`, and it is not a `pluuug` endpoint unless `wanted.pluuug` (an `inquiry.updated` that changes what
 * that format reports) — or is parked (counted as wanting every event: the fan-out's cursors decide what
 * it is owed). Evaluated once by the events' own INSERT (event.repository `insertPublishedUnlessListened`).
 * `wanted.types` empty: false.
 */
export function activeEndpointWantsSql(
  businessId: number,
  wanted: { types: readonly string[]; pluuug: boolean },
): RawBuilder<SqlBool> {
  if (wanted.types.length === 0) return sql<SqlBool>`false`;
  const types = sql.join(['*', ...wanted.types].map((t) => sql`cast(${t} as text)`));
  const format = wanted.pluuug ? sql`true` : sql`w.format <> 'pluuug'`;
  return sql<SqlBool>`exists (select 1 from webhook_endpoint w where w.business_id = ${businessId} and w.is_active and (w.parked_after_event_id is not null or (cast(w.event_types as jsonb) ?| array[${types}] and ${format})))`;
}

/**
 * `alias_w` (a `webhook_endpoint` row) wants the event `alias_e` (columns `type`, `changed_fields`), as
 * webhook-delivery.service `endpointWants` says in TypeScript: never `webhook.test`; `event_types` name the
 * type or `*`; a `pluuug` endpoint only an `inquiry.updated` that changes one of `pluuugFields`.
 */
function wantsSql(w: string, e: string, pluuugFields: readonly string[]): RawBuilder<SqlBool> {
  const [ew, ee] = [sql.raw(w), sql.raw(e)];
  const fields = sql.join(pluuugFields.map((f) => sql`cast(${f} as text)`));
  return sql<SqlBool>`(${ee}.type <> 'webhook.test' and cast(${ew}.event_types as jsonb) ?| array['*', ${ee}.type]
    and (${ew}.format <> 'pluuug' or (${ee}.type = 'inquiry.updated' and cast(${ee}.changed_fields as jsonb) ?| array[${fields}])))`;
}

/**
 * PostgreSQL: the SQL with which a write's events' INSERT writes their deliveries itself (event.repository
 * `DeliveriesAtInsertSql`; docs/webhooks.md#deliveries-written-by-the-write). The endpoints of `businessId`
 * that are active and want one of the events, or are parked, are read, `o.maxEndpoints + 1` at the most, and
 * locked `FOR KEY SHARE` (re-read at their latest version: a delete or a resumption under way is waited for,
 * one committed meanwhile is seen; the delivery's foreign key then never fails); when they are at most
 * `o.maxEndpoints`, `fan_plan.at_write` is true when each of them that is not parked has room for the events it
 * wants (fewer than `o.queueCap` deliveries not attempted yet with them); then `fan_deliveries` writes one
 * pending delivery, due at `o.at`, per event and endpoint not parked that wants it and was created before
 * it — what the fan-out would write. A parked endpoint gets none: it is owed the events, published by this
 * statement (a resumption, which locks the endpoint `FOR UPDATE`, reads them after this write has
 * committed). No endpoint: `at_write` is true and nothing is written. More endpoints, or a queue without
 * room: false, and the events go to the fan-out.
 */
export function deliveriesAtInsertSql(
  businessId: number,
  o: { at: Timestamp; maxEndpoints: number; queueCap: number; pluuugFields: readonly string[] },
): { before: RawBuilder<unknown>; after: RawBuilder<unknown> } {
  const b = sql`cast(${businessId} as bigint)`;
  const max = sql.lit(o.maxEndpoints);
  // one CTE reads and locks the endpoints (at most maxEndpoints + 1: enough to know there are too many): Citus
  // 13.2 fails the statement ("invalid input syntax for type bigint: \"PGCOPY\"", on the worker) when the CTE
  // with the row lock also reads another CTE that reads a table (a first CTE that only listed them, tried first)
  const before = sql`fan_mine as (
      select w.id, w.event_types, w.format, w.after_event_id, w.parked_after_event_id from webhook_endpoint w
      where w.business_id = ${b} and w.is_active
        and (w.parked_after_event_id is not null or exists (select 1 from v where ${wantsSql('w', 'v', o.pluuugFields)}))
      limit ${sql.lit(o.maxEndpoints + 1)}
      for key share of w),
    fan_plan as (
      select count(*) <= ${max} and coalesce(bool_and(m.parked_after_event_id is not null
        or (select count(*) from webhook_delivery q where q.business_id = ${b} and q.webhook_id = m.id and q.status = 'pending' and q.attempts = 0)
          + (select count(*) from v where ${wantsSql('m', 'v', o.pluuugFields)}) <= ${sql.lit(o.queueCap)}), true) as at_write
      from fan_mine m)`;
  const after = sql`fan_deliveries as (
      insert into webhook_delivery (business_id, webhook_id, event_id, status, next_attempt_at, created)
      select ${b}, m.id, ev.id, 'pending', cast(${o.at} as timestamptz), cast(${o.at} as timestamptz)
      from ev join fan_mine m on m.parked_after_event_id is null and ev.id > m.after_event_id and ${wantsSql('m', 'ev', o.pluuugFields)}
      where (select at_write from fan_plan)
      on conflict on constraint webhook_delivery_event_webhook_uq do nothing
      returning 1)`;
  return { before, after };
}

/**
 * The parking cursors of the endpoints `ids` of `businessIds` (docs/webhooks.md#parking), read again for
 * the fan-out's transaction: on PostgreSQL locked `FOR SHARE` — in one statement, or on Citus one business
 * per statement (docs/deployment.md#background-work-on-citus) — so a resumption ({@link lockResumable},
 * which locks the endpoint `FOR UPDATE`) and a fan-out that skips the endpoint's events never interleave:
 * the resumption then sees every event the fan-out published. On SQLite the transaction holds the write lock.
 * @param parked the parked endpoints' ids per business
 * @returns `parked_after_event_id` per endpoint id (`null`: no longer parked; absent: deleted)
 */
export async function lockParkedEndpoints(
  db: Db,
  parked: ReadonlyMap<number, readonly number[]>,
): Promise<Map<number, number | null>> {
  const out = new Map<number, number | null>();
  if (parked.size === 0) return out;
  const read = async (businessIds: readonly number[], ids: readonly number[]) => {
    let q = db
      .selectFrom('webhook_endpoint')
      .select(['id', 'parked_after_event_id'])
      .where('business_id', 'in', [...businessIds])
      .where('id', 'in', [...ids]);
    if (isPostgres(db)) q = q.forShare();
    for (const r of await q.execute())
      out.set(Number(r.id), r.parked_after_event_id === null ? null : Number(r.parked_after_event_id));
  };
  if (await isCitus(db)) for (const [businessId, ids] of parked) await read([businessId], ids);
  else await read([...parked.keys()], [...parked.values()].flat());
  return out;
}

/**
 * Inserts pending deliveries; one that exists already for its (event, endpoint) is left as it is.
 * @returns the ids of the rows inserted
 */
export async function insertDeliveries(db: Db, rows: readonly NewWebhookDeliveryRow[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const inserted = await db
    .insertInto('webhook_delivery')
    .values([...rows])
    // By the constraint's name on PostgreSQL: the same before and after migration 0060 added business_id to it.
    .onConflict((oc) =>
      (isPostgres(db)
        ? oc.constraint('webhook_delivery_event_webhook_uq')
        : oc.columns(['event_id', 'webhook_id'])
      ).doNothing(),
    )
    .returning('id')
    .execute();
  return inserted.map((r) => r.id);
}

/** An endpoint (any business) by id, or `undefined` (deleted). */
export async function findEndpointById(db: Db, id: number): Promise<WebhookEndpointRow | undefined> {
  return db.selectFrom('webhook_endpoint').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The endpoints (any business) with these ids, by id; deleted ones are absent. */
export async function findEndpointsByIds(db: Db, ids: readonly number[]): Promise<Map<number, WebhookEndpointRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('webhook_endpoint')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

// ── The dispatcher's queue (across businesses) ──

/** The deliveries as a lease queue (src/db/lease-queue.ts): a delivery is pending until it succeeds or fails. */
const DELIVERY_QUEUE: leaseQueue.LeaseTable = {
  table: 'webhook_delivery',
  pending: (c) => sql<SqlBool>`${c('status')} = 'pending'`,
};

/** Options of {@link claimDue}. */
export interface ClaimOptions extends leaseQueue.LeaseClaim {
  /** Largest number of rows to claim (the dispatcher's free slots in the lane). */
  limit: number;
  /** Only these businesses (undefined: all). */
  businessIds?: readonly number[];
  /**
   * The lane (docs/webhooks.md#fairness-and-limits): `normal` claims for endpoints whose `sick_streak` is
   * below `sickAfter`, `sick` for the others.
   */
  lane: 'normal' | 'sick';
  /** Attempts without an answer in a row that make an endpoint sick. */
  sickAfter: number;
  /** Attempts in flight to one endpoint, across dispatchers (the sick lane always allows 1). */
  perEndpoint: number;
  /**
   * Attempts in flight of one business, across dispatchers and both lanes (an endpoint has one lane at a
   * time, but attempts claimed before it became sick, or well again, are still in flight).
   */
  perBusiness: number;
}

/** A key of PostgreSQL's advisory locks that serialises the claims of every dispatcher (`pg_advisory_xact_lock`). */
const CLAIM_LOCK_KEY = 0x77686b31; // "whk1"

/**
 * The ids of the due deliveries to claim, fairly (docs/webhooks.md#fairness-and-limits). Due: pending,
 * `next_attempt_at <= now`, no live lease, of an endpoint of the lane. In flight: pending with a live lease,
 * counted per endpoint and per business (in both lanes: the business cap is one, whatever its endpoints'
 * lanes). Each endpoint gets at most its cap minus
 * what it has in flight (its oldest due rows), each business at most its cap minus its in-flight ones; the
 * rows are then taken round-robin across businesses (every business's first row, then every business's
 * second, …; oldest first within a round), so one business's backlog never fills the claim.
 */
function fairCandidates(db: Db, o: ClaimOptions) {
  const perEndpoint = o.lane === 'sick' ? 1 : o.perEndpoint;
  const inLaneOf = (alias: string) =>
    o.lane === 'sick'
      ? sql`${sql.ref(`${alias}.sick_streak`)} >= ${o.sickAfter}`
      : sql`${sql.ref(`${alias}.sick_streak`)} < ${o.sickAfter}`;
  const inLane = inLaneOf('e');
  const businesses =
    o.businessIds === undefined
      ? sql``
      : sql`and e.business_id in (${sql.join(o.businessIds.length > 0 ? [...o.businessIds] : [-1])})`;
  const leased = leaseQueue.inFlight(DELIVERY_QUEUE, o.now, 'd');
  // The businesses at their cap are left out first (a plain subquery over the leased rows), so a poll while
  // every noisy business is at its cap ranks only the others' rows.
  // The business cap counts its attempts in flight in both lanes.
  const capped = sql`
    select b.business_id from webhook_delivery b
    where ${leaseQueue.inFlight(DELIVERY_QUEUE, o.now, 'b')}
    group by b.business_id having count(*) >= ${o.perBusiness}`;
  // An endpoint's oldest due rows: PostgreSQL joins them laterally (an `in (…)` there becomes a subplan run
  // for every pending row); SQLite has no LATERAL, and runs the `in (…)` once per endpoint.
  const due = sql`x.business_id = e.business_id and x.webhook_id = e.id and ${leaseQueue.due(DELIVERY_QUEUE, o.now, 'x')}`;
  const oldestDue = isPostgres(db)
    ? sql`cross join lateral (
        select x.id, x.business_id, x.webhook_id, x.next_attempt_at from webhook_delivery x
        where ${due} order by x.next_attempt_at, x.id limit ${perEndpoint}) d`
    : sql`join webhook_delivery d on d.id in (
        select x.id from webhook_delivery x where ${due} order by x.next_attempt_at, x.id limit ${perEndpoint})`;
  // The rows that can matter: those being attempted (leased) and, of each endpoint of the lane, its oldest
  // due rows up to its cap (webhook_delivery_endpoint_due_idx; no endpoint can take more in one claim), not
  // every pending row. Then window functions only (no join on computed counts, which planners misjudge): in
  // flight per endpoint and per business, then the rank of each due row in its endpoint and, among those
  // that fit, in its business.
  return sql<leaseQueue.Candidate>`
    with pending as (
      select d.id, d.business_id, d.webhook_id, d.next_attempt_at, 1 as leased
      from webhook_delivery d join webhook_endpoint e on e.business_id = d.business_id and e.id = d.webhook_id
      where ${leased} ${businesses} and e.business_id not in (${capped})
      union all
      select d.id, d.business_id, d.webhook_id, d.next_attempt_at, 0 as leased
      from webhook_endpoint e ${oldestDue}
      where ${inLane} ${businesses} and e.business_id not in (${capped})
    ),
    ranked as (
      select id, business_id, next_attempt_at, leased,
        sum(leased) over (partition by webhook_id) as endpoint_busy,
        sum(leased) over (partition by business_id) as business_busy,
        row_number() over (partition by webhook_id, leased order by next_attempt_at, id) as endpoint_rank
      from pending
    ),
    fits_endpoint as (
      select id, business_id, next_attempt_at, endpoint_rank, business_busy,
        row_number() over (partition by business_id order by endpoint_rank, next_attempt_at, id) as business_rank
      from ranked
      where leased = 0 and endpoint_rank <= ${perEndpoint} - endpoint_busy and business_busy < ${o.perBusiness}
    )
    select id, business_id from fits_endpoint
    where business_rank <= ${o.perBusiness} - business_busy
    order by business_rank, next_attempt_at, id
    limit ${o.limit}`;
}

/**
 * Claims up to `limit` due deliveries of one lane fairly ({@link fairCandidates}) for `owner` until
 * `leaseUntil`, and counts the attempt. On PostgreSQL in one transaction: an advisory lock serialises the
 * claims of all dispatchers (so the in-flight counts the caps use are exact, not raced), and each business's
 * rows are locked `FOR UPDATE SKIP LOCKED` and claimed in a statement of their own (on Citus, on the
 * business's shard: docs/deployment.md#background-work-on-citus). On SQLite the candidates are read first, outside the write transaction
 * that then claims them (so the write lock is held only for the `UPDATE`). The `UPDATE`
 * repeats the due and lease conditions, so a row is never claimed twice. When nothing is due at all, only a
 * one-row read runs.
 * @returns the claimed rows (`lease_owner = owner`, `attempts` already incremented)
 */
export async function claimDue(db: Db, options: ClaimOptions): Promise<WebhookDeliveryRow[]> {
  if (options.limit <= 0) return [];
  if (options.lane === 'sick') {
    const sick = await db
      .selectFrom('webhook_endpoint')
      .select('id')
      .where('sick_streak', '>=', options.sickAfter)
      .limit(1)
      .executeTakeFirst();
    if (sick === undefined) return [];
  }
  if (!(await leaseQueue.anyDue(db, DELIVERY_QUEUE, options.now, options.businessIds))) return [];
  const postgres = isPostgres(db);
  // SQLite: the candidates are read before the write transaction, which then only updates (a reader never
  // blocks the API's writers; several processes on one file may then exceed a cap by a claim race).
  const early = postgres ? undefined : (await fairCandidates(db, options).execute(db)).rows;
  if (early?.length === 0) return [];
  // without waiting for the disk (docs/deployment.md#durability): a claim lost to a power cut is taken again
  return inRelaxedTransaction(db, async (trx) => {
    if (postgres) await sql`select pg_advisory_xact_lock(${CLAIM_LOCK_KEY})`.execute(trx);
    const candidates = early ?? (await fairCandidates(trx, options).execute(trx)).rows;
    // per business: its rows locked (one another transaction holds is skipped) and claimed in one statement
    // on its shard (docs/deployment.md#background-work-on-citus); the due and lease conditions again, so a
    // row is never claimed twice
    return leaseQueue.claim<WebhookDeliveryRow>(trx, DELIVERY_QUEUE, options, candidates);
  });
}

/** Options of {@link claimNextOfEndpoint}. */
export interface EndpointClaimOptions extends leaseQueue.LeaseClaim {
  /** The endpoint whose due deliveries to claim. */
  webhookId: number;
  /** Its business. */
  businessId: number;
  /** Largest number of rows to claim. */
  limit: number;
  /** Claim nothing when the business's attempts in flight (both lanes), plus `limit`, would pass `perBusiness`. */
  perBusiness: number;
}

/**
 * Claims up to `limit` of one endpoint's oldest due deliveries (pending, `next_attempt_at <= now`, no live
 * lease; webhook_delivery_endpoint_due_idx) for `owner` until `leaseUntil`, and counts the attempt — unless
 * its business's attempts in flight (any dispatcher, both lanes; read through webhook_delivery_leased_idx)
 * plus `limit` would pass `perBusiness`. The endpoint's own cap is not
 * counted: the caller hands over slots its finished attempts freed in the same transaction
 * ({@link recordAttempts}'s refill). One statement; PostgreSQL locks the rows `FOR UPDATE SKIP LOCKED`; the
 * `UPDATE` repeats the due and lease conditions, so a row is never claimed twice.
 * @returns the claimed rows (`attempts` already incremented), oldest first
 */
export async function claimNextOfEndpoint(db: Db, o: EndpointClaimOptions): Promise<WebhookDeliveryRow[]> {
  if (o.limit <= 0) return [];
  // the unary plus keeps the business's index out of the count on SQLite (it would walk every delivery of
  // the business): the rows in flight are few. PostgreSQL gets the plain column, which Citus needs to run the
  // statement on the business's shard alone.
  const busy = sql`(select count(*) from webhook_delivery b
    where ${leaseQueue.inFlight(DELIVERY_QUEUE, o.now, 'b')} and ${isPostgres(db) ? sql`b.business_id` : sql`+b.business_id`} = ${o.businessId})`;
  const candidates = leaseQueue.oldestDue(DELIVERY_QUEUE, o.now, o.limit, {
    businessIds: [o.businessId],
    and: sql<SqlBool>`webhook_id = ${o.webhookId} and ${busy} + ${o.limit} < ${o.perBusiness}`,
  });
  return leaseQueue.claimOfBusiness<WebhookDeliveryRow>(db, DELIVERY_QUEUE, o, o.businessId, candidates);
}

/** What an attempt left behind. */
export interface AttemptRecord {
  at: Timestamp;
  statusCode: number | null;
  error: string | null;
  response: string | null;
  durationMs: number | null;
}

/**
 * Ends or reschedules a claimed delivery after an attempt, and releases its lease (only while `owner`
 * holds it): `status` `succeeded` or `failed` ends it (`next_attempt_at` null), `pending` makes it due
 * again at `nextAttemptAt`.
 * @returns whether the row was updated (false: the lease was lost, or the row is gone)
 */
export async function finishAttempt(
  db: Db,
  id: number,
  owner: string,
  status: 'succeeded' | 'failed' | 'pending',
  attempt: AttemptRecord,
  nextAttemptAt: Timestamp | null,
): Promise<boolean> {
  const r = await db
    .updateTable('webhook_delivery')
    .set({
      status,
      next_attempt_at: status === 'pending' ? nextAttemptAt : null,
      lease_owner: null,
      lease_until: null,
      last_status_code: attempt.statusCode,
      last_error: attempt.error?.slice(0, 2000) ?? null,
      last_response: attempt.response,
      last_duration_ms: attempt.durationMs,
      last_attempt_at: attempt.at,
    })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** One attempt's end for {@link finishAttempts}: the delivery, its new status, what the attempt left, and when it is due again. */
export interface AttemptEnd {
  id: number;
  status: 'succeeded' | 'failed' | 'pending';
  attempt: AttemptRecord;
  /** When a `pending` delivery is due again (ignored for the other statuses). */
  nextAttemptAt: Timestamp | null;
}

/**
 * {@link finishAttempt} for several attempts at once. On PostgreSQL one statement (`UPDATE … FROM unnest(…)`:
 * one round trip however many attempts ended together); on SQLite one cached statement per attempt, which
 * costs no round trip.
 * @returns the ids of the rows updated (missing: the lease was lost, or the row is gone)
 */
export async function finishAttempts(db: Db, owner: string, ends: readonly AttemptEnd[]): Promise<Set<number>> {
  if (!isPostgres(db) || ends.length === 1) {
    const done = new Set<number>();
    for (const e of ends)
      if (await finishAttempt(db, e.id, owner, e.status, e.attempt, e.nextAttemptAt)) done.add(e.id);
    return done;
  }
  const column = <T>(f: (e: AttemptEnd) => T) => ends.map(f);
  const { rows } = await sql<{ id: number }>`
    update webhook_delivery d set
      status = v.status, next_attempt_at = v.next_attempt_at, lease_owner = null, lease_until = null,
      last_status_code = v.status_code, last_error = v.error, last_response = v.response,
      last_duration_ms = v.duration_ms, last_attempt_at = v.attempt_at
    from unnest(
      ${column((e) => e.id)}::int8[], ${column((e) => e.status)}::text[],
      ${column((e) => (e.status === 'pending' ? e.nextAttemptAt : null))}::timestamptz[],
      ${column((e) => e.attempt.statusCode)}::int4[], ${column((e) => e.attempt.error?.slice(0, 2000) ?? null)}::text[],
      ${column((e) => e.attempt.response)}::text[], ${column((e) => e.attempt.durationMs)}::int4[],
      ${column((e) => e.attempt.at)}::timestamptz[]
    ) as v(id, status, next_attempt_at, status_code, error, response, duration_ms, attempt_at)
    where d.id = v.id and d.lease_owner = ${owner}
    returning d.id`.execute(db);
  return new Set(rows.map((r) => Number(r.id)));
}

/**
 * Gives claimed rows back untouched (a dispatcher stopping before it started them): lease released, the
 * attempt the claim counted taken back.
 */
export async function releaseClaims(db: Db, owner: string, ids: readonly number[]): Promise<void> {
  await leaseQueue.release(db, DELIVERY_QUEUE, owner, ids);
}

/**
 * The net change of one endpoint's health columns after a run of attempts (folded by the caller, in the
 * attempts' order): `lastSuccessAt` set when not null; `failingSince` kept (`keep`), set to `at` (`set`:
 * `null` after a success), or set to `at` when still null (`coalesce`: failures only); `sickStreak` set to
 * `n` (`set`) or grown by `n` (`add`).
 */
export interface EndpointMark {
  webhookId: number;
  lastSuccessAt: Timestamp | null;
  failingSince: { mode: 'keep' | 'set' | 'coalesce'; at: Timestamp | null };
  sickStreak: { mode: 'set' | 'add'; n: number };
}

/** An endpoint after its mark ({@link markEndpoints}): its sick streak and parking cursor as written. */
export interface MarkedEndpoint {
  sickStreak: number;
  parkedAfterEventId: number | null;
}

/**
 * Writes endpoints' health marks ({@link EndpointMark}): on PostgreSQL one statement for all of them
 * (`UPDATE … FROM unnest(…)`: a wave of a thousand timeouts is one round trip), on SQLite one cached
 * statement per endpoint.
 * @returns per endpoint id, its sick streak and parking cursor after the write (a deleted endpoint is absent):
 *   the caller parks an endpoint only when its streak crosses the threshold (docs/webhooks.md#parking)
 */
export async function markEndpoints(db: Db, marks: readonly EndpointMark[]): Promise<Map<number, MarkedEndpoint>> {
  const marked = new Map<number, MarkedEndpoint>();
  if (marks.length === 0) return marked;
  type Returned = { id: number | string; sick_streak: number | string; parked_after_event_id: number | string | null };
  const note = (rows: readonly Returned[]) => {
    for (const r of rows) {
      marked.set(Number(r.id), {
        sickStreak: Number(r.sick_streak),
        parkedAfterEventId: r.parked_after_event_id === null ? null : Number(r.parked_after_event_id),
      });
    }
  };
  const returning = sql`returning webhook_endpoint.id, webhook_endpoint.sick_streak, webhook_endpoint.parked_after_event_id`;
  const sorted = [...marks].sort((a, b) => a.webhookId - b.webhookId); // one lock order: no deadlock between writers
  const set = (v: string) => sql`
    last_success_at = coalesce(${sql.raw(v)}.last_success_at, webhook_endpoint.last_success_at),
    failing_since = case ${sql.raw(v)}.fs_mode when 'keep' then webhook_endpoint.failing_since
      when 'coalesce' then coalesce(webhook_endpoint.failing_since, ${sql.raw(v)}.fs_at) else ${sql.raw(v)}.fs_at end,
    sick_streak = case ${sql.raw(v)}.streak_mode when 'set' then ${sql.raw(v)}.streak_n else webhook_endpoint.sick_streak + ${sql.raw(v)}.streak_n end`;
  if (isPostgres(db)) {
    const column = <T>(f: (m: EndpointMark) => T) => sorted.map(f);
    const { rows } = await sql<Returned>`
      update webhook_endpoint set ${set('v')}
      from unnest(
        ${column((m) => m.webhookId)}::int8[], ${column((m) => m.lastSuccessAt)}::timestamptz[],
        ${column((m) => m.failingSince.mode)}::text[], ${column((m) => m.failingSince.at)}::timestamptz[],
        ${column((m) => m.sickStreak.mode)}::text[], ${column((m) => m.sickStreak.n)}::int4[]
      ) as v(id, last_success_at, fs_mode, fs_at, streak_mode, streak_n)
      where webhook_endpoint.id = v.id ${returning}`.execute(db);
    note(rows);
    return marked;
  }
  for (const m of sorted) {
    const { rows } = await sql<Returned>`
      update webhook_endpoint set ${set('v')}
      from (select ${m.lastSuccessAt} as last_success_at, ${m.failingSince.mode} as fs_mode, ${m.failingSince.at} as fs_at,
        ${m.sickStreak.mode} as streak_mode, ${m.sickStreak.n} as streak_n) as v
      where webhook_endpoint.id = ${m.webhookId} ${returning}`.execute(db);
    note(rows);
  }
  return marked;
}

/**
 * Disables the active endpoint `webhookId` when it has been failing since before `disableBefore`
 * (`is_active = 0`, `updated = at`; docs/webhooks.md#retries).
 * @returns whether this call disabled it
 */
export async function disableFailingEndpoint(
  db: Db,
  webhookId: number,
  at: Timestamp,
  disableBefore: Timestamp,
): Promise<boolean> {
  const r = await db
    .updateTable('webhook_endpoint')
    .set({ is_active: 0, updated: at })
    .where('id', '=', webhookId)
    .where('is_active', '=', 1)
    .where('failing_since', '<', disableBefore)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

// ── Parking (docs/webhooks.md#parking) ──

/**
 * The endpoint `webhookId` of `businessId` when it is active and its streak of attempts without an answer is
 * at `sickAfter` or more (to be parked, or parked already: docs/webhooks.md#parking), with its cursor; else
 * `undefined`.
 */
export async function findSick(
  db: Db,
  businessId: number,
  webhookId: number,
  sickAfter: number,
): Promise<{ parked: number | null } | undefined> {
  const row = await db
    .selectFrom('webhook_endpoint')
    .select('parked_after_event_id')
    .where('business_id', '=', businessId)
    .where('id', '=', webhookId)
    .where('is_active', '=', 1)
    .where('sick_streak', '>=', sickAfter)
    .executeTakeFirst();
  return row && { parked: row.parked_after_event_id === null ? null : Number(row.parked_after_event_id) };
}

/** The endpoint's deliveries not attempted yet (pending, `attempts = 0`, no lease): ids and events. */
export async function findUnattempted(
  db: Db,
  businessId: number,
  webhookId: number,
): Promise<{ id: number; event_id: number }[]> {
  return db
    .selectFrom('webhook_delivery')
    .select(['id', 'event_id'])
    .where('business_id', '=', businessId)
    .where('webhook_id', '=', webhookId)
    .where('status', '=', 'pending')
    .where('attempts', '=', 0)
    .where('lease_until', 'is', null)
    .execute();
}

/**
 * Per endpoint of `webhookIds` (all of `businessIds`: one business, or the businesses of a fan-out round, in
 * one statement), its deliveries not attempted yet (pending, `attempts = 0`), counted: the fan-out's queue
 * cap (docs/webhooks.md#parking). The cap keeps the rows counted few.
 */
export async function countUnattempted(
  db: Db,
  businessIds: number | readonly number[],
  webhookIds: readonly number[],
): Promise<Map<number, number>> {
  if (webhookIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('webhook_delivery')
    .select((eb) => ['webhook_id', eb.fn.countAll<number | string>().as('n')])
    .where('business_id', 'in', typeof businessIds === 'number' ? [businessIds] : [...businessIds])
    .where('webhook_id', 'in', [...webhookIds])
    .where('status', '=', 'pending')
    .where('attempts', '=', 0)
    .groupBy('webhook_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.webhook_id), Number(r.n)]));
}

/**
 * Parks the endpoint `webhookId` of `businessId` at `cursor` unless it is parked already (the fan-out's
 * queue cap: docs/webhooks.md#parking). On PostgreSQL the `UPDATE` locks the row until the transaction ends,
 * like a resumption's lock.
 * @returns the endpoint's cursor after the call (its own when it was parked already), or `undefined` when it is gone
 */
export async function parkAt(
  db: Db,
  businessId: number,
  webhookId: number,
  cursor: number,
): Promise<number | undefined> {
  await db
    .updateTable('webhook_endpoint')
    .set({ parked_after_event_id: cursor })
    .where('business_id', '=', businessId)
    .where('id', '=', webhookId)
    .where('parked_after_event_id', 'is', null)
    .execute();
  const row = await db
    .selectFrom('webhook_endpoint')
    .select('parked_after_event_id')
    .where('business_id', '=', businessId)
    .where('id', '=', webhookId)
    .executeTakeFirst();
  return row?.parked_after_event_id == null ? undefined : Number(row.parked_after_event_id);
}

/** An endpoint to park at the fan-out's queue cap ({@link parkMany}). */
export interface ParkAt {
  businessId: number;
  webhookId: number;
  /** Its cursor: the id of the last event it gets a delivery of now. */
  cursor: number;
}

/**
 * {@link parkAt} for several endpoints (`parks`, in id order: the order in which the attempts' marks lock
 * endpoints, so the two never deadlock on PostgreSQL): on SQLite and plain PostgreSQL in two statements
 * however many (an `UPDATE` of those not parked yet — `FROM unnest(…)` on PostgreSQL, a `CASE` on SQLite —
 * then a read of every cursor), on
 * Citus {@link parkAt} one endpoint at a time (each on its business's shard).
 * @returns the cursor of each endpoint after the call (its own when it was parked already); a deleted one is absent
 */
export async function parkMany(db: Db, parks: readonly ParkAt[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (parks.length === 0) return out;
  if (await isCitus(db)) {
    for (const p of parks) {
      const cursor = await parkAt(db, p.businessId, p.webhookId, p.cursor);
      if (cursor !== undefined) out.set(p.webhookId, cursor);
    }
    return out;
  }
  if (isPostgres(db)) {
    await sql`update webhook_endpoint set parked_after_event_id = v.cursor
      from unnest(${parks.map((p) => p.businessId)}::int8[], ${parks.map((p) => p.webhookId)}::int8[], ${parks.map((p) => p.cursor)}::int8[]) as v(business_id, id, cursor)
      where webhook_endpoint.business_id = v.business_id and webhook_endpoint.id = v.id and webhook_endpoint.parked_after_event_id is null`.execute(
      db,
    );
  } else {
    const cursorOf = sql.join(
      parks.map((p) => sql`when ${p.webhookId} then ${p.cursor}`),
      sql` `,
    );
    await sql`update webhook_endpoint set parked_after_event_id = case id ${cursorOf} end
      where id in (${sql.join(parks.map((p) => p.webhookId))}) and parked_after_event_id is null`.execute(db);
  }
  const rows = await db
    .selectFrom('webhook_endpoint')
    .select(['id', 'parked_after_event_id'])
    .where('business_id', 'in', [...new Set(parks.map((p) => p.businessId))])
    .where(
      'id',
      'in',
      parks.map((p) => p.webhookId),
    )
    .execute();
  for (const r of rows) if (r.parked_after_event_id !== null) out.set(Number(r.id), Number(r.parked_after_event_id));
  return out;
}

/** Deletes the business's deliveries `ids`. */
export async function deleteDeliveries(db: Db, businessId: number, ids: readonly number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    await db
      .deleteFrom('webhook_delivery')
      .where('business_id', '=', businessId)
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
  }
}

/** A parked endpoint that may be resumed ({@link findResumable}). */
export type ResumableEndpointRow = Pick<WebhookEndpointRow, 'id' | 'business_id'>;

/**
 * Parked active endpoints (any business, or only `businessIds`') that answer again (sick streak below
 * `sickAfter`: an attempt got an answer, or the endpoint was resumed through the API) and whose deliveries
 * not attempted yet are fewer than `maxPending` (webhook_delivery_endpoint_due_idx): the owed events are
 * written as the queue drains, never all at once. At most `limit`; a read without locks.
 */
export async function findResumable(
  db: Db,
  o: { sickAfter: number; maxPending: number; limit: number; businessIds?: readonly number[] },
): Promise<ResumableEndpointRow[]> {
  const businesses =
    o.businessIds === undefined
      ? sql``
      : sql`and e.business_id in (${sql.join(o.businessIds.length > 0 ? [...o.businessIds] : [-1])})`;
  const { rows } = await sql<ResumableEndpointRow>`
    select e.id, e.business_id from webhook_endpoint e
    where e.parked_after_event_id is not null and e.is_active = ${1} and e.sick_streak < ${o.sickAfter} ${businesses}
      and (select count(*) from (select 1 from webhook_delivery d where d.business_id = e.business_id and d.webhook_id = e.id and d.status = 'pending'
        and d.attempts = 0 limit ${o.maxPending}) p) < ${o.maxPending}
    order by e.id limit ${o.limit}`.execute(db);
  return rows.map((r) => ({ id: Number(r.id), business_id: Number(r.business_id) }));
}

/** A parked endpoint, locked for {@link resumeChunk}'s transaction. */
export type ParkedEndpointRow = Pick<
  WebhookEndpointRow,
  'id' | 'business_id' | 'event_types' | 'format' | 'after_event_id' | 'parked_after_event_id'
>;

/**
 * The endpoint `webhookId` of `businessId` when it is still parked, active and answering (sick streak below
 * `sickAfter`), locked `FOR UPDATE` on PostgreSQL until the caller's transaction ends (the fan-outs that
 * skip its events wait, and are waited for: {@link lockParkedEndpoints}); else `undefined`.
 */
export async function lockResumable(
  db: Db,
  businessId: number,
  webhookId: number,
  sickAfter: number,
): Promise<ParkedEndpointRow | undefined> {
  let q = db
    .selectFrom('webhook_endpoint')
    .select(['id', 'business_id', 'event_types', 'format', 'after_event_id', 'parked_after_event_id'])
    .where('business_id', '=', businessId)
    .where('id', '=', webhookId)
    .where('is_active', '=', 1)
    .where('sick_streak', '<', sickAfter)
    .where('parked_after_event_id', 'is not', null);
  if (isPostgres(db)) q = q.forUpdate();
  return q.executeTakeFirst();
}

/** Moves a parked endpoint's cursor to `cursor`, or unparks it (`null`). */
export async function setParkedCursor(
  db: Db,
  businessId: number,
  webhookId: number,
  cursor: number | null,
): Promise<void> {
  await db
    .updateTable('webhook_endpoint')
    .set({ parked_after_event_id: cursor })
    .where('business_id', '=', businessId)
    .where('id', '=', webhookId)
    .execute();
}

/** Deletes up to `limit` deliveries (any business) created before `before`; returns how many. */
export async function deleteCreatedBefore(db: Db, before: Timestamp, limit: number): Promise<number> {
  // read across businesses, deleted one business per statement (on Citus, each on its shard)
  return deleteCreatedBeforeByBusiness(db, 'webhook_delivery', before, limit);
}
