/** `bizapi openapi`: prints the OpenAPI document (what `GET /openapi.json` serves), for linters and tooling. */
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../config.ts';
import { printJson } from './context.ts';

/**
 * Builds the OpenAPI 3.1 document the server serves at `/openapi.json`, without a server: the application over
 * a throwaway in-memory SQLite database (the document depends on the routes, not on the configuration or the
 * data), closed again before returning. Used by `bizapi openapi` (and, through sdk/scripts/generate.ts, for the SDK's types and the document bundled with `@bizapi/mcp`).
 */
export async function buildOpenApiDocument(): Promise<Record<string, unknown>> {
  const [{ buildApp }, { createDb }] = await Promise.all([import('../app.ts'), import('../db/create-db.ts')]);
  const config = loadConfig({
    DATABASE_URL: 'sqlite::memory:',
    LOG_LEVEL: 'silent',
    BIZAPI_MASTER_KEY: randomBytes(32).toString('hex'),
  });
  const db = createDb(config.database);
  const app = await buildApp(config, { db, masterKey: config.masterKey! });
  try {
    await app.ready();
    return app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await app.close();
    await db.destroy();
  }
}

/** Prints the document of {@link buildOpenApiDocument} as one JSON document. */
export async function openapi(): Promise<void> {
  printJson(await buildOpenApiDocument());
}
