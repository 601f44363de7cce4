/**
 * Transactions whose commit need not reach the disk before it returns (docs/deployment.md#durability): the
 * webhook queue's bookkeeping — claims, attempts recorded, fan-outs. Losing the last of them to a power cut
 * (never to a crash of the process or of PostgreSQL's server process alone) only repeats work the queue
 * already allows to repeat: a lease expires and the delivery is attempted again (at least once), a fan-out
 * is redone (its inserts are idempotent). Everything else — every API write, its event, the feed's sequence
 * numbers — keeps the configured durability (`synchronous = FULL`, `synchronous_commit = on`).
 *
 * SQLite: the transaction begins with the connection's `synchronous` set to `NORMAL` (in WAL mode the commit
 * is then written to the WAL without an fsync; the next FULL commit or checkpoint syncs it along), and the
 * driver sets `FULL` back after it ends, before any other query of the connection runs (create-db.ts).
 * PostgreSQL: `SET LOCAL synchronous_commit = off` (the commit returns before the WAL is flushed; the WAL
 * writer flushes it within a few hundred milliseconds).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type Transaction } from 'kysely';
import type { Database, Db } from './database.ts';
import { isPostgres } from './sql-helpers.ts';

const relaxed = new AsyncLocalStorage<boolean>();

/** Whether the transaction being begun runs inside {@link inRelaxedTransaction} (the SQLite driver asks). */
export function isDurabilityRelaxed(): boolean {
  return relaxed.getStore() === true;
}

/**
 * On SQLite, when this process's next queue transaction may begin (epoch ms, per database): the queue's
 * transactions hold SQLite's one write lock at most half of the time when they run back to back.
 */
const nextBeginAt = new WeakMap<Db, number>();

/**
 * Runs `fn` in a transaction whose commit does not wait for the disk (see the module's rule); in the
 * caller's transaction, with its durability, when `db` already is one.
 *
 * On SQLite the queue's transactions also yield the database's single write lock: one that held it for `t`
 * ms (from its `BEGIN IMMEDIATE`, once the lock was taken: the wait for the lock is not counted, else a
 * dispatcher waiting behind busy API writers would wait as long again before each of its next transactions)
 * makes the next one of this process begin `t` ms after it ended at the earliest. A dispatcher working
 * through a wave (a thousand timeouts recorded, a thousand claims) otherwise re-takes the lock the moment it
 * frees it, and another process's API write, which waits for the lock on a timer (create-db.ts), could wait
 * seconds: one business's hanging receivers must not slow another business's writes
 * (docs/webhooks.md#fairness-and-limits). A lone transaction waits for nothing.
 * @throws what `fn` or the database throws (the transaction is rolled back)
 */
export async function inRelaxedTransaction<T>(db: Db, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db as Transaction<Database>);
  const postgres = isPostgres(db);
  if (!postgres) {
    const wait = (nextBeginAt.get(db) ?? 0) - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  /** When the lock was taken (the transaction began): the wait for it is not holding it. */
  let started: number | undefined;
  try {
    return await relaxed.run(true, () =>
      db.transaction().execute(async (trx) => {
        started = Date.now();
        if (postgres) await sql`set local synchronous_commit = off`.execute(trx);
        return fn(trx);
      }),
    );
  } finally {
    if (!postgres && started !== undefined) {
      const ended = Date.now();
      nextBeginAt.set(db, ended + (ended - started));
    }
  }
}
