/**
 * Runs once before all test files: on PostgreSQL (`DATABASE_URL=postgres://…`) empties the test database
 * (drops and recreates its `public` schema, which then holds only the extensions) and creates and migrates
 * one schema per test worker (`w1` … `wN`, see test-workers.ts), so that every run starts from the current
 * migrations, test files running in parallel never race on the migration, and each worker's files see only
 * their own rows. The database named by `DATABASE_URL` must therefore be a throwaway one. SQLite test
 * databases are created per test file (see test-db.ts). In the pooled run (test-workers.ts) all of it goes
 * through PgBouncer in transaction mode, the workers' migrations included, at once.
 *
 * With `BIZAPI_TEST_PGBOUNCER=1` (the pooled run, test-workers.ts) it first starts a real PgBouncer in
 * transaction mode in front of `DATABASE_URL` (test/setup/pgbouncer.ts: Debian's `pgbouncer`, one alias per
 * worker schema), then points the run at it: `DATABASE_URL` becomes PgBouncer's, `DATABASE_DIRECT_URL` the
 * database itself, `DATABASE_POOL_MODE=transaction` — in this process's environment, which Vitest's test
 * workers and the server processes they start inherit. PgBouncer is stopped when the run ends.
 *
 * With `BIZAPI_TEST_CITUS=1` (`DATABASE_URL` names a database of a Citus coordinator, with the `citus`
 * extension in it on every node and the workers added: docs/deployment.md#10-beyond-one-postgresql-server-citus-distributed-by-business_id)
 * each worker's schema is then distributed as `bizapi distribute` does it (src/db/distribute.ts), with
 * {@link CITUS_TEST_SHARDS} shards per table; `public` is kept (the citus extension has views there) and
 * only the worker schemas are dropped.
 */
import { sql } from 'kysely';
import { loadConfig } from '../../src/config.ts';
import { createDb } from '../../src/db/create-db.ts';
import { distribute } from '../../src/db/distribute.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';
import { hasPgbouncer, type Pgbouncer, startPgbouncer } from './pgbouncer.ts';
import {
  CITUS,
  PGBOUNCER_RUN,
  poolEnv,
  pooledAliases,
  TEST_WORKERS,
  urlWithSchema,
  workerSchema,
} from './test-workers.ts';

/** Shards per distributed table of a test worker's schema on Citus: two per worker node of a three-node cluster. */
export const CITUS_TEST_SHARDS = 4;

/**
 * Starts PgBouncer in front of `direct` (the run's `DATABASE_URL`) for the pooled run and points this
 * process's environment at it (see above).
 * @returns PgBouncer, and the run's new `DATABASE_URL` (PgBouncer's alias of the database itself)
 * @throws Error when PgBouncer is not installed (`apt-get install pgbouncer`) or does not start
 */
async function startPooledRun(direct: string): Promise<{ bouncer: Pgbouncer; url: string }> {
  if (!hasPgbouncer())
    throw new Error('BIZAPI_TEST_PGBOUNCER=1: pgbouncer is not installed (apt-get install pgbouncer)');
  const u = new URL(direct);
  if (u.search !== '')
    throw new Error(
      `BIZAPI_TEST_PGBOUNCER=1: DATABASE_URL must have no query (${u.search}): PgBouncer's aliases set the schema`,
    );
  const database = decodeURIComponent(u.pathname.slice(1));
  const bouncer = await startPgbouncer({ direct, aliases: pooledAliases(database, TEST_WORKERS) });
  const url = bouncer.url(database);
  process.env.DATABASE_URL = url;
  process.env.DATABASE_DIRECT_URL = direct;
  process.env.DATABASE_POOL_MODE = 'transaction';
  return { bouncer, url };
}

export default async function setup(): Promise<(() => Promise<void>) | void> {
  let url = process.env.DATABASE_URL;
  if (!url?.startsWith('postgres')) return;
  let bouncer: Pgbouncer | undefined;
  if (PGBOUNCER_RUN) ({ bouncer, url } = await startPooledRun(url));
  try {
    await prepare(url);
  } catch (err) {
    await bouncer?.stop();
    throw err;
  }
  if (bouncer !== undefined) return () => bouncer.stop();
}

/** Empties the test database at `url` and creates and migrates the worker schemas (see above). */
async function prepare(url: string): Promise<void> {
  const db = createDb(loadConfig({ DATABASE_URL: url, ...poolEnv() }).database);
  try {
    const { rows } = await sql<{
      nspname: string;
    }>`select nspname from pg_namespace where nspname ~ '^w[0-9]+$'`.execute(db);
    for (const { nspname } of rows) await sql`DROP SCHEMA ${sql.id(nspname)} CASCADE`.execute(db);
    if (!CITUS) {
      await sql`DROP SCHEMA IF EXISTS public CASCADE`.execute(db);
      await sql`CREATE SCHEMA public`.execute(db);
    }
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public`.execute(db);
    await sql`CREATE EXTENSION IF NOT EXISTS btree_gin SCHEMA public`.execute(db);
    for (let worker = 1; worker <= TEST_WORKERS; worker++)
      await sql`CREATE SCHEMA ${sql.id(workerSchema(worker))}`.execute(db);
  } finally {
    await db.destroy();
  }
  await Promise.all(
    Array.from({ length: TEST_WORKERS }, async (_, i) => {
      const wdb = createDb(
        loadConfig({ DATABASE_URL: urlWithSchema(url, workerSchema(i + 1)), ...poolEnv() }).database,
      );
      try {
        await migrateToLatest(wdb);
        if (CITUS) await distribute(wdb, { shardCount: CITUS_TEST_SHARDS });
      } finally {
        await wdb.destroy();
      }
    }),
  );
}
