/**
 * How many test files run at once, and where each runs on PostgreSQL. Vitest's default on a 2-core machine
 * is one file at a time, while most of the suite's time is spent waiting (child processes, sockets,
 * timers): {@link TEST_WORKERS} files run at once (`BIZAPI_TEST_WORKERS` overrides it). SQLite test
 * databases are per file already; on PostgreSQL each worker gets its own schema of the test database
 * (`w1`, `w2`, …, migrated by global-setup.ts), through `search_path` in the `DATABASE_URL` that its test
 * files and the server processes they start see, so that one file's dispatchers never claim another
 * file's rows.
 */

/**
 * Whether this run is against a Citus coordinator (`BIZAPI_TEST_CITUS=1`, with `DATABASE_URL` naming a
 * database there): global-setup.ts then distributes each worker's schema after migrating it.
 */
export const CITUS = process.env.BIZAPI_TEST_CITUS === '1' && (process.env.DATABASE_URL ?? '').startsWith('postgres');

/** Test files run at once. */
export const TEST_WORKERS = Math.max(1, Number(process.env.BIZAPI_TEST_WORKERS ?? 3) || 3);

/** The schema of worker `poolId` (Vitest's `VITEST_POOL_ID`, 1-based). */
export function workerSchema(poolId: number): string {
  return `w${poolId}`;
}

/**
 * `url` with `search_path` set to `schema` and then `public` (where the extensions live: pg_trgm's operator
 * classes must be found from every schema).
 */
export function urlWithSchema(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema},public`);
  return u.toString();
}
