/**
 * Triggers that announce every change to what a server process caches about an API key (issue 38 item 2;
 * docs/authentication.md#revoking-a-key): the key row (`api_key`: a revocation, a deletion, any update) and
 * its business's `plan` and `timezone` (`business`: an update of either, a deletion). Triggers run for every
 * writer, also for a change made by hand in SQL, so a plan changed with `psql` or `sqlite3` is seen by the
 * next request as when the commands change it.
 *
 * Frozen: never edit after it has landed; add a new migration instead. Imports nothing from `src/`.
 *
 * - **SQLite**: a one-row table `auth_change (id integer primary key check (id = 1), n integer)` whose `n`
 *   each trigger adds one to, in the changing transaction. A server reads `n` before answering a request
 *   from its key cache (a few microseconds; it sees its own connection's writes, which SQLite's
 *   `data_version` does not, and every other process's once committed). No id column of a business table:
 *   §20's shape does not apply.
 * - **PostgreSQL**: statement-level triggers (`after update or delete`, and `truncate`) calling
 *   `bizapi_auth_changed()`, which runs `pg_notify('bizapi_auth', '')`: delivered when the transaction
 *   commits to every process that `LISTEN`s on `bizapi_auth`, and to none if it rolls back.
 *   Citus refuses a trigger on a reference table (`business`, `api_key`) unless
 *   `citus.enable_unsafe_triggers` is on, and a shard's trigger would notify on its worker, not where
 *   servers listen: `bizapi distribute` drops these triggers before it makes the reference tables
 *   (src/db/distribute.ts), and on Citus only the commands' own `NOTIFY` announces a change.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

/** Creates the counter (SQLite) or the notifying function (PostgreSQL) and the triggers. */
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create or replace function bizapi_auth_changed() returns trigger language plpgsql as $$
      begin
        perform pg_notify('bizapi_auth', '');
        return null;
      end $$`.execute(db);
    await sql`create trigger api_key_auth_changed after update or delete on api_key
      for each statement execute function bizapi_auth_changed()`.execute(db);
    await sql`create trigger api_key_auth_truncated after truncate on api_key
      for each statement execute function bizapi_auth_changed()`.execute(db);
    await sql`create trigger business_auth_changed after update of plan, timezone or delete on business
      for each statement execute function bizapi_auth_changed()`.execute(db);
    await sql`create trigger business_auth_truncated after truncate on business
      for each statement execute function bizapi_auth_changed()`.execute(db);
    return;
  }
  await sql`create table auth_change (id integer primary key check (id = 1), n integer not null)`.execute(db);
  await sql`insert into auth_change (id, n) values (1, 0)`.execute(db);
  await sql`create trigger api_key_auth_updated after update on api_key
    begin update auth_change set n = n + 1 where id = 1; end`.execute(db);
  await sql`create trigger api_key_auth_deleted after delete on api_key
    begin update auth_change set n = n + 1 where id = 1; end`.execute(db);
  await sql`create trigger business_auth_updated after update of plan, timezone on business
    begin update auth_change set n = n + 1 where id = 1; end`.execute(db);
  await sql`create trigger business_auth_deleted after delete on business
    begin update auth_change set n = n + 1 where id = 1; end`.execute(db);
}

/** Drops what {@link up} created. */
export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const [table, trigger] of [
      ['api_key', 'api_key_auth_changed'],
      ['api_key', 'api_key_auth_truncated'],
      ['business', 'business_auth_changed'],
      ['business', 'business_auth_truncated'],
    ] as const) {
      await sql.raw(`drop trigger if exists ${trigger} on ${table}`).execute(db);
    }
    await sql`drop function if exists bizapi_auth_changed()`.execute(db);
    return;
  }
  for (const trigger of [
    'api_key_auth_updated',
    'api_key_auth_deleted',
    'business_auth_updated',
    'business_auth_deleted',
  ]) {
    await sql.raw(`drop trigger if exists ${trigger}`).execute(db);
  }
  await sql`drop table if exists auth_change`.execute(db);
}
