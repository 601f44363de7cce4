/**
 * The one concurrency model of the two dispatchers (src/jobs/outbox-dispatcher.ts,
 * src/jobs/webhook-dispatcher.ts): continuous slots.
 *
 * - A {@link SlotPool} holds the attempts in flight (a notification row's delivery, a webhook attempt), at
 *   most its size; a poll claims no more than the free slots, and starts every row it claimed at once, so no
 *   row is ever claimed and left waiting in this process.
 * - A finished attempt frees its slot and asks its {@link PollLoop} for a poll at once: a dispatcher never
 *   waits for the slowest of a batch before it claims again, and a hanging receiver holds one slot only (for at
 *   most its timeout).
 * - The {@link PollLoop} runs one poll at a time: asks for a poll while one runs fold into one more poll after
 *   it; an idle dispatcher polls every `pollIntervalMs`; a poll that fails (the database unavailable) is
 *   retried after {@link pollBackoffMs}, never crashing (docs/deployment.md#database-outages); `stop()` ends
 *   the polling and waits for the polls under way, the pool's `drain()` for the attempts.
 *
 * Also the logger type both write to.
 */
import { errorText } from '../shared/log-format.ts';

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

/**
 * When the next poll comes after one that succeeded, as its dispatcher judges from its result: `now` (more is
 * waiting: a full chunk claimed), `soon` (`foldMs` after the start of the poll that ended: what came meanwhile
 * is taken together), `idle` (`pollIntervalMs` later, unless a freed slot or a wake-up asks sooner).
 */
export type NextPoll = 'now' | 'soon' | 'idle';

/** Options of {@link createPollLoop}. */
export interface PollLoopOptions<R> {
  /** One poll of the started loop: claims what the free slots allow and starts it in them, without waiting for it. */
  poll: () => Promise<R>;
  /** When the next poll comes after `result` ({@link NextPoll}); asks made while the poll ran can only bring it sooner. */
  next: (result: R) => NextPoll;
  /** Milliseconds between the polls of an idle loop, and the base of the failed-poll back-off ({@link pollBackoffMs}). */
  pollIntervalMs: number;
  /**
   * Milliseconds after a poll's start before a `soon` poll: asks of a poll within it (wake-ups, a delay up to it
   * asked while a poll ran) fold into one poll then.
   */
  foldMs: number;
  log: DispatcherLogger;
  /** The name in the log messages: `<name> poll failed; will retry`, `<name> poll works again`. */
  name: string;
}

/** A poll loop: one poll at a time, asks for polls folded, failed polls backed off ({@link createPollLoop}). */
export interface PollLoop {
  /** `start()` was called (and the loop polls), also after `stop()`. */
  readonly running: boolean;
  /** `stop()` was called: no poll starts any more, and polls under way should claim nothing more. */
  readonly stopping: boolean;
  /** The last poll failed: the back-off stands, and freed slots and wake-ups ask for no poll. */
  readonly failing: boolean;
  /** Starts polling (a first poll at once). Returns false, doing nothing, when already started or stopping. */
  start(): boolean;
  /**
   * Asks for a poll `delayMs` milliseconds from now, or sooner when one is already due sooner: a poll is never
   * postponed by a later ask. While a poll runs, an ask for `0` makes another poll follow at once, an ask up to
   * `foldMs` one `foldMs` after its start, a longer ask nothing (the poll's end schedules anyway). Does
   * nothing before `start()` or after `stop()`.
   */
  schedule(delayMs: number): void;
  /**
   * Asks for a poll `foldMs` after the start of the last poll (after the poll under way, if any), at once when
   * that is past: asks within one `foldMs` fold into one poll. Does nothing while polls fail.
   */
  soon(): void;
  /** Counts `p` among the work `stop()` waits for (a `runOnce` poll, a write of results); returns `p`. */
  track<T>(p: Promise<T>): Promise<T>;
  /**
   * Stops polling: no poll starts any more (the pending one is cancelled); resolves when the polls and the
   * tracked work have settled, also work tracked while it waits (never rejects). Idempotent. The attempts in slots are the pool's: {@link SlotPool.drain}.
   */
  stop(): Promise<void>;
}

/**
 * Creates a poll loop that calls `options.poll` one poll at a time once started: at once on start, then as the
 * result asks ({@link NextPoll}) or sooner when asked ({@link PollLoop.schedule}, {@link PollLoop.soon}, a freed
 * slot of a {@link SlotPool}). A poll that rejects is logged (`error`) and the next one comes after
 * {@link pollBackoffMs}; the first to succeed after failures is logged (`info`).
 */
