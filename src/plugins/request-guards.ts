/**
 * Checks every request gets before any module sees it (docs/api.md#requests, docs/deployment.md#public-url):
 *
 * - `onRequest`: a body sent with a `Content-Encoding` other than `identity` → 415 (RFC 9110 §8.4: the server
 *   does not decode gzip, br, …, and reading compressed bytes as JSON would be wrong).
 * - `onRequest`: the public origin of the request (`request.publicOrigin`), from which page links and
 *   pre-signed URLs are built: `BIZAPI_PUBLIC_URL` when configured (the `Host` header is then ignored),
 *   otherwise `<protocol>://<Host>`, where a missing (HTTP/1.0), empty or malformed `Host` (`a b`, `[::1`) is
 *   a 400. The probes (`/healthz`, `/readyz`, `/metrics`) need no origin and skip the check.
 * - `preValidation`: a path id is written in decimal digits with no sign, leading zero or percent-encoding
 *   (`/v1/client/01`, `1.0`, `1e0`, `0x1`, `+1`, `%31` → 404 like an unknown id), checked on the raw URL.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError, NotFound } from '../shared/errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** `protocol://host[:port]` clients reach the API at: `BIZAPI_PUBLIC_URL`, else the request's own. */
    publicOrigin: string;
  }
}

/** Options of the plugin. */
export interface RequestGuardsOptions {
  /** `BIZAPI_PUBLIC_URL` as configured (an origin), or `undefined`. */
  publicUrl: string | undefined;
}

/** 400 for a request whose `Host` (or trusted `X-Forwarded-Host` / `-Proto`) cannot name an origin. */
export class BadHost extends ApiError {
  override readonly statusCode = 400;
  constructor(detail = 'Invalid or missing Host header.') {
    super(detail, 'invalid_host');
  }
}

/** 415 for a body in a content coding the server does not decode (RFC 9110 §15.5.16). */
export class UnsupportedContentEncoding extends ApiError {
  override readonly statusCode = 415;
  constructor(coding: string) {
    super(`Unsupported Content-Encoding "${coding}" in request; send the body uncompressed.`);
  }
}

/** `host[:port]`: a DNS-like name (letters, digits, `-`, `_`, `.`) or an IPv4 address, or `[IPv6]`. */
const HOST = /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/** Paths that need no origin: the probes and the metrics scrape. */
const NO_ORIGIN = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The origin a request names, or `undefined` when its `Host` or protocol cannot make one. The result is
 * always what `new URL()` normalises it to, so a link built on it never reads `http:///…`.
 */
export function requestOrigin(protocol: string, host: string | undefined): string | undefined {
  if ((protocol !== 'http' && protocol !== 'https') || host === undefined || !HOST.test(host)) return undefined;
  try {
    const u = new URL(`${protocol}://${host}`);
    return u.host === '' ? undefined : u.origin;
  } catch {
    return undefined;
  }
}

/** Origins already worked out, by `protocol|host` (most servers see a handful; cleared past 256 so a client cycling `Host` values cannot grow it). */
const origins = new Map<string, string | undefined>();

/** {@link requestOrigin}, remembered per protocol and host: it parses a URL, and every request asks. */
function originOf(protocol: string, host: string | undefined): string | undefined {
  const key = `${protocol}|${host}`;
  if (origins.has(key)) return origins.get(key);
  const origin = requestOrigin(protocol, host);
  if (origins.size >= 256) origins.clear();
  origins.set(key, origin);
  return origin;
}

/** Whether a request carries a body (a non-zero `Content-Length`, or a chunked one). */
function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Where each route's integer path parameters sit in its path, as indexes of the `/`-separated segments,
 * by the route's own `config` object (one per route; a params schema may be shared by routes of different
 * shapes): worked out at a route's first request, so later ones only split their own URL.
 */
const integerSegmentsOf = new WeakMap<object, number[]>();

/** The segment indexes of a route's integer path parameters (their schema type is `integer`), for {@link integerSegmentsOf}. */
function integerSegments(url: string, schema: { properties?: Record<string, { type?: string }> }): number[] {
  const pattern = url.split('/');
  return Object.entries(schema.properties ?? {})
    .filter(([, s]) => s.type === 'integer')
    .map(([name]) => pattern.indexOf(`:${name}`));
}

/**
 * A path id as the server writes it: plain decimal digits, no sign or leading zero. Its size is the
 * schema's to judge (a 400 above 2^53 − 1, docs/api.md#ids); 300 digits keep it a finite number.
 */
const DECIMAL_ID = /^[1-9]\d{0,299}$/;

/** Installs the checks (application-wide). */
export default fp(
  async function requestGuards(app: FastifyInstance, options: RequestGuardsOptions) {
    app.decorateRequest('publicOrigin', '');
    // Callback-style hooks (no promise per request): both run on every request.
    app.addHook('onRequest', (request, _reply, done) => {
      const coding = request.headers['content-encoding'];
      if (coding !== undefined && hasBody(request)) {
        const unsupported = coding
          .split(',')
          .map((c) => c.trim().toLowerCase())
          .find((c) => c !== '' && c !== 'identity');
        if (unsupported !== undefined) return done(new UnsupportedContentEncoding(unsupported.slice(0, 40)));
      }
      if (options.publicUrl !== undefined) {
        request.publicOrigin = options.publicUrl;
        return done();
      }
      const origin = originOf(request.protocol.toLowerCase(), request.host);
      if (origin === undefined) {
        if (NO_ORIGIN.has(request.url.split('?', 1)[0]!.replace(/\/+$/, ''))) return done();
        return done(new BadHost());
      }
      request.publicOrigin = origin;
      done();
    });
    app.addHook('preValidation', (request, _reply, done) => {
      const route = request.routeOptions;
      const schema = route.schema?.params as { properties?: Record<string, { type?: string }> } | undefined;
      if (schema?.properties === undefined) return done();
      let segments = integerSegmentsOf.get(route.config);
      if (segments === undefined)
        integerSegmentsOf.set(route.config, (segments = integerSegments(route.url ?? '', schema)));
      if (segments.length === 0) return done();
      const raw = (request.raw.url ?? '').split('?', 1)[0]!.split('/');
      for (const at of segments) {
        if (at < 0 || !DECIMAL_ID.test(raw[at] ?? '')) return done(new NotFound());
      }
      done();
    });
  },
  { name: 'request-guards' },
);
