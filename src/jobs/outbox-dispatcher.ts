/**
 * The outbox dispatcher (README.md#notifications, docs/deployment.md#6-the-notification-worker): delivers the
 * notification outbox after commit, on every channel, with retries and exponential back-off, at least once, never
 * twice for a channel already done.
 *
 * The concurrency model is the one of src/jobs/dispatch-loop.ts, shared with the webhook dispatcher:
 * continuous slots. The dispatcher has `concurrency` slots (default 4), one per row being delivered; a poll
 * claims no more rows than slots are free, and starts each claimed row in a slot at once; a row whose
 * delivery ends frees its slot and triggers the next poll at once, so a hanging channel holds one slot (for at
 * most its timeout per channel) while the other slots keep delivering.
 *
 * How one poll works ({@link OutboxDispatcher.runOnce}):
 * 1. claim up to `batchSize` due rows, and no more than the free slots, with a lease in one statement
 *    (`FOR UPDATE SKIP LOCKED` on PostgreSQL), so that any number of dispatchers — in several server
 *    processes, in `bizapi worker`s — never work on the same row at once; the lease outlives the slowest
 *    possible delivery;
 * 2. for each row, in its slot: re-check the recipient (still active, notifications still on; else the row
 *    ends without sending), render the message, then deliver each channel not done yet — in-app (idempotent
 *    insert), e-mail, push (marked done when off) — marking each channel done as soon as it succeeds, so that
 *    a retry repeats only the channels that failed;
 * 3. end the row as delivered, or schedule a retry (`min(base × 2^(attempt − 1), max)` later), or, after
 *    `maxAttempts`, end it as failed with the last error.
 * An idle dispatcher polls every `pollIntervalMs`; a poll that fails (the database unavailable) is retried
 * after `pollBackoffMs` (docs/deployment.md#database-outages).
 *
 * No database transaction or connection is held while a channel talks to the network, so a slow SMTP
 * server or webhook slows nothing but its own deliveries; API requests never wait for delivery.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import {
  type Channel,
  createMailChannel,
  createPushChannel,
  type OutgoingMessage,
} from '../modules/notification/notification.channels.ts';
import { renderMessage } from '../modules/notification/notification.messages.ts';
import * as notifications from '../modules/notification/notification.service.ts';
import { services } from '../services.ts';
import type { OutboxRow } from '../db/tables/notification.table.ts';
import { createPollLoop, createSlotPool, type DispatcherLogger, silentLogger } from './dispatch-loop.ts';
import { errorText } from '../shared/log-format.ts';

/** Options of {@link createOutboxDispatcher}. */
export interface DispatcherOptions {
  /** The database; the dispatcher never closes it. */
  db: Kysely<Database>;
  /** Retry, timeout and channel settings (`dispatcher`, `smtpUrl`, `mailFrom`, `pushWebhookUrl`, `dataDir`). */
  config: Pick<Config, 'dispatcher' | 'smtpUrl' | 'mailFrom' | 'pushWebhookUrl' | 'dataDir'>;
  log?: DispatcherLogger;
  /** Unique name of this dispatcher in leases (default `<host>:<pid>:<random>`). */
  owner?: string;
  /** Most rows claimed by one poll (default 20); a poll claims no more than the free slots either. */
  batchSize?: number;
  /** Slots: rows delivered at once (default 4, at least 1). */
  concurrency?: number;
  /**
   * Restricts the dispatcher to these businesses (default: `config.dispatcher.businessIds`, else all). For tests that share one database, and
   * for splitting workers by tenant.
   */
  businessIds?: readonly number[];
  /** The clock, in epoch milliseconds (default `Date.now`); tests move it to make retries due. */
  now?: () => number;
  /** Channels to use instead of the ones built from `config` (tests). */
  channels?: { email?: Channel; push?: Channel | null };
}

/** What one poll did. */
export interface DispatchResult {
  /** Rows claimed. */
  claimed: number;
  /** Rows that ended delivered (including rows whose recipient no longer takes notifications). */
  delivered: number;
  /** Rows scheduled for another attempt. */
  retried: number;
  /** Rows that ended failed (attempts exhausted). */
  failed: number;
}

