/**
 * SQL for notifications (README.md#notifications): recipients, the outbox (insert, claim with a lease, channel
 * marks, retry scheduling, backlog) and the in-app notifications. Every function that reads or writes one
 * business's rows takes `(db, businessId, …)`; the dispatcher's queue functions work across businesses (the
 * outbox is one queue) and say so.
 */
import { type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Timestamp } from '../../db/columns.ts';
import * as leaseQueue from '../../db/lease-queue.ts';
import { type CursorPosition, fetchPage, newestFirst, type Page } from '../../shared/pagination.ts';
import type { NewOutboxRow, OutboxRow } from '../../db/tables/notification.table.ts';

/** Inserts outbox rows (batch) for one business; returns their ids. Does nothing for an empty list. */
export async function insertOutbox(
  db: Db,
  businessId: number,
  rows: readonly Omit<NewOutboxRow, 'business_id'>[],
): Promise<number[]> {
  if (rows.length === 0) return [];
  const inserted = await db
    .insertInto('notification_outbox')
    .values(rows.map((r) => ({ ...r, business_id: businessId })))
    .returning('id')
    .execute();
  return inserted.map((r) => r.id);
}

/** The outbox rows of one business, oldest first (tests and diagnostics). */
export async function findOutboxByBusiness(db: Db, businessId: number): Promise<OutboxRow[]> {
  return db.selectFrom('notification_outbox').selectAll().where('business_id', '=', businessId).orderBy('id').execute();
}

/** The outbox row `id` of the business, or `undefined`. */
export async function findOutboxById(db: Db, businessId: number, id: number): Promise<OutboxRow | undefined> {
  return db
    .selectFrom('notification_outbox')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
}

// ── The dispatcher's queue (across businesses) ──

/** The outbox as a lease queue (src/db/lease-queue.ts): a row is pending until delivered or given up. */
const OUTBOX_QUEUE: leaseQueue.LeaseTable = {
  table: 'notification_outbox',
  pending: (c) => sql<SqlBool>`${c('delivered_at')} is null and ${c('failed_at')} is null`,
};

/** Options of {@link claimDue}. */
export interface ClaimOptions extends leaseQueue.LeaseClaim {
  /** Largest number of rows to claim. */
  limit: number;
  /** Only these businesses (undefined: all). */
  businessIds?: readonly number[];
}

/**
 * Claims up to `limit` due outbox rows (pending, `next_attempt_at <= now`, no live lease), oldest first,
 * for `owner` until `leaseUntil`, and counts the attempt. The oldest due rows are read across businesses
 * without a lock, then claimed one business per statement (src/db/lease-queue.ts `claim`; on Citus each on
 * its business's shard, docs/deployment.md#background-work-on-citus): on PostgreSQL a business's rows are
 * locked `FOR UPDATE SKIP LOCKED` (one another transaction holds is skipped, not waited for); on SQLite the
 * statement holds the database's write lock. The `UPDATE` repeats the due and lease conditions, so a row
 * claimed by someone else since the read is not taken (two dispatchers reading at once share the rows; the
 * other finds more at its next poll). When nothing is due, only a one-row read runs.
 *
 * @returns the claimed rows (with `lease_owner = owner` and `attempts` already incremented), oldest first
 */
export async function claimDue(db: Db, options: ClaimOptions): Promise<OutboxRow[]> {
  if (!(await leaseQueue.anyDue(db, OUTBOX_QUEUE, options.now, options.businessIds))) return [];
  const { rows: candidates } = await leaseQueue
    .oldestDue(OUTBOX_QUEUE, options.now, options.limit, options)
    .execute(db);
  return leaseQueue.claim<OutboxRow>(db, OUTBOX_QUEUE, options, candidates);
}

/** The per-channel "done" columns of an outbox row. */
export type ChannelColumn = 'in_app_at' | 'email_at' | 'push_at';

/**
 * Marks one channel of a claimed row done at `at`, as long as `owner` still holds the lease.
 * @returns whether the row was updated (false: the lease was lost to another dispatcher)
 */
