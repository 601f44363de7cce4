/** SQL for change events (docs/api.md#events). */
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { isCitus } from '../../db/citus.ts';
import { deleteCreatedBeforeByBusiness, idsByBusiness, isPostgres } from '../../db/sql-helpers.ts';
import type { Db } from '../../db/database.ts';
import type { Timestamp } from '../../db/columns.ts';
import type { NewEventRow } from '../../db/tables/event.table.ts';
import { type CursorPosition, fetchPage, newestFirst, type OrderColumn, type Page } from '../../shared/pagination.ts';

const columns = ['id', 'type', 'created', 'changed_fields', 'data', 'parent_type', 'parent_id', 'sequence'] as const;

/**
 * An event row as the API reads it (`changed_fields`, `data`: JSON text; `parent_type` / `parent_id` both
 * null for an event that is no note's; `sequence` null until {@link assignSequences} gave it one).
 */
export interface EventRow {
  id: number;
  type: string;
  created: Timestamp;
  changed_fields: string;
  data: string;
  parent_type: string | null;
  parent_id: number | null;
  sequence: number | null;
}

/** Inserts an event (its `sequence` null unless given: {@link takeSequences}); returns its id. */
export async function insert(db: Db, businessId: number, row: Omit<NewEventRow, 'business_id'>): Promise<number> {
  const { id } = await db
    .insertInto('event')
    .values({ ...row, business_id: businessId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Stamps `published_at` on the events `ids` (any business) that have none yet. */
export async function markPublished(db: Db, ids: readonly number[], at: Timestamp): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('event')
    .set({ published_at: at })
    .where('id', 'in', [...ids])
    .where('published_at', 'is', null)
    .execute();
}

/** An unpublished event as the webhook fan-out reads it (`changed_fields`, `data`: JSON text). */
export interface UnpublishedEventRow extends EventRow {
  business_id: number;
}

/**
 * The business's events fanned out already (`published_at` set) with an id above `afterId`, in id order, at
 * most `limit`: what a parked webhook endpoint is owed (docs/webhooks.md#parking).
 */
export async function findPublishedAfter(
  db: Db,
  businessId: number,
  afterId: number,
  limit: number,
): Promise<{ id: number; type: string; changed_fields: string }[]> {
  return db
    .selectFrom('event')
    .select(['id', 'type', 'changed_fields'])
    .where('business_id', '=', businessId)
    .where('id', '>', afterId)
    .where('published_at', 'is not', null)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * The business's sequenced events with a sequence above `afterSequence` and an id above `afterId`, oldest
 * first by sequence, at most `limit` (event_business_sequence_idx): what a webhook replay reads
 * (docs/webhooks.md#replay). `types` keeps those types (undefined: every type); `webhook.test` is never read.
 */
export async function findSequencedAfter(
  db: Db,
  businessId: number,
  o: { afterSequence: number; afterId: number; types: readonly string[] | undefined; limit: number },
): Promise<{ id: number; type: string; changed_fields: string; sequence: number }[]> {
  if (o.types !== undefined && o.types.length === 0) return [];
  let q = db
    .selectFrom('event')
    .select(['id', 'type', 'changed_fields', 'sequence'])
    .where('business_id', '=', businessId)
    .where('sequence', '>', o.afterSequence)
    .where('id', '>', o.afterId)
    .where('type', '!=', 'webhook.test');
  if (o.types !== undefined) q = q.where('type', 'in', [...o.types]);
  const rows = await q.orderBy('sequence').limit(o.limit).execute();
  return rows.map((r) => ({
    id: Number(r.id),
    type: r.type,
    changed_fields: r.changed_fields,
    sequence: Number(r.sequence),
  }));
}

/** The highest event id of a business (0 without events). */
export async function findLatestIdOf(db: Db, businessId: number): Promise<number> {
  const row = await db
    .selectFrom('event')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('business_id', '=', businessId)
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** Of the business's events `ids`, those of type `type`. */
export async function findIdsOfType(
  db: Db,
  businessId: number,
  ids: readonly number[],
  type: string,
): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('event')
    .select('id')
    .where('business_id', '=', businessId)
    .where('id', 'in', [...ids])
    .where('type', '=', type)
    .execute();
  return rows.map((r) => Number(r.id));
}

/** Whether any event (any business, or only `businessIds`') is unpublished: a one-row read of `event_unpublished_idx`. */
export async function anyUnpublished(db: Db, businessIds: readonly number[] | undefined): Promise<boolean> {
  let q = db.selectFrom('event').select('id').where('published_at', 'is', null);
  if (businessIds) q = q.where('business_id', 'in', businessIds.length > 0 ? [...businessIds] : [-1]);
  return (await q.limit(1).executeTakeFirst()) !== undefined;
}

/**
 * Claims up to `limit` unpublished events (any business, or only `businessIds`) for the caller's
 * transaction, **per business in turn** (docs/webhooks.md#fairness-and-limits): every business's oldest
 * unpublished event, then every business's second, …, so that one business writing fast never fills a
 * fan-out. The ranking reads only unpublished rows (`event_unpublished_idx`). On PostgreSQL the chosen rows
 * are locked `FOR UPDATE SKIP LOCKED`, so concurrent fan-outs take disjoint events without waiting: in the
 * statement that ranks them (one statement for every business), or on Citus one statement per business
 * after the ranking (no row lock across businesses in one statement there: each runs on one shard,
 * docs/deployment.md#background-work-on-citus); on SQLite the transaction holds the write lock.
 * @returns the claimed events, oldest first within each business
 */
export async function claimUnpublished(
  trx: Db,
  limit: number,
  businessIds: readonly number[] | undefined,
): Promise<UnpublishedEventRow[]> {
  const ofBusinesses =
    businessIds === undefined
      ? sql``
      : sql`and business_id in (${sql.join(businessIds.length > 0 ? [...businessIds] : [-1])})`;
  const inTurns = sql`select id, business_id from (
      select id, business_id, row_number() over (partition by business_id order by id) as turn
      from event where published_at is null ${ofBusinesses}
    ) x order by turn, id limit ${limit}`;
  if (!(await isCitus(trx))) {
    // one statement for every business (SQLite, plain PostgreSQL): a round of fifty businesses is one round trip
    const list = sql.join(columns.map((c) => sql.ref(`e.${c}`)));
    const { rows } = await sql<UnpublishedEventRow>`
      select ${list}, e.business_id from event e join (${inTurns}) c on c.business_id = e.business_id and c.id = e.id
      where e.published_at is null order by e.id ${isPostgres(trx) ? sql`for update of e skip locked` : sql``}`.execute(
      trx,
    );
    return rows.map((r) => ({ ...r, id: Number(r.id), business_id: Number(r.business_id) }));
  }
  const { rows: chosen } = await sql<{ id: number; business_id: number }>`${inTurns}`.execute(trx);
  if (chosen.length === 0) return [];
  const byBusiness = new Map<number, number[]>();
  for (const r of chosen)
    byBusiness.set(Number(r.business_id), [...(byBusiness.get(Number(r.business_id)) ?? []), Number(r.id)]);
  const claimed: UnpublishedEventRow[] = [];
  for (const [businessId, ids] of byBusiness) {
    let q = trx
      .selectFrom('event')
      .select([...columns, 'business_id'])
      .where('business_id', '=', businessId)
      .where('id', 'in', ids)
      .where('published_at', 'is', null)
      .orderBy('id');
    if (isPostgres(trx)) q = q.forUpdate().skipLocked();
    claimed.push(...(await q.execute()));
  }
  return claimed;
}

/**
 * List filters; `createdFrom` / `createdTo` are a half-open UTC range; `afterSequence`: only events with a
 * greater sequence, and the page is then oldest first (by sequence).
 */
export interface EventFilter {
  types: readonly string[];
  createdFrom?: string;
  createdTo?: string;
  afterSequence?: number;
}

/**
 * Oldest first by `sequence` (unique: the keyset needs no tie-breaker). One column, so that a cursor of the
 * newest-first order (two values) is refused by this one and the other way round.
 */
const bySequence: OrderColumn<EventRow>[] = [{ ref: 'event.sequence', key: 'sequence', direction: 'asc' }];

/**
 * One page of the business's sequenced events (an event without a sequence yet is never listed): newest
 * first, or oldest first by sequence when `filter.afterSequence` is given.
 * @throws InvalidCursor for a cursor of the other order
 */
export async function findPage(
  db: Db,
  businessId: number,
  filter: EventFilter,
  size: number,
  cursor: CursorPosition | undefined,
): Promise<Page<EventRow>> {
  let q = db.selectFrom('event').select(columns).where('business_id', '=', businessId);
  if (filter.types.length > 0) q = q.where('type', 'in', [...filter.types]);
  if (filter.createdFrom !== undefined) q = q.where('created', '>=', filter.createdFrom);
  if (filter.createdTo !== undefined) q = q.where('created', '<', filter.createdTo);
  if (filter.afterSequence !== undefined) {
    return fetchPage(q.where('sequence', '>', filter.afterSequence), bySequence, size, cursor);
  }
  return fetchPage(q.where('sequence', 'is not', null), newestFirst<EventRow>('event'), size, cursor);
}
/** Whether any event (any business) waits for a sequence: one read of the partial index `event_unsequenced_idx`. */
export async function hasUnsequenced(db: Db): Promise<boolean> {
  return (
    (await db.selectFrom('event').select('id').where('sequence', 'is', null).limit(1).executeTakeFirst()) !== undefined
  );
}

/**
 * Gives up to `limit` visible events without a sequence (any business) the sequences after the counter's
 * `last_value`, in id order, and moves the counter; returns how many. The events are read across
 * businesses first, then numbered one business per statement (`UPDATE … WHERE business_id = … AND id IN
 * (…)`): on Citus each runs on the business's shard, and no statement locks rows of several businesses
 * (docs/deployment.md#background-work-on-citus). Run by the caller in a transaction that holds the
 * assigners' lock (so no other assigner reads the same events meanwhile).
 */
export async function assignNextSequences(trx: Db, limit: number): Promise<number> {
  const counter = await trx
    .selectFrom('event_sequence')
    .select('last_value')
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  const base = Number(counter.last_value);
  const rows = await trx
    .selectFrom('event')
    .select(['business_id', 'id'])
    .where('sequence', 'is', null)
    .orderBy('id')
    .limit(limit)
    .execute();
  if (rows.length === 0) return 0;
  const sequenceOf = new Map(rows.map((r, i) => [Number(r.id), base + i + 1]));
  let n = 0;
  for (const [businessId, ids] of idsByBusiness(rows)) {
    // a searched CASE: Citus deparses `CASE id WHEN $1` for the worker as a comparison of id with a boolean
    const numbered = sql<number>`case ${sql.join(
      ids.map((id) => sql`when id = ${id} then cast(${sequenceOf.get(id)!} as bigint)`),
      sql` `,
    )} end`;
    const result = await trx
      .updateTable('event')
      .set({ sequence: numbered })
      .where('business_id', '=', businessId)
      .where('id', 'in', ids)
      .where('sequence', 'is', null)
      .executeTakeFirst();
    n += Number(result.numUpdatedRows);
  }
  // the counter moves past every number handed out (under the lock no other assigner numbers these events)
  await trx
    .updateTable('event_sequence')
    .set({ last_value: base + rows.length })
    .where('id', '=', 1)
    .execute();
  return n;
}

/** Takes the assigners' lock on PostgreSQL for the rest of the transaction `trx` (SQLite: `BEGIN IMMEDIATE` holds it). */
export async function lockAssigners(trx: Db): Promise<void> {
  if (isPostgres(trx)) {
    await sql`select pg_advisory_xact_lock(${ASSIGNER_LOCK_KEY})`.execute(trx);
  }
}

/** The advisory lock key of the sequence assigners (PostgreSQL; any constant other locks do not use). */
const ASSIGNER_LOCK_KEY = 0x65767371; // "evsq"

/** An event of the business, or `undefined`. */
export async function findById(db: Db, businessId: number, id: number): Promise<EventRow | undefined> {
  return db
    .selectFrom('event')
    .select(columns)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * The events with these ids, of any business, each with its `business_id` (the webhook dispatcher reads the
 * events of a claimed chunk of deliveries, across businesses, at once; its caller checks each event's business).
 */
export async function findByIdsAcrossBusinesses(
  db: Db,
  ids: readonly number[],
): Promise<(EventRow & { business_id: number })[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('event')
    .select([...columns, 'business_id'])
    .where('id', 'in', [...ids])
    .execute();
}

/**
 * Deletes up to `limit` events (any business) created before `before`; returns how many. The retention purge
 * (all businesses at once: the `event_created_idx` index serves it).
 */
export async function deleteCreatedBefore(db: Db, before: Timestamp, limit: number): Promise<number> {
  // read across businesses, deleted one business per statement (on Citus, each on its shard)
  return deleteCreatedBeforeByBusiness(db, 'event', before, limit);
}

/** Inserts several events in one statement, in the order given (their ids follow it); returns their ids, ascending. */
export async function insertMany(
  db: Db,
  businessId: number,
  rows: readonly Omit<NewEventRow, 'business_id'>[],
): Promise<number[]> {
  if (rows.length === 0) return [];
  const inserted = await db
    .insertInto('event')
    .values(rows.map((row) => ({ ...row, business_id: businessId })))
    .returning('id')
    .execute();
  return inserted.map((r) => Number(r.id)).sort((a, b) => a - b);
}

/**
 * SQL that a PostgreSQL write's events' INSERT ({@link insertPublishedUnlessListened}) runs in the same
 * statement to write the events' webhook deliveries itself (docs/webhooks.md#deliveries-written-by-the-write);
 * the webhook module builds it. Both parts are common table expressions (`name as (…)`, comma-separated):
 * - `before` may read `v(type, created, changed_fields, data, parent_type, parent_id)` (the events to write)
 *   and must define `fan_plan(at_write boolean)`, one row: true when the deliveries are written here and the
 *   events written published;
 * - `after` may read `ev(id, type, changed_fields)` (the events inserted) and the `before` expressions, and
 *   must define `fan_deliveries` (the deliveries' INSERT, `returning 1`).
 */
export interface DeliveriesAtInsertSql {
  before: RawBuilder<unknown>;
  after: RawBuilder<unknown>;
}

/**
 * PostgreSQL, in a write's transaction `trx`: inserts the business's events `rows` in one statement, in the
 * order given (their ids follow it), without a sequence, and each written already published (`published_at`
 * = `at`) unless `listened` — a boolean SQL condition, evaluated once by this very statement — is true; then
 * unpublished, for the dispatcher's fan-out (docs/webhooks.md#fan-out). With `deliveries`, the same
 * statement first decides whether it writes the events' deliveries itself (`fan_plan`): then it does, after
 * the events, and the events are written published whatever `listened` says
 * (docs/webhooks.md#deliveries-written-by-the-write). The statement takes its lock on `event` before its
 * snapshot, so a webhook endpoint being created (which locks `event` in SHARE mode, {@link findMaxId}) is
 * either seen by `listened` and `deliveries` or starts after these events' ids. `INSERT … SELECT … FROM`
 * the values: Citus refuses a subquery inside `VALUES` (sql-helpers `rowAsSelect`). `followed` (a boolean
 * SQL condition, {@link followedSql}, evaluated once) counts as `listened` for the events' publication, and is
 * returned, so that the caller wakes the business's live followers also when the events were written
 * published with their deliveries (docs/api.md#following-the-feed-live).
 * @returns the ids, ascending, whether the events were written published (all or none), the number of
 *   deliveries the statement wrote, and whether `followed` was true
 */
export async function insertPublishedUnlessListened(
  trx: Db,
  businessId: number,
  rows: readonly Omit<NewEventRow, 'business_id' | 'published_at' | 'sequence'>[],
  at: Timestamp,
  listened: RawBuilder<SqlBool>,
  deliveries?: DeliveriesAtInsertSql,
  followed: RawBuilder<SqlBool> = sql<SqlBool>`false`,
): Promise<{ ids: number[]; published: boolean; deliveries: number; followed: boolean }> {
  if (rows.length === 0) return { ids: [], published: false, deliveries: 0, followed: false };
  const values = sql.join(
    rows.map(
      (r) =>
        sql`(cast(${r.type} as text), cast(${r.created} as timestamptz), cast(${r.changed_fields} as text), cast(${r.data} as text), cast(${r.parent_type ?? null} as text), cast(${r.parent_id ?? null} as bigint))`,
    ),
  );
  const heard = sql`(${listened} or (select followed from fol))`;
  const published = deliveries
    ? sql`case when (select at_write from fan_plan) then cast(${at} as timestamptz) when ${heard} then null else cast(${at} as timestamptz) end`
    : sql`case when ${heard} then null else cast(${at} as timestamptz) end`;
  const { rows: inserted } = await sql<{
    id: number | string;
    published_at: Timestamp | null;
    deliveries: number | string;
    followed: number | boolean;
  }>`
    with v(type, created, changed_fields, data, parent_type, parent_id) as (values ${values}),
    fol(followed) as (select ${followed}),
    ${deliveries ? sql`${deliveries.before},` : sql``}
    ev as (
      insert into event (business_id, type, created, changed_fields, data, parent_type, parent_id, published_at)
      select cast(${businessId} as bigint), v.type, v.created, v.changed_fields, v.data, v.parent_type, v.parent_id, ${published}
      from v
      returning id, type, changed_fields, published_at)
    ${deliveries ? sql`, ${deliveries.after}` : sql``}
    select ev.id, ev.published_at, ${deliveries ? sql`(select count(*) from fan_deliveries)` : sql`0`} as deliveries,
      (select followed from fol) as followed from ev`.execute(trx);
  return {
    ids: inserted.map((r) => Number(r.id)).sort((x, y) => x - y),
    published: inserted.every((r) => r.published_at !== null),
    deliveries: Number(inserted[0]?.deliveries ?? 0),
    // the pool parses booleans as 1/0 (SQLite's shape), a raw query's too
    followed: Number(inserted[0]?.followed ?? 0) === 1,
  };
}

/**
 * Takes `n` numbers of the event sequence counter in the caller's transaction `trx`, in one statement (the
 * counter's UPDATE … RETURNING): the numbers are `base + 1` … `base + n`; returns `base`. SQLite only, in a
 * write transaction (its one write lock orders the takers as their commits: docs/api.md#events).
 */
export async function takeSequences(trx: Db, n: number): Promise<number> {
  const row = await trx
    .updateTable('event_sequence')
    .set((eb) => ({ last_value: eb('last_value', '+', n) }))
    .where('id', '=', 1)
    .returning('last_value')
    .executeTakeFirstOrThrow();
  return Number(row.last_value) - n;
}

/**
 * The highest event id written so far (0 without events), in the caller's transaction `trx`. PostgreSQL:
 * first `LOCK TABLE event IN SHARE MODE` until the end of `trx`, waiting at most `lockTimeoutMs` (ms; a longer
 * wait throws SQLSTATE 55P03); SQLite: the read alone (its writers are one at a time). The body of
 * event.service `maxEventId`.
 */
export async function findMaxId(trx: Db, lockTimeoutMs: number): Promise<number> {
  if (isPostgres(trx)) {
    await sql`set local lock_timeout = ${sql.lit(`${lockTimeoutMs}ms`)}`.execute(trx);
    await sql`lock table event in share mode`.execute(trx);
  }
  const row = await trx
    .selectFrom('event')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/**
 * PostgreSQL: the condition, for the event INSERT's one `EXISTS` (docs/webhooks.md#fan-out), that a server
 * process follows the business's feed live (docs/api.md#following-the-feed-live): a row of
 * `event_follower` that has not expired.
 */
export function followedSql(businessId: number): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from event_follower f where f.business_id = ${businessId} and f.expires_at > now())`;
}

/**
 * PostgreSQL: marks the process `owner` as a live follower of each of `businessIds` until `ttlSeconds` from
 * the database's now (inserted, or its expiry moved), in one statement.
 */
export async function upsertFollowers(
  db: Db,
  owner: string,
  businessIds: readonly number[],
  ttlSeconds: number,
): Promise<void> {
  if (businessIds.length === 0) return;
  await db
    .insertInto('event_follower')
    .values(
      businessIds.map((businessId) => ({
        business_id: businessId,
        owner,
        expires_at: sql<string>`now() + make_interval(secs => ${ttlSeconds})`,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['business_id', 'owner']).doUpdateSet({ expires_at: (eb) => eb.ref('excluded.expires_at') }),
    )
    .execute();
}

/** PostgreSQL: drops the process `owner`'s follower rows of `businessIds`, and every row expired for an hour (crashed processes'). */
export async function deleteFollowers(db: Db, owner: string, businessIds: readonly number[]): Promise<void> {
  for (const businessId of businessIds) {
    await db.deleteFrom('event_follower').where('business_id', '=', businessId).where('owner', '=', owner).execute();
  }
  await db
    .deleteFrom('event_follower')
    .where('expires_at', '<', sql<string>`now() - interval '1 hour'`)
    .execute();
}

/** The business's sequenced events after `afterSequence`, oldest first, at most `limit`: their sequences and types only. */
export async function findSequenceTypesAfter(
  db: Db,
  businessId: number,
  afterSequence: number,
  limit: number,
): Promise<{ sequence: number; type: string }[]> {
  const rows = await db
    .selectFrom('event')
    .select(['sequence', 'type'])
    .where('business_id', '=', businessId)
    .where('sequence', '>', afterSequence)
    .orderBy('sequence')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ sequence: Number(r.sequence), type: r.type }));
}
