/**
 * The server's dispatcher thread (docs/webhooks.md#where-the-dispatcher-runs, issue 40): with
 * `BIZAPI_DISPATCHER=in-process` (the default) `bizapi serve` runs the notification outbox dispatcher and the
 * webhook dispatcher in a `worker_threads` thread of its own process, with their own database handle (on SQLite
 * a second connection to the same file, in WAL mode; on PostgreSQL a pool of {@link THREAD_POOL_MAX}), so that
 * their work never waits behind the API's HTTP callbacks on one event loop, nor the API's answers behind theirs
 * (bench/README.md#issue-40-write-load).
 *
 * What crosses between the threads (postMessage):
 * - to the thread: the API's in-process wake-up (`signalEventsWritten`, docs/webhooks.md#live-delivery), the
 *   businesses of one turn of the main event loop folded into one message; and `stop`. PostgreSQL's `LISTEN`
 *   and SQLite's commit watch run in the thread, as in a `bizapi worker`;
 * - to the main thread: the dispatchers' log lines, written there by the server's pino logger with the same
 *   `component` (`outbox-dispatcher`, `webhook-dispatcher`) as when they ran on the main thread; each webhook
 *   attempt, re-emitted there (`reportDeliveryAttempt`) for the metrics on `/metrics`; `stopped`.
 *
 * `stop()` (graceful shutdown) asks the thread to drain: the deliveries under way finish, the claims taken while
 * stopping go back, the thread's database handle closes, then the thread ends. A thread that dies otherwise (an
 * uncaught error, out of memory) is logged and started again after a back-off ({@link restartDelayMs}); the
 * deliveries it had under way are taken again when their leases expire.
 *
 * The thread loads this very module: from the TypeScript sources it first registers tsx, as bin/bizapi does;
 * from the compiled dist/ it loads the JavaScript. SQLite `:memory:` cannot be shared by two connections: there
 * src/server.ts keeps the dispatchers on the main thread.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { Config } from '../config.ts';
import { createDb } from '../db/create-db.ts';
import {
  type AttemptOutcome,
  onDeliveryAttempt,
  onEventsWritten,
  reportDeliveryAttempt,
  signalEventsWritten,
} from '../modules/webhook/webhook-delivery.service.ts';
import type { DispatcherLogger } from './dispatch-loop.ts';
import { createOutboxDispatcher } from './outbox-dispatcher.ts';
import { createWebhookDispatcher } from './webhook-dispatcher.ts';
import { errorText } from '../shared/log-format.ts';

/** The thread's `workerData.role`: a thread started with any other (Vitest's own workers) runs nothing here. */
const ROLE = 'bizapi-dispatcher-thread';

/** PostgreSQL connections of the thread's own pool (the API's pool keeps its 10). */
export const THREAD_POOL_MAX = 5;

/** The configuration the thread's dispatchers read (a plain object: it is copied to the thread). */
export type DispatcherThreadConfig = Pick<
  Config,
  'database' | 'dispatcher' | 'webhooks' | 'webhookAllowPrivate' | 'smtpUrl' | 'mailFrom' | 'pushWebhookUrl' | 'dataDir'
>;

/** What the thread is given at its start. */
interface ThreadData {
  role: typeof ROLE;
  config: DispatcherThreadConfig;
  masterKey: Uint8Array;
}

type ToThread = { type: 'written'; businessIds: number[] } | { type: 'stop' } | { type: 'crash' };
type LogLevel = 'info' | 'warn' | 'error';
type FromThread =
  | { type: 'log'; level: LogLevel; component: string; obj: object; msg: string | undefined }
  | { type: 'attempt'; outcome: AttemptOutcome; seconds: number | undefined }
  | { type: 'started' }
  | { type: 'stopped' };

/** Options of {@link createDispatcherThread}. */
export interface DispatcherThreadOptions {
  /** The server's configuration; the thread gets {@link DispatcherThreadConfig}'s part of it. */
  config: DispatcherThreadConfig;
  /** The master key the webhook endpoints' secrets are sealed with. */
  masterKey: Buffer;
  /** The main thread's logger of a component (the server's pino logger's child `{ component }`). */
  log: (component: string) => DispatcherLogger;
}

