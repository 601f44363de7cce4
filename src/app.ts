/**
 * `buildApp(config, deps)`: the Fastify application. Infrastructure first, then the `/v1` modules, in this
 * order:
 *
 * 1. Fastify itself: request ids (`X-Request-Id`), trailing-slash tolerance, body limit, Ajv per HTTP part;
 *    the attachment storage (`plugins/storage.ts`: `app.storage`, `request.fileContext`).
 * 2. error-handler: every error rendered in DRF's shape; 404 and 405 for unknown routes and methods.
 * 3. body parsers: JSON (Fastify's, prototype-poisoning safe), urlencoded and multipart forms; nothing else. Zero
 *    bytes under any of them are no body (`{}`).
 * 4. openapi: `/openapi.json` and `/docs` (no key needed); the local storage's signed `/files` URLs.
 * 5. metrics (`/metrics`, and the request counters of every route) and the probes `/healthz`, `/readyz`.
 * 6. `/v1` scope: load shedding (503 under pressure), authenticate (key, signature v1/v2, plan gate), rate
 *    limit per key, the API call log recorder, `Idempotency-Key` claims and replays, then one plugin per
 *    resource. Hooks registered here apply to every
 *    module registered after them.
 *
 * The API call log's batch writer and the retention job belong to the application: `app.close()` stops
 * them, after the in-flight requests have finished, and writes the last log rows.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { type Config, sessionUrlOf } from './config.ts';
import type { Db } from './db/database.ts';
import authenticate from './plugins/authenticate.ts';
import errorHandler from './plugins/error-handler.ts';
import handlerTimeout from './plugins/handler-timeout.ts';
import openapi from './plugins/openapi.ts';
import health from './plugins/health.ts';
import remoteMcp from './plugins/remote-mcp.ts';
import { packageVersion } from './shared/package-version.ts';
import loadShedding from './plugins/load-shedding.ts';
import metrics from './plugins/metrics.ts';
import rateLimit from './plugins/rate-limit.ts';
import requestLog from './plugins/request-log.ts';
import {
  createEventNotifier,
  EVENT_CHANNEL,
  onEventsWritten,
  signalEventsWritten,
} from './modules/webhook/webhook-delivery.service.ts';
import { createFeedFollowers } from './modules/event/event.followers.ts';
import { type EventWriteTrace, traceEventWrites } from './modules/event/event.service.ts';
import idempotency from './plugins/idempotency.ts';
import requestGuards from './plugins/request-guards.ts';
import storagePlugin from './plugins/storage.ts';
import { type LogDestination, loggerOptions } from './plugins/log-redaction.ts';
import { LogWriter } from './jobs/log-writer.ts';
import { startRetention } from './jobs/retention.ts';
import logRoutes from './modules/log/log.routes.ts';
import { outboxBacklog } from './modules/notification/notification.service.ts';
import catalogRoutes from './modules/catalog/catalog.routes.ts';
import clientRoutes from './modules/client/client.routes.ts';
import contractRoutes from './modules/contract/contract.routes.ts';
import settlementRoutes from './modules/settlement/settlement.routes.ts';
import { contractNoteRoutes, settlementNoteRoutes } from './modules/note/note.routes.ts';
import projectRoutes from './modules/project/project.routes.ts';
import todoRoutes from './modules/todo/todo.routes.ts';
import workerRoutes from './modules/worker/worker.routes.ts';
import estimateRoutes from './modules/estimate/estimate.routes.ts';
import eventRoutes from './modules/event/event.routes.ts';
import webhookRoutes from './modules/webhook/webhook.routes.ts';
import notificationRoutes from './modules/notification/notification.routes.ts';
import inquiryRoutes from './modules/inquiry/inquiry.routes.ts';
import inquiryHistoryRoutes from './modules/inquiry/inquiry-history.routes.ts';
import fileRoutes from './modules/file/file.routes.ts';
import { LocalStorage } from './modules/file/local-storage.ts';
import { createStorage } from './modules/file/create-storage.ts';
import type { Storage } from './modules/file/storage.ts';
import storageRoutes from './modules/file/storage.routes.ts';
import { services } from './services.ts';
import { CursorCodec } from './shared/pagination.ts';
import { parseMultipart, parseUrlEncoded } from './shared/form-body.ts';
import { decodeUtf8Body, jsonDeeperThan, MAX_JSON_DEPTH } from './shared/utf8.ts';
import { ParseError } from './shared/errors.ts';
import { LOG_FORMAT } from './shared/log-format.ts';
import { compileValidator, type HttpPart } from './shared/validation-errors.ts';
import { type Clock, systemClock } from './shared/time.ts';

/** Largest accepted request body: 1 MiB (files travel through pre-signed uploads, not bodies). */
export const BODY_LIMIT = 1024 * 1024;

