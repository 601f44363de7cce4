/**
 * SQLite's bigram side table (migration 0033) had an index on `client_id` alone, used by the triggers that
 * clear a client's bigrams; every index of a business-owned table leads with `business_id` (the tenant
 * rule, docs/architecture). This replaces it by `(business_id, client_id)` and recreates the delete and
 * update triggers to look a client's bigrams up by both. PostgreSQL: nothing to do (no side table).
 *
 * Frozen: never edit after it has landed; add a new migration instead. Imports nothing from `src/`.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

const COLUMNS = ['company_name', 'in_charge', 'contact', 'email'] as const;

/** The rows of client_bigram for the client row `alias` (as in migration 0033). */
function bigramSelect(alias: string): string {
  const values = COLUMNS.map((c) => `select lower(${alias}.${c}) as v`).join(' union all ');
  return `select ${alias}.business_id, substr(s.v, p.i, 2), ${alias}.id
    from (${values}) as s join bigram_position as p on p.i < length(s.v)`;
}

/** Recreates the index and the two triggers; `clear` is the condition that finds the old row's bigrams. */
async function rebuild(db: Kysely<any>, indexColumns: string, clear: string): Promise<void> {
  await sql`drop index if exists client_bigram_client_idx`.execute(db);
  await sql.raw(`create index client_bigram_client_idx on client_bigram (${indexColumns})`).execute(db);
  await sql`drop trigger if exists client_bigram_delete`.execute(db);
  await sql`drop trigger if exists client_bigram_update`.execute(db);
  await sql
    .raw(
      `create trigger client_bigram_delete after delete on client begin
      delete from client_bigram where ${clear};
    end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger client_bigram_update after update of ${COLUMNS.join(', ')} on client begin
      delete from client_bigram where ${clear};
      insert or ignore into client_bigram (business_id, bigram, client_id) ${bigramSelect('new')};
    end`,
    )
    .execute(db);
}

/** The index of a client's bigrams leads with business_id (SQLite). */
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await rebuild(db, 'business_id, client_id', 'business_id = old.business_id and client_id = old.id');
}

/** Back to migration 0033's index and triggers (SQLite). */
export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await rebuild(db, 'client_id', 'client_id = old.id');
}
