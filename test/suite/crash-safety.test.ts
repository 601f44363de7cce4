/**
 * Crash safety (issue 8): the server runs as a separate process (`bin/bizapi serve`), a stream of writes
 * goes at it, it is killed with SIGKILL mid-stream and restarted; every write that got a 2xx must be there,
 * and the database must pass its integrity check (`PRAGMA integrity_check` on SQLite, consistency queries on
 * PostgreSQL). A second run streams inquiries that notify a member, with the dispatcher in the server: every
 * notification committed with an acknowledged write is delivered after the restart, once per outbox id (one
 * in-app row, one `.eml` file; push is at-least-once, each repeat carrying the same `Idempotency-Key`). A
 * third run streams clients to a business with a webhook endpoint whose receiver holds every request until
 * the kill: the deliveries cut by it are retried after the restart (same `webhook-id`), and every committed
 * event is delivered (docs/webhooks.md#delivery).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptSecret } from '../../src/modules/auth/secret-box.ts';
import { TEST_MASTER_KEY_HEX } from '../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../setup/factories.ts';
import { DIALECT, openTestDb, type TestDb } from '../setup/test-db.ts';
import { BIN, fetchJson } from '../setup/server-process.ts';
import { freePort } from '../setup/helpers.ts';

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

/**
 * Starts `bizapi serve` on the test database and waits until it answers. By default without the
 * notification dispatcher: on the shared PostgreSQL test database it would deliver (and so take away) the
 * outbox rows of other test files; `env` may turn it on for one business (`BIZAPI_DISPATCHER_BUSINESS_IDS`).
 */
