/**
 * PostgreSQL `LISTEN` on a dedicated connection, kept open across database restarts
 * (docs/webhooks.md#live-delivery): the webhook dispatchers wake up on the `NOTIFY` that an API process sends
 * after a write has committed, instead of waiting for their next poll.
 */
import pg from 'pg';

/** Longest wait between two reconnection tries: 30 s. */
export const MAX_RECONNECT_MS = 30_000;

/** What {@link listen} reports besides notifications. */
export interface ListenHandlers {
  /** A notification on the channel, with its payload (`''` when none). */
  notify(payload: string): void;
  /**
   * The connection is listening: at the start and after every reconnection. Notifications sent while it was
   * down are lost, so a caller catches up here (the dispatcher polls at once).
   */
  listening?(): void;
  /** The connection failed or could not be opened; `retryInMs` until the next try. */
  error?(err: Error, retryInMs: number): void;
}

/** A running listener. */
export interface Listener {
  /** Stops listening and closes the connection; idempotent. */
  close(): Promise<void>;
}

/**
 * Opens a connection of its own to `url` (not one of the pool's: a `LISTEN` belongs to its session), runs
 * `LISTEN <channel>` and calls `handlers.notify` for each notification. When the connection fails (the
 * database restarts, the network drops; TCP keep-alive detects a dead peer), it reconnects after 0.5 s,
 * doubling up to {@link MAX_RECONNECT_MS}, and calls `handlers.listening` once it listens again. Never throws
 * and never emits an unhandled `error`.
 * @param channel a plain SQL identifier (letters, digits, `_`)
 * @throws Error when `channel` is not a plain identifier
 */
export function listen(url: string, channel: string, handlers: ListenHandlers): Listener {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(channel)) throw new Error(`not a plain channel name: ${channel}`);
  let closed = false;
  let client: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  let failures = 0;

  const retry = (err: Error) => {
    if (closed || timer !== undefined) return;
    failures += 1;
    const retryInMs = Math.min(500 * 2 ** (failures - 1), MAX_RECONNECT_MS);
    handlers.error?.(err, retryInMs);
    timer = setTimeout(() => {
      timer = undefined;
      void open();
    }, retryInMs);
    timer.unref?.();
  };

  const open = async () => {
    if (closed) return;
    const c = new pg.Client({ connectionString: url, keepAlive: true, connectionTimeoutMillis: 5_000 });
    client = c;
    let failed = false;
    const fail = (err: Error) => {
      if (failed) return;
      failed = true;
      c.removeAllListeners('notification');
      void c.end().catch(() => undefined);
      if (client === c) client = undefined;
      retry(err);
    };
    c.on('error', fail);
    c.on('end', () => fail(new Error('the listening connection ended')));
    c.on('notification', (n) => {
      if (n.channel === channel) handlers.notify(n.payload ?? '');
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
    } catch (err) {
      fail(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    if (closed) {
      await c.end().catch(() => undefined);
      return;
    }
    failures = 0;
    handlers.listening?.();
  };

  void open();
  return {
    async close() {
      if (closed) return;
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      const c = client;
      client = undefined;
      if (c) {
        c.removeAllListeners('end');
        c.removeAllListeners('notification');
        await c.end().catch(() => undefined);
      }
    },
  };
}
