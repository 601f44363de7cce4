/**
 * The claim's per-endpoint reading (docs/webhooks.md#fairness-and-limits).
 *
 * Frozen: never edit after it has landed; add a new migration instead. Imports nothing from `src/`.
 *
 * - `webhook_delivery_endpoint_due_idx (webhook_id, next_attempt_at, id) where status = 'pending'`: an
 *   endpoint's oldest pending deliveries, in claim order. A claim reads at most an endpoint's cap of them
 *   per endpoint instead of ranking every pending row: with a backlog of thousands of deliveries the
 *   ranking cost a dozen milliseconds a claim, every few deliveries.
 */
import { type Kysely, sql } from 'kysely';

/** Creates the index. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index webhook_delivery_endpoint_due_idx on webhook_delivery (webhook_id, next_attempt_at, id) where status = 'pending'`.execute(
    db,
  );
}

/** Drops it. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index webhook_delivery_endpoint_due_idx`.execute(db);
}
