/**
 * Counts the SQL statements one request runs (issue 27's lean write path: a one-property PATCH of an
 * inquiry runs at most 8). Every test database reports each statement it runs, transaction control
 * included, to {@link recordStatement} (`createDb`'s `onQuery`); the statements run in the async context of
 * {@link countStatements}'s callback are its count. Background work started before (the outbox and webhook
 * dispatchers, the call-log flusher's timer) runs in other contexts and is not counted; the call log's
 * batched insert is left out by name, as it belongs to no single request.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const recorder = new AsyncLocalStorage<string[]>();

/** The statements run outside every {@link countStatements} while {@link countBackgroundStatements} runs. */
let background: string[] | undefined;

/**
 * The `onQuery` hook of every test database: adds `sql` to the statements of the running count, if any, else
 * to the background statements being counted, if any.
 */
export function recordStatement(sql: string): void {
  const store = recorder.getStore();
  if (store) store.push(sql);
  else background?.push(sql);
}

/**
 * Runs `fn` and records the SQL statements this process runs meanwhile outside every {@link countStatements}
 * (the dispatchers' polls, the call-log flush, …): with `fn`'s requests each counted by
 * {@link countStatements}, what remains is the background work they cause. The call log's batched insert is
 * left out by name, as in {@link countStatements}. One at a time per process.
 */
export async function countBackgroundStatements<T>(fn: () => Promise<T>): Promise<StatementCount<T>> {
  if (background !== undefined) throw new Error('countBackgroundStatements does not nest');
  const seen: string[] = [];
  background = seen;
  try {
    const result = await fn();
    return { result, statements: seen.filter((s) => !/^\s*insert into "?api_log"?\s/i.test(s)) };
  } finally {
    background = undefined;
  }
}

/** What {@link countStatements} saw. */
export interface StatementCount<T> {
  result: T;
  /** The SQL texts, in the order they ran (the call log's batched insert left out). */
  statements: string[];
}

/** Runs `fn` (typically one `app.inject`) and records the SQL statements it runs. */
export async function countStatements<T>(fn: () => Promise<T>): Promise<StatementCount<T>> {
  const seen: string[] = [];
  const result = await recorder.run(seen, fn);
  return { result, statements: seen.filter((s) => !/^\s*insert into "?api_log"?\s/i.test(s)) };
}

/**
 * The statements SQLite adds to a write for each INSERT of events, in the write's own transaction
 * (docs/api.md#events, docs/webhooks.md#delivery): the sequence counter's `UPDATE … RETURNING` and the read of
 * the business's active webhook endpoints (the fan-out; a business with endpoints that want the event adds
 * the delivery statements beyond). In exchange the write causes no transaction after its commit.
 * PostgreSQL numbers and fans out after commit: 0.
 */
export function atWriteAllowance(statements: readonly string[]): number {
  // the dialect as test-db.ts reads it (that module imports this one)
  if (process.env.DATABASE_URL?.startsWith('postgres')) return 0;
  const inserts = statements.filter((s) => /^\s*insert into "event"/i.test(s)).length;
  const atWrite = statements.filter(
    (s) =>
      /^\s*update "event_sequence"/i.test(s) ||
      /^\s*select .* from "webhook_endpoint" where "business_id" in \(\?\) and "is_active" = \?/i.test(s),
  ).length;
  return Math.min(2 * inserts, atWrite);
}

/**
 * Runs `fn` and fails, listing the statements, when it ran more than `budget` SQL statements (transaction
 * control and the authentication lookup included; the call log left out; on SQLite the numbering and fan-out
 * of its events beyond: {@link atWriteAllowance}). Answers `fn`'s result.
 */
export async function withinStatements<T>(budget: number, fn: () => Promise<T>): Promise<T> {
  const { result, statements } = await countStatements(fn);
  const allowed = budget + atWriteAllowance(statements);
  if (statements.length > allowed) {
    throw new Error(
      `ran ${statements.length} statements, budget ${allowed}:\n${statements.map((s, i) => `  ${i + 1}. ${s.replace(/\s+/g, ' ').slice(0, 160)}`).join('\n')}`,
    );
  }
  return result;
}
