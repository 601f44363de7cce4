/**
 * Shared by the examples: a client from the environment (`BIZAPI_BASE_URL`, default http://127.0.0.1:8000;
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
  return createBizapi({ baseUrl: env.BIZAPI_BASE_URL ?? 'http://127.0.0.1:8000', apiKey, secretKey });
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
