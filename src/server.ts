/**
 * The server process: open the database, migrate, optionally create the demo business, build the app,
 * listen, and close gracefully on SIGINT / SIGTERM. Started by `bizapi serve` (and `npm start`).
 *
 * Graceful shutdown, in order: `/readyz` turns 503 and the listening socket closes (no new connections),
 * idle keep-alive connections close, requests in flight (and requests already arriving on open
 * connections) are answered, each with `Connection: close`; then the application's close hooks stop the
 * retention job and write the buffered API call log rows; then the notification and webhook dispatchers,
 * when they run in-process (in their thread, src/jobs/dispatcher-thread.ts), drain (the deliveries under way
 * finish, rows claimed while stopping are released) and their thread ends; last the
 * database pool closes. If all this takes longer than `BIZAPI_SHUTDOWN_TIMEOUT` the process exits with
 * status 1.
 */
import type { AddressInfo } from 'node:net';
import type { Config } from './config.ts';
import { createDb } from './db/create-db.ts';
import { migrateToLatest } from './db/migrator.ts';
import { existsAnyBusiness } from './modules/auth/auth.repository.ts';
import { masterKeyForDatabase } from './modules/auth/auth.service.ts';
import { createStorage } from './modules/file/create-storage.ts';
import { createOutboxDispatcher } from './jobs/outbox-dispatcher.ts';
import { createWebhookDispatcher } from './jobs/webhook-dispatcher.ts';
import { createDispatcherThread } from './jobs/dispatcher-thread.ts';

/** Options of {@link startServer}. */
export interface ServerOptions {
  /** Create the demo business (and print its credentials on stdout) when the database has no business. */
  demo: boolean;
  /** Apply the migrations first (default true; the workers of `serve --workers` leave it to the primary). */
  migrate?: boolean;
  /**
   * Print `bizapi listening on …` and `bizapi stopped` (default true). False in a worker of
   * `serve --workers` (src/cluster.ts): the primary prints them once, and the worker exits when drained.
   */
  announce?: boolean;
}

/**
 * Opens the database, applies the migrations, checks the master key and, with `options.demo`, creates the
 * demo business (printing its credentials on stdout) when the database has none; closes the database. The
 * primary of `serve --workers` calls it once before forking (src/cluster.ts).
 * @throws the first start-up error (database unreachable, a migration failing, a master key that cannot
 *   decrypt the stored secrets)
 */
export async function prepareDatabase(config: Config, options: { demo: boolean }): Promise<void> {
  const db = createDb(config.database);
  try {
    await prepare(db, config, { migrate: true, demo: options.demo });
  } finally {
    await db.destroy();
  }
}

/**
 * The migrations (unless `migrate` is false), the master key, then the demo business when asked and the
 * database has no business. Refuses a master key that cannot decrypt the stored secrets (every call would
 * fail); a key file is generated only for a database without secrets (docs/deployment.md#9-key-rotation).
 * @returns the master key
 * @throws Error naming `BIZAPI_MASTER_KEY` and the key file when the key does not fit the database
 */
async function prepare(
  db: ReturnType<typeof createDb>,
  config: Config,
  options: { migrate: boolean; demo: boolean },
): Promise<Buffer> {
  if (options.migrate) await migrateToLatest(db);
  const masterKey = await masterKeyForDatabase(db, config);
  if (options.migrate && options.demo && !(await existsAnyBusiness(db))) {
    const { createDemo } = await import('./demo/demo.ts');
    const demo = await createDemo(db, masterKey, {
      storage: await createStorage(config, masterKey),
      deliver: config,
      warn: (m) => process.stderr.write(`${m}\n`),
    });
    // The credentials are the command's output (stdout); diagnostics stay on stderr.
    process.stdout.write(
      [
        '',
        `Created the demo business "${demo.business.name}" (id ${demo.business.id}) with demo data.`,
        'Its credentials are shown only this once:',
        `  export BIZAPI_API_KEY=${demo.apiKey}`,
        `  export BIZAPI_SECRET_KEY=${demo.secretKey}`,
        // The address `bin/bizapi request`, `bin/bizapi mcp` and the examples read (unknown yet with port 0).
        ...(config.port === 0 ? [] : [`  export BIZAPI_URL=${reachableUrl(config)}`]),
        '',
        '',
      ].join('\n'),
    );
  } else if (options.migrate && options.demo) {
    // A restart: the demo credentials were printed once, on the first start, and are not stored.
    const id = (await firstBusinessId(db)) ?? 1;
    process.stderr.write(
      [
        '',
        'The database already holds a business, so no demo business was created. Its credentials were printed',
        'only once, on the first start (keys are stored hashed and cannot be shown again). To get a key:',
        `  bin/bizapi key create --business ${id}`,
        'then export BIZAPI_API_KEY and BIZAPI_SECRET_KEY as that command prints them.',
        '',
        '',
      ].join('\n'),
    );
  }
  return masterKey;
}

