/**
 * Todos (spec: Resources › Todo; reference: Todo; decisions §7), attached to an inquiry.
 *
 * Frozen: never edit after it has landed; add a new migration instead. Imports nothing from `src/`.
 * Dialect helpers as in 2026_11_22_0001_foundation; times of day are `time` on PostgreSQL and `HH:MM:SS`
 * text on SQLite. Deletion is permanent (no `deleted_at`). Every index leads with `business_id`.
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
    time: d === 'postgres' ? sql`time` : sql`text`,
    bool: d === 'postgres' ? sql`boolean` : sql`integer`,
    falseValue: d === 'postgres' ? sql`false` : sql`0`,
  };
}

/** Creates `todo` with its list and filter indexes. */
export async function up(db: Kysely<any>): Promise<void> {
  const h = helpers(dialectOf(db));

  await h
    .businessId(h.id(db.schema.createTable('todo')))
    .addColumn('inquiry_id', 'integer', (c) => c.notNull().references('inquiry.id').onDelete('cascade'))
    .addColumn('in_charge_id', 'integer', (c) => c.references('member.id'))
    .addColumn('completed_in_charge_id', 'integer', (c) => c.references('member.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('due_date', h.date, (c) => c.notNull())
    .addColumn('due_time', h.time)
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('action_history', 'text')
    .addColumn('is_complete', h.bool, (c) => c.notNull().defaultTo(h.falseValue))
    .addColumn('completed_at', h.ts)
    .addColumn('created', h.ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('todo_business_created_idx')
    .on('todo')
    .columns(['business_id', 'created desc', 'id desc'])
    .execute();
  await db.schema.createIndex('todo_business_inquiry_idx').on('todo').columns(['business_id', 'inquiry_id']).execute();
}

/** Drops the table. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('todo').execute();
}
