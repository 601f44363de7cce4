/**
 * Request signatures of the bizapi server (docs/authentication.md in the server's repository):
 * - version 1 (the reference service's): `X-Signature` = lowercase hex HMAC-SHA256 of the exact body bytes
 *   (the empty string without a body), keyed with the API key's secret;
 * - version 2 (replay-proof): `X-Signature-Timestamp: <Unix seconds>` and `X-Signature: v2=<hex HMAC-SHA256 of
 *   "{timestamp}.{METHOD}.{path and query as sent}.{body}">`.
 * Two HMAC back-ends: Node's `node:crypto` and Web Crypto (`crypto.subtle`: browsers, Deno, Bun, edge runtimes).
 */

/** The signature version: `v1` (the reference's) or `v2` (timestamped, replay-proof). */
export type SignatureVersion = 'v1' | 'v2';

/** An HMAC-SHA256 function: key and message bytes → lowercase hex. */
export type HmacSha256 = (key: Uint8Array, message: Uint8Array) => Promise<string>;

const encoder = new TextEncoder();

function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

/** HMAC-SHA256 with Web Crypto (`globalThis.crypto.subtle`). @throws Error when the runtime has no Web Crypto */
export const webCryptoHmac: HmacSha256 = async (key, message) => {
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined)
    throw new Error(
      'Web Crypto (crypto.subtle) is not available here (browsers offer it only on https:// and localhost).',
    );
  const k = await subtle.importKey('raw', key as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return toHex(new Uint8Array(await subtle.sign('HMAC', k, message as BufferSource)));
};

/** HMAC-SHA256 with Node's `node:crypto` (loaded on first use, so bundles for browsers need not include it). */
export const nodeCryptoHmac: HmacSha256 = async (key, message) => {
  const { createHmac } = await import('node:crypto');
  return createHmac('sha256', key).update(message).digest('hex');
};

/** Node's crypto under Node.js, Web Crypto elsewhere. */
export function defaultHmac(): HmacSha256 {
  const isNode = typeof process !== 'undefined' && typeof process.versions?.node === 'string';
  return isNode ? nodeCryptoHmac : webCryptoHmac;
}

/** What a request is signed over. `body`: the exact bytes sent (`undefined` or empty: no body). */
export interface SignInput {
  method: string;
  /** Path and query exactly as sent, e.g. `/v1/client?page_size=5` (used by v2). */
  pathAndQuery: string;
  body?: Uint8Array | string;
}

/** Options of {@link signRequest}. */
export interface SignOptions {
  secretKey: string;
  version?: SignatureVersion;
  hmac?: HmacSha256 | undefined;
  /** Unix seconds for v2 (default: now). */
  timestamp?: number;
}

/**
 * The signature headers for one request: `{'X-Signature': hex}` (v1) or
 * `{'X-Signature-Timestamp': ts, 'X-Signature': 'v2=' + hex}` (v2).
 */
export async function signRequest(input: SignInput, options: SignOptions): Promise<Record<string, string>> {
  const hmac = options.hmac ?? defaultHmac();
  const key = encoder.encode(options.secretKey);
  const body =
    input.body === undefined
      ? new Uint8Array(0)
      : typeof input.body === 'string'
        ? encoder.encode(input.body)
        : input.body;
  if ((options.version ?? 'v1') === 'v1') return { 'X-Signature': await hmac(key, body) };
  const ts = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const prefix = encoder.encode(`${ts}.${input.method.toUpperCase()}.${input.pathAndQuery}.`);
  const message = new Uint8Array(prefix.length + body.length);
  message.set(prefix);
  message.set(body, prefix.length);
  return { 'X-Signature-Timestamp': ts, 'X-Signature': `v2=${await hmac(key, message)}` };
}
