/**
 * The webhook dispatcher (docs/webhooks.md#delivery): fans the events out into deliveries and sends them
 * after commit, at least once, with retries, beside the notification outbox dispatcher (same processes:
 * `bizapi serve` in `in-process` mode, and `bizapi worker`).
 *
 * One poll ({@link WebhookDispatcher.runOnce}, or the background loop):
 * 1. publish: claim up to `batchSize` unpublished events and write their deliveries, in one transaction
 *    (webhook-delivery.service.ts `publish`);
 * 2. claim due deliveries fairly (docs/webhooks.md#fairness-and-limits), in two lanes, each with its own
 *    slots in this process: the *normal* lane (`concurrency`, 2000) and the *sick* lane (`sickConcurrency`,
 *    1000) of the endpoints whose last `sickAfter` (3) attempts got no answer. Across every dispatcher on the
 *    database, an endpoint has at most `perEndpoint` (4) attempts in flight (1 in the sick lane), a business
 *    at most `perBusiness` (20) per lane, and a claim takes businesses round-robin, so a business whose
 *    receivers hang holds its own 20 slots and nothing else. Each claim has a lease longer than one attempt
 *    can take; each attempt runs without a database transaction while it talks to the receiver, so a
 *    hanging receiver occupies one slot for at most the timeout, and API requests never wait for deliveries.
 * The concurrency model is the one of src/jobs/dispatch-loop.ts, shared with the outbox dispatcher: each lane
 * is a slot pool, a poll claims no more than its free slots, a finished attempt frees its slot and triggers the
 * next poll at once; an idle dispatcher polls every `pollIntervalMs`; a poll that fails (the database
 * unavailable) is retried after `pollBackoffMs`, never crashing.
 *
 * Live delivery (docs/webhooks.md#live-delivery): a started dispatcher is also woken up — it polls at once
 * ({@link WebhookDispatcher.wake}) — by every write of this process that has answered
 * (`signalEventsWritten`, the in-process wake-up, both databases), and on PostgreSQL by the `NOTIFY
 * bizapi_event` that any API process sends after a write (`createEventNotifier`), which it `LISTEN`s for on a
 * connection of its own (src/db/listen.ts: reconnected after a database restart, with a poll at once then; on
 * `DATABASE_DIRECT_URL` behind a transaction-mode pooler, and not at all there without it),
 * and on SQLite by another process's commit, seen every 50 ms in `PRAGMA data_version` (src/db/commit-watch.ts).
 * The poll stays the fallback: a lost notification, a listener down.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Kysely } from 'kysely';
import { type Config, sessionUrlOf } from '../config.ts';
import type { Database } from '../db/database.ts';
import { watchCommits } from '../db/commit-watch.ts';
import { type Listener, listen } from '../db/listen.ts';
import type { WebhookDeliveryRow } from '../db/tables/webhook.table.ts';
import {
  type AttemptToRecord,
  claimDue,
  DELIVERY_TIMEOUT_MS,
  type DeliveryEnd,
  EVENT_CHANNEL,
  makeAttempt,
  onEventsWritten,
  type Preloaded,
  preloadAttempts,
  publish,
  type RecordResult,
  recordAttempts,
  QUEUE_CAP,
  releaseClaims,
  resumeParked,
} from '../modules/webhook/webhook-delivery.service.ts';
import { assignSequences } from '../modules/event/event.service.ts';
import { withConnectionPriority } from '../db/connection-priority.ts';
import { createPollLoop, createSlotPool, type DispatcherLogger, type NextPoll, silentLogger } from './dispatch-loop.ts';
import { errorText } from '../shared/log-format.ts';

/** Options of {@link createWebhookDispatcher}. */
export interface WebhookDispatcherOptions {
  /** The database; the dispatcher never closes it. */
  db: Kysely<Database>;
  /** The master key the endpoints' secrets are sealed with. */
  masterKey: Buffer;
  /**
   * `dispatcher.pollIntervalMs`, `dispatcher.businessIds`, `webhookAllowPrivate`, the `webhooks` limits
   * (defaults when absent), and `database`: when it is PostgreSQL, the started dispatcher `LISTEN`s for
   * committed events (on `sessionUrlOf(database)`; none behind a transaction-mode pooler without
   * `DATABASE_DIRECT_URL`), when SQLite it watches other processes' commits (docs/webhooks.md#live-delivery);
   * without it, it relies on the in-process wake-up and the poll.
   */
  config: Pick<Config, 'dispatcher' | 'webhookAllowPrivate'> & Partial<Pick<Config, 'webhooks' | 'database'>>;
  log?: DispatcherLogger;
  /** Unique name of this dispatcher in leases (default `<host>:<pid>:<random>`). */
  owner?: string;
  /** Events fanned out per poll at most (default 500, per business in turn; fewer when their deliveries pass `FAN_OUT_MAX_DELIVERIES`). */
  batchSize?: number;
  /** Attempts in flight at once in this process's normal lane (default `config.webhooks.concurrency`, 2000). */
  concurrency?: number;
  /**
   * Attempts in flight to one endpoint across dispatchers (default `config.webhooks.perEndpoint`, 4): a
   * receiver that answers gets up to four deliveries in flight.
   */
  perEndpoint?: number;
  /** Attempts in flight of one business per lane across dispatchers (default `config.webhooks.perBusiness`, 20). */
  perBusiness?: number;
  /** Attempts in flight at once in this process's sick lane (default `config.webhooks.sickConcurrency`, 1000). */
  sickConcurrency?: number;
  /** Attempts in a row without an answer that put an endpoint in the sick lane (default `config.webhooks.sickAfter`, 3). */
  sickAfter?: number;
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
  /** Deliveries written for parked endpoints that answer again (docs/webhooks.md#parking). */
  resumed: number;
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
  /**
   * Events of `businessId` (any business when absent) were committed: a started dispatcher polls at once
   * (right after the poll under way, if any); one restricted to other businesses ignores it. The
   * in-process wake-up and the `NOTIFY` listener call it (docs/webhooks.md#live-delivery).
   */
  wake(businessId?: number): void;
}