export function createPollLoop<R>(options: PollLoopOptions<R>): PollLoop {
  const { pollIntervalMs, foldMs, log, name } = options;
  let running = false;
  let stopping = false;
  let failedPolls = 0;
  let timer: NodeJS.Timeout | undefined;
  /** Epoch ms at which the pending `timer` fires. */
  let timerAt = Infinity;
  let ticking: Promise<unknown> | undefined;
  /** A poll was asked for within `foldMs` while one ran: poll again `foldMs` after its start. */
  let rerun = false;
  /** A poll was asked for at once (a freed slot) while one ran: poll again at once after it. */
  let rerunNow = false;
  /** When the last poll started (epoch ms, this process's clock). */
  let lastTickAt = 0;
  /** Polls and tracked work under way. */
  const tracked = new Set<Promise<unknown>>();

  function track<T>(p: Promise<T>): Promise<T> {
    tracked.add(p);
    const forget = () => tracked.delete(p);
    p.then(forget, forget);
    return p;
  }

  function schedule(delayMs: number): void {
    if (stopping || !running) return;
    if (ticking) {
      if (delayMs === 0) rerunNow = true;
      else rerun = rerun || delayMs <= foldMs;
      return;
    }
    const at = Date.now() + delayMs;
    if (timer !== undefined) {
      if (timerAt <= at) return;
      clearTimeout(timer);
    }
    timerAt = at;
    timer = setTimeout(tick, delayMs);
    timer.unref?.();
  }

  const sinceLastTick = () => Math.max(0, lastTickAt + foldMs - Date.now());

  function tick(): void {
    timer = undefined;
    timerAt = Infinity;
    rerun = false;
    rerunNow = false;
    lastTickAt = Date.now();
    ticking = track(options.poll()).then(
      (result) => {
        ticking = undefined;
        if (failedPolls > 0) log.info({ failedPolls }, `${name} poll works again`);
        failedPolls = 0;
        const next = options.next(result);
        schedule(next === 'now' || rerunNow ? 0 : next === 'soon' || rerun ? sinceLastTick() : pollIntervalMs);
      },
      (err: unknown) => {
        ticking = undefined;
        failedPolls += 1;
        const retryInMs = pollBackoffMs(failedPolls, pollIntervalMs);
        log.error({ error: errorText(err), failedPolls, retryInMs }, `${name} poll failed; will retry`);
        schedule(retryInMs);
      },
    );
  }

  let stopped: Promise<void> | undefined;
  return {
    get running() {
      return running;
    },
    get stopping() {
      return stopping;
    },
    get failing() {
      return failedPolls > 0;
    },
    start() {
      if (stopping || running) return false;
      running = true;
      schedule(0);
      return true;
    },
    schedule,
    soon() {
      if (stopping || !running || failedPolls > 0) return;
      if (ticking) rerun = true;
      else schedule(sinceLastTick());
    },
    track,
    stop() {
      stopping = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      stopped ??= (async () => {
        // work tracked while waiting (a write of results an attempt started) is waited for too
        while (tracked.size > 0) await Promise.allSettled([...tracked]);
      })();
      return stopped;
    },
  };
}

/** Attempts in flight, at most `size` ({@link createSlotPool}). */
export interface SlotPool {
  /** Most attempts in flight at once. */
  readonly size: number;
  /** Attempts in flight. */
  readonly busy: number;
  /** Slots free: `size − busy` (never below 0). */
  readonly free: number;
  /**
   * Holds a slot while `attempt` runs (the caller claimed only what {@link SlotPool.free} allowed); when it
   * settles, the slot frees and, unless `pollAfter()` says false (the slot was handed on already), the loop is
   * asked for a poll at once — but not while its polls fail (the back-off stands). Returns `attempt`.
   */
  start<T>(attempt: Promise<T>, pollAfter?: () => boolean): Promise<T>;
  /** Resolves when the attempts in flight now have settled (never rejects). */
  drain(): Promise<void>;
}

/** Creates a pool of `size` slots (at least 1) whose freed slots ask `loop` for a poll at once. */
export function createSlotPool(size: number, loop: PollLoop): SlotPool {
  const capacity = Math.max(1, size);
  const inFlight = new Set<Promise<unknown>>();
  return {
    size: capacity,
    get busy() {
      return inFlight.size;
    },
    get free() {
      return Math.max(0, capacity - inFlight.size);
    },
    start(attempt, pollAfter) {
      inFlight.add(attempt);
      const end = () => {
        inFlight.delete(attempt);
        if ((pollAfter?.() ?? true) && !loop.failing) loop.schedule(0);
      };
      attempt.then(end, end);
      return attempt;
    },
    drain() {
      return Promise.allSettled([...inFlight]).then(() => undefined);
    },
  };
}
