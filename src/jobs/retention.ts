/**
 * The retention job: deletes API call log rows older than 14 days (docs/api.md#api-call-log),
 * rate-limit counters whose window has ended, `Idempotency-Key` claims and answers older than 24 hours
 * (docs/api.md#idempotent-retries), remembered version-2 signatures whose window has
 * ended (docs/authentication.md#signature-version-2), and webhook deliveries older than 30 days
 * (docs/webhooks.md#delivery). Every API process runs it (hourly, the first run a
 * minute after start); the deletes are idempotent, so processes running it at the same time do no harm.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.ts';
import { purge } from '../modules/log/log.service.ts';
import { deleteExpired } from '../modules/rate-limit/rate-limit.repository.ts';
import { purgeExpired as purgeIdempotencyKeys } from '../modules/idempotency/idempotency.service.ts';
import { deleteExpiredSignatures } from '../modules/auth/signature-replay.ts';
import { purge as purgeEvents } from '../modules/event/event.service.ts';
import { DELIVERY_RETENTION_DAYS, purgeDeliveries } from '../modules/webhook/webhook-delivery.service.ts';

/** Default milliseconds between two runs: one hour (docs/api.md#api-call-log). */
export const RETENTION_INTERVAL_MS = 60 * 60_000;

/** Default milliseconds from start to the first run: one minute. */
export const RETENTION_FIRST_RUN_MS = 60_000;

/** What one run deleted. */
export interface RetentionResult {
  logRows: number;
  rateLimitCounters: number;
  /** Expired `Idempotency-Key` rows (24 hours after their claim). */
  idempotencyKeys: number;
  /** Version-2 signatures whose ±300 s window has ended. */
  signatures: number;
  /** Events older than the retention (docs/api.md#events: 30 days by default). */
  events: number;
  /** Webhook deliveries older than 30 days (docs/webhooks.md#delivery). */
  webhookDeliveries: number;
}

/** Default days events are kept (`BIZAPI_EVENT_RETENTION_DAYS`; docs/api.md#events). */
export const EVENT_RETENTION_DAYS = 30;

/**
 * Runs the retention deletes once; events older than `eventRetentionDays` days go too, and webhook
 * deliveries older than 30 days.
 */
export async function runRetention(
  db: Db,
  now: Date = new Date(),
  eventRetentionDays = EVENT_RETENTION_DAYS,
): Promise<RetentionResult> {
  const logRows = await purge(db, now);
  const rateLimitCounters = await deleteExpired(db, now.getTime());
  const idempotencyKeys = await purgeIdempotencyKeys(db, now.getTime());
  const signatures = await deleteExpiredSignatures(db, now.getTime());
  const events = await purgeEvents(db, eventRetentionDays, now);
  const webhookDeliveries = await purgeDeliveries(db, DELIVERY_RETENTION_DAYS, now);
  return { logRows, rateLimitCounters, idempotencyKeys, signatures, events, webhookDeliveries };
}

/** Schedule of {@link startRetention}. */
export interface RetentionOptions {
  /** Milliseconds before the first run (default one minute). */
  initialDelayMs?: number;
  /** Milliseconds between runs (default one hour). */
  intervalMs?: number;
  /** Days events are kept (default {@link EVENT_RETENTION_DAYS}). */
  eventRetentionDays?: number;
  logger?: Pick<FastifyBaseLogger, 'error' | 'info'>;
}

/**
 * Starts the periodic retention job; its timers never keep the process alive.
 * @returns `stop()`, which cancels the next run and waits for a running one
 */
export function startRetention(db: Db, options: RetentionOptions = {}): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  let stopped = false;
  const run = () => {
    if (stopped || running) return;
    running = runRetention(db, new Date(), options.eventRetentionDays)
      .then((r) => {
        if (Object.values(r).some((n) => n > 0)) options.logger?.info(r, 'retention purge');
      })
      .catch((err: unknown) => options.logger?.error({ err }, 'retention purge failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const first = setTimeout(run, options.initialDelayMs ?? RETENTION_FIRST_RUN_MS);
  const every = setInterval(run, options.intervalMs ?? RETENTION_INTERVAL_MS);
  first.unref();
  every.unref();
  return {
    async stop() {
      stopped = true;
      clearTimeout(first);
      clearInterval(every);
      await running;
    },
  };
}
