/**
 * `npm run bench:search`: the client search index of migration 0044 (docs/api.md#search-plans), measured
 * in-process (no HTTP, no server). Never part of `npm test`.
 *
 * 1. **Seeds** a fresh database at the migration before 0044 (the bigram side table of 0033/0036): one
 *    business (bench/lib/seed.ts) with `--clients` clients; 1 name in 40 carries `한빛` and 1 in 2,000 `섬진`
 *    (the seed's own rule), and 1 in 2,000 more gets ` 섬진` appended (an UPDATE, through the old triggers).
 * 2. **Inserts** `--inserts` clients one statement (one autocommit transaction) each through the repository's
 *    `insert`, and hard-deletes them again, on each schema in turn: the old index (0043), the new one (after
 *    migrating to the newest, which is timed: building the index from the seeded rows), the trigram index
 *    alone (the bigram index's triggers or generated column dropped) and no search index at all. Wall time
 *    and this process's CPU time (on PostgreSQL the server's CPU is not in it).
 * 3. **Searches** (on the new schema, before step 2's drops): the first page (20 rows) of
 *    `GET /v1/client?search=<term>` as the repository answers it (`findPagePlanned`, with the plan it chose)
 *    against the plain scan the benchmark's baseline runs (`lower(col) LIKE '%term%'` on the four columns,
 *    newest first, `LIMIT 21`, no index), for `한빛` (common), `섬진` (rare), a dense term and a term no client
 *    has; both answers are compared row for row. p50 / p99 over up to `--runs` runs each, the two timed in
 *    alternating blocks of 5 runs (at most 2 × `--max-ms` per case).
 *
 * Database: a fresh SQLite file (WAL, `synchronous=FULL`) in a temporary directory; with
 * `DATABASE_URL=postgres://…` that PostgreSQL database instead, a throwaway one (its `public` schema is
 * dropped). Results: `bench/results/search-<dialect>.{md,json}`. The machine may be shared: figures are noisy.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { type Kysely, sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import { createDb } from '../src/db/create-db.ts';
import type { Database } from '../src/db/database.ts';
import { migrateTo, migrateToLatest } from '../src/db/migrator.ts';
import { findPagePlanned, insert } from '../src/modules/client/client.repository.ts';
import { seed } from './lib/seed.ts';
import { ROOT } from './lib/server.ts';

const program = new Command()
  .name('bench:search')
  .description(
    'client search: the indexed plan vs the plain scan, and the cost of client inserts with and without the index',
  )
  .option('--clients <n>', 'seeded clients', '100000')
  .option('--inserts <n>', 'client inserts per schema', '1000')
  .option('--runs <n>', 'timed runs per search case', '300')
  .option('--max-ms <n>', 'time budget per search case, in milliseconds', '8000')
  .option('--out <dir>', 'results directory', path.join(ROOT, 'bench/results'));
program.parse();
const opts = program.opts<{ clients: string; inserts: string; runs: string; maxMs: string; out: string }>();
const CLIENTS = Number(opts.clients);
const INSERTS = Number(opts.inserts);
const RUNS = Number(opts.runs);
const MAX_MS = Number(opts.maxMs);
const PAGE = 20;

const MIGRATION = '2026_11_26_0044_client_search_bigram_row';
/** The migration before 0044: the schema of the previous release. */
const PREVIOUS = (() => {
  const names = readdirSync(path.join(ROOT, 'src/db/migrations'))
    .filter((f) => /\.ts$/.test(f))
    .map((f) => f.replace(/\.ts$/, ''))
    .sort();
  return names[names.indexOf(MIGRATION) - 1]!;
})();

const SUMMARY = `c.id, c.company_name, c.created, c.status_id, s.title as status_title, c.in_charge, c.position, c.contact, c.email`;

/** The baseline's unindexed scan (bench/baseline.ts): the first `limit` clients one of whose columns contains `term`. */
async function plainScan(
  db: Kysely<Database>,
  businessId: number,
  term: string,
  limit: number,
): Promise<{ id: number }[]> {
  const like = `%${term.toLowerCase()}%`;
  const { rows } = await sql<{
    id: number;
  }>`select ${sql.raw(SUMMARY)} from client c left join client_status s on s.id = c.status_id
    where c.business_id = ${businessId} and c.deleted_at is null
      and (lower(c.company_name) like ${like} or lower(c.in_charge) like ${like} or lower(c.contact) like ${like} or lower(c.email) like ${like})
    order by c.created desc, c.id desc limit ${limit}`.execute(db);
  return rows;
}

interface Timing {
  runs: number;
  p50: number;
  p99: number;
  mean: number;
}

/** Milliseconds per run, sorted, as a {@link Timing}. */
function timing(ms: number[]): Timing {
  ms.sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!;
  return { runs: ms.length, p50: at(0.5), p99: at(0.99), mean: ms.reduce((a, b) => a + b, 0) / ms.length };
}

