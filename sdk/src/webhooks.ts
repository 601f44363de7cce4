/**
 * Webhook signatures of the bizapi server (docs/webhooks.md#signatures in the server's repository), as the
 * Standard Webhooks specification defines them:
 * - headers `webhook-id` (the event id, the same on every retry), `webhook-timestamp` (Unix seconds) and
 *   `webhook-signature`: one or more `v1,<base64 HMAC-SHA256>` separated by spaces (two during a secret
 *   rotation);
 * - the HMAC is over `"{webhook-id}.{webhook-timestamp}.{raw body}"`, keyed with the base64-decoded part of the
 *   endpoint's secret after `whsec_`.
 * Web Crypto only (`globalThis.crypto.subtle`): runs unchanged in Node.js 20+, browsers, Deno, Bun and edge
 * runtimes, with no dependency.
 */

/** Headers as a `Headers` object or a record (Node's `IncomingHttpHeaders`, a plain object). */
export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

/** The exact body bytes received: a string (decoded as UTF-8 by your framework), bytes, or an `ArrayBuffer`. */
export type WebhookBody = string | Uint8Array | ArrayBuffer;

/** The body of a `format: standard` delivery: the event, as `GET /v1/event/{event_id}` answers it. */
export interface WebhookEvent<D = Record<string, unknown>> {
  id: number;
  /** `<resource>.<created|updated|deleted>` or `webhook.test` (docs/webhooks.md#event-catalogue). */
  type: string;
  /** RFC 3339 UTC. */
  created: string;
  /** camelCase properties an update changed; `[]` for created and deleted. */
  changedFields: string[];
  /** The record's full shape after the change; `{id}` for a delete. */
  data: D;
}

/** The body of a `format: pluuug` delivery (the reference service's envelope, docs/webhooks.md#formats). */
export interface PluuugWebhookEnvelope<D = Record<string, unknown>> {
  event_type: 'inquiry';
  /** The event time in the business's time zone, no offset, microseconds: `2026-01-15T10:30:45.123456`. */
  timestamp: string;
  /** snake_case names of the changed properties. */
  changed_fields: string[];
  /** The inquiry's full shape, keys in snake_case. */
  data: D;
}

/** Options of {@link verifyWebhook}. */
export interface VerifyWebhookOptions {
  /** Largest accepted distance between `webhook-timestamp` and now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** The clock (default `new Date()`), for tests. */
  now?: Date;
}

/** A delivery that does not verify: missing headers, a timestamp out of tolerance, no matching signature. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

const SECRET_PREFIX = 'whsec_';
const encoder = new TextEncoder();

function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  if (s === undefined)
    throw new Error(
      'Web Crypto (crypto.subtle) is not available here (browsers offer it only on https:// and localhost).',
    );
  return s;
}

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function' && typeof (headers as Headers).forEach === 'function') {
    return (headers as Headers).get(name) ?? undefined;
  }
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === name && value !== undefined) return Array.isArray(value) ? value.join(' ') : value;
  }
  return undefined;
}

function fromBase64(text: string): Uint8Array | undefined {
  try {
    const raw = atob(text);
    const out = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  } catch {
    return undefined;
  }
}

function toBase64(bytes: Uint8Array): string {
  let raw = '';
  for (const b of bytes) raw += String.fromCharCode(b);
  return btoa(raw);
}

function bodyBytes(body: WebhookBody): Uint8Array {
  if (typeof body === 'string') return encoder.encode(body);
  return body instanceof Uint8Array ? body : new Uint8Array(body);
}

/** The HMAC key of a `whsec_…` secret. @throws Error when the secret is not base64 or empty */
async function hmacKey(secret: string, usage: 'sign' | 'verify'): Promise<CryptoKey> {
  const key = fromBase64(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
  if (key === undefined || key.length === 0) throw new Error('The webhook secret must be "whsec_" followed by base64.');
  return subtle().importKey('raw', key as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, [usage]);
}

function signedContent(id: string, timestamp: string, body: Uint8Array): Uint8Array {
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const out = new Uint8Array(prefix.length + body.length);
  out.set(prefix);
  out.set(body, prefix.length);
  return out;
}

/**
 * Verifies one webhook delivery over the exact body bytes received and answers its parsed JSON body
 * (docs/webhooks.md#signatures): the three headers must be present, `webhook-timestamp` within
 * `toleranceSeconds` (300) of now, and one of the `v1,…` signatures in `webhook-signature` (two during a
 * rotation, docs/webhooks.md#rotation) must be the HMAC-SHA256 of `"{id}.{timestamp}.{body}"` under the
 * secret. The comparison is Web Crypto's `verify` (constant time). Drop repeats by `webhook-id`: delivery is
 * at least once (docs/webhooks.md#delivery).
 * @param secret the endpoint's secret, `whsec_…` (shown once by `POST /v1/webhook` and by `rotate_secret`)
 * @param headers the request's headers (any letter case)
 * @param body the exact body bytes received: never a re-serialised parsed object
 * @returns the parsed body: a {@link WebhookEvent} (`format: standard`) or a {@link PluuugWebhookEnvelope}
 * @throws WebhookVerificationError when the delivery does not verify; Error for a malformed secret
 */
export async function verifyWebhook<T = WebhookEvent>(
  secret: string,
  headers: HeaderSource,
  body: WebhookBody,
  options: VerifyWebhookOptions = {},
): Promise<T> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature.');
  if (!/^\d{1,12}$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp must be Unix seconds.');
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? 300))
    throw new WebhookVerificationError('webhook-timestamp is too far from now.');
  const bytes = bodyBytes(body);
  const key = await hmacKey(secret, 'verify');
  const content = signedContent(id, timestamp, bytes);
  for (const versioned of signatures.split(' ')) {
    const comma = versioned.indexOf(',');
    if (comma < 0 || versioned.slice(0, comma) !== 'v1') continue;
    const signature = fromBase64(versioned.slice(comma + 1));
    if (signature === undefined || signature.length !== 32) continue;
    if (await subtle().verify('HMAC', key, signature as BufferSource, content as BufferSource)) {
      return JSON.parse(new TextDecoder().decode(bytes)) as T;
    }
  }
  throw new WebhookVerificationError('No webhook-signature matches the body.');
}

/**
 * Signs a body as the server does (for tests and local tools; docs/webhooks.md#signatures): the three
 * Standard Webhooks headers, `webhook-signature` one `v1,…` per secret (two secrets: a rotation).
 * @param secrets one `whsec_…` secret, or several
 * @throws Error for a malformed secret
 */
export async function signWebhook(
  secrets: string | string[],
  body: WebhookBody,
  options: { id?: string; timestamp?: Date } = {},
): Promise<Record<string, string>> {
  const id = options.id ?? `msg_${Math.random().toString(36).slice(2)}`;
  const timestamp = String(Math.floor((options.timestamp ?? new Date()).getTime() / 1000));
  const content = signedContent(id, timestamp, bodyBytes(body));
  const signatures: string[] = [];
  for (const secret of Array.isArray(secrets) ? secrets : [secrets]) {
    const mac = await subtle().sign('HMAC', await hmacKey(secret, 'sign'), content as BufferSource);
    signatures.push(`v1,${toBase64(new Uint8Array(mac))}`);
  }
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signatures.join(' ') };
}
