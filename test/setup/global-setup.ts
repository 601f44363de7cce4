/**
 * Runs once before all test files: on PostgreSQL (`DATABASE_URL=postgres://…`) empties the test database
 * (drops and recreates its `public` schema, which then holds only the extensions) and creates and migrates
 * one schema per test worker (`w1` … `wN`, see test-workers.ts), so that every run starts from the current
 * migrations, test files running in parallel never race on the migration, and each worker's files see only
 * their own rows. The database named by `DATABASE_URL` must therefore be a throwaway one. SQLite test
 * databases are created per test file (see test-db.ts). In the pooled run (test-workers.ts) all of it goes
 * through PgBouncer in transaction mode, the workers' migrations included, at once.
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
import { CITUS, poolEnv, TEST_WORKERS, urlWithSchema, workerSchema } from './test-workers.ts';

/** Shards per distributed table of a test worker's schema on Citus: two per worker node of a three-node cluster. */
export const CITUS_TEST_SHARDS = 4;

export default async function setup(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url?.startsWith('postgres')) return;
  const db = createDb(loadConfig({ DATABASE_URL: url, ...poolEnv() }).database);
  try {
    const { rows } = await sql<{ nspname: string }>`select nspname from pg_namespace where nspname ~ '^w[0-9]+$'`.execute(db);
    for (const { nspname } of rows) await sql`DROP SCHEMA ${sql.id(nspname)} CASCADE`.execute(db);
    if (!CITUS) {
      await sql`DROP SCHEMA IF EXISTS public CASCADE`.execute(db);
      await sql`CREATE SCHEMA public`.execute(db);
    }
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public`.execute(db);
    await sql`CREATE EXTENSION IF NOT EXISTS btree_gin SCHEMA public`.execute(db);
    for (let worker = 1; worker <= TEST_WORKERS; worker++) await sql`CREATE SCHEMA ${sql.id(workerSchema(worker))}`.execute(db);
  } finally {
    await db.destroy();
  }
  await Promise.all(
    Array.from({ length: TEST_WORKERS }, async (_, i) => {
      const wdb = createDb(loadConfig({ DATABASE_URL: urlWithSchema(url, workerSchema(i + 1)), ...poolEnv() }).database);
      try {
        await migrateToLatest(wdb);
        if (CITUS) await distribute(wdb, { shardCount: CITUS_TEST_SHARDS });
      } finally {
        await wdb.destroy();
      }
    }),
  );
}
