/**
 * `bizapi request`: sends one signed request to a bizapi server and prints the response
 * (docs/authentication.md#computing-signatures).
 */
import type { Config } from '../config.ts';
import { signBody, signV2 } from '../modules/auth/hmac.ts';
import { apiUrl, type CliContext, CliError, printJson } from './context.ts';

/** `http://HOST:PORT` of the configured server, reachable from this machine (a wildcard host becomes loopback). */
export function defaultBaseUrl(config: Pick<Config, 'host' | 'port'>): string {
  let host = config.host;
  if (host === '0.0.0.0' || host === '') host = '127.0.0.1';
  else if (host === '::' || host === '[::]') host = '::1';
  if (host.includes(':') && !host.startsWith('[')) host = `[${host}]`;
  return `http://${host}:${config.port}`;
}

/** Joins a base URL (which may carry a path prefix) and a request path; an absolute URL is used as is. */
export function joinUrl(baseUrl: string, path: string): string {
  if (/^https?:\/\//i.test(path)) return path;
  return `${baseUrl.replace(/\/+$/, '')}${path.startsWith('/') ? '' : '/'}${path}`;
}

/** The methods `request` sends (another one never reaches the API: Node's HTTP parser refuses it). */
const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

/** Options of `request`. */
export interface RequestOptions {
  data?: string;
  /** `--url`: the server's address (README.md#your-first-signed-request). */
  url?: string;
  /** `--base-url`: the old name of `--url` (deprecated). */
  baseUrl?: string;
  key?: string;
  secret?: string;
  /** Follow `next` across every page of a list and print one array of all `results`. */
  all?: boolean;
  /** Sign version 2 (timestamp, method, path and query, body) instead of version 1. */
  v2?: boolean;
  /** Sent as `Idempotency-Key`. */
  idempotencyKey?: string;
}

/**
 * `request METHOD PATH [--data BODY] [--url URL] [--all] --key KEY --secret SECRET` (`--all`: see {@link requestAll}).
 *
 * Sends `X-API-Key`, `X-Signature` (over the exact body bytes; the empty string without a body) and, with a
 * body, `Content-Type: application/json`. Prints the response body when it is JSON, `{"status": N}` when
 * there is none (204 after a DELETE), else `{"status": N, "body": "<text>"}`; sets exit code 0 for a 2xx status, 1 otherwise (still printing the
 * body). `--v2` signs version 2 instead (`X-Signature-Timestamp` = now, `X-Signature: v2=…` over the timestamp,
 * the method, the path and query as sent and the body; docs/authentication.md#signature-version-2; a
 * `403 signature_replayed` — the same request already sent this second — is signed again with the next second);
 * `--idempotency-key KEY` sends `Idempotency-Key` (docs/api.md#idempotent-retries). Key and secret default to `BIZAPI_API_KEY` / `BIZAPI_SECRET_KEY`; the address to `BIZAPI_URL`, else `http://127.0.0.1:8000` (old names: {@link apiUrl}).
 * @throws CliError without key or secret, for a malformed method, or when the server cannot be reached
 */
export async function request(ctx: CliContext, method: string, path: string, opts: RequestOptions): Promise<void> {
  const apiKey = opts.key ?? ctx.env.BIZAPI_API_KEY;
  const secret = opts.secret ?? ctx.env.BIZAPI_SECRET_KEY;
  if (apiKey === undefined || apiKey === '') throw new CliError('--key (or BIZAPI_API_KEY) is required.');
  if (secret === undefined || secret === '') throw new CliError('--secret (or BIZAPI_SECRET_KEY) is required.');
  if (!/^[A-Za-z]+$/.test(method)) throw new CliError(`"${method}" is not an HTTP method.`);
  if (!HTTP_METHODS.includes(method.toUpperCase()))
    throw new CliError(`"${method}" is not an HTTP method bizapi answers: use one of ${HTTP_METHODS.join(', ')}.`);

  const url = joinUrl(
    apiUrl(ctx, opts, () => defaultBaseUrl(ctx.config())),
    path,
  );
  if (opts.all === true) {
    if (method.toUpperCase() !== 'GET') throw new CliError('--all follows the pages of a list: use it with GET.');
    if (opts.data !== undefined) throw new CliError('--all takes no --data.');
    return requestAll(url, apiKey, secret, opts);
  }
  const { response, text } = await send(url, method, apiKey, secret, opts.data, opts);
  let json: unknown;
  if (text === '') {
    json = { status: response.status }; // 204 No Content (a DELETE): the status, no empty body
  } else {
    try {
      json = JSON.parse(text);
    } catch {
      json = { status: response.status, body: text };
    }
  }
  printJson(json);
  if (response.status < 200 || response.status > 299) {
    process.stderr.write(`HTTP ${response.status} ${response.statusText}\n`);
    process.exitCode = 1;
  }
}

/** Sends one signed request; returns the response and its body text. */
async function send(
  url: string,
  method: string,
  apiKey: string,
  secret: string,
  body: string | undefined,
  opts: Pick<RequestOptions, 'v2' | 'idempotencyKey'>,
): Promise<{ response: Response; text: string }> {
  const headers: Record<string, string> = { 'X-API-Key': apiKey, Accept: 'application/json' };
  let target: URL | undefined;
  if (opts.v2) {
    try {
      target = new URL(url);
    } catch {
      throw new CliError(`"${url}" is not a valid URL.`);
    }
  } else {
    headers['X-Signature'] = signBody(secret, body ?? '');
  }
  if (opts.idempotencyKey !== undefined) headers['Idempotency-Key'] = opts.idempotencyKey;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const now = Math.floor(Date.now() / 1000);
  for (let resigned = 0; ; resigned++) {
    if (target !== undefined) {
      // The same request already sent with this second's timestamp (by an earlier run) is a replay: each
      // re-sign takes the next second, within the server's 300-second window.
      const timestamp = String(now + resigned);
      headers['X-Signature-Timestamp'] = timestamp;
      headers['X-Signature'] =
        `v2=${signV2(secret, timestamp, method, `${target.pathname}${target.search}`, body ?? '')}`;
    }
    let response: Response;
    try {
      response = await fetch(url, { method: method.toUpperCase(), headers, body });
    } catch (err) {
      const cause = (err as Error & { cause?: Error }).cause;
      throw new CliError(`Request to ${url} failed: ${cause?.message ?? (err as Error).message}`);
    }
    const text = await response.text();
    if (
      target !== undefined &&
      response.status === 403 &&
      resigned < MAX_RESIGN &&
      errorCode(text) === 'signature_replayed'
    )
      continue;
    return { response, text };
  }
}

/** How many times a version-2 request answered `403 signature_replayed` is signed again (a later second each). */
const MAX_RESIGN = 30;

/** The `code` of an error body (docs/api.md#errors), or undefined. */
function errorCode(text: string): unknown {
  try {
    return (JSON.parse(text) as { code?: unknown } | null)?.code;
  } catch {
    return undefined;
  }
}

/**
 * `request GET PATH --all`: fetches the first page, then each `next` link (absolute URLs, docs/api.md#pagination)
 * until it is `null`, and prints one JSON array of every page's `results`. A non-2xx page prints its body,
 * the status on stderr, and exits 1 without printing the partial array.
 * @throws CliError when a page is not a paged list (`{next, results}`) or the server cannot be reached
 */
async function requestAll(
  firstUrl: string,
  apiKey: string,
  secret: string,
  opts: Pick<RequestOptions, 'v2'>,
): Promise<void> {
  const all: unknown[] = [];
  let url: string | null = firstUrl;
  while (url !== null) {
    const { response, text }: { response: Response; text: string } = await send(url, 'GET', apiKey, secret, undefined, {
      v2: opts.v2,
    });
    let page: { next?: unknown; results?: unknown };
    try {
      page = JSON.parse(text) as typeof page;
    } catch {
      page = {};
    }
    if (response.status < 200 || response.status > 299) {
      printJson(
        typeof page === 'object' && page !== null && Object.keys(page).length > 0
          ? page
          : { status: response.status, body: text },
      );
      process.stderr.write(`HTTP ${response.status} ${response.statusText}\n`);
      process.exitCode = 1;
      return;
    }
    if (page === null || typeof page !== 'object' || !Array.isArray(page.results))
      throw new CliError(`${url} is not a paged list (no "results"); drop --all.`);
    all.push(...page.results);
    url = typeof page.next === 'string' && page.next !== '' ? page.next : null;
  }
  printJson(all);
}
