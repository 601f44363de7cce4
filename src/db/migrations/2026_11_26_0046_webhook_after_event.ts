/**
 * Webhook endpoints receive only later events (docs/webhooks.md#which-events-an-endpoint-receives).
 *
 * Frozen: never edit after it has landed; add a new migration instead. Imports nothing from `src/`.
 *
 * - `webhook_endpoint.after_event_id`: the highest event id committed when the endpoint was created. The
 *   fan-out gives the endpoint only events with a greater id: an event committed before the endpoint existed
 *   (whatever its `created`, however late the fan-out runs) is never delivered to it, and an event written
 *   after the endpoint's creation always has a greater id (ids are handed out in increasing order). Existing
 *   endpoints get the highest id of their business's events stamped before their `created` (0 without one).
 *
 * (No trigger for the live wake-ups: a `NOTIFY` inside the writing transaction makes PostgreSQL serialize
 * the commits of all such transactions; the API process notifies after its write has answered instead.)
 */
import { type Kysely, sql } from 'kysely';

/** Adds `after_event_id`, backfilled. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('webhook_endpoint')
    .addColumn('after_event_id', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // served by event_business_created_idx (business_id, created desc, id desc); at most 20 endpoints a business
  await sql`
    update webhook_endpoint set after_event_id = coalesce(
      (select max(e.id) from event e where e.business_id = webhook_endpoint.business_id and e.created < webhook_endpoint.created), 0)
  `.execute(db);
}

/** Drops it. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_endpoint').dropColumn('after_event_id').execute();
}