/** What the application needs besides configuration. */
export interface AppDeps {
  db: Db;
  masterKey: Buffer;
  /** Attachment storage; default: the one the configuration names (`createStorage`). */
  storage?: Storage;
  /** Where "now" comes from for todo `dDay` and completion times; the system clock unless a test sets one. */
  clock?: Clock;
  /** Where the server log goes (default stdout); tests pass a stream to read it. */
  logStream?: LogDestination;
  /**
   * `false`: the API call log records nothing (default `true`). For `bizapi export`, whose in-process reads
   * leave no trace in the business (docs/deployment.md#export-to-a-file-import-from-a-file).
   */
  recordCalls?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The database handle every service call receives. */
    db: Db;
    /** Issues and reads the opaque page cursors. */
    cursors: CursorCodec;
    /** "Now", as {@link AppDeps.clock} says. */
    clock: Clock;
    /** The API call log's batch writer (`flush()` writes the buffered rows now). */
    logWriter: LogWriter;
  }
  interface FastifyRequest {
    /**
     * What a write request's event writes left for the webhook dispatchers (event.service
     * {@link EventWriteTrace}; docs/webhooks.md#live-delivery), set for every request under `/v1` that is not a
     * GET or HEAD; `null` otherwise.
     */
    eventWrites: EventWriteTrace | null;
  }
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Uses a sane incoming `X-Request-Id`, else a new UUID (docs/api.md#responses-and-status-codes). */
function requestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Paths whose requests are logged at `debug` only: the probes of load balancers and Prometheus. */
const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Fastify's request log lines, one per request (docs/deployment.md#logs): no "incoming request" line, and
 * "request completed" with the method, URL (credentials redacted), status and `responseTime` in
 * milliseconds, at `info`, or at `debug` for the probes (`/healthz`, `/readyz`, `/metrics`, polled every few
 * seconds), so they do not flood the log. A request that failed keeps Fastify's "request errored" line.
 */
class RequestLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
    metadata?: Record<string, unknown>,
  ): void {
    if (error) return super.requestCompleted(error, request, reply, metadata);
    const fields = { req: request, res: reply, responseTime: Math.round(reply.elapsedTime * 10) / 10 };
    if (PROBE_PATHS.has(request.url.split('?', 1)[0]!)) reply.log.debug(fields, 'request completed');
    else reply.log.info(fields, 'request completed');
  }
}

/**
 * Builds the application. It does not listen and does not own `deps.db` (the caller destroys it).
 */