export async function markChannelDone(
  db: Db,
  id: number,
  owner: string,
  column: ChannelColumn,
  at: Timestamp,
): Promise<boolean> {
  const r = await db
    .updateTable('notification_outbox')
    .set({ [column]: at })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Ends a claimed row as delivered and releases its lease (only while `owner` holds it). */
export async function markDelivered(db: Db, id: number, owner: string, at: Timestamp): Promise<boolean> {
  const r = await db
    .updateTable('notification_outbox')
    .set({ delivered_at: at, lease_owner: null, lease_until: null, last_error: null })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * Records a failed attempt of a claimed row and releases its lease: the row becomes due again at
 * `nextAttemptAt`, or, when `failedAt` is given (attempts exhausted), ends as failed.
 */
export async function markAttemptFailed(
  db: Db,
  id: number,
  owner: string,
  error: string,
  next: { nextAttemptAt: Timestamp } | { failedAt: Timestamp },
): Promise<boolean> {
  const r = await db
    .updateTable('notification_outbox')
    .set({
      lease_owner: null,
      lease_until: null,
      last_error: error.slice(0, 2000),
      ...('failedAt' in next ? { failed_at: next.failedAt } : { next_attempt_at: next.nextAttemptAt }),
    })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * Gives claimed rows back untouched (a dispatcher stopping before it started them): the lease is released
 * and the attempt the claim counted is taken back, so the rows are due again at once for any dispatcher.
 */
export async function releaseClaims(db: Db, owner: string, ids: readonly number[]): Promise<void> {
  await leaseQueue.release(db, OUTBOX_QUEUE, owner, ids);
}

/**
 * Pending outbox rows across all businesses: neither delivered nor given up (those waiting for a retry and
 * those being delivered included). The backlog gauge of the metrics.
 */
export async function countPending(db: Db): Promise<number> {
  return leaseQueue.countPending(db, OUTBOX_QUEUE);
}

// ── In-app notifications ──

/** An in-app notification to insert (the business comes from the call). */
export interface NewInAppRow {
  member_id: number;
  outbox_id: number;
  event_type: string;
  inquiry_id: number | null;
  title: string;
  content: string;
  created: Timestamp;
}

/** Inserts an in-app notification unless one exists already for its outbox row (idempotent). */
export async function insertInApp(db: Db, businessId: number, row: NewInAppRow): Promise<void> {
  await db
    .insertInto('notification')
    .values({ ...row, business_id: businessId })
    .onConflict((oc) => oc.columns(['business_id', 'outbox_id']).doNothing())
    .execute();
}

const inAppColumns = [
  'notification.id',
  'notification.event_type',
  'notification.inquiry_id',
  'notification.title',
  'notification.content',
  'notification.created',
  'notification.member_id',
  'member.nickname as member_nickname',
  'member.email as member_email',
  'member.is_active as member_is_active',
  'member.grade_id as member_grade_id',
  'grade.title as member_grade_title',
  'deleted_inquiry.id as deleted_inquiry_id',
] as const;

// `deleted_inquiry_id` is set when the notification's inquiry has been soft-deleted: the API then shows
// `inquiry: null` (docs/api.md#extensions).
function selectInApp(db: Db, businessId: number) {
  return db
    .selectFrom('notification')
    .innerJoin('member', (join) =>
      join
        .onRef('member.id', '=', 'notification.member_id')
        .onRef('member.business_id', '=', 'notification.business_id'),
    )
    .innerJoin('grade', (join) =>
      join.onRef('grade.id', '=', 'member.grade_id').onRef('grade.business_id', '=', 'member.business_id'),
    )
    .leftJoin('inquiry as deleted_inquiry', (join) =>
      join
        .onRef('deleted_inquiry.id', '=', 'notification.inquiry_id')
        .onRef('deleted_inquiry.business_id', '=', 'notification.business_id')
        .on('deleted_inquiry.deleted_at', 'is not', null),
    )
    .select(inAppColumns)
    .where('notification.business_id', '=', businessId);
}

/** An in-app notification joined with its member and the member's grade. */
export type InAppRow = Awaited<ReturnType<ReturnType<typeof selectInApp>['executeTakeFirstOrThrow']>>;

/** One page of in-app notifications, newest first; `memberId` narrows to one member. */
export async function findInAppPage(
  db: Db,
  businessId: number,
  filter: { memberId?: number },
  size: number,
  cursor: CursorPosition | undefined,
): Promise<Page<InAppRow>> {
  let q = selectInApp(db, businessId);
  if (filter.memberId !== undefined) q = q.where('notification.member_id', '=', filter.memberId);
  return fetchPage(q, newestFirst<InAppRow>('notification'), size, cursor);
}
