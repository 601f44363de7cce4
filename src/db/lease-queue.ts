/**
 * The lease queue: rows that dispatchers claim with a lease, across businesses — the notification outbox
 * (README.md#notifications) and the webhook deliveries (docs/webhooks.md#delivery). One implementation of
 * the lease mechanics for both: when a row is due, when it is in flight, the `UPDATE … RETURNING` that
 * claims it (never twice), the release of unstarted claims and the backlog count. Each queue names its table
 * ({@link LeaseTable}) and chooses its candidates itself (the outbox oldest first, the webhook queue fairly);
 * the claim statement repeats the due and lease conditions, so a candidate that another dispatcher claimed
 * in between is not taken.
 *
 * Claims lock rows of **one business per statement** (docs/deployment.md#background-work-on-citus): the
 * candidates are read first without a lock (across businesses), then each business's are locked and
 * claimed in one statement that names its `business_id`. On Citus, where these tables are distributed by
 * business, that statement runs on the business's shard alone; a `FOR UPDATE` over several businesses would
 * be a multi-shard query, which Citus refuses.
 *
 * A queue's table has `id`, `next_attempt_at` (when the row is due), `lease_owner`, `lease_until` (the
 * lease's end; a lease that has ended is no lease) and `attempts` (counted by the claim).
 */
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Timestamp } from './columns.ts';
import type { Db } from './database.ts';
import { isCitus } from './citus.ts';
import { idsByBusiness, isPostgres } from './sql-helpers.ts';

/** A table of leased rows, and which of its rows are pending (not ended). */
export interface LeaseTable {
  table: 'notification_outbox' | 'webhook_delivery';
  /**
   * The condition of a pending row (neither ended nor given up), over the columns `column` names (so that
   * it also fits an aliased table).
   */
  pending: (column: (name: string) => RawBuilder<unknown>) => RawBuilder<SqlBool>;
}

/** Who claims, when, and until when. */
export interface LeaseClaim {
  /** Who claims (a unique id per dispatcher). */
  owner: string;
  /** Now, as a stored timestamp. */
  now: Timestamp;
  /** End of the lease: no other dispatcher claims the rows before this instant. */
  leaseUntil: Timestamp;
}

/** A reference to `name` of the table, or of its alias `alias`. */
function columnOf(alias: string | undefined): (name: string) => RawBuilder<unknown> {
  return (name) => sql.ref(alias === undefined ? name : `${alias}.${name}`);
}

/** `AND business_id IN (…)` when `businessIds` is given (an empty list matches nothing), else nothing. */
function ofBusinesses(businessIds: readonly number[] | undefined, alias?: string): RawBuilder<unknown> {
  if (businessIds === undefined) return sql``;
  return sql`and ${columnOf(alias)('business_id')} in (${sql.join(businessIds.length > 0 ? [...businessIds] : [-1])})`;
}

/** Pending rows of `queue`, as a condition (`alias`: of the table under that alias). */
export function pending(queue: LeaseTable, alias?: string): RawBuilder<SqlBool> {
  return queue.pending(columnOf(alias));
}

/**
 * Rows in flight at `now`, as a condition: pending with a live lease (`lease_until >= now`), whoever holds
 * it.
 */
export function inFlight(queue: LeaseTable, now: Timestamp, alias?: string): RawBuilder<SqlBool> {
  const c = columnOf(alias);
  return sql<SqlBool>`${pending(queue, alias)} and ${c('lease_until')} is not null and ${c('lease_until')} >= ${now}`;
}

/** Rows due at `now`, as a condition: pending, `next_attempt_at <= now`, and no live lease. */
export function due(queue: LeaseTable, now: Timestamp, alias?: string): RawBuilder<SqlBool> {
  const c = columnOf(alias);
  return sql<SqlBool>`${pending(queue, alias)} and ${c('next_attempt_at')} <= ${now} and (${c('lease_until')} is null or ${c('lease_until')} < ${now})`;
}

/**
 * Whether any row of `queue` (only `businessIds`' when given) is due at `now`: a one-row read, so that an
 * idle poll takes no write lock at all (on SQLite a write lock, even for an `UPDATE` that changes nothing,
 * makes the writers of other processes wait).
 */
export async function anyDue(
  db: Db,
  queue: LeaseTable,
  now: Timestamp,
  businessIds?: readonly number[],
): Promise<boolean> {
  const { rows } =
    await sql`select id from ${sql.table(queue.table)} where ${due(queue, now)} ${ofBusinesses(businessIds)} limit 1`.execute(
      db,
    );
  return rows.length > 0;
}

/**
 * The oldest due rows of `queue` (by `next_attempt_at`, then `id`), at most `limit`, only `businessIds`'
 * when given and only those meeting `where.and` when given, as a select of their `id` and `business_id`:
 * the candidates of {@link claim}. A plain read, no lock (across businesses; {@link claim} locks each
 * business's rows in a statement of its own).
 */
export function oldestDue(
  queue: LeaseTable,
  now: Timestamp,
  limit: number,
  where: { businessIds?: readonly number[]; and?: RawBuilder<SqlBool> } = {},
): RawBuilder<Candidate> {
  return sql<Candidate>`select id, business_id from ${sql.table(queue.table)} where ${due(queue, now)} ${ofBusinesses(where.businessIds)}
    ${where.and === undefined ? sql`` : sql`and ${where.and}`}
    order by next_attempt_at, id limit ${limit}`;
}

/** A row to claim: its id and its business. */
export interface Candidate {
  id: number;
  business_id: number;
}

