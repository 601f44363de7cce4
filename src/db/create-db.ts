/**
 * Opens the database named by the configuration: better-sqlite3 (embedded default) or pg (PostgreSQL).
 *
 * Runtime types are pinned here so that repositories see the same values on both dialects:
 * int8 → number, numeric → string, date → `YYYY-MM-DD` string, timestamptz → ISO 8601 UTC string with
 * milliseconds, boolean → 0 / 1 (SQLite stores 0 / 1 already).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import {
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  Kysely,
  type KyselyConfig,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
} from 'kysely';
import pg from 'pg';
import { type DatabaseConfig, usesNamedStatements } from '../config.ts';
import type { Database } from './database.ts';
import { AuthChangePlugin } from './auth-change.ts';
import { statementNameOf } from './prepared-query.ts';
import { hasConnectionPriority } from './connection-priority.ts';
import { isDurabilityRelaxed } from './durability.ts';
import { DatabaseUnavailableError, isSocketError } from './unavailable.ts';

const PG_OID = { bool: 16, int8: 20, date: 1082, timestamp: 1114, timestamptz: 1184, numeric: 1700 } as const;

/** Parses a PostgreSQL timestamp text (`2026-11-22 05:31:56.123+00`) into `2026-11-22T05:31:56.123Z`. */
export function pgTimestampToIso(text: string): string {
  const withT = text.replace(' ', 'T');
  const zoned = /[+-]\d{2}(:?\d{2})?$|Z$/.test(withT) ? withT.replace(/([+-]\d{2})$/, '$1:00') : `${withT}Z`;
  return new Date(zoned).toISOString();
}

/**
 * PostgreSQL `bigint` → a JS number, exact: ids, money and counters are bounded at 2^53 − 1 by the API
 * (docs/api.md#ids), so a larger value is a fault that must not be rounded silently: it throws.
 */
function parseInt8(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n))
    throw new RangeError(`a bigint value ${text} is beyond 2^53 - 1 and cannot be read exactly`);
  return n;
}

const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    switch (oid) {
      case PG_OID.bool:
        return (v: string) => (v === 't' ? 1 : 0);
      case PG_OID.int8:
        return parseInt8;
      case PG_OID.numeric:
      case PG_OID.date:
        return (v: string) => v;
      case PG_OID.timestamp:
      case PG_OID.timestamptz:
        return pgTimestampToIso;
      default:
        return pg.types.getTypeParser(oid, format ?? 'text');
    }
  },
};

const require = createRequire(import.meta.url);

/**
 * The SQLite driver for this runtime. better-sqlite3 13 is built on Node-API 10 (Node 22.14+) and ships
 * prebuilt binaries in its package (no install script); 12 is the one that runs on Node 20, but on Node 24
 * it aborts the process at exit (`RemoveEnvironmentCleanupHook` assertion in its Statement destructor).
 * Both are optional dependencies (13 under the alias `better-sqlite3-napi`, `engines: node >=22`, so npm
 * skips it silently on Node 20): a PostgreSQL-only install needs neither. The one the runtime supports is
 * loaded, the other one as a fallback. Same API for both.
 *
 * @throws Error naming the package to install when neither driver is installed
 */
