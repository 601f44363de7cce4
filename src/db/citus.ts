/**
 * Whether the database is a Citus cluster (docs/deployment.md#background-work-on-citus): there the background
 * work locks and writes one business per statement (a statement that names one business runs on its shard
 * alone; Citus refuses `FOR UPDATE` on a multi-shard query). Elsewhere (SQLite, plain PostgreSQL) the same
 * work takes every business's rows in one statement: a fan-out round and a claim then cost a bounded number
 * of statements however many businesses they serve (docs/webhooks.md#fairness-and-limits).
 */
import { sql } from 'kysely';
import type { Db } from './database.ts';
import { isPostgres } from './sql-helpers.ts';

/** Per database (its Kysely adapter, which its transactions share): the answer of the one read of `pg_extension`. */
const known = new WeakMap<object, Promise<boolean>>();

/**
 * Whether `db` (a handle or a transaction) is a PostgreSQL database with the `citus` extension: one read of
 * `pg_extension` per database and process, remembered (a failed read is asked again next time). SQLite:
 * false, no read.
 */
export async function isCitus(db: Db): Promise<boolean> {
  if (!isPostgres(db)) return false;
  const key = db.getExecutor().adapter;
  let answer = known.get(key);
  if (answer === undefined) {
    answer = sql<{ citus: boolean }>`select exists (select 1 from pg_extension where extname = 'citus') as citus`
      .execute(db)
      .then(({ rows }) => rows[0]?.citus === true);
    known.set(key, answer);
    answer.catch(() => known.delete(key));
  }
  return answer;
}
