/**
 * Webhook fairness (docs/webhooks.md#fairness-and-limits): the sick lane and the in-flight counts.
 *
 * Frozen: never edit after it has landed; add a new migration instead. Imports nothing from `src/`.
 *
 * - `webhook_endpoint.sick_streak`: attempts in a row to the endpoint that got no answer (timed out, or
 *   failed to connect); 0 after any answer. An endpoint whose streak reaches the configured threshold (3)
 *   is *sick*: the dispatchers give it one attempt at a time, in a lane of its own, until one succeeds.
 * - `webhook_delivery_leased_idx`: the deliveries being attempted (a lease is set only while an attempt is
 *   under way), which the claim counts per endpoint and per business to cap the attempts in flight.
 */
import { type Kysely, sql } from 'kysely';

/** Adds `webhook_endpoint.sick_streak` and the index of leased deliveries. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('webhook_endpoint')
    .addColumn('sick_streak', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`create index webhook_delivery_leased_idx on webhook_delivery (lease_until, webhook_id) where lease_until is not null`.execute(
    db,
  );
}

/** Drops them. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index webhook_delivery_leased_idx`.execute(db);
  await db.schema.alterTable('webhook_endpoint').dropColumn('sick_streak').execute();
}
