/**
 * What the two dispatchers (src/jobs/outbox-dispatcher.ts, src/jobs/webhook-dispatcher.ts) share about
 * their polling loop: the logger they write to, and the back-off of a poll that fails
 * (docs/deployment.md#database-outages).
 */

/** The logger a dispatcher writes to: Fastify's (pino) logger fits, and so does {@link silentLogger}. */
export interface DispatcherLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** A logger that drops everything. */
export const silentLogger: DispatcherLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Longest wait between two polls that fail (the database unavailable): 30 s. */
export const MAX_POLL_BACKOFF_MS = 30_000;

/**
 * Milliseconds before the next poll after `failedPolls` polls failed in a row: the poll interval doubled for
 * each failure after the first, at most {@link MAX_POLL_BACKOFF_MS} (never less than the poll interval).
 * A dispatcher never stops on a failure: it logs it and tries again (docs/deployment.md#database-outages).
 */
export function pollBackoffMs(failedPolls: number, pollIntervalMs: number): number {
  return Math.max(pollIntervalMs, Math.min(pollIntervalMs * 2 ** Math.max(0, failedPolls - 1), MAX_POLL_BACKOFF_MS));
}
