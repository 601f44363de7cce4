/**
 * The outbox dispatcher (README.md#notifications, docs/deployment.md#6-the-notification-worker): delivers the
 * notification outbox after commit, on every channel, with retries and exponential back-off, at least once, never
 * twice for a channel already done.
 *
 * How one poll works ({@link OutboxDispatcher.runOnce}):
 * 1. claim up to `batchSize` due rows with a lease in one statement (`FOR UPDATE SKIP LOCKED` on
 *    PostgreSQL), so that any number of dispatchers — in several server processes, in `bizapi worker`s —
 *    never work on the same row at once; the lease outlives the slowest possible delivery;
 * 2. for each row (a few at a time), re-check the recipient (still active, notifications still on; else the
 *    row ends without sending), render the message, then deliver each channel not done yet — in-app
 *    (idempotent insert), e-mail, push (marked done when off) — marking each channel done as soon as it
 *    succeeds, so that a retry repeats only the channels that failed;
 * 3. end the row as delivered, or schedule a retry (`min(base × 2^(attempt − 1), max)` later), or, after
 *    `maxAttempts`, end it as failed with the last error.
 *
 * No database transaction or connection is held while a channel talks to the network, so a slow SMTP
 * server or webhook slows nothing but its own deliveries; API requests never wait for delivery.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { type Channel, createMailChannel, createPushChannel, type OutgoingMessage } from '../modules/notification/notification.channels.ts';
import { renderMessage } from '../modules/notification/notification.messages.ts';
import * as notifications from '../modules/notification/notification.service.ts';
import type { OutboxRow } from '../db/tables/notification.table.ts';
import { type DispatcherLogger, pollBackoffMs, silentLogger } from './dispatch-loop.ts';

/** Options of {@link createOutboxDispatcher}. */
export interface DispatcherOptions {
  /** The database; the dispatcher never closes it. */
  db: Kysely<Database>;
  /** Retry, timeout and channel settings (`dispatcher`, `smtpUrl`, `mailFrom`, `pushWebhookUrl`, `dataDir`). */
  config: Pick<Config, 'dispatcher' | 'smtpUrl' | 'mailFrom' | 'pushWebhookUrl' | 'dataDir'>;
  log?: DispatcherLogger;
  /** Unique name of this dispatcher in leases (default `<host>:<pid>:<random>`). */
  owner?: string;
  /** Rows claimed per poll (default 20). */
  batchSize?: number;
  /** Rows delivered at once (default 4). */
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
  /** Starts polling in the background (every `pollIntervalMs` while idle, at once while busy). Idempotent. */
  start(): void;
  /**
   * Stops polling and drains: rows being delivered finish (each channel bounded by `timeoutMs`), claimed
   * rows not started yet are released for other dispatchers, the channels are closed. Idempotent; after it
   * resolves, the dispatcher touches neither the database nor the network.
   */
  stop(): Promise<void>;
  /** One poll: claim due rows and deliver them. Used by the loop, and by tests to deliver deterministically. */
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

function errorText(err: unknown): string {
  return err instanceof Error ? err.message || err.name : String(err);
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
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const clock = options.now ?? Date.now;
  const iso = (ms: number) => new Date(ms).toISOString();

  const email =
    options.channels?.email ??
    createMailChannel({ smtpUrl: config.smtpUrl, mailFrom: config.mailFrom, dataDir: config.dataDir, timeoutMs: settings.timeoutMs });
  const push =
    options.channels?.push !== undefined
      ? options.channels.push
      : config.pushWebhookUrl === undefined
        ? null
        : createPushChannel({ url: config.pushWebhookUrl, timeoutMs: settings.timeoutMs });

  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let loop: Promise<void> | undefined;
  const inFlight = new Set<Promise<DispatchResult>>();

  /** Delivers one claimed row; returns how it ended. */
  async function deliver(row: OutboxRow): Promise<'delivered' | 'retried' | 'failed' | 'lost'> {
    const recipient = await notifications.findRecipient(db, row.business_id, row.member_id);
    if (!recipient || recipient.is_active !== 1 || recipient.notifications_enabled !== 1) {
      // README.md#notifications: only active members with notifications on — also when that changed since the event
      return (await notifications.markDelivered(db, row.id, owner, iso(clock()))) ? 'delivered' : 'lost';
    }
    const text = await renderMessage(db, row);
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
    const steps: { column: notifications.ChannelColumn; done: boolean; run: (() => Promise<void>) | null; name: string }[] = [
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
    if (errors.length === 0) return (await notifications.markDelivered(db, row.id, owner, iso(now))) ? 'delivered' : 'lost';
    const error = errors.join('; ');
    if (row.attempts >= settings.maxAttempts) {
      log.error({ outboxId: row.id, attempts: row.attempts, error }, 'notification delivery failed; giving up');
      return (await notifications.markAttemptFailed(db, row.id, owner, error, { failedAt: iso(now) })) ? 'failed' : 'lost';
    }
    const delay = retryDelayMs(row.attempts, settings.retryBaseMs, settings.retryMaxMs);
    log.warn({ outboxId: row.id, attempts: row.attempts, retryInMs: delay, error }, 'notification delivery failed; will retry');
    return (await notifications.markAttemptFailed(db, row.id, owner, error, { nextAttemptAt: iso(now + delay) })) ? 'retried' : 'lost';
  }

  async function poll(): Promise<DispatchResult> {
    const result: DispatchResult = { claimed: 0, delivered: 0, retried: 0, failed: 0 };
    if (stopping) return result;
    const now = clock();
    const rows = await notifications.claimDue(db, {
      owner,
      now: iso(now),
      leaseUntil: iso(now + leaseMs(settings.timeoutMs)),
      limit: batchSize,
      businessIds: options.businessIds ?? config.dispatcher.businessIds,
    });
    result.claimed = rows.length;
    let next = 0;
    const unstarted: number[] = [];
    const worker = async () => {
      while (next < rows.length) {
        const row = rows[next++]!;
        if (stopping) {
          unstarted.push(row.id);
          continue;
        }
        try {
          const outcome = await deliver(row);
          if (outcome !== 'lost') result[outcome] += 1;
        } catch (err) {
          // a database error while delivering: the lease expires and another poll retries the row
          log.error({ outboxId: row.id, error: errorText(err) }, 'notification delivery aborted');
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, rows.length) }, worker));
    if (unstarted.length > 0) await notifications.releaseClaims(db, owner, unstarted);
    return result;
  }

  function runOnce(): Promise<DispatchResult> {
    const p = poll();
    inFlight.add(p);
    const forget = () => inFlight.delete(p);
    p.then(forget, forget);
    return p;
  }

  /** Polls that failed in a row (the database unavailable): the next poll waits {@link pollBackoffMs}. */
  let failedPolls = 0;

  function schedule(delayMs: number): void {
    if (stopping) return;
    timer = setTimeout(() => {
      timer = undefined;
      loop = runOnce().then(
        (r) => {
          if (failedPolls > 0) log.info({ failedPolls }, 'notification outbox poll works again');
          failedPolls = 0;
          schedule(r.claimed >= batchSize ? 0 : settings.pollIntervalMs);
        },
        (err: unknown) => {
          failedPolls += 1;
          const retryInMs = pollBackoffMs(failedPolls, settings.pollIntervalMs);
          log.error({ error: errorText(err), failedPolls, retryInMs }, 'notification outbox poll failed; will retry');
          schedule(retryInMs);
        },
      );
    }, delayMs);
    timer.unref?.();
  }

  let stopped: Promise<void> | undefined;
  return {
    owner,
    start() {
      if (stopping || timer !== undefined || loop !== undefined) return;
      schedule(0);
    },
    stop() {
      stopped ??= (async () => {
        stopping = true;
        if (timer !== undefined) clearTimeout(timer);
        timer = undefined;
        await loop;
        await Promise.allSettled([...inFlight]);
        email.close();
        push?.close();
      })();
      return stopped;
    },
    runOnce,
  };
}
