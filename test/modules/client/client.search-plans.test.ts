/**
 * The client search index of migration 0044 (one index row per client) and the plans that use it
 * (docs/api.md#search-plans), through HTTP on the database of the run: every plan gives the answer of the
 * substring rule (decisions §5: every term a case-insensitive substring of company name, person in charge,
 * contact or e-mail; `%` and `_` literal) in the list order, page after page; the index follows creates,
 * changes and deletes; and a database at the previous migration, with clients, searches the same once
 * migrated.
 */
import { readdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { createDb } from '../../../src/db/create-db.ts';
import type { Database } from '../../../src/db/database.ts';
import { migrateTo, migrateToLatest } from '../../../src/db/migrator.ts';
import {
  type ClientFilter,
  type ClientSummaryRow,
  findPagePlanned,
  SEARCH_PLAN_LIMITS,
  type SearchPlan,
} from '../../../src/modules/client/client.repository.ts';
import type { CursorPosition, Page } from '../../../src/shared/pagination.ts';
import { buildTestApp, TEST_MASTER_KEY_HEX, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { apiClient } from '../../setup/api-client.ts';
import { DIALECT } from '../../setup/test-db.ts';
import { countStatements } from '../../setup/statement-count.ts';
import { urlWithSchema, pgConfig } from '../../setup/test-workers.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let t: TestApp;
let app: FastifyInstance;
const { call } = apiClient(() => app);
beforeAll(async () => {
  // Many requests from one key: no rate limit (test/ops/rate-limit.test.ts tests it).
  t = await buildTestApp({ BIZAPI_RATE_LIMIT: '0' });
  app = t.app;
});
afterAll(() => t.close());

interface Client {
  id: number;
  created: string;
  companyName: string;
  inCharge: string | null;
  contact: string | null;
  email: string | null;
}
type Values = Omit<Client, 'id' | 'created'>;

/** The substring rule of decisions §5 (ASCII case folding: the only cased letters these tests use). */
function matches(c: Values, terms: readonly string[]): boolean {
  return terms.every((term) =>
    [c.companyName, c.inCharge, c.contact, c.email].some(
      (v) => v !== null && v.toLowerCase().includes(term.toLowerCase()),
    ),
  );
}

/** The ids the rule selects, in the list order (newest first, ties by id). */
function expected(clients: Iterable<Client>, terms: readonly string[]): number[] {
  return [...clients]
    .filter((c) => matches(c, terms))
    .sort((a, b) => (a.created === b.created ? b.id - a.id : a.created < b.created ? 1 : -1))
    .map((c) => c.id);
}

/** Every id the search returns, in order, following `next` with pages of `size`. */
async function searchIds(b: TestBusiness, terms: readonly string[], size = 100): Promise<number[]> {
  const ids: number[] = [];
  let url: string | null =
    `/v1/client?page_size=${size}&${terms.map((s) => `search=${encodeURIComponent(s)}`).join('&')}`;
  while (url !== null) {
    const res = await call(b, { method: 'GET', url });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    for (const row of res.body.results as { id: number }[]) ids.push(row.id);
    const next = res.body.next as string | null;
    url = next === null ? null : `${new URL(next).pathname}${new URL(next).search}`;
  }
  return ids;
}

async function create(b: TestBusiness, v: Values): Promise<Client> {
  const res = await call(b, { method: 'POST', url: '/v1/client', body: v });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id as number, created: res.body.created as string, ...v };
}

async function patch(b: TestBusiness, c: Client, v: Partial<Values>): Promise<Client> {
  const res = await call(b, { method: 'PATCH', url: `/v1/client/${c.id}`, body: v });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ...c, ...v };
}

const none = { inCharge: null, contact: null, email: null };

