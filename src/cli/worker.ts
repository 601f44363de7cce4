/**
 * `bizapi worker` (docs/deployment.md#6-the-notification-worker): runs the notification outbox dispatcher and
 * the webhook dispatcher (docs/webhooks.md#delivery) on its own, without the HTTP server, until SIGINT or
 * SIGTERM; then it drains (deliveries under way finish) and exits 0. Run it when the servers have
 * `BIZAPI_DISPATCHER=off`, as many as needed: workers and in-server dispatchers share the outbox safely.
 * Prints nothing on stdout; log lines (JSON) go to stderr.
 */
import type { Config } from '../config.ts';
import type { DispatcherLogger } from '../jobs/dispatch-loop.ts';
import { formatLogLine, LOG_LEVELS } from '../shared/log-format.ts';
import { type CliContext, cliMasterKey, withDb } from './context.ts';

/** A JSON-lines logger on stderr that honours `LOG_LEVEL`, in the server's format (shared/log-format.ts). */
export function stderrLogger(level: Config['logLevel']): DispatcherLogger {
  const threshold = LOG_LEVELS[level];
  const line = (lvl: 'info' | 'warn' | 'error', obj: object, msg?: string) => {
    if (LOG_LEVELS[lvl] < threshold) return;
    process.stderr.write(formatLogLine(lvl, obj, msg));
  };
  return {
    info: (obj, msg) => line('info', obj, msg),
    warn: (obj, msg) => line('warn', obj, msg),
    error: (obj, msg) => line('error', obj, msg),
  };
}

/** `worker`: migrates, then delivers the outbox and the webhooks (docs/webhooks.md#delivery) until SIGINT / SIGTERM. */
export async function worker(ctx: CliContext): Promise<void> {
  const config = ctx.config();
  const { createOutboxDispatcher } = await import('../jobs/outbox-dispatcher.ts');
  const { createWebhookDispatcher } = await import('../jobs/webhook-dispatcher.ts');
  await withDb(config, async (db) => {
    const log = stderrLogger(config.logLevel);
    const dispatcher = createOutboxDispatcher({ db, config, log });
    const webhooks = createWebhookDispatcher({ db, masterKey: await cliMasterKey(db, config), config, log });
    // the dispatcher's timers do not keep a process alive (the server's socket does that in `serve`)
    const keepAlive = setInterval(() => undefined, 1 << 30);
    const signal = new Promise<string>((resolve) => {
      process.once('SIGINT', () => resolve('SIGINT'));
      process.once('SIGTERM', () => resolve('SIGTERM'));
    });
    dispatcher.start();
    webhooks.start();
    log.info(
      {
        owner: dispatcher.owner,
        email: config.smtpUrl === undefined ? `.eml files in ${config.dataDir}/mail` : 'smtp',
        push: config.pushWebhookUrl === undefined ? 'off' : 'on',
      },
      'bizapi worker: delivering notifications and webhooks',
    );
    log.info({ signal: await signal }, 'bizapi worker: stopping');
    await Promise.all([dispatcher.stop(), webhooks.stop()]);
    clearInterval(keepAlive);
    log.info({}, 'bizapi worker: stopped');
  });
}
