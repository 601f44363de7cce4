/**
 * The outbox writer `enqueueEvent` (decisions §8), at the database level on the dialect under test: only
 * this business's active members with notifications on, one row per recipient, written in the caller's
 * transaction (a rollback leaves nothing), nothing when nobody remains; and the schema's indexes.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as repo from '../../../src/modules/notification/notification.repository.ts';
import {
  enqueueEvent,
  type NotificationEvent,
  outboxBacklog,
} from '../../../src/modules/notification/notification.service.ts';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness } from '../../setup/factories.ts';
import { DIALECT } from '../../setup/test-db.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe(`enqueueEvent on ${DIALECT}`, () => {
  it('writes one due row per active member with notifications on, in this business only', async () => {
    const b = await newBusiness(t);
    const other = await newBusiness(t);
    const { kim, lee, park } = b.ids.members;
    const event: NotificationEvent = {
      type: 'inquiry.created',
      inquiryId: 41,
      // lee has notifications off, park is inactive, the other business's kim is not a member here
      memberIds: [kim!, lee!, park!, other.ids.members.kim!, kim!, 999_999],
    };
    const ids = await t.testDb.db.transaction().execute((trx) => enqueueEvent(trx, b.businessId, event));
    expect(ids).toHaveLength(1);
    const rows = await repo.findOutboxByBusiness(t.testDb.db, b.businessId);
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row).toMatchObject({
      id: ids[0],
      business_id: b.businessId,
      member_id: kim,
      event_type: 'inquiry.created',
      inquiry_id: 41,
      attempts: 0,
      lease_owner: null,
      delivered_at: null,
      failed_at: null,
      in_app_at: null,
      email_at: null,
      push_at: null,
    });
    expect(row.next_attempt_at).toBe(row.created);
    expect(JSON.parse(row.payload)).toEqual({});
    expect(await repo.findOutboxByBusiness(t.testDb.db, other.businessId)).toEqual([]);
  });

  it('keeps the optional ids of the event in the payload', async () => {
    const b = await newBusiness(t);
    await t.testDb.db.transaction().execute((trx) =>
      enqueueEvent(trx, b.businessId, {
        type: 'inquiry.status_changed',
        inquiryId: 5,
        memberIds: [b.ids.members.kim!],
        statusId: 9,
        previousStatusId: 8,
      }),
    );
    const [row] = await repo.findOutboxByBusiness(t.testDb.db, b.businessId);
    expect(row?.event_type).toBe('inquiry.status_changed');
    expect(JSON.parse(row!.payload)).toEqual({ statusId: 9, previousStatusId: 8 });
  });

  it('writes nothing when no recipient remains', async () => {
    const b = await newBusiness(t);
    const none = await t.testDb.db.transaction().execute(async (trx) => [
      ...(await enqueueEvent(trx, b.businessId, { type: 'inquiry.in_charge_added', inquiryId: 1, memberIds: [] })),
      ...(await enqueueEvent(trx, b.businessId, {
        type: 'inquiry.text_history_created',
        inquiryId: 1,
        memberIds: [b.ids.members.lee!, b.ids.members.park!],
      })),
    ]);
    expect(none).toEqual([]);
    expect(await repo.findOutboxByBusiness(t.testDb.db, b.businessId)).toEqual([]);
  });

  it('writes nothing when the transaction rolls back', async () => {
    const b = await newBusiness(t);
    await expect(
      t.testDb.db.transaction().execute(async (trx) => {
        const ids = await enqueueEvent(trx, b.businessId, {
          type: 'inquiry.created',
          inquiryId: 3,
          memberIds: [b.ids.members.kim!],
        });
        expect(ids).toHaveLength(1);
        throw new Error('the change failed after the event was written');
      }),
    ).rejects.toThrow('the change failed');
    expect(await repo.findOutboxByBusiness(t.testDb.db, b.businessId)).toEqual([]);
  });

  it('counts pending rows in the backlog', async () => {
    const b = await newBusiness(t);
    const before = await outboxBacklog(t.testDb.db);
    await t.testDb.db
      .transaction()
      .execute((trx) =>
        enqueueEvent(trx, b.businessId, { type: 'inquiry.created', inquiryId: 3, memberIds: [b.ids.members.kim!] }),
      );
    // other test files may write rows concurrently on PostgreSQL: at least ours is counted
    expect(await outboxBacklog(t.testDb.db)).toBeGreaterThanOrEqual(before + 1);
  });

  it('refuses an unknown event type', async () => {
    const b = await newBusiness(t);
    await expect(
      enqueueEvent(t.testDb.db, b.businessId, {
        type: 'inquiry.deleted' as never,
        inquiryId: 1,
        memberIds: [b.ids.members.kim!],
      }),
    ).rejects.toThrow(/unknown notification event type/);
  });
});

describe(`notification tables on ${DIALECT}`, () => {
  it('lead every index with business_id, except the dispatcher queue index', async () => {
    const tables = ['notification_outbox', 'notification'];
    const firstColumns: { index: string; first: string }[] = [];
    if (DIALECT === 'sqlite') {
      for (const table of tables) {
        const list = await sql<{
          name: string;
          origin: string;
        }>`select name, origin from pragma_index_list(${table})`.execute(t.testDb.db);
        for (const idx of list.rows.filter((r) => r.origin !== 'pk')) {
          const info = await sql<{
            name: string;
          }>`select name from pragma_index_info(${idx.name}) order by seqno`.execute(t.testDb.db);
          firstColumns.push({ index: idx.name, first: info.rows[0]?.name ?? '' });
        }
      }
    } else {
      const rows = await sql<{ table: string; index: string; def: string }>`
        select tablename as table, indexname as index, indexdef as def from pg_indexes
        where schemaname = current_schema() and indexname not like '%_pkey'`.execute(t.testDb.db);
      for (const r of rows.rows.filter((r) => tables.includes(r.table))) {
        firstColumns.push({ index: r.index, first: /\((\w+)/.exec(r.def)?.[1] ?? '' });
      }
    }
    expect(firstColumns.map((c) => c.index).sort()).toEqual(
      expect.arrayContaining([
        'notification_business_created_idx',
        'notification_business_member_created_idx',
        'notification_outbox_business_created_idx',
        'notification_outbox_due_idx',
      ]),
    );
    for (const c of firstColumns) {
      if (c.index === 'notification_outbox_due_idx') expect(c.first).toBe('next_attempt_at');
      // migration 0060 keys by (business_id, id) and keeps a plain index on id for look-ups by id alone
      else if (c.index === 'notification_id_idx' || c.index === 'notification_outbox_id_idx')
        expect(c.first).toBe('id');
      else expect(c.first, c.index).toBe('business_id');
    }
  });
});
