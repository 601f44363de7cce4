/** `bizapi request` (decisions §3): sends one signed request to a bizapi server and prints the response. */
import type { Config } from '../config.ts';
import { signBody, signV2 } from '../modules/auth/hmac.ts';
import { type CliContext, CliError, printJson } from './context.ts';

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

/** Options of `request`. */
export interface RequestOptions {
  data?: string;
  baseUrl?: string;
  key?: string;
  secret?: string;
  /** Sign version 2 (timestamp, method, path and query, body) instead of version 1. */
  v2?: boolean;
  /** Sent as `Idempotency-Key`. */
  idempotencyKey?: string;
}

/**
 * `request METHOD PATH [--data BODY] [--base-url URL] --key KEY --secret SECRET`.
 *
 * Sends `X-API-Key`, `X-Signature` (over the exact body bytes; the empty string without a body) and, with a
 * body, `Content-Type: application/json`. Prints the response body when it is JSON, else
 * `{"status": N, "body": "<text>"}`; sets exit code 0 for a 2xx status, 1 otherwise (still printing the
 * body). `--v2` signs version 2 instead (`X-Signature-Timestamp` = now, `X-Signature: v2=…` over the timestamp,
 * the method, the path and query as sent and the body; docs/authentication.md#signature-version-2);
 * `--idempotency-key KEY` sends `Idempotency-Key` (docs/api.md#idempotent-retries). Key and secret default to `BIZAPI_API_KEY` / `BIZAPI_SECRET_KEY`; the base URL to `http://HOST:PORT`.
 * @throws CliError without key or secret, for a malformed method, or when the server cannot be reached
 */
export async function request(ctx: CliContext, method: string, path: string, opts: RequestOptions): Promise<void> {
  const apiKey = opts.key ?? ctx.env.BIZAPI_API_KEY;
  const secret = opts.secret ?? ctx.env.BIZAPI_SECRET_KEY;
  if (apiKey === undefined || apiKey === '') throw new CliError('--key (or BIZAPI_API_KEY) is required.');
  if (secret === undefined || secret === '') throw new CliError('--secret (or BIZAPI_SECRET_KEY) is required.');
  if (!/^[A-Za-z]+$/.test(method)) throw new CliError(`"${method}" is not an HTTP method.`);

  const url = joinUrl(opts.baseUrl ?? defaultBaseUrl(ctx.config()), path);
  const body = opts.data;
  const headers: Record<string, string> = { 'X-API-Key': apiKey, Accept: 'application/json' };
  if (opts.v2) {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new CliError(`"${url}" is not a valid URL.`);
    }
    const timestamp = String(Math.floor(Date.now() / 1000));
    headers['X-Signature-Timestamp'] = timestamp;
    headers['X-Signature'] = `v2=${signV2(secret, timestamp, method, `${target.pathname}${target.search}`, body ?? '')}`;
  } else {
    headers['X-Signature'] = signBody(secret, body ?? '');
  }
  if (opts.idempotencyKey !== undefined) headers['Idempotency-Key'] = opts.idempotencyKey;
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(url, { method: method.toUpperCase(), headers, body });
  } catch (err) {
    const cause = (err as Error & { cause?: Error }).cause;
    throw new CliError(`Request to ${url} failed: ${cause?.message ?? (err as Error).message}`);
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = { status: response.status, body: text };
  }
  printJson(json);
  if (response.status < 200 || response.status > 299) {
    process.stderr.write(`HTTP ${response.status} ${response.statusText}\n`);
    process.exitCode = 1;
  }
}