describe('the search index follows the clients', () => {
  it('finds a two-character and a longer term in each searched column, in any ASCII case', async () => {
    const b = await newBusiness(t);
    const company = await create(b, { ...none, companyName: '가람Qx 한빛소프트' });
    const person = await create(b, { ...none, companyName: 'Acme', inCharge: '김Qx 한빛소프트' });
    const contact = await create(b, { ...none, companyName: 'Acme', contact: '010-Qx 한빛소프트' });
    const email = await create(b, { ...none, companyName: 'Acme', email: 'qx.hanbit@example.com' });
    await create(b, { ...none, companyName: 'Q x 한 빛' });
    expect(await searchIds(b, ['한빛'])).toEqual([contact.id, person.id, company.id]);
    expect(await searchIds(b, ['한빛소프트'])).toEqual([contact.id, person.id, company.id]);
    expect(await searchIds(b, ['qX'])).toEqual([email.id, contact.id, person.id, company.id]);
    expect(await searchIds(b, ['QX.HAN'])).toEqual([email.id]);
    expect(await searchIds(b, ['김Q'])).toEqual([person.id]);
    expect(await searchIds(b, ['0-'])).toEqual([contact.id]);
  });

  it('a client changed or deleted leaves and joins the results', async () => {
    const b = await newBusiness(t);
    let c = await create(b, { ...none, companyName: 'Harbor Trading' });
    const other = await create(b, { ...none, companyName: '다온 Harbor' });
    expect(await searchIds(b, ['다온'])).toEqual([other.id]);
    c = await patch(b, c, { companyName: '다온 시스템' });
    expect(await searchIds(b, ['다온'])).toEqual([other.id, c.id]);
    expect(await searchIds(b, ['Harbor'])).toEqual([other.id]);
    c = await patch(b, c, { companyName: 'Plain', inCharge: '박다온' });
    expect(await searchIds(b, ['다온'])).toEqual([other.id, c.id]);
    expect(await searchIds(b, ['시스'])).toEqual([]);
    c = await patch(b, c, { inCharge: null, email: 'daon@x.example' });
    expect(await searchIds(b, ['다온'])).toEqual([other.id]);
    expect(await searchIds(b, ['on'])).toEqual([c.id]);
    expect((await call(b, { method: 'DELETE', url: `/v1/client/${other.id}` })).status).toBe(204);
    expect(await searchIds(b, ['다온'])).toEqual([]);
    expect(await searchIds(b, ['Harbor'])).toEqual([]);
  });

  it('serves one-, two- and longer terms alike: the rule decides, with % and _ literal', async () => {
    const b = await newBusiness(t);
    const values: Values[] = [
      { ...none, companyName: '한빛%_소프트' },
      { ...none, companyName: 'ab_cd', inCharge: 'A%B' },
      { ...none, companyName: 'AB', contact: 'x' },
      { ...none, companyName: '빛', email: 'Ab@x.example' },
      { ...none, companyName: 'a b', inCharge: '_' },
      { ...none, companyName: '😀한빛', contact: 'É😀' },
    ];
    const clients = [];
    for (const v of values) clients.push(await create(b, v));
    for (const terms of [
      ['빛'],
      ['a'],
      ['_'],
      ['%'],
      ['ab'],
      ['AB'],
      ['%_'],
      ['b_'],
      ['a%b'],
      ['빛%_소'],
      ['ab', 'x'],
      ['a', '_'],
      ['ab_c'],
      ['zz'],
      ['😀한'],
      ['😀'],
      ['É😀'],
    ]) {
      expect(await searchIds(b, terms), JSON.stringify(terms)).toEqual(expected(clients, terms));
    }
  });
});

/** A client of the plan tests, with the values the list filters read. */
interface ListedClient extends Client {
  isHidden: boolean;
  statusId: number;
}

/** The rule of the list filters (docs/api.md#filters) on top of {@link matches}, as the repository takes them. */
function selects(c: ListedClient, terms: readonly string[], filter: Omit<ClientFilter, 'search'>): boolean {
  return (
    matches(c, terms) &&
    (filter.isHidden === undefined || c.isHidden === filter.isHidden) &&
    (filter.statusId === undefined || c.statusId === filter.statusId) &&
    (filter.createdFrom === undefined || c.created >= filter.createdFrom) &&
    (filter.createdTo === undefined || c.created < filter.createdTo)
  );
}

/**
 * Small limits, so that each plan is chosen on a few hundred clients (the defaults need tens of thousands):
 * probe 8 entries, the scan from a density of 1 in 2, driven below 100 candidates, narrowed below 400.
 */
const TEST_LIMITS = { probe: 8, scanDensity: 0.5, drivenBelow: 100, narrowedBelow: 400 };

