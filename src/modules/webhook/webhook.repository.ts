/** SQL for webhook endpoints and their deliveries (docs/webhooks.md). Every query is scoped to one business. */
import type { Db } from '../../db/database.ts';
import { forUpdateOf } from '../../db/sql-helpers.ts';
import type { Timestamp } from '../../db/columns.ts';
import type {
  NewWebhookEndpointRow,
  WebhookEndpointRow,
  WebhookEndpointRowUpdate,
} from '../../db/tables/webhook.table.ts';
import { type CursorPosition, fetchPage, newestFirst, type Page } from '../../shared/pagination.ts';

/** Inserts an endpoint; returns its id. */
export async function insertEndpoint(
  db: Db,
  businessId: number,
  row: Omit<NewWebhookEndpointRow, 'business_id'>,
): Promise<number> {
  const { id } = await db
    .insertInto('webhook_endpoint')
    .values({ ...row, business_id: businessId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
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
export async function findEndpointById(
  db: Db,
  businessId: number,
  id: number,
  lock = false,
): Promise<WebhookEndpointRow | undefined> {
  const q = db.selectFrom('webhook_endpoint').selectAll().where('business_id', '=', businessId).where('id', '=', id);
  return (lock ? forUpdateOf(db, q, 'webhook_endpoint') : q).executeTakeFirst();
}

/** Whether the business has an endpoint with this id. */
export async function endpointExists(db: Db, businessId: number, id: number): Promise<boolean> {
  const row = await db
    .selectFrom('webhook_endpoint')
    .select('id')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
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
  const result = await db
    .deleteFrom('webhook_endpoint')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
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
    .innerJoin('event', (join) =>
      join
        .onRef('event.id', '=', 'webhook_delivery.event_id')
        .onRef('event.business_id', '=', 'webhook_delivery.business_id'),
    )
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
export async function findDeliveryById(
  db: Db,
  businessId: number,
  webhookId: number,
  id: number,
): Promise<DeliveryRow | undefined> {
  return selectDeliveries(db, businessId, webhookId).where('webhook_delivery.id', '=', id).executeTakeFirst();
}

/**
 * Makes a delivery that has ended (`succeeded` or `failed`) pending again, due at `at`, keeping its attempt
 * count; a pending one that nobody is sending (no live lease) becomes due at `at` too. One being sent is
 * left alone. Returns the number of rows changed.
 */
export async function retryDelivery(
  db: Db,
  businessId: number,
  webhookId: number,
  id: number,
  at: Timestamp,
): Promise<number> {
  const result = await db
    .updateTable('webhook_delivery')
    .set({ status: 'pending', next_attempt_at: at, lease_owner: null, lease_until: null })
    .where('business_id', '=', businessId)
    .where('webhook_id', '=', webhookId)
    .where('id', '=', id)
    .where((eb) => eb.or([eb('status', '!=', 'pending'), eb('lease_until', 'is', null), eb('lease_until', '<', at)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * `POST /v1/webhook/{webhook_id}/recover` (docs/webhooks.md#recover): the endpoint's deliveries created at or
 * after `since` that failed — ended `failed`, or `pending` after a failed attempt and waiting for their next
 * retry (not being sent: no live lease) — become pending, due at `at`, their attempt counts kept (as
 * {@link retryDelivery}). One statement (webhook_delivery's business and endpoint index).
 * @returns the number of deliveries queued again
 */
export async function recoverDeliveries(
  db: Db,
  businessId: number,
  webhookId: number,
  since: Timestamp,
  at: Timestamp,
): Promise<number> {
  const result = await db
    .updateTable('webhook_delivery')
    .set({ status: 'pending', next_attempt_at: at, lease_owner: null, lease_until: null })
    .where('business_id', '=', businessId)
    .where('webhook_id', '=', webhookId)
    .where('created', '>=', since)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'failed'),
        eb.and([
          eb('status', '=', 'pending'),
          eb('attempts', '>', 0),
          eb('next_attempt_at', '>', at),
          eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]),
        ]),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * A replay's second step (docs/webhooks.md#replay): of the endpoint's deliveries of the events `eventIds`, those
 * that ended (`succeeded`, `failed`) or wait for a later retry (not being sent) become pending, due at `at`,
 * their attempt counts kept; the rows the replay has just written (due at `at`) are left as they are. In
 * statements of 500 ids.
 */
export async function requeueDeliveriesOf(
  db: Db,
  businessId: number,
  webhookId: number,
  eventIds: readonly number[],
  at: Timestamp,
): Promise<void> {
  for (let i = 0; i < eventIds.length; i += 500) {
    await db
      .updateTable('webhook_delivery')
      .set({ status: 'pending', next_attempt_at: at, lease_owner: null, lease_until: null })
      .where('business_id', '=', businessId)
      .where('webhook_id', '=', webhookId)
      .where('event_id', 'in', eventIds.slice(i, i + 500))
      .where((eb) =>
        eb.or([
          eb('status', '!=', 'pending'),
          eb.and([eb('next_attempt_at', '>', at), eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)])]),
        ]),
      )
      .execute();
  }
}
