/**
 * Load shedding with `@fastify/under-pressure`: while the event loop lags more than `maxEventLoopDelay`
 * milliseconds (the mean over one-second samples), requests are answered at once with 503
 * `{"detail": "The server is overloaded, try again later."}` and `Retry-After`, instead of queueing until
 * every client times out. The first two seconds after the application is ready are exempt: their samples
 * still hold the start-up work (module loading, schema compilation), not load. Registered first in the `/v1` scope, so a shed request costs no database work; the
 * probes, the metrics and the docs stay available.
 */
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ServiceUnavailable } from '../shared/errors.ts';

/** How often the event-loop delay is sampled, in milliseconds. */
const SAMPLE_INTERVAL_MS = 1000;

/** Options of the plugin. */
export interface LoadSheddingOptions {
  /** Event-loop delay in milliseconds beyond which requests are shed; 0 turns shedding off. */
  maxEventLoopDelay: number;
  /** Seconds a shed client is told to wait (`Retry-After`, default 10). */
  retryAfter?: number;
}

export default fp<LoadSheddingOptions>(
  async function loadShedding(app: FastifyInstance, opts: LoadSheddingOptions) {
    if (opts.maxEventLoopDelay <= 0) return;
    const retryAfter = opts.retryAfter ?? 10;
    let warmUntil = Number.POSITIVE_INFINITY;
    app.addHook('onReady', async () => {
      warmUntil = Date.now() + 2 * SAMPLE_INTERVAL_MS;
    });
    await app.register(underPressure, {
      maxEventLoopDelay: opts.maxEventLoopDelay,
      sampleInterval: SAMPLE_INTERVAL_MS,
      retryAfter,
      pressureHandler: async (request, _reply, type, value) => {
        if (Date.now() < warmUntil) return;
        request.log.warn({ type, value }, 'shedding load');
        throw new ServiceUnavailable('The server is overloaded, try again later.', retryAfter);
      },
    });
  },
  { name: 'load-shedding' },
);
