/**
 * Runs once before all test files: on PostgreSQL (`DATABASE_URL=postgres://…`) migrates the shared test
 * database, so that test files running in parallel never race on the migration. SQLite test databases are
 * created per test file (see test-db.ts).
 */
import { loadConfig } from '../../src/config.ts';
import { createDb } from '../../src/db/create-db.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';

export default async function setup(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url?.startsWith('postgres')) return;
  const db = createDb(loadConfig({ DATABASE_URL: url }).database);
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
}
