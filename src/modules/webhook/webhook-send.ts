/**
 * Sending one webhook request (docs/webhooks.md#delivery): `node:http`/`node:https`, no redirects followed, no
 * connection reuse, the address connected to checked by a public-only `lookup` (docs/webhooks.md#url-safety),
 * the whole exchange bounded by a timeout, the answer read up to 4 KiB. Knows nothing of deliveries or the
 * database: webhook-delivery.service.ts makes the attempts and records them.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { isPublicAddress } from './url-safety.ts';

/** Total time one request may take, from connecting to the end of the (truncated) answer: 10 s. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** Bytes of the receiver's answer that are read and kept: 4 KiB. */
export const MAX_RESPONSE_BYTES = 4096;

/** What one HTTP attempt gave. */
export interface SendResult {
  /** The answer's status code (`null`: no answer). */
  statusCode: number | null;
  /** Why it failed (`null` for a 2xx). */
  error: string | null;
  /** The first {@link MAX_RESPONSE_BYTES} bytes of the answer's body, as text (`null`: no answer). */
  response: string | null;
  durationMs: number;
}

/** Options of {@link send}. */
export interface SendOptions {
  /** Allow loopback, private and other non-public addresses (`BIZAPI_WEBHOOK_ALLOW_PRIVATE`). */
  allowPrivate: boolean;
  /** Total time of the request (default {@link DELIVERY_TIMEOUT_MS}). */
  timeoutMs?: number;
}

/** An error refusing a non-public address. */
class NotPublicError extends Error {
  readonly code = 'ENOTPUBLIC';
}

/**
 * `dns.lookup` that refuses names resolving to a non-public address ({@link isPublicAddress}): the check
 * runs on the very addresses the socket then connects to, so a name that changes its answer between the
 * URL check and the delivery is still refused.
 */
const publicOnlyLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, options, (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => {
    if (err) return (callback as (...args: unknown[]) => void)(err, address, family);
    const list = Array.isArray(address) ? address.map((a) => a.address) : [address];
    const refused = list.find((a) => !isPublicAddress(a));
    if (refused !== undefined) {
      return (callback as (...args: unknown[]) => void)(new NotPublicError(`${hostname} resolves to ${refused}, which is not a public address`), address, family);
    }
    return (callback as (...args: unknown[]) => void)(null, address, family);
  });
};

function errorText(err: unknown): string {
  return err instanceof Error ? err.message || (err as NodeJS.ErrnoException).code || err.name : String(err);
}

/**
 * POSTs `body` to `url` once (docs/webhooks.md#delivery): no redirects followed, no connection reuse, the
 * address connected to checked unless `allowPrivate`, the whole exchange bounded by `timeoutMs`, at most
 * {@link MAX_RESPONSE_BYTES} of the answer read (then the socket is closed). Never throws: a failure is in
 * the result (`error`). A 2xx is success; a 3xx is reported as a redirect not followed.
 */
export function send(url: string, body: string, headers: Record<string, string>, options: SendOptions): Promise<SendResult> {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve({ statusCode: null, error: 'invalid URL', response: null, durationMs: 0 });
      return;
    }
    const client = target.protocol === 'https:' ? https : target.protocol === 'http:' ? http : undefined;
    if (!client) {
      resolve({ statusCode: null, error: `unsupported scheme ${target.protocol}`, response: null, durationMs: 0 });
      return;
    }
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    if (!options.allowPrivate && net.isIP(host) !== 0 && !isPublicAddress(host)) {
      resolve({ statusCode: null, error: `${host} is not a public address`, response: null, durationMs: 0 });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let statusCode: number | null = null;
    let done = false;
    const req = client.request(target, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      agent: false,
      ...(options.allowPrivate ? {} : { lookup: publicOnlyLookup }),
    });
    const finish = (error: string | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.destroy();
      const text = statusCode === null ? null : Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES).toString('utf8').replaceAll('\u0000', '');
      let failure = error;
      if (failure === null && statusCode !== null && (statusCode < 200 || statusCode > 299)) {
        failure = statusCode >= 300 && statusCode < 400 ? `HTTP ${statusCode}: redirect not followed` : `HTTP ${statusCode}`;
      }
      resolve({ statusCode, error: failure, response: text, durationMs: elapsed() });
    };
    const timer = setTimeout(() => finish(statusCode === null ? `timeout after ${timeoutMs} ms` : null), timeoutMs);
    req.on('response', (res) => {
      statusCode = res.statusCode ?? null;
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= MAX_RESPONSE_BYTES) finish(null);
      });
      res.on('end', () => finish(null));
      res.on('error', (err) => finish(statusCode === null ? errorText(err) : null));
    });
    req.on('error', (err) => finish(errorText(err)));
    req.end(body);
  });
}
