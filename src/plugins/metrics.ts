/**
 * Prometheus metrics at `GET /metrics` (extension), with prom-client on a registry of this application:
 *
 * - `bizapi_http_requests_total{method, route, status_code}` and `bizapi_http_request_duration_seconds`
 *   (histogram, same labels): every response, `route` being the route pattern (`/v1/client/:client_id`),
 *   `(unmatched)` for unknown paths, so the label set stays bounded;
 * - `bizapi_request_log_buffer_rows`, `bizapi_request_log_written_rows_total`,
 *   `bizapi_request_log_dropped_rows_total`: the API call log's batch writer;
 * - `bizapi_db_pool_connections{state="total"|"idle"}`, `bizapi_db_pool_waiting_queries`,
 *   `bizapi_db_pool_max_connections`: the database pool;
 * - `bizapi_outbox_backlog`: events waiting for delivery, when the application has an outbox;
 * - `bizapi_webhook_deliveries_total{outcome="succeeded"|"retried"|"failed"}` and
 *   `bizapi_webhook_delivery_duration_seconds` (histogram): the webhook attempts of the dispatchers of this
 *   process (docs/webhooks.md#delivery); `retried` counts a failed attempt followed by another;
 * - Node.js process metrics (`process_*`, `nodejs_*`: CPU, memory, event-loop lag, handles).
 *
 * `BIZAPI_METRICS_TOKEN` set: the scrape must send `Authorization: Bearer <token>` (401 otherwise). Unset:
 * open, like `/healthz` (expose the port only to the monitoring network then).
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import Type from 'typebox';
import { poolStats } from '../db/create-db.ts';
import type { Database } from '../db/database.ts';
import type { LogWriter } from '../jobs/log-writer.ts';
import { onDeliveryAttempt } from '../modules/webhook/webhook-delivery.service.ts';
import { NotAuthenticated } from '../shared/errors.ts';
import { ErrorDetail } from '../shared/schemas.ts';
import { METRICS_SCHEME } from './openapi.ts';

/** Options of the plugin. */
export interface MetricsOptions {
  db: Kysely<Database>;
  logWriter: LogWriter;
  /** Bearer token `GET /metrics` requires; `undefined` leaves it open. */
  token: string | undefined;
  /** Number of outbox events waiting for delivery, when the application has an outbox. */
  outboxBacklog?: () => Promise<number>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The Prometheus registry of this application (`GET /metrics` renders it). */
    metrics: Registry;
  }
}

const EXAMPLE = `# HELP bizapi_http_requests_total HTTP responses by route and status.
# TYPE bizapi_http_requests_total counter
bizapi_http_requests_total{method="GET",route="/v1/client",status_code="200"} 42
`;

/** Whether the `Authorization` header carries `Bearer <token>` (constant-time compare). */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer\s+(.+)$/i.exec(header?.trim() ?? '')?.[1] ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export default fp<MetricsOptions>(
  async function metrics(app: FastifyInstance, opts: MetricsOptions) {
    const register = new Registry();
    app.decorate('metrics', register);
    collectDefaultMetrics({ register });

    const labelNames = ['method', 'route', 'status_code'] as const;
    const requests = new Counter({
      name: 'bizapi_http_requests_total',
      help: 'HTTP responses by route and status.',
      labelNames,
      registers: [register],
    });
    const duration = new Histogram({
      name: 'bizapi_http_request_duration_seconds',
      help: 'Time from receiving a request to sending its response, in seconds.',
      labelNames,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [register],
    });
    // Callback-style (no promise per request).
    app.addHook('onResponse', (request, reply, done) => {
      const labels = {
        method: request.method,
        route: request.routeOptions.url ?? '(unmatched)',
        status_code: String(reply.statusCode),
      };
      requests.inc(labels);
      duration.observe(labels, reply.elapsedTime / 1000);
      done();
    });

    const writer = opts.logWriter;
    new Gauge({
      name: 'bizapi_request_log_buffer_rows',
      help: 'API call log rows waiting in memory to be written.',
      registers: [register],
      collect() {
        this.set(writer.size);
      },
    });
    new Counter({
      name: 'bizapi_request_log_written_rows_total',
      help: 'API call log rows written to the database.',
      registers: [register],
      collect() {
        this.reset();
        this.inc(writer.written);
      },
    });
    new Counter({
      name: 'bizapi_request_log_dropped_rows_total',
      help: 'API call log rows lost (buffer overflow, or a row the database refused twice).',
      registers: [register],
      collect() {
        this.reset();
        this.inc(writer.dropped);
      },
    });

    new Gauge({
      name: 'bizapi_db_pool_connections',
      help: 'Database connections of this process, by state.',
      labelNames: ['state'] as const,
      registers: [register],
      collect() {
        const stats = poolStats(opts.db);
        if (!stats) return;
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
      },
    });
    new Gauge({
      name: 'bizapi_db_pool_waiting_queries',
      help: 'Queries waiting for a free database connection.',
      registers: [register],
      collect() {
        this.set(poolStats(opts.db)?.waiting ?? 0);
      },
    });
    new Gauge({
      name: 'bizapi_db_pool_max_connections',
      help: 'Most database connections this process opens.',
      registers: [register],
      collect() {
        this.set(poolStats(opts.db)?.max ?? 0);
      },
    });

    const backlog = opts.outboxBacklog;
    if (backlog) {
      new Gauge({
        name: 'bizapi_outbox_backlog',
        help: 'Outbox events (notifications) waiting for delivery.',
        registers: [register],
        async collect() {
          this.set(await backlog());
        },
      });
    }

    const webhookAttempts = new Counter({
      name: 'bizapi_webhook_deliveries_total',
      help: 'Webhook delivery attempts by outcome: succeeded, retried (another attempt follows), failed (given up).',
      labelNames: ['outcome'] as const,
      registers: [register],
    });
    const webhookDuration = new Histogram({
      name: 'bizapi_webhook_delivery_duration_seconds',
      help: 'Time of one webhook delivery request, from connecting to the end of the answer, in seconds.',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [register],
    });
    for (const outcome of ['succeeded', 'retried', 'failed']) webhookAttempts.inc({ outcome }, 0);
    const unsubscribe = onDeliveryAttempt((outcome, seconds) => {
      webhookAttempts.inc({ outcome });
      if (seconds !== undefined) webhookDuration.observe(seconds);
    });
    app.addHook('onClose', async () => {
      unsubscribe();
    });

    app.get(
      '/metrics',
      {
        schema: {
          tags: ['operations'],
          security: [{}, { [METRICS_SCHEME]: [] }],
          operationId: 'metrics_retrieve',
          summary: 'Prometheus metrics',
          description:
            'Extension. Metrics in the Prometheus text format: requests by route and status, latency histogram, API call log buffer, database pool, outbox backlog, process. When the server sets `BIZAPI_METRICS_TOKEN`, send `Authorization: Bearer <token>`; otherwise no credentials are needed.',
          'x-extension': true,
          response: {
            200: {
              description: 'Prometheus text exposition format 0.0.4.',
              content: { 'text/plain': { schema: Type.String(), example: EXAMPLE } },
            },
            401: { ...ErrorDetail, description: 'The metrics token is set and the request did not send it.' },
          },
        },
      },
      async (request, reply) => {
        if (opts.token !== undefined && !bearerMatches(request.headers.authorization, opts.token)) {
          throw new NotAuthenticated(
            'The metrics token is missing or wrong: send Authorization: Bearer <BIZAPI_METRICS_TOKEN>.',
          );
        }
        const text = await register.metrics();
        return reply.type(register.contentType).send(text);
      },
    );
  },
  { name: 'metrics' },
);
