/**
 * The webhook dispatcher (docs/webhooks.md#delivery): fans the events out into deliveries and sends them
 * after commit, at least once, with retries, beside the notification outbox dispatcher (same processes:
 * `bizapi serve` in `in-process` mode, and `bizapi worker`).
 *
 * One poll ({@link WebhookDispatcher.runOnce}, or the background loop):
 * 1. publish: claim up to `batchSize` unpublished events and write their deliveries, in one transaction
 *    (webhook-delivery.service.ts `publish`);
 * 2. claim as many due deliveries as there are free slots (`concurrency`), with a lease longer than one
 *    attempt can take, and start them at once; each attempt runs without a database transaction while it
 *    talks to the receiver, so a hanging receiver occupies one slot for at most the timeout and delays
 *    nothing else, and API requests never wait for deliveries.
 * A finished attempt triggers the next poll at once; an idle dispatcher polls every `pollIntervalMs`; a
 * poll that fails (the database unavailable) is retried after {@link pollBackoffMs}, never crashing.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { WebhookDeliveryRow } from '../db/tables/webhook.table.ts';
import {
  attemptDelivery,
  claimDue,
  DELIVERY_TIMEOUT_MS,
  type DeliveryEnd,
  publish,
  releaseClaims,
} from '../modules/webhook/webhook-delivery.service.ts';
import { type DispatcherLogger, pollBackoffMs, silentLogger } from './outbox-dispatcher.ts';

/** Options of {@link createWebhookDispatcher}. */
export interface WebhookDispatcherOptions {
  /** The database; the dispatcher never closes it. */
  db: Kysely<Database>;
  /** The master key the endpoints' secrets are sealed with. */
  masterKey: Buffer;
  /** `dispatcher.pollIntervalMs`, `dispatcher.businessIds`, `webhookAllowPrivate`. */
  config: Pick<Config, 'dispatcher' | 'webhookAllowPrivate'>;
  log?: DispatcherLogger;
  /** Unique name of this dispatcher in leases (default `<host>:<pid>:<random>`). */
  owner?: string;
  /** Events fanned out per poll (default 100). */
  batchSize?: number;
  /** Deliveries attempted at once (default 4). */
  concurrency?: number;
  /** Only these businesses' events and deliveries (default `config.dispatcher.businessIds`, else all). */
  businessIds?: readonly number[];
  /** The clock, in epoch milliseconds (default `Date.now`); tests move it to make retries due. */
  now?: () => number;
  /** Total time of one request (default 10 s; tests shorten it). */
  timeoutMs?: number;
}

/** What one poll did. */
export interface WebhookDispatchResult {
  /** Events fanned out. */
  published: number;
  /** Deliveries claimed. */
  claimed: number;
  succeeded: number;
  retried: number;
  failed: number;
}

/** A running or runnable dispatcher. */
export interface WebhookDispatcher {
  readonly owner: string;
  /** Starts polling in the background. Idempotent. */
  start(): void;
  /**
   * Stops polling and drains: attempts under way finish (each bounded by the timeout). Idempotent; after it
   * resolves, the dispatcher touches neither the database nor the network.
   */
  stop(): Promise<void>;
  /** One poll that waits for the attempts it started (tests deliver deterministically with it). */
  runOnce(): Promise<WebhookDispatchResult>;
}

/**
 * How long a claim lasts: longer than one attempt can take (the request's timeout, plus the database work
 * around it): `timeoutMs + 20 s`. A crashed dispatcher's deliveries become claimable again after it.
 */
export function webhookLeaseMs(timeoutMs: number): number {
  return timeoutMs + 20_000;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message || err.name : String(err);
}

