/**
 * The one HTTP client of what bizapi sends out on its own: webhook deliveries (docs/webhooks.md#delivery),
 * notification pushes (README.md#notifications) and the attachment downloads of `bizapi import --from`
 * (docs/deployment.md#source-limits). Built on undici: one request, no connection kept open after it, the
 * whole exchange bounded by a timeout, the answer read up to a limit. {@link post} follows no redirect;
 * {@link get} follows a few, each hop checked again. A tenant's (or a source's) URL is reached through the
 * public-only agent: the addresses a host name resolves to are checked by {@link isPublicAddress} in the
 * socket's own `lookup`, so a name that changes its answer between the URL check and the request is still
 * refused (docs/webhooks.md#url-safety); the operator's own URLs (`PUSH_WEBHOOK_URL`),
 * `BIZAPI_WEBHOOK_ALLOW_PRIVATE=true` and `BIZAPI_IMPORT_ALLOW_PRIVATE=true` use an agent without that check
 * (the import's still refuses the cloud metadata addresses).
 */
import dns from 'node:dns';
import net from 'node:net';
import { Agent, request } from 'undici';
import { isMetadataAddress, isPublicAddress } from './public-address.ts';
import { errorText } from './log-format.ts';

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

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * A `dns.lookup` that refuses names resolving to an address `admitted` refuses: the check runs on the very
 * addresses the socket then connects to. `what` names the refused kind in the error.
 */
function checkedLookup(admitted: (address: string) => boolean, what: string): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(
      hostname,
      options,
      (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => {
        const done = callback as LookupCallback;
        if (err) return done(err, address, family);
        const list = Array.isArray(address) ? address.map((a) => a.address) : [address];
        const refused = list.find((a) => !admitted(a));
        if (refused !== undefined)
          return done(new NotPublicError(`${hostname} resolves to ${refused}, which is ${what}`), address, family);
        return done(null, address, family);
      },
    );
  };
}

/**
 * The agents, made on first use: `pipelining: 0` closes each connection after its one request (a receiver is
 * never sent a request on a socket it may have timed out meanwhile, and no tenant's sockets stay open in this
 * process). `publicOnly` admits public addresses only; `noMetadata` any but the cloud metadata addresses
 * (the import's allowance); `any` every address.
 */
const agents: { publicOnly?: Agent; noMetadata?: Agent; any?: Agent } = {};

/** Which addresses a request may connect to: public only, any but the metadata services, or any. */
type Reach = 'public' | 'no-metadata' | 'any';

function agentFor(reach: Reach): Agent {
  if (reach === 'any') return (agents.any ??= new Agent({ pipelining: 0 }));
  if (reach === 'no-metadata') {
    return (agents.noMetadata ??= new Agent({
      pipelining: 0,
      connect: { lookup: checkedLookup((a) => !isMetadataAddress(a), 'a cloud metadata address') },
    }));
  }
  return (agents.publicOnly ??= new Agent({
    pipelining: 0,
    connect: { lookup: checkedLookup(isPublicAddress, 'not a public address') },
  }));
}

/** Why an address literal may not be connected to under `reach`, or `undefined` when it may (names are judged by the agent's lookup). */
function refusedLiteral(host: string, reach: Reach): string | undefined {
  if (net.isIP(host) === 0 || reach === 'any') return undefined;
  if (reach === 'public' && !isPublicAddress(host)) return `${host} is not a public address`;
  if (isMetadataAddress(host)) return `${host} is a cloud metadata address`;
  return undefined;
}

/**
 * POSTs `body` to `url` once: no redirects followed (a 3xx is reported as `HTTP 3xx: redirect not followed`),
 * no connection reuse, the address connected to checked unless `allowPrivate`, the whole exchange bounded by
 * `timeoutMs` (an answer whose headers came in time but whose body did not is kept as far as it came), at most
 * `maxResponseBytes` of the answer read. Never throws: a failure is in the result (`error`); a 2xx is success.
 */
export async function post(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: PostOptions,
): Promise<PostResult> {
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
      dispatcher: agentFor(options.allowPrivate ? 'any' : 'public'),
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
  const response =
    statusCode === null ? null : Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8').replaceAll('\u0000', '');
  return { statusCode, error, response, durationMs: elapsed() };
}

/** Options of {@link get}. */
export interface GetOptions {
  /**
   * Connect to loopback, private and other non-public addresses too (`BIZAPI_IMPORT_ALLOW_PRIVATE`), but
   * never to a cloud metadata address. Otherwise only public unicast addresses ({@link isPublicAddress}), on
   * every hop.
   */
  allowPrivate: boolean;
  /** Total time of the request, redirects included, from the first connection to the end of the answer, in milliseconds. */
  timeoutMs: number;
  /** Largest answer body in bytes: a longer one (declared or sent) is refused, not truncated. */
  maxBytes: number;
  /** Redirects followed at most (default 5); each target is checked as the first URL was. */
  maxRedirects?: number;
  /** Request headers, sent to every hop. */
  headers?: Record<string, string>;
}

