/**
 * One log format for every process (docs/deployment.md#logs): JSON lines on stderr/stdout with
 * `{"level":"info","time":"2026-11-24T09:00:00.000Z","pid":123,"hostname":"h",…,"msg":"…"}` — the level as
 * its name, the time as RFC 3339 UTC with milliseconds. The server's pino logger takes {@link LOG_FORMAT};
 * the worker's line writer ({@link formatLogLine}) writes the same fields in the same order.
 */
import os from 'node:os';

/** pino options (spread into Fastify's `logger`) that give the shared format. */
export const LOG_FORMAT = {
  formatters: { level: (label: string) => ({ level: label }) },
  timestamp: (): string => `,"time":"${new Date().toISOString()}"`,
};

/** Numeric order of the level names (pino's), for thresholds. */
export const LOG_LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity } as const;

const HOSTNAME = os.hostname();

/**
 * One log line (with its newline) in the shared format: `level`, `time`, `pid`, `hostname`, then the
 * fields of `obj`, then `msg` when given.
 */
export function formatLogLine(level: Exclude<keyof typeof LOG_LEVELS, 'silent'>, obj: object, msg?: string): string {
  return `${JSON.stringify({ level, time: new Date().toISOString(), pid: process.pid, hostname: HOSTNAME, ...obj, ...(msg === undefined ? {} : { msg }) })}\n`;
}

/**
 * `err` as one line of text, for a log field or a recorded attempt's error: an `Error`'s message, else its
 * `code` (a Node system error without a message, `ECONNRESET`), else its name; anything else as `String(err)`.
 */
export function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  return err.message || (err as NodeJS.ErrnoException).code || err.name;
}
