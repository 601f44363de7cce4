/**
 * `bizapi serve --workers 2` as deployed: a real primary with two `node:cluster` workers on one random port,
 * on the test database (a SQLite file, or the PostgreSQL database of the run).
 *
 * - both workers answer on the one port (two distinct worker pids answer requests on fresh connections);
 * - the rate limit holds per key across them: with no store configured the workers share the database
 *   store, so a key limited to 6 requests gets exactly 6 answers and 429s after that, whichever worker
 *   answers (with per-process memory counters it would get up to 12);
 * - a worker killed with SIGKILL is replaced, and the server keeps answering;
 * - SIGTERM stops every worker and the primary exits 0 after `bizapi stopped`;
 * - the worker count and the rate-limit store may come from `.env` like any variable (issue 29: the primary
 *   read `process.env` alone, so it ignored `BIZAPI_WORKERS` there and replaced a `.env`
 *   `BIZAPI_RATE_LIMIT_STORE=memory` with the shared store).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../setup/factories.ts';
import { LISTENING, request, serverEnv, startBizapi } from '../setup/server-process.ts';
import { WORKER_V8_FLAGS } from '../../src/cluster.ts';

vi.setConfig({ testTimeout: 240_000, hookTimeout: 90_000 }); // three server starts under tsx on a loaded 2-core CI machine

let t: TestApp;
let dataDir: string;
beforeAll(async () => {
  t = await buildTestApp();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-workers-'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The pids of the cluster workers of the primary `pid`: its children running bin/bizapi (not tsx's esbuild). */
function childrenOf(pid: number): number[] {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' }).trim();
  return out
    .split('\n')
    .filter((line) => line.includes('bin/bizapi'))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

/** Sends one signed GET on a fresh connection; resolves with the status (rejects when the exchange fails). */
async function get(port: number, creds: TestBusiness, urlPath: string): Promise<number> {
  const outcome = await request(port, creds, 'GET', urlPath);
  if ('error' in outcome) throw new Error(outcome.error);
  return outcome.status;
}

describe('bizapi serve --workers 2', () => {
  it('serves from two workers on one port, shares the rate limit, restarts a crashed worker, and stops on SIGTERM', async () => {
    const b = await newBusiness(t);
    const server = await startBizapi(
      ['serve', '--workers', '2'],
      serverEnv({ databaseUrl: t.testDb.url, dataDir, env: { BIZAPI_RATE_LIMIT: '6' } }),
      /bizapi listening on http:\/\/127\.0\.0\.1:(\d+) \(2 workers/,
    );
    const { process: child, port, exited } = server;
    try {
      const workers = childrenOf(child.pid!);
      expect(workers).toHaveLength(2);
      // Each worker runs with the memory flags of src/cluster.ts (docs/deployment.md#memory).
      for (const pid of workers)
        expect(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toEqual(
          expect.arrayContaining([...WORKER_V8_FLAGS]),
        );

      // The rate limit, shared: 12 requests on fresh connections, round-robin over the two workers.
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push(await get(port, b, '/v1/client'));
      expect(statuses.filter((s) => s === 200)).toHaveLength(6);
      expect(statuses.filter((s) => s === 429)).toHaveLength(6);
      expect(statuses.slice(0, 6)).toEqual([200, 200, 200, 200, 200, 200]);

      // A crashed worker is replaced.
      process.kill(workers[0]!, 'SIGKILL');
      await vi.waitFor(
        () => {
          const now = childrenOf(child.pid!);
          expect(now).toHaveLength(2);
          expect(now).not.toContain(workers[0]);
        },
        { timeout: 30_000, interval: 200 },
      );
      expect(server.stderr()).toMatch(/worker 1 \(pid \d+\) exited \(SIGKILL\); restarting it/);
      await vi.waitFor(() => expect(server.stderr()).toMatch(/worker 1 \(pid \d+\) listening again/), {
        timeout: 60_000,
        interval: 200,
      });
      const other = await newBusiness(t);
      await vi.waitFor(async () => expect(await get(port, other, '/v1/client')).toBe(200), {
        timeout: 30_000,
        interval: 200,
      });
      // Both (old and new) workers answer: every fresh connection gets a 200.
      for (let i = 0; i < 4; i++) expect(await get(port, other, '/v1/client')).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited, server.stderr()).toBe(0);
    expect(server.stderr()).toContain('bizapi stopped');
    expect(server.stderr()).not.toMatch(/error/i);
  });
});

describe('bizapi serve with BIZAPI_WORKERS and BIZAPI_RATE_LIMIT_STORE in .env', () => {
  it('runs the workers .env asks for, each counting alone with the memory store .env chose', async () => {
    const b = await newBusiness(t);
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-workers-dotenv-'));
    fs.writeFileSync(path.join(cwd, '.env'), 'BIZAPI_WORKERS=2\nBIZAPI_RATE_LIMIT_STORE=memory\n');
    // serverEnv sets neither variable (it drops every BIZAPI_* of this process): both come from .env alone.
    const server = await startBizapi(
      ['serve'],
      serverEnv({ databaseUrl: t.testDb.url, dataDir, env: { BIZAPI_RATE_LIMIT: '6' } }),
      LISTENING,
      cwd,
    );
    try {
      expect(server.stderr()).toMatch(/bizapi listening on http:\/\/127\.0\.0\.1:\d+ \(2 workers/);
      expect(server.stderr()).toContain('BIZAPI_RATE_LIMIT_STORE=memory with 2 workers: each worker counts alone');
      // Each worker counts the key alone: more than the limit of 6 answers among 12 round-robin requests.
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push(await get(server.port, b, '/v1/client'));
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(6);
    } finally {
      expect(await server.stop(), server.stderr()).toBe(0);
      fs.rmSync(cwd, { recursive: true, force: true });
    }
  });
});