describe('every plan gives the answer of the rule', () => {
  let b: TestBusiness;
  const clients: ListedClient[] = [];
  const defaults = { ...SEARCH_PLAN_LIMITS };
  beforeAll(async () => {
    Object.assign(SEARCH_PLAN_LIMITS, TEST_LIMITS);
    b = await newBusiness(t);
    // 600 older clients carry 한빛 and "Older", the 100 newest do not: common terms absent from the newest
    // stretch of the list (scanned) beside rare ones (섬진: 5, driven), "Kim 4" (70, driven by the trigram
    // index) and "ri" (every third e-mail: 234, narrowed).
    const values = (i: number) => ({
      companyName: `Client ${i}${i < 600 ? ' 한빛 Older' : ' Newer'}${i % 150 === 7 ? ' 섬진' : ''}`,
      inCharge: i % 2 === 0 ? `Kim ${i % 10}` : null,
      contact: null,
      email: i % 3 === 0 ? `c${i}@river.example` : null,
      isHidden: i % 4 === 0,
      statusId: i % 3 === 1 ? b.ids.clientStatuses.customer! : b.ids.clientStatuses.lead!,
    });
    const create = async (v: ReturnType<typeof values>): Promise<ListedClient> => {
      const res = await call(b, {
        method: 'POST',
        url: '/v1/client',
        body: { ...v, statusId: undefined, status: { id: v.statusId } },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return { id: res.body.id as number, created: res.body.created as string, ...v };
    };
    for (let i = 0; i < 700; i += 25)
      clients.push(...(await Promise.all(Array.from({ length: 25 }, (_, j) => create(values(i + j))))));
  });
  afterAll(() => {
    Object.assign(SEARCH_PLAN_LIMITS, defaults);
  });

  it('the planner chooses each plan, and every search answers the rule page after page', async () => {
    const cases: { terms: string[]; plan: string }[] = [
      { terms: ['섬진'], plan: 'bigram-driven' },
      { terms: ['Kim 4'], plan: 'trigram-driven' },
      { terms: ['ri'], plan: 'bigram-narrowed' },
      { terms: ['한빛'], plan: 'scan' },
      { terms: ['Older'], plan: 'scan' },
      { terms: ['li'], plan: 'scan' },
      { terms: ['한빛', 'Kim 4'], plan: 'trigram-driven' },
      { terms: ['섬진', 'Client'], plan: 'bigram-driven' },
      { terms: ['Cl', 'nt'], plan: 'scan' },
      { terms: ['ri', 'c'], plan: 'bigram-narrowed' },
      { terms: ['n'], plan: 'scan' },
    ];
    for (const { terms, plan } of cases) {
      const want = expected(clients, terms);
      expect(want.length, JSON.stringify(terms)).toBeGreaterThan(0);
      expect(await searchIds(b, terms, 20), JSON.stringify(terms)).toEqual(want);
      expect(await searchIds(b, terms, 7), JSON.stringify(terms)).toEqual(want);
      // The plan of the first page (SQLite; PostgreSQL's own planner chooses there): this test does cover it.
      if (DIALECT === 'sqlite') {
        expect(
          (await findPagePlanned(t.testDb.db, b.businessId, { search: terms }, 20, undefined)).plan,
          JSON.stringify(terms),
        ).toBe(plan);
      }
      // Statements of a search (at most as before the compiled plans): the key lookup (none once the key is
      // in the process's key cache, src/modules/auth/key-cache.ts), on SQLite one
      // statement per indexed term (its probe, and its count only when needed; the trigram query of the
      // longer terms is one) unless its answer is still known from the searches above (10 s), and the page.
      const indexed =
        DIALECT === 'sqlite'
          ? (terms.some((x) => [...x].length >= 3) ? 1 : 0) + new Set(terms.filter((x) => [...x].length === 2)).size
          : 0;
      const url = `/v1/client?${terms.map((x) => `search=${encodeURIComponent(x)}`).join('&')}`;
      const { result, statements } = await countStatements(() => call(b, { method: 'GET', url }));
      expect(result.status).toBe(200);
      expect(statements.length, `${JSON.stringify(terms)}:\n${statements.join('\n')}`).toBeLessThanOrEqual(2 + indexed);
      expect(statements.length).toBeGreaterThanOrEqual(1);
    }
    // Walking back from the third page gives the second and first pages again.
    const first = await call(b, { method: 'GET', url: `/v1/client?page_size=20&search=${encodeURIComponent('한빛')}` });
    const second = await call(b, {
      method: 'GET',
      url: new URL(first.body.next as string).pathname + new URL(first.body.next as string).search,
    });
    const third = await call(b, {
      method: 'GET',
      url: new URL(second.body.next as string).pathname + new URL(second.body.next as string).search,
    });
    const back = await call(b, {
      method: 'GET',
      url: new URL(third.body.previous as string).pathname + new URL(third.body.previous as string).search,
    });
    expect(back.body.results).toEqual(second.body.results);
    const home = await call(b, {
      method: 'GET',
      url: new URL(back.body.previous as string).pathname + new URL(back.body.previous as string).search,
    });
    expect(home.body.results).toEqual(first.body.results);
  });

  it('each plan gives the plain scan answer with filters, walking forward and back', async () => {
    const at = (i: number) => clients[i]!.created;
    const filters: Omit<ClientFilter, 'search'>[] = [
      {},
      { isHidden: false },
      { statusId: b.ids.clientStatuses.customer!, isHidden: true },
      { createdFrom: at(120), createdTo: at(640) },
      { createdFrom: at(300), statusId: b.ids.clientStatuses.lead! },
    ];
    const searches = [
      ['섬진'],
      ['ri'],
      ['Kim 4'],
      ['한빛', 'Kim 4'],
      ['ri', 'Older'],
      ['c', 'ri', 'Kim'],
      ['섬진', 'xx'],
      ['Kim 6', 'ri'],
    ];
    const plansOf = (terms: string[]): SearchPlan[] =>
      DIALECT !== 'sqlite'
        ? ['scan'] // ignored there: PostgreSQL's planner chooses
        : [
            'scan',
            ...(terms.some((x) => [...x].length >= 3) ? (['trigram-driven'] as const) : []),
            ...(terms.some((x) => [...x].length === 2) ? (['bigram-driven', 'bigram-narrowed'] as const) : []),
          ];
    let compared = 0;
    for (const terms of searches) {
      for (const f of filters) {
        const filter: ClientFilter = { ...f, search: terms };
        const want = clients
          .filter((c) => selects(c, terms, f))
          .sort((x, y) => (x.created === y.created ? y.id - x.id : x.created < y.created ? 1 : -1))
          .map((c) => c.id);
        for (const plan of plansOf(terms)) {
          const label = `${JSON.stringify(filter)} ${plan}`;
          // Forward: the pages of 7 following `next`.
          const pages: number[][] = [];
          let cursor: CursorPosition | undefined;
          let last: Page<ClientSummaryRow> | undefined;
          do {
            last = (await findPagePlanned(t.testDb.db, b.businessId, filter, 7, cursor, plan)).page;
            pages.push(last.rows.map((r) => r.id));
            cursor = last.next ?? undefined;
          } while (cursor !== undefined);
          expect(pages.flat(), label).toEqual(want);
          // Back: from the last page, `previous` gives the pages before it again, in order.
          let back = last.previous ?? undefined;
          for (let p = pages.length - 2; back !== undefined; p--) {
            const page = (await findPagePlanned(t.testDb.db, b.businessId, filter, 7, back, plan)).page;
            expect(
              page.rows.map((r) => r.id),
              `${label} back to page ${p}`,
            ).toEqual(pages[p]);
            back = page.previous ?? undefined;
            if (p === 0) expect(back, label).toBeUndefined();
          }
          compared++;
        }
      }
    }
    expect(compared).toBe(DIALECT === 'sqlite' ? 5 * (3 + 3 + 2 + 4 + 4 + 4 + 3 + 4) : 5 * searches.length);
  });
});

/** The migration before 0044: the schema of the previous release. */
const PREVIOUS = (() => {
  const names = readdirSync(path.resolve(import.meta.dirname, '../../../src/db/migrations'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.replace(/\.ts$/, ''))
    .sort();
  return names[names.indexOf('2026_11_26_0044_client_search_bigram_row') - 1]!;
})();

/**
 * The migrations after 0044, in order. The previous release's database runs their `up` (not recorded by the
 * migrator) so that the current code can write to it (its events carry columns 0045 adds), and their `down`
 * before the real migration run: 0044 then meets the previous release's schema exactly.
 */
async function laterMigrations(): Promise<
  { up(db: Kysely<any>): Promise<void>; down(db: Kysely<any>): Promise<void> }[]
> {
  const dir = path.resolve(import.meta.dirname, '../../../src/db/migrations');
  const names = readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .sort();
  const later = names.slice(names.indexOf('2026_11_26_0044_client_search_bigram_row.ts') + 1);
  return Promise.all(later.map((f) => import(path.join(dir, f))));
}

/**
 * A database of its own at {@link PREVIOUS}: a SQLite file, or a schema of the PostgreSQL test database
 * (its `search_path` names `public` second, where the extensions live).
 */
async function previousReleaseDb(): Promise<{ db: Kysely<Database>; url: string; close(): Promise<void> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bizapi-search-migration-'));
  if (DIALECT === 'sqlite') {
    const url = `sqlite:${path.join(dir, 'old.db')}`;
    const db = createDb({ dialect: 'sqlite', path: path.join(dir, 'old.db') });
    await migrateTo(db, PREVIOUS);
    return { db, url, close: async () => (await db.destroy(), rmSync(dir, { recursive: true, force: true })) };
  }
  const schema = `search_migration_${process.pid}`;
  const admin = t.testDb.db;
  await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin);
  await sql`create schema ${sql.id(schema)}`.execute(admin);
  const base = process.env.DATABASE_URL!;
  const url = urlWithSchema(base, schema);
  const db = createDb(pgConfig(url));
  await migrateTo(db, PREVIOUS);
  return {
    db,
    url,
    close: async () => {
      await db.destroy();
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe('migration 0044 from the previous release', () => {
  it('builds the new index from the existing clients: the same searches give the same answers', async () => {
    const old = await previousReleaseDb();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bizapi-search-migration-data-'));
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      BIZAPI_MAX_EVENT_LOOP_DELAY: '0',
      BIZAPI_RATE_LIMIT: '0',
      BIZAPI_MASTER_KEY: TEST_MASTER_KEY_HEX,
      BIZAPI_DATA_DIR: dataDir,
      DATABASE_URL: old.url,
    });
    const later = await laterMigrations();
    for (const m of later) await m.up(old.db);
    const oldApp = await buildApp(config, { db: old.db, masterKey: config.masterKey! });
    try {
      app = oldApp;
      const b = await newBusiness({ testDb: { db: old.db }, masterKey: config.masterKey! });
      const other = await newBusiness({ testDb: { db: old.db }, masterKey: config.masterKey! });
      // Written through the previous release's index (its triggers on SQLite).
      const words = ['한빛', '누리', 'Harbor', 'ab%', '섬진', 'x_y', 'Gold'];
      const clients = new Map<number, Client>();
      for (let i = 0; i < 40; i++) {
        const c = await create(b, {
          companyName: `${words[i % 7]} ${words[(i * 3) % 7]} ${i}`,
          inCharge: i % 4 === 0 ? `${words[(i + 1) % 7]}씨` : null,
          contact: i % 5 === 0 ? `010-${i}` : null,
          email: i % 6 === 0 ? `${['gold', 'harbor', 'x-y'][i % 3]}${i}@x.example` : null,
        });
        clients.set(c.id, c);
        if (i < 5) await create(other, { ...none, companyName: c.companyName });
      }
      const ids = [...clients.keys()];
      clients.set(ids[3]!, await patch(b, clients.get(ids[3]!)!, { companyName: '섬진 renamed' }));
      expect((await call(b, { method: 'DELETE', url: `/v1/client/${ids[4]}` })).status).toBe(204);
      clients.delete(ids[4]!);

      for (const m of [...later].reverse()) await m.down(old.db);
      expect(await migrateToLatest(old.db)).toContain('2026_11_26_0044_client_search_bigram_row');
      if (DIALECT === 'sqlite') {
        const tables = await sql<{
          name: string;
        }>`select name from sqlite_master where name in ('client_bigram', 'client_search_bigram')`.execute(old.db);
        expect(tables.rows.map((r) => r.name)).toEqual(['client_search_bigram']);
      } else {
        const column = await sql<{
          n: number;
        }>`select count(*)::int as n from client where search_bigrams @> array['한빛']`.execute(old.db);
        expect(column.rows[0]!.n).toBeGreaterThan(0);
      }
      const terms = [
        ['한빛'],
        ['누리', 'Gold'],
        ['섬진'],
        ['b%'],
        ['x_'],
        ['harbor'],
        ['씨'],
        ['0-'],
        ['renamed'],
        ['없음'],
      ];
      for (const ts of terms)
        expect(await searchIds(b, ts, 10), JSON.stringify(ts)).toEqual(expected(clients.values(), ts));
      // Written after the migration: the new index's triggers (SQLite) or generated column (PostgreSQL).
      clients.set(ids[0]!, await patch(b, clients.get(ids[0]!)!, { companyName: '가람 섬진' }));
      const added = await create(b, { ...none, companyName: '새봄 섬진' });
      clients.set(added.id, added);
      for (const ts of terms)
        expect(await searchIds(b, ts, 10), JSON.stringify(ts)).toEqual(expected(clients.values(), ts));
    } finally {
      app = t.app;
      await oldApp.close();
      await old.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