export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { ...LOG_FORMAT, ...loggerOptions(config.logLevel, deps.logStream) },
    genReqId: requestId,
    requestIdHeader: false,
    // One line per request (Fastify's own are two per request), probes at debug: RequestLogController.
    logController: new RequestLogController(),
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: BODY_LIMIT,
    // Fastify accepts a hop count at run time; its types list only boolean, string and function.
    trustProxy: config.trustProxy as boolean | string,
    // Timeouts: receiving a request (the 503 for producing its response is plugins/handler-timeout.ts), idle
    // keep-alive connections, and sockets silent for longer than both together.
    requestTimeout: config.requestTimeout,
    keepAliveTimeout: config.keepAliveTimeout,
    connectionTimeout: config.requestTimeout + config.keepAliveTimeout,
    // While shutting down, requests arriving on open connections are still served (with `Connection:
    // close`); `/readyz` answers 503 so the load balancer stops sending new ones.
    return503OnClosing: false,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(({ schema, httpPart }) => compileValidator(schema, httpPart as HttpPart | undefined));
  app.decorate('db', deps.db);
  app.decorate('cursors', new CursorCodec(deps.masterKey));
  const storage = deps.storage ?? (await createStorage(config, deps.masterKey));
  await app.register(storagePlugin, { storage, files: config.files });
  app.decorate('clock', deps.clock ?? systemClock);
  const logWriter = new LogWriter(deps.db, { logger: app.log }).start();
  app.decorate('logWriter', logWriter);
  const retention = startRetention(deps.db, { logger: app.log, eventRetentionDays: config.eventRetentionDays });
  app.addHook('onClose', async () => {
    await retention.stop();
    await logWriter.close();
  });
  // The hooks every request runs are callback-style where they do not wait: no promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });
  await app.register(handlerTimeout, { timeoutMs: config.requestTimeout });

  // Graceful shutdown (`app.close()`): `/readyz` turns 503 at once; the listening socket closes after
  // BIZAPI_SHUTDOWN_DELAY (requests are still served meanwhile, so load balancers can stop routing first);
  // from then on every response closes its connection, so in-flight keep-alive connections end with it.
  let draining = false;
  // the feed's live followers (docs/api.md#following-the-feed-live): answered (long-polls) and ended (streams)
  // at once when the shutdown begins, before the listening socket closes
  const followers = createFeedFollowers({
    db: deps.db,
    sessionUrl: config.database.dialect === 'postgres' ? sessionUrlOf(config.database) : undefined,
    channel: EVENT_CHANNEL,
    onWritten: onEventsWritten,
    maxPerBusiness: config.eventFollowers.maxPerBusiness,
    heartbeatMs: config.eventFollowers.heartbeatMs,
    warn: (fields, message) => app.log.warn(fields, message),
  });
  app.addHook('preClose', async () => {
    draining = true;
    await followers.close();
    if (config.shutdownDelay > 0) await new Promise((resolve) => setTimeout(resolve, config.shutdownDelay));
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('Connection', 'close');
    done(null, payload);
  });

  await app.register(errorHandler);
  await app.register(requestGuards, { publicUrl: config.publicUrl });

  // An empty body is no body, whatever its Content-Type says (docs/api.md#requests): zero
  // bytes under any of the three encodings read as `{}`, as DRF reads them. Clients of the reference service
  // send `Content-Type: application/json` on every request, DELETEs and body-less POSTs included.
  app.removeContentTypeParser('text/plain');
  // JSON: strict UTF-8 (invalid bytes are a 400, not U+FFFD) and a nesting depth checked by a scan of the
  // text before it is parsed; then Fastify's own parser (prototype-poisoning safe). docs/api.md#limits.
  const jsonParser = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    if ((body as Buffer).length === 0) {
      done(null, {});
      return;
    }
    let text: string;
    try {
      text = decodeUtf8Body(body as Buffer, 'JSON parse error');
      if (jsonDeeperThan(text))
        throw new ParseError(
          `JSON parse error - The body nests lists and objects deeper than ${MAX_JSON_DEPTH} levels.`,
        );
    } catch (err) {
      done(err as Error, undefined);
      return;
    }
    jsonParser(req, text, done);
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (_req, body, done) => {
    try {
      done(null, parseUrlEncoded(decodeUtf8Body(body as Buffer, 'Form parse error')));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (req, body, done) => {
    if ((body as Buffer).length === 0) {
      done(null, {});
      return;
    }
    try {
      decodeUtf8Body(body as Buffer, 'Multipart form parse error');
    } catch (err) {
      done(err as Error, undefined);
      return;
    }
    parseMultipart(body as Buffer, String(req.headers['content-type'])).then(
      (parsed) => done(null, parsed),
      (err: Error) => done(err, undefined),
    );
  });

  // A request without any body (no Content-Type, zero bytes) to an operation that takes one validates as `{}`
  // too, so `POST /v1/inquiry` with nothing creates an inquiry with the defaults (docs/api.md#requests).
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.body === undefined && request.routeOptions.schema?.body !== undefined) request.body = {};
    done();
  });

  await app.register(openapi);
  await app.register(metrics, {
    db: deps.db,
    logWriter,
    token: config.metricsToken,
    outboxBacklog: () => outboxBacklog(deps.db),
  });
  await app.register(health, { db: deps.db, masterKey: deps.masterKey, isDraining: () => draining });
  // Remote MCP (docs/mcp.md#remote-mcp): /mcp, authenticated by MCP tokens; its tool calls are in-process /v1 calls.
  await app.register(remoteMcp, { db: deps.db, publicUrl: config.publicUrl, version: packageVersion() });

  // The local storage's signed upload and download URLs (outside /v1: the URL is the credential).
  if (storage instanceof LocalStorage) await app.register(storageRoutes, { storage, files: config.files });

  await app.register(
    async (v1) => {
      await v1.register(loadShedding, { maxEventLoopDelay: config.maxEventLoopDelay });
      await v1.register(authenticate, {
        db: deps.db,
        masterKey: deps.masterKey,
        signatureMode: config.signatureMode,
        bodyLimit: BODY_LIMIT,
        redisUrl: config.redisUrl,
        keyChangesUrl: config.database.dialect === 'postgres' ? sessionUrlOf(config.database) : undefined,
      });
      await v1.register(rateLimit, {
        max: config.rateLimit,
        windowMs: 60_000,
        store: config.rateLimitStore,
        db: deps.db,
        redisUrl: config.redisUrl,
      });
      if (deps.recordCalls !== false) await v1.register(requestLog, { writer: logWriter });
      await v1.register(idempotency, {
        db: deps.db,
        masterKey: deps.masterKey,
        lockTimeoutMs: config.idempotencyLockTimeout,
      });
      // docs/webhooks.md#live-delivery: a write that has answered (so committed) wakes this process's webhook
      // dispatchers at once, and on PostgreSQL every other process's by NOTIFY, instead of at their next poll
      // — unless it wrote events, all of them written published, no delivery, and no live follower listens
      // (PostgreSQL: no active endpoint of the business wants them, docs/webhooks.md#fan-out, and nobody follows
      // its feed, docs/api.md#following-the-feed-live): nothing waits for a wake-up then
      const notifyOthers = createEventNotifier(deps.db);
      // the request's event writes, kept on the request (as the call log keeps its state) rather than in a weak map
      v1.decorateRequest('eventWrites', null);
      v1.addHook('preHandler', (request, _reply, done) => {
        if (request.method === 'GET' || request.method === 'HEAD') return done();
        request.eventWrites = { wrote: false, unpublished: false, delivered: false, followed: false };
        traceEventWrites(request.eventWrites, done);
      });
      v1.addHook('onResponse', async (request, reply) => {
        if (!request.auth || reply.statusCode >= 400 || request.method === 'GET' || request.method === 'HEAD') return;
        const trace = request.eventWrites;
        if (trace?.wrote === true && !trace.unpublished && !trace.delivered && !trace.followed) return;
        signalEventsWritten(request.auth.businessId);
        notifyOthers(request.auth.businessId);
      });
      // The modules' routes, with the services the composition root built (src/services.ts).
      await v1.register(clientRoutes, { service: services.client });
      await v1.register(catalogRoutes);
      await v1.register(logRoutes);
      await v1.register(contractRoutes, { service: services.contract });
      await v1.register(contractNoteRoutes, { parentExists: services.contract.exists });
      await v1.register(settlementRoutes);
      await v1.register(settlementNoteRoutes, { parentExists: services.settlement.exists });
      await v1.register(projectRoutes);
      await v1.register(workerRoutes);
      await v1.register(notificationRoutes);
      await v1.register(todoRoutes);
      await v1.register(inquiryRoutes, { service: services.inquiry });
      await v1.register(inquiryHistoryRoutes);
      await v1.register(fileRoutes, { destroyInquiryFile: services.inquiry.destroyFile });
      await v1.register(estimateRoutes);
      await v1.register(eventRoutes, { followers });
      await v1.register(webhookRoutes, {
        masterKey: deps.masterKey,
        allowPrivate: config.webhookAllowPrivate,
        maxEndpoints: config.webhooks.maxEndpoints,
      });
      // Unknown paths and methods under /v1 pass through the hooks above: with a valid key the call is
      // counted, carries the rate-limit headers and is logged; the answer stays 404 / 405.
      v1.setNotFoundHandler(v1.answerNotFound);
    },
    { prefix: '/v1' },
  );

  return app;
}