export function loadSqliteDriver(): typeof BetterSqlite3 {
  const order = Number(process.versions.napi) >= 10 ? ['better-sqlite3-napi', 'better-sqlite3'] : ['better-sqlite3'];
  for (const name of order) {
    try {
      const Driver = require(name) as typeof BetterSqlite3;
      // The package loads lazily: its native binary is looked up on the first database, so open one now.
      new Driver(':memory:').close();
      return Driver;
    } catch (err) {
      // Not installed (npm drops an optional package whose build failed), or installed without its binary.
      if ((err as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND' && !NO_BINARY.test((err as Error).message))
        throw err;
    }
  }
  throw new Error(
    `no SQLite driver could be loaded for Node ${process.versions.node}. better-sqlite3 needs a native binary: on Node 22.14+ ` +
      'its version 13 ships one; on Node 20 its version 12 downloads a prebuilt one from GitHub at install, else compiles one, ' +
      'which needs python3, make and a C++ compiler (Debian: apt-get install build-essential python3), and npm silently ' +
      'drops the driver when both fail. Fix: use Node 22.14 or newer, or install the compiler and run `npm install` again; ' +
      'or set DATABASE_URL to a PostgreSQL database (README.md#install-notes)',
  );
}

/** How a driver installed without its native binary (a failed or skipped build) fails to load. */
const NO_BINARY =
  /Could not locate the bindings file|NODE_MODULE_VERSION|was compiled against a different Node\.js version|invalid ELF header/;

/** Connection counts of a database handle's pool (for `/metrics`). */
export interface PoolStats {
  /** Connections open now. */
  total: number;
  /** Open connections not in use. */
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
  /** Most connections the pool opens. */
  max: number;
}

const poolStatsOf = new WeakMap<Kysely<Database>, () => PoolStats>();

/**
 * The pool counts of a handle made by {@link createDb}: PostgreSQL's `pg.Pool`, or SQLite's one connection
 * (never waiting from the pool's point of view: better-sqlite3 runs each query to its end). `undefined` for
 * handles made elsewhere.
 */
export function poolStats(db: Kysely<Database>): PoolStats | undefined {
  return poolStatsOf.get(db)?.();
}

const authChangeOf = new WeakMap<Kysely<Database>, () => number>();

/**
 * SQLite: reads the counter of changes to API keys and to their businesses' plan and time zone (`auth_change.n`,
 * bumped by the triggers of migration 2026_11_28_0110 in the changing transaction, whoever writes, also by hand
 * in SQL) on the connection of a handle made by {@link createDb}, as a synchronous function (the statement
 * prepared on first use): a few microseconds, asked on every request by the API-key cache
 * (src/modules/auth/key-cache.ts). It sees this connection's own writes at once (an open transaction's too:
 * the cache then only reads its key again) and another process's once committed. `undefined` on PostgreSQL
 * and for handles made elsewhere. The function throws what SQLite throws (no such table before the migration,
 * the file closed).
 */
export function authChangeReader(db: Kysely<Database>): (() => number) | undefined {
  return authChangeOf.get(db);
}

/** How long a SQLite write waits for another process's write lock, in milliseconds (`busy_timeout`). */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

/**
 * Kysely's SQLite driver, with transactions opened by `BEGIN IMMEDIATE` instead of `BEGIN`: the write lock
 * is taken at the start, while another process (a second server of `serve --workers`, a `bizapi worker`, a
 * `bizapi key revoke`) may hold it. A deferred `BEGIN` that reads and then writes fails at once with
 * SQLITE_BUSY(_SNAPSHOT) when another connection committed in between, whatever the busy timeout.
 *
 * The wait for the lock does not block the event loop: better-sqlite3's `busy_timeout` sleeps inside the
 * call, which froze the whole process while another process wrote, up to 5 s, until the load shedding
 * answered 503 (docs/deployment.md#several-processes-on-one-machine-bizapi-serve---workers). So `BEGIN IMMEDIATE` is
 * tried with a zero busy timeout and, while the lock is taken, retried after a timer (1 ms, doubling to
 * 50 ms, with jitter) until {@link SQLITE_BUSY_TIMEOUT_MS} has passed; then SQLITE_BUSY is thrown as before.
 * The driver's connection mutex is held meanwhile, so no other query of this process runs in between.
 *
 * The connection is handed out in the order it was asked for, except that work run inside
 * `withConnectionPriority` (connection-priority.ts: the in-process webhook dispatcher's claims) goes before
 * the rest waiting.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  readonly #sqlite: BetterSqlite3.Database;
  readonly #onQuery: ((sql: string) => void) | undefined;
  constructor(
    config: ConstructorParameters<typeof SqliteDialect>[0],
    sqlite: BetterSqlite3.Database,
    onQuery?: (sql: string) => void,
  ) {
    super(config);
    this.#sqlite = sqlite;
    this.#onQuery = onQuery;
  }
  /** The connection is handed out (to a query or a transaction) until it is released. */
  #held = false;
  /** Who waits for the connection: the prioritized first, each group in the order it asked. */
  readonly #waiting: { priority: boolean; resolve: () => void }[] = [];
  override async acquireConnection(): Promise<DatabaseConnection> {
    if (this.#held) {
      const priority = hasConnectionPriority();
      await new Promise<void>((resolve) => {
        const at = priority ? this.#waiting.findIndex((w) => !w.priority) : -1;
        this.#waiting.splice(at === -1 ? this.#waiting.length : at, 0, { priority, resolve });
      });
    }
    this.#held = true;
    // Kysely's own mutex is free now: this returns at once
    return super.acquireConnection();
  }
  override async releaseConnection(): Promise<void> {
    await super.releaseConnection();
    const next = this.#waiting.shift();
    if (next === undefined) this.#held = false;
    // handed over: still held
    else next.resolve();
  }
  /** The transaction under way began with `synchronous = NORMAL` (durability.ts): FULL is set back at its end. */
  #relaxed = false;
  override async beginTransaction(_connection: DatabaseConnection): Promise<void> {
    const deadline = Date.now() + SQLITE_BUSY_TIMEOUT_MS;
    // `synchronous` cannot change inside a transaction: set before it begins, set back after it ends, while
    // the connection mutex keeps every other query of this process out
    this.#relaxed = isDurabilityRelaxed();
    if (this.#relaxed) this.#sqlite.pragma('synchronous = NORMAL');
    for (let wait = 1; ; wait = Math.min(wait * 2, 50)) {
      this.#sqlite.pragma('busy_timeout = 0');
      try {
        this.#sqlite.exec('begin immediate');
        this.#onQuery?.('begin immediate');
        return;
      } catch (err) {
        if ((err as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) {
          this.#restoreSynchronous();
          throw err;
        }
      } finally {
        this.#sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
      }
      await new Promise((resolve) => setTimeout(resolve, wait * (0.5 + Math.random())));
    }
  }
  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.commitTransaction(connection);
    } finally {
      this.#restoreSynchronous();
    }
  }
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.rollbackTransaction(connection);
    } finally {
      this.#restoreSynchronous();
    }
  }
  #restoreSynchronous(): void {
    if (!this.#relaxed) return;
    this.#relaxed = false;
    // a failed COMMIT can leave the transaction open, where the pragma is refused: then it is set back when
    // the transaction has been rolled back (rollbackTransaction, which Kysely runs after a failed commit)
    if (this.#sqlite.inTransaction) {
      this.#relaxed = true;
      return;
    }
    this.#sqlite.pragma('synchronous = FULL');
  }
}

