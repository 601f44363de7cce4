/**
 * Deterministic bulk seeding for the benchmark: one business with its catalog, one API key, and many
 * records written with multi-row INSERTs inside one transaction per table (never through the HTTP API,
 * so seeding 100,000 rows takes seconds). The same seed always produces the same rows.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/database.ts';
import { inTransaction } from '../../src/db/sql-helpers.ts';
import { createApiKey, createBusiness } from '../../src/modules/auth/auth.service.ts';
import { type CatalogIds, importCatalog } from '../../src/modules/catalog/catalog-import.ts';
import { DEMO_CATALOG } from '../../src/demo/demo-data.ts';

/** How many rows of each kind to seed. */
export interface SeedCounts {
  clients: number;
  inquiries: number;
  contracts: number;
  settlements: number;
}

/** What the scenarios need to know about the seeded business. */
export interface Seeded {
  businessId: number;
  apiKey: string;
  secretKey: string;
  catalog: CatalogIds;
  /** Ids of the seeded rows (ascending). */
  clientIds: number[];
  inquiryIds: number[];
  /** Inquiry status ids of the business, for PATCH scenarios. */
  inquiryStatusIds: number[];
  /** Seeding time per table, in milliseconds. */
  timings: Record<string, number>;
}

/** mulberry32: a small, fast, deterministic PRNG returning floats in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Words the seeded names are made of; the search scenario looks for two of them. */
export const WORDS = {
  adjective: [
    'Blue',
    'Bright',
    'Golden',
    'Silver',
    'Green',
    'Rapid',
    'Quiet',
    'Grand',
    'Smart',
    'Prime',
    'Solid',
    'Urban',
  ],
  noun: [
    'River',
    'Mountain',
    'Harbor',
    'Bridge',
    'Forest',
    'Valley',
    'Summit',
    'Garden',
    'Tower',
    'Field',
    'Stone',
    'Lake',
  ],
  city: ['Seoul', 'Busan', 'Incheon', 'Daegu', 'Daejeon', 'Gwangju', 'Ulsan', 'Suwon', 'Jeju', 'Sejong'],
  kind: ['Trading', 'Logistics', 'Design', 'Foods', 'Systems', 'Studio', 'Labs', 'Partners'],
  person: ['Kim', 'Lee', 'Park', 'Choi', 'Jung', 'Kang', 'Cho', 'Yoon', 'Jang', 'Lim'],
  /**
   * Two-syllable Korean words: one name in 4 carries one of them in turn, so the two-character search
   * scenario's common term 한빛 is in 1 of 40 names (2.5%).
   */
  korean: ['한빛', '누리', '다온', '미래', '새봄', '가람', '하늘', '보람', '아라', '나래'],
  /** The rare two-character term (1 name in {@link RARE_EVERY}: 0.05%), for the rare-term search scenario. */
  rare: '섬진',
} as const;

/** One name in this many carries {@link WORDS.rare}. */
export const RARE_EVERY = 2000;