/** The dispatchers' thread, as the server process sees it. */
export interface DispatcherThread {
  /**
   * Starts the thread (and forwards the in-process wake-ups to it). Idempotent. Resolves when the first thread's
   * dispatchers have started (its modules loaded, its database handle made), or when that thread ended before
   * (then the restart follows): src/server.ts waits for it before listening, so that a server that answers also
   * delivers — without it the first seconds' deliveries wait for the thread's start-up (bench/README.md#issue-40-write-load).
   * Never rejects.
   */
  start(): Promise<void>;
  /**
   * Drains and ends the thread: the deliveries under way finish (each bounded by its timeout). Resolves when
   * the thread has ended; no restart follows. Idempotent.
   */
  stop(): Promise<void>;
  /**
   * Throws an uncaught error in the thread: the crash drill of test/jobs/dispatcher-thread.test.ts (the thread
   * dies as on any unexpected error, and is restarted).
   */
  crash(): void;
  /** Threads started so far (1 after `start()`, one more for each restart). */
  readonly starts: number;
}

/** First wait before a dead thread is started again; doubled per death in a row, at most {@link MAX_RESTART_DELAY_MS}. */
export const RESTART_DELAY_MS = 1000;
/** Longest wait before a dead thread is started again. */
export const MAX_RESTART_DELAY_MS = 30_000;
/** A thread that ran this long before it died counts as the first death in a row again. */
const HEALTHY_RUN_MS = 60_000;

/** Milliseconds before the restart after `deaths` deaths in a row (1 s, 2 s, 4 s, … at most 30 s). */
export function restartDelayMs(deaths: number): number {
  return Math.min(MAX_RESTART_DELAY_MS, RESTART_DELAY_MS * 2 ** Math.max(0, deaths - 1));
}

/** The part of the configuration the thread gets: only these properties are copied to it. */
function threadConfig(c: DispatcherThreadConfig): DispatcherThreadConfig {
  const { database, dispatcher, webhooks, webhookAllowPrivate, smtpUrl, mailFrom, pushWebhookUrl, dataDir } = c;
  return { database, dispatcher, webhooks, webhookAllowPrivate, smtpUrl, mailFrom, pushWebhookUrl, dataDir };
}

/** tsx's ESM API as the thread imports it, or `undefined` when this module is compiled JavaScript. */
function tsxApiUrl(): string | undefined {
  if (!import.meta.url.endsWith('.ts')) return undefined;
  const meta = import.meta as ImportMeta & { resolve?: (s: string) => string };
  return typeof meta.resolve === 'function'
    ? meta.resolve('tsx/esm/api')
    : pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href;
}

/**
 * The thread's first script (CommonJS, evaluated): registers tsx when asked (running from the TypeScript
 * sources, as bin/bizapi does), then imports this module, which runs {@link runThread}.
 */
const BOOT = `const { workerData } = require('node:worker_threads');
(async () => {
  if (workerData.tsx) (await import(workerData.tsx)).register();
  await import(workerData.entry);
})();`;

/**
 * Creates the server's dispatcher thread (see the module comment); nothing runs until `start()`.
 */