/** What one GET gave. */
export interface GetResult {
  /** The final answer's status code (`null`: no answer, or a refused hop). */
  statusCode: number | null;
  /**
   * Why it failed (`null` for a 2xx with its whole body): `HTTP 404`, `timeout after 30000 ms`, `answer larger
   * than 1048576 bytes`, `more than 5 redirects`, `10.0.0.5 is not a public address`, `<host> resolves to
   * <address>, which is not a public address`, `169.254.169.254 is a cloud metadata address`, `unsupported
   * scheme ftp:`, or the network error's message. A redirect's failure names its target (`redirect to <url>: …`).
   */
  error: string | null;
  /**
   * Whether the failure is a refusal that a retry cannot change: an address not admitted, an answer over
   * `maxBytes`, too many redirects, a bad URL. `false` for a 2xx, an HTTP error status, a timeout or a network error.
   */
  refused: boolean;
  /** The whole body of a 2xx answer (`null` otherwise). */
  body: Buffer | null;
  /** The final answer's `Retry-After` header, when it has one. */
  retryAfter: string | undefined;
  /** The URL of the last hop. */
  url: string;
  /** Milliseconds from the start to the end of the exchange. */
  durationMs: number;
}

/**
 * GETs `url` (docs/deployment.md#source-limits): redirects followed by hand (301, 302, 303, 307, 308 with a
 * `Location`), at most `maxRedirects`, each target judged again (scheme, address literal, the agent's lookup),
 * no connection reuse, the whole exchange bounded by `timeoutMs`, the body refused beyond `maxBytes` (by its
 * `Content-Length` before reading, else once that many bytes came). Never throws: a failure is in the result.
 */
export async function get(url: string, options: GetOptions): Promise<GetResult> {
  const started = performance.now();
  const reach: Reach = options.allowPrivate ? 'no-metadata' : 'public';
  const maxRedirects = options.maxRedirects ?? 5;
  const abort = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.abort();
  }, options.timeoutMs);
  const result = (
    current: string,
    statusCode: number | null,
    error: string | null,
    refused: boolean,
    body: Buffer | null = null,
    retryAfter?: string,
  ): GetResult => ({
    statusCode,
    error,
    refused,
    body,
    retryAfter,
    url: current,
    durationMs: Math.round(performance.now() - started),
  });
  let current = url;
  let hopNote = '';
  try {
    for (let hop = 0; ; hop++) {
      let target: URL;
      try {
        target = new URL(current);
      } catch {
        return result(current, null, `${hopNote}invalid URL`, true);
      }
      if (target.protocol !== 'http:' && target.protocol !== 'https:')
        return result(current, null, `${hopNote}unsupported scheme ${target.protocol}`, true);
      const literal = refusedLiteral(target.hostname.replace(/^\[(.*)\]$/, '$1'), reach);
      if (literal !== undefined) return result(current, null, `${hopNote}${literal}`, true);
      let res: Awaited<ReturnType<typeof request>>;
      try {
        res = await request(target, {
          method: 'GET',
          headers: options.headers ?? {},
          dispatcher: agentFor(reach),
          signal: abort.signal,
        });
      } catch (err) {
        if (timedOut) return result(current, null, `${hopNote}timeout after ${options.timeoutMs} ms`, false);
        return result(
          current,
          null,
          `${hopNote}${errorText(err)}`,
          err instanceof NotPublicError || (err as { cause?: unknown }).cause instanceof NotPublicError,
        );
      }
      // the body may be destroyed unread (a redirect, an error status, too large): its abort is no failure
      res.body.on('error', () => undefined);
      const header = (name: string): string | undefined => {
        const v = res.headers[name];
        return Array.isArray(v) ? v[0] : v;
      };
      const location = header('location');
      if ([301, 302, 303, 307, 308].includes(res.statusCode) && location !== undefined) {
        res.body.destroy();
        if (hop >= maxRedirects) return result(current, res.statusCode, `more than ${maxRedirects} redirects`, true);
        current = new URL(location, target).href;
        hopNote = `redirect to ${current}: `;
        continue;
      }
      if (res.statusCode < 200 || res.statusCode > 299) {
        res.body.destroy();
        return result(current, res.statusCode, `${hopNote}HTTP ${res.statusCode}`, false, null, header('retry-after'));
      }
      const tooLarge = () =>
        result(current, res.statusCode, `${hopNote}answer larger than ${options.maxBytes} bytes`, true);
      if (Number(header('content-length') ?? 0) > options.maxBytes) {
        res.body.destroy();
        return tooLarge();
      }
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of res.body as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size > options.maxBytes) return tooLarge();
          chunks.push(chunk);
        }
      } catch (err) {
        return result(
          current,
          res.statusCode,
          `${hopNote}${timedOut ? `timeout after ${options.timeoutMs} ms` : errorText(err)}`,
          false,
        );
      } finally {
        res.body.destroy();
      }
      return result(current, res.statusCode, null, false, Buffer.concat(chunks, size));
    }
  } finally {
    clearTimeout(timer);
  }
}