/** A running or runnable dispatcher. */
export interface OutboxDispatcher {
  /** The name this dispatcher writes into leases. */
  readonly owner: string;
  /**
   * Starts polling in the background: every `pollIntervalMs` while idle, at once when a slot frees or a poll
   * filled `batchSize` with slots still free. Idempotent.
   */
  start(): void;
  /**
   * Stops polling and drains: rows being delivered finish (each channel bounded by `timeoutMs`), rows a poll
   * claimed while stopping are released for other dispatchers, the channels are closed. Idempotent; after it
   * resolves, the dispatcher touches neither the database nor the network.
   */
  stop(): Promise<void>;
  /**
   * One poll that waits for the deliveries it started: claims due rows (at most `batchSize`, and no more than
   * the free slots: none while the started loop holds them all), delivers them, resolves with their counts.
   * Tests deliver deterministically with it.
   */
  runOnce(): Promise<DispatchResult>;
}

/** Delay before attempt `attempt + 1` after `attempt` failed attempts: `min(base × 2^(attempt − 1), max)` ms. */
export function retryDelayMs(attempt: number, baseMs: number, maxMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempt - 1), maxMs);
}

/**
 * How long a claim lasts: longer than the slowest delivery of one row (three channels, each bounded by
 * `timeoutMs`, plus the database work), so that no other dispatcher takes a row that is still being
 * delivered; a crashed dispatcher's rows become claimable again after it: `4 × timeoutMs + 10 s` (50 s
 * with the default 10 s timeout), in milliseconds.
 */
export function leaseMs(timeoutMs: number): number {
  return 4 * timeoutMs + 10_000;
}

/**
 * Creates a dispatcher over `options.db`. It does nothing until {@link OutboxDispatcher.start} (or
 * `runOnce`) is called.
 */
