/**
 * Parked webhook endpoints (docs/webhooks.md#parking): an endpoint that stops answering stops collecting
 * deliveries.
 *
 * Frozen: never edit after it has landed; add a new migration instead. Imports nothing from `src/`.
 *
 * - `webhook_endpoint.parked_after_event_id` (`bigint` on PostgreSQL, `integer` on SQLite: a reference to
 *   an event id, 64-bit as decisions §20 asks; `null` while the endpoint is not parked): set when the
 *   endpoint's sick streak reaches its threshold. The fan-out writes no delivery for a parked endpoint's
 *   events with a greater id; they are owed to it, and written (in chunks, as its queue drains) once an
 *   attempt gets an answer or the endpoint is resumed through the API. The column is cleared when the owed
 *   events are all written.
 * - `webhook_endpoint_parked_idx`: the parked endpoints, which every dispatcher poll looks through for those
 *   that answer again.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

/** Adds `webhook_endpoint.parked_after_event_id` and its index. */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .alterTable('webhook_endpoint')
    .addColumn('parked_after_event_id', postgres ? 'bigint' : 'integer')
    .execute();
  await sql`create index webhook_endpoint_parked_idx on webhook_endpoint (id) where parked_after_event_id is not null`.execute(
    db,
  );
}

/** Drops them. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index webhook_endpoint_parked_idx`.execute(db);
  await db.schema.alterTable('webhook_endpoint').dropColumn('parked_after_event_id').execute();
}
