/**
 * Which database errors mean "the database is unavailable right now" (a passing condition: retry later)
 * rather than "this request is wrong" or "the code is wrong". The error renderer answers them 503 with
 * `Retry-After` (docs/deployment.md#database-outages); the background jobs log them and retry with
 * back-off.
 *
 * - any failure to open a connection (refused, timed out, `CONNECT` revoked, authentication, too many
 *   connections): {@link DatabaseUnavailableError}, thrown by the pool of `create-db.ts`;
 * - PostgreSQL SQLSTATE class 08 (connection exception), 57P01 / 57P02 / 57P03 (the server terminated the
 *   session or is shutting down / starting), 53300 (too many connections), 53400 (configuration limit),
 *   55P03 (a lock wait gave up at its `lock_timeout`: the PostgreSQL form of SQLite's busy timeout);
 * - node-postgres' own errors when the socket ends under a query ("Connection terminated unexpectedly",
 *   "… is not queryable"), and socket errors (ECONNRESET, ETIMEDOUT, EPIPE, …) of a query on the database's
 *   socket, which `create-db.ts` wraps in {@link DatabaseUnavailableError} ({@link isSocketError}: the same
 *   codes on a client's socket are the client's problem, not the database's);
 * - SQLite `SQLITE_BUSY` (and its extended codes) once the busy timeout has passed.
 */

/** Seconds a client is asked to wait (`Retry-After`) when the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** A connection to the database could not be opened; `cause` is the driver's error. */
export class DatabaseUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`cannot connect to the database: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'DatabaseUnavailableError';
  }
}

const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '53400', '55P03']);
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
]);
/** Whether `err` is a network error of a socket (ECONNRESET, ECONNREFUSED, ETIMEDOUT, EPIPE, …). */
export function isSocketError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && SOCKET_CODES.has(code);
}

const PG_MESSAGES = [
  /^Connection terminated/,
  /is not queryable$/,
  /^timeout exceeded when trying to connect$/,
  /^Cannot use a pool after calling end on the pool$/,
  /^Query read timeout$/,
];

/** Whether `err` (or an error in its `cause` chain) means the database is unavailable; see the module comment. */
export function isDatabaseUnavailable(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e instanceof Error && depth < 5; depth++) {
    if (e instanceof DatabaseUnavailableError) return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (/^08[0-9A-Z]{3}$/.test(code) || SQLSTATES.has(code)) return true;
      if (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_')) return true;
    }
    const message = e.message;
    if (PG_MESSAGES.some((re) => re.test(message))) return true;
    if (e instanceof AggregateError && e.errors.some(isDatabaseUnavailable)) return true;
    e = e.cause;
  }
  return false;
}
