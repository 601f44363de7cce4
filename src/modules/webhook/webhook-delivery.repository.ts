/**
 * SQL for webhook deliveries (docs/webhooks.md#delivery): the endpoints a fan-out matches, the delivery
 * queue (insert, claim with a lease, end or reschedule an attempt), the endpoint's success / failure marks,
 * and the retention purge. The queue functions work across businesses (the deliveries are one queue) and
 * say so.
 */
import { PostgresAdapter } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Timestamp } from '../../db/columns.ts';
import type { NewWebhookDeliveryRow, WebhookDeliveryRow, WebhookEndpointRow } from '../../db/tables/webhook.table.ts';

/** Whether the SQL runs on PostgreSQL (else SQLite). */
function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** An endpoint as the fan-out needs it. */
export type FanOutEndpointRow = Pick<WebhookEndpointRow, 'id' | 'business_id' | 'event_types' | 'format'>;

/** The active endpoints of these businesses (for the fan-out), by id. */
export async function findActiveEndpoints(db: Db, businessIds: readonly number[]): Promise<FanOutEndpointRow[]> {
  if (businessIds.length === 0) return [];
  return db
    .selectFrom('webhook_endpoint')
    .select(['id', 'business_id', 'event_types', 'format'])
    .where('business_id', 'in', [...businessIds])
    .where('is_active', '=', 1)
    .orderBy('id')
    .execute();
}

/** Inserts pending deliveries; one that exists already for its (event, endpoint) is left as it is. */
export async function insertDeliveries(db: Db, rows: readonly NewWebhookDeliveryRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('webhook_delivery')
    .values([...rows])
    .onConflict((oc) => oc.columns(['event_id', 'webhook_id']).doNothing())
    .execute();
}

/** An endpoint (any business) by id, or `undefined` (deleted). */
export async function findEndpointById(db: Db, id: number): Promise<WebhookEndpointRow | undefined> {
  return db.selectFrom('webhook_endpoint').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The deliveries of one endpoint, oldest first (tests and diagnostics). */
export async function findByWebhook(db: Db, webhookId: number): Promise<WebhookDeliveryRow[]> {
  return db.selectFrom('webhook_delivery').selectAll().where('webhook_id', '=', webhookId).orderBy('id').execute();
}

// ── The dispatcher's queue (across businesses) ──

/** Options of {@link claimDue}. */
export interface ClaimOptions {
  /** Who claims (a unique id per dispatcher). */
  owner: string;
  /** Now, as a stored timestamp. */
  now: Timestamp;
  /** End of the lease: no other dispatcher claims the rows before this instant. */
  leaseUntil: Timestamp;
  /** Largest number of rows to claim. */
  limit: number;
  /** Only these businesses (undefined: all). */
  businessIds?: readonly number[];
}

/**
 * Claims up to `limit` due deliveries (pending, `next_attempt_at <= now`, no live lease), oldest first, for
 * `owner` until `leaseUntil`, and counts the attempt. One statement `UPDATE … WHERE id IN (SELECT …)
 * RETURNING`, the inner select `FOR UPDATE SKIP LOCKED` on PostgreSQL, the outer `WHERE` repeating the
 * lease condition, so that several dispatchers never claim one row at once (as the notification outbox
 * does). When nothing is due, only a one-row read runs.
 * @returns the claimed rows (`lease_owner = owner`, `attempts` already incremented)
 */
export async function claimDue(db: Db, options: ClaimOptions): Promise<WebhookDeliveryRow[]> {
  if (options.limit <= 0) return [];
  const dueRows = () => {
    let q = db
      .selectFrom('webhook_delivery')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', options.now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', options.now)]));
    if (options.businessIds) q = q.where('business_id', 'in', options.businessIds.length > 0 ? [...options.businessIds] : [-1]);
    return q;
  };
  if ((await dueRows().limit(1).executeTakeFirst()) === undefined) return [];
  let due = dueRows().orderBy('next_attempt_at').orderBy('id').limit(options.limit);
  if (isPostgres(db)) due = due.forUpdate().skipLocked();
  return db
    .updateTable('webhook_delivery')
    .set((eb) => ({ lease_owner: options.owner, lease_until: options.leaseUntil, attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', due)
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', options.now)]))
    .returningAll()
    .execute();
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

/**
 * Gives claimed rows back untouched (a dispatcher stopping before it started them): lease released, the
 * attempt the claim counted taken back.
 */
export async function releaseClaims(db: Db, owner: string, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('webhook_delivery')
    .set((eb) => ({ lease_owner: null, lease_until: null, attempts: eb('attempts', '-', 1) }))
    .where('id', 'in', [...ids])
    .where('lease_owner', '=', owner)
    .execute();
}

/** An endpoint answered with success: `last_success_at = at`, `failing_since` cleared. */
export async function markEndpointSuccess(db: Db, webhookId: number, at: Timestamp): Promise<void> {
  await db.updateTable('webhook_endpoint').set({ last_success_at: at, failing_since: null }).where('id', '=', webhookId).execute();
}

/**
 * An attempt to the endpoint failed at `at`: `failing_since` is set when null; an active endpoint failing
 * since before `disableBefore` is disabled (`is_active = 0`, `updated = at`).
 * @returns whether this call disabled the endpoint
 */
export async function markEndpointFailure(db: Db, webhookId: number, at: Timestamp, disableBefore: Timestamp): Promise<boolean> {
  await db.updateTable('webhook_endpoint').set({ failing_since: at }).where('id', '=', webhookId).where('failing_since', 'is', null).execute();
  const r = await db
    .updateTable('webhook_endpoint')
    .set({ is_active: 0, updated: at })
    .where('id', '=', webhookId)
    .where('is_active', '=', 1)
    .where('failing_since', '<', disableBefore)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Deletes up to `limit` deliveries (any business) created before `before`; returns how many. */
export async function deleteCreatedBefore(db: Db, before: Timestamp, limit: number): Promise<number> {
  const ids = db.selectFrom('webhook_delivery').select('id').where('created', '<', before).orderBy('created').limit(limit);
  const result = await db.deleteFrom('webhook_delivery').where('id', 'in', ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Pending deliveries across all businesses (waiting for an attempt or being attempted). */
export async function countPending(db: Db): Promise<number> {
  const row = await db
    .selectFrom('webhook_delivery')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
