/**
 * Idempotent retries (decisions §14), the replay cache of signature version 2 (decisions §15), and the
 * replay mark of the API call log.
 *
 * Frozen: never edit after it has landed; add a new migration instead. Imports nothing from `src/`.
 * Times are integers: milliseconds since the epoch (`bigint`), as in `rate_limit_counter`.
 *
 * - `idempotency_key`: one row per (business, `Idempotency-Key`). The unique constraint
 *   `idempotency_key_business_key_unique` is the claim: the first request's INSERT wins, every other one
 *   conflicts. `status_code` is `null` while the first request runs (its claim lasts until
 *   `locked_until`); then the stored answer: status, `response_headers` (JSON object of the headers that
 *   matter), `response_body` (base64 of the exact bytes). `fingerprint` = SHA-256 hex of method, path and
 *   body hash. `claim_token` names the claim of one process, so only it completes or releases the row.
 *   `expires_at` = 24 hours after the claim; the retention job deletes expired rows.
 * - `signature_replay`: every accepted version-2 signature (its hex) until `expires_at` (the end of the
 *   ±300 s window it was valid in); the primary key rejects a second use across processes.
 * - `api_log.idempotent_replayed`: 1 when the logged call was answered from a stored answer, else null.
 */
import { type Kysely, PostgresAdapter } from 'kysely';

/** Creates `idempotency_key` and `signature_replay`, adds `api_log.idempotent_replayed`. */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('idempotency_key')
    .addColumn('id', 'integer', (c) =>
      postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn('business_id', 'integer', (c) => c.notNull().references('business.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('claim_token', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('response_headers', 'text')
    .addColumn('response_body', 'text')
    .addUniqueConstraint('idempotency_key_business_key_unique', ['business_id', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_key_expires_idx').on('idempotency_key').column('expires_at').execute();

  await db.schema
    .createTable('signature_replay')
    .addColumn('signature', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('signature_replay_expires_idx').on('signature_replay').column('expires_at').execute();

  await db.schema.alterTable('api_log').addColumn('idempotent_replayed', 'integer').execute();
}

/** Drops both tables and the log column. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_log').dropColumn('idempotent_replayed').execute();
  await db.schema.dropTable('signature_replay').execute();
  await db.schema.dropTable('idempotency_key').execute();
}
