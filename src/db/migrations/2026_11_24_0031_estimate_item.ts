/**
 * Estimate item templates (reference: "Estimate item templates"; decisions §11): the per-business
 * classifications, a read-only catalog written by the catalog import in its configured order, and the
 * items themselves (`GET/POST /v1/estimate/item`, …), deleted for good.
 *
 * Frozen: never edit after it has landed; add a new migration instead. Imports nothing from `src/`.
 * Dialect helpers as in 2026_11_22_0002_inquiry; `unit_cost` is an exact decimal like `inquiry.estimate`:
 * text normalised to two decimals (SQLite) / `numeric(30, 2)` (PostgreSQL), negative for discounts.
 * Every index that serves a list leads with `business_id`.
 */
import { type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, PostgresAdapter, sql } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

function dialectOf(db: Kysely<any>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

function helpers(d: Dialect) {
  const idColumn = (c: ColumnDefinitionBuilder) =>
    d === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
  return {
    /** Adds `id` (primary key) to a table. */
    id: <T extends string>(t: CreateTableBuilder<T, never>) => t.addColumn('id', 'integer', idColumn),
    /** Adds `business_id` (not null, references business). */
    businessId: <T extends string, C extends string>(t: CreateTableBuilder<T, C>) =>
      t.addColumn('business_id', 'integer', (c) => c.notNull().references('business.id').onDelete('cascade')),
    ts: d === 'postgres' ? sql`timestamptz` : sql`text`,
    decimal: d === 'postgres' ? sql`numeric(30, 2)` : sql`text`,
  };
}

/** Creates `estimate_item_classification` and `estimate_item` with their list indexes. */
export async function up(db: Kysely<any>): Promise<void> {
  const h = helpers(dialectOf(db));

  // `position` orders the classifications of a business (catalog file order, later imports after).
  await h
    .businessId(h.id(db.schema.createTable('estimate_item_classification')))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created', h.ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('estimate_item_classification_business_position_idx')
    .on('estimate_item_classification')
    .columns(['business_id', 'position', 'id'])
    .execute();

  await h
    .businessId(h.id(db.schema.createTable('estimate_item')))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('unit_cost', h.decimal, (c) => c.notNull())
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('classification_id', 'integer', (c) => c.references('estimate_item_classification.id'))
    .addColumn('created', h.ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('estimate_item_business_created_idx')
    .on('estimate_item')
    .columns(['business_id', 'created desc', 'id desc'])
    .execute();
}

/** Drops both tables (items first: they reference the classifications). */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('estimate_item').execute();
  await db.schema.dropTable('estimate_item_classification').execute();
}
