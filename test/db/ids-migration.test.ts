/**
 * Migration 2026_11_28_0060 (64-bit ids, keys by business) on a database filled by the previous release
 * (docs/deployment.md#converting-to-64-bit-ids-and-keys-by-business): a database at the migration before it,
 * filled through the services and the API (two demo businesses — every resource, events, notifications —
 * and a third with a webhook endpoint, its deliveries and API call log rows), then migrated. Every row of
 * every table reads back identical, the API answers the same, new ids continue above the old ones, and the
 * schema is the one the schema check wants (test/db/schema-keys.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createDb } from '../../src/db/create-db.ts';
import type { Database } from '../../src/db/database.ts';
import { migrateTo, migrateToLatest } from '../../src/db/migrator.ts';
import { createDemo } from '../../src/demo/demo.ts';
import { TABLES } from '../../src/db/table-kinds.ts';
import { TEST_MASTER_KEY_HEX } from '../setup/build-test-app.ts';
import { newBusiness } from '../setup/factories.ts';
import type { Credentials } from '../setup/signed-request.ts';
import { apiClient } from '../setup/api-client.ts';
import {
  dispatchUntilIdle,
  IDS_MIGRATION as MIGRATION,
  PREVIOUS_RELEASE as PREVIOUS,
} from '../setup/previous-release.ts';
import { DIALECT, openTestDb, type TestDb } from '../setup/test-db.ts';
import { pgConfig, urlWithSchema } from '../setup/test-workers.ts';

vi.setConfig({ testTimeout: 240_000, hookTimeout: 120_000 });

let admin: TestDb;
beforeAll(async () => {
  admin = await openTestDb();
});
afterAll(() => admin.close());

let app: FastifyInstance;
const { call } = apiClient(() => app);

/** A database of its own at {@link PREVIOUS}: a SQLite file, or a schema of the PostgreSQL test database. */
async function previousReleaseDb(
  dir: string,
): Promise<{ db: Kysely<Database>; url: string; reopen(): Promise<void>; close(): Promise<void> }> {
  if (DIALECT === 'sqlite') {
    const file = path.join(dir, 'old.db');
    const db = createDb({ dialect: 'sqlite', path: file });
    await migrateTo(db, PREVIOUS);
    const handle = {
      db,
      url: `sqlite:${file}`,
      reopen: async () => {
        await handle.db.destroy();
        handle.db = createDb({ dialect: 'sqlite', path: file });
      },
      close: () => handle.db.destroy(),
    };
    return handle;
  }
  const schema = `ids_migration_${process.pid}`;
  await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin.db);
  await sql`create schema ${sql.id(schema)}`.execute(admin.db);
  const base = process.env.DATABASE_URL!;
  const url = urlWithSchema(base, schema);
  const db = createDb(pgConfig(url));
  await migrateTo(db, PREVIOUS);
  const handle = {
    db,
    url,
    // A process of the new release: new connections (the old ones keep prepared statements typed int4).
    reopen: async () => {
      await handle.db.destroy();
      handle.db = createDb(pgConfig(url));
    },
    close: async () => {
      await handle.db.destroy();
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin.db);
    },
  };
  return handle;
}

/** Tables created by migrations after the previous release (none of its data to keep): 2026_11_28_0120's live followers. */
const NEWER_TABLES = new Set(['event_follower']);

/** Every row of every declared table, each table's rows sorted, as JSON (the values the code reads). */
async function snapshot(db: Kysely<Database>): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of Object.keys(TABLES)) {
    if (table.startsWith('kysely_') || NEWER_TABLES.has(table)) continue;
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db);
    out[table] = rows.map((r) => JSON.stringify(r, Object.keys(r).sort())).sort();
  }
  return out;
}

const LISTS = [
  'client',
  'inquiry',
  'contract',
  'settlement',
  'project',
  'worker',
  'todo',
  'estimate/item',
  'event',
  'webhook',
  'member',
  'log',
];

/** What the API answers a business for each list (up to 100 rows), and for each record listed first. */
async function reads(b: Credentials): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const list of LISTS) {
    const res = await call(b, { method: 'GET', url: `/v1/${list}?page_size=100` });
    out[list] = res.status === 200 ? res.body.results : res.status; // an error's requestId differs per call
    const first = (res.body.results as { id?: number }[] | undefined)?.[0];
    if (first?.id !== undefined && list !== 'log') {
      const { requestId: _, ...one } = (await call(b, { method: 'GET', url: `/v1/${list}/${first.id}` }))
        .body as Record<string, unknown>;
      out[`${list}/${first.id}`] = one;
    }
  }
  return out;
}

