/**
 * The transfer module (docs/deployment.md#11-moving-a-business-in-and-out): where an imported business came
 * from, and the ids its records got here.
 *
 * Frozen: never edit after it has landed; add a new migration instead. Imports nothing from `src/`.
 * Dialect helpers as in 2026_11_22_0004_notification (ISO text / timestamptz date-times, 0/1 / boolean).
 *
 * - `transfer_origin`: one row per imported business: the source's base URL (or `file:<path>`), the first
 *   characters of its API key, the last run's start and whether a run finished. An import without
 *   `--business` finds its business again here by (url, api_key_prefix).
 * - `transfer_id_map`: one row per record a run restored: its resource (the stream's type, `client`,
 *   `inquiry.text_history`, `inquiry.file`, …), its id on the source and its id here. Written in the
 *   record's own transaction, so a kill never leaves a record without its row.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

/** Creates `transfer_origin` and `transfer_id_map`. */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? sql`timestamptz` : sql`text`;
  const bool = pg ? sql`boolean` : sql`integer`;
  await db.schema
    .createTable('transfer_origin')
    .addColumn('business_id', 'integer', (c) => c.primaryKey().references('business.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('api_key_prefix', 'text', (c) => c.notNull())
    .addColumn('last_run', ts, (c) => c.notNull())
    .addColumn('complete', bool, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('transfer_origin_source_idx')
    .on('transfer_origin')
    .columns(['url', 'api_key_prefix'])
    .execute();
  await db.schema
    .createTable('transfer_id_map')
    .addColumn('business_id', 'integer', (c) => c.notNull().references('business.id').onDelete('cascade'))
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('source_id', 'integer', (c) => c.notNull())
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('transfer_id_map_pk', ['business_id', 'resource', 'source_id'])
    .execute();
}

/** Drops both tables. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('transfer_id_map').execute();
  await db.schema.dropTable('transfer_origin').execute();
}