/**
 * Times `a` and `b` (after 5 warm-up runs each) in alternating blocks of 5 runs, up to RUNS runs each or
 * 2 × MAX_MS in all: on a shared machine the load then weighs on both alike (timed one after the other,
 * the two p50s differed by up to 2× from one block to the next). Milliseconds per run.
 */
async function timePair(a: () => Promise<unknown>, b: () => Promise<unknown>): Promise<[Timing, Timing]> {
  for (let i = 0; i < 5; i++) {
    await a();
    await b();
  }
  const ma: number[] = [];
  const mb: number[] = [];
  const start = performance.now();
  while ((ma.length < RUNS || mb.length < RUNS) && performance.now() - start < 2 * MAX_MS) {
    for (const [fn, ms] of [
      [a, ma],
      [b, mb],
    ] as const) {
      for (let i = 0; i < 5 && ms.length < RUNS; i++) {
        const t = performance.now();
        await fn();
        ms.push(performance.now() - t);
      }
    }
  }
  return [timing(ma), timing(mb)];
}

interface InsertCost {
  schema: string;
  wallMs: number;
  cpuMs: number;
}

/** INSERTS single-statement client inserts through the repository, then hard-deletes them. */
async function insertCost(db: Kysely<Database>, businessId: number, schema: string): Promise<InsertCost> {
  const ids: number[] = [];
  const created = new Date().toISOString();
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < INSERTS; i++) {
    ids.push(
      await insert(db, businessId, {
        company_name: `Bright Harbor Logistics Busan 한빛 insert ${i}`,
        in_charge: 'Kim A.',
        position: 'Manager',
        contact: `010-5555-${String(i).padStart(4, '0')}`,
        email: `insert${i}@harbor.example.com`,
        content: null,
        status_id: null,
        is_hidden: 0,
        created,
        updated: created,
      }),
    );
  }
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  for (let i = 0; i < ids.length; i += 500)
    await db
      .deleteFrom('client')
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
  return { schema, wallMs, cpuMs: (used.user + used.system) / 1000 };
}