export function createDispatcherThread(options: DispatcherThreadOptions): DispatcherThread {
  const supervisorLog = options.log('dispatcher-thread');
  const loggers = new Map<string, DispatcherLogger>();
  const loggerOf = (component: string) => {
    let l = loggers.get(component);
    if (l === undefined) loggers.set(component, (l = options.log(component)));
    return l;
  };
  const tsx = tsxApiUrl();
  let worker: Worker | undefined;
  let starts = 0;
  let deaths = 0;
  let startedAt = 0;
  let restartTimer: NodeJS.Timeout | undefined;
  let stopping: Promise<void> | undefined;
  let unsubscribe: (() => void) | undefined;
  let firstStarted: Promise<void> | undefined;
  let markStarted: (() => void) | undefined;

  /** Businesses whose writes answered in this turn of the event loop, posted together at its end. */
  const written = new Set<number>();
  let posting = false;
  const post = (message: ToThread) => worker?.postMessage(message);
  const flushWritten = () => {
    posting = false;
    if (written.size === 0) return;
    post({ type: 'written', businessIds: [...written] });
    written.clear();
  };

  function spawn(): void {
    starts += 1;
    startedAt = Date.now();
    const data: ThreadData & { tsx: string | undefined; entry: string } = {
      role: ROLE,
      config: threadConfig(options.config),
      masterKey: new Uint8Array(options.masterKey),
      tsx,
      entry: import.meta.url,
    };
    const w = new Worker(BOOT, { eval: true, workerData: data, name: 'bizapi dispatchers' });
    worker = w;
    w.on('message', (m: FromThread) => {
      if (m.type === 'log') loggerOf(m.component)[m.level](m.obj, m.msg);
      else if (m.type === 'started') markStarted?.();
      else if (m.type === 'attempt') reportDeliveryAttempt(m.outcome, m.seconds);
    });
    w.on('error', (err) =>
      supervisorLog.error({ error: errorText(err), threadId: w.threadId }, 'dispatcher thread crashed'),
    );
    w.on('exit', (code) => {
      if (worker === w) worker = undefined;
      markStarted?.();
      if (stopping !== undefined) return;
      deaths = Date.now() - startedAt >= HEALTHY_RUN_MS ? 1 : deaths + 1;
      const retryInMs = restartDelayMs(deaths);
      supervisorLog.error({ exitCode: code, retryInMs }, 'dispatcher thread ended unexpectedly; restarting it');
      restartTimer = setTimeout(() => {
        restartTimer = undefined;
        if (stopping === undefined) spawn();
      }, retryInMs);
    });
  }

  return {
    get starts() {
      return starts;
    },
    start() {
      if (firstStarted !== undefined) return firstStarted;
      firstStarted = new Promise<void>((resolve) => {
        markStarted = () => {
          markStarted = undefined;
          resolve();
        };
      });
      if (stopping !== undefined) {
        markStarted?.();
        return firstStarted;
      }
      unsubscribe = onEventsWritten((businessId) => {
        written.add(businessId);
        if (posting) return;
        posting = true;
        setImmediate(flushWritten);
      });
      spawn();
      return firstStarted;
    },
    crash() {
      post({ type: 'crash' });
    },
    stop() {
      stopping ??= (async () => {
        unsubscribe?.();
        clearTimeout(restartTimer);
        const w = worker;
        if (w === undefined) return;
        await new Promise<void>((resolve) => {
          w.once('exit', () => resolve());
          w.on('message', (m: FromThread) => {
            if (m.type === 'stopped') void w.terminate();
          });
          w.postMessage({ type: 'stop' } satisfies ToThread);
        });
      })();
      return stopping;
    },
  };
}

/**
 * In the thread: runs both dispatchers until the main thread says `stop` (see the module comment). Synchronous:
 * the main thread's messages are handled from the next turn of the event loop on, after the dispatchers exist.
 */
function runThread(data: ThreadData, port: NonNullable<typeof parentPort>): void {
  const send = (m: FromThread) => port.postMessage(m);
  const log = (component: string): DispatcherLogger => {
    const line = (level: LogLevel) => (obj: object, msg?: string) => send({ type: 'log', level, component, obj, msg });
    return { info: line('info'), warn: line('warn'), error: line('error') };
  };
  onDeliveryAttempt((outcome, seconds) => send({ type: 'attempt', outcome, seconds }));
  const { config } = data;
  const db = createDb(config.database, { poolMax: THREAD_POOL_MAX });
  const outbox = createOutboxDispatcher({ db, config, log: log('outbox-dispatcher') });
  const webhooks = createWebhookDispatcher({
    db,
    masterKey: Buffer.from(data.masterKey),
    config,
    log: log('webhook-dispatcher'),
  });
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      try {
        await Promise.all([outbox.stop(), webhooks.stop()]);
      } catch (err) {
        log('dispatcher-thread').error(
          { error: errorText(err) },
          'error while draining the notification and webhook dispatchers',
        );
      }
      await db.destroy().catch(() => undefined);
      send({ type: 'stopped' });
    })());
  port.on('message', (m: ToThread) => {
    if (m.type === 'written') for (const id of m.businessIds) signalEventsWritten(id);
    else if (m.type === 'stop') void stop();
    else if (m.type === 'crash')
      setImmediate(() => {
        throw new Error('dispatcher thread crash drill');
      });
  });
  outbox.start();
  webhooks.start();
  send({ type: 'started' });
}

if (!isMainThread && parentPort !== null && (workerData as Partial<ThreadData> | undefined)?.role === ROLE) {
  runThread(workerData as ThreadData, parentPort);
}
