/**
 * `bizapi sign`: computes the `X-Signature` of a request, version 1 or 2 (docs/authentication.md#computing-signatures,
 * docs/authentication.md#signature-version-2).
 */
import fs from 'node:fs';
import { signBody, signV2 } from '../modules/auth/hmac.ts';
import { type CliContext, CliError, printJson } from './context.ts';

/** Options of `sign`. */
export interface SignOptions {
  secret?: string;
  data?: string;
  file?: string;
  hex?: boolean;
  /** Sign version 2 (needs `method` and `path`). */
  v2?: boolean;
  method?: string;
  path?: string;
  /** Unix seconds for version 2; default now. */
  timestamp?: string;
}

/**
 * `sign --secret SECRET [--data BODY | --file PATH] [--hex]`: the lowercase hex HMAC-SHA256 of the exact
 * body bytes (the empty string when neither `--data` nor `--file` is given: a request without a body).
 * Prints `{"signature": "<hex>"}`, or with `--hex` only the hex and a newline, for shell substitution.
 * The secret may also come from `BIZAPI_SECRET_KEY`.
 *
 * `--v2 --method M --path P [--timestamp SECONDS]` signs version 2 (docs/authentication.md#signature-version-2):
 * prints `{"signature": "v2=<hex>", "timestamp": "<seconds>"}` (the values of `X-Signature` and
 * `X-Signature-Timestamp`), or with `--hex` only `v2=<hex>` and a newline. The timestamp defaults to now.
 * @throws CliError without a secret, or when the file cannot be read
 */
export function sign(ctx: CliContext, opts: SignOptions): void {
  const secret = opts.secret ?? ctx.env.BIZAPI_SECRET_KEY;
  if (secret === undefined || secret === '') throw new CliError('--secret (or BIZAPI_SECRET_KEY) is required.');
  let body: Uint8Array | string = opts.data ?? '';
  if (opts.file !== undefined) {
    try {
      body = fs.readFileSync(opts.file);
    } catch (err) {
      throw new CliError(`Cannot read ${opts.file}: ${(err as Error).message}`);
    }
  }
  if (opts.v2) {
    if (!opts.method || !/^[A-Za-z]+$/.test(opts.method))
      throw new CliError('--v2 needs --method (GET, POST, PATCH, DELETE, …).');
    if (!opts.path || !opts.path.startsWith('/'))
      throw new CliError('--v2 needs --path: the path and query exactly as sent, e.g. /v1/client?page_size=5.');
    const timestamp = opts.timestamp ?? String(Math.floor(Date.now() / 1000));
    if (!/^\d{1,12}$/.test(timestamp)) throw new CliError('--timestamp must be Unix seconds (digits only).');
    const signature = `v2=${signV2(secret, timestamp, opts.method, opts.path, body)}`;
    if (opts.hex) process.stdout.write(`${signature}\n`);
    else printJson({ signature, timestamp });
    return;
  }
  const signature = signBody(secret, body);
  if (opts.hex) process.stdout.write(`${signature}\n`);
  else printJson({ signature });
}
