/**
 * docs/deployment.md#10-beyond-one-postgresql-server-citus-distributed-by-business_id, step 2 as written: an
 * existing database of the previous release moves from a single PostgreSQL to the Citus cluster with
 * `pg_dump`, `pg_restore --no-owner`, `bizapi migrate` and `bizapi distribute`, and the businesses answer
 * the same through a `bizapi serve` on the coordinator. Runs with `BIZAPI_TEST_CITUS=1` only (`DATABASE_URL`
 * names a database of the coordinator, with the workers added).
 *
 * - The single PostgreSQL: a database of its own (`<database>_move_src`) on the coordinator's server without the
 *   `citus` extension — plain PostgreSQL 15 — migrated to the migration before 2026_11_28_0060 (the previous
 *   release's schema: 32-bit ids, keys by id) and filled through the API: a demo business (every resource,
 *   notes, histories, attachments, events) and a business with a webhook endpoint, clients and their
 *   deliveries.
 * - The move, in real processes, with PostgreSQL 15's binaries (`BIZAPI_TEST_PG_BIN`, default
 *   /usr/lib/postgresql/15/bin): `pg_dump -Fc`; step 1 (a database `<database>_move` with the extension on every
 *   node, the workers added, through `psql`); `pg_restore --no-owner --exit-on-error`; `bin/bizapi migrate`;
 *   `bin/bizapi distribute`.
 * - After it: every table holds the same rows, the business-owned ones distributed on `business_id`; a
 *   `bin/bizapi serve` on the coordinator answers every list and record as before (ids, the event feed's
 *   sequences), and writes: new ids and sequences continue above the old ones.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type Kysely, sql } from 'kysely';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createDb } from '../../src/db/create-db.ts';
import type { Database } from '../../src/db/database.ts';
import { migrateTo } from '../../src/db/migrator.ts';
import { TABLES, tablesOfKind } from '../../src/db/table-kinds.ts';
import { createDemo } from '../../src/demo/demo.ts';
import { apiClient } from '../setup/api-client.ts';
import {
  dispatchUntilIdle,
  IDS_MIGRATION as MIGRATION,
  PREVIOUS_RELEASE as PREVIOUS,
} from '../setup/previous-release.ts';
import { TEST_MASTER_KEY_HEX } from '../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../setup/factories.ts';
import { type BizapiProcess, fetchJson, runUntilExit, serverEnv, startBizapi } from '../setup/server-process.ts';
import type { Credentials } from '../setup/signed-request.ts';
import { CITUS } from '../setup/test-workers.ts';

vi.setConfig({ testTimeout: 600_000, hookTimeout: 120_000 });

const run = promisify(execFile);

/** PostgreSQL 15's client binaries (`pg_dump`, `pg_restore`, `psql`). */
const PG_BIN = process.env.BIZAPI_TEST_PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** `url` naming database `name` (and, given, another host:port). */
function urlOf(url: string, name: string, hostPort?: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  u.search = '';
  if (hostPort !== undefined) u.host = hostPort;
  return u.toString();
}

/** Runs `bin` of {@link PG_BIN} with `args`; rejects with its stderr when it exits non-zero. */
async function pg(bin: string, args: string[]): Promise<string> {
  try {
    return (await run(path.join(PG_BIN, bin), args, { maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`${bin} ${args.join(' ')}: ${e.stderr ?? e.message}`);
  }
}

/** `psql -X -v ON_ERROR_STOP=1 -At -d url -c command`: the output. */
const psql = (url: string, command: string) =>
  pg('psql', ['-X', '-v', 'ON_ERROR_STOP=1', '-At', '-d', url, '-c', command]);

/** Row counts of every declared table but the migrator's. */
/** Tables created by migrations after the previous release (none of its data to move): 2026_11_28_0120's live followers. */
const NEWER_TABLES = new Set(['event_follower']);

async function counts(db: Kysely<Database>): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of Object.keys(TABLES)) {
    if (table.startsWith('kysely_') || NEWER_TABLES.has(table)) continue;
    out[table] = Number(
      (await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0]!.n,
    );
  }
  return out;
}

