/**
 * The API call log recorder (docs/api.md#api-call-log). Registered in the `/v1` scope after `authenticate`, so it sees
 * every route of every module, and records each call that authenticated to a business (`request.auth` is
 * set), whatever its status — a bad signature, a validation error, a 404, a 429 included, and a call with a
 * valid key to an unknown path or method under `/v1` (404 / 405: the scope's not-found handler). Calls that did
 * not authenticate go only to the server's own log; the OpenAPI document and the docs UI live outside `/v1`
 * and are never recorded.
 *
 * A row holds the peer address (`request.ip`: `X-Forwarded-For` only behind a trusted proxy; read when the
 * connection is accepted, so a client that resets its connection while its request is handled is logged
 * with it; {@link UNKNOWN_PEER_ADDRESS} when the connection was reset before it was even accepted), the method,
 * the path with its query string, the `Referer` (or `""`), the status as a string and both bodies as JSON
 * text — never a header value. Bodies: JSON as sent, form bodies as objects, anything else (malformed JSON,
 * or JSON nested deeper than the API accepts) as a JSON string of the text, `null` when empty; over {@link MAX_LOGGED_BODY_BYTES} a marker object
 * `{"truncated": true, "size": <bytes>, "head": "<first 64 KiB>"}`. Signatures and tokens in the query
 * strings of URLs inside bodies (pre-signed upload and download links) are replaced by `[REDACTED]`.
 *
 * The row is handed to the batch writer in `onResponse`, after the response is sent: no response waits. A
 * call whose client reset the connection (no `onResponse` then) is recorded when its answer is ready.
 */
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { nowTimestamp } from '../db/sql-helpers.ts';
import type { LogWriter } from '../jobs/log-writer.ts';
import type { NewApiLogRow } from '../db/tables/log.table.ts';
import { isFormBody } from '../shared/form-body.ts';
import { jsonDeeperThan } from '../shared/utf8.ts';

/** Largest body stored as is: 64 KiB (docs/api.md#api-call-log). */
export const MAX_LOGGED_BODY_BYTES = 64 * 1024;

/** Options of the plugin. */
export interface RequestLogOptions {
  writer: LogWriter;
}

const CREDENTIAL_PARAM =
  /([?&](?:x-amz-signature|x-amz-credential|x-amz-security-token|signature|sig|token)=)[^&"\s\\]+/gi;

/** Replaces the values of signature and token query parameters inside a text by `[REDACTED]`. */
export function redactUrlCredentials(text: string): string {
  return text.includes('=') ? text.replace(CREDENTIAL_PARAM, '$1[REDACTED]') : text;
}

/** A webhook signing secret (docs/webhooks.md#secret-rotation): `whsec_` and base64. */
const WEBHOOK_SECRET = /whsec_[A-Za-z0-9+/]+=*/g;

/**
 * Replaces webhook signing secrets inside a text by `whsec_[REDACTED]`: the create and rotation answers
 * show a secret once, and the log must not keep it (docs/webhooks.md#secret-rotation).
 */
export function redactWebhookSecrets(text: string): string {
  return text.includes('whsec_') ? text.replace(WEBHOOK_SECRET, 'whsec_[REDACTED]') : text;
}

/**
 * A body as stored: `text` (JSON) redacted, and replaced by the truncation marker when it is larger than
 * {@link MAX_LOGGED_BODY_BYTES} bytes of UTF-8.
 */
export function fitBody(text: string | null): string | null {
  if (text === null) return null;
  const redacted = redactWebhookSecrets(redactUrlCredentials(text));
  if (redacted.length * 3 <= MAX_LOGGED_BODY_BYTES) return redacted;
  const bytes = Buffer.from(redacted, 'utf8');
  if (bytes.length <= MAX_LOGGED_BODY_BYTES) return redacted;
  // Cut on a character boundary: drop a trailing partial character decoded as U+FFFD.
  const head = bytes
    .subarray(0, MAX_LOGGED_BODY_BYTES)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  return JSON.stringify({ truncated: true, size: bytes.length, head });
}

function isJson(contentType: string | string[] | number | undefined): boolean {
  return typeof contentType === 'string' && /^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType.trim());
}

/** Whether `text` is one JSON document. */
function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Form bodies as JSON text, taken before validation coerces their values in place. */
const formBodies = new WeakMap<FastifyRequest, string>();

/**
 * The request body as JSON text, or `null` when the request had none (docs/api.md#api-call-log): a JSON
 * body as sent when it is valid JSON nested at most 32 levels (`MAX_JSON_DEPTH`), a form body as an
 * object, anything else (not JSON, malformed, or deeper than the limit) as a JSON string of the text
 * received.
 */
