/**
 * The schema check of issue 41 (docs/deployment.md#10-beyond-one-postgresql-server-citus-distributed-by-business_id):
 * reads the migrated schema from the catalog and fails on
 * - a table that src/db/table-kinds.ts does not declare, or a declared id column that does not exist;
 * - on PostgreSQL, a primary key, unique constraint or unique index of a business-owned table without
 *   `business_id`, a foreign key from a business-owned table to another without `business_id` on both
 *   sides, and such a foreign key with an action Citus refuses on a key that includes the distribution
 *   column (`ON DELETE SET NULL`/`SET DEFAULT`, even with a column list; `ON UPDATE` other than `NO
 *   ACTION`/`RESTRICT`: citus v13.2.2, commands/foreign_constraint.c, EnsureSupportedFKeyOnDistKey);
 * - a 32-bit id: every declared id and id-referencing column, every column named `id` or `…_id`, and
 *   every identity sequence must be 64-bit (`bigint`; SQLite's `INTEGER` always is).
 * SQLite is never distributed, so its keys stay as they are (docs/deployment.md#10-beyond-one-postgresql-server-citus-distributed-by-business_id).
 */
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import { SQLITE_ONLY_TABLES, TABLES, type TableName, idColumnsOf } from '../../src/db/table-kinds.ts';
import { DIALECT, openTestDb, type TestDb } from '../setup/test-db.ts';

let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t.close());

/** Every rule broken by the schema `db` is connected to (its current schema), one line each. */
async function schemaViolations(db: Kysely<Database>, dialect: 'sqlite' | 'postgres'): Promise<string[]> {
  return [...new Set(dialect === 'postgres' ? await postgresViolations(db) : await sqliteViolations(db))];
}

const declared = new Set<string>(Object.keys(TABLES));
const isBusiness = (table: string): boolean => declared.has(table) && TABLES[table as TableName].kind === 'business';
const isIdName = (column: string): boolean => column === 'id' || column.endsWith('_id');

async function postgresViolations(db: Kysely<Database>): Promise<string[]> {
  const out: string[] = [];
  const columns = (
    await sql<{ table_name: string; column_name: string; data_type: string }>`
      select table_name, column_name, data_type from information_schema.columns
      where table_schema = current_schema() order by table_name, ordinal_position`.execute(db)
  ).rows;
  const tables = new Set(columns.map((c) => c.table_name));
  const typeOf = new Map(columns.map((c) => [`${c.table_name}.${c.column_name}`, c.data_type]));
  out.push(...declarationViolations(tables, typeOf));

  for (const c of columns) {
    if (!isIdName(c.column_name)) continue;
    const ofDeclared = declared.has(c.table_name) && idColumnsOf(c.table_name as TableName).includes(c.column_name);
    if (['integer', 'smallint'].includes(c.data_type))
      out.push(`${c.table_name}.${c.column_name} is a 32-bit id (${c.data_type})`);
    else if (!ofDeclared && c.data_type === 'bigint')
      out.push(`${c.table_name}.${c.column_name} looks like an id but src/db/table-kinds.ts does not declare it`);
  }
  for (const table of tables) {
    if (!declared.has(table)) continue;
    for (const column of idColumnsOf(table as TableName)) {
      const type = typeOf.get(`${table}.${column}`);
      if (type !== undefined && type !== 'bigint') out.push(`${table}.${column} is a 32-bit id (${type})`);
    }
  }
  const sequences = (
    await sql<{ name: string; data_type: string }>`
      select sequencename as name, data_type::text as data_type from pg_sequences where schemaname = current_schema()`.execute(
      db,
    )
  ).rows;
  for (const s of sequences) if (s.data_type !== 'bigint') out.push(`sequence ${s.name} is ${s.data_type}`);

  // Keys: constraints (p, u, f) and unique indexes that back no constraint.
  const keys = (
    await sql<{
      table: string;
      name: string;
      type: string;
      columns: string[];
      foreign_table: string | null;
      foreign_columns: string[] | null;
      on_delete: string;
      on_update: string;
    }>`
      select c.relname as "table", con.conname as name, con.contype as type,
        array(select a.attname::text from unnest(con.conkey) with ordinality k(n, o) join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n order by k.o) as columns,
        f.relname as foreign_table,
        array(select a.attname::text from unnest(con.confkey) with ordinality k(n, o) join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n order by k.o) as foreign_columns,
        con.confdeltype as on_delete, con.confupdtype as on_update
      from pg_constraint con
      join pg_class c on c.oid = con.conrelid
      left join pg_class f on f.oid = con.confrelid
      where c.relnamespace = current_schema()::regnamespace and con.contype in ('p', 'u', 'f')
      union all
      select c.relname, i.relname, 'i',
        array(select a.attname::text from unnest(x.indkey) with ordinality k(n, o) join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k.n order by k.o),
        null, null, '', ''
      from pg_index x
      join pg_class c on c.oid = x.indrelid
      join pg_class i on i.oid = x.indexrelid
      where c.relnamespace = current_schema()::regnamespace and x.indisunique
        and not exists (select 1 from pg_constraint con where con.conindid = x.indexrelid)`.execute(db)
  ).rows;
  const kinds: Record<string, string> = {
    p: 'primary key',
    u: 'unique constraint',
    i: 'unique index',
    f: 'foreign key',
  };
  for (const k of keys) {
    if (!isBusiness(k.table)) continue;
    const what = `${k.table}: ${kinds[k.type]} ${k.name} (${k.columns.join(', ')})`;
    if (k.type !== 'f') {
      if (!k.columns.includes('business_id')) out.push(`${what} lacks business_id`);
      else if (k.type === 'p' && k.columns[0] !== 'business_id') out.push(`${what} does not lead with business_id`);
      continue;
    }
    if (!isBusiness(k.foreign_table!) || k.columns.join() === 'business_id') continue;
    const target = `${k.foreign_table} (${k.foreign_columns!.join(', ')})`;
    if (!k.columns.includes('business_id') || k.foreign_columns![k.columns.indexOf('business_id')] !== 'business_id') {
      out.push(`${what} → ${target} lacks business_id`);
    }
    if (k.columns.includes('business_id') && (k.on_delete === 'n' || k.on_delete === 'd')) {
      out.push(
        `${what} → ${target}: ON DELETE SET ${k.on_delete === 'n' ? 'NULL' : 'DEFAULT'}, which Citus refuses on a key with the distribution column (NO ACTION, and the application clears the column first)`,
      );
    }
    if (k.columns.includes('business_id') && !['a', 'r'].includes(k.on_update)) {
      out.push(`${what} → ${target}: an ON UPDATE action Citus refuses on a key with the distribution column`);
    }
  }
  return out;
}

