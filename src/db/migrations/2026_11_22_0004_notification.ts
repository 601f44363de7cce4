/**
 * Notifications (decisions §8): the transactional outbox and the in-app notifications.
 *
 * Frozen: never edit after it has landed; add a new migration instead. Imports nothing from `src/`.
 * Same dialect helpers as the foundation migration (ids, ISO text / timestamptz date-times, 0/1 / boolean).
 *
 * - `notification_outbox`: one row per (event, recipient member), written in the transaction of the change
 *   that caused it. No foreign key to the inquiry tables (the outbox does not depend on their migration).
 *   The dispatcher claims due rows with a lease (`lease_owner`, `lease_until`), marks each channel done as
 *   soon as it is delivered (`in_app_at`, `email_at`, `push_at`) so that a retry never repeats a channel,
 *   and ends a row with `delivered_at` (all channels done) or `failed_at` (attempts exhausted).
 * - `notification`: the in-app notifications, one per outbox row at most (`(business_id, outbox_id)` unique,
 *   which makes the in-app delivery idempotent).
 *
 * Every list index leads with `business_id`; the one exception is the dispatcher's queue index
 * (`notification_outbox_due_idx`), which serves the cross-business poll for due rows, not a list, and only
 * holds pending rows (partial index).
 */
import { type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, PostgresAdapter, sql } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

function dialectOf(db: Kysely<any>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

function helpers(d: Dialect) {
  const idColumn = (c: ColumnDefinitionBuilder) =>
    d === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
  const ts = d === 'postgres' ? sql`timestamptz` : sql`text`;
  return {
    /** Adds `id` (primary key) to a table. */
    id: <T extends string>(t: CreateTableBuilder<T, never>) => t.addColumn('id', 'integer', idColumn),
    /** Adds `business_id` (not null, references business). */
    businessId: <T extends string, C extends string>(t: CreateTableBuilder<T, C>) =>
      t.addColumn('business_id', 'integer', (c) => c.notNull().references('business.id').onDelete('cascade')),
    ts,
  };
}

/** Creates `notification_outbox` and `notification` with their indexes. */
export async function up(db: Kysely<any>): Promise<void> {
  const h = helpers(dialectOf(db));

  await h
    .businessId(h.id(db.schema.createTable('notification_outbox')))
    .addColumn('member_id', 'integer', (c) => c.notNull().references('member.id').onDelete('cascade'))
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('inquiry_id', 'integer', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created', h.ts, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', h.ts, (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', h.ts)
    .addColumn('in_app_at', h.ts)
    .addColumn('email_at', h.ts)
    .addColumn('push_at', h.ts)
    .addColumn('delivered_at', h.ts)
    .addColumn('failed_at', h.ts)
    .addColumn('last_error', 'text')
    .execute();
  await db.schema
    .createIndex('notification_outbox_business_created_idx')
    .on('notification_outbox')
    .columns(['business_id', 'created desc', 'id desc'])
    .execute();
  await sql`create index notification_outbox_due_idx on notification_outbox (next_attempt_at, id) where delivered_at is null and failed_at is null`.execute(
    db,
  );

  await h
    .businessId(h.id(db.schema.createTable('notification')))
    .addColumn('member_id', 'integer', (c) => c.notNull().references('member.id').onDelete('cascade'))
    .addColumn('outbox_id', 'integer', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('inquiry_id', 'integer')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('created', h.ts, (c) => c.notNull())
    .addUniqueConstraint('notification_business_outbox_uq', ['business_id', 'outbox_id'])
    .execute();
  await db.schema
    .createIndex('notification_business_created_idx')
    .on('notification')
    .columns(['business_id', 'created desc', 'id desc'])
    .execute();
  await db.schema
    .createIndex('notification_business_member_created_idx')
    .on('notification')
    .columns(['business_id', 'member_id', 'created desc', 'id desc'])
    .execute();
}

/** Drops both tables. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notification').execute();
  await db.schema.dropTable('notification_outbox').execute();
}
