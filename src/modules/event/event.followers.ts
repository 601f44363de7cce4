/**
 * Live followers of the change feed (docs/api.md#following-the-feed-live): the long-polls
 * (`GET /v1/event?after_sequence=N&wait=S`) and the streams (`GET /v1/event/stream`) a server process holds,
 * registered per business, and what wakes them.
 *
 * - A follower is `{after, types, onNews}`: it wants the business's events with a sequence above `after`
 *   of one of `types` (all when absent). It holds no timer and polls nothing of its own.
 * - A wake-up names a business (or all): the write of this process that has answered (the in-process
 *   wake-up of docs/webhooks.md#live-delivery, both databases), PostgreSQL's `NOTIFY bizapi_event` that the
 *   write of any process sends after commit (a `LISTEN` connection of this registry, opened with its first
 *   follower), SQLite's `PRAGMA data_version` (another process's commit, asked every 50 ms while there are
 *   followers), and a sweep every {@link SWEEP_MS} while there are followers (the fallback: a lost
 *   notification, a listener reconnecting, a write whose INSERT ran just before the first follower of its
 *   business registered).
 * - Wake-ups are folded: one check at a time; those arriving meanwhile make one more. A check gives the
 *   committed events their sequences (event.service `assignSequences`), then reads, **once per woken business
 *   that has followers** (not once per follower), the sequences and types after its followers' lowest
 *   `after`, and calls `onNews` of each follower one of them matches.
 * - PostgreSQL: a process with followers of a business keeps a row in `event_follower` (expiry
 *   {@link FOLLOWER_TTL_S} s, refreshed every sweep), so that the business's writes — whose event INSERT asks
 *   in one `EXISTS` whether anybody listens (webhook endpoints, or this row) — send their `NOTIFY`; a business
 *   nobody follows sends none (issue 38). The row goes at the first sweep that finds no follower of it here.
 * - At most `maxPerBusiness` followers of one business per process: beyond, {@link FeedFollowers.follow}
 *   throws `Throttled` (429), so one tenant cannot hold the process's sockets.
 * - {@link FeedFollowers.close} (the server's shutdown) ends every follower at once (`onEnd`) and refuses new ones.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { type Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { watchCommits } from '../../db/commit-watch.ts';
import { type Listener, listen } from '../../db/listen.ts';
import { isPostgres } from '../../db/sql-helpers.ts';
import { Throttled } from '../../shared/errors.ts';
import * as repo from './event.repository.ts';
import { assignSequences } from './event.service.ts';

/** The fallback sweep of a registry with followers, and the refresh of its PostgreSQL rows: every 5 s. */
export const SWEEP_MS = 5_000;

/** Seconds a PostgreSQL follower row counts after its last refresh: 30 (six sweeps). */
export const FOLLOWER_TTL_S = 30;

/** Sequences and types read per woken business at most; a full read wakes every follower of it (each reads its own page). */
const PROBE_LIMIT = 1000;

/** One live follower: a long-poll or a stream. */
export interface Follower {
  readonly businessId: number;
  /** The last sequence it has: it wants the events above it. A stream moves it as it sends. */
  after: number;
  /** The types it wants (undefined: all). */
  readonly types: ReadonlySet<string> | undefined;
  /** Events it wants have committed (called at most once per check; it reads them itself). */
  onNews(): void;
  /** The registry closes (shutdown): answer or end now. */
  onEnd(): void;
}

/** What {@link FeedFollowers.follow} returns: the follower, and how to remove it (idempotent). */
export interface Following {
  readonly follower: Follower;
  stop(): void;
}

/** Options of {@link createFeedFollowers}. */
export interface FeedFollowersOptions {
  db: Kysely<Database>;
  /** PostgreSQL: the URL of the session to `LISTEN` on (undefined: none, e.g. behind a transaction pooler without a direct URL: the sweep alone). */
  sessionUrl?: string;
  /** The `NOTIFY` channel writes send on (webhook-delivery.service `EVENT_CHANNEL`). */
  channel: string;
  /** Subscribes to this process's answered writes (webhook-delivery.service `onEventsWritten`); returns the unsubscribe. */
  onWritten(listener: (businessId: number) => void): () => void;
  /** Followers of one business at most (`BIZAPI_EVENT_FOLLOWERS_MAX_PER_BUSINESS`). */
  maxPerBusiness: number;
  /** Milliseconds between the streams' heartbeats (`BIZAPI_EVENT_STREAM_HEARTBEAT_MS`, 15 000). */
  heartbeatMs: number;
  /** Told about a failing check or listener (the sweep retries). */
  warn?(fields: Record<string, unknown>, message: string): void;
  /** The process's name in `event_follower` (default `<host>:<pid>:<random>`). */
  owner?: string;
}

