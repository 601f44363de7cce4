/**
 * 64-bit ids and keys by business (issue 41; docs/deployment.md, "Converting to 64-bit ids and keys by
 * business"). PostgreSQL only, reading the schema it converts from the catalog:
 *
 * - every column named `id` or `…_id` that is `integer`/`smallint` becomes `bigint` (identity sequences
 *   follow their column; any other sequence is altered `AS bigint`), one table rewrite per table;
 * - on a business-owned table (one with `business_id`, other than those in NOT_BUSINESS_OWNED) the primary
 *   key becomes `(business_id, …its columns)` and every unique constraint gains `business_id` in front,
 *   under the same names; a plain index on `(id)` replaces the old primary key's index, for the look-ups
 *   by id alone that remain (the restore's "is this id free", background work by id);
 * - every foreign key from a business-owned table to another becomes `(business_id, x_id) REFERENCES
 *   t (business_id, id)` with the same actions, `ON DELETE SET NULL (x_id)` so that `business_id` is never
 *   nulled; foreign keys to `business` stay as they were.
 *
 * Ids keep their values and their sequences (unique across the server), so nothing on the wire changes.
 * A table already in this shape (created so by a later-written migration) is left as it is. Kysely runs the
 * migrations of one `migrate` in one transaction on PostgreSQL: a failure leaves the schema as it was.
 *
 * SQLite: nothing to do. Its `INTEGER` ids are already 64-bit, and its keys stay `id` alone: an SQLite
 * database is never distributed, and `INTEGER PRIMARY KEY` is the table's rowid (a composite key would
 * need every table copied, for a slower key).
 *
 * Frozen: imports nothing from src/.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

/** Tables with a `business_id` column that are not distributed by it (src/db/table-kinds.ts at this date). */
const NOT_BUSINESS_OWNED = new Set(['business', 'api_key', 'rate_limit_counter', 'signature_replay', 'event_sequence']);
const MIGRATOR_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

