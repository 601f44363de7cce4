/**
 * Authentication of every `/v1` request (docs/authentication.md).
 *
 * 1. `onRequest`: `X-API-Key` → the key's business (`request.auth`), from the process's cache of resolved
 *    keys, which a revocation or a plan change empties in every process (SQLite: by the next request;
 *    PostgreSQL: once its NOTIFY has arrived; src/modules/auth/key-cache.ts,
 *    docs/authentication.md#revoking-a-key), else read from the database. Missing → 401 `not_authenticated`;
 *    unknown or revoked → 401 `authentication_failed`.
 * 2. `preParsing`: in `required` mode a request without `X-Signature` → 403 `signature_required`, in `v2`
 *    mode one without a version-2 signature (checked here rather than in `onRequest`, so that the rate
 *    limit, whose `onRequest` hook runs after this one, counts the call and sends its headers, as for every
 *    authenticated call). Then the raw body is buffered (up to the body limit, 413 beyond) and, when
 *    `X-Signature` is sent, verified before anything parses it, constant-time compare:
 *    - version 1 (docs/authentication.md): HMAC-SHA256 hex of the exact bytes; a mismatch → 403 `signature_invalid`;
 *    - version 2 (`v2=<hex>`, docs/authentication.md#signature-version-2): HMAC-SHA256 of
 *      `"{X-Signature-Timestamp}.{METHOD}.{path and query as sent}.{raw body}"`. A missing or malformed
 *      timestamp (not 1..12 digits) → 403 `signature_timestamp_invalid`; one more than 300 s away from the
 *      server's clock → 403 `signature_expired`; a mismatch → 403 `signature_invalid`; a signature accepted
 *      before (the replay cache, shared by every process) → 403 `signature_replayed`.
 *    The bytes are kept as `request.rawBody`.
 * 3. The plan gate of routes that declare `config.plans` → 403 `PLAN_PERMISSION_DENIED`, checked in
 *    `preParsing` right after the signature, so it answers before the body is parsed, validated or acted
 *    on (a malformed body, an invalid query or a missing id on a denied plan still get 403), and again in
 *    `preValidation` for any request that did not pass through `preParsing`.
 *
 * An unknown path or method under `/v1` (the scope's not-found handler) always answers 404 / 405, as DRF
 * resolves the URL before it authenticates: a missing, unknown or revoked key is not an error there, and
 * neither the signature nor the plan is checked. With a valid key the call is still authenticated to its
 * business (`request.auth`), so it is counted by the rate limit and recorded in the API call log with its
 * body.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/database.ts';
import { ApiKeyCache, authenticateApiKey } from '../modules/auth/auth.service.ts';
import type { AuthContext, Plan } from '../shared/auth-context.ts';
import { SIGNATURE_WINDOW_SECONDS, verifySignature, verifyV2 } from '../modules/auth/hmac.ts';
import { databaseReplayCache, type ReplayCache, redisReplayCache } from '../modules/auth/signature-replay.ts';
import type { SignatureMode } from '../config.ts';
import {
  AuthenticationFailed,
  bodyCutOff,
  isBodyCutOff,
  NotAuthenticated,
  PayloadTooLarge,
  PermissionDenied,
} from '../shared/errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated business; set for every route under `/v1`. */
    auth: AuthContext;
    /** The exact body bytes as received (empty for a request without a body). */
    rawBody: Buffer | undefined;
  }
  interface FastifyContextConfig {
    /** Plans allowed to call the route (docs/api.md#plans); absent means every plan. */
    plans?: readonly Plan[];
  }
}

/** Options of the plugin. */
export interface AuthenticateOptions {
  db: Db;
  masterKey: Buffer;
  signatureMode: SignatureMode;
  /** Largest accepted body in bytes (413 beyond). */
  bodyLimit: number;
  /** `REDIS_URL`: when set, the replay cache of signature version 2 lives in Redis (else in the database). */
  redisUrl?: string;
  /** "Now" in milliseconds since the epoch (tests move it); default `Date.now`. */
  now?: () => number;
  /**
   * PostgreSQL: the URL on which the key cache `LISTEN`s for revocations (`sessionUrlOf(config.database)`);
   * `undefined` there: no cache, every request reads its key. Ignored on SQLite.
   */
  keyChangesUrl?: string | undefined;
}

const verified = new WeakSet<FastifyRequest>();

/**
 * The header of an in-process call that the remote MCP endpoint makes for an MCP token (src/plugins/remote-mcp.ts,
 * docs/mcp.md#remote-mcp): its value is a one-use random nonce this process handed out with
 * {@link internalCall}, so no request from outside can carry a valid one. Such a call is authenticated as
 * the token's business (no `X-API-Key`, no signature: the token was checked on `/mcp`), then rate-limited,
 * plan-gated and logged like any API call.
 */
