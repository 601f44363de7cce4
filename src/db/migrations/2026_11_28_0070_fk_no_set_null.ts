/**
 * Foreign keys between business-owned tables that Citus can distribute (issue 41;
 * docs/deployment.md#10-beyond-one-postgresql-server-citus-distributed-by-business_id). PostgreSQL only.
 *
 * Migration 0060 made the foreign keys between business-owned tables `(business_id, x_id) REFERENCES
 * t (business_id, id)` and kept their actions, turning `ON DELETE SET NULL` into `ON DELETE SET NULL
 * (x_id)`. Citus refuses any `SET NULL` or `SET DEFAULT` delete action (column list or not) and any
 * `SET NULL`/`SET DEFAULT`/`CASCADE` update action on a foreign key that includes the distribution column
 * (citus v13.2.2, src/backend/distributed/commands/foreign_constraint.c, EnsureSupportedFKeyOnDistKey:
 * "cannot create foreign key constraint"), so `bizapi distribute` stopped at the first such table.
 *
 * Every such key becomes `ON DELETE NO ACTION` (the check at the end of the statement, so a business's
 * rows deleted together still pass), its update action `NO ACTION` where Citus refuses it, same name, same
 * columns. What the delete did is the application's: the only one the API performs is a contract's, which
 * releases its projects first (each with its `project.updated` event; docs/api.md#cascades); inquiries and
 * members are never deleted on their own. At this date the keys are `contract.inquiry_id`,
 * `contract_note.member_id`, `settlement_status_history.member_id`, `settlement_note.member_id` and
 * `project.contract_id`.
 *
 * SQLite: nothing to do (never distributed; its keys keep `SET NULL`, which the application's release
 * first makes moot).
 *
 * Frozen: imports nothing from src/.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

interface ForeignKey {
  table: string;
  name: string;
  columns: string[];
  foreign_table: string;
  foreign_columns: string[];
  on_delete: string;
  on_update: string;
}

const ACTIONS: Record<string, string> = {
  a: 'no action',
  r: 'restrict',
  c: 'cascade',
  n: 'set null',
  d: 'set default',
};
const q = (name: string): string => `"${name.replaceAll('"', '""')}"`;
const list = (names: readonly string[]): string => names.map(q).join(', ');

/** The foreign keys of the current schema that pair `business_id` with `business_id` (migration 0060's composite ones). */
async function compositeForeignKeys(db: Kysely<any>): Promise<ForeignKey[]> {
  const rows = (
    await sql<ForeignKey>`
      select c.relname as "table", con.conname as name,
        array(select a.attname::text from unnest(con.conkey) with ordinality k(n, o) join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n order by k.o) as columns,
        f.relname as foreign_table,
        array(select a.attname::text from unnest(con.confkey) with ordinality k(n, o) join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n order by k.o) as foreign_columns,
        con.confdeltype as on_delete, con.confupdtype as on_update
      from pg_constraint con join pg_class c on c.oid = con.conrelid join pg_class f on f.oid = con.confrelid
      where c.relnamespace = current_schema()::regnamespace and con.contype = 'f'
      order by c.relname, con.conname`.execute(db)
  ).rows;
  return rows.filter(
    (k) =>
      k.columns.length > 1 && k.columns.some((c, i) => c === 'business_id' && k.foreign_columns[i] === 'business_id'),
  );
}

/** Re-creates foreign key `k` under its name with the given actions. */
async function recreate(db: Kysely<any>, k: ForeignKey, onDelete: string, onUpdate: string): Promise<void> {
  await sql
    .raw(
      `alter table ${q(k.table)} drop constraint ${q(k.name)}, add constraint ${q(k.name)} foreign key (${list(k.columns)}) ` +
        `references ${q(k.foreign_table)} (${list(k.foreign_columns)}) on delete ${onDelete} on update ${onUpdate}`,
    )
    .execute(db);
}

/**
 * Every composite foreign key between business-owned tables with a `SET NULL`/`SET DEFAULT` delete action
 * (or an update action other than `NO ACTION`/`RESTRICT`) becomes `NO ACTION` there: the actions Citus
 * allows on a key that includes the distribution column. One transaction with the other migrations.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const k of await compositeForeignKeys(db)) {
    const badDelete = k.on_delete === 'n' || k.on_delete === 'd';
    const badUpdate = k.on_update === 'n' || k.on_update === 'd' || k.on_update === 'c';
    if (!badDelete && !badUpdate) continue;
    await recreate(
      db,
      k,
      badDelete ? 'no action' : ACTIONS[k.on_delete]!,
      badUpdate ? 'no action' : ACTIONS[k.on_update]!,
    );
  }
}

/** The keys migration 0060 left `ON DELETE SET NULL (x_id)` (for tests that go back to an older migration). */
const SET_NULL_BEFORE = new Set([
  'contract_inquiry_id_fkey',
  'contract_note_member_id_fkey',
  'settlement_status_history_member_id_fkey',
  'settlement_note_member_id_fkey',
  'project_contract_id_fkey',
]);

/** Back to `ON DELETE SET NULL (x_id)` on the keys {@link up} changed (those named in SET_NULL_BEFORE). */
export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const k of await compositeForeignKeys(db)) {
    if (!SET_NULL_BEFORE.has(k.name) || k.on_delete !== 'a') continue;
    const nulled = k.columns.filter((c) => c !== 'business_id');
    await recreate(db, k, `set null (${list(nulled)})`, ACTIONS[k.on_update]!);
  }
}
