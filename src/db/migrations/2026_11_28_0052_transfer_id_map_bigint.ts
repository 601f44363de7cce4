/**
 * The transfer id map holds any source id (docs/deployment.md#ids-kept-and-ids-remapped).
 *
 * Frozen: never edit after it has landed; add a new migration instead. Imports nothing from `src/`.
 *
 * - PostgreSQL: `transfer_id_map.source_id` and `target_id` become `bigint`. A source's ids are its own:
 *   the reference service hands out ids above 2^31 − 1, which an `integer` column refused (`value
 *   "3000000123" is out of range for type integer`), so such a record could not be imported even under a
 *   new id. Already `bigint` (64-bit ids converted first): nothing changes.
 * - SQLite: `INTEGER` is already 64-bit; nothing to do.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

/** Widens both id columns on PostgreSQL. */
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table transfer_id_map alter column source_id type bigint, alter column target_id type bigint`.execute(db);
}

/** Leaves them wide: narrowing could fail on ids already stored. */
export async function down(): Promise<void> {}