/**
 * Claims the `candidates` of `queue` that are still due for `lease.owner` until `lease.leaseUntil`, and
 * counts the attempt: per business, one statement that locks the business's candidates (`FOR UPDATE SKIP
 * LOCKED` on PostgreSQL: a row another transaction holds is skipped, not waited for) and updates those
 * still due (`UPDATE … WHERE business_id = … AND id IN (…) AND <due> RETURNING *`). The due and lease
 * conditions are repeated, so a row is never claimed twice; a candidate another dispatcher claimed since it
 * was read is left out. On Citus every statement names one business, so each runs on one shard
 * (docs/deployment.md#background-work-on-citus); on SQLite and plain PostgreSQL every business's candidates
 * are claimed in one statement ({@link isCitus}): a claim of fifty businesses is one round trip, not fifty.
 * @param candidates the rows to claim (such as {@link oldestDue}'s), in any order
 * @returns the claimed rows (`lease_owner = owner`, `attempts` already incremented), oldest first
 *   (`next_attempt_at`, then `id`)
 */
export async function claim<Row extends { id: number; next_attempt_at: Timestamp | null }>(
  db: Db,
  queue: LeaseTable,
  lease: LeaseClaim,
  candidates: readonly Candidate[],
): Promise<Row[]> {
  if (candidates.length === 0) return [];
  if (!(await isCitus(db)))
    return claimRows<Row>(db, queue, lease, sql`id in (${sql.join(candidates.map((c) => Number(c.id)))})`);
  const claimed: Row[] = [];
  for (const [businessId, ids] of idsByBusiness(candidates)) {
    claimed.push(...(await claimOfBusiness<Row>(db, queue, lease, businessId, ids)));
  }
  return claimed.sort(oldestFirst);
}

/**
 * Claims the rows of `queue` that meet `which` and are still due, in one statement: materialised first and
 * locked `FOR UPDATE SKIP LOCKED` on PostgreSQL, then leased to `lease.owner` with the attempt counted. The
 * `UPDATE` repeats `which` (on Citus it names the business: the statement runs on its shard alone).
 * @returns the claimed rows, oldest first
 */
async function claimRows<Row extends { id: number; next_attempt_at: Timestamp | null }>(
  db: Db,
  queue: LeaseTable,
  lease: LeaseClaim,
  which: RawBuilder<SqlBool>,
): Promise<Row[]> {
  const set = sql`set lease_owner = ${lease.owner}, lease_until = ${lease.leaseUntil}, attempts = attempts + 1`;
  const table = sql.table(queue.table);
  const stillDue = due(queue, lease.now);
  const { rows } = await sql<Row>`with candidate as materialized (
      select id from ${table} where ${stillDue} and ${which} ${isPostgres(db) ? sql`for update skip locked` : sql``})
    update ${table} ${set} where ${stillDue} and ${which} and id in (select id from candidate) returning *`.execute(db);
  return rows.sort(oldestFirst);
}

/**
 * Claims, in one statement, the rows of business `businessId` among `candidates` that are still due, as
 * {@link claim} does for one business: the candidates are materialised first (PostgreSQL may otherwise run
 * a `LIMIT` in them again for each row, and claim more than the limit) and locked `FOR UPDATE SKIP LOCKED`
 * on PostgreSQL. The statement names the business, so on Citus it runs on its shard alone: a select given
 * as `candidates` must read that business's rows only (`business_id = …` in it).
 * @returns the claimed rows (`attempts` already incremented), oldest first (`next_attempt_at`, then `id`)
 */
export async function claimOfBusiness<Row extends { id: number; next_attempt_at: Timestamp | null }>(
  db: Db,
  queue: LeaseTable,
  lease: LeaseClaim,
  businessId: number,
  candidates: readonly number[] | RawBuilder<{ id: number }>,
): Promise<Row[]> {
  if (Array.isArray(candidates) && candidates.length === 0) return [];
  const ids = Array.isArray(candidates)
    ? sql.join(candidates as readonly number[])
    : sql`select id from (${candidates as RawBuilder<{ id: number }>}) c`;
  return claimRows<Row>(db, queue, lease, sql<SqlBool>`business_id = ${businessId} and id in (${ids})`);
}

/** Oldest first: by `next_attempt_at`, then `id`. */
function oldestFirst(
  a: { id: number; next_attempt_at: Timestamp | null },
  b: { id: number; next_attempt_at: Timestamp | null },
): number {
  return a.next_attempt_at! < b.next_attempt_at! ? -1 : a.next_attempt_at! > b.next_attempt_at! ? 1 : a.id - b.id;
}

/**
 * Gives claimed rows back untouched (a dispatcher stopping before it started them): the lease is released
 * and the attempt the claim counted is taken back, so the rows are due again at once for any dispatcher.
 * Only the rows `owner` still holds change.
 */
export async function release(db: Db, queue: LeaseTable, owner: string, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`update ${sql.table(queue.table)} set lease_owner = null, lease_until = null, attempts = attempts - 1
    where id in (${sql.join([...ids])}) and lease_owner = ${owner}`.execute(db);
}

/** Pending rows of `queue` across all businesses (due, waiting for a retry, or in flight): a backlog gauge. */
export async function countPending(db: Db, queue: LeaseTable): Promise<number> {
  const { rows } = await sql<{
    n: number | string;
  }>`select count(*) as n from ${sql.table(queue.table)} where ${pending(queue)}`.execute(db);
  return Number(rows[0]!.n);
}
