/** SQL for webhook endpoints and their deliveries (docs/webhooks.md). Every query is scoped to one business. */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { forUpdateOf, isPostgres } from '../../db/sql-helpers.ts';
import type { Timestamp } from '../../db/columns.ts';
import type { NewWebhookEndpointRow, WebhookEndpointRow, WebhookEndpointRowUpdate } from '../../db/tables/webhook.table.ts';
import { type CursorPosition, fetchPage, newestFirst, type Page } from '../../shared/pagination.ts';

/** Inserts an endpoint; returns its id. */
export async function insertEndpoint(db: Db, businessId: number, row: Omit<NewWebhookEndpointRow, 'business_id'>): Promise<number> {
  const { id } = await db
    .insertInto('webhook_endpoint')
    .values({ ...row, business_id: businessId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/**
 * How long an endpoint's creation waits on PostgreSQL for the transactions writing events to end (ms); then
 * it gives up with SQLSTATE 55P03, which answers 503 with `Retry-After` (src/db/unavailable.ts).
 */
export const ENDPOINT_LOCK_TIMEOUT_MS = 2000;

/**
 * The highest event id written so far (0 without events), in the caller's transaction `trx`: the new
 * endpoint's `after_event_id` (docs/webhooks.md#which-events-an-endpoint-receives). Exact: every event with
 * an id up to it has committed (or rolled back) by the time of the read, and every event written later gets
 * a greater id. SQLite: writers are one at a time (`BEGIN IMMEDIATE`), so this holds as it is. PostgreSQL:
 * ids are handed out at insert and a transaction can commit late, so the read first takes
 * `LOCK TABLE event IN SHARE MODE` until the end of `trx`: it waits for the transactions writing events at
 * that moment to end and holds new event writes back until `trx` commits (a few milliseconds; endpoints are
 * created rarely). The wait is at most {@link ENDPOINT_LOCK_TIMEOUT_MS}: a longer one throws (55P03). Take it after the business's endpoint lock ({@link lockEndpointsOf}): no event writer
 * holds that one, so the order cannot deadlock.
 */
export async function maxEventId(trx: Db): Promise<number> {
  if (isPostgres(trx)) {
    // Every business's event writes queue behind this lock while it waits: the wait is bounded (then 503,
    // docs/webhooks.md#which-events-an-endpoint-receives), so one long writing transaction cannot stall them.
    await sql`set local lock_timeout = ${sql.lit(`${ENDPOINT_LOCK_TIMEOUT_MS}ms`)}`.execute(trx);
    await sql`lock table event in share mode`.execute(trx);
  }
  const row = await trx.selectFrom('event').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
  return Number(row?.id ?? 0);
}

/**
 * Takes the business's endpoint lock until the end of the caller's transaction `trx`, so that counting its
 * endpoints and inserting one is atomic (docs/webhooks.md#fairness-and-limits: the cap). PostgreSQL: the
 * business row `FOR NO KEY UPDATE` (concurrent creates wait; inserts elsewhere that only reference the
 * business do not); SQLite: nothing more, its write transactions are `IMMEDIATE`, one at a time.
 */
export async function lockEndpointsOf(trx: Db, businessId: number): Promise<void> {
  if (!isPostgres(trx)) return;
  await trx.selectFrom('business').select('id').where('id', '=', businessId).forNoKeyUpdate().execute();
}

/** How many endpoints the business has (active or not). */
export async function countEndpoints(db: Db, businessId: number): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoint')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('business_id', '=', businessId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * An endpoint of the business (every column, secrets sealed), or `undefined`. With `lock` the read is also
 * the row's lock until the end of the caller's transaction (`FOR UPDATE` on PostgreSQL; SQLite's
 * `BEGIN IMMEDIATE` holds the write lock already).
 */
export async function findEndpointById(db: Db, businessId: number, id: number, lock = false): Promise<WebhookEndpointRow | undefined> {
  const q = db.selectFrom('webhook_endpoint').selectAll().where('business_id', '=', businessId).where('id', '=', id);
  return (lock ? forUpdateOf(db, q, 'webhook_endpoint') : q).executeTakeFirst();
}

/** Whether the business has an endpoint with this id. */
export async function endpointExists(db: Db, businessId: number, id: number): Promise<boolean> {
  const row = await db.selectFrom('webhook_endpoint').select('id').where('business_id', '=', businessId).where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/** One page of the business's endpoints, newest first. */
export async function findEndpointPage(
  db: Db,
  businessId: number,
  size: number,
  cursor: CursorPosition | undefined,
): Promise<Page<WebhookEndpointRow>> {
  const q = db.selectFrom('webhook_endpoint').selectAll().where('business_id', '=', businessId);
  return fetchPage(q, newestFirst<WebhookEndpointRow>('webhook_endpoint'), size, cursor);
}

/** Every endpoint of the business, newest first (the CLI's list). */
export async function findAllEndpoints(db: Db, businessId: number): Promise<WebhookEndpointRow[]> {
  return db
    .selectFrom('webhook_endpoint')
    .selectAll()
    .where('business_id', '=', businessId)
    .orderBy('created', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/**
 * Writes the columns of `patch` and `updated` of an endpoint in one statement and answers the row as it is
 * after the write (`RETURNING`: no read after), or `undefined` when it is missing.
 */
export async function updateEndpoint(
  db: Db,
  businessId: number,
  id: number,
  patch: WebhookEndpointRowUpdate,
  updated: Timestamp,
): Promise<WebhookEndpointRow | undefined> {
  return db
    .updateTable('webhook_endpoint')
    .set({ ...patch, updated })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes an endpoint (its deliveries go with it); returns the number of rows deleted. */
export async function deleteEndpoint(db: Db, businessId: number, id: number): Promise<number> {
  const result = await db.deleteFrom('webhook_endpoint').where('business_id', '=', businessId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** A delivery row with the type of its event, as the API reads it. */
export interface DeliveryRow {
  id: number;
  event_id: number;
  event_type: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  last_attempt_at: Timestamp | null;
  next_attempt_at: Timestamp | null;
  lease_until: Timestamp | null;
  created: Timestamp;
}

function selectDeliveries(db: Db, businessId: number, webhookId: number) {
  return db
    .selectFrom('webhook_delivery')
    .innerJoin('event', 'event.id', 'webhook_delivery.event_id')
    .where('webhook_delivery.business_id', '=', businessId)
    .where('webhook_delivery.webhook_id', '=', webhookId)
    .select([
      'webhook_delivery.id',
      'webhook_delivery.event_id',
      'event.type as event_type',
      'webhook_delivery.status',
      'webhook_delivery.attempts',
      'webhook_delivery.last_status_code',
      'webhook_delivery.last_error',
      'webhook_delivery.last_attempt_at',
      'webhook_delivery.next_attempt_at',
      'webhook_delivery.lease_until',
      'webhook_delivery.created',
    ]);
}

/** One page of an endpoint's deliveries, newest first; `status` keeps one state. */
export async function findDeliveryPage(
  db: Db,
  businessId: number,
  webhookId: number,
  status: string | undefined,
  size: number,
  cursor: CursorPosition | undefined,
): Promise<Page<DeliveryRow>> {
  let q = selectDeliveries(db, businessId, webhookId);
  if (status !== undefined) q = q.where('webhook_delivery.status', '=', status);
  return fetchPage(q, newestFirst<DeliveryRow>('webhook_delivery'), size, cursor);
}

/** A delivery of the endpoint, or `undefined`. */
export async function findDeliveryById(db: Db, businessId: number, webhookId: number, id: number): Promise<DeliveryRow | undefined> {
  return selectDeliveries(db, businessId, webhookId).where('webhook_delivery.id', '=', id).executeTakeFirst();
}

/**
 * Makes a delivery that has ended (`succeeded` or `failed`) pending again, due at `at`, keeping its attempt
 * count; a pending one that nobody is sending (no live lease) becomes due at `at` too. One being sent is
 * left alone. Returns the number of rows changed.
 */
export async function retryDelivery(db: Db, businessId: number, webhookId: number, id: number, at: Timestamp): Promise<number> {
  const result = await db
    .updateTable('webhook_delivery')
    .set({ status: 'pending', next_attempt_at: at, lease_owner: null, lease_until: null })
    .where('business_id', '=', businessId)
    .where('webhook_id', '=', webhookId)
    .where('id', '=', id)
    .where((eb) =>
      eb.or([eb('status', '!=', 'pending'), eb('lease_until', 'is', null), eb('lease_until', '<', at)]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
