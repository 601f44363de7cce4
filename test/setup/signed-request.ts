/**
 * Sends signed requests through `app.inject`, the way an integrator's client does: `X-API-Key` plus
 * `X-Signature` = HMAC-SHA256 hex of the exact body bytes.
 */
import type { Readable } from 'node:stream';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { signBody } from '../../src/modules/auth/hmac.ts';
import { checkResponse, loadDocument } from './openapi-document.ts';

/** Credentials of one API key. */
export interface Credentials {
  apiKey: string;
  secretKey: string;
}

/** A request to send. `body` objects are sent as JSON unless `form` says otherwise. */
export interface SignedRequest {
  method: 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
  url: string;
  body?: unknown;
  /** Send the body urlencoded (`urlencoded`) or as multipart (`multipart`) instead of JSON. */
  form?: 'urlencoded' | 'multipart';
  /**
   * Raw body bytes, sent as given, with their content type (none when omitted). A stream is sent as it
   * comes (chunked); it cannot be signed, so it goes with no credentials or with `signature` set.
   */
  raw?: { payload: string | Buffer | Readable; contentType?: string };
  /** `false` sends no X-Signature; a string sends that signature instead of the right one. */
  signature?: false | string;
  /** Send the right signature in upper-case hex. */
  upperCaseSignature?: boolean;
  headers?: Record<string, string>;
}

/** Encodes a flat record `{ 'client.id': 5 }` as urlencoded text. */
export function urlencoded(fields: Record<string, string | number | boolean>): string {
  return new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])).toString();
}

/** Encodes a flat record as a multipart body with a fixed boundary. */
export function multipart(fields: Record<string, string | number | boolean>): { payload: string; contentType: string } {
  const boundary = '----bizapitestboundary';
  const parts = Object.entries(fields).map(
    ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${String(v)}\r\n`,
  );
  return { payload: `${parts.join('')}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Sends one request signed with `creds` (or unsigned / wrongly signed, as `req.signature` says). */
export async function send(
  app: FastifyInstance,
  creds: Credentials | undefined,
  req: SignedRequest,
): Promise<LightMyRequestResponse> {
  let payload: string | Buffer | Readable | undefined;
  let contentType: string | undefined;
  if (req.raw) {
    payload = req.raw.payload;
    contentType = req.raw.contentType;
  } else if (req.body !== undefined) {
    if (req.form === 'urlencoded') {
      payload = urlencoded(req.body as Record<string, string>);
      contentType = 'application/x-www-form-urlencoded';
    } else if (req.form === 'multipart') {
      ({ payload, contentType } = multipart(req.body as Record<string, string>));
    } else {
      payload = JSON.stringify(req.body);
      contentType = 'application/json';
    }
  }
  const headers: Record<string, string> = { ...req.headers };
  if (contentType) headers['content-type'] = contentType;
  if (creds) {
    headers['x-api-key'] = creds.apiKey;
    if (req.signature === undefined) {
      if (typeof payload === 'object' && !Buffer.isBuffer(payload))
        throw new Error('a streamed body cannot be signed: send it with no credentials or with `signature` set');
      const signature = signBody(creds.secretKey, payload ?? '');
      headers['x-signature'] = req.upperCaseSignature ? signature.toUpperCase() : signature;
    } else if (req.signature !== false) headers['x-signature'] = req.signature;
  }
  const res = await app.inject({ method: req.method, url: req.url, payload, headers });
  if (process.env.BIZAPI_CONFORMANCE !== 'off') {
    // Response conformance (issue 8): every answer a test receives must match the document's schema for
    // its operation and status. BIZAPI_CONFORMANCE=off disables the check (to see a test's own failure first).
    const problems = checkResponse(await loadDocument(app), req.method, req.url, res.statusCode, res.body);
    if (problems.length > 0)
      throw new Error(`response does not conform to the OpenAPI document:\n${problems.join('\n')}`);
  }
  return res;
}

/** Sends a request and parses the JSON body. */
export async function sendJson<T = any>(
  app: FastifyInstance,
  creds: Credentials | undefined,
  req: SignedRequest,
): Promise<{ status: number; body: T; headers: LightMyRequestResponse['headers'] }> {
  const res = await send(app, creds, req);
  return { status: res.statusCode, body: (res.body ? JSON.parse(res.body) : undefined) as T, headers: res.headers };
}
