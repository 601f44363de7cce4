/**
 * The database layer on the dialect under test: pinned runtime types (architecture: Data), SQLite pragmas,
 * and list indexes that lead with `business_id`.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { loadSqliteDriver, pgTimestampToIso } from '../../src/db/create-db.ts';
import type { Db } from '../../src/db/database.ts';
import { inRelaxedTransaction } from '../../src/db/durability.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';
import { createBusiness } from '../../src/modules/auth/auth.service.ts';
import { DIALECT, openTestDb, type TestDb } from '../setup/test-db.ts';

let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
});
afterAll(async () => {
  await t.close();
});

describe(`database on ${DIALECT}`, () => {
  it('returns the same JavaScript types on both dialects', async () => {
    const business = await createBusiness(t.db, { name: 'Types', plan: 'FREE', timezone: 'UTC' });
    const grade = await t.db
      .insertInto('grade')
      .values({ business_id: business.id, title: 'G', created: '2026-01-02T03:04:05.678Z' })
      .returning(['id', 'created'])
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('member')
      .values({
        business_id: business.id,
        nickname: null,
        email: 'x@example.com',
        is_active: 1,
        grade_id: grade.id,
        notifications_enabled: 0,
        created: '2026-01-02T03:04:05.678Z',
      })
      .execute();
    const member = await t.db
      .selectFrom('member')
      .select(['id', 'is_active', 'notifications_enabled', 'created', 'nickname'])
      .where('business_id', '=', business.id)
      .executeTakeFirstOrThrow();
    expect(typeof member.id).toBe('number');
    expect(member.is_active).toBe(1);
    expect(member.notifications_enabled).toBe(0);
    expect(member.created).toBe('2026-01-02T03:04:05.678Z');
    expect(member.nickname).toBeNull();
    expect(grade.created).toBe('2026-01-02T03:04:05.678Z');

    const count = await t.db
      .selectFrom('member')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('business_id', '=', business.id)
      .executeTakeFirstOrThrow();
    expect(count.n).toBe(1);
  });

  it('compares stored date-times chronologically', async () => {
    const business = await createBusiness(t.db, { name: 'Order', plan: 'FREE', timezone: 'UTC' });
    for (const created of ['2026-01-02T00:00:00.000Z', '2026-01-01T23:59:59.999Z', '2026-01-02T00:00:00.001Z']) {
      await t.db.insertInto('grade').values({ business_id: business.id, title: created, created }).execute();
    }
    const rows = await t.db
      .selectFrom('grade')
      .select('created')
      .where('business_id', '=', business.id)
      .where('created', '>=', '2026-01-02T00:00:00.000Z')
      .orderBy('created', 'desc')
      .execute();
    expect(rows.map((r) => r.created)).toEqual(['2026-01-02T00:00:00.001Z', '2026-01-02T00:00:00.000Z']);
  });

  it('migrating again changes nothing', async () => {
    expect(await migrateToLatest(t.db)).toEqual([]);
  });

  it.runIf(DIALECT === 'sqlite')('runs SQLite in WAL mode with synchronous=FULL and foreign keys on', async () => {
    const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(t.db);
    expect(mode.rows[0]?.journal_mode).toBe('wal');
    const sync = await sql<{ synchronous: number }>`pragma synchronous`.execute(t.db);
    expect(sync.rows[0]?.synchronous).toBe(2);
    const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(t.db);
    expect(fk.rows[0]?.foreign_keys).toBe(1);
  });

  it("commits the queue's relaxed transactions without waiting for the disk, and every other one as configured, also after a failure (docs/deployment.md#durability)", async () => {
    const durability = (db: Db) =>
      DIALECT === 'sqlite'
        ? sql<{ v: unknown }>`select synchronous as v from pragma_synchronous`
            .execute(db)
            .then((r) => String(r.rows[0]?.v))
        : sql<{ v: unknown }>`show synchronous_commit`
            .execute(db)
            .then((r) => String(Object.values(r.rows[0] ?? {})[0]));
    const [relaxed, full] = DIALECT === 'sqlite' ? ['1', '2'] : ['off', 'on'];
    expect(await inRelaxedTransaction(t.db, (trx) => durability(trx))).toBe(relaxed);
    expect(await durability(t.db)).toBe(full);
    expect(await t.db.transaction().execute((trx) => durability(trx))).toBe(full);
    // a relaxed transaction that fails leaves the connection as configured too
    await expect(
      inRelaxedTransaction(t.db, async (trx) => {
        expect(await durability(trx)).toBe(relaxed);
        await sql`select * from no_such_table`.execute(trx);
      }),
    ).rejects.toThrow();
    expect(await durability(t.db)).toBe(full);
    expect(await t.db.transaction().execute((trx) => durability(trx))).toBe(full);
    // inside a caller's transaction: the caller's durability
    expect(await t.db.transaction().execute((trx) => inRelaxedTransaction(trx, (inner) => durability(inner)))).toBe(
      full,
    );
  });

  it('leads every index of a business-owned table with business_id', async () => {
    const known = [
      'api_key',
      'grade',
      'member',
      'folder',
      'inquiry_status',
      'client_status',
      'field',
      'field_option',
      'field_member',
      'contract_category',
      'settlement_type',
      'worker_position',
      'client',
      'client_field_value',
      'inquiry_counter',
      'inquiry',
      'inquiry_in_charge',
      'inquiry_work',
      'inquiry_field_value',
      'inquiry_file_link',
      'inquiry_status_history',
      'inquiry_folder_history',
      'inquiry_text_history',
      'inquiry_email_history',
      'inquiry_email_reply_history',
      'inquiry_submit_history',
    ];
    // Every table with a business_id column is business-owned, including those of later migrations.
    // PostgreSQL: the introspection lists every schema's tables (the other test workers' too); ours only.
    const schema =
      DIALECT === 'postgres'
        ? (await sql<{ s: string }>`select current_schema() as s`.execute(t.db)).rows[0]?.s
        : undefined;
    const owned = (await t.db.introspection.getTables())
      .filter((table) => schema === undefined || table.schema === schema)
      .filter((table) => table.columns.some((c) => c.name === 'business_id'))
      .map((table) => table.name);
    expect(owned).toEqual(expect.arrayContaining(known));
    const tables = owned;
    const firstColumns: { table: string; index: string; first: string }[] = [];
    tables.push(
      'contract',
      'contract_category_link',
      'contract_field_value',
      'contract_note',
      'settlement',
      'settlement_in_charge',
      'settlement_status_history',
      'settlement_note',
    );
    if (DIALECT === 'sqlite') {
      for (const table of tables) {
        const list = await sql<{
          name: string;
          origin: string;
        }>`select name, origin from pragma_index_list(${table})`.execute(t.db);
        for (const idx of list.rows.filter((r) => r.origin === 'c')) {
          const info = await sql<{
            name: string;
            seqno: number;
          }>`select name, seqno from pragma_index_info(${idx.name}) order by seqno`.execute(t.db);
          firstColumns.push({ table, index: idx.name, first: info.rows[0]?.name ?? '' });
        }
      }
    } else {
      const rows = await sql<{ table: string; index: string; def: string }>`
        select tablename as table, indexname as index, indexdef as def from pg_indexes
        where schemaname = current_schema() and indexname not like '%_pkey' and indexname not like '%_key'
          and indexname not like '%_uq' and indexname not like '%_pk'`.execute(t.db);
      for (const r of rows.rows.filter((r) => tables.includes(r.table))) {
        firstColumns.push({ table: r.table, index: r.index, first: /\((\w+)/.exec(r.def)?.[1] ?? '' });
      }
    }
    expect(firstColumns.length).toBeGreaterThanOrEqual(tables.length);
    // Not list indexes: queues that background jobs scan across every business.
    // (and the expiry sweeps of the Idempotency-Key and signature replay caches, migration 0032).
    // Events and webhooks (migrations 0037, 0039): the fan-out queue, the delivery queue, the retention
    // sweeps, and the delivery → endpoint foreign key that a deleted endpoint's cascade looks up.
    // The import's origin lookup (migration 0042): which business an import from this source continues into.
    // The dispatcher's attempts in flight (migration 0043), counted per endpoint and business across them all.
    // The events still without a sequence (migration 0045): the assigner's queue, across businesses.
    // An endpoint's pending deliveries in claim order (migration 0047): the claim reads each endpoint's oldest.
    const crossBusiness = [
      'notification_outbox_due_idx',
      'idempotency_key_expires_idx',
      'signature_replay_expires_idx',
      'event_unpublished_idx',
      'event_created_idx',
      'webhook_delivery_due_idx',
      'webhook_delivery_created_idx',
      'webhook_delivery_webhook_idx',
      'transfer_origin_source_idx',
      'webhook_delivery_leased_idx',
      'event_unsequenced_idx',
      'webhook_delivery_endpoint_due_idx',
      // The parked endpoints (migration 0050), which every dispatcher poll looks through for those that answer again.
      'webhook_endpoint_parked_idx',
    ];
    // The look-ups by id alone (migration 0060 keys by (business_id, id) and keeps a plain index on id).
    const byId = (f: { table: string; index: string }): boolean => f.index === `${f.table}_id_idx`;
    for (const c of firstColumns.filter((f) => !crossBusiness.includes(f.index) && !byId(f))) {
      expect(c.first, `${c.table}.${c.index}`).toBe('business_id');
    }
  });

  it('loads better-sqlite3 13 where Node-API 10 exists (Node 22.14+, 24), else 12 (Node 20)', () => {
    const require = createRequire(import.meta.url);
    const expected = Number(process.versions.napi) >= 10 ? 'better-sqlite3-napi' : 'better-sqlite3';
    expect(loadSqliteDriver()).toBe(require(expected));
    const major = (require(`${expected}/package.json`) as { version: string }).version.split('.')[0];
    expect(major).toBe(expected === 'better-sqlite3' ? '12' : '13');
  });

  it('parses PostgreSQL timestamps to ISO strings in UTC', () => {
    expect(pgTimestampToIso('2026-11-22 05:31:56.123+00')).toBe('2026-11-22T05:31:56.123Z');
    expect(pgTimestampToIso('2026-11-22 14:31:56.123+09')).toBe('2026-11-22T05:31:56.123Z');
    expect(pgTimestampToIso('2026-11-22 05:31:56+05:30')).toBe('2026-11-22T00:01:56.000Z');
    expect(pgTimestampToIso('2026-11-22 05:31:56.123456+00')).toBe('2026-11-22T05:31:56.123Z');
  });
});