/** {@link SqliteDialect} with {@link ImmediateSqliteDriver}. */
class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: ConstructorParameters<typeof SqliteDialect>[0];
  readonly #sqlite: BetterSqlite3.Database;
  readonly #onQuery: ((sql: string) => void) | undefined;
  constructor(
    config: ConstructorParameters<typeof SqliteDialect>[0],
    sqlite: BetterSqlite3.Database,
    onQuery?: (sql: string) => void,
  ) {
    super(config);
    this.#config = config;
    this.#sqlite = sqlite;
    this.#onQuery = onQuery;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config, this.#sqlite, this.#onQuery);
  }
  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}

/**
 * Kysely's SQLite adapter, declaring what SQLite does: DDL is transactional. Kysely's Migrator then runs the
 * pending migrations in one transaction (`BEGIN IMMEDIATE`), so a process killed in the middle of a migration
 * leaves the schema as it was before it (the next run starts that migration again instead of failing on a
 * half-created table), and two processes migrating one file at once take turns.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** How many distinct SQL texts keep their prepared statement (least recently used beyond it are dropped). */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * The database handle Kysely's SQLite driver sees: `prepare(sql)` returns a cached statement for a SQL text
 * it has prepared before (up to {@link STATEMENT_CACHE_SIZE} texts, least recently used dropped). Kysely
 * prepares every query anew, which cost about 8% of the CPU of a GET in the benchmark's profile. Reusing a
 * statement is safe here: better-sqlite3 runs `all()` / `run()` synchronously to the end, and the driver
 * serialises queries on its one connection; nothing in bizapi streams (`iterate`) a query.
 */