export const INTERNAL_CALL_HEADER = 'x-bizapi-internal-call';

/** Open in-process calls of this process: nonce → who calls. */
const internalCalls = new Map<string, AuthContext>();

/**
 * Registers one in-process call as `auth` (docs/mcp.md#remote-mcp): returns the nonce to send in
 * {@link INTERNAL_CALL_HEADER} and `release`, to call once the answer is in (the nonce then stops working).
 */
export function internalCall(auth: AuthContext): { nonce: string; release: () => void } {
  const nonce = randomBytes(32).toString('base64url');
  internalCalls.set(nonce, auth);
  return { nonce, release: () => internalCalls.delete(nonce) };
}

/** The body of a request that has none (no `Content-Length` above 0, no `Transfer-Encoding`). */
const NO_BODY = Buffer.alloc(0);

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Reads a stream into one buffer, failing with 413 past `limit` bytes, and with the 400 of {@link bodyCutOff}
 * when the client closes the connection before the body's end.
 */
async function readAll(stream: NodeJS.ReadableStream, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer | string>) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buf.length;
      if (size > limit) throw new PayloadTooLarge(limit);
      chunks.push(buf);
    }
  } catch (err) {
    if (isBodyCutOff(err)) throw bodyCutOff();
    throw err;
  }
  return Buffer.concat(chunks);
}

/** Version-2 signatures start with this prefix (case-insensitive). */
const V2_PREFIX = /^v2=/i;

/** Whether the request carries a version-2 signature. */
function isV2(request: FastifyRequest): boolean {
  const signature = header(request, 'x-signature');
  return signature !== undefined && V2_PREFIX.test(signature.trim());
}

/** Unix seconds: 1 to 12 digits. */
const TIMESTAMP = /^\d{1,12}$/;

/** Verifies `X-Signature` (either version) over `body`; see the module comment for the 403 codes. */
async function checkSignature(
  request: FastifyRequest,
  body: Buffer,
  replays: ReplayCache,
  now: () => number,
): Promise<void> {
  const raw = header(request, 'x-signature');
  if (raw !== undefined) {
    const signature = raw.trim();
    if (V2_PREFIX.test(signature)) {
      const timestamp = header(request, 'x-signature-timestamp')?.trim();
      if (timestamp === undefined || !TIMESTAMP.test(timestamp)) {
        throw new PermissionDenied(
          'X-Signature-Timestamp must be the Unix time in seconds (digits only).',
          'signature_timestamp_invalid',
        );
      }
      const nowMs = now();
      const ts = Number(timestamp);
      if (Math.abs(nowMs / 1000 - ts) > SIGNATURE_WINDOW_SECONDS) {
        throw new PermissionDenied(
          `X-Signature-Timestamp is more than ${SIGNATURE_WINDOW_SECONDS} seconds away from the server's clock.`,
          'signature_expired',
        );
      }
      const hex = signature.slice(3);
      if (!verifyV2(request.auth.secret, timestamp, request.method, request.url, body, hex)) {
        throw new PermissionDenied(
          'The X-Signature header does not match the request: sign it with the secret key of the X-API-Key sent (on /docs: the secret key goes in the X-Signature box).',
          'signature_invalid',
        );
      }
      const expiresAt = (ts + SIGNATURE_WINDOW_SECONDS) * 1000 + 1000;
      if (!(await replays.firstUse(hex.toLowerCase(), expiresAt, nowMs))) {
        throw new PermissionDenied('This signature was already used; sign every request anew.', 'signature_replayed');
      }
    } else if (!verifySignature(request.auth.secret, body, signature)) {
      throw new PermissionDenied(
        'The X-Signature header does not match the request body: sign it with the secret key of the X-API-Key sent (on /docs: the secret key goes in the X-Signature box).',
        'signature_invalid',
      );
    }
  }
  verified.add(request);
}

/**
 * The plan gate (docs/api.md#plans): 403 `PLAN_PERMISSION_DENIED` when the route declares
 * `config.plans` and the business's plan is not among them.
 */
function checkPlan(request: FastifyRequest): void {
  const plans = request.routeOptions.config.plans;
  if (plans && !plans.includes(request.auth.plan)) {
    throw new PermissionDenied(
      `This operation is not available on the ${request.auth.plan} plan (allowed: ${plans.join(', ')}).`,
      'PLAN_PERMISSION_DENIED',
    );
  }
}

/**
 * The body of an authenticated call to an unknown path, kept as `request.rawBody` for the API call log
 * (413 past the body limit); it is neither verified nor acted on.
 */
