/**
 * Runs once before all test files: on PostgreSQL (`DATABASE_URL=postgres://…`) empties the test database
 * (drops and recreates its `public` schema) and migrates it, so that every run starts from the current
 * migrations and test files running in parallel never race on the migration. The database named by
 * `DATABASE_URL` must therefore be a throwaway one. SQLite test databases are created per test file
 * (see test-db.ts).
 */
import { loadConfig } from '../../src/config.ts';
import { createDb } from '../../src/db/create-db.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';
import { sql } from 'kysely';

export default async function setup(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url?.startsWith('postgres')) return;
  const db = createDb(loadConfig({ DATABASE_URL: url }).database);
  try {
    await sql`DROP SCHEMA IF EXISTS public CASCADE`.execute(db);
    await sql`CREATE SCHEMA public`.execute(db);
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
}
