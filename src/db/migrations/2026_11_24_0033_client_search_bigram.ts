/**
 * Client search for two-character terms (issue 19): the trigram indexes of migration 0011 serve terms of
 * three characters or more only (pg_trgm extracts no trigram from a two-character LIKE pattern; FTS5's
 * trigram tokenizer needs three characters), and Korean names and companies are often two syllables.
 * This adds an index of the two-character substrings ("bigrams") of `lower(col)` for the four searched
 * columns (company name, person in charge, contact, e-mail):
 * - PostgreSQL: an immutable function `bizapi_client_bigrams(a, b, c, d)` (the distinct bigrams of the
 *   lower-cased values, per value, so none spans two columns) and a GIN index
 *   `(business_id, bizapi_client_bigrams(…))` (btree_gin, from 0011) that serves `@> array[lower(term)]`.
 * - SQLite: a side table `client_bigram (business_id, bigram, client_id)` kept current by triggers, with a
 *   `bigram_position` table of the positions 1…4096 (SQLite allows no recursive CTE inside a trigger; values
 *   longer than 4096 characters are indexed on their first 4096 — the API accepts at most 254).
 * The repository uses it to narrow the candidates; the exact LIKE predicate still decides.
 *
 * Frozen: never edit after it has landed; add a new migration instead. Imports nothing from `src/`.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

const COLUMNS = ['company_name', 'in_charge', 'contact', 'email'] as const;
const MAX_POSITION = 4096;

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The rows of client_bigram for the client row `alias` (`new` in a trigger, `c` when filling). */
function bigramSelect(alias: string): string {
  const values = COLUMNS.map((c) => `select lower(${alias}.${c}) as v`).join(' union all ');
  return `select ${alias}.business_id, substr(s.v, p.i, 2), ${alias}.id
    from (${values}) as s join bigram_position as p on p.i < length(s.v)`;
}

/** Creates the bigram index of `client` and fills it from the existing rows. */
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql
      .raw(
        `create function bizapi_client_bigrams(a text, b text, c text, d text) returns text[]
          language sql immutable parallel safe as $$
            select coalesce(array_agg(distinct substr(v, i, 2)), '{}')
            from unnest(array[lower(a), lower(b), lower(c), lower(d)]) as v, generate_series(1, length(v) - 1) as i
          $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create index client_business_bigram_idx on client using gin (business_id, bizapi_client_bigrams(${COLUMNS.join(', ')}))`,
      )
      .execute(db);
    return;
  }
  await sql.raw(`create table bigram_position (i integer primary key)`).execute(db);
  await sql
    .raw(
      `insert into bigram_position (i) with recursive n(i) as (select 1 union all select i + 1 from n where i < ${MAX_POSITION}) select i from n`,
    )
    .execute(db);
  await sql
    .raw(
      `create table client_bigram (
      business_id integer not null,
      bigram text not null,
      client_id integer not null,
      primary key (business_id, bigram, client_id)
    ) without rowid`,
    )
    .execute(db);
  await sql.raw(`create index client_bigram_client_idx on client_bigram (client_id)`).execute(db);
  await sql
    .raw(
      `create trigger client_bigram_insert after insert on client begin
      insert or ignore into client_bigram (business_id, bigram, client_id) ${bigramSelect('new')};
    end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger client_bigram_delete after delete on client begin
      delete from client_bigram where client_id = old.id;
    end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger client_bigram_update after update of ${COLUMNS.join(', ')} on client begin
      delete from client_bigram where client_id = old.id;
      insert or ignore into client_bigram (business_id, bigram, client_id) ${bigramSelect('new')};
    end`,
    )
    .execute(db);
  const existing = COLUMNS.map((c) => `select business_id, id, lower(${c}) as v from client`).join(' union all ');
  await sql
    .raw(
      `insert or ignore into client_bigram (business_id, bigram, client_id)
      select s.business_id, substr(s.v, p.i, 2), s.id from (${existing}) as s join bigram_position as p on p.i < length(s.v)`,
    )
    .execute(db);
}

/** Drops the bigram index. */
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop index if exists client_business_bigram_idx`.execute(db);
    await sql`drop function if exists bizapi_client_bigrams(text, text, text, text)`.execute(db);
    return;
  }
  for (const t of ['client_bigram_insert', 'client_bigram_delete', 'client_bigram_update'])
    await sql.raw(`drop trigger if exists ${t}`).execute(db);
  await sql`drop table if exists client_bigram`.execute(db);
  await sql`drop table if exists bigram_position`.execute(db);
}
