/**
 * The one HTTP client of what bizapi sends out on its own: webhook deliveries (docs/webhooks.md#delivery) and
 * notification pushes (README.md#notifications). Built on undici: one POST, no redirects followed, no
 * connection kept open after it, the whole exchange bounded by a timeout, at most a few KiB of the answer
 * read. A tenant's receiver is reached through the public-only agent: the addresses a host name resolves to
 * are checked by {@link isPublicAddress} in the socket's own `lookup`, so a name that changes its answer
 * between the URL check and the delivery is still refused (docs/webhooks.md#url-safety); the operator's own
 * URLs (`PUSH_WEBHOOK_URL`) and `BIZAPI_WEBHOOK_ALLOW_PRIVATE=true` use the agent without that check.
 */
import dns from 'node:dns';
import net from 'node:net';
import { Agent, request } from 'undici';
import { isPublicAddress } from './public-address.ts';

/** What one POST gave. */
export interface PostResult {
  /** The answer's status code (`null`: no answer). */
  statusCode: number | null;
  /**
   * Why it failed (`null` for a 2xx): `HTTP 503`, `HTTP 302: redirect not followed`, `timeout after 10000 ms`,
   * `10.0.0.5 is not a public address`, `<host> resolves to <address>, which is not a public address`, or the
   * network error's message.
   */
  error: string | null;
  /** The first `maxResponseBytes` of the answer's body, as text, NUL characters removed (`null`: no answer). */
  response: string | null;
  /** Milliseconds from the start to the end of the exchange. */
  durationMs: number;
}

/** Options of {@link post}. */
export interface PostOptions {
  /**
   * Connect to any address: loopback, private networks (`BIZAPI_WEBHOOK_ALLOW_PRIVATE`, or an operator's own
   * URL). Otherwise only public unicast addresses ({@link isPublicAddress}).
   */
  allowPrivate: boolean;
  /** Total time of the request, from connecting to the end of the (truncated) answer, in milliseconds. */
  timeoutMs: number;
  /** Bytes of the answer read and kept; the connection is closed once they are in (default 4096). */
  maxResponseBytes?: number;
}

/** An error refusing a non-public address (the socket's `lookup` raises it, so the connection never starts). */
class NotPublicError extends Error {
  readonly code = 'ENOTPUBLIC';
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * `dns.lookup` that refuses names resolving to a non-public address ({@link isPublicAddress}): the check runs
 * on the very addresses the socket then connects to.
 */
const publicOnlyLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, options, (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => {
    const done = callback as LookupCallback;
    if (err) return done(err, address, family);
    const list = Array.isArray(address) ? address.map((a) => a.address) : [address];
    const refused = list.find((a) => !isPublicAddress(a));
    if (refused !== undefined) return done(new NotPublicError(`${hostname} resolves to ${refused}, which is not a public address`), address, family);
    return done(null, address, family);
  });
};

/**
 * The two agents, made on first use: `pipelining: 0` closes each connection after its one request (a
 * receiver is never sent a request on a socket it may have timed out meanwhile, and no tenant's sockets stay
 * open in this process).
 */
const agents: { publicOnly?: Agent; any?: Agent } = {};

function agentFor(allowPrivate: boolean): Agent {
  if (allowPrivate) return (agents.any ??= new Agent({ pipelining: 0 }));
  return (agents.publicOnly ??= new Agent({ pipelining: 0, connect: { lookup: publicOnlyLookup } }));
}

function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  return err.message || (err as NodeJS.ErrnoException).code || err.name;
}

/**
 * POSTs `body` to `url` once: no redirects followed (a 3xx is reported as `HTTP 3xx: redirect not followed`),
 * no connection reuse, the address connected to checked unless `allowPrivate`, the whole exchange bounded by
 * `timeoutMs` (an answer whose headers came in time but whose body did not is kept as far as it came), at most
 * `maxResponseBytes` of the answer read. Never throws: a failure is in the result (`error`); a 2xx is success.
 */
export async function post(url: string, body: string, headers: Record<string, string>, options: PostOptions): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const maxBytes = options.maxResponseBytes ?? 4096;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { statusCode: null, error: 'invalid URL', response: null, durationMs: 0 };
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    return { statusCode: null, error: `unsupported scheme ${target.protocol}`, response: null, durationMs: 0 };
  }
  // an address literal is connected to without a lookup: judged here
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!options.allowPrivate && net.isIP(host) !== 0 && !isPublicAddress(host)) {
    return { statusCode: null, error: `${host} is not a public address`, response: null, durationMs: 0 };
  }

  const abort = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.abort();
  }, options.timeoutMs);
  let statusCode: number | null = null;
  const chunks: Buffer[] = [];
  let error: string | null = null;
  try {
    const res = await request(target, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      body,
      dispatcher: agentFor(options.allowPrivate),
      signal: abort.signal,
    });
    statusCode = res.statusCode;
    let size = 0;
    try {
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= maxBytes) break;
      }
    } catch {
      // the answer's body broke off or timed out after its status came: the status stands
    } finally {
      res.body.destroy();
    }
  } catch (err) {
    error = timedOut ? `timeout after ${options.timeoutMs} ms` : errorText(err);
  } finally {
    clearTimeout(timer);
  }
  if (error === null && statusCode !== null && (statusCode < 200 || statusCode > 299)) {
    error = statusCode >= 300 && statusCode < 400 ? `HTTP ${statusCode}: redirect not followed` : `HTTP ${statusCode}`;
  }
  const response = statusCode === null ? null : Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8').replaceAll('\u0000', '');
  return { statusCode, error, response, durationMs: elapsed() };
}
