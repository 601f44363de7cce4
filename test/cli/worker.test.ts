/**
 * Notification delivery in real processes (decisions §8), on a SQLite file of its own (a worker on the
 * shared PostgreSQL test database would deliver other test files' events): `bizapi worker` delivers the
 * outbox on its own and drains on SIGTERM; `bizapi serve` runs the dispatcher in the server by default, and
 * drains it on SIGTERM too: a delivery under way when the signal comes is finished and recorded before the
 * process exits.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDb } from '../../src/db/create-db.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';
import { createBusiness } from '../../src/modules/auth/auth.service.ts';
import { importCatalog } from '../../src/modules/catalog/catalog-import.ts';
import * as repo from '../../src/modules/notification/notification.repository.ts';
import { enqueueEvent } from '../../src/modules/notification/notification.service.ts';
import { testCatalog } from '../setup/factories.ts';
import { until } from '../setup/helpers.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const BIN = fileURLToPath(new URL('../../bin/bizapi', import.meta.url));

let dir: string;
let db: ReturnType<typeof createDb>;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-worker-'));
  db = createDb({ dialect: 'sqlite', path: path.join(dir, 'bizapi.db') });
  await migrateToLatest(db);
});
/** Children still running at the end of a test (a failed one) are killed, never left behind. */
const children = new Set<ChildProcess>();
afterEach(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children.clear();
});
afterAll(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The environment of a child: nothing of the parent's bizapi settings, a fast poll, our database. */
function childEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(BIZAPI_|DATABASE_URL$|HOST$|PORT$|S3_|SMTP_URL$|PUSH_WEBHOOK_URL$|LOG_LEVEL$)/.test(name)) delete env[name];
  }
  return {
    ...env,
    DATABASE_URL: `sqlite:${path.join(dir, 'bizapi.db')}`,
    BIZAPI_DATA_DIR: dataDir,
    BIZAPI_MASTER_KEY: '0f'.repeat(32),
    BIZAPI_DISPATCHER_POLL_MS: '50',
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

/** Runs `bin/bizapi ARGS` in the background. */
function start(
  args: string[],
  env: NodeJS.ProcessEnv,
): { child: ChildProcess; stdout: () => string; stderr: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [BIN, ...args], { env, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** A business whose member kim is notified of one event; returns the business id and the outbox id. */
async function pendingEvent(): Promise<{ businessId: number; outboxId: number }> {
  const business = await createBusiness(db, { name: 'Worker test', plan: 'AGENCY', timezone: 'Asia/Seoul' });
  const ids = await importCatalog(db, business.id, testCatalog());
  const [outboxId] = await db
    .transaction()
    .execute((trx) =>
      enqueueEvent(trx, business.id, { type: 'inquiry.created', inquiryId: 1, memberIds: [ids.members.kim!] }),
    );
  return { businessId: business.id, outboxId: outboxId! };
}

function emlFiles(dataDir: string): string[] {
  const mail = path.join(dataDir, 'mail');
  return fs.existsSync(mail) ? fs.readdirSync(mail).filter((f) => f.endsWith('.eml')) : [];
}

describe('notification delivery processes', () => {
  it('bizapi worker delivers the outbox, prints nothing on stdout, and stops cleanly on SIGTERM', async () => {
    const dataDir = path.join(dir, 'worker-data');
    const { businessId, outboxId } = await pendingEvent();
    const w = start(['worker'], childEnv(dataDir));
    await until(() => emlFiles(dataDir).length === 1);
    await until(async () => (await repo.findOutboxById(db, businessId, outboxId))?.delivered_at != null);
    w.child.kill('SIGTERM');
    expect(await w.exited, w.stderr()).toBe(0);
    expect(w.stdout()).toBe('');
    const eml = fs.readFileSync(path.join(dataDir, 'mail', emlFiles(dataDir)[0]!), 'utf8');
    expect(eml).toMatch(/^To: Kim <kim@example\.com>$/m);
    const inApp = await db
      .selectFrom('notification')
      .select('outbox_id')
      .where('business_id', '=', businessId)
      .execute();
    expect(inApp).toEqual([{ outbox_id: outboxId }]);
  });

  it('bizapi serve delivers the outbox in the server process by default', async () => {
    const dataDir = path.join(dir, 'serve-data');
    const s = start(['serve'], childEnv(dataDir, { PORT: '0' }));
    await until(() => s.stderr().includes('listening'));
    const { businessId, outboxId } = await pendingEvent();
    await until(async () => (await repo.findOutboxById(db, businessId, outboxId))?.delivered_at != null);
    expect(emlFiles(dataDir)).toHaveLength(1);
    s.child.kill('SIGTERM');
    expect(await s.exited, s.stderr()).toBe(0);
  });

  it.each([
    ['worker', 'bizapi worker: stopping'],
    ['serve', 'shutting down'],
  ])(
    'bizapi %s drains the dispatcher on SIGTERM: a delivery under way is finished and recorded before the process exits',
    async (command, stopping) => {
      // A push webhook that holds every POST until released: the delivery is under way when the signal comes.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const pushes: string[] = [];
      const webhook = http.createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          pushes.push(body);
          void released.then(() => res.writeHead(204).end());
        });
      });
      await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
      try {
        const dataDir = path.join(dir, `drain-${command}-data`);
        const { businessId, outboxId } = await pendingEvent();
        const p = start(
          [command],
          childEnv(dataDir, {
            PORT: '0',
            LOG_LEVEL: 'info',
            PUSH_WEBHOOK_URL: `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/push`,
            BIZAPI_DISPATCHER_TIMEOUT_MS: '60000',
          }),
        );
        await until(() => pushes.length === 1);
        p.child.kill('SIGTERM');
        await until(() => (p.stdout() + p.stderr()).includes(stopping));
        // The process waits for the delivery rather than exiting under it…
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(p.child.exitCode, p.stdout() + p.stderr()).toBeNull();
        const before = await repo.findOutboxById(db, businessId, outboxId);
        expect(before?.delivered_at ?? null).toBeNull();
        // …and once the webhook answers, records it and exits cleanly.
        release();
        expect(await p.exited, p.stderr()).toBe(0);
        const after = await repo.findOutboxById(db, businessId, outboxId);
        expect(after?.push_at).not.toBeNull();
        expect(after?.delivered_at).not.toBeNull();
        expect(after?.lease_owner ?? null).toBeNull();
        expect(JSON.parse(pushes[0]!)).toMatchObject({ id: outboxId, business: { id: businessId } });
      } finally {
        release();
        await new Promise<void>((resolve) => webhook.close(() => resolve()));
      }
    },
  );
});