export function withStatementCache(sqlite: BetterSqlite3.Database): {
  prepare(sql: string): BetterSqlite3.Statement;
  close(): void;
} {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    prepare(sql) {
      let stmt = cache.get(sql);
      if (stmt !== undefined) {
        cache.delete(sql); // re-inserted below: Map order is the recency order
      } else {
        stmt = sqlite.prepare(sql);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, stmt);
      return stmt;
    },
    close() {
      cache.clear();
      sqlite.close();
    },
  };
}

/**
 * Makes `client` run the SQL texts of prepared queries (see {@link statementNameOf}) as named prepared
 * statements when `named` (`BIZAPI_PG_PREPARED`, docs/deployment.md#transaction-mode-poolers-pgbouncer):
 * node-postgres parses each once per connection and then only binds and executes it. Kysely calls
 * `client.query(text, values)`; every other call passes through unchanged. A query that fails with a network
 * error of the connection's socket throws {@link DatabaseUnavailableError}; one whose named statement the
 * server connection does not have, or already has (a transaction-mode pooler handed this client another
 * server connection), fails with a message naming the setting.
 */
function runPreparedAsNamed(client: pg.PoolClient, named: boolean): void {
  const query = client.query.bind(client) as (config: unknown, values?: unknown) => unknown;
  client.query = ((config: unknown, values?: unknown) => {
    const name = named && typeof config === 'string' ? statementNameOf(config) : undefined;
    const result = name === undefined ? query(config, values) : query({ name, text: config, values });
    // A network error of the database's socket under a query: the database is unavailable (503).
    return result instanceof Promise
      ? result.catch((err: unknown) => {
          if (isSocketError(err)) throw new DatabaseUnavailableError(err);
          if (name !== undefined && isLostStatement(err)) {
            (err as Error).message +=
              ` (named prepared statement ${name}: DATABASE_URL seems to go through a transaction-mode pooler; set DATABASE_POOL_MODE=transaction or BIZAPI_PG_PREPARED=false, docs/deployment.md#transaction-mode-poolers-pgbouncer)`;
          }
          throw err;
        })
      : result;
  }) as typeof client.query;
}

/**
 * PostgreSQL's `invalid_sql_statement_name` (26000: prepared statement does not exist) and
 * `duplicate_prepared_statement` (42P05): what named statements meet behind a transaction-mode pooler.
 */
function isLostStatement(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return err instanceof Error && (code === '26000' || code === '42P05');
}

/** Milliseconds a query waits for a PostgreSQL connection (opening one included) before it fails (503). */
export const PG_CONNECTION_TIMEOUT_MS = 5000;

/** Options of {@link createDb}. */
export interface CreateDbOptions {
  /**
   * Called when an open PostgreSQL connection fails outside a query (the server terminated it, the network
   * dropped it); the pool discards the connection and opens a new one when next needed. Default: one JSON
   * line on stderr.
   */
  onConnectionError?: (err: Error) => void;
  /**
   * Most PostgreSQL connections of the pool (default 10). The server's dispatcher thread opens its own small
   * pool (src/jobs/dispatcher-thread.ts). SQLite ignores it (one connection).
   */
  poolMax?: number;
  /** Overrides {@link PG_CONNECTION_TIMEOUT_MS} (tests). */
  connectionTimeoutMillis?: number;
  /**
   * Called with the SQL text of every statement the database runs, transaction control included (`begin`,
   * `commit`, `rollback`; SQLite's `begin immediate`), after it ran, in the async context of its caller. The
   * statement-count tests (test/perf/statements-{core,more}.test.ts) count a request's statements with it.
   */
  onQuery?: (sql: string) => void;
}

