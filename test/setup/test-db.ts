/**
 * The test database: with `DATABASE_URL=postgres://…` the shared, already migrated PostgreSQL database
 * (tests isolate themselves by creating their own businesses); otherwise a fresh SQLite file per call,
 * migrated, and removed on close.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { DatabaseConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/database.ts';
import { createDb } from '../../src/db/create-db.ts';
import { recordStatement } from './statement-count.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';
import { pgConfig } from './test-workers.ts';

/** Which dialect this test run uses. */
export const DIALECT: 'sqlite' | 'postgres' = process.env.DATABASE_URL?.startsWith('postgres') ? 'postgres' : 'sqlite';

/** A migrated database for one test file, and how to close it. */
export interface TestDb {
  db: Kysely<Database>;
  config: DatabaseConfig;
  /** The `DATABASE_URL` that points at this database. */
  url: string;
  close(): Promise<void>;
}

/** Opens (and for SQLite creates) the test database. */
export async function openTestDb(): Promise<TestDb> {
  if (DIALECT === 'postgres') {
    const url = process.env.DATABASE_URL!;
    const config: DatabaseConfig = pgConfig(url);
    const db = createDb(config, { onQuery: recordStatement });
    return { db, config, url, close: () => db.destroy() };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-test-'));
  const file = path.join(dir, 'test.db');
  const config: DatabaseConfig = { dialect: 'sqlite', path: file };
  const db = createDb(config, { onQuery: recordStatement });
  await migrateToLatest(db);
  return {
    db,
    config,
    url: `sqlite:${file}`,
    close: async () => {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
