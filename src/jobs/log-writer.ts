/**
 * The buffered, batched writer of the API call log (docs/api.md#api-call-log,
 * docs/deployment.md#7-monitoring): logging never slows a response noticeably, and a crash loses at most the
 * last second of log rows, never business data.
 *
 * A response only appends its row to an in-memory buffer; a timer flushes the buffer every second (sooner
 * when a batch fills up) with multi-row INSERTs. `close()` stops the timer and writes what is left: the
 * server calls it on shutdown, after the in-flight requests have finished.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { insertMany } from '../modules/log/log.repository.ts';
import type { NewApiLogRow } from '../db/tables/log.table.ts';

/** Tuning of a {@link LogWriter}. */
export interface LogWriterOptions {
  /** Milliseconds between flushes (default 1000). */
  flushIntervalMs?: number;
  /** Rows that trigger an early flush (default 500). */
  batchSize?: number;
  /** Rows kept in memory at most; beyond, the oldest are dropped and counted (default 20 000). */
  maxBuffered?: number;
  /**
   * Characters of row text (bodies, path, addresses) kept in memory at most, so that large bodies cannot
   * make the buffer hold hundreds of megabytes while the database is slow; beyond, the oldest rows are
   * dropped and counted (default 32 Mi characters, 32–64 MB).
   */
  maxBufferedChars?: number;
  logger?: Pick<FastifyBaseLogger, 'error' | 'warn'>;
}

/** Buffers log rows and writes them in batches. */
export class LogWriter {
  private buffer: NewApiLogRow[] = [];
  /** Characters of text in {@link buffer} (see {@link charsOf}). */
  private bufferedChars = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private earlyFlush = false;
  private closed = false;
  private readonly flushIntervalMs: number;
  private readonly batchSize: number;
  private readonly maxBuffered: number;
  private readonly maxBufferedChars: number;
  /** Rows lost because the buffer overflowed or a batch could not be written twice in a row. */
  dropped = 0;
  /** Rows written since start. */
  written = 0;
  /** Flushes in a row that found the database unavailable (0 when the last one reached it). */
  private unavailableFlushes = 0;
  /** Epoch milliseconds before which the timer does not try again after the database was unavailable. */
  private retryAt = 0;

  constructor(
    private readonly db: Db,
    private readonly options: LogWriterOptions = {},
  ) {
    this.flushIntervalMs = options.flushIntervalMs ?? 1000;
    this.batchSize = options.batchSize ?? 500;
    this.maxBuffered = options.maxBuffered ?? 20_000;
    this.maxBufferedChars = options.maxBufferedChars ?? 32 * 1024 * 1024;
  }

  /** Rows waiting to be written. */
  get size(): number {
    return this.buffer.length;
  }

  /** Starts the periodic flush (the timer never keeps the process alive). */
  start(): this {
    if (!this.timer && !this.closed) {
      this.timer = setInterval(() => {
        if (Date.now() >= this.retryAt) void this.flush();
      }, this.flushIntervalMs);
      this.timer.unref();
    }
    return this;
  }

  /**
   * Drops the oldest rows until the buffer is within both of its bounds (always keeping the newest row),
   * counting them as dropped; does nothing when it is within them.
   */
  private dropOldest(): void {
    let n = 0;
    while (
      n < this.buffer.length - 1 &&
      (this.buffer.length - n > this.maxBuffered || this.bufferedChars > this.maxBufferedChars)
    ) {
      this.bufferedChars -= charsOf(this.buffer[n]!);
      n += 1;
    }
    this.buffer.splice(0, n);
    this.dropped += n;
  }

  /** Appends one row; never waits and never throws. */
  enqueue(row: NewApiLogRow): void {
    this.buffer.push(row);
    this.bufferedChars += charsOf(row);
    this.dropOldest();
    if (this.buffer.length >= this.batchSize && !this.earlyFlush && !this.closed && Date.now() >= this.retryAt) {
      this.earlyFlush = true;
      setImmediate(() => {
        this.earlyFlush = false;
        void this.flush();
      });
    }
  }

  /**
   * Writes every buffered row. Concurrent calls share the running flush and then flush what arrived in the
   * meantime, so after `await flush()` every row enqueued before the call is written (or counted as
   * dropped). A failed batch is put back once; if it fails again it is dropped and logged. While the
   * database is unavailable (`src/db/unavailable.ts`) rows are kept (within the buffer's bounds) and the
   * timer retries with back-off, so an outage loses no row unless the buffer overflows. Never throws.
   */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.buffer.length === 0) return;
    const batch = this.buffer;
    this.buffer = [];
    this.bufferedChars = 0;
    this.flushing = this.write(batch).finally(() => {
      this.flushing = undefined;
    });
    await this.flushing;
  }

  private async write(batch: NewApiLogRow[]): Promise<void> {
    try {
      await insertMany(this.db, batch);
      this.written += batch.length;
      if (this.unavailableFlushes > 0)
        this.options.logger?.warn({ rows: batch.length }, 'the API call log is written again');
      this.unavailableFlushes = 0;
      return;
    } catch (err) {
      if (isDatabaseUnavailable(err) && !this.closed) {
        // The database is away (restart, failover, network): keep every row, within the buffer's bounds, and
        // try again later, waiting longer after each failure (up to 30 s).
        this.unavailableFlushes += 1;
        const retryInMs = Math.min(this.flushIntervalMs * 2 ** (this.unavailableFlushes - 1), 30_000);
        this.retryAt = Date.now() + retryInMs;
        this.options.logger?.error(
          { err, rows: batch.length, retryInMs },
          'writing the API call log failed: the database is unavailable; will retry',
        );
        this.buffer.unshift(...batch);
        for (const row of batch) this.bufferedChars += charsOf(row);
        this.dropOldest();
        return;
      }
      this.options.logger?.error({ err, rows: batch.length }, 'writing the API call log failed');
    }
    // Rows failing for the first time go back to the buffer (a passing outage); rows failing again are
    // written one by one, so a single unwritable row cannot take its whole batch down with it.
    const retried = batch.filter((row) => retriedRows.has(row));
    const fresh = batch.filter((row) => !retriedRows.has(row));
    for (const row of fresh) retriedRows.add(row);
    this.buffer.unshift(...fresh);
    for (const row of fresh) this.bufferedChars += charsOf(row);
    this.dropOldest();
    for (const row of retried) {
      try {
        await insertMany(this.db, [row]);
        this.written += 1;
      } catch (err) {
        this.dropped += 1;
        this.options.logger?.error({ err }, 'dropped an API call log row that could not be written');
      }
    }
  }

  /**
   * Stops the timer and writes what is left, giving a failed batch its second try at once (rows that fail
   * it are counted as dropped). Rows enqueued later are still written by `flush()`.
   */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
    if (this.buffer.length > 0) await this.flush();
  }
}

/** Rows whose first write failed (a second failure drops them). */
const retriedRows = new WeakSet<NewApiLogRow>();

/** The characters of text a row keeps in memory, plus a fixed allowance for its other fields. */
function charsOf(row: NewApiLogRow): number {
  return (
    128 + row.path.length + (row.request_body?.length ?? 0) + (row.response_body?.length ?? 0) + row.referrer.length
  );
}