/** Creates a webhook dispatcher over `options.db`; it does nothing until `start()` or `runOnce()`. */
export function createWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const { db, config } = options;
  const log = options.log ?? silentLogger;
  const owner = options.owner ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const batchSize = options.batchSize ?? 100;
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const clock = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const businessIds = options.businessIds ?? config.dispatcher.businessIds;
  const pollIntervalMs = config.dispatcher.pollIntervalMs;
  const iso = (ms: number) => new Date(ms).toISOString();
  const ctx = { db, masterKey: options.masterKey, owner, allowPrivate: config.webhookAllowPrivate, now: clock, timeoutMs };

  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<unknown> | undefined;
  let failedPolls = 0;
  /** `start()` was called. */
  let running = false;
  /** A poll was asked for while one ran: poll again right after it. */
  let rerun = false;
  /** Attempts under way. */
  const active = new Set<Promise<void>>();
  /** Polls under way (the loop's and runOnce's). */
  const polls = new Set<Promise<unknown>>();

  async function attempt(row: WebhookDeliveryRow): Promise<DeliveryEnd> {
    try {
      return await attemptDelivery(ctx, row);
    } catch (err) {
      // a database error: the lease expires and a later poll retries the delivery
      log.error({ deliveryId: row.id, error: errorText(err) }, 'webhook delivery aborted');
      return 'lost';
    }
  }

  async function poll(wait: boolean): Promise<WebhookDispatchResult> {
    const result: WebhookDispatchResult = { published: 0, claimed: 0, succeeded: 0, retried: 0, failed: 0 };
    if (stopping) return result;
    result.published = (await publish(db, { limit: batchSize, businessIds, now: iso(clock()) })).events;
    if (stopping) return result;
    const now = clock();
    const rows = await claimDue(db, {
      owner,
      now: iso(now),
      leaseUntil: iso(now + webhookLeaseMs(timeoutMs)),
      limit: concurrency - active.size,
      businessIds,
    });
    result.claimed = rows.length;
    if (stopping) {
      await releaseClaims(
        db,
        owner,
        rows.map((r) => r.id),
      );
      return result;
    }
    const started = rows.map((row) => {
      const p = attempt(row).then((end) => {
        if (end !== 'lost') result[end] += 1;
        if (end === 'failed') log.warn({ deliveryId: row.id, attempts: row.attempts }, 'webhook delivery failed; giving up');
      });
      active.add(p);
      void p.finally(() => {
        active.delete(p);
        // a free slot: poll again at once (unless polling is failing, or stopped)
        if (!wait && failedPolls === 0) schedule(0);
      });
      return p;
    });
    if (wait) await Promise.all(started);
    return result;
  }

  function track<T>(p: Promise<T>): Promise<T> {
    polls.add(p);
    const forget = () => polls.delete(p);
    p.then(forget, forget);
    return p;
  }

  function schedule(delayMs: number): void {
    if (stopping || !running) return;
    if (ticking) {
      rerun = rerun || delayMs === 0;
      return;
    }
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(tick, delayMs);
    timer.unref?.();
  }

  function tick(): void {
    timer = undefined;
    rerun = false;
    ticking = track(poll(false)).then(
      (r) => {
        ticking = undefined;
        if (failedPolls > 0) log.info({ failedPolls }, 'webhook poll works again');
        failedPolls = 0;
        schedule(rerun || r.claimed > 0 || r.published >= batchSize ? 0 : pollIntervalMs);
      },
      (err: unknown) => {
        ticking = undefined;
        failedPolls += 1;
        const retryInMs = pollBackoffMs(failedPolls, pollIntervalMs);
        log.error({ error: errorText(err), failedPolls, retryInMs }, 'webhook poll failed; will retry');
        schedule(retryInMs);
      },
    );
  }

  let stopped: Promise<void> | undefined;
  return {
    owner,
    start() {
      if (stopping || running) return;
      running = true;
      schedule(0);
    },
    stop() {
      stopped ??= (async () => {
        stopping = true;
        if (timer !== undefined) clearTimeout(timer);
        timer = undefined;
        await Promise.allSettled([...polls]);
        await Promise.allSettled([...active]);
      })();
      return stopped;
    },
    runOnce() {
      return track(poll(true));
    },
  };
}