/** `http://HOST:PORT` of this server as a client on this machine reaches it (a wildcard host becomes loopback). */
function reachableUrl(config: Pick<Config, 'host' | 'port'>): string {
  let host = config.host;
  if (host === '0.0.0.0' || host === '') host = '127.0.0.1';
  else if (host === '::' || host === '[::]') host = '::1';
  if (host.includes(':') && !host.startsWith('[')) host = `[${host}]`;
  return `http://${host}:${config.port}`;
}

/** The business with the lowest id, for the restart hint; `undefined` in an empty database. */
async function firstBusinessId(db: ReturnType<typeof createDb>): Promise<number | undefined> {
  const row = await db.selectFrom('business').select('id').orderBy('id').limit(1).executeTakeFirst();
  return row === undefined ? undefined : Number(row.id);
}

/**
 * The message of a listen error: a busy port or a forbidden address says what to do (README "Quick start");
 * anything else keeps its own message.
 */
export function listenErrorMessage(err: NodeJS.ErrnoException, host: string, port: number): string {
  if (err.code === 'EADDRINUSE')
    return `port ${port} is in use; pass --port or set PORT (host ${host}; is another bizapi running?).`;
  if (err.code === 'EACCES')
    return `cannot listen on ${host}:${port} (permission denied); pass --port with a port above 1023 or set PORT.`;
  if (err.code === 'EADDRNOTAVAIL')
    return `cannot listen on ${host}: no such address on this machine; pass --host or set HOST.`;
  return err.message;
}

/** A listen failure with a readable message ({@link listenErrorMessage}). */
export class ListenError extends Error {}

/**
 * Runs the HTTP server until SIGINT or SIGTERM, then stops accepting connections, lets in-flight requests
 * finish and closes the database.
 * @throws the first startup error (database unreachable, port in use, …)
 */
export async function startServer(config: Config, options: ServerOptions): Promise<void> {
  const db = createDb(config.database);
  let masterKey: Buffer;
  try {
    masterKey = await prepare(db, config, { migrate: options.migrate !== false, demo: options.demo });
  } catch (err) {
    await db.destroy();
    throw err;
  }

  // The application (Fastify, the routes, their schemas) is loaded here, not at import: the primary of
  // `serve --workers` imports this module for prepareDatabase only, and stays small (bench/memory.ts).
  const { buildApp } = await import('./app.ts');
  const app = await buildApp(config, { db, masterKey });
  // Notifications are delivered after commit by the outbox dispatcher, webhooks (docs/webhooks.md#delivery) by
  // the webhook dispatcher: here (BIZAPI_DISPATCHER=in-process) or in a `bizapi worker` (off). Here they run in a
  // thread of their own with their own database handle (src/jobs/dispatcher-thread.ts), off the API's event
  // loop; on SQLite `:memory:`, which a second connection cannot open, on this thread. stop() drains either.
  const inProcess = config.dispatcher.mode === 'in-process';
  const onMainThread = inProcess && config.database.dialect === 'sqlite' && config.database.path === ':memory:';
  const thread =
    inProcess && !onMainThread
      ? createDispatcherThread({ config, masterKey, log: (component) => app.log.child({ component }) })
      : undefined;
  const dispatcher = onMainThread
    ? createOutboxDispatcher({ db, config, log: app.log.child({ component: 'outbox-dispatcher' }) })
    : undefined;
  const webhooks = onMainThread
    ? createWebhookDispatcher({ db, masterKey, config, log: app.log.child({ component: 'webhook-dispatcher' }) })
    : undefined;
  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => {
      process.stderr.write(`bizapi: graceful shutdown took longer than ${config.shutdownTimeout} ms, exiting\n`);
      process.exit(1);
    }, config.shutdownTimeout);
    deadline.unref();
    try {
      await app.close();
    } catch (err) {
      app.log.error({ err }, 'error while closing the application');
      process.exitCode = 1;
    }
    try {
      await Promise.all([dispatcher?.stop(), webhooks?.stop(), thread?.stop()]);
    } catch (err) {
      app.log.error({ err }, 'error while draining the notification and webhook dispatchers');
      process.exitCode = 1;
    }
    await db.destroy();
    clearTimeout(deadline);
    if (options.announce === false) process.exit(process.exitCode ?? 0); // a cluster worker: its IPC channel would keep it alive
    process.stderr.write('bizapi stopped\n');
  };
  process.once('SIGINT', () => void close('SIGINT'));
  process.once('SIGTERM', () => void close('SIGTERM'));
  // The server listens once the dispatchers' thread has loaded its modules and started them, so that a server that
  // answers also delivers (without this wait the first writes' deliveries waited for the thread's start-up).
  await thread?.start();
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (err) {
    await thread?.stop().catch(() => undefined);
    await app.close().catch(() => undefined);
    await db.destroy().catch(() => undefined);
    throw new ListenError(listenErrorMessage(err as NodeJS.ErrnoException, config.host, config.port));
  }
  dispatcher?.start();
  webhooks?.start();
  // The port actually bound (PORT=0 picks a free one).
  const { port } = app.server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  if (options.announce !== false) process.stderr.write(`bizapi listening on http://${host}:${port} (docs: /docs)\n`);
}