/**
 * How long a claim lasts: longer than one attempt can take (the request's timeout, plus the database work
 * around it): `timeoutMs + 20 s`. A crashed dispatcher's deliveries become claimable again after it.
 */
export function webhookLeaseMs(timeoutMs: number): number {
  return timeoutMs + 20_000;
}

/**
 * Most deliveries claimed per lane by one poll; a poll that claimed some is followed by another at once, so a
 * wave of a thousand claims is taken in chunks, with events published (and other businesses' deliveries
 * claimed first, round-robin) between them.
 */
export const CLAIM_CHUNK = 100;

/**
 * How soon a poll follows wake-ups by writes (milliseconds, after the last poll's start): under a steady write
 * rate they fold into one poll per 50 ms. Attempts that ended free their slots at once instead: the poll
 * follows their group commit (a wave of endings written together makes one poll), so that a backlog to one
 * endpoint, 4 attempts at a time, is not paced by this interval.
 */
export const FREED_SLOT_POLL_MS = 50;

/**
 * Owed events a resumed endpoint gets per poll, and the deliveries not attempted yet below which it gets
 * them: the fan-out's queue cap (docs/webhooks.md#parking). A recovered endpoint's backlog enters the queue
 * as the queue drains.
 */
export const RESUME_CHUNK = QUEUE_CAP;

/**
 * Lets the event loop run what is waiting (API requests, in a server that also dispatches) before a poll's
 * next step: on SQLite each step's statements run on the event loop, and a poll of several steps must not
 * hold it for their sum (docs/webhooks.md#fairness-and-limits). `setImmediate`: after the pending I/O.
 */
