/** `bizapi sign` (decisions §3): computes the `X-Signature` of a request body. */
import fs from 'node:fs';
import { signBody } from '../modules/auth/hmac.ts';
import { type CliContext, CliError, printJson } from './context.ts';

/** Options of `sign`. */
export interface SignOptions {
  secret?: string;
  data?: string;
  file?: string;
  hex?: boolean;
}

/**
 * `sign --secret SECRET [--data BODY | --file PATH] [--hex]`: the lowercase hex HMAC-SHA256 of the exact
 * body bytes (the empty string when neither `--data` nor `--file` is given: a request without a body).
 * Prints `{"signature": "<hex>"}`, or with `--hex` only the hex and a newline, for shell substitution.
 * The secret may also come from `BIZAPI_SECRET_KEY`.
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
  const signature = signBody(secret, body);
  if (opts.hex) process.stdout.write(`${signature}\n`);
  else printJson({ signature });
}
