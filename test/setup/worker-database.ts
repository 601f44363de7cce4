/**
 * Runs in each test worker before each test file (Vitest `setupFiles`): on PostgreSQL points
 * `DATABASE_URL` at the worker's own schema (see test-workers.ts), once per worker process.
 */
import { urlWithSchema, workerSchema } from './test-workers.ts';

const base = process.env.BIZAPI_TEST_BASE_DATABASE_URL ?? process.env.DATABASE_URL;
if (base?.startsWith('postgres') && process.env.VITEST_POOL_ID) {
  process.env.BIZAPI_TEST_BASE_DATABASE_URL = base;
  process.env.DATABASE_URL = urlWithSchema(base, workerSchema(Number(process.env.VITEST_POOL_ID)));
}
