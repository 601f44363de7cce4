/**
 * `Idempotency-Key` on every `POST`, `PATCH` and `DELETE` under `/v1` (docs/api.md#idempotent-retries).
 * Registered in the `/v1` scope after `authenticate` and the API call log, so it sees a request whose key,
 * signature and plan have been checked and whose raw body is known.
 *
 * - `preValidation` (before the route's own checks and its handler): a header that is not 1..255 printable
 *   ASCII characters → 400 `{"Idempotency-Key": ["…"]}`. Then the key is claimed (see
 *   `modules/idempotency/idempotency.service.ts`): the INSERT into `idempotency_key` with its unique
 *   (business, key) constraint lets exactly one request run, in any process on the database.
 *   - claimed → the request runs;
 *   - same key and fingerprint (method, path with query, SHA-256 of the raw body), answer stored → that
 *     answer again, byte for byte: status, `Content-Type`, `Location` and body, plus
 *     `Idempotent-Replayed: true`; nothing runs;
 *   - same key, other fingerprint → 422 `idempotency_key_reused`;
 *   - same key and fingerprint while the first request runs → 409 `idempotency_key_in_progress`,
 *     `Retry-After: 1`.
 * - `onSend` (before the answer leaves): the claimed request's answer is stored for 24 hours, its body sealed
 *   with the master key (docs/api.md#idempotent-retries: it may hold a webhook signing secret) — unless its status is 5xx,
 *   409 or 429: then the claim is deleted, and the key may be retried.
 *
 * Answers given before this hook (401, a bad signature's 403, 413, 415, 429, a malformed body's 400) never
 * claim the key. The API call log marks a replayed call (`idempotentReplayed: true` in `GET /v1/log/`).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/database.ts';
import * as idempotency from '../modules/idempotency/idempotency.service.ts';
import { ApiError, ValidationError, messages } from '../shared/errors.ts';

/** Options of the plugin. */
export interface IdempotencyOptions {
  db: Db;
  /** The master key stored answers are sealed with (docs/api.md#idempotent-retries: they may hold a webhook secret). */
  masterKey: Buffer;
  /** Milliseconds a claim blocks its key when its request never answers (`BIZAPI_IDEMPOTENCY_LOCK_TIMEOUT`). */
  lockTimeoutMs: number;
  /** "Now" in milliseconds since the epoch (tests move it); default `Date.now`. */
  now?: () => number;
}

/** The methods that take `Idempotency-Key`. */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['POST', 'PATCH', 'DELETE']);

/** The request header (docs/api.md#idempotent-retries). */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** The response header of a replayed answer, with the value `true`. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** 1..255 printable ASCII characters (space to tilde). */
const VALID_KEY = /^[\x20-\x7E]{1,255}$/;

/** 422: the key was used with another request (method, path or body). */
export class IdempotencyKeyReused extends ApiError {
  override readonly statusCode = 422;
  constructor() {
    super(
      'This Idempotency-Key was already used with another request (method, path or body); use a new key.',
      'idempotency_key_reused',
    );
  }
}

/** 409 with `Retry-After: 1`: the first request with the key is still running. */
export class IdempotencyKeyInProgress extends ApiError {
  override readonly statusCode = 409;
  constructor() {
    super(
      'A request with this Idempotency-Key is still being processed; retry shortly.',
      'idempotency_key_in_progress',
    );
    this.headers['Retry-After'] = '1';
  }
}

/** Whether an answer with this status is stored (never 5xx, 409 or 429; docs/api.md#idempotent-retries). */
export function isStoredStatus(status: number): boolean {
  return status < 500 && status !== 409 && status !== 429;
}

const claims = new WeakMap<FastifyRequest, idempotency.Claim>();

/** Reads and checks the header: `undefined` when absent; 400 in the validation shape when malformed. */
function keyOf(request: FastifyRequest): string | undefined {
  const value = request.headers['idempotency-key'];
  if (value === undefined) return undefined;
  const key = Array.isArray(value) ? value.join(', ') : value;
  if (key.length === 0) throw ValidationError.at([IDEMPOTENCY_HEADER], messages.blank);
  if (key.length > 255) throw ValidationError.at([IDEMPOTENCY_HEADER], messages.maxLength(255));
  if (!VALID_KEY.test(key)) throw ValidationError.at([IDEMPOTENCY_HEADER], 'Must be printable ASCII characters only.');
  return key;
}

/** The body bytes Fastify is about to send (a string or a buffer); `undefined` for a stream. */
function payloadBytes(payload: unknown): Buffer | undefined {
  if (payload === null || payload === undefined) return Buffer.alloc(0);
  if (typeof payload === 'string') return Buffer.from(payload, 'utf8');
  if (Buffer.isBuffer(payload)) return payload;
  return undefined;
}

export default fp<IdempotencyOptions>(
  async function idempotencyKeys(app: FastifyInstance, opts: IdempotencyOptions) {
    const now = opts.now ?? Date.now;

    const settle = async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<void> => {
      const held = claims.get(request);
      if (!held) return;
      claims.delete(request);
      const body = payloadBytes(payload);
      try {
        if (!isStoredStatus(reply.statusCode) || body === undefined) {
          await idempotency.release(opts.db, held);
          return;
        }
        const headers: Record<string, string> = {};
        for (const name of idempotency.STORED_HEADERS) {
          const v = reply.getHeader(name);
          if (v !== undefined) headers[name] = String(v);
        }
        await idempotency.complete(opts.db, held, { status: reply.statusCode, headers, body }, opts.masterKey);
      } catch (err) {
        // The claim stays until its lock timeout; a retry meanwhile gets 409.
        request.log.error({ err }, 'could not store the Idempotency-Key answer');
      }
    };

    app.addHook('preValidation', async (request, reply) => {
      if (request.is404 || !request.auth || !IDEMPOTENT_METHODS.has(request.method)) return;
      const key = keyOf(request);
      if (key === undefined) return;
      const print = idempotency.fingerprint(request.method, request.url, request.rawBody ?? Buffer.alloc(0));
      const result = await idempotency.claim(
        opts.db,
        request.auth.businessId,
        key,
        print,
        now(),
        opts.lockTimeoutMs,
        opts.masterKey,
      );
      switch (result.kind) {
        case 'claimed':
          claims.set(request, result.claim);
          return;
        case 'reused':
          throw new IdempotencyKeyReused();
        case 'in_progress':
          throw new IdempotencyKeyInProgress();
        case 'replay': {
          const { status, headers, body } = result.answer;
          reply.code(status);
          for (const [name, value] of Object.entries(headers)) reply.header(name, value);
          reply.header(REPLAYED_HEADER, 'true');
          return reply.send(body);
        }
      }
    });

    app.addHook('onSend', async (request, reply, payload) => {
      await settle(request, reply, payload);
      return payload;
    });

    // A request that ended without onSend (never expected) must not keep its key locked.
    app.addHook('onResponse', async (request) => {
      const held = claims.get(request);
      if (!held) return;
      claims.delete(request);
      await idempotency
        .release(opts.db, held)
        .catch((err: unknown) => request.log.error({ err }, 'could not release an Idempotency-Key'));
    });
  },
  { name: 'idempotency', dependencies: ['authenticate'] },
);