function yieldToRequests(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Parked endpoints resumed per poll (the others in the next polls). */
const RESUME_ENDPOINTS = 20;

/**
 * Most attempts written in one transaction: 100, so that the first wave of a thousand timeouts (each endpoint
 * parked as its streak crosses the threshold) is written in several short transactions with polls between
 * them, not in one that holds SQLite's write lock, and an in-process dispatcher's event loop, for seconds.
 */
const RECORD_BATCH_MAX = 100;

/** Tries of one write of finished attempts that PostgreSQL ends as a deadlock's victim (webhook-dispatcher `recordWithRetry`). */
const RECORD_DEADLOCK_TRIES = 3;

/** The dispatcher limits when neither the options nor `config.webhooks` give them (docs/webhooks.md#fairness-and-limits). */
export const WEBHOOK_DISPATCH_DEFAULTS = {
  concurrency: 2000,
  perEndpoint: 4,
  perBusiness: 20,
  sickConcurrency: 1000,
  sickAfter: 3,
} as const;

/** Creates a webhook dispatcher over `options.db`; it does nothing until `start()` or `runOnce()`. */
export function createWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const { db, config } = options;
  const limits = { ...WEBHOOK_DISPATCH_DEFAULTS, ...config.webhooks };
  const log = options.log ?? silentLogger;
  const owner = options.owner ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const batchSize = options.batchSize ?? 500;
  const perEndpoint = Math.max(1, options.perEndpoint ?? limits.perEndpoint);
  const perBusiness = Math.max(1, options.perBusiness ?? limits.perBusiness);
  const sickAfter = Math.max(1, options.sickAfter ?? limits.sickAfter);
  const clock = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const businessIds = options.businessIds ?? config.dispatcher.businessIds;
  const pollIntervalMs = config.dispatcher.pollIntervalMs;
  const iso = (ms: number) => new Date(ms).toISOString();
  const ctx = {
    db,
    masterKey: options.masterKey,
    owner,
    allowPrivate: config.webhookAllowPrivate,
    now: clock,
    timeoutMs,
  };

  /**
   * The background loop: a full chunk claimed or a full batch published means more is waiting (poll at once);
   * a poll that claimed some is followed {@link FREED_SLOT_POLL_MS} after its start; wake-ups fold into one poll
   * per {@link FREED_SLOT_POLL_MS}.
   */
  const loop = createPollLoop<WebhookDispatchResult>({
    poll: () => poll(false),
    next: (r): NextPoll =>
      r.claimed >= CLAIM_CHUNK || publishWaiting ? 'now' : r.claimed > 0 || r.resumed > 0 ? 'soon' : 'idle',
    pollIntervalMs,
    foldMs: FREED_SLOT_POLL_MS,
    log,
    name: 'webhook',
  });
  /** The last poll's fan-out left events for the next one (a full round claimed, or some deferred): poll at once. */
  let publishWaiting = false;
  /** The `NOTIFY` listener (PostgreSQL) or the commit watch (SQLite), and the in-process subscription, while started. */
  let listener: Listener | undefined;
  let unsubscribe: (() => void) | undefined;
  /** Attempts under way, per lane: a slot each. */
  const active = {
    normal: createSlotPool(options.concurrency ?? limits.concurrency, loop),
    sick: createSlotPool(options.sickConcurrency ?? limits.sickConcurrency, loop),
  };

  /** Deliveries whose slot the last group commit handed to a newly claimed one (no poll needed for it). */
  const refilledRows = new Set<number>();
  /** Attempts made and waiting to be written, with the callers waiting for their end. */
  const toRecord: { item: AttemptToRecord; resolve: (end: DeliveryEnd) => void; reject: (err: unknown) => void }[] = [];
  /**
   * Runs `write` (a transaction) again when PostgreSQL chose it as a deadlock's victim (SQLSTATE 40P01), at
   * most {@link RECORD_DEADLOCK_TRIES} times in all: the records' marks lock endpoints that a fan-out round
   * locks too (its parked cursors, the queue cap's parking), each in its own order; a victim has written
   * nothing, and giving its attempts up would leave them leased for the lease's length (30 s) — a delivery
   * late by half a minute, seen under the write load of bench/README.md#issue-40-write-load.
   */
  async function recordWithRetry<T>(write: () => Promise<T>): Promise<T> {
    for (let tries = 1; ; tries++) {
      try {
        return await write();
      } catch (err) {
        if (tries >= RECORD_DEADLOCK_TRIES || (err as { code?: unknown }).code !== '40P01') throw err;
      }
    }
  }

  /** A write of finished attempts is scheduled or under way (one at a time). */
  let flushing = false;

  /**
   * Writes the finished attempts in one transaction, one write at a time (group commit): the attempts that
   * end while one is written are written together by the next, so a wave of attempts ending together (a
   * thousand hanging receivers timing out) costs a few commits, not one each, and a lone attempt waits for
   * none.
   * A started dispatcher hands the slots of the attempts that succeeded straight back to their endpoints in
   * that transaction (`recordAttempts`' refill) and starts the claimed attempts: a backlog to one endpoint
   * then needs no poll per round of attempts (docs/webhooks.md#fairness-and-limits).
   */
  async function flushRecords(): Promise<void> {
    try {
      await writeRecords(toRecord.splice(0, RECORD_BATCH_MAX));
    } finally {
      flushing = false;
      if (toRecord.length > 0) scheduleFlush();
    }
  }

  /** Flushes on the next turn of the event loop (attempts ending in this turn join), unless one is under way. */
  function scheduleFlush(): void {
    if (flushing) return;
    flushing = true;
    setTimeout(() => void loop.track(flushRecords()), 0);
  }

  /** {@link flushRecords}' work for one batch. */
  async function writeRecords(batch: typeof toRecord): Promise<void> {
    let recorded: RecordResult;
    try {
      const now = clock();
      const freeing = batch.filter((b) => b.item.lane === 'normal').length;
      const limit = Math.min(CLAIM_CHUNK, active.normal.size - active.normal.busy + freeing);
      const refill =
        loop.running && !loop.stopping && limit > 0
          ? { owner, now: iso(now), leaseUntil: iso(now + webhookLeaseMs(timeoutMs)), sickAfter, perBusiness, limit }
          : undefined;
      recorded = await recordWithRetry(() =>
        recordAttempts(
          db,
          owner,
          batch.map((b) => b.item),
          refill,
          sickAfter,
        ),
      );
    } catch (err) {
      for (const b of batch) b.reject(err);
      return;
    }
    batch.forEach((b, i) => {
      if (recorded.refilled[i]) refilledRows.add(b.item.row.id);
      b.resolve(recorded.ends[i]!);
    });
    if (recorded.claimed.length === 0) return;
    if (loop.stopping) {
      await releaseClaims(
        db,
        owner,
        recorded.claimed.map((r) => r.id),
      ).catch(() => undefined);
      return;
    }
    const refillResult: WebhookDispatchResult = {
      published: 0,
      resumed: 0,
      claimed: recorded.claimed.length,
      succeeded: 0,
      retried: 0,
      failed: 0,
    };
    try {
      const preloaded = await preloadAttempts(db, recorded.claimed);
      if (loop.stopping) {
        await releaseClaims(
          db,
          owner,
          recorded.claimed.map((r) => r.id),
        );
        return;
      }
      startAttempts('normal', recorded.claimed, preloaded, refillResult);
    } catch (err) {
      // the claims go back (or their leases expire): a later poll takes them
      await releaseClaims(
        db,
        owner,
        recorded.claimed.map((r) => r.id),
      ).catch(() => undefined);
      log.error({ error: errorText(err) }, 'webhook refill failed; a poll takes its deliveries');
      loop.schedule(0);
    }
  }

  function record(item: AttemptToRecord): Promise<DeliveryEnd> {
    return new Promise((resolve, reject) => {
      toRecord.push({ item, resolve, reject });
      scheduleFlush();
    });
  }

  async function attempt(row: WebhookDeliveryRow, preloaded: Preloaded, lane: 'normal' | 'sick'): Promise<DeliveryEnd> {
    try {
      const made = await makeAttempt(ctx, row, preloaded);
      return made === 'lost' ? 'lost' : await record({ ...made, lane });
    } catch (err) {
      // a database error: the lease expires and a later poll retries the delivery
      log.error({ deliveryId: row.id, error: errorText(err) }, 'webhook delivery aborted');
      return 'lost';
    }
  }

  /** Claims what the lane has room for and starts the attempts; returns them. */
  async function claimLane(lane: 'normal' | 'sick', result: WebhookDispatchResult): Promise<Promise<void>[]> {
    const pool = active[lane];
    if (loop.stopping || pool.free === 0) return [];
    const now = clock();
    // on SQLite the in-process dispatcher's claim and its reads go first for the one connection (connection-priority.ts)
    const rows = await withConnectionPriority(() =>
      claimDue(db, {
        owner,
        now: iso(now),
        leaseUntil: iso(now + webhookLeaseMs(timeoutMs)),
        // in chunks: a poll's synchronous work stays short, and the next poll (at once) publishes new events
        limit: Math.min(CLAIM_CHUNK, pool.free),
        businessIds,
        lane,
        sickAfter,
        perEndpoint,
        perBusiness,
      }),
    );
    if (loop.stopping) {
      // stopped while claiming: the claims go back untouched (a later dispatcher takes them)
      await releaseClaims(
        db,
        owner,
        rows.map((r) => r.id),
      );
      return [];
    }
    result.claimed += rows.length;
    let preloaded: Preloaded;
    try {
      preloaded = await withConnectionPriority(() => preloadAttempts(db, rows));
    } catch (err) {
      await releaseClaims(
        db,
        owner,
        rows.map((r) => r.id),
      ).catch(() => undefined);
      throw err;
    }
    return startAttempts(lane, rows, preloaded, result);
  }

  /** Starts the attempts of claimed rows in `lane`, counted in `result`; returns them. */
  function startAttempts(
    lane: 'normal' | 'sick',
    rows: readonly WebhookDeliveryRow[],
    preloaded: Preloaded,
    result: WebhookDispatchResult,
  ): Promise<void>[] {
    return rows.map((row) =>
      active[lane].start(
        attempt(row, preloaded, lane).then((end) => {
          if (end !== 'lost') result[end] += 1;
          if (end === 'failed')
            log.warn({ deliveryId: row.id, attempts: row.attempts }, 'webhook delivery failed; giving up');
        }),
        // a slot handed straight to another delivery of its endpoint needs no poll; a free one polls again
        // at once (unless polling is failing, or stopped); a burst of attempts ending together (one group
        // commit) makes one poll, not one each
        () => !refilledRows.delete(row.id),
      ),
    );
  }

  async function poll(wait: boolean): Promise<WebhookDispatchResult> {
    const result: WebhookDispatchResult = { published: 0, resumed: 0, claimed: 0, succeeded: 0, retried: 0, failed: 0 };
    if (loop.stopping) return result;
    // deliveries a write wrote itself (docs/webhooks.md#deliveries-written-by-the-write) are due at once;
    // they are claimed first, before the fan-out's and resumption's steps (on SQLite each waits its turn for
    // the one connection, in a server, or the write lock, in a worker; on PostgreSQL a fan-out round of
    // hundreds of events takes its time too)
    const started: Promise<void>[] = [];
    started.push(...(await claimLane('normal', result)));
    await yieldToRequests();
    // committed events get their sequences before they are published (docs/api.md#events)
    await assignSequences(db);
    await yieldToRequests();
    const published = await publish(db, { limit: batchSize, businessIds, now: iso(clock()) });
    result.published = published.events;
    publishWaiting = published.events + published.deferred >= batchSize || published.deferred > 0;
    await yieldToRequests();
    // parked endpoints that answer again get their owed events, a chunk as their queue drains (docs/webhooks.md#parking)
    result.resumed = await resumeParked(db, {
      now: iso(clock()),
      sickAfter,
      chunk: RESUME_CHUNK,
      endpoints: RESUME_ENDPOINTS,
      businessIds,
    });
    await yieldToRequests();
    // (again when this poll fanned out or resumed some: those are due too)
    if (result.published > 0 || result.resumed > 0) {
      started.push(...(await claimLane('normal', result)));
      await yieldToRequests();
    }
    started.push(...(await claimLane('sick', result)));
    if (wait) await Promise.all(started);
    return result;
  }

  /**
   * An idle dispatcher polls at once; a busy one (a poll under way, or one started less than
   * {@link FREED_SLOT_POLL_MS} ago) polls {@link FREED_SLOT_POLL_MS} after the last start, as after a freed
   * slot: under a steady write rate the wake-ups fold into one poll per 50 ms, each fanning out what has
   * come meanwhile, rather than a poll (and its write transactions) per write. While polls fail (the
   * database down), the back-off stands.
   */
  function wake(businessId?: number): void {
    if (businessId !== undefined && businessIds !== undefined && !businessIds.includes(businessId)) return;
    loop.soon();
  }

  let stopped: Promise<void> | undefined;
  return {
    owner,
    start() {
      if (!loop.start()) return;
      unsubscribe = onEventsWritten(wake);
      const database = config.database;
      // behind a transaction-mode pooler without DATABASE_DIRECT_URL there is no session to LISTEN on: the
      // poll alone (every pollMs) finds other processes' events (docs/deployment.md#transaction-mode-poolers-pgbouncer)
      const sessionUrl = database?.dialect === 'postgres' ? sessionUrlOf(database) : undefined;
      if (sessionUrl !== undefined) {
        listener = listen(sessionUrl, EVENT_CHANNEL, {
          notify: (payload) => wake(/^\d+$/.test(payload) ? Number(payload) : undefined),
          // listening (again): notifications sent while the connection was down are lost, so look now
          listening: () => wake(),
          error: (err, retryInMs) =>
            log.warn(
              { error: errorText(err), retryInMs },
              'webhook LISTEN connection failed; reconnecting (the poll goes on meanwhile)',
            ),
        });
      } else if (database?.dialect === 'sqlite') {
        // other processes' commits (the API processes beside a `bizapi worker`, the CLI): src/db/commit-watch.ts
        listener = watchCommits(db, () => wake(), {
          onError: (err) =>
            log.warn(
              { error: errorText(err) },
              'webhook commit watch failed; asking again (the poll goes on meanwhile)',
            ),
        });
      }
    },
    wake,
    stop() {
      stopped ??= (async () => {
        const polls = loop.stop();
        unsubscribe?.();
        await listener?.close();
        await polls;
        await Promise.all([active.normal.drain(), active.sick.drain()]);
      })();
      return stopped;
    },
    runOnce() {
      return loop.track(poll(true));
    },
  };
}
