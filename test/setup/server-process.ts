/**
 * The server as it is deployed, for the tests that need real processes (signals, several processes on one
 * database, refused starts, lost database sessions): `bin/bizapi` children, their environment, and a signed
 * request over real HTTP.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { signBody } from '../../src/modules/auth/hmac.ts';
import { TEST_MASTER_KEY_HEX } from './build-test-app.ts';
import type { Credentials } from './signed-request.ts';
import { poolEnvOf } from './test-workers.ts';

/** The `bizapi` command of this checkout. */
export const BIN = fileURLToPath(new URL('../../bin/bizapi', import.meta.url));

/** What `bizapi serve` prints to stderr once it listens; group 1 is the port. */
export const LISTENING = /bizapi listening on http:\/\/127\.0\.0\.1:(\d+)/;

/**
 * The variables the server reads: a child gets none of them from the test process, only what it is given —
 * but for `DATABASE_POOL_MODE` and `DATABASE_DIRECT_URL`, which only the pooled run sets (test-workers.ts):
 * a child on a worker's `DATABASE_URL` goes through the same PgBouncer.
 */
const SERVER_VARIABLES = /^(BIZAPI_|DATABASE_URL$|HOST$|PORT$|REDIS_URL$|LOG_LEVEL$)/;

/** This process's environment without any variable the server reads (the base of every child's). */
export function cleanEnv(): NodeJS.ProcessEnv {
  const base = { ...process.env };
  for (const name of Object.keys(base)) if (SERVER_VARIABLES.test(name)) delete base[name];
  return base;
}

/** What a child server needs to know: its database, its data directory, and anything else to set. */
export interface ServerEnvOptions {
  databaseUrl: string;
  dataDir: string;
  /** Added last: overrides the defaults (`LOG_LEVEL`, `BIZAPI_DISPATCHER`, …). */
  env?: Record<string, string>;
}

/**
 * The environment of a child server: this process's without any server variable, then the test defaults —
 * the test master key, 127.0.0.1 on a free port, `LOG_LEVEL=warn`, no load shedding (a loaded CI machine must
 * not make these servers shed load) and no in-process dispatcher (on the shared PostgreSQL test database it
 * would deliver the outbox events of other test files running at the same time) — then `env`. In the
 * pooled run (test-workers.ts) a `databaseUrl` through PgBouncer comes with `DATABASE_POOL_MODE=transaction`
 * and `DATABASE_DIRECT_URL`.
 */
export function serverEnv(options: ServerEnvOptions): NodeJS.ProcessEnv {
  return {
    ...cleanEnv(),
    DATABASE_URL: options.databaseUrl,
    ...poolEnvOf(options.databaseUrl),
    BIZAPI_MASTER_KEY: TEST_MASTER_KEY_HEX,
    BIZAPI_DATA_DIR: options.dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    BIZAPI_MAX_EVENT_LOOP_DELAY: '0',
    BIZAPI_DISPATCHER: 'off',
    ...options.env,
  };
}

/** A running `bin/bizapi` child. */
export interface BizapiProcess {
  process: ChildProcess;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** Resolves with the exit code once it has exited. */
  exited: Promise<number | null>;
  /** The match of the `ready` pattern in its stderr. */
  match: RegExpExecArray;
  /** The match's first group as a number (the port, with {@link LISTENING}), or `NaN`. */
  port: number;
  /** Sends `signal` (default SIGTERM) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts `bin/bizapi <args>` with `env` (in the directory `cwd`, by default this process's) and resolves once
 * its stderr matches `ready` (by default, once `serve` listens); rejects with its stderr when it exits first.
 * With `logFile`, everything the child writes to stdout (its request log, `LOG_LEVEL`) and stderr is also
 * appended to that file as it comes (a diagnostic of the load scenarios); without it, stdout is dropped.
 */
export function startBizapi(
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp = LISTENING,
  cwd?: string,
  logFile?: string,
): Promise<BizapiProcess> {
  const log = logFile === undefined ? undefined : fs.createWriteStream(logFile, { flags: 'a' });
  const child = spawn(process.execPath, [BIN, ...args], {
    env,
    cwd,
    stdio: ['ignore', log ? 'pipe' : 'ignore', 'pipe'],
  });
  if (log) {
    child.stdout!.pipe(log, { end: false });
    // 'close': after the child's stdout and stderr have ended
    child.once('close', () => log.end());
  }
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      log?.write(chunk);
      stderr += chunk.toString();
      const match = ready.exec(stderr);
      if (match) {
        resolve({
          process: child,
          stderr: () => stderr,
          exited,
          match,
          port: Number(match[1]),
          stop: async (signal = 'SIGTERM') => {
            child.kill(signal);
            return exited;
          },
        });
      }
    });
    void exited.then((code) => reject(new Error(`bizapi ${args[0]} exited with ${code}:\n${stderr}`)));
  });
}

/** Starts `bizapi serve` on the test database with {@link serverEnv}; resolves once it listens. */
export function startServer(options: ServerEnvOptions): Promise<BizapiProcess> {
  return startBizapi(['serve'], serverEnv(options));
}

/**
 * Runs `bin/bizapi <args>` with `env` until it exits; a server that starts listening after all is stopped
 * (SIGTERM), so a test of a refused start cannot hang. Resolves with the exit code, stdout and stderr.
 */
export function runUntilExit(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => {
    stderr += c.toString();
    if (stderr.includes('bizapi listening')) child.kill('SIGTERM');
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

/** A response as the client saw it, or the error code that ended the exchange (`ECONNRESET`, …). */
export type Outcome = { status: number; headers: http.IncomingHttpHeaders; body: string } | { error: string };

/**
 * Sends one request signed as `creds` with Node's HTTP client (a JSON body when `body` is given) to
 * 127.0.0.1:`port`; `headers` are added. Never rejects: a failed exchange is an {@link Outcome} error.
 */
export function request(
  port: number,
  creds: Credentials,
  method: string,
  urlPath: string,
  body?: unknown,
  agent?: http.Agent,
  headers: Record<string, string> = {},
): Promise<Outcome> {
  const payload = body === undefined ? '' : JSON.stringify(body);
  const all: Record<string, string> = {
    'x-api-key': creds.apiKey,
    'x-signature': signBody(creds.secretKey, payload),
    ...headers,
  };
  if (payload) all['content-type'] = 'application/json';
  return new Promise((resolve) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path: urlPath, headers: all, agent: agent ?? false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        res.on('error', (err) => resolve({ error: (err as NodeJS.ErrnoException).code ?? err.message }));
      },
    );
    req.on('error', (err) => resolve({ error: (err as NodeJS.ErrnoException).code ?? err.message }));
    req.end(payload);
  });
}

/**
 * Sends one request signed as `creds` with `fetch` to `base` (`http://127.0.0.1:port`, a listening app or a
 * server process) — a JSON body when `body` is given, `headers` added (`connection: close` for a new
 * connection per request, like separate clients) — and parses the JSON answer. Rejects when the exchange
 * fails, as `fetch` does.
 */
export async function fetchJson(
  base: string,
  creds: Credentials,
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const payload = body === undefined ? '' : JSON.stringify(body);
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      'x-api-key': creds.apiKey,
      'x-signature': signBody(creds.secretKey, payload),
      ...headers,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : payload,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** The status of an {@link Outcome}, or its error code. */
export function statusOf(o: Outcome): number | string {
  return 'status' in o ? o.status : o.error;
}
