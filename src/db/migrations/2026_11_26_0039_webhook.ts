/**
 * Webhooks (docs/webhooks.md): the endpoints of each business and the deliveries of events to them.
 *
 * Frozen: never edit after it has landed; add a new migration instead. Imports nothing from `src/`.
 * Dialect helpers as in 2026_11_22_0004_notification (ids, ISO text / timestamptz date-times, 0/1 / boolean).
 *
 * - `webhook_endpoint`: `event_types` is a JSON array (`["*"]` for every type); `secret` and
 *   `previous_secret` are sealed with the master key (as API key secrets are); `previous_secret` keeps
 *   signing beside the new one until `previous_secret_expires_at` (24 hours after a rotation).
 *   `last_success_at` and `failing_since` (the first failed attempt since the last success) decide when an
 *   endpoint that only fails is disabled (5 days).
 * - `webhook_delivery`: one row per (event, endpoint), written by the dispatcher when it publishes the
 *   event (`event.published_at`), or by the test ping. Claimed with a lease like the notification outbox;
 *   `status` is `pending`, `succeeded` or `failed`; the last attempt's status code, error, duration and the
 *   first 4 KiB of the answer are kept. Deleted with its endpoint or its event.
 *
 * Every list index leads with `business_id`; `webhook_delivery_due_idx` (pending rows only) is the
 * dispatcher's queue across businesses.
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
    id: <T extends string>(t: CreateTableBuilder<T, never>) => t.addColumn('id', 'integer', idColumn),
    businessId: <T extends string, C extends string>(t: CreateTableBuilder<T, C>) =>
      t.addColumn('business_id', 'integer', (c) => c.notNull().references('business.id').onDelete('cascade')),
    ts: d === 'postgres' ? sql`timestamptz` : sql`text`,
    bool: d === 'postgres' ? sql`boolean` : sql`integer`,
  };
}

/** Creates `webhook_endpoint` and `webhook_delivery` with their indexes. */
export async function up(db: Kysely<any>): Promise<void> {
  const h = helpers(dialectOf(db));

  await h
    .businessId(h.id(db.schema.createTable('webhook_endpoint')))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('event_types', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('is_active', h.bool, (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_expires_at', h.ts)
    .addColumn('last_success_at', h.ts)
    .addColumn('failing_since', h.ts)
    .addColumn('created', h.ts, (c) => c.notNull())
    .addColumn('updated', h.ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_endpoint_business_created_idx')
    .on('webhook_endpoint')
    .columns(['business_id', 'created desc', 'id desc'])
    .execute();

  await h
    .businessId(h.id(db.schema.createTable('webhook_delivery')))
    .addColumn('webhook_id', 'integer', (c) => c.notNull().references('webhook_endpoint.id').onDelete('cascade'))
    .addColumn('event_id', 'integer', (c) => c.notNull().references('event.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', h.ts)
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', h.ts)
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('last_response', 'text')
    .addColumn('last_duration_ms', 'integer')
    .addColumn('last_attempt_at', h.ts)
    .addColumn('created', h.ts, (c) => c.notNull())
    .addUniqueConstraint('webhook_delivery_event_webhook_uq', ['event_id', 'webhook_id'])
    .execute();
  await db.schema
    .createIndex('webhook_delivery_business_webhook_created_idx')
    .on('webhook_delivery')
    .columns(['business_id', 'webhook_id', 'created desc', 'id desc'])
    .execute();
  await db.schema.createIndex('webhook_delivery_webhook_idx').on('webhook_delivery').columns(['webhook_id']).execute();
  await db.schema.createIndex('webhook_delivery_created_idx').on('webhook_delivery').columns(['created']).execute();
  await sql`create index webhook_delivery_due_idx on webhook_delivery (next_attempt_at, id) where status = 'pending'`.execute(
    db,
  );
}

/** Drops both tables. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_delivery').execute();
  await db.schema.dropTable('webhook_endpoint').execute();
}
