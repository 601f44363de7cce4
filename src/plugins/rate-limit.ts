/**
 * Rate limit per API key (docs/api.md#rate-limits): `max` requests per window (default 1000 per minute), counted by
 * `@fastify/rate-limit` in a fixed window. Registered in the `/v1` scope after `authenticate`, so every
 * route of every module is limited, by the key that authenticated the call (calls that did not
 * authenticate are not counted).
 *
 * Every limited response carries the IETF headers (draft-ietf-httpapi-ratelimit-headers-10):
 * `RateLimit-Policy: "per-key";q=<max>;w=<window seconds>` and `RateLimit: "per-key";r=<remaining>;t=<seconds
 * to reset>`. Over the limit: 429 `{"detail": "Request was throttled. Expected available in N seconds."}`
 * with `Retry-After: N`.
 *
 * Counters: in memory by default (per process); shared between processes through the database
 * (`rate_limit_counter`, one upsert per request) or through Redis (`REDIS_URL`). When the shared store
 * fails, the request passes (fail open) and the failure is logged.
 *
 * The plugin also decorates the `/v1` scope with `windowCounter` ({@link WindowCounter}), a fixed-window
 * counter always shared between processes (the database, or Redis with the `redis` store), for limits
 * narrower than a key's: the webhook test ping's 5 a minute per endpoint (docs/webhooks.md#fairness-and-limits).
 */
import rateLimit, { type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import type { Db } from '../db/database.ts';
import { hit } from '../modules/rate-limit/rate-limit.repository.ts';
import { Throttled } from '../shared/errors.ts';

/** Options of the plugin. */
export interface RateLimitOptions {
  /** Requests per window per API key; 0 turns the limit off. */
  max: number;
  /** Window length in milliseconds. */
  windowMs: number;
  store: 'memory' | 'database' | 'redis';
  db: Db;
  redisUrl?: string;
}

/** Name of the policy in the `RateLimit-Policy` and `RateLimit` headers. */
export const POLICY_NAME = 'per-key';

type StoreCallback = (err: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * A `@fastify/rate-limit` store over the `rate_limit_counter` table, so every process that uses the same
 * database shares the counters. Times come from the process clock (keep the servers' clocks in sync).
 */
function databaseStore(db: Db, onError: (err: unknown) => void): FastifyRateLimitStoreCtor {
  return class DatabaseStore {
    incr(key: string, callback: StoreCallback, timeWindow: number): void {
      const now = Date.now();
      hit(db, key, now, timeWindow).then(
        (r) => callback(null, { current: r.hits, ttl: Math.max(0, r.resetAt - now) }),
        (err: Error) => {
          onError(err);
          callback(err);
        },
      );
    }

    child(): DatabaseStore {
      return this;
    }
  } as unknown as FastifyRateLimitStoreCtor;
}

/**
 * A fixed-window counter shared by every process (docs/webhooks.md#fairness-and-limits: the test-ping
 * limit): `hit(key, windowMs)` counts one hit on `key` and answers the hits of the current window and its end
 * (epoch ms). In Redis when the rate-limit store is `redis`, else in the database (`rate_limit_counter`),
 * whatever the store of the per-key limit, so that the limit holds across processes. When the store fails,
 * the hit is not counted (`hits: 0`: the caller lets the request pass) and the failure is logged.
 */
export interface WindowCounter {
  hit(key: string, windowMs: number): Promise<{ hits: number; resetAt: number }>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The shared fixed-window counter of {@link WindowCounter} (registered in the `/v1` scope). */
    windowCounter: WindowCounter;
  }
}

/** Prefix of the shared counters' Redis keys. */
const COUNTER_NAMESPACE = 'bizapi-counter:';

export default fp<RateLimitOptions>(
  async function rateLimitPerKey(app: FastifyInstance, opts: RateLimitOptions) {
    const onStoreError = (err: unknown) => app.log.error({ err }, 'rate-limit store failed; the request passes');

    let redis: Redis | undefined;
    if (opts.store === 'redis') {
      // Fail fast while Redis is unreachable (no offline queue, one try per command): requests pass meanwhile.
      const { Redis } = await import('ioredis'); // only with REDIS_URL
      redis = new Redis(opts.redisUrl!, {
        lazyConnect: true,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        connectTimeout: 2000,
      });
      redis.on('error', (err) => app.log.warn({ err }, 'Redis (rate limit) connection error'));
      // Start with the connection up when Redis is reachable; when it is not, start anyway (ioredis keeps
      // reconnecting, and requests pass uncounted meanwhile).
      await redis
        .connect()
        .catch((err: unknown) => app.log.error({ err }, 'Redis (rate limit) is unreachable at start'));
      app.addHook('onClose', async () => {
        await redis!.quit().catch(() => redis!.disconnect());
      });
    }

    const windowCounter: WindowCounter = {
      async hit(key, windowMs) {
        const now = Date.now();
        try {
          if (redis) {
            const k = `${COUNTER_NAMESPACE}${key}`;
            // The window starts with the first hit (SET NX with its expiry); INCR keeps the expiry.
            const replies = await redis.multi().set(k, '0', 'PX', windowMs, 'NX').incr(k).pttl(k).exec();
            if (!replies || replies.some(([err]) => err))
              throw replies?.find(([err]) => err)?.[0] ?? new Error('Redis transaction aborted');
            const ttl = Number(replies[2]![1]);
            return { hits: Number(replies[1]![1]), resetAt: now + (ttl > 0 ? ttl : windowMs) };
          }
          return await hit(opts.db, key, now, windowMs);
        } catch (err) {
          onStoreError(err);
          return { hits: 0, resetAt: now + windowMs };
        }
      },
    };
    app.decorate('windowCounter', windowCounter);
    if (opts.max <= 0) return;

    await app.register(rateLimit, {
      global: false,
      max: opts.max,
      timeWindow: opts.windowMs,
      skipOnError: true,
      // One budget per credential: an API key, or an MCP token (docs/mcp.md#remote-mcp).
      keyGenerator: (request) =>
        request.auth.mcpTokenId !== undefined ? `mcp:${request.auth.mcpTokenId}` : `key:${request.auth.apiKeyId}`,
      ...(opts.store === 'database' ? { store: databaseStore(opts.db, onStoreError) } : {}),
      ...(redis ? { redis, nameSpace: 'bizapi-rate-limit:' } : {}),
    });
    const limit = app.createRateLimit();
    const policy = `"${POLICY_NAME}";q=${opts.max};w=${Math.ceil(opts.windowMs / 1000)}`;

    app.addHook('onRequest', async (request, reply) => {
      // An unknown path called without a valid key (authenticate let it through to its 404) is not counted.
      if (!request.auth) return;
      const state = await limit(request);
      if (state.isAllowed) return;
      reply.header('RateLimit-Policy', policy);
      reply.header('RateLimit', `"${POLICY_NAME}";r=${state.remaining};t=${state.ttlInSeconds}`);
      if (state.isExceeded) throw new Throttled(Math.max(1, state.ttlInSeconds));
    });
  },
  { name: 'rate-limit', dependencies: ['authenticate'] },
);