/** The largest id of `table`. */
async function maxId(db: Kysely<Database>, table: string): Promise<number> {
  return Number((await sql<{ m: string }>`select max(id) as m from ${sql.table(table)}`.execute(db)).rows[0]!.m);
}

type Get = (b: Credentials, url: string) => Promise<{ status: number; body: any }>;

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
];

/**
 * What the API answers a business: each list (up to 100 rows) and each record of it by id (but events and members, which have none), and the
 * event feed from the start with its sequences.
 */
async function reads(get: Get, b: Credentials): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const list of LISTS) {
    const res = await get(b, `/v1/${list}?page_size=100`);
    expect(res.status, `${list}: ${JSON.stringify(res.body)}`).toBe(200);
    out[list] = res.body.results;
    if (list === 'event' || list === 'member') continue; // no GET by id
    for (const { id } of res.body.results as { id: number }[]) {
      const one = await get(b, `/v1/${list}/${id}`);
      expect(one.status, `${list}/${id}`).toBe(200);
      const { requestId: _, ...rest } = one.body as Record<string, unknown>;
      out[`${list}/${id}`] = rest;
    }
  }
  const feed = await get(b, '/v1/event?after_sequence=0&page_size=100');
  expect(feed.status).toBe(200);
  out.feed = feed.body;
  return out;
}

