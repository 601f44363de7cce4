/**
 * Drives load at a server with autocannon and reduces its result to the numbers the report gives.
 * Requests are signed as an integrator's client signs them (X-API-Key, X-Signature over the exact body).
 */
import autocannon, { type RequestTemplate } from 'autocannon';
import { signBody } from '../../src/modules/auth/hmac.ts';

/** Credentials the load is sent with. */
export interface Keys {
  apiKey: string;
  secretKey: string;
}

/** A scenario's measured numbers. Latencies in milliseconds, throughput in requests per second. */
export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  non2xx: number;
}

/** Options of {@link drive}. */
export interface DriveOptions {
  connections: number;
  /** Seconds of measured load. */
  duration: number;
  /** Seconds of unmeasured warm-up before it (0: none). */
  warmup: number;
  /** Called right before and right after the measured load (after the warm-up), e.g. to read CPU times. */
  around?: { before(): Promise<void>; after(): Promise<void> };
}

/** Headers of a signed request with `body` ('' when none). */
export function signedHeaders(keys: Keys, body: string, json = body !== ''): Record<string, string> {
  return {
    'x-api-key': keys.apiKey,
    'x-signature': signBody(keys.secretKey, body),
    ...(json ? { 'content-type': 'application/json' } : {}),
  };
}

/** A request template that builds a fresh signed request each time from `make()`. */
export function dynamic(keys: Keys, make: () => { method: string; path: string; body?: unknown }): RequestTemplate {
  return {
    setupRequest: (req) => {
      const r = make();
      const body = r.body === undefined ? '' : JSON.stringify(r.body);
      return {
        ...req,
        method: r.method,
        path: r.path,
        headers: signedHeaders(keys, body),
        ...(body === '' ? { body: undefined } : { body }),
      };
    },
  };
}

/**
 * Runs a warm-up (when asked), then the measured load, against `baseUrl` with the request templates.
 * @returns the measured run's numbers; errors are connection errors and time-outs, non2xx every other answer
 */
export async function drive(baseUrl: string, requests: RequestTemplate[], opts: DriveOptions): Promise<LoadResult> {
  if (opts.warmup > 0)
    await autocannon({ url: baseUrl, connections: opts.connections, duration: opts.warmup, requests });
  await opts.around?.before();
  const r = await autocannon({ url: baseUrl, connections: opts.connections, duration: opts.duration, requests });
  await opts.around?.after();
  return {
    requestsPerSecond: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}
