/**
 * `updated` (docs/api.md#events): the last change of every resource the API can write, set at create and at
 * every write that changes the record or one of its sets. Existing rows take their `created`.
 *
 * Frozen: never edit after it has landed; add a new migration instead. Imports nothing from `src/`.
 * The column is nullable in the database (SQLite cannot add a NOT NULL column without a constant default);
 * the application writes it on every insert. `(business_id, updated)` indexes serve the `updated_start` /
 * `updated_end` filters of the top-level lists (notes are listed per parent and need none).
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

/** The tables that gain `updated`, and whether their list gets an index on it. */
const TABLES: readonly [string, boolean][] = [
  ['inquiry', true],
  ['client', true],
  ['contract', true],
  ['settlement', true],
  ['project', true],
  ['worker', true],
  ['todo', true],
  ['estimate_item', true],
  ['inquiry_text_history', false],
  ['contract_note', false],
  ['settlement_note', false],
];

/** Adds `updated` to each table, fills it with `created`, and indexes the lists. */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = db.getExecutor().adapter instanceof PostgresAdapter ? sql`timestamptz` : sql`text`;
  for (const [table, indexed] of TABLES) {
    await db.schema.alterTable(table).addColumn('updated', ts).execute();
    await sql`update ${sql.table(table)} set updated = created`.execute(db);
    if (indexed)
      await db.schema
        .createIndex(`${table}_business_updated_idx`)
        .on(table)
        .columns(['business_id', 'updated'])
        .execute();
  }
}

/** Drops the indexes and the columns. */
export async function down(db: Kysely<any>): Promise<void> {
  for (const [table, indexed] of TABLES) {
    if (indexed) await db.schema.dropIndex(`${table}_business_updated_idx`).execute();
    await db.schema.alterTable(table).dropColumn('updated').execute();
  }
}
