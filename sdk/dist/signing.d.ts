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
/** HMAC-SHA256 with Web Crypto (`globalThis.crypto.subtle`). @throws Error when the runtime has no Web Crypto */
export declare const webCryptoHmac: HmacSha256;
/** HMAC-SHA256 with Node's `node:crypto` (loaded on first use, so bundles for browsers need not include it). */
export declare const nodeCryptoHmac: HmacSha256;
/** Node's crypto under Node.js, Web Crypto elsewhere. */
export declare function defaultHmac(): HmacSha256;
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
export declare function signRequest(input: SignInput, options: SignOptions): Promise<Record<string, string>>;
