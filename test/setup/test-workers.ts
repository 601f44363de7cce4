/**
 * How many test files run at once, and where each runs on PostgreSQL. Vitest's default on a 2-core machine
 * is one file at a time, while most of the suite's time is spent waiting (child processes, sockets,
 * timers): {@link TEST_WORKERS} files run at once (`BIZAPI_TEST_WORKERS` overrides it). SQLite test
 * databases are per file already; on PostgreSQL each worker gets its own schema of the test database
 * (`w1`, `w2`, …, migrated by global-setup.ts), through `search_path` in the `DATABASE_URL` that its test
 * files and the server processes they start see, so that one file's dispatchers never claim another
 * file's rows.
 *
 * The pooled run (`BIZAPI_TEST_PGBOUNCER=1` with `DATABASE_URL` naming the PostgreSQL test database;
 * .ci/run, README.md#development): global-setup.ts starts a real PgBouncer in transaction mode in front of
 * it (test/setup/pgbouncer.ts) and sets, for the test workers and every process they start,
 * `DATABASE_POOL_MODE=transaction`, `DATABASE_URL` naming PgBouncer and `DATABASE_DIRECT_URL` the database
 * itself. A pooler cannot pass `search_path` as a startup option, so worker `wN`'s `DATABASE_URL` names
 * PgBouncer's database alias `<database>_wN`, whose `connect_query` sets it ({@link pooledAliases}). A schema
 * other than a worker's (a test's own fresh one) has no alias: its URL is the direct one.
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
 * Whether this run goes through PgBouncer (see above): `BIZAPI_TEST_PGBOUNCER=1` on PostgreSQL. Read by
 * global-setup.ts before it starts PgBouncer; {@link isPooled} says whether it has.
 */
export const PGBOUNCER_RUN =
  process.env.BIZAPI_TEST_PGBOUNCER === '1' && (process.env.DATABASE_URL ?? '').startsWith('postgres');

/**
 * Whether the pooled run is under way (see above): `DATABASE_POOL_MODE=transaction` with `DATABASE_DIRECT_URL`,
 * as global-setup.ts sets them once PgBouncer runs (read each time: global-setup imports this module before).
 */
export function isPooled(): boolean {
  return process.env.DATABASE_POOL_MODE === 'transaction' && process.env.DATABASE_DIRECT_URL !== undefined;
}

/** The direct URL of the pooled run (the same in every worker: `LISTEN` is database-wide). */
function directBase(): string {
  return process.env.DATABASE_DIRECT_URL!;
}

/**
 * PgBouncer's database aliases for the pooled run on database `database`: the database itself (no
 * `search_path`: global-setup.ts empties it through it) and `<database>_wN` for each of `workers` worker schemas.
 */
export function pooledAliases(database: string, workers: number): Record<string, string | null> {
  const aliases: Record<string, string | null> = { [database]: null };
  for (let worker = 1; worker <= workers; worker++)
    aliases[`${database}_${workerSchema(worker)}`] = workerSchema(worker);
  return aliases;
}

/**
 * `url` with `search_path` set to `schema` and then `public` (where the extensions live: pg_trgm's operator
 * classes must be found from every schema). In the pooled run: a worker's schema through its PgBouncer alias
 * (`url` names PgBouncer and the database), any other schema on the direct URL.
 */
export function urlWithSchema(url: string, schema: string): string {
  if (isPooled()) {
    if (/^w\d+$/.test(schema)) {
      const pooled = new URL(url);
      pooled.pathname = `${pooled.pathname.replace(/_w\d+$/, '')}_${schema}`;
      return pooled.toString();
    }
    url = directBase();
  }
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema},public`);
  return u.toString();
}

/**
 * The variables that describe the pooled run's database besides `DATABASE_URL` (`DATABASE_POOL_MODE`,
 * `DATABASE_DIRECT_URL`), for the configurations tests build; empty otherwise.
 */
export function poolEnv(): Record<string, string> {
  if (!isPooled()) return {};
  return { DATABASE_POOL_MODE: 'transaction', DATABASE_DIRECT_URL: process.env.DATABASE_DIRECT_URL! };
}

/**
 * {@link poolEnv} when `url` goes through the pooled run's PgBouncer, else nothing: the variables a server
 * process on `url` needs besides `DATABASE_URL` (server-process.ts).
 */
export function poolEnvOf(url: string): Record<string, string> {
  return url.startsWith('postgres') && pgConfig(url).poolMode === 'transaction' ? poolEnv() : {};
}

/**
 * The PostgreSQL configuration of `url` for a handle a test opens itself: with the pooled run's settings when
 * `url` goes through the pooler (no named prepared statements there), else a plain one.
 */
export function pgConfig(url: string): {
  dialect: 'postgres';
  url: string;
  poolMode?: 'transaction';
  directUrl?: string;
} {
  if (!isPooled() || url.startsWith(directBase().replace(/\?.*$/, ''))) return { dialect: 'postgres', url };
  return { dialect: 'postgres', url, poolMode: 'transaction', directUrl: process.env.DATABASE_DIRECT_URL! };
}

/**
 * The URL of this worker's schema without a pooler in between (`undefined` on SQLite): in the pooled run the
 * database itself with `search_path` in the URL, else the worker's `DATABASE_URL` as it is. For tests of what
 * a pooler would hide (backends terminated under the server's own connections, test/ops/db-faults.test.ts).
 */
export function directWorkerUrl(): string | undefined {
  const url = process.env.DATABASE_URL;
  if (!url?.startsWith('postgres')) return undefined;
  if (!isPooled()) return url;
  const u = new URL(directBase());
  u.searchParams.set('options', `-c search_path=${workerSchema(Number(process.env.VITEST_POOL_ID ?? 1))},public`);
  return u.toString();
}

/**
 * The test database itself on PostgreSQL, without a pooler and without a schema (`undefined` on SQLite): the
 * pooled run's `DATABASE_DIRECT_URL`, else the run's `DATABASE_URL` as given (before worker-database.ts).
 */
export function directDatabaseUrl(): string | undefined {
  if (isPooled()) return directBase();
  const url = process.env.BIZAPI_TEST_BASE_DATABASE_URL ?? process.env.DATABASE_URL;
  return url?.startsWith('postgres') ? url : undefined;
}