async function sqliteViolations(db: Kysely<Database>): Promise<string[]> {
  const columns = (
    await sql<{ table_name: string; column_name: string; data_type: string }>`
      select m.name as table_name, p.name as column_name, upper(p.type) as data_type
      from sqlite_master m join pragma_table_info(m.name) p
      where m.type = 'table' and m.name not like 'sqlite_%'
        -- SQLite's own search index (FTS5 tables and their shadows, migrations 0011, 0033, 0044): no ids
        and m.name not like 'client_search%' and m.name <> 'bigram_position'`.execute(db)
  ).rows.filter((c) => !SQLITE_ONLY_TABLES.includes(c.table_name)); // the API-key cache's counter: no ids
  const tables = new Set(columns.map((c) => c.table_name));
  const typeOf = new Map(columns.map((c) => [`${c.table_name}.${c.column_name}`, c.data_type]));
  const out = declarationViolations(tables, typeOf);
  // SQLite's INTEGER holds 64 bits; an id declared with another type (TEXT, REAL) would not compare as one.
  for (const table of tables) {
    if (!declared.has(table)) continue;
    for (const column of idColumnsOf(table as TableName)) {
      const type = typeOf.get(`${table}.${column}`);
      if (type !== undefined && type !== 'INTEGER' && type !== 'BIGINT')
        out.push(`${table}.${column} is not an integer id (${type})`);
    }
  }
  return out;
}

/** Tables present but not declared, and declared id columns that the table does not have. */
function declarationViolations(tables: Set<string>, typeOf: Map<string, string>): string[] {
  const out: string[] = [];
  for (const table of tables) if (!declared.has(table)) out.push(`${table} is not declared in src/db/table-kinds.ts`);
  for (const table of tables) {
    if (!declared.has(table)) continue;
    for (const column of idColumnsOf(table as TableName)) {
      if (!typeOf.has(`${table}.${column}`))
        out.push(`${table}.${column} is declared but the table has no such column`);
    }
    if (TABLES[table as TableName].kind === 'business' && !typeOf.has(`${table}.business_id`))
      out.push(`${table} is business-owned but has no business_id`);
  }
  return out;
}

it(`the migrated schema keeps the Citus rules: business-owned keys include business_id, ids are 64-bit (${DIALECT})`, async () => {
  expect(await schemaViolations(t.db, DIALECT)).toEqual([]);
});
