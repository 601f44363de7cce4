/**
 * 64-bit ids on the wire (docs/api.md#ids): ids past 32 bits are stored and answered exactly, an id above
 * 2^53 − 1 in a path, a query filter or a body is a 400 (never a rounded number, never a 500), and on
 * PostgreSQL a bigint beyond 2^53 − 1 is refused loudly when read.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness } from '../../setup/factories.ts';
import { apiClient, expect400 } from '../../setup/api-client.ts';
import { DIALECT } from '../../setup/test-db.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const { get, post } = apiClient(() => t.app);
const TOO_LARGE = '9007199254740992'; // 2^53: JSON cannot tell it from 2^53 + 1
const MAX = 9007199254740991;
const tooLarge = [`Ensure this value is less than or equal to ${MAX}.`];

it('stores and answers an id past 32 bits exactly', async () => {
  const b = await newBusiness(t);
  const id = 5_000_000_123;
  await sql`insert into client (id, business_id, company_name, created, updated) values (${id}, ${b.businessId}, 'Wide', ${new Date().toISOString()}, ${new Date().toISOString()})`.execute(
    t.testDb.db,
  );
  const res = await get(b, `/v1/client/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.id).toBe(id);
  const list = await get(b, '/v1/client');
  expect((list.body.results as { id: number }[]).map((c) => c.id)).toContain(id);
});

it('a path id above 2^53 − 1 is a 400; up to it, an unknown id is a 404', async () => {
  const b = await newBusiness(t);
  expect400(await get(b, `/v1/client/${TOO_LARGE}`), { client_id: tooLarge });
  expect((await get(b, `/v1/client/${MAX}`)).status).toBe(404);
  expect((await get(b, '/v1/client/3000000000')).status).toBe(404);
});

it('a query filter id above 2^53 − 1 is a 400; past 32 bits it filters', async () => {
  const b = await newBusiness(t);
  expect400(await get(b, `/v1/settlement?contract_id=${TOO_LARGE}`), { contract_id: tooLarge });
  const res = await get(b, '/v1/settlement?contract_id=3000000000');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.results).toEqual([]);
});

it('a body id above 2^53 − 1 is a 400 and writes nothing; past 32 bits it is an unknown record', async () => {
  const b = await newBusiness(t);
  const wide = await post(b, '/v1/client', { companyName: 'Ref', status: { id: 3_000_000_000 } });
  expect(wide.status, JSON.stringify(wide.body)).toBe(400);
  expect(JSON.stringify(wide.body)).toContain('Invalid pk \\"3000000000\\" - object does not exist.');
  const res = await post(b, '/v1/client', { companyName: 'Ref', status: { id: Number(TOO_LARGE) } });
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(JSON.stringify(res.body)).toContain(tooLarge[0]);
  expect((await get(b, '/v1/client')).body.results).toEqual([]);
});

it.runIf(DIALECT === 'postgres')(
  'PostgreSQL: a bigint beyond 2^53 − 1 is refused when read, never rounded',
  async () => {
    const ok = await sql<{ n: number }>`select ${sql.lit(MAX)}::bigint as n`.execute(t.testDb.db);
    expect(ok.rows[0]!.n).toBe(MAX);
    await expect(sql`select 9007199254740993::bigint as n`.execute(t.testDb.db)).rejects.toThrow(/beyond 2\^53 - 1/);
  },
);
