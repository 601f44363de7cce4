/**
 * Webhooks of a change feed to sync by (docs/webhooks.md#which-events-an-endpoint-receives,
 * docs/webhooks.md#live-delivery).
 *
 * Frozen: never edit after it has landed; add a new migration instead. Imports nothing from `src/`.
 *
 * - `webhook_endpoint.after_event_id`: the highest event id committed when the endpoint was created. The
 *   fan-out gives the endpoint only events with a greater id: an event committed before the endpoint existed
 *   (whatever its `created`, however late the fan-out runs) is never delivered to it, and an event written
 *   after the endpoint's creation always has a greater id (ids are handed out in increasing order). Existing
 *   endpoints get the highest id of their business's events stamped before their `created` (0 without one).
 * - PostgreSQL only: the statement trigger `event_notify` sends `NOTIFY bizapi_event, '<business id>'` for
 *   the businesses of the inserted events. PostgreSQL delivers a notification when (and only if) the writing
 *   transaction commits, so the webhook dispatchers that `LISTEN` wake up right after the commit instead of
 *   at their next poll. One notification per statement and business (PostgreSQL also folds repeats of a
 *   transaction into one).
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** Adds `after_event_id` (backfilled) and, on PostgreSQL, the notify trigger. */
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
  if (!isPostgres(db)) return;
  await sql`
    create function bizapi_event_notify() returns trigger language plpgsql as $$
    begin
      perform pg_notify('bizapi_event', b.business_id::text) from (select distinct business_id from inserted) b;
      return null;
    end
    $$
  `.execute(db);
  await sql`
    create trigger event_notify after insert on event
    referencing new table as inserted for each statement execute function bizapi_event_notify()
  `.execute(db);
}

/** Drops them. */
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger event_notify on event`.execute(db);
    await sql`drop function bizapi_event_notify()`.execute(db);
  }
  await db.schema.alterTable('webhook_endpoint').dropColumn('after_event_id').execute();
}