async function notFoundBody(request: FastifyRequest, payload: NodeJS.ReadableStream, limit: number): Promise<Readable> {
  const declared = Number(header(request, 'content-length') ?? 0);
  if (declared > limit) throw new PayloadTooLarge(limit);
  const body = await readAll(payload, limit);
  request.rawBody = body;
  return replayOf(body);
}

/** A stream that yields `body` again, for the body parser. */
function replayOf(body: Buffer): Readable {
  const replay = Readable.from(body.length > 0 ? [body] : []) as Readable & { receivedEncodedLength?: number };
  replay.receivedEncodedLength = body.length;
  return replay;
}

export default fp<AuthenticateOptions>(
  async function authenticate(app: FastifyInstance, opts: AuthenticateOptions) {
    const secretCache = new Map<number, string>();
    const now = opts.now ?? Date.now;
    let replays: ReplayCache = databaseReplayCache(opts.db);
    if (opts.redisUrl) {
      // ioredis is loaded only when REDIS_URL is set (it costs every process memory otherwise).
      const { Redis } = await import('ioredis');
      const redis = new Redis(opts.redisUrl, {
        lazyConnect: true,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        connectTimeout: 2000,
      });
      redis.on('error', (err) => app.log.warn({ err }, 'Redis (signature replay cache) connection error'));
      await redis
        .connect()
        .catch((err: unknown) => app.log.error({ err }, 'Redis (signature replay cache) is unreachable at start'));
      app.addHook('onClose', async () => {
        await redis.quit().catch(() => redis.disconnect());
      });
      replays = redisReplayCache(redis, replays, (err) =>
        app.log.error({ err }, 'Redis replay cache failed; using the database'),
      );
    }
    const keys = new ApiKeyCache(opts.db, {
      listenUrl: opts.keyChangesUrl,
      onListenError: (err, retryInMs) =>
        app.log.warn(
          { err, retryInMs },
          'API-key cache: LISTEN connection failed; reconnecting (keys are read on every request meanwhile)',
        ),
    });
    app.addHook('onClose', async () => {
      await keys.close();
    });
    app.decorateRequest('auth', null as unknown as AuthContext);
    app.decorateRequest('rawBody', undefined);

    app.addHook('onRequest', async (request) => {
      const nonce = header(request, INTERNAL_CALL_HEADER);
      if (nonce !== undefined) {
        const auth = internalCalls.get(nonce);
        if (!auth) throw new AuthenticationFailed('Invalid internal call.');
        request.auth = auth;
        verified.add(request); // checked on /mcp; no signature to verify
        return;
      }
      const apiKey = header(request, 'x-api-key')?.trim();
      if (!apiKey) {
        if (request.is404) return;
        throw new NotAuthenticated();
      }
      const auth = await authenticateApiKey(opts.db, opts.masterKey, apiKey, secretCache, keys);
      if (!auth) {
        if (request.is404) return;
        throw new AuthenticationFailed('Invalid or revoked API key.');
      }
      request.auth = auth;
    });

    app.addHook('preParsing', async (request, _reply, payload) => {
      if (request.is404) return request.auth ? notFoundBody(request, payload, opts.bodyLimit) : payload;
      const internal = verified.has(request);
      if (!internal && opts.signatureMode === 'required' && header(request, 'x-signature') === undefined) {
        throw new PermissionDenied('The X-Signature header is required.', 'signature_required');
      }
      if (!internal && opts.signatureMode === 'v2' && !isV2(request)) {
        throw new PermissionDenied(
          'A version-2 signature (X-Signature: v2=…, with X-Signature-Timestamp) is required.',
          'signature_required',
        );
      }
      const declared = Number(header(request, 'content-length') ?? 0);
      if (declared > opts.bodyLimit) throw new PayloadTooLarge(opts.bodyLimit);
      if (!(declared > 0) && header(request, 'transfer-encoding') === undefined) {
        // No body (most GETs): nothing to read or replay; the signature covers the empty body.
        request.rawBody = NO_BODY;
        if (!internal) await checkSignature(request, NO_BODY, replays, now);
        checkPlan(request);
        return payload;
      }
      const body = await readAll(payload, opts.bodyLimit);
      request.rawBody = body;
      if (!internal) await checkSignature(request, body, replays, now);
      checkPlan(request);
      return replayOf(body);
    });

    app.addHook('preValidation', async (request) => {
      if (request.is404) return;
      if (!verified.has(request)) await checkSignature(request, request.rawBody ?? Buffer.alloc(0), replays, now);
      checkPlan(request);
    });
  },
  { name: 'authenticate' },
);
