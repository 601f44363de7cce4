/**
 * Request signatures (decisions §3): `X-Signature` is the lowercase hex HMAC-SHA256 of the exact raw request
 * body bytes, keyed with the API key's secret (its UTF-8 bytes). A request without a body signs the empty
 * string. Pure functions, no I/O.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** HMAC-SHA256 of `body` under `secret`, as 64 lowercase hex characters. */
export function signBody(secret: string, body: Uint8Array | string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * Checks a received signature in constant time. Upper-case hex is accepted; anything that is not 64 hex
 * characters is simply wrong (never an exception).
 */
export function verifySignature(secret: string, body: Uint8Array | string, signature: string): boolean {
  const expected = Buffer.from(signBody(secret, body), 'hex');
  if (!/^[0-9a-fA-F]{64}$/.test(signature)) {
    // Still spend the comparison so timing does not reveal which check failed.
    timingSafeEqual(expected, expected);
    return false;
  }
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}
