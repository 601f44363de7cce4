/**
 * Request signatures of the bizapi server (docs/authentication.md in the server's repository):
 * - version 1 (the reference service's): `X-Signature` = lowercase hex HMAC-SHA256 of the exact body bytes
 *   (the empty string without a body), keyed with the API key's secret;
 * - version 2 (replay-proof): `X-Signature-Timestamp: <Unix seconds>` and `X-Signature: v2=<hex HMAC-SHA256 of
 *   "{timestamp}.{METHOD}.{path and query as sent}.{body}">`.
 * Two HMAC back-ends: Node's `node:crypto` and Web Crypto (`crypto.subtle`: browsers, Deno, Bun, edge runtimes).
 */
const encoder = new TextEncoder();
function toHex(bytes) {
    let out = '';
    for (const b of bytes)
        out += b.toString(16).padStart(2, '0');
    return out;
}
/** HMAC-SHA256 with Web Crypto (`globalThis.crypto.subtle`). @throws Error when the runtime has no Web Crypto */
export const webCryptoHmac = async (key, message) => {
    const subtle = globalThis.crypto?.subtle;
    if (subtle === undefined)
        throw new Error('Web Crypto (crypto.subtle) is not available here (browsers offer it only on https:// and localhost).');
    const k = await subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    return toHex(new Uint8Array(await subtle.sign('HMAC', k, message)));
};
/** HMAC-SHA256 with Node's `node:crypto` (loaded on first use, so bundles for browsers need not include it). */
export const nodeCryptoHmac = async (key, message) => {
    const { createHmac } = await import('node:crypto');
    return createHmac('sha256', key).update(message).digest('hex');
};
/** Node's crypto under Node.js, Web Crypto elsewhere. */
export function defaultHmac() {
    const isNode = typeof process !== 'undefined' && typeof process.versions?.node === 'string';
    return isNode ? nodeCryptoHmac : webCryptoHmac;
}
/**
 * The signature headers for one request: `{'X-Signature': hex}` (v1) or
 * `{'X-Signature-Timestamp': ts, 'X-Signature': 'v2=' + hex}` (v2).
 */
export async function signRequest(input, options) {
    const hmac = options.hmac ?? defaultHmac();
    const key = encoder.encode(options.secretKey);
    const body = input.body === undefined
        ? new Uint8Array(0)
        : typeof input.body === 'string'
            ? encoder.encode(input.body)
            : input.body;
    if ((options.version ?? 'v1') === 'v1')
        return { 'X-Signature': await hmac(key, body) };
    const ts = String(options.timestamp ?? Math.floor(Date.now() / 1000));
    const prefix = encoder.encode(`${ts}.${input.method.toUpperCase()}.${input.pathAndQuery}.`);
    const message = new Uint8Array(prefix.length + body.length);
    message.set(prefix);
    message.set(body, prefix.length);
    return { 'X-Signature-Timestamp': ts, 'X-Signature': `v2=${await hmac(key, message)}` };
}