describe.skipIf(!CITUS)('from a single PostgreSQL of the previous release to Citus (§10 step 2, as written)', () => {
  const coordinator = process.env.DATABASE_URL ?? '';
  const base = decodeURIComponent(new URL(coordinator || 'postgres://x/x').pathname.slice(1));
  const srcName = `${base}_move_src`;
  const dstName = `${base}_move`;
  // the describe body runs while the file is collected, also where it is skipped (no Citus, no DATABASE_URL)
  const dir = CITUS ? mkdtempSync(path.join(os.tmpdir(), 'bizapi-citus-move-')) : '';
  const admin = CITUS ? urlOf(coordinator, 'postgres') : '';
  let nodes: string[] = []; // host:port of every node, the coordinator first
  let server: BizapiProcess | undefined;
  let receiver: http.Server | undefined;

  /** Drops the move's databases on every node (leftovers of an earlier run too). */
  async function dropDatabases(): Promise<void> {
    await psql(admin, `drop database if exists ${srcName} with (force)`);
    for (const node of nodes)
      await psql(urlOf(coordinator, 'postgres', node), `drop database if exists ${dstName} with (force)`);
  }

  afterAll(async () => {
    await server?.stop();
    receiver?.close();
    if (nodes.length > 0) await dropDatabases();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`moves a database at ${PREVIOUS} with its data and ids, and it answers and writes the same`, async () => {
    const coordinatorNode = new URL(coordinator).host;
    const workers = (
      await psql(
        urlOf(coordinator, base),
        "select nodename || ':' || nodeport from pg_dist_node where groupid <> 0 and noderole = 'primary' order by nodeid",
      )
    )
      .split('\n')
      .filter(Boolean);
    expect(workers.length).toBeGreaterThan(0);
    nodes = [coordinatorNode, ...workers];
    await dropDatabases();

    // The single PostgreSQL of the previous release, filled through its API.
    await psql(admin, `create database ${srcName}`);
    const srcUrl = urlOf(coordinator, srcName);
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      BIZAPI_MAX_EVENT_LOOP_DELAY: '0',
      BIZAPI_RATE_LIMIT: '0',
      BIZAPI_WEBHOOK_ALLOW_PRIVATE: 'true',
      BIZAPI_MASTER_KEY: TEST_MASTER_KEY_HEX,
      BIZAPI_DATA_DIR: dir,
      DATABASE_URL: srcUrl,
    });
    const masterKey = config.masterKey!;
    const src = createDb({ dialect: 'postgres', url: srcUrl });
    let app = undefined as Awaited<ReturnType<typeof buildApp>> | undefined;
    const { call } = apiClient(() => app!);
    const getInProcess: Get = async (b, url) => call(b, { method: 'GET', url });
    let businesses: Credentials[];
    let hooked: TestBusiness;
    let before: Record<string, unknown>[];
    let rowsBefore: Record<string, number>;
    const maxBefore: Record<string, number> = {};
    let lastSequence: number;
    try {
      await migrateTo(src, PREVIOUS);
      expect(
        (
          await sql<{
            t: string;
          }>`select data_type as t from information_schema.columns where table_name = 'client' and column_name = 'id'`.execute(
            src,
          )
        ).rows[0]!.t,
      ).toBe('integer');
      // This code's event INSERT asks whether a live follower listens, in `event_follower` (migration
      // 2026_11_28_0120), which that schema lacks: an empty stand-in while filling, dropped before the move.
      await sql`create table event_follower (business_id bigint, owner text, expires_at timestamptz)`.execute(src);
      app = await buildApp(config, { db: src, masterKey });
      const demo = await createDemo(src, masterKey);
      hooked = await newBusiness({ testDb: { db: src }, masterKey });
      receiver = http.createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
      await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
      const hook = await call(hooked, {
        method: 'POST',
        url: '/v1/webhook',
        body: {
          url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/in`,
          eventTypes: ['client.created', 'client.updated'],
        },
      });
      expect(hook.status, JSON.stringify(hook.body)).toBe(201);
      for (let i = 0; i < 5; i++) {
        const c = await call(hooked, { method: 'POST', url: '/v1/client', body: { companyName: `Before ${i}` } });
        expect(c.status, JSON.stringify(c.body)).toBe(201);
        expect(
          (await call(hooked, { method: 'PATCH', url: `/v1/client/${c.body.id}`, body: { contact: `010-${i}` } }))
            .status,
        ).toBe(200);
      }
      await dispatchUntilIdle(src, config, hooked.businessId);
      businesses = [demo, hooked];
      before = [];
      for (const b of businesses) before.push(await reads(getInProcess, b));
      await app.close();
      app = undefined;
      await sql`drop table event_follower`.execute(src);
      rowsBefore = await counts(src);
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
      ]) {
        expect(rowsBefore[table], table).toBeGreaterThan(0);
        maxBefore[table] = await maxId(src, table);
      }
      lastSequence = Number((await sql<{ m: string }>`select max(sequence) as m from event`.execute(src)).rows[0]!.m);
      expect(lastSequence).toBeGreaterThan(0);
    } finally {
      await app?.close();
      await src.destroy();
    }

    // §10 step 1: the database with the extension on every node, the workers added.
    const dstUrl = urlOf(coordinator, dstName);
    for (const node of nodes) {
      await psql(urlOf(coordinator, 'postgres', node), `create database ${dstName}`);
      await psql(urlOf(coordinator, dstName, node), 'create extension citus');
    }
    const [host, port] = coordinatorNode.split(':');
    await psql(dstUrl, `select citus_set_coordinator_host('${host}', ${Number(port ?? 5432)})`);
    for (const w of workers) {
      const [wh, wp] = w.split(':');
      await psql(dstUrl, `select citus_add_node('${wh}', ${Number(wp)})`);
    }

    // §10 step 2: dump the single PostgreSQL, restore into the coordinator.
    const dump = path.join(dir, 'bizapi.dump');
    await pg('pg_dump', ['-Fc', '-f', dump, '-d', srcUrl]);
    await pg('pg_restore', ['--no-owner', '--exit-on-error', '-d', dstUrl, dump]);

    // §10 step 3: migrate, then distribute.
    const env = serverEnv({ databaseUrl: dstUrl, dataDir: dir });
    const migrated = await runUntilExit(['migrate'], env);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout + migrated.stderr).toContain(MIGRATION);
    const distributed = await runUntilExit(['distribute'], env);
    expect(distributed.code, distributed.stderr).toBe(0);
    const result = JSON.parse(distributed.stdout) as { reference: string[]; distributed: string[]; local: string[] };
    expect(result.reference.sort()).toEqual(tablesOfKind('reference').sort());
    expect(result.distributed.sort()).toEqual(tablesOfKind('business').sort());

    // §10 step 4: every business-owned table distributed on business_id, one colocation group.
    const parts = (
      await psql(
        dstUrl,
        "select logicalrelid::text || ' ' || column_to_column_name(logicalrelid, partkey) || ' ' || colocationid from pg_dist_partition where partmethod = 'h'",
      )
    )
      .split('\n')
      .filter(Boolean)
      .map((p) => p.split(' '));
    expect(parts.map((p) => p[0]).sort()).toEqual(tablesOfKind('business').sort());
    expect(new Set(parts.map((p) => p[1]))).toEqual(new Set(['business_id']));
    expect(new Set(parts.map((p) => p[2])).size).toBe(1);

    // The same rows in every table.
    const dst = createDb({ dialect: 'postgres', url: dstUrl });
    try {
      expect(await counts(dst)).toEqual(rowsBefore);
      const narrow = await sql<{ c: string }>`
        select table_name || '.' || column_name as c from information_schema.columns
        where table_schema = 'public' and table_name = any(${Object.keys(TABLES)}) and data_type in ('integer', 'smallint')
          and (column_name = 'id' or column_name like '%\\_id')`.execute(dst);
      expect(narrow.rows).toEqual([]);
    } finally {
      await dst.destroy();
    }

    // A server on the coordinator: the same answers, and writes.
    server = await startBizapi(['serve'], env);
    const origin = `http://127.0.0.1:${server.port}`;
    const getServed: Get = (b, url) => fetchJson(origin, b, 'GET', url);
    for (const [i, b] of businesses!.entries()) expect(await reads(getServed, b)).toEqual(before![i]);
    const created = await fetchJson(origin, hooked!, 'POST', '/v1/client', { companyName: 'After the move' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.id).toBeGreaterThan(maxBefore.client!);
    const patched = await fetchJson(origin, hooked!, 'PATCH', `/v1/client/${created.body.id}`, {
      contact: '010-after',
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const again = await fetchJson(origin, hooked!, 'GET', `/v1/client/${created.body.id}`);
    expect(again.body).toMatchObject({ companyName: 'After the move', contact: '010-after' });
    // a record referencing a moved one, in the demo business
    const inquiryId = (before![0]!.inquiry as { id: number }[])[0]!.id;
    const todo = await fetchJson(origin, businesses![0]!, 'POST', '/v1/todo', {
      type: 'CA',
      dueDate: '2026-12-01',
      action: 'Call',
      inquiry: { id: inquiryId },
    });
    expect(todo.status, JSON.stringify(todo.body)).toBe(201);
    expect(todo.body.id).toBeGreaterThan(maxBefore.todo!);
    const newEvents = async (b: Credentials) => {
      const feed = await fetchJson(origin, b, 'GET', `/v1/event?after_sequence=${lastSequence!}&page_size=100`);
      expect(feed.status).toBe(200);
      const events = feed.body.results as { sequence: number; type: string; data: { id: number } }[];
      for (const e of events) expect(e.sequence).toBeGreaterThan(lastSequence!);
      return events.map((e) => `${e.type} ${e.data.id}`);
    };
    expect(await newEvents(hooked!)).toEqual([
      `client.created ${created.body.id}`,
      `client.updated ${created.body.id}`,
    ]);
    expect(await newEvents(businesses![0]!)).toEqual([`todo.created ${todo.body.id}`]);
  });
});