it(`converts a database filled by the previous release (${PREVIOUS}) with its data intact (${DIALECT})`, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bizapi-ids-migration-'));
  const old = await previousReleaseDb(dir);
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    BIZAPI_MAX_EVENT_LOOP_DELAY: '0',
    BIZAPI_RATE_LIMIT: '0',
    BIZAPI_WEBHOOK_ALLOW_PRIVATE: 'true',
    BIZAPI_MASTER_KEY: TEST_MASTER_KEY_HEX,
    BIZAPI_DATA_DIR: dir,
    DATABASE_URL: old.url,
  });
  const masterKey = config.masterKey!;
  let receiver: http.Server | undefined;
  try {
    // The previous release's data: two demo businesses and one written through HTTP. This code's event INSERT
    // (PostgreSQL) asks whether a live follower listens, in `event_follower` (migration 2026_11_28_0120), which
    // that schema lacks: an empty stand-in while filling, dropped before migrating.
    if (DIALECT === 'postgres')
      await sql`create table event_follower (business_id bigint, owner text, expires_at timestamptz)`.execute(old.db);
    app = await buildApp(config, { db: old.db, masterKey });
    const demos = [await createDemo(old.db, masterKey), await createDemo(old.db, masterKey)];
    const b = await newBusiness({ testDb: { db: old.db }, masterKey });
    // A receiver that answers: one that never does would get its endpoint parked (docs/webhooks.md#parking),
    // and the new event below would then be owed instead of queued.
    receiver = http.createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
    await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/in`;
    const hook = await call(b, {
      method: 'POST',
      url: '/v1/webhook',
      body: { url: receiverUrl, eventTypes: ['client.created', 'client.updated'] },
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    for (let i = 0; i < 5; i++) {
      const c = await call(b, { method: 'POST', url: '/v1/client', body: { companyName: `Before ${i}` } });
      expect(c.status, JSON.stringify(c.body)).toBe(201);
      await call(b, { method: 'PATCH', url: `/v1/client/${c.body.id}`, body: { contact: `010-${i}` } });
    }
    await dispatchUntilIdle(old.db, config, b.businessId);
    const businesses: Credentials[] = [...demos, b];
    for (const x of businesses) await reads(x); // API call log rows, flushed on close
    await app.close();
    if (DIALECT === 'postgres') await sql`drop table event_follower`.execute(old.db);
    const count = async (table: string) =>
      Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(old.db)).rows[0]!.n);
    for (const table of [
      'client',
      'inquiry',
      'contract',
      'settlement',
      'project',
      'worker',
      'todo',
      'estimate_item',
      'event',
      'webhook_delivery',
      'api_log',
      'notification_outbox',
      'inquiry_status_history',
    ]) {
      expect(await count(table), table).toBeGreaterThan(0);
    }
    const before = await snapshot(old.db);
    const maxBefore = async (table: string) =>
      Number((await sql<{ m: number }>`select max(id) as m from ${sql.table(table)}`.execute(old.db)).rows[0]!.m);
    const clientMax = await maxBefore('client');
    const eventMax = await maxBefore('event');

    await old.reopen();
    expect(await migrateToLatest(old.db)).toContain(MIGRATION);
    expect(await snapshot(old.db)).toEqual(before);
    if (DIALECT === 'postgres') {
      const narrow = await sql<{ c: string }>`
        select table_name || '.' || column_name as c from information_schema.columns
        where table_schema = current_schema() and data_type in ('integer', 'smallint') and (column_name = 'id' or column_name like '%\\_id')`.execute(
        old.db,
      );
      expect(narrow.rows).toEqual([]);
      const pk = await sql<{
        def: string;
      }>`select pg_get_constraintdef(oid) as def from pg_constraint where conname = 'contract_pkey' and connamespace = current_schema()::regnamespace`.execute(
        old.db,
      );
      expect(pk.rows[0]!.def).toBe('PRIMARY KEY (business_id, id)');
    }

    // The API on the migrated database: the same answers, new ids above the old ones.
    app = await buildApp(config, { db: old.db, masterKey });
    const readsBefore: Record<string, unknown>[] = [];
    for (const x of businesses) readsBefore.push(await reads(x));
    for (const [i, x] of businesses.entries()) {
      const again = await reads(x);
      // the second read's call log has the first read's rows on top; everything else is the same
      expect({ ...again, log: undefined }).toEqual({ ...readsBefore[i], log: undefined });
    }
    const created = await call(b, { method: 'POST', url: '/v1/client', body: { companyName: 'After' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.id).toBeGreaterThan(clientMax);
    expect((await call(b, { method: 'GET', url: `/v1/client/${created.body.id}` })).body.companyName).toBe('After');
    const newest = Number((await sql<{ m: number }>`select max(id) as m from event`.execute(old.db)).rows[0]!.m);
    expect(newest).toBeGreaterThan(eventMax);
    await dispatchUntilIdle(old.db, config, b.businessId);
    expect(
      (
        await sql<{ n: number }>`select count(*) as n from webhook_delivery where event_id = ${newest}`.execute(old.db)
      ).rows.map((r) => Number(r.n)),
    ).toEqual([1]);
  } finally {
    await app?.close();
    receiver?.closeAllConnections();
    receiver?.close();
    await old.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
