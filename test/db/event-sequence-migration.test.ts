/**
 * Migration 2026_11_26_0045_event_parent_sequence on a database that has events already
 * (docs/api.md#events): existing events get sequences 1, 2, … in id order, the counter continues after
 * them, a note event whose note is gone gets no parent, and the event service's assigner goes on from there.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDb } from '../../src/db/create-db.ts';
import { migrateTo, migrateToLatest } from '../../src/db/migrator.ts';
import type { Database } from '../../src/db/database.ts';
import { assignSequences } from '../../src/modules/event/event.service.ts';
import { DIALECT } from '../setup/test-db.ts';
import { urlWithSchema, pgConfig } from '../setup/test-workers.ts';

let db: Kysely<Database>;
let cleanup: () => Promise<void>;
const schema = `evseq_${process.pid}`;

beforeAll(async () => {
  if (DIALECT === 'postgres') {
    const base = createDb(pgConfig(process.env.DATABASE_URL!));
    await sql`create schema ${sql.id(schema)}`.execute(base);
    db = createDb(pgConfig(urlWithSchema(process.env.DATABASE_URL!, schema)));
    cleanup = async () => {
      await db.destroy();
      await sql`drop schema ${sql.id(schema)} cascade`.execute(base);
      await base.destroy();
    };
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-evseq-'));
    db = createDb({ dialect: 'sqlite', path: path.join(dir, 'evseq.db') });
    cleanup = async () => {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    };
  }
});
afterAll(() => cleanup());

it('numbers existing events in id order, and the assigner continues after them', async () => {
  await migrateTo(db, '2026_11_26_0044_client_search_bigram_row');
  const now = new Date().toISOString();
  const k = db as unknown as Kysely<any>;
  const { id: businessId } = await k
    .insertInto('business')
    .values({ name: 'Before 0045', plan: 'pro', timezone: 'UTC', created: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const old = [
    { type: 'client.created', data: '{"id":7}' },
    { type: 'contract.history.deleted', data: '{"id":99}' },
    { type: 'client.updated', data: '{"id":7}' },
  ];
  for (const e of old) {
    await k
      .insertInto('event')
      .values({
        business_id: businessId,
        type: e.type,
        created: now,
        changed_fields: '[]',
        data: e.data,
        published_at: now,
      })
      .execute();
  }

  await migrateToLatest(db);
  const rows = await db
    .selectFrom('event')
    .select(['id', 'type', 'sequence', 'parent_type', 'parent_id'])
    .orderBy('id')
    .execute();
  expect(rows.map((r) => [r.type, Number(r.sequence), r.parent_type, r.parent_id])).toEqual([
    ['client.created', 1, null, null],
    ['contract.history.deleted', 2, null, null],
    ['client.updated', 3, null, null],
  ]);
  expect(
    Number((await db.selectFrom('event_sequence').select('last_value').executeTakeFirstOrThrow()).last_value),
  ).toBe(3);

  // a new event, written without a sequence, gets the next one; the oldest purged, sequences never go back
  await db
    .insertInto('event')
    .values({
      business_id: businessId,
      type: 'client.deleted',
      created: now,
      changed_fields: '[]',
      data: '{"id":7}',
      published_at: null,
      parent_type: null,
      parent_id: null,
    })
    .execute();
  expect(await assignSequences(db)).toBe(1);
  expect(await assignSequences(db)).toBe(0);
  await db.deleteFrom('event').execute();
  await db
    .insertInto('event')
    .values({
      business_id: businessId,
      type: 'client.created',
      created: now,
      changed_fields: '[]',
      data: '{"id":8}',
      published_at: null,
      parent_type: null,
      parent_id: null,
    })
    .execute();
  expect(await assignSequences(db)).toBe(1);
  expect((await db.selectFrom('event').select('sequence').execute()).map((r) => Number(r.sequence))).toEqual([5]);
  // never inside a transaction: the caller's own events are not committed yet
  await expect(db.transaction().execute((trx) => assignSequences(trx))).rejects.toThrow(/never inside a transaction/);
});
