/**
 * Work that goes first for this process's one SQLite connection (docs/webhooks.md#fairness-and-limits):
 * the in-process webhook dispatcher's claim of due deliveries and the reads that start their attempts. On
 * SQLite every query and transaction of a process takes turns on one connection (create-db.ts); under write
 * load dozens of API transactions wait for it, and a claim behind them waited as long as all of them — for
 * a delivery already written and due. A claim is short and bounded (at most `CLAIM_CHUNK` rows), so it waits
 * only for the query or transaction under way; everything else keeps its place in line. PostgreSQL has a
 * pool and ignores it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const priority = new AsyncLocalStorage<boolean>();

/**
 * Runs `fn` with the queries it starts going first for the SQLite connection (see the module's rule). Only
 * for short, bounded work: what `fn` starts runs ahead of every API request waiting.
 * @returns what `fn` returns
 */
export function withConnectionPriority<T>(fn: () => Promise<T>): Promise<T> {
  return priority.run(true, fn);
}

/** Whether the query or transaction asking for the connection runs inside {@link withConnectionPriority} (the SQLite driver asks). */
export function hasConnectionPriority(): boolean {
  return priority.getStore() === true;
}