async function main(): Promise<void> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'bizapi-bench-search-'));
  const databaseUrl = process.env.DATABASE_URL?.startsWith('postgres')
    ? process.env.DATABASE_URL
    : `sqlite:${path.join(work, 'bench.db')}`;
  const dialect = databaseUrl.startsWith('postgres') ? 'postgres' : 'sqlite';
  const db = createDb(loadConfig({ DATABASE_URL: databaseUrl, BIZAPI_DATA_DIR: work }).database);
  try {
    if (dialect === 'postgres') {
      await sql`drop schema if exists public cascade`.execute(db);
      await sql`create schema public`.execute(db);
    }
    await migrateTo(db, PREVIOUS);
    let t = performance.now();
    const seeded = await seed(db, Buffer.alloc(32, 7), {
      clients: CLIENTS,
      inquiries: 0,
      contracts: 0,
      settlements: 0,
    });
    const rare = seeded.clientIds.filter((_, i) => i % 2000 === 7);
    for (let i = 0; i < rare.length; i += 500) {
      await db
        .updateTable('client')
        .set({ company_name: sql`company_name || ' 섬진'` })
        .where('id', 'in', rare.slice(i, i + 500))
        .execute();
    }
    if (dialect === 'postgres') await sql`analyze`.execute(db);
    const seedMs = performance.now() - t;
    const b = seeded.businessId;
    console.log(`${dialect}: seeded ${CLIENTS} clients in ${Math.round(seedMs)} ms (at ${PREVIOUS})`);

    // Migration 0044 merges the trigram index's FTS5 segments (a bulk fill leaves them half-merged, which
    // every later write pays for); do it here too, so that the rows below differ by the bigram index only.
    if (dialect === 'sqlite') await sql`insert into client_search (client_search) values ('optimize')`.execute(db);
    const inserts: InsertCost[] = [];
    inserts.push(await insertCost(db, b, `old: trigram + bigram side table (${PREVIOUS.slice(11, 15)})`));
    t = performance.now();
    await migrateToLatest(db);
    const migrateMs = performance.now() - t;
    console.log(`migration 0044 on ${CLIENTS} clients: ${Math.round(migrateMs)} ms`);

    const terms: { label: string; term: string }[] = [
      { label: 'common', term: '한빛' },
      { label: 'rare', term: '섬진' },
      { label: 'dense', term: 'ar' },
      { label: 'no match', term: '없는' },
    ];
    const searches: { label: string; term: string; matches: number; plan: string; indexed: Timing; scan: Timing }[] =
      [];
    for (const { label, term } of terms) {
      const { rows } = await sql<{ n: number }>`select count(*) as n from client where business_id = ${b}
        and (lower(company_name) like ${`%${term}%`} or lower(in_charge) like ${`%${term}%`} or lower(contact) like ${`%${term}%`} or lower(email) like ${`%${term}%`})`.execute(
        db,
      );
      const matches = Number(rows[0]!.n);
      const filter = { search: [term] };
      const planned = await findPagePlanned(db, b, filter, PAGE, undefined);
      const scanned = await plainScan(db, b, term, PAGE + 1);
      const same =
        JSON.stringify(planned.page.rows.map((r) => r.id)) === JSON.stringify(scanned.slice(0, PAGE).map((r) => r.id));
      if (!same) throw new Error(`search ${term}: the indexed plan and the scan answer differently`);
      const [indexed, scan] = await timePair(
        () => findPagePlanned(db, b, filter, PAGE, undefined),
        () => plainScan(db, b, term, PAGE + 1),
      );
      const plan = planned.plan ?? 'planner';
      searches.push({ label, term, matches, plan, indexed, scan });
      console.log(
        `${term} (${matches} matches, ${plan}): indexed p50 ${indexed.p50.toFixed(3)} p99 ${indexed.p99.toFixed(3)} ms; scan p50 ${scan.p50.toFixed(3)} p99 ${scan.p99.toFixed(3)} ms`,
      );
    }

    inserts.push(await insertCost(db, b, 'new: trigram + one bigram row per client (0044)'));
    if (dialect === 'postgres') {
      await sql`alter table client drop column search_bigrams`.execute(db);
    } else {
      for (const tr of ['insert', 'delete', 'update'])
        await sql.raw(`drop trigger client_search_bigram_${tr}`).execute(db);
    }
    inserts.push(await insertCost(db, b, 'trigram index only (no bigram index)'));
    if (dialect === 'postgres') {
      await sql`drop index client_business_search_idx`.execute(db);
    } else {
      for (const tr of ['insert', 'delete', 'update']) await sql.raw(`drop trigger client_search_${tr}`).execute(db);
    }
    inserts.push(await insertCost(db, b, 'no search index'));
    for (const i of inserts)
      console.log(`${INSERTS} inserts, ${i.schema}: ${Math.round(i.wallMs)} ms wall, ${Math.round(i.cpuMs)} ms CPU`);

    const load = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    const md = [
      `# Client search index (migration 0044), ${dialect === 'postgres' ? 'PostgreSQL' : 'SQLite (WAL, synchronous=FULL)'}`,
      '',
      `\`npm run bench:search\`${dialect === 'postgres' ? ' with `DATABASE_URL=postgres://…`' : ''}, ${new Date().toISOString().slice(0, 16)} UTC, ` +
        `${CLIENTS.toLocaleString('en')} clients in one business, Node ${process.versions.node}, ${os.cpus().length} CPUs (shared; load average ${load}). ` +
        "In-process, one query at a time: the first page (20 rows) as the repository answers it (`findPagePlanned`: plan choice, compiled page query) vs the baseline's plain LIKE scan, timed in alternating blocks of 5 runs.",
      '',
      '| term | clients matching | plan | indexed p50 | indexed p99 | scan p50 | scan p99 | scan / indexed (p50) |',
      '|---|---:|---|---:|---:|---:|---:|---:|',
      ...searches.map(
        (s) =>
          `| \`${s.term}\` ${s.label} | ${s.matches.toLocaleString('en')} (${((100 * s.matches) / CLIENTS).toFixed(2)}%) | ${s.plan} | ` +
          `${s.indexed.p50.toFixed(3)} ms | ${s.indexed.p99.toFixed(3)} ms | ${s.scan.p50.toFixed(3)} ms | ${s.scan.p99.toFixed(3)} ms | ${(s.scan.p50 / s.indexed.p50).toFixed(1)}× |`,
      ),
      '',
      `${INSERTS.toLocaleString('en')} client inserts through \`client.repository.insert\`, one autocommit statement each, into the seeded table` +
        `${dialect === 'postgres' ? " (CPU: this process only, not the server's)" : ''}:`,
      '',
      '| schema | wall | per insert | CPU (this process) | CPU per insert |',
      '|---|---:|---:|---:|---:|',
      ...inserts.map(
        (i) =>
          `| ${i.schema} | ${Math.round(i.wallMs)} ms | ${(i.wallMs / INSERTS).toFixed(3)} ms | ${Math.round(i.cpuMs)} ms | ${(i.cpuMs / INSERTS).toFixed(3)} ms |`,
      ),
      '',
      `Migration 0044 on the ${CLIENTS.toLocaleString('en')} seeded clients: ${Math.round(migrateMs)} ms. Seeding: ${Math.round(seedMs)} ms.`,
      '',
    ].join('\n');
    mkdirSync(opts.out, { recursive: true });
    writeFileSync(path.join(opts.out, `search-${dialect}.md`), md);
    writeFileSync(
      path.join(opts.out, `search-${dialect}.json`),
      `${JSON.stringify({ dialect, clients: CLIENTS, inserts: INSERTS, load, migrateMs, seedMs, searches, insertCosts: inserts }, null, 2)}\n`,
    );
    console.log(md);
  } finally {
    await db.destroy();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
