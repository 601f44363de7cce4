/**
 * Change events (docs/api.md#events): one row per create, change and delete of a writable resource, written
 * in the transaction of the change.
 *
 * Frozen: never edit after it has landed; add a new migration instead. Imports nothing from `src/`.
 * Dialect helpers as in 2026_11_22_0004_notification (ids, ISO text / timestamptz date-times).
 *
 * - `type`: `<resource>.<created|updated|deleted>` (or `webhook.test`);
 * - `changed_fields`: JSON array of the camelCase properties an update changed (`[]` otherwise);
 * - `data`: JSON of the record's full shape after the change (`{"id": …}` for a delete);
 * - `published_at`: when the webhook dispatcher fanned the event out into deliveries (`null` until then).
 *   The partial index `event_unpublished_idx` is the dispatcher's queue; it holds only unpublished rows.
 *
 * The list index leads with `business_id`; `event_created_idx` serves the retention purge (all businesses).
 */
import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter, sql } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

function dialectOf(db: Kysely<any>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** Creates `event` with its indexes. */
export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  const idColumn = (c: ColumnDefinitionBuilder) =>
    d === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
  const ts = d === 'postgres' ? sql`timestamptz` : sql`text`;
  await db.schema
    .createTable('event')
    .addColumn('id', 'integer', idColumn)
    .addColumn('business_id', 'integer', (c) => c.notNull().references('business.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('created', ts, (c) => c.notNull())
    .addColumn('changed_fields', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('published_at', ts)
    .execute();
  await db.schema
    .createIndex('event_business_created_idx')
    .on('event')
    .columns(['business_id', 'created desc', 'id desc'])
    .execute();
  await db.schema.createIndex('event_created_idx').on('event').columns(['created']).execute();
  await sql`create index event_unpublished_idx on event (id) where published_at is null`.execute(db);
}

/** Drops `event`. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('event').execute();
}