async function startServer(port: number, env: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: {
      ...process.env,
      DATABASE_URL: testDb.url,
      BIZAPI_MASTER_KEY: TEST_MASTER_KEY_HEX,
      BIZAPI_DATA_DIR: dataDir,
      BIZAPI_RATE_LIMIT: '0',
      BIZAPI_DISPATCHER: 'off',
      PORT: String(port),
      LOG_LEVEL: process.env.BIZAPI_TEST_CHILD_OUTPUT ? 'info' : 'warn',
      ...env,
    },
    stdio: process.env.BIZAPI_TEST_CHILD_OUTPUT ? 'inherit' : 'ignore',
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

/**
 * POSTs clients (or, with `inquiryFor`, inquiries with that member in charge) from `workers` concurrent loops
 * until the server stops answering; returns the acknowledged ones (`companyName` holds the inquiry's name).
 */
async function streamWrites(
  port: number,
  b: TestBusiness,
  workers: number,
  inquiryFor?: number,
): Promise<{ id: number; companyName: string }[]> {
  const acknowledged: { id: number; companyName: string }[] = [];
  let n = 0;
  const loop = async () => {
    for (;;) {
      const companyName = `Crash test ${n++}`;
      const body =
        inquiryFor === undefined ? { companyName } : { name: companyName, inChargeSet: [{ id: inquiryFor }] };
      try {
        const url = `/v1/${inquiryFor === undefined ? 'client' : 'inquiry'}`;
        const res = await fetchJson(`http://127.0.0.1:${port}`, b, 'POST', url, body);
        if (res.status === 201) acknowledged.push({ id: (res.body as { id: number }).id, companyName });
      } catch {
        return; // the server is gone
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, loop));
  return acknowledged;
}

/**
 * Waits until writes are flowing, then returns: after the 40th stored row of `table` for the business, or
 * 5 s after the first one (at most 60 s in all, for a loaded machine), whichever comes first.
 */
async function waitForWrites(table: 'client' | 'inquiry', businessId: number): Promise<void> {
  const started = Date.now();
  let firstAt: number | undefined;
  while (Date.now() - started < 60_000 && (firstAt === undefined || Date.now() - firstAt < 5000)) {
    const rows = await testDb.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('business_id', '=', businessId)
      .executeTakeFirstOrThrow();
    if (Number(rows.n) >= 40) break;
    if (Number(rows.n) > 0) firstAt ??= Date.now();
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe(`SIGKILL during a stream of writes (${DIALECT})`, () => {
  it('keeps every acknowledged write, and the database stays consistent', async () => {
    const b = await newBusiness({ testDb, masterKey: Buffer.from(TEST_MASTER_KEY_HEX, 'hex') });
    const port = await freePort();
    const server = await startServer(port);
    const streaming = streamWrites(port, b, 8);
    await waitForWrites('client', b.businessId);
    server.kill('SIGKILL');
    const acknowledged = await streaming;
    await exited(server);
    expect(acknowledged.length).toBeGreaterThan(0);

    const restarted = await startServer(port);
    try {
      const stored = await testDb.db
        .selectFrom('client')
        .select(['id', 'company_name'])
        .where('business_id', '=', b.businessId)
        .execute();
      const byId = new Map(stored.map((r) => [r.id, r.company_name]));
      for (const w of acknowledged) expect(byId.get(w.id), `acknowledged client ${w.id}`).toBe(w.companyName);
      // And through the API after the restart.
      const last = acknowledged.at(-1)!;
      const res = await fetchJson(`http://127.0.0.1:${port}`, b, 'GET', `/v1/client/${last.id}`);
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
        left join client_status s on s.business_id = c.business_id and s.id = c.status_id
        where bu.id is null or (c.status_id is not null and s.id is null)`.execute(testDb.db);
      expect(orphans.rows[0]?.n).toBe(0);
      const duplicates = await sql<{
        n: number;
      }>`select count(*)::int as n from (select id from client group by id having count(*) > 1) d`.execute(testDb.db);
      expect(duplicates.rows[0]?.n).toBe(0);
    }
  }, 120_000);
});

describe(`SIGKILL with notifications being written and delivered (${DIALECT})`, () => {
  it('delivers every committed notification after the restart, once per outbox id', async () => {
    const b = await newBusiness({ testDb, masterKey: Buffer.from(TEST_MASTER_KEY_HEX, 'hex') });
    const kim = b.ids.members.kim!; // active, notifications on (test/setup/factories.ts)
    const mailDir = mkdtempSync(path.join(os.tmpdir(), 'bizapi-crash-mail-'));
    // The push receiver: records every delivery with its Idempotency-Key.
    const pushes: { id: number; key: string | undefined }[] = [];
    const hook = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: number };
        pushes.push({ id: body.id, key: req.headers['idempotency-key'] as string | undefined });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const env = {
      BIZAPI_DATA_DIR: mailDir,
      BIZAPI_DISPATCHER: 'in-process',
      BIZAPI_DISPATCHER_BUSINESS_IDS: String(b.businessId),
      BIZAPI_DISPATCHER_POLL_MS: '20',
      BIZAPI_DISPATCHER_RETRY_BASE_MS: '50',
      // the killed process's claims expire after 4 × 500 ms + 10 s (leaseMs)
      BIZAPI_DISPATCHER_TIMEOUT_MS: '500',
      PUSH_WEBHOOK_URL: `http://127.0.0.1:${(hook.address() as { port: number }).port}/push`,
    };
    const outbox = () =>
      testDb.db
        .selectFrom('notification_outbox')
        .select([
          'id',
          'inquiry_id',
          'member_id',
          'event_type',
          'delivered_at',
          'failed_at',
          'last_error',
          'attempts',
          'lease_until',
          'in_app_at',
          'email_at',
          'push_at',
        ])
        .where('business_id', '=', b.businessId)
        .execute();
    try {
      const port = await freePort();
      const server = await startServer(port, env);
      const streaming = streamWrites(port, b, 8, kim);
      await waitForWrites('inquiry', b.businessId);
      server.kill('SIGKILL');
      const acknowledged = await streaming;
      await exited(server);
      expect(acknowledged.length).toBeGreaterThan(0);

      const restarted = await startServer(port, env);
      let rows: Awaited<ReturnType<typeof outbox>> = [];
      try {
        const deadline = Date.now() + 60_000;
        do {
          await new Promise((r) => setTimeout(r, 50));
          rows = await outbox();
        } while (rows.some((r) => r.delivered_at === null && r.failed_at === null) && Date.now() < deadline);
      } finally {
        restarted.kill('SIGTERM');
        await exited(restarted);
      }

      // Every acknowledged inquiry committed its notification with it (the outbox), and nothing else did.
      const ackIds = new Set(acknowledged.map((w) => w.id));
      const createdFor = rows.filter((r) => r.event_type === 'inquiry.created').map((r) => r.inquiry_id);
      for (const id of ackIds) expect(createdFor, `outbox row of acknowledged inquiry ${id}`).toContain(id);
      const stored = await testDb.db
        .selectFrom('inquiry')
        .select('id')
        .where('business_id', '=', b.businessId)
        .execute();
      const storedIds = new Set(stored.map((r) => r.id));
      for (const r of rows) expect(storedIds.has(r.inquiry_id), `outbox row ${r.id} has its inquiry`).toBe(true);
      expect(new Set(rows.map((r) => r.member_id))).toEqual(new Set([kim]));

      // Every one delivered after the restart, including those the killed process had claimed.
      expect(rows.filter((r) => r.delivered_at === null)).toEqual([]);
      const outboxIds = rows.map((r) => r.id).sort((x, y) => x - y);

      // Once per outbox id: one in-app notification, one .eml file.
      const inApp = await testDb.db
        .selectFrom('notification')
        .select('outbox_id')
        .where('business_id', '=', b.businessId)
        .execute();
      expect(inApp.map((r) => r.outbox_id).sort((x, y) => x - y)).toEqual(outboxIds);
      const emlIds = readdirSync(path.join(mailDir, 'mail'))
        .filter((f) => f.endsWith('.eml'))
        .map((f) => Number(/-(\d+)\.eml$/.exec(f)![1]))
        .sort((x, y) => x - y);
      expect(emlIds).toEqual(outboxIds);
      // Push: every id arrived; a repeat (a delivery cut by the kill) carries the same key, so the receiver drops it.
      expect([...new Set(pushes.map((p) => p.id))].sort((x, y) => x - y)).toEqual(outboxIds);
      for (const p of pushes) expect(p.key).toBe(`notification-${p.id}`);
    } finally {
      hook.close();
      rmSync(mailDir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe(`SIGKILL with webhook deliveries under way (${DIALECT})`, () => {
  it('retries a delivery cut by the crash after the restart, and delivers every committed event', async () => {
    const b = await newBusiness({ testDb, masterKey: Buffer.from(TEST_MASTER_KEY_HEX, 'hex') });
    const secret = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
    // The receiver: before the kill it never answers (the deliveries under way are cut by the kill), after it answers 204.
    let answering = false;
    const received: { id: string; answered: boolean }[] = [];
    const held: http.ServerResponse[] = [];
    const hook = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received.push({ id: String(req.headers['webhook-id']), answered: answering });
        if (answering) res.writeHead(204).end();
        else held.push(res);
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const now = new Date().toISOString();
    const { id: webhookId } = await testDb.db
      .insertInto('webhook_endpoint')
      .values({
        business_id: b.businessId,
        url: `http://127.0.0.1:${(hook.address() as { port: number }).port}/hook`,
        event_types: JSON.stringify(['*']),
        description: null,
        is_active: 1,
        format: 'standard',
        secret: encryptSecret(Buffer.from(TEST_MASTER_KEY_HEX, 'hex'), secret),
        previous_secret: null,
        previous_secret_expires_at: null,
        last_success_at: null,
        failing_since: null,
        created: now,
        updated: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const env = {
      BIZAPI_DISPATCHER: 'in-process',
      BIZAPI_DISPATCHER_BUSINESS_IDS: String(b.businessId),
      BIZAPI_DISPATCHER_POLL_MS: '20',
      BIZAPI_WEBHOOK_ALLOW_PRIVATE: 'true',
    };
    const deliveries = () =>
      testDb.db
        .selectFrom('webhook_delivery')
        .select(['event_id', 'status', 'attempts', 'last_status_code'])
        .where('webhook_id', '=', webhookId)
        .execute();
    try {
      const port = await freePort();
      const server = await startServer(port, env);
      const streaming = streamWrites(port, b, 8);
      await waitForWrites('client', b.businessId);
      // a few deliveries are under way (held by the receiver) when the process dies
      const deadline = Date.now() + 30_000;
      while (received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      server.kill('SIGKILL');
      const acknowledged = await streaming;
      await exited(server);
      expect(acknowledged.length).toBeGreaterThan(0);
      const cut = new Set(received.map((r) => r.id));
      expect(cut.size).toBeGreaterThan(0);
      for (const res of held) res.destroy();
      answering = true;

      const restarted = await startServer(port, env);
      let events: { id: number; type: string; data: string }[] = [];
      let rows: Awaited<ReturnType<typeof deliveries>> = [];
      try {
        // the cut deliveries are claimable again once the killed process's lease (10 s timeout + 20 s) has expired
        const until = Date.now() + 90_000;
        do {
          await new Promise((r) => setTimeout(r, 100));
          events = await testDb.db
            .selectFrom('event')
            .select(['id', 'type', 'data'])
            .where('business_id', '=', b.businessId)
            .execute();
          rows = await deliveries();
        } while ((rows.length < events.length || rows.some((r) => r.status !== 'succeeded')) && Date.now() < until);
      } finally {
        restarted.kill('SIGTERM');
        await exited(restarted);
      }

      // every acknowledged write committed its event, and every event was delivered, once per event as a row
      const createdFor = new Set(
        events.filter((e) => e.type === 'client.created').map((e) => (JSON.parse(e.data) as { id: number }).id),
      );
      for (const w of acknowledged) expect(createdFor.has(w.id), `event of acknowledged client ${w.id}`).toBe(true);
      expect(rows.map((r) => r.event_id).sort((x, y) => x - y)).toEqual(events.map((e) => e.id).sort((x, y) => x - y));
      expect(rows.filter((r) => r.status !== 'succeeded')).toEqual([]);
      const answered = new Set(received.filter((r) => r.answered).map((r) => r.id));
      for (const e of events) expect(answered.has(String(e.id)), `event ${e.id} answered by the receiver`).toBe(true);
      // the deliveries cut by the kill were attempted again, with the same webhook-id
      for (const id of cut) {
        expect(answered.has(id), `cut delivery ${id} retried`).toBe(true);
        expect(rows.find((r) => String(r.event_id) === id)!.attempts).toBeGreaterThanOrEqual(2);
      }
    } finally {
      hook.closeAllConnections();
      hook.close();
    }
  }, 240_000);
});
