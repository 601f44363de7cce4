/**
 * The `search` filter served by the indexes (migrations 0011 trigram, 0033 bigram) gives the results of the
 * substring rule (decisions §5: every term a case-insensitive substring of company name, person in charge,
 * contact or e-mail; `%` and `_` literal), on the database of the run.
 *
 * Property-based: clients with values drawn from a small alphabet (Korean syllables, ASCII letters in both
 * cases, `%`, `_`, space), searched through HTTP with one or two random terms of 1 to 3 characters, compared
 * with the rule computed here; then some clients are renamed and one deleted (the SQLite triggers and the
 * PostgreSQL expression index follow the rows) and the comparison runs again. Plus the Korean two-syllable
 * cases by name (`한빛` at the start, the end and alone; in the person in charge).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { apiClient } from '../../setup/api-client.ts';

vi.setConfig({ testTimeout: 60_000 });

let t: TestApp;
const { call } = apiClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

interface Values {
  companyName: string;
  inCharge: string | null;
  contact: string | null;
}

const ALPHABET = ['한', '빛', '소', '프', 'a', 'A', 'b', 'B', '%', '_', ' '];
const text = (min: number, max: number) =>
  fc.array(fc.constantFrom(...ALPHABET), { minLength: min, maxLength: max }).map((cs) => cs.join(''));
const values: fc.Arbitrary<Values> = fc.record({
  companyName: text(1, 8),
  inCharge: fc.option(text(0, 5), { nil: null }),
  contact: fc.option(text(0, 5), { nil: null }),
});

/** The substring rule, as decisions §5 states it (ASCII case folding: the alphabet's only cased letters). */
function matches(v: Values, terms: readonly string[]): boolean {
  return terms.every((term) =>
    [v.companyName, v.inCharge, v.contact].some(
      (col) => col !== null && col.toLowerCase().includes(term.toLowerCase()),
    ),
  );
}

/** Every id the search returns, following `next`. */
async function searchIds(b: TestBusiness, terms: readonly string[]): Promise<number[]> {
  const ids: number[] = [];
  let url: string | null = `/v1/client?page_size=100&${terms.map((s) => `search=${encodeURIComponent(s)}`).join('&')}`;
  while (url !== null) {
    const res = await call(b, { method: 'GET', url });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    for (const row of res.body.results as { id: number }[]) ids.push(row.id);
    const next = res.body.next as string | null;
    url = next === null ? null : `${new URL(next).pathname}${new URL(next).search}`;
  }
  return ids.sort((x, y) => x - y);
}

async function create(b: TestBusiness, v: Values): Promise<number> {
  const res = await call(b, { method: 'POST', url: '/v1/client', body: v });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}

describe('client search through the indexes = the substring rule', () => {
  it('for random clients and random terms of 1 to 3 characters, before and after renames and a delete', async () => {
    const b = await newBusiness(t);
    const rows = fc.sample(values, { numRuns: 40, seed: 19 });
    const clients = new Map<number, Values>();
    for (const v of rows) clients.set(await create(b, v), v);
    // Another business with the same values: never in the results.
    const other = await newBusiness(t);
    for (const v of rows.slice(0, 10)) await create(other, v);

    const check = async (seed: number) => {
      const termSets = fc.sample(fc.array(text(1, 3), { minLength: 1, maxLength: 2 }), { numRuns: 30, seed });
      for (const terms of [...termSets, ['한빛'], ['aB'], ['%_'], ['빛a']]) {
        const expected = [...clients]
          .filter(([, v]) => matches(v, terms))
          .map(([id]) => id)
          .sort((x, y) => x - y);
        expect(await searchIds(b, terms), JSON.stringify(terms)).toEqual(expected);
      }
    };
    await check(1);

    const ids = [...clients.keys()];
    const renames = fc.sample(values, { numRuns: 8, seed: 7 });
    for (const [i, v] of renames.entries()) {
      const id = ids[i * 3]!;
      const res = await call(b, { method: 'PATCH', url: `/v1/client/${id}`, body: v });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      clients.set(id, v);
    }
    const gone = ids[1]!;
    expect((await call(b, { method: 'DELETE', url: `/v1/client/${gone}` })).status).toBe(204);
    clients.delete(gone);
    await check(2);
  });

  it('finds Korean two-syllable terms at the start, the end, alone, and in the person in charge', async () => {
    const b = await newBusiness(t);
    const start = await create(b, { companyName: '한빛소프트', inCharge: null, contact: null });
    const end = await create(b, { companyName: '주식회사 한빛', inCharge: null, contact: null });
    const alone = await create(b, { companyName: '한빛', inCharge: null, contact: null });
    const person = await create(b, { companyName: 'Acme', inCharge: '김한빛', contact: null });
    await create(b, { companyName: '한 빛', inCharge: '빛한', contact: null });
    expect(await searchIds(b, ['한빛'])).toEqual([start, end, alone, person]);
    expect(await searchIds(b, ['한빛', '소프'])).toEqual([start]);
    expect(await searchIds(b, ['회사'])).toEqual([end]);
  });
});
