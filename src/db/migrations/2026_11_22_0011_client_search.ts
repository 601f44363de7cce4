/**
 * Indexed client search (issue 7): the `search` filter (decisions §5: every term a case-insensitive
 * substring of company name, person in charge, contact or e-mail) served by a trigram index instead of a
 * full scan.
 * - SQLite: an FTS5 table with the trigram tokenizer over the four columns, as an external-content index of
 *   `client` kept current by triggers. The repository uses it to narrow the candidates; the exact LIKE
 *   predicate still decides, so results are the same as without the index.
 * - PostgreSQL: one GIN index `(business_id, lower(col) gin_trgm_ops, …)` (extensions `pg_trgm` and
 *   `btree_gin`, both trusted, so the database owner can create them) that serves the LIKE predicates
 *   directly and leads with `business_id` like every list index.
 *
 * Frozen: never edit after it has landed; add a new migration instead. Imports nothing from `src/`.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

const COLUMNS = ['company_name', 'in_charge', 'contact', 'email'] as const;

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Creates the search index of `client` and fills it from the existing rows. */
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create extension if not exists btree_gin`.execute(db);
    await sql
      .raw(
        `create index client_business_search_idx on client using gin (business_id, ${COLUMNS.map((c) => `lower(${c}) gin_trgm_ops`).join(', ')})`,
      )
      .execute(db);
    return;
  }
  const cols = COLUMNS.join(', ');
  const values = (prefix: 'new' | 'old') => COLUMNS.map((c) => `${prefix}.${c}`).join(', ');
  await sql
    .raw(
      `create virtual table client_search using fts5(${cols}, content='client', content_rowid='id', tokenize='trigram')`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger client_search_insert after insert on client begin
      insert into client_search(rowid, ${cols}) values (new.id, ${values('new')});
    end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger client_search_delete after delete on client begin
      insert into client_search(client_search, rowid, ${cols}) values ('delete', old.id, ${values('old')});
    end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger client_search_update after update of ${cols} on client begin
      insert into client_search(client_search, rowid, ${cols}) values ('delete', old.id, ${values('old')});
      insert into client_search(rowid, ${cols}) values (new.id, ${values('new')});
    end`,
    )
    .execute(db);
  await sql.raw(`insert into client_search(client_search) values ('rebuild')`).execute(db);
}

/** Drops the search index. */
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop index if exists client_business_search_idx`.execute(db);
    return;
  }
  for (const t of ['client_search_insert', 'client_search_delete', 'client_search_update'])
    await sql.raw(`drop trigger if exists ${t}`).execute(db);
  await sql`drop table if exists client_search`.execute(db);
}
