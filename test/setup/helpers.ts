/**
 * The small helpers many test files need, in one place: {@link relative} (a page link as a path for the test
 * client), {@link until} (wait for a condition by polling), {@link freePort} (a TCP port to start a real
 * server on), {@link prevDay} (the day before a date) and {@link quantile} (a nearest-rank percentile). To wait
 * a fixed time, `setTimeout` of node:timers/promises.
 */
import net from 'node:net';

/** `/v1/…?…`: the path and query of an absolute link (a page's `next` / `previous`), for the test client. */
export function relative(link: string): string {
  const u = new URL(link);
  return `${u.pathname}${u.search}`;
}

/**
 * Polls `check` every 20 ms until it is true. No timing is asserted: after `timeoutMs` (default 60 s, past
 * Vitest's 30 s test timeout, so by default the test's own timeout bounds the wait) it throws
 * `timed out waiting for <what>`.
 */
export async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
  what = 'the condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A TCP port of 127.0.0.1 free at the moment of asking (the kernel picks it; the socket is closed again). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The day before `date` (`YYYY-MM-DD`), as `YYYY-MM-DD`: the calendar's, months and leap years included. */
export function prevDay(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d - 1)).toISOString().slice(0, 10);
}

/**
 * The nearest-rank quantile `q` (0–1) of `values`, in their unit: the smallest value with at least `q` of
 * them at or below it (`quantile(xs, 0.99)` is the p99; `1` is the maximum). `values` need not be sorted.
 */
export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