const pick = <T>(rnd: () => number, list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;

/** The seeded tables that carry `updated` (migration 2026_11_26_0038). */
const UPDATED_TABLES = new Set<keyof Database>(['client', 'inquiry', 'contract', 'settlement']);

/** Inserts `rows` in chunks of `chunk` rows per statement. */
async function insertChunks(
  db: Kysely<Database>,
  table: keyof Database,
  rows: Record<string, unknown>[],
  chunk = 500,
): Promise<void> {
  for (let i = 0; i < rows.length; i += chunk) {
    // Tables with `updated` (docs/api.md#events) take their `created`, as a create through the API does.
    const slice = rows.slice(i, i + chunk).map((r) => (UPDATED_TABLES.has(table) ? { ...r, updated: r.created } : r));
    /* eslint-disable @typescript-eslint/no-explicit-any -- one loop for every table: Kysely cannot type a table chosen at run time */
    await db
      .insertInto(table as any)
      .values(slice as any)
      .execute();
    /* eslint-enable @typescript-eslint/no-explicit-any */
  }
}

/** Spreads `n` creation timestamps evenly over the last 365 days before 2026-11-01 (UTC, ms precision). */
function createdAt(i: number, n: number): string {
  const end = Date.UTC(2026, 10, 1);
  const span = 365 * 86_400_000;
  return new Date(end - span + Math.floor((span * i) / Math.max(1, n))).toISOString();
}

/**
 * Creates the benchmark business (plan AGENCY, Asia/Seoul, the demo catalog), one API key, and the rows of
 * `counts`, deterministically. Resources whose tables do not exist yet are skipped (count 0).
 *
 * @param masterKey the master key the server will run with (it decrypts the key's secret)
 */
export async function seed(db: Kysely<Database>, masterKey: Buffer, counts: SeedCounts): Promise<Seeded> {
  const timings: Record<string, number> = {};
  const rnd = prng(20261122);
  const base = await inTransaction(db, async (trx) => {
    const business = await createBusiness(trx, { name: 'Benchmark Company', plan: 'AGENCY', timezone: 'Asia/Seoul' });
    const key = await createApiKey(trx, masterKey, business.id);
    const catalog = await importCatalog(trx, business.id, DEMO_CATALOG);
    return { businessId: business.id, ...key, catalog };
  });
  const { businessId, catalog } = base;
  const clientStatusIds = Object.values(catalog.clientStatuses);

  let t = Date.now();
  const clients: Record<string, unknown>[] = [];
  for (let i = 0; i < counts.clients; i++) {
    // One name in 4 carries a Korean word (so 한빛 is in 1 of 40), one in 2,000 the rare term 섬진.
    const korean =
      (i % 4 === 1 ? ` ${WORDS.korean[Math.floor(i / 4) % WORDS.korean.length]}` : '') +
      (i % RARE_EVERY === 777 ? ` ${WORDS.rare}` : '');
    const company = `${pick(rnd, WORDS.adjective)} ${pick(rnd, WORDS.noun)} ${pick(rnd, WORDS.kind)} ${pick(rnd, WORDS.city)}${korean} ${i}`;
    const person = pick(rnd, WORDS.person);
    clients.push({
      business_id: businessId,
      company_name: company,
      status_id: pick(rnd, clientStatusIds),
      in_charge: `${person} ${String.fromCharCode(65 + (i % 26))}.`,
      position: 'Manager',
      contact: `010-${String(1000 + (i % 9000)).padStart(4, '0')}-${String(i % 10000).padStart(4, '0')}`,
      email: `contact${i}@${company.split(' ')[1]!.toLowerCase()}.example.com`,
      content: null,
      is_hidden: i % 50 === 0 ? 1 : 0,
      created: createdAt(i, counts.clients),
    });
  }
  await inTransaction(db, (trx) => insertChunks(trx, 'client', clients));
  timings.clients = Date.now() - t;
  const clientIds = (
    await db.selectFrom('client').select('id').where('business_id', '=', businessId).orderBy('id').execute()
  ).map((r) => r.id);

  const inquiryStatusIds = Object.values(catalog.statuses);
  const memberIds = Object.values(catalog.members);
  t = Date.now();
  await inTransaction(db, async (trx) => {
    const rows: Record<string, unknown>[] = [];
    for (let i = 0; i < counts.inquiries; i++) {
      rows.push({
        business_id: businessId,
        unique_id: String(i + 1),
        name: `${pick(rnd, WORDS.adjective)} ${pick(rnd, WORDS.noun)} project ${i}`,
        inquiry_date: createdAt(i, counts.inquiries).slice(0, 10),
        content: null,
        estimate: String(Math.floor(rnd() * 1000) * 10000),
        status_id: pick(rnd, inquiryStatusIds),
        client_id: clientIds.length > 0 && i % 3 !== 0 ? pick(rnd, clientIds) : null,
        is_hidden: 0,
        created: createdAt(i, counts.inquiries),
      });
    }
    await insertChunks(trx, 'inquiry', rows);
    if (counts.inquiries > 0)
      await trx
        .insertInto('inquiry_counter')
        .values({ business_id: businessId, last_value: counts.inquiries })
        .execute();
  });
  const inquiries = await db
    .selectFrom('inquiry')
    .select(['id', 'status_id', 'created'])
    .where('business_id', '=', businessId)
    .orderBy('id')
    .execute();
  const inquiryIds = inquiries.map((r) => r.id);
  await inTransaction(db, async (trx) => {
    const inCharge: Record<string, unknown>[] = [];
    const history: Record<string, unknown>[] = [];
    for (const r of inquiries) {
      inCharge.push({
        business_id: businessId,
        inquiry_id: r.id,
        member_id: memberIds[r.id % memberIds.length],
        position: 0,
      });
      history.push({
        business_id: businessId,
        inquiry_id: r.id,
        status_id: r.status_id,
        previous_status_id: null,
        member_id: null,
        created: r.created,
      });
    }
    await insertChunks(trx, 'inquiry_in_charge', inCharge);
    await insertChunks(trx, 'inquiry_status_history', history);
  });
  timings.inquiries = Date.now() - t;

  // Contracts: all three types, the first ones linked 1:1 to inquiries; settlements: multi-round "interim"
  // payments spread over the contracts, rounds numbered per contract.
  t = Date.now();
  const contractIds: number[] = [];
  if (counts.contracts > 0) {
    await inTransaction(db, async (trx) => {
      const rows: Record<string, unknown>[] = [];
      for (let i = 0; i < counts.contracts; i++) {
        const type = (['I', 'S', 'G'] as const)[i % 3]!;
        const created = createdAt(i, counts.contracts);
        rows.push({
          business_id: businessId,
          title: `${pick(rnd, WORDS.adjective)} ${pick(rnd, WORDS.noun)} contract ${i}`,
          amount: Math.floor(rnd() * 1000) * 100000,
          type,
          status: (['P', 'I', 'C'] as const)[i % 3],
          contract_number: `C-${i + 1}`,
          start_date: created.slice(0, 10),
          end_date: createdAt(Math.min(i + counts.contracts / 10, counts.contracts), counts.contracts).slice(0, 10),
          vat_type: 'E',
          settlement_frequency: type === 'S' ? 1 : null,
          settlement_cycle: type === 'S' ? 'M' : null,
          settlement_day: type === 'S' ? 1 + (i % 28) : null,
          client_id: clientIds.length > 0 ? pick(rnd, clientIds) : null,
          inquiry_id: i < inquiryIds.length && i % 2 === 0 ? inquiryIds[i] : null,
          is_hidden: 0,
          created,
        });
      }
      await insertChunks(trx, 'contract', rows);
    });
    contractIds.push(
      ...(
        await db.selectFrom('contract').select('id').where('business_id', '=', businessId).orderBy('id').execute()
      ).map((r) => r.id),
    );
  }
  timings.contracts = Date.now() - t;
  t = Date.now();
  if (counts.settlements > 0 && contractIds.length > 0) {
    const typeId = catalog.settlementTypes.interim!;
    await inTransaction(db, async (trx) => {
      const rows: Record<string, unknown>[] = [];
      const rounds = new Map<number, number>();
      for (let i = 0; i < counts.settlements; i++) {
        const contractId = contractIds[i % contractIds.length]!;
        const round = (rounds.get(contractId) ?? 0) + 1;
        rounds.set(contractId, round);
        rows.push({
          business_id: businessId,
          contract_id: contractId,
          type_id: typeId,
          single_type_id: null,
          title: `Interim payment ${round}`,
          status: (['C', 'D', 'S', 'P'] as const)[i % 4],
          amount: Math.floor(rnd() * 100) * 100000,
          additional_amount: 0,
          vat: 0,
          settlement_round: round,
          type_alias: `Interim payment ${round}`,
          is_tax_invoice_issued: 0,
          is_tax_invoice_needed: 0,
          due_date: createdAt(i, counts.settlements).slice(0, 10),
          is_hidden: 0,
          created: createdAt(i, counts.settlements),
        });
      }
      await insertChunks(trx, 'settlement', rows);
    });
  }
  timings.settlements = Date.now() - t;
  return { ...base, clientIds, inquiryIds, inquiryStatusIds, timings };
}
