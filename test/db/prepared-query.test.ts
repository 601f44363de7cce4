/**
 * preparedQuery (src/db/prepared-query.ts) on the dialect under test: the query compiled once answers for
 * each new set of argument values, outside and inside transactions (on PostgreSQL as a named prepared
 * statement), preparedPage gives fetchPage's pages, and a build that does not pass an
 * argument as a parameter is refused.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usesNamedStatements } from '../../src/config.ts';
import { preparedQuery } from '../../src/db/prepared-query.ts';
import type { Db } from '../../src/db/database.ts';
import { createBusiness } from '../../src/modules/auth/auth.service.ts';
import { type CursorPosition, fetchPage, newestFirst, noFilters, preparedPage } from '../../src/shared/pagination.ts';
import { DIALECT, openTestDb, type TestDb } from '../setup/test-db.ts';

let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
});
afterAll(async () => {
  await t.close();
});

const gradesOf = preparedQuery(2, (db: Db, businessId: number, title: string) =>
  db
    .selectFrom('grade')
    .select(['title'])
    .where('business_id', '=', businessId)
    .where('title', '!=', title)
    .orderBy('title'),
);

describe(`preparedQuery on ${DIALECT}`, () => {
  it('answers with the values of each call, the same rows as the query built each time', async () => {
    const a = await createBusiness(t.db, { name: 'Prepared A', plan: 'FREE', timezone: 'UTC' });
    const b = await createBusiness(t.db, { name: 'Prepared B', plan: 'FREE', timezone: 'UTC' });
    const created = '2026-01-02T03:04:05.678Z';
    await t.db
      .insertInto('grade')
      .values([
        { business_id: a.id, title: 'Gold', created },
        { business_id: a.id, title: 'Silver', created },
        { business_id: b.id, title: 'Bronze', created },
      ])
      .execute();
    expect(await gradesOf(t.db, a.id, 'none')).toEqual([{ title: 'Gold' }, { title: 'Silver' }]);
    expect(await gradesOf(t.db, a.id, 'Gold')).toEqual([{ title: 'Silver' }]);
    expect(await gradesOf(t.db, b.id, 'none')).toEqual([{ title: 'Bronze' }]);
    // Concurrent calls each get their own values.
    const [x, y] = await Promise.all([gradesOf(t.db, a.id, 'Silver'), gradesOf(t.db, b.id, 'Bronze')]);
    expect(x).toEqual([{ title: 'Gold' }]);
    expect(y).toEqual([]);
    // Inside a transaction, the transaction's connection answers: it sees its own uncommitted row.
    await t.db.transaction().execute(async (trx) => {
      await trx.insertInto('grade').values({ business_id: b.id, title: 'Iron', created }).execute();
      expect(await gradesOf(trx, b.id, 'none')).toEqual([{ title: 'Bronze' }, { title: 'Iron' }]);
    });
  });

  it.runIf(DIALECT === 'postgres')(
    'runs as a named prepared statement on PostgreSQL, parsed once per connection (none behind a transaction-mode pooler)',
    async () => {
      // behind a transaction-mode pooler (the pooled run, test/setup/test-workers.ts) named statements are off
      const named = t.config.dialect === 'postgres' && usesNamedStatements(t.config);
      await t.db.transaction().execute(async (trx) => {
        await gradesOf(trx, 1, 'x');
        await gradesOf(trx, 2, 'y');
        const { rows } = await sql<{ statement: string; parameter_types: string }>`
        select statement, parameter_types::text from pg_prepared_statements where name like 'bizapi\_%' and statement like '%"grade"%'
      `.execute(trx);
        expect(rows).toHaveLength(named ? 1 : 0);
        if (named) expect(rows[0]!.statement).toContain('"title" != $2');
      });
    },
  );

  it('preparedPage answers the pages fetchPage gives, first, forward and backward: rows, next and previous', async () => {
    const biz = await createBusiness(t.db, { name: 'Prepared page', plan: 'FREE', timezone: 'UTC' });
    await t.db
      .insertInto('grade')
      .values(
        ['A', 'B', 'C', 'D', 'E'].map((title, i) => ({
          business_id: biz.id,
          title,
          created: `2026-01-0${i + 1}T00:00:00.000Z`,
        })),
      )
      .execute();
    const base = (db: Db, businessId: number) =>
      db.selectFrom('grade').select(['id', 'title', 'created']).where('business_id', '=', businessId);
    const order = newestFirst<{ id: number; title: string; created: string }>('grade');
    const page = preparedPage(base, order);
    for (const size of [1, 2, 3, 6]) {
      // Walk forward to the end and back again, comparing every page with fetchPage's.
      let cursor: CursorPosition | undefined;
      for (let step = 0; step < 12; step++) {
        const expected = await fetchPage(base(t.db, biz.id), order, size, cursor);
        const got = await page(t.db, biz.id, size, cursor);
        expect(got, `size ${size}, step ${step}`).toEqual(expected);
        cursor = step < 6 && got.next ? got.next : (got.previous ?? undefined);
        if (!cursor) break;
      }
    }
    const first = await page(t.db, biz.id, 2, undefined);
    expect(first.rows.map((r) => r.title)).toEqual(['E', 'D']);
    expect((await page(t.db, biz.id, 2, first.next!)).rows.map((r) => r.title)).toEqual(['C', 'B']);
    await expect(page(t.db, biz.id, 2, { values: [1], reverse: false })).rejects.toThrow();
    expect(noFilters({ search: [], statusId: undefined })).toBe(true);
    expect(noFilters({ search: ['x'] })).toBe(false);
    expect(noFilters({ search: [], isHidden: false })).toBe(false);
  });

  it('refuses a build that does not pass an argument to Kysely as a value', async () => {
    const broken = preparedQuery(2, (db: Db, businessId: number, _unused: string) =>
      db.selectFrom('grade').select('id').where('business_id', '=', businessId),
    );
    await expect(broken(t.db, 1, 'x')).rejects.toThrow(/argument 1 is not a parameter/);
  });
});
