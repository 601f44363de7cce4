/**
 * `buildTestApp()`: the real application on the test database, driven through `app.inject` (no ports).
 * Each test file builds its own; `close()` shuts the app and the database.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type AppDeps, buildApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { openTestDb, type TestDb } from './test-db.ts';
import { poolEnv } from './test-workers.ts';

/**
 * Settings every test app gets unless a test overrides them: no load shedding (the app shares its event loop
 * with the test code, so the lag it would measure is the tests' own); webhook URLs may name any host, without
 * a DNS lookup (the generated suites create endpoints from the documented example, and test machines may
 * have no DNS; test/modules/webhook sets it to false to test the address checks).
 */
const TEST_DEFAULTS = { LOG_LEVEL: 'silent', BIZAPI_MAX_EVENT_LOOP_DELAY: '0', BIZAPI_WEBHOOK_ALLOW_PRIVATE: 'true' };

/** A fixed 32-byte master key for tests (64 hex characters). */
export const TEST_MASTER_KEY_HEX = '0f'.repeat(32);

/** A running test application. */
export interface TestApp {
  app: FastifyInstance;
  testDb: TestDb;
  config: Config;
  masterKey: Buffer;
  close(): Promise<void>;
}

/**
 * Builds the app. `env` adds or overrides environment variables (for example
 * `{BIZAPI_SIGNATURE_MODE: 'required'}`); the database always comes from {@link openTestDb}. Unless `env`
 * names one, the data directory (local file storage, …) is a new temporary directory, removed on close, so
 * no test writes into the working tree. `deps.clock` sets
 * the app's "now" (todo `dDay` tests move it across midnight instead of waiting).
 */
export async function buildTestApp(
  env: Record<string, string> = {},
  deps: Pick<AppDeps, 'clock'> = {},
): Promise<TestApp> {
  const testDb = await openTestDb();
  const ownDataDir =
    env.BIZAPI_DATA_DIR === undefined ? fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-data-')) : undefined;
  const config = loadConfig({
    ...TEST_DEFAULTS,
    BIZAPI_MASTER_KEY: TEST_MASTER_KEY_HEX,
    ...(ownDataDir && { BIZAPI_DATA_DIR: ownDataDir }),
    ...env,
    DATABASE_URL: testDb.url,
    ...poolEnv(),
  });
  const masterKey = config.masterKey!;
  const app = await buildApp(config, { db: testDb.db, masterKey, ...deps });
  await app.ready();
  return {
    app,
    testDb,
    config,
    masterKey,
    close: async () => {
      await app.close();
      await testDb.close();
      if (ownDataDir) fs.rmSync(ownDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Builds a second app over the same database and data directory with other settings (e.g. signature mode
 * `required`).
 */
export async function buildSiblingApp(base: TestApp, env: Record<string, string>): Promise<FastifyInstance> {
  const config = loadConfig({
    ...TEST_DEFAULTS,
    BIZAPI_MASTER_KEY: TEST_MASTER_KEY_HEX,
    BIZAPI_DATA_DIR: base.config.dataDir,
    ...env,
    DATABASE_URL: base.testDb.url,
    ...poolEnv(),
  });
  const app = await buildApp(config, { db: base.testDb.db, masterKey: base.masterKey });
  await app.ready();
  return app;
}