interface Column {
  table: string;
  column: string;
  type: string;
}
interface Key {
  table: string;
  name: string;
  type: 'p' | 'u' | 'f';
  columns: string[];
  foreign_table: string | null;
  foreign_columns: string[];
  on_delete: string;
  on_update: string;
  definition: string;
}
interface UniqueIndex {
  table: string;
  name: string;
  columns: string[];
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

/**
 * Converts the schema in place (PostgreSQL only; SQLite is left as it is): id and `…_id` columns and their
 * sequences to bigint, business-owned keys to `(business_id, …)`, foreign keys between business-owned tables
 * composite (docs/deployment.md#converting-to-64-bit-ids-and-keys-by-business). One transaction.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;

  const columns = (
    await sql<Column>`
      select c.relname as "table", a.attname as "column", format_type(a.atttypid, a.atttypmod) as type
      from pg_attribute a join pg_class c on c.oid = a.attrelid
      where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped
      order by c.relname, a.attnum`.execute(db)
  ).rows.filter((c) => !MIGRATOR_TABLES.has(c.table));
  const tables = [...new Set(columns.map((c) => c.table))];
  const business = new Set(
    tables.filter(
      (t) => !NOT_BUSINESS_OWNED.has(t) && columns.some((c) => c.table === t && c.column === 'business_id'),
    ),
  );

  const keys = (
    await sql<Key>`
      select c.relname as "table", con.conname as name, con.contype as type,
        array(select a.attname::text from unnest(con.conkey) with ordinality k(n, o) join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n order by k.o) as columns,
        f.relname as foreign_table,
        array(select a.attname::text from unnest(con.confkey) with ordinality k(n, o) join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n order by k.o) as foreign_columns,
        con.confdeltype as on_delete, con.confupdtype as on_update, pg_get_constraintdef(con.oid) as definition
      from pg_constraint con join pg_class c on c.oid = con.conrelid left join pg_class f on f.oid = con.confrelid
      where c.relnamespace = current_schema()::regnamespace and con.contype in ('p', 'u', 'f')
      order by c.relname, con.conname`.execute(db)
  ).rows.filter((k) => !MIGRATOR_TABLES.has(k.table));
  const uniqueIndexes = (
    await sql<UniqueIndex>`
      select c.relname as "table", i.relname as name,
        array(select a.attname::text from unnest(x.indkey) k join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k) as columns
      from pg_index x join pg_class c on c.oid = x.indrelid join pg_class i on i.oid = x.indexrelid
      where c.relnamespace = current_schema()::regnamespace and x.indisunique
        and not exists (select 1 from pg_constraint con where con.conindid = x.indexrelid)`.execute(db)
  ).rows;
  for (const u of uniqueIndexes) {
    if (business.has(u.table) && !u.columns.includes('business_id')) {
      throw new Error(
        `unique index ${u.name} of the business-owned table ${u.table} lacks business_id; this migration does not rewrite unique indexes`,
      );
    }
  }

  // 1. Foreign keys go first: a key they reference cannot change under them. Each comes back in step 3.
  const foreignKeys = keys.filter((k) => k.type === 'f');
  for (const k of foreignKeys) await sql.raw(`alter table ${q(k.table)} drop constraint ${q(k.name)}`).execute(db);

  // 2. Per table, one ALTER TABLE (one rewrite): ids to bigint, keys with business_id in front.
  for (const table of tables) {
    const steps: string[] = [];
    for (const c of columns) {
      if (
        c.table === table &&
        (c.column === 'id' || c.column.endsWith('_id')) &&
        (c.type === 'integer' || c.type === 'smallint')
      ) {
        steps.push(`alter column ${q(c.column)} set data type bigint`);
      }
    }
    let idKeyReplaced = false;
    if (business.has(table)) {
      for (const k of keys) {
        if (k.table !== table || k.type === 'f' || k.columns.includes('business_id')) continue;
        steps.push(`drop constraint ${q(k.name)}`);
        steps.push(
          `add constraint ${q(k.name)} ${k.type === 'p' ? 'primary key' : 'unique'} (${list(['business_id', ...k.columns])})`,
        );
        if (k.type === 'p' && k.columns.join() === 'id') idKeyReplaced = true;
      }
    }
    if (steps.length > 0) await sql.raw(`alter table ${q(table)} ${steps.join(', ')}`).execute(db);
    if (idKeyReplaced) await sql.raw(`create index ${q(`${table}_id_idx`)} on ${q(table)} (id)`).execute(db);
  }
  const sequences = (
    await sql<{ name: string }>`
      select sequencename as name from pg_sequences where schemaname = current_schema() and data_type <> 'bigint'::regtype`.execute(
      db,
    )
  ).rows;
  for (const s of sequences) await sql.raw(`alter sequence ${q(s.name)} as bigint`).execute(db);

  // 3. Foreign keys back: between business-owned tables with business_id on both sides.
  for (const k of foreignKeys) {
    const composite = business.has(k.table) && business.has(k.foreign_table!) && !k.columns.includes('business_id');
    if (!composite) {
      await sql.raw(`alter table ${q(k.table)} add constraint ${q(k.name)} ${k.definition}`).execute(db);
      continue;
    }
    const onDelete = ACTIONS[k.on_delete]!;
    const nulled = k.on_delete === 'n' || k.on_delete === 'd' ? ` (${list(k.columns)})` : '';
    await sql
      .raw(
        `alter table ${q(k.table)} add constraint ${q(k.name)} foreign key (${list(['business_id', ...k.columns])}) ` +
          `references ${q(k.foreign_table!)} (${list(['business_id', ...k.foreign_columns])}) on delete ${onDelete}${nulled} on update ${ACTIONS[k.on_update]!}`,
      )
      .execute(db);
  }
}

/**
 * The keys as they were (for tests that go back to an older migration): primary keys and unique
 * constraints without the `business_id` this migration put in front, plain foreign keys, no `(id)` index.
 * The ids stay `bigint`: values may have grown past 32 bits, and the older code reads them the same.
 */
export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  const keys = (
    await sql<Key>`
      select c.relname as "table", con.conname as name, con.contype as type,
        array(select a.attname::text from unnest(con.conkey) with ordinality k(n, o) join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n order by k.o) as columns,
        f.relname as foreign_table,
        array(select a.attname::text from unnest(con.confkey) with ordinality k(n, o) join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n order by k.o) as foreign_columns,
        con.confdeltype as on_delete, con.confupdtype as on_update, pg_get_constraintdef(con.oid) as definition
      from pg_constraint con join pg_class c on c.oid = con.conrelid left join pg_class f on f.oid = con.confrelid
      where c.relnamespace = current_schema()::regnamespace and con.contype in ('p', 'u', 'f')
      order by c.relname, con.conname`.execute(db)
  ).rows;
  const widened = (k: Key): boolean =>
    k.columns.length > 1 && k.columns[0] === 'business_id' && !KEYS_WITH_BUSINESS_BEFORE.has(k.name);
  const foreignKeys = keys.filter((k) => k.type === 'f' && widened(k) && k.foreign_columns[0] === 'business_id');
  for (const k of foreignKeys) await sql.raw(`alter table ${q(k.table)} drop constraint ${q(k.name)}`).execute(db);
  for (const k of keys) {
    if (k.type === 'f' || !widened(k)) continue;
    await sql.raw(`drop index if exists ${q(`${k.table}_id_idx`)}`).execute(db);
    await sql
      .raw(
        `alter table ${q(k.table)} drop constraint ${q(k.name)}, add constraint ${q(k.name)} ${k.type === 'p' ? 'primary key' : 'unique'} (${list(k.columns.slice(1))})`,
      )
      .execute(db);
  }
  for (const k of foreignKeys) {
    await sql
      .raw(
        `alter table ${q(k.table)} add constraint ${q(k.name)} foreign key (${list(k.columns.slice(1))}) ` +
          `references ${q(k.foreign_table!)} (${list(k.foreign_columns.slice(1))}) on delete ${ACTIONS[k.on_delete]!} on update ${ACTIONS[k.on_update]!}`,
      )
      .execute(db);
  }
}

/** The keys of business-owned tables that had `business_id` in front before this migration (migrations 0001–0047). */
const KEYS_WITH_BUSINESS_BEFORE = new Set([
  'inquiry_counter_pk',
  'transfer_id_map_pk',
  'transfer_origin_pkey',
  'idempotency_key_business_key_unique',
  'notification_business_outbox_uq',
  'file_business_path_uq',
  'inquiry_file_business_file_uq',
  'inquiry_business_unique_id_uq',
]);
