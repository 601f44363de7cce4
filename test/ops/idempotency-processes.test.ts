/**
 * `Idempotency-Key` and signature version 2 across real processes (decisions §14, §15;
 * docs/api.md#idempotent-retries): two `bin/bizapi serve` child processes on the test database (a SQLite
 * file, or the PostgreSQL database of the run). 50 simultaneous requests with one key, spread over both
 * processes, create exactly one record; a version-2 signature accepted by one process is refused by the other.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signBody, signV2 } from '../../src/modules/auth/hmac.ts';
import { buildTestApp, TEST_MASTER_KEY_HEX, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../setup/factories.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const BIN = fileURLToPath(new URL('../../bin/bizapi', import.meta.url));

let t: TestApp;
let dataDir: string;
beforeAll(async () => {
  t = await buildTestApp();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-idempotency-processes-'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A running `bizapi serve`. */
interface Server {
  port: number;
  process: ChildProcess;
  stderr(): string;
  /** Sends `signal` and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `bin/bizapi serve` on a random port of 127.0.0.1, on the test database, with `env` added. */
async function startServer(env: Record<string, string>): Promise<Server> {
  const base = { ...process.env };
  for (const name of Object.keys(base)) {
    if (/^(BIZAPI_|DATABASE_URL$|HOST$|PORT$|REDIS_URL$|LOG_LEVEL$)/.test(name)) delete base[name];
  }
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: {
      ...base,
      DATABASE_URL: t.testDb.url,
      BIZAPI_MASTER_KEY: TEST_MASTER_KEY_HEX,
      BIZAPI_DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      BIZAPI_MAX_EVENT_LOOP_DELAY: '0', // a loaded CI machine must not make these servers shed load
      // An in-process dispatcher on the shared PostgreSQL test database would deliver the outbox events of
      // other test files running at the same time (test/cli/worker.test.ts tests delivery on its own database).
      BIZAPI_DISPATCHER: 'off',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const m = /bizapi listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr);
      if (m) resolve(Number(m[1]));
    });
    void exited.then((code) => reject(new Error(`bizapi serve exited with ${code}:\n${stderr}`)));
  });
  return {
    port,
    process: child,
    stderr: () => stderr,
    stop: async (signal = 'SIGTERM') => {
      child.kill(signal);
      return exited;
    },
  };
}

/** A response as the client saw it, or the error that ended the exchange. */
type Outcome = { status: number; headers: http.IncomingHttpHeaders; body: string } | { error: string };

/** Sends one signed request with Node's HTTP client. */
function request(port: number, creds: TestBusiness, method: string, urlPath: string, body?: unknown, agent?: http.Agent, extra: Record<string, string> = {}): Promise<Outcome> {
  const payload = body === undefined ? '' : JSON.stringify(body);
  const headers: Record<string, string> = { 'x-api-key': creds.apiKey, 'x-signature': signBody(creds.secretKey, payload), ...extra };
  if (payload) headers['content-type'] = 'application/json';
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: urlPath, headers, agent: agent ?? false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      res.on('error', (err) => resolve({ error: (err as NodeJS.ErrnoException).code ?? err.message }));
    });
    req.on('error', (err) => resolve({ error: (err as NodeJS.ErrnoException).code ?? err.message }));
    req.end(payload);
  });
}

describe('two server processes on one database', () => {
  it('50 simultaneous requests with one Idempotency-Key create one record; a v2 signature is accepted once', async () => {
    const [one, two] = await Promise.all([startServer({}), startServer({})]);
    try {
      const b = await newBusiness(t);
      const key = `cross-process-${Date.now()}`;
      const body = { companyName: 'Across processes' };
      const outcomes = await Promise.all(
        Array.from({ length: 50 }, (_, i) => request(i % 2 === 0 ? one.port : two.port, b, 'POST', '/v1/client', body, undefined, { 'idempotency-key': key })),
      );
      const ok = outcomes.filter((o): o is Extract<Outcome, { status: number }> => 'status' in o);
      expect(ok).toHaveLength(50);
      expect(ok.every((o) => o.status === 201 || o.status === 409)).toBe(true);
      const originals = ok.filter((o) => o.status === 201 && o.headers['idempotent-replayed'] === undefined);
      expect(originals).toHaveLength(1);
      for (const o of ok.filter((x) => x.status === 201)) expect(o.body).toBe(originals[0]!.body);
      // Once settled, every retry on either process is the stored answer.
      for (const port of [one.port, two.port]) {
        const again = await request(port, b, 'POST', '/v1/client', body, undefined, { 'idempotency-key': key });
        expect('status' in again && again.status === 201 && again.headers['idempotent-replayed'] === 'true').toBe(true);
      }
      const count = await t.testDb.db
        .selectFrom('client')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('business_id', '=', b.businessId)
        .where('company_name', '=', 'Across processes')
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(1);

      const ts = String(Math.floor(Date.now() / 1000));
      const v2 = { 'x-signature-timestamp': ts, 'x-signature': `v2=${signV2(b.secretKey, ts, 'GET', '/v1/folder', '')}` };
      const first = await request(one.port, b, 'GET', '/v1/folder', undefined, undefined, v2);
      const replay = await request(two.port, b, 'GET', '/v1/folder', undefined, undefined, v2);
      expect('status' in first && first.status).toBe(200);
      expect('status' in replay && replay.status).toBe(403);
      expect('status' in replay && JSON.parse(replay.body).code).toBe('signature_replayed');
    } finally {
      await Promise.all([one.stop(), two.stop()]);
    }
  });
});
