/**
 * Crash safety (issue 8): the server runs as a separate process (`bin/bizapi serve`), a stream of writes
 * goes at it, it is killed with SIGKILL mid-stream and restarted; every write that got a 2xx must be there,
 * and the database must pass its integrity check (`PRAGMA integrity_check` on SQLite, consistency queries on
 * PostgreSQL).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBody } from '../../src/modules/auth/hmac.ts';
import { TEST_MASTER_KEY_HEX } from '../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../setup/factories.ts';
import { DIALECT, openTestDb, type TestDb } from '../setup/test-db.ts';

const BIN = fileURLToPath(new URL('../../bin/bizapi', import.meta.url));

let testDb: TestDb;
let dataDir: string;
beforeAll(async () => {
  testDb = await openTestDb();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'bizapi-crash-'));
});
afterAll(async () => {
  await testDb.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Starts `bizapi serve` on the test database and waits until it answers. */
async function startServer(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: {
      ...process.env,
      DATABASE_URL: testDb.url,
      BIZAPI_MASTER_KEY: TEST_MASTER_KEY_HEX,
      BIZAPI_DATA_DIR: dataDir,
      BIZAPI_RATE_LIMIT: '0',
      // no notification dispatcher: on the shared PostgreSQL test database it would deliver (and so take
      // away) the outbox rows of other test files
      BIZAPI_DISPATCHER: 'off',
      PORT: String(port),
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`bizapi serve exited with ${child.exitCode}`);
    try {
      await fetch(`http://127.0.0.1:${port}/openapi.json`);
      return child;
    } catch {
      if (Date.now() > deadline) throw new Error('bizapi serve did not start within 60 s');
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Resolves once `child` has exited (at once when it already has: its 'exit' event is not replayed). */
function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** POSTs clients from `workers` concurrent loops until the server stops answering; returns the acknowledged ones. */
async function streamWrites(port: number, b: TestBusiness, workers: number): Promise<{ id: number; companyName: string }[]> {
  const acknowledged: { id: number; companyName: string }[] = [];
  let n = 0;
  const loop = async () => {
    for (;;) {
      const companyName = `Crash test ${n++}`;
      const body = JSON.stringify({ companyName });
      try {
        const res = await fetch(`http://127.0.0.1:${port}/v1/client`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': b.apiKey, 'x-signature': signBody(b.secretKey, body) },
          body,
        });
        if (res.status === 201) acknowledged.push({ id: ((await res.json()) as { id: number }).id, companyName });
      } catch {
        return; // the server is gone
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, loop));
  return acknowledged;
}

describe(`SIGKILL during a stream of writes (${DIALECT})`, () => {
  it('keeps every acknowledged write, and the database stays consistent', async () => {
    const b = await newBusiness({ testDb, masterKey: Buffer.from(TEST_MASTER_KEY_HEX, 'hex') });
    const port = await freePort();
    const server = await startServer(port);
    const streaming = streamWrites(port, b, 8);
    // Kill once writes are flowing: after the 40th stored write, or 5 s after the first one (at most 60 s
    // in all, for a loaded machine), whichever comes first.
    const started = Date.now();
    let firstAt: number | undefined;
    while (Date.now() - started < 60_000 && (firstAt === undefined || Date.now() - firstAt < 5000)) {
      const rows = await testDb.db.selectFrom('client').select((eb) => eb.fn.countAll<number>().as('n')).where('business_id', '=', b.businessId).executeTakeFirstOrThrow();
      if (Number(rows.n) >= 40) break;
      if (Number(rows.n) > 0) firstAt ??= Date.now();
      await new Promise((r) => setTimeout(r, 20));
    }
    server.kill('SIGKILL');
    const acknowledged = await streaming;
    await exited(server);
    expect(acknowledged.length).toBeGreaterThan(0);

    const restarted = await startServer(port);
    try {
      const stored = await testDb.db.selectFrom('client').select(['id', 'company_name']).where('business_id', '=', b.businessId).execute();
      const byId = new Map(stored.map((r) => [r.id, r.company_name]));
      for (const w of acknowledged) expect(byId.get(w.id), `acknowledged client ${w.id}`).toBe(w.companyName);
      // And through the API after the restart.
      const last = acknowledged.at(-1)!;
      const res = await fetch(`http://127.0.0.1:${port}/v1/client/${last.id}`, { headers: { 'x-api-key': b.apiKey, 'x-signature': signBody(b.secretKey, '') } });
      expect(res.status).toBe(200);
    } finally {
      restarted.kill('SIGTERM');
      await exited(restarted);
    }

    if (DIALECT === 'sqlite') {
      const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(testDb.db);
      expect(check.rows.map((r) => r.integrity_check)).toEqual(['ok']);
      const fk = await sql`pragma foreign_key_check`.execute(testDb.db);
      expect(fk.rows).toEqual([]);
    } else {
      const orphans = await sql<{ n: number }>`
        select count(*)::int as n from client c
        left join business bu on bu.id = c.business_id
        left join client_status s on s.id = c.status_id
        where bu.id is null or (c.status_id is not null and s.id is null)`.execute(testDb.db);
      expect(orphans.rows[0]?.n).toBe(0);
      const duplicates = await sql<{ n: number }>`select count(*)::int as n from (select id from client group by id having count(*) > 1) d`.execute(testDb.db);
      expect(duplicates.rows[0]?.n).toBe(0);
    }
  }, 120_000);
});