export function requestBodyText(request: FastifyRequest): string | null {
  const raw = request.rawBody;
  if (raw === undefined || raw.length === 0) return null;
  const body = request.body;
  const form = formBodies.get(request);
  if (form !== undefined) return form;
  if (isFormBody(body)) return JSON.stringify(body);
  const text = raw.toString('utf8');
  // A JSON body the parser accepted is valid JSON text within the depth limit; one it never parsed (a bad
  // signature stops the request first) is checked here, the depth first (a linear scan): a body nested
  // deeper than the API accepts is kept as text, so that no stored row is too deep to show.
  if (isJson(request.headers['content-type']) && (body !== undefined || (!jsonDeeperThan(text) && isJsonText(text))))
    return text;
  return JSON.stringify(text);
}

/** The response body as JSON text, or `null` when the response had none. */
export function responseBodyText(reply: FastifyReply, payload: unknown): string | null {
  if (reply.statusCode === 204 || reply.statusCode === 304) return null;
  let text: string;
  if (typeof payload === 'string') text = payload;
  else if (Buffer.isBuffer(payload)) text = payload.toString('utf8');
  else return null;
  if (text.length === 0) return null;
  // Responses declared JSON come from the serializer or the error renderer: valid JSON text.
  return isJson(reply.getHeader('content-type')) ? text : JSON.stringify(text);
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The call log's state of this call: its response payload once `onSend` has it, and whether it is recorded. */
    callLog: { payload: unknown; recorded: boolean } | null;
  }
}

/**
 * The `ipAddress` of a logged call whose peer address nobody can know: the client sent its request and
 * reset the connection (RST) before the server accepted it, so the operating system no longer has the
 * peer's address (`getpeername` fails). The call is logged all the same (docs/api.md#api-call-log).
 */
export const UNKNOWN_PEER_ADDRESS = '';

/** Reads `socket.remoteAddress` once, which makes Node keep it for the socket's whole life. */
function primePeerAddress(socket: Socket): void {
  void socket.remoteAddress;
}

export default fp<RequestLogOptions>(
  async function requestLog(app: FastifyInstance, opts: RequestLogOptions) {
    // The peer address is read as soon as the connection is accepted: Node then keeps it on the socket, so
    // `request.ip` still has it after the client reset the connection (RST) while its request was handled.
    app.server.on('connection', primePeerAddress);

    // Per request: its payload and whether it is already handed to the writer (each call is recorded once,
    // by whichever path comes first), as a request property rather than weak maps (no GC bookkeeping).
    app.decorateRequest('callLog', null);
    const record = (request: FastifyRequest, reply: FastifyReply): void => {
      const auth = request.auth;
      if (!auth || request.callLog?.recorded === true) return;
      const payload = request.callLog?.payload;
      request.callLog = { payload: undefined, recorded: true };
      opts.writer.enqueue({
        business_id: auth.businessId,
        ip_address: request.ip ?? UNKNOWN_PEER_ADDRESS,
        method: request.method,
        path: request.url,
        referrer: typeof request.headers.referer === 'string' ? request.headers.referer : '',
        status_code: String(reply.statusCode),
        request_body: fitBody(requestBodyText(request)),
        response_body: fitBody(responseBodyText(reply, payload)),
        created: nowTimestamp(),
        // A call answered from a stored Idempotency-Key answer (plugins/idempotency.ts) is marked as such.
        idempotent_replayed: reply.getHeader('idempotent-replayed') === 'true' ? 1 : null,
      } satisfies NewApiLogRow);
    };

    // Callback-style hooks (no promise per request): all three run on every call.
    app.addHook('preValidation', (request, _reply, done) => {
      if (isFormBody(request.body)) formBodies.set(request, JSON.stringify(request.body));
      done();
    });

    // The answer is final here. A client that reset its connection gets no `finish` of the response, so no
    // `onResponse`: the call is recorded now when the connection is already gone, or when it closes before
    // the response is written.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (request.auth && request.callLog?.recorded !== true) {
        request.callLog = { payload, recorded: false };
        const socket = request.raw.socket as Socket | null;
        if (socket === null || socket.destroyed) record(request, reply);
        // `close` comes once per response: `on` spares `once`'s wrapper.
        else reply.raw.on('close', () => record(request, reply));
      }
      done(null, payload);
    });

    app.addHook('onResponse', (request, reply, done) => {
      record(request, reply);
      done();
    });
  },
  { name: 'request-log', dependencies: ['authenticate'] },
);
