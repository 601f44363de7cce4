/**
 * Shared by the examples: a client from the environment (`BIZAPI_URL`, default http://127.0.0.1:8000 — the old
 * name `BIZAPI_BASE_URL` still works, with a deprecation line on stderr;
 * `BIZAPI_API_KEY`, `BIZAPI_SECRET_KEY` as `npm start` prints them), and "run main when executed directly".
 */
import { fileURLToPath } from 'node:url';
import { type Bizapi, createBizapi } from '../sdk/src/index.ts';

/** Environment variables the examples read. */
export type Env = Record<string, string | undefined>;

/** A client configured from `env`. @throws Error without key or secret */
export function clientFromEnv(env: Env): Bizapi {
  const apiKey = env.BIZAPI_API_KEY;
  const secretKey = env.BIZAPI_SECRET_KEY;
  if (!apiKey || !secretKey) throw new Error('Set BIZAPI_API_KEY and BIZAPI_SECRET_KEY (npm start prints them).');
  let baseUrl = env.BIZAPI_URL || undefined;
  if (baseUrl === undefined && env.BIZAPI_BASE_URL) {
    process.stderr.write('BIZAPI_BASE_URL is deprecated; use BIZAPI_URL\n');
    baseUrl = env.BIZAPI_BASE_URL;
  }
  return createBizapi({ baseUrl: baseUrl ?? 'http://127.0.0.1:8000', apiKey, secretKey });
}

/** Runs `main(process.env)` when `moduleUrl` is the script node was started with; prints its JSON result. */
export function runIfMain(moduleUrl: string, main: (env: Env) => Promise<unknown>): void {
  if (process.argv[1] !== fileURLToPath(moduleUrl)) return;
  main(process.env).then(
    (result) => process.stdout.write(`${JSON.stringify(result, null, 2)}\n`),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
