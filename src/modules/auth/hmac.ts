/**
 * Request signatures (docs/authentication.md): `X-Signature` is the lowercase hex HMAC-SHA256 of the exact raw
 * request body bytes, keyed with the API key's secret (its UTF-8 bytes). A request without a body signs the empty
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
  const expected = createHmac('sha256', secret).update(body).digest();
  if (!/^[0-9a-fA-F]{64}$/.test(signature)) {
    // Still spend the comparison so timing does not reveal which check failed.
    timingSafeEqual(expected, expected);
    return false;
  }
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

/**
 * How far `X-Signature-Timestamp` may be from the server's clock: 300 seconds
 * (docs/authentication.md#signature-version-2).
 */
export const SIGNATURE_WINDOW_SECONDS = 300;

/**
 * The bytes a version-2 signature covers (docs/authentication.md#signature-version-2):
 * `"{timestamp}.{METHOD}.{path and query as sent}.{raw body}"`.
 */
export function v2Message(timestamp: string, method: string, pathAndQuery: string, body: Uint8Array | string): Buffer {
  const head = Buffer.from(`${timestamp}.${method.toUpperCase()}.${pathAndQuery}.`, 'utf8');
  return Buffer.concat([head, typeof body === 'string' ? Buffer.from(body, 'utf8') : body]);
}

/**
 * The version-2 signature of a request, as 64 lowercase hex characters (without the `v2=` prefix).
 * @param timestamp Unix seconds, as sent in `X-Signature-Timestamp`
 */
export function signV2(
  secret: string,
  timestamp: string | number,
  method: string,
  pathAndQuery: string,
  body: Uint8Array | string,
): string {
  return signBody(secret, v2Message(String(timestamp), method, pathAndQuery, body));
}

/**
 * Checks the hex of a version-2 signature (what follows `v2=`) in constant time; upper-case hex accepted,
 * anything that is not 64 hex characters is wrong (never an exception).
 */
export function verifyV2(
  secret: string,
  timestamp: string,
  method: string,
  pathAndQuery: string,
  body: Uint8Array | string,
  hex: string,
): boolean {
  return verifySignature(secret, v2Message(timestamp, method, pathAndQuery, body), hex);
}
