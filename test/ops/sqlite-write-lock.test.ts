/**
 * SQLite shared by several processes (docs/deployment.md#several-processes-on-one-machine-bizapi-serve---workers):
 * while another process holds the database's write lock, a write transaction of the server waits for it on
 * a timer, not inside SQLite's sleeping `busy_timeout` — so the event loop keeps running (the liveness probe
 * answers; database work of the process queues behind the one connection, as it always does), and the write
 * commits once the lock is released. Before, the wait blocked the whole event loop (up to 5 s), the load
 * shedding saw the lag and answered 503 to every request: ~15% of the writes with `serve --workers 2` under
 * the benchmark's load.
 *
 * Real processes: the server (`bin/bizapi serve`) and a second process holding `BEGIN IMMEDIATE` on the
 * same file until the test tells it to commit. SQLite only.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness } from '../setup/factories.ts';
import { DIALECT } from '../setup/test-db.ts';
import { request, startServer, statusOf } from '../setup/server-process.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 90_000 });

let t: TestApp;
let dataDir: string;
beforeAll(async () => {
  t = await buildTestApp();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-lock-'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A process that takes the write lock of `file` and holds it until a line arrives on its stdin. */
function holdWriteLock(file: string): Promise<{ release(): Promise<void> }> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const script = `
    const Database = require(${JSON.stringify(driver)});
    const db = new Database(${JSON.stringify(file)});
    db.exec('begin immediate');
    process.stdout.write('locked\\n');
    process.stdin.once('data', () => { db.exec('commit'); db.close(); process.exit(0); });
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout.once('data', () =>
      resolve({
        release: async () => {
          child.stdin.write('go\n');
          await exited;
        },
      }),
    );
  });
}

describe.skipIf(DIALECT !== 'sqlite')('a write waiting for another process’s lock', () => {
  it('does not block the event loop, and commits once the lock is free', async () => {
    const b = await newBusiness(t);
    const server = await startServer({ databaseUrl: t.testDb.url, dataDir });
    try {
      const file = t.testDb.url.replace(/^sqlite:/, '');
      const lock = await holdWriteLock(file);
      let writeDone = false;
      const write = request(server.port, b, 'POST', '/v1/client', { companyName: 'Waited' }).then((o) => {
        writeDone = true;
        return o;
      });
      await new Promise((r) => setTimeout(r, 300));
      // The write waits for the lock; the process still answers meanwhile (no answer within 3 s if the wait
      // blocked the event loop: the busy timeout is 5 s).
      const read = await Promise.race([
        request(server.port, b, 'GET', '/healthz'),
        new Promise<{ error: string }>((r) => setTimeout(() => r({ error: 'no answer within 3 s' }), 3000)),
      ]);
      expect(statusOf(read)).toBe(200);
      expect(writeDone).toBe(false);
      await lock.release();
      expect(statusOf(await write)).toBe(201);
    } finally {
      await server.stop();
    }
  });
});
