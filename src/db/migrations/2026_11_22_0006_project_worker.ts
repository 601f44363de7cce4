/**
 * Projects and workers (spec: Resources › Project, Worker; reference: Project, Worker).
 *
 * Frozen: never edit after it has landed; add a new migration instead. Imports nothing from `src/`.
 * Dialect helpers as in 2026_11_22_0001_foundation. Both tables are soft-deleted (`deleted_at`), and their
 * list index leads with `business_id`. The project's contract reference is added by a later migration.
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
    date: d === 'postgres' ? sql`date` : sql`text`,
    bool: d === 'postgres' ? sql`boolean` : sql`integer`,
    falseValue: d === 'postgres' ? sql`false` : sql`0`,
  };
}

/** Creates `project` and `worker` with their list indexes. */
export async function up(db: Kysely<any>): Promise<void> {
  const h = helpers(dialectOf(db));

  await h
    .businessId(h.id(db.schema.createTable('project')))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('symbol_color', 'text')
    .addColumn('start_date', h.date)
    .addColumn('end_date', h.date)
    .addColumn('actual_end_date', h.date)
    .addColumn('is_hidden', h.bool, (c) => c.notNull().defaultTo(h.falseValue))
    .addColumn('created', h.ts, (c) => c.notNull())
    .addColumn('deleted_at', h.ts)
    .execute();
  await db.schema
    .createIndex('project_business_created_idx')
    .on('project')
    .columns(['business_id', 'created desc', 'id desc'])
    .execute();

  await h
    .businessId(h.id(db.schema.createTable('worker')))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('position_id', 'integer', (c) => c.references('worker_position.id'))
    .addColumn('sort_order', 'integer', (c) => c.notNull())
    .addColumn('is_hidden', h.bool, (c) => c.notNull().defaultTo(h.falseValue))
    .addColumn('man_month_amount', 'bigint', (c) => c.notNull())
    .addColumn('created', h.ts, (c) => c.notNull())
    .addColumn('deleted_at', h.ts)
    .execute();
  await db.schema
    .createIndex('worker_business_created_idx')
    .on('worker')
    .columns(['business_id', 'created desc', 'id desc'])
    .execute();
}

/** Drops both tables. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('worker').execute();
  await db.schema.dropTable('project').execute();
}
