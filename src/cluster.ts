/**
 * `bizapi serve --workers N` (and `BIZAPI_WORKERS`): N server processes on one port with `node:cluster`
 * (docs/deployment.md#several-processes-on-one-machine-bizapi-serve---workers).
 *
 * The primary process opens the database once, applies the migrations (and creates the demo business with
 * `--demo`), closes it, and forks N workers. Each worker runs {@link startServer} with its own database
 * pool and skips the migrations. The primary:
 * - shares the listening socket (Node's cluster hands connections to the workers round-robin);
 * - makes the rate limit shared when N > 1: with no `BIZAPI_RATE_LIMIT_STORE` set and no `REDIS_URL`, the
 *   workers use the `database` store (counters in `rate_limit_counter`), so a key's limit holds across them;
 * - runs the in-process notification dispatcher in the first worker only (claims are safe with several
 *   pollers anyway: `FOR UPDATE SKIP LOCKED` on PostgreSQL, `BEGIN IMMEDIATE` on SQLite; one poller is less
 *   load); every worker buffers and flushes its own call-log rows;
 * - restarts a worker that exits while the server is not stopping (after 1 s, so a worker that cannot start
 *   does not spin);
 * - on SIGINT / SIGTERM forwards SIGTERM to every worker, waits for them all (each drains as a single
 *   server does) and exits 0 when all stopped cleanly, else 1.
 */
import cluster, { type Worker } from 'node:cluster';
import os from 'node:os';
import type { Config } from './config.ts';
import { ConfigError } from './config.ts';

/** Environment variable a worker learns its role from (set by the primary; read as `config.cluster.workerIndex`). */
const WORKER_ROLE_ENV = 'BIZAPI_CLUSTER_WORKER';

/**
 * Parses a worker count: a positive integer (at most 256), or `auto` for the number of CPUs
 * (`os.availableParallelism()`). `undefined` or empty means 1.
 * @throws ConfigError for anything else
 */
export function parseWorkers(value: string | undefined, source = 'BIZAPI_WORKERS'): number {
  if (value === undefined || value.trim() === '') return 1;
  const v = value.trim().toLowerCase();
  if (v === 'auto') return os.availableParallelism();
  if (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 256) return Number(v);
  throw new ConfigError([`${source}: expected a whole number from 1 to 256, or "auto"; got ${JSON.stringify(value)}`]);
}

/**
 * V8 flags every worker starts with (docs/deployment.md#memory): a young generation of at most 2 × 4 MiB
 * (V8's default lets it grow to 2 × 16 MiB under load) and an old generation allowed to grow 30% past the
 * live data before the next full collection (by default V8 lets it double under allocation pressure and
 * rarely gives the pages back). A worker's live heap is ~33 MiB; measured with 2 workers after 30 s of
 * 32-connection GETs, RSS went from 155–159 MiB to 121–123 MiB per worker, with no throughput change beyond
 * the shared machine's noise (bench/results/memory-sqlite.md). The cost is more frequent collections.
 */
export const WORKER_V8_FLAGS: readonly string[] = ['--max-semi-space-size=4', '--heap-growing-percent=30'];

/**
 * The node arguments of a worker: `execArgv` (the primary's own) plus each of {@link WORKER_V8_FLAGS} whose
 * name appears neither there nor in `nodeOptions` (`NODE_OPTIONS`), so an operator's own setting wins.
 */
export function workerExecArgv(execArgv: readonly string[], nodeOptions = ''): string[] {
  const given = [...execArgv, ...nodeOptions.split(/\s+/)].map((a) => a.split('=', 1)[0]!.replace(/_/g, '-'));
  return [...execArgv, ...WORKER_V8_FLAGS.filter((f) => !given.includes(f.split('=', 1)[0]!))];
}

/** True in a process forked by {@link serveCluster} (its configuration has the index the primary gave it). */
export function isClusterWorker(config: Config): boolean {
  return cluster.isWorker && config.cluster.workerIndex !== undefined;
}

/** Options of {@link serveCluster}. */
export interface ClusterOptions {
  /** Create the demo business in the primary before forking. */
  demo: boolean;
  /** Number of worker processes (≥ 1). */
  workers: number;
}

/**
 * Runs `bizapi serve` as a primary with `options.workers` workers (see the module comment), or, in a worker
 * forked by it, as one server with no migration step.
 * @throws the primary's start-up error (database unreachable, a migration failing)
 */
export async function serveCluster(config: Config, options: ClusterOptions): Promise<void> {
  const { startServer, prepareDatabase } = await import('./server.ts');
  if (isClusterWorker(config)) {
    await startServer(config, { demo: false, migrate: false, announce: false });
    return;
  }
  await prepareDatabase(config, { demo: options.demo });

  const env: Record<string, string> = {};
  // Set in the process environment or in .env: either is the operator's choice, never overridden.
  const storeSet = config.rateLimitStoreSet;
  if (options.workers > 1 && !storeSet && config.rateLimitStore === 'memory') env.BIZAPI_RATE_LIMIT_STORE = 'database';
  if (options.workers > 1 && storeSet && config.rateLimitStore === 'memory') {
    process.stderr.write(
      `bizapi: BIZAPI_RATE_LIMIT_STORE=memory with ${options.workers} workers: each worker counts alone (up to ${options.workers}× the limit)\n`,
    );
  }

  let stopping = false;
  let failed = false;
  const live = new Set<Worker>();
  let announced = false;
  const listening = new Set<number>();
  cluster.setupPrimary({ execArgv: workerExecArgv(process.execArgv, config.cluster.nodeOptions) });
  const fork = (index: number): void => {
    const worker = cluster.fork({
      ...env,
      [WORKER_ROLE_ENV]: String(index),
      // One poller is enough: the first worker runs the dispatcher (when it runs in-process at all).
      ...(index === 0 ? {} : { BIZAPI_DISPATCHER: 'off' }),
    });
    live.add(worker);
    let serving = false;
    worker.on('listening', (address) => {
      serving = true;
      if (announced) process.stderr.write(`bizapi: worker ${index + 1} (pid ${worker.process.pid}) listening again\n`);
      listening.add(index);
      if (!announced && listening.size === options.workers) {
        announced = true;
        const host = config.host.includes(':') ? `[${config.host}]` : config.host;
        process.stderr.write(
          `bizapi listening on http://${host}:${address.port} (${options.workers} workers, docs: /docs)\n`,
        );
      }
    });
    worker.on('exit', (code, signal) => {
      live.delete(worker);
      if (stopping) {
        // A worker still starting when the signal came has nothing to drain: SIGTERM ends it at once.
        if (code !== 0 && !(signal === 'SIGTERM' && !serving)) {
          failed = true;
          process.stderr.write(
            `bizapi: worker ${index + 1} (pid ${worker.process.pid}) stopped with ${signal ?? `code ${code}`}\n`,
          );
        }
        if (live.size === 0) {
          process.stderr.write('bizapi stopped\n');
          process.exit(failed ? 1 : 0);
        }
        return;
      }
      process.stderr.write(
        `bizapi: worker ${index + 1} (pid ${worker.process.pid}) exited (${signal ?? `code ${code}`}); restarting it\n`,
      );
      setTimeout(() => {
        if (!stopping) fork(index);
      }, 1000).unref();
    });
  };

  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`bizapi: ${signal}, stopping ${live.size} workers\n`);
    if (live.size === 0) process.exit(0);
    for (const worker of live) worker.process.kill('SIGTERM');
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  for (let i = 0; i < options.workers; i++) fork(i);
}