/** Kysely's `log` option for {@link CreateDbOptions.onQuery}. */
function queryLog(onQuery: ((sql: string) => void) | undefined): KyselyConfig['log'] {
  return onQuery && ((event) => onQuery(event.query.sql));
}

/** The default {@link CreateDbOptions.onConnectionError}: a pino-shaped warning line on stderr. */
function logConnectionError(err: Error): void {
  const code = (err as { code?: unknown }).code;
  process.stderr.write(
    `${JSON.stringify({ level: 40, time: Date.now(), pid: process.pid, msg: 'database connection lost; it will be reopened when needed', err: { message: err.message, ...(code === undefined ? {} : { code }) } })}\n`,
  );
}

/**
 * Creates the Kysely instance. For SQLite the parent directory is created, and the connection runs in
 * WAL mode with `synchronous=FULL`, foreign keys on and a 5 s busy timeout; transactions begin IMMEDIATE
 * (see {@link ImmediateSqliteDriver}), so several processes may share the file; prepared statements are
 * reused (see {@link withStatementCache}).
 *
 * For PostgreSQL, a pool of 10 connections that survives database faults (docs/deployment.md#database-outages):
 * a connection that fails while idle or in use is logged ({@link CreateDbOptions.onConnectionError}) and
 * discarded, never an unhandled `error` event; waiting for a connection is bounded by
 * {@link PG_CONNECTION_TIMEOUT_MS}; a connection that cannot be opened throws {@link DatabaseUnavailableError}
 * (answered 503 with `Retry-After`); TCP keep-alive detects dead peers. Nothing is kept on a server connection
 * between transactions but the named prepared statements, which `config.prepared` / `config.poolMode` turn
 * off behind a transaction-mode pooler (docs/deployment.md#transaction-mode-poolers-pgbouncer).
 */
export function createDb(config: DatabaseConfig, options: CreateDbOptions = {}): Kysely<Database> {
  if (config.dialect === 'postgres') {
    const onConnectionError = options.onConnectionError ?? logConnectionError;
    const pool = new pg.Pool({
      connectionString: config.url,
      types: pgTypes,
      max: options.poolMax ?? 10,
      connectionTimeoutMillis: options.connectionTimeoutMillis ?? PG_CONNECTION_TIMEOUT_MS,
      keepAlive: true,
    });
    // An idle connection that fails is removed by the pool, which then emits `error`: logged by the client
    // listener below already. Without a listener the event would end the process.
    pool.on('error', () => undefined);
    const named = usesNamedStatements(config);
    pool.on('connect', (client) => {
      runPreparedAsNamed(client, named);
      // A connection in use (checked out by a query or a transaction) that fails emits `error` on the client
      // itself; the query in flight fails on its own, and the pool drops the client when it is released.
      client.on('error', onConnectionError);
    });
    const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
    pool.connect = (async () => {
      try {
        return await connect();
      } catch (err) {
        throw new DatabaseUnavailableError(err);
      }
    }) as typeof pool.connect;
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool }),
      log: queryLog(options.onQuery),
      plugins: [new AuthChangePlugin()],
    });
    poolStatsOf.set(db, () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: options.poolMax ?? 10,
    }));
    return db;
  }
  if (config.path !== ':memory:') fs.mkdirSync(path.dirname(config.path), { recursive: true });
  const SqliteDatabase = loadSqliteDriver();
  const sqlite = new SqliteDatabase(config.path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }, sqlite, options.onQuery),
    log: queryLog(options.onQuery),
  });
  poolStatsOf.set(db, () => ({ total: sqlite.open ? 1 : 0, idle: sqlite.open ? 1 : 0, waiting: 0, max: 1 }));
  let authChange: BetterSqlite3.Statement | undefined;
  authChangeOf.set(db, () =>
    Number((authChange ??= sqlite.prepare('select n from auth_change where id = 1').pluck()).get()),
  );
  return db;
}