/** A process's registry of live followers. */
export interface FeedFollowers {
  /**
   * Registers `follower` (resolves once a write of its business, in any process, will wake it: on
   * PostgreSQL after its row is written and the `LISTEN` is listening).
   * @throws Throttled (429, `Retry-After: 5`) when the business has `maxPerBusiness` followers here; when the registry is closed, calls `onEnd` at once
   */
  follow(follower: Follower): Promise<Following>;
  /** Calls `fn` every `heartbeatMs` while it is subscribed (one timer for all streams); returns the unsubscribe. */
  onHeartbeat(fn: () => void): () => void;
  /** Wakes the followers of `businessId` (all when undefined) whose events have committed. */
  wake(businessId?: number): void;
  /** Followers registered now. */
  readonly size: number;
  /** Whether {@link close} was called. */
  readonly closed: boolean;
  /** Ends every follower now (`onEnd`), refuses new ones, stops listening. Idempotent. */
  close(): Promise<void>;
}

/** Creates the registry; it opens nothing until its first follower. */
export function createFeedFollowers(options: FeedFollowersOptions): FeedFollowers {
  const { db } = options;
  const postgres = isPostgres(db);
  const owner = options.owner ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const warn = options.warn ?? (() => undefined);
  const byBusiness = new Map<number, Set<Follower>>();
  let size = 0;
  let closed = false;
  /** PostgreSQL: businesses whose row this process holds. */
  const rows = new Set<number>();
  /** PostgreSQL: the write of a business's row under way (the first follower's). */
  const rowWrites = new Map<number, Promise<void>>();
  let listener: Listener | undefined;
  let listening: Promise<void> | undefined;
  let unsubscribe: (() => void) | undefined;
  let sweeper: NodeJS.Timeout | undefined;
  const heartbeats = new Set<() => void>();
  let heartbeat: NodeJS.Timeout | undefined;

  /** Woken businesses not checked yet (`all`: every business with followers). */
  let pending: Set<number> | 'all' = new Set();
  let checking = false;

  function wake(businessId?: number): void {
    if (size === 0) return;
    if (businessId === undefined) pending = 'all';
    else if (pending !== 'all') {
      if (!byBusiness.has(businessId)) return;
      pending.add(businessId);
    }
    if (!checking) {
      checking = true;
      setImmediate(() => void check());
    }
  }

  /** Folds the wake-ups that came meanwhile into one more round until none is pending. */
  async function check(): Promise<void> {
    try {
      while (!closed && (pending === 'all' || pending.size > 0)) {
        const woken = pending === 'all' ? [...byBusiness.keys()] : [...pending];
        pending = new Set();
        await assignSequences(db);
        for (const businessId of woken) await checkBusiness(businessId);
      }
    } catch (err) {
      warn(
        { error: err instanceof Error ? err.message : String(err) },
        'event followers: a check failed; the next wake-up or sweep retries',
      );
    } finally {
      checking = false;
    }
  }

  /** One read for the business's followers: each one an event it wants has reached is told. */
  async function checkBusiness(businessId: number): Promise<void> {
    const followers = byBusiness.get(businessId);
    if (!followers || followers.size === 0) return;
    let lowest = Infinity;
    for (const f of followers) lowest = Math.min(lowest, f.after);
    const events = await repo.findSequenceTypesAfter(db, businessId, lowest, PROBE_LIMIT);
    if (events.length === 0) return;
    const full = events.length === PROBE_LIMIT;
    for (const f of [...followers]) {
      if (full || events.some((e) => e.sequence > f.after && (f.types === undefined || f.types.has(e.type))))
        f.onNews();
    }
  }

  /** Starts the wake-up sources with the first follower (they stay until {@link close}). */
  function startSources(): Promise<void> {
    if (listening) return listening;
    unsubscribe = options.onWritten((businessId) => wake(businessId));
    sweeper = setInterval(() => void sweep(), SWEEP_MS);
    sweeper.unref();
    if (postgres && options.sessionUrl !== undefined) {
      listening = new Promise<void>((resolve) => {
        listener = listen(options.sessionUrl!, options.channel, {
          notify: (payload) => wake(/^\d+$/.test(payload) ? Number(payload) : undefined),
          listening: () => {
            resolve();
            wake();
          },
          error: (err, retryInMs) => {
            // a follower does not wait for a listener that cannot connect: the sweep covers meanwhile
            resolve();
            warn(
              { error: err.message, retryInMs },
              'event followers: LISTEN connection failed; reconnecting (the sweep goes on meanwhile)',
            );
          },
        });
      });
    } else {
      if (!postgres) {
        listener = watchCommits(db, () => wake(), {
          onError: (err) => warn({ error: err.message }, 'event followers: commit watch failed; asking again'),
        });
      }
      listening = Promise.resolve();
    }
    return listening;
  }

  /** Every {@link SWEEP_MS}: refreshes (or drops) this process's follower rows, and checks every followed business. */
  async function sweep(): Promise<void> {
    if (closed) return;
    if (postgres) {
      const followed = [...rows].filter((b) => byBusiness.has(b));
      const unfollowed = [...rows].filter((b) => !byBusiness.has(b) && !rowWrites.has(b));
      try {
        await repo.upsertFollowers(db, owner, followed, FOLLOWER_TTL_S);
        if (unfollowed.length > 0) {
          for (const b of unfollowed) rows.delete(b);
          await repo.deleteFollowers(db, owner, unfollowed);
        }
      } catch (err) {
        warn(
          { error: err instanceof Error ? err.message : String(err) },
          'event followers: refreshing the follower rows failed; the next sweep retries',
        );
      }
    }
    wake();
  }

  /** PostgreSQL: this process's row for the business, written once (its first follower waits for it). */
  function ensureRow(businessId: number): Promise<void> {
    if (!postgres || rows.has(businessId)) return Promise.resolve();
    let write = rowWrites.get(businessId);
    if (!write) {
      write = repo.upsertFollowers(db, owner, [businessId], FOLLOWER_TTL_S).then(
        () => {
          rows.add(businessId);
          rowWrites.delete(businessId);
        },
        (err: unknown) => {
          rowWrites.delete(businessId);
          throw err;
        },
      );
      rowWrites.set(businessId, write);
    }
    return write;
  }

  function remove(follower: Follower): void {
    const set = byBusiness.get(follower.businessId);
    if (!set?.delete(follower)) return;
    size -= 1;
    if (set.size === 0) byBusiness.delete(follower.businessId);
  }

  return {
    get size() {
      return size;
    },
    get closed() {
      return closed;
    },
    wake,
    async follow(follower) {
      const stop = () => remove(follower);
      if (closed) {
        follower.onEnd();
        return { follower, stop };
      }
      let set = byBusiness.get(follower.businessId);
      if ((set?.size ?? 0) >= options.maxPerBusiness) throw new Throttled(5);
      if (!set) byBusiness.set(follower.businessId, (set = new Set()));
      set.add(follower);
      size += 1;
      try {
        await Promise.all([startSources(), ensureRow(follower.businessId)]);
      } catch (err) {
        stop();
        throw err;
      }
      return { follower, stop };
    },
    onHeartbeat(fn) {
      heartbeats.add(fn);
      if (!heartbeat) {
        heartbeat = setInterval(() => {
          for (const h of heartbeats) h();
        }, options.heartbeatMs);
        heartbeat.unref();
      }
      return () => {
        heartbeats.delete(fn);
        if (heartbeats.size === 0 && heartbeat) {
          clearInterval(heartbeat);
          heartbeat = undefined;
        }
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const set of byBusiness.values()) for (const f of [...set]) f.onEnd();
      byBusiness.clear();
      size = 0;
      if (sweeper) clearInterval(sweeper);
      if (heartbeat) clearInterval(heartbeat);
      unsubscribe?.();
      await listener?.close();
      if (postgres && rows.size > 0) await repo.deleteFollowers(db, owner, [...rows]).catch(() => undefined);
    },
  };
}
