/**
 * The change feed to sync by (docs/api.md#events, issue 28): every event names its parent and gets a
 * sequence once its transaction has committed.
 *
 * Frozen: never edit after it has landed; add a new migration instead. Imports nothing from `src/`.
 *
 * - `event.parent_type`, `event.parent_id`: the record a note or history event belongs to (`inquiry`,
 *   `contract`, `settlement` and its id), both null for other events. Existing note events get the parent
 *   of the note their `data.id` names while that note still exists; else (a deleted note) null.
 * - `event.sequence` (bigint, null until assigned): strictly increasing in the order events become
 *   visible, assigned after commit by the event service's `assignSequences`. Existing events get 1, 2, …
 *   in id order.
 * - `event_sequence`: one row (`id` 1) holding the last sequence given, so that sequences never go back,
 *   also after the retention purge deleted the newest events of an idle installation.
 * - `event_business_sequence_idx (business_id, sequence)`: `GET /v1/event?after_sequence=N`;
 *   `event_unsequenced_idx (id) where sequence is null`: the assigner's queue (holds only unsequenced rows).
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The note tables, the parent they hang off, and their events' type prefix. */
const NOTES = [
  { prefix: 'inquiry.text_history', table: 'inquiry_text_history', parent: 'inquiry', column: 'inquiry_id' },
  { prefix: 'contract.history', table: 'contract_note', parent: 'contract', column: 'contract_id' },
  { prefix: 'settlement.history', table: 'settlement_note', parent: 'settlement', column: 'settlement_id' },
] as const;

/** Adds the columns, the counter and the indexes; fills sequences and parents of existing events. */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema.alterTable('event').addColumn('parent_type', 'text').execute();
  await db.schema.alterTable('event').addColumn('parent_id', 'integer').execute();
  await db.schema.alterTable('event').addColumn('sequence', 'bigint').execute();
  await db.schema
    .createTable('event_sequence')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('last_value', 'bigint', (c) => c.notNull())
    .execute();

  const dataId = pg ? sql.raw(`(event.data::jsonb->>'id')::integer`) : sql.raw(`json_extract(event.data, '$.id')`);
  for (const n of NOTES) {
    const types = ['created', 'updated', 'deleted'].map((a) => `${n.prefix}.${a}`);
    await sql`
      update event set parent_type = ${n.parent},
        parent_id = (select h.${sql.ref(n.column)} from ${sql.table(n.table)} as h where h.id = ${dataId} and h.business_id = event.business_id)
      where type in (${sql.join(types)})`.execute(db);
    await sql`update event set parent_type = null where parent_id is null`.execute(db);
  }

  await sql`
    update event set sequence = t.rn
    from (select id, row_number() over (order by id) as rn from event) as t
    where event.id = t.id`.execute(db);
  await sql`insert into event_sequence (id, last_value) select 1, coalesce(max(sequence), 0) from event`.execute(db);

  await sql`create index event_business_sequence_idx on event (business_id, sequence)`.execute(db);
  await sql`create index event_unsequenced_idx on event (id) where sequence is null`.execute(db);
}

/** Drops them. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index event_unsequenced_idx`.execute(db);
  await sql`drop index event_business_sequence_idx`.execute(db);
  await db.schema.dropTable('event_sequence').execute();
  await db.schema.alterTable('event').dropColumn('sequence').execute();
  await db.schema.alterTable('event').dropColumn('parent_id').execute();
  await db.schema.alterTable('event').dropColumn('parent_type').execute();
}
