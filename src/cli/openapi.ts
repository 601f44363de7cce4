/** `bizapi openapi`: prints the OpenAPI document (what `GET /openapi.json` serves), for linters and tooling. */
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../config.ts';
import { printJson } from './context.ts';

/**
 * Builds the application over a throwaway in-memory SQLite database (the document depends on the routes,
 * not on the configuration or the data), prints the document as one JSON document, and closes.
 */
export async function openapi(): Promise<void> {
  const [{ buildApp }, { createDb }] = await Promise.all([import('../app.ts'), import('../db/create-db.ts')]);
  const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent', BIZAPI_MASTER_KEY: randomBytes(32).toString('hex') });
  const db = createDb(config.database);
  const app = await buildApp(config, { db, masterKey: config.masterKey! });
  try {
    await app.ready();
    printJson(app.swagger());
  } finally {
    await app.close();
    await db.destroy();
  }
}