export function createOutboxDispatcher(options: DispatcherOptions): OutboxDispatcher {
  const { db, config } = options;
  const settings = config.dispatcher;
  const log = options.log ?? silentLogger;
  const owner = options.owner ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const batchSize = options.batchSize ?? 20;
  const clock = options.now ?? Date.now;
  const iso = (ms: number) => new Date(ms).toISOString();

  const email =
    options.channels?.email ??
    createMailChannel({
      smtpUrl: config.smtpUrl,
      mailFrom: config.mailFrom,
      dataDir: config.dataDir,
      timeoutMs: settings.timeoutMs,
    });
  const push =
    options.channels?.push !== undefined
      ? options.channels.push
      : config.pushWebhookUrl === undefined
        ? null
        : createPushChannel({ url: config.pushWebhookUrl, timeoutMs: settings.timeoutMs });

  /** The background loop: a poll that filled `batchSize` with slots still free is followed at once. */
  const loop = createPollLoop<DispatchResult>({
    poll: () => poll(false),
    next: (r) => (r.claimed >= batchSize && slots.free > 0 ? 'now' : 'idle'),
    pollIntervalMs: settings.pollIntervalMs,
    // no wake-ups: the asks while a poll runs are freed slots, which poll at once
    foldMs: 0,
    log,
    name: 'notification outbox',
  });
  /** Rows being delivered: a slot each. */
  const slots = createSlotPool(options.concurrency ?? 4, loop);

  /** Delivers one claimed row; returns how it ended. */
  async function deliver(row: OutboxRow): Promise<'delivered' | 'retried' | 'failed' | 'lost'> {
    const recipient = await notifications.findRecipient(db, row.business_id, row.member_id);
    if (!recipient || recipient.is_active !== 1 || recipient.notifications_enabled !== 1) {
      // README.md#notifications: only active members with notifications on — also when that changed since the event
      return (await notifications.markDelivered(db, row.id, owner, iso(clock()))) ? 'delivered' : 'lost';
    }
    const text = await renderMessage(db, row, services.inquiry);
    const message: OutgoingMessage = {
      outboxId: row.id,
      businessId: row.business_id,
      type: row.event_type as notifications.NotificationEventType,
      inquiryId: row.inquiry_id,
      recipient: { id: recipient.id, nickname: recipient.nickname, email: recipient.email },
      title: text.title,
      content: text.content,
      created: row.created,
    };
    const errors: string[] = [];
    const steps: {
      column: notifications.ChannelColumn;
      done: boolean;
      run: (() => Promise<void>) | null;
      name: string;
    }[] = [
      {
        column: 'in_app_at',
        done: row.in_app_at !== null,
        name: 'in-app',
        run: () =>
          notifications.insertInApp(db, row.business_id, {
            member_id: row.member_id,
            outbox_id: row.id,
            event_type: row.event_type,
            inquiry_id: row.inquiry_id,
            title: text.title,
            content: text.content,
            created: row.created,
          }),
      },
      { column: 'email_at', done: row.email_at !== null, name: email.name, run: () => email.send(message) },
      { column: 'push_at', done: row.push_at !== null, name: 'push', run: push ? () => push.send(message) : null },
    ];
    for (const step of steps) {
      if (step.done) continue;
      try {
        if (step.run) await step.run();
      } catch (err) {
        errors.push(`${step.name}: ${errorText(err)}`);
        continue;
      }
      if (!(await notifications.markChannelDone(db, row.id, owner, step.column, iso(clock())))) {
        log.warn({ outboxId: row.id, owner }, 'notification lease lost; another dispatcher took the row over');
        return 'lost';
      }
    }
    const now = clock();
    if (errors.length === 0)
      return (await notifications.markDelivered(db, row.id, owner, iso(now))) ? 'delivered' : 'lost';
    const error = errors.join('; ');
    if (row.attempts >= settings.maxAttempts) {
      log.error({ outboxId: row.id, attempts: row.attempts, error }, 'notification delivery failed; giving up');
      return (await notifications.markAttemptFailed(db, row.id, owner, error, { failedAt: iso(now) }))
        ? 'failed'
        : 'lost';
    }
    const delay = retryDelayMs(row.attempts, settings.retryBaseMs, settings.retryMaxMs);
    log.warn(
      { outboxId: row.id, attempts: row.attempts, retryInMs: delay, error },
      'notification delivery failed; will retry',
    );
    return (await notifications.markAttemptFailed(db, row.id, owner, error, { nextAttemptAt: iso(now + delay) }))
      ? 'retried'
      : 'lost';
  }

  /** Delivers `row` in a slot, counted in `result` when it ends; never rejects. */
  function startDelivery(row: OutboxRow, result: DispatchResult): Promise<void> {
    return slots.start(
      deliver(row).then(
        (outcome) => {
          if (outcome !== 'lost') result[outcome] += 1;
        },
        (err: unknown) => {
          // a database error while delivering: the lease expires and another poll retries the row
          log.error({ outboxId: row.id, error: errorText(err) }, 'notification delivery aborted');
        },
      ),
    );
  }

  /** Claims what the free slots allow and starts the deliveries; with `wait`, resolves after they ended. */
  async function poll(wait: boolean): Promise<DispatchResult> {
    const result: DispatchResult = { claimed: 0, delivered: 0, retried: 0, failed: 0 };
    const limit = Math.min(batchSize, slots.free);
    if (loop.stopping || limit <= 0) return result;
    const now = clock();
    const rows = await notifications.claimDue(db, {
      owner,
      now: iso(now),
      leaseUntil: iso(now + leaseMs(settings.timeoutMs)),
      limit,
      businessIds: options.businessIds ?? config.dispatcher.businessIds,
    });
    if (loop.stopping) {
      // stopped while claiming: the claims go back untouched (another dispatcher takes them)
      if (rows.length > 0)
        await notifications.releaseClaims(
          db,
          owner,
          rows.map((r) => r.id),
        );
      return result;
    }
    result.claimed = rows.length;
    const started = rows.map((row) => startDelivery(row, result));
    if (wait) await Promise.all(started);
    return result;
  }

  let stopped: Promise<void> | undefined;
  return {
    owner,
    start() {
      loop.start();
    },
    stop() {
      stopped ??= (async () => {
        await loop.stop();
        await slots.drain();
        email.close();
        push?.close();
      })();
      return stopped;
    },
    runOnce() {
      return loop.track(poll(true));
    },
  };
}
