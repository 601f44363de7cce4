/**
 * SQLite's wake-up across processes (docs/webhooks.md#live-delivery): SQLite has no `NOTIFY`, but `PRAGMA
 * data_version` answers, on one connection, a number that changes whenever *another* connection — another
 * process: the API processes beside a `bizapi worker`, the CLI — has committed to the database since the last
 * time that connection asked. It reads SQLite's shared memory (no disk I/O, microseconds), so a dispatcher can
 * ask it every few tens of milliseconds and wake up on other processes' commits as the PostgreSQL dispatchers
 * do on `NOTIFY` (src/db/listen.ts).
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from './database.ts';
import type { Listener } from './listen.ts';

/** How often {@link watchCommits} asks by default: 50 ms. */
export const COMMIT_WATCH_MS = 50;

/**
 * Asks `PRAGMA data_version` on `db`'s connection every `intervalMs` (one question at a time: the next is
 * asked `intervalMs` after the last one answered) and calls `onCommit` when it changed — another connection
 * committed meanwhile; this connection's own commits do not change it. A failing question (the database
 * busy, closing) is reported to `onError` (once per run of failures) and asked again at the next turn; the caller's poll remains the
 * fallback. Never throws.
 * @param db a SQLite database on one connection (Kysely's SQLite dialect); on PostgreSQL use `listen`
 */
export function watchCommits(
  db: Kysely<Database>,
  onCommit: () => void,
  options: { intervalMs?: number; onError?: (err: Error) => void } = {},
): Listener {
  const intervalMs = options.intervalMs ?? COMMIT_WATCH_MS;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let last: number | undefined;
  let asking: Promise<void> | undefined;
  let failing = false;

  const ask = async () => {
    timer = undefined;
    if (closed) return;
    try {
      const { rows } = await sql<{ data_version: number }>`PRAGMA data_version`.execute(db);
      const version = Number(rows[0]?.data_version);
      if (last !== undefined && version !== last && !closed) onCommit();
      last = version;
      failing = false;
    } catch (err) {
      // once per run of failures, not every turn
      if (!failing) options.onError?.(err instanceof Error ? err : new Error(String(err)));
      failing = true;
    }
    if (closed) return;
    timer = setTimeout(() => void (asking = ask()), intervalMs);
    timer.unref?.();
  };
  asking = ask();

  return {
    async close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      await asking;
    },
  };
}
