/**
 * `npm run bench` (issues 7, 19, 27): seeds one business deterministically, starts bizapi (and the bare
 * baseline, "the limit") as child processes on the same database, drives each scenario with autocannon or
 * wrk after a warm-up, and writes the results as a Markdown table and as JSON under bench/results/
 * (`perf-<dialect>.md` / `.json`). Never part of `npm test`.
 *
 * Besides requests per second it measures the **CPU time per request**: the user + system time of the
 * server's processes (`/proc/<pid>/stat`; the primary and every worker), plus on PostgreSQL that of the
 * bench database's backends (pids from `pg_stat_activity`), over the measured run, divided by its requests.
 * Unlike throughput this does not depend on how the two cores are shared with the load generator.
 *
 * Database: a fresh SQLite file in a temporary directory by default; `DATABASE_URL=postgres://…` uses that
 * PostgreSQL database instead, which must be a throwaway one (its `public` schema is dropped and rebuilt).
 *
 * Options: see `npm run bench -- --help`; `--table` runs issue 27's table, `--quick` the same in 3 s per
 * scenario (bench/README.md).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { sql } from 'kysely';
import type { RequestTemplate } from 'autocannon';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { createDb } from '../src/db/create-db.ts';
import { migrateToLatest } from '../src/db/migrator.ts';
import { signV2 } from '../src/modules/auth/hmac.ts';
import { WORKER_V8_FLAGS } from '../src/cluster.ts';
import { type LoadResult, drive, dynamic, signedHeaders } from './lib/load.ts';
import { driveWrk } from './lib/wrk.ts';
import { prng, seed, type Seeded, WORDS } from './lib/seed.ts';
import { ROOT, cpuMeter, freePort, rssOf, sampleRss, startChild, type Child } from './lib/server.ts';
import { existsSync, readFileSync } from 'node:fs';

/** One measured scenario. */
interface ScenarioResult extends LoadResult {
  name: string;
  /** bizapi, the limit (bench/baseline.ts) or the bare server (bench/bare.ts, issue 38). */
  target: 'bizapi' | 'baseline' | 'bare';
  /** Server processes (bizapi `--workers`; 1 for the baseline). */
  workers: number;
  /** Peak RSS of the largest single process (a worker, with several). */
  peakRssMb: number;
  /** RSS of each serving process right after the measured load, MB (the workers, or the one process). */
  rssAfterMb: number[];
  /** CPU milliseconds of the server's processes (and PostgreSQL's backends) over the measured run. */
  cpuMs: number;
  /** Of which PostgreSQL's backends (0 on SQLite). */
  dbCpuMs: number;
  /** `cpuMs` per request, in microseconds. */
  cpuUsPerRequest: number;
}

/** A scenario: its name, what it sends, and whether the baseline serves it too. */
interface Scenario {
  name: string;
  description: string;
  baseline: boolean;
  /** Whether the bare server (bench/bare.ts) serves it too. */
  bare?: boolean;
  requests(s: Seeded, baseUrl: string): Promise<RequestTemplate[]> | RequestTemplate[];
}

/** The scenarios of issue 27's table, in its order. */
const TABLE = [
  'get-client',
  'list-clients',
  'search-clients-2char',
  'search-clients-2char-rare',
  'create-client',
  'patch-inquiry-one',
];

const program = new Command()
  .name('bench')
  .description('bizapi benchmark harness')
  .option('--duration <seconds>', 'measured seconds per scenario', '10')
  .option('--warmup <seconds>', 'warm-up seconds per scenario', '3')
  .option('--connections <n>', 'concurrent connections', '32')
  .option('--clients <n>', 'clients to seed', '100000')
  .option('--inquiries <n>', 'inquiries to seed', '100000')
  .option('--contracts <n>', 'contracts to seed', '20000')
  .option('--settlements <n>', 'settlements to seed', '50000')
  .option('--only <names>', 'comma-separated scenario names to run')
  .option('--no-baseline', 'skip the bare node:http baseline')
  .option(
    '--no-bare',
    'skip the bare server of issue 38 (bench/bare.ts: key lookup and one statement; get-client, create-client, 1 process)',
  )
  .option('--out <dir>', 'results directory', path.join(ROOT, 'bench/results'))
  .option(
    '--driver <name>',
    'load generator: wrk (Debian package; Lua script with pre-signed requests) or autocannon',
    'autocannon',
  )
  .option('--threads <n>', 'wrk threads', '2')
  .option('--workers <list>', 'comma-separated `serve --workers` counts to measure bizapi with (e.g. 1,2)', '1')
  .option(
    '--runtime <which>',
    'dist: the compiled server (node dist/cli/main.js; run npm run build first) or src: bin/bizapi under tsx',
    'dist',
  )
  .option(
    '--cpu-prof <dir>',
    'write a V8 CPU profile of the bizapi server per scenario into <dir> (see bench/profile.ts)',
  )
  .option('--table', `issue 27's table: --driver wrk --workers 1,2 --only ${TABLE.join(',')} (durations as given)`)
  .option(
    '--quick',
    '--table in 3 s per scenario after 1 s of warm-up, no contracts or settlements seeded: a short, noisy run',
  )
  .parse();
const opts = program.opts<{
  duration: string;
  warmup: string;
  connections: string;
  clients: string;
  inquiries: string;
  contracts: string;
  settlements: string;
  only?: string;
  baseline: boolean;
  bare: boolean;
  out: string;
  cpuProf?: string;
  driver: string;
  threads: string;
  workers: string;
  runtime: string;
  table?: boolean;
  quick?: boolean;
}>();
// --table / --quick set what the user did not set on the command line.
if (opts.table || opts.quick) {
  const unset = (name: string) => program.getOptionValueSource(name) !== 'cli';
  if (unset('driver')) opts.driver = 'wrk';
  if (unset('workers')) opts.workers = '1,2';
  if (unset('only')) opts.only = TABLE.join(',');
  if (opts.quick) {
    if (unset('duration')) opts.duration = '3';
    if (unset('warmup')) opts.warmup = '1';
    if (unset('contracts')) opts.contracts = '0';
    if (unset('settlements')) opts.settlements = '0';
  }
}
if (!['wrk', 'autocannon'].includes(opts.driver)) throw new Error('--driver: wrk or autocannon');
if (!['dist', 'src'].includes(opts.runtime)) throw new Error('--runtime: dist or src');
const workerCounts = opts.workers.split(',').map(Number);
if (workerCounts.some((n) => !Number.isInteger(n) || n < 1))
  throw new Error('--workers: comma-separated whole numbers ≥ 1');
if (opts.runtime === 'dist' && !existsSync(path.join(ROOT, 'dist/cli/main.js')))
  throw new Error('dist/ is missing: run `npm run build` (or pass --runtime src)');
const drv = { connections: Number(opts.connections), duration: Number(opts.duration), warmup: Number(opts.warmup) };

const rnd = prng(7);
const any = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;

/** Follows `next` from the first page until page `n` (1-based) and returns that page's path. */
async function pathOfPage(s: Seeded, baseUrl: string, n: number): Promise<string> {
  let url = `${baseUrl}/v1/client`;
  for (let i = 1; i < n; i++) {
    const res = await fetch(url, { headers: signedHeaders(s, '') });
    const body = (await res.json()) as { next: string | null };
    if (!body.next) throw new Error(`the client list has fewer than ${n} pages`);
    url = body.next;
  }
  const u = new URL(url);
  return u.pathname + u.search;
}

let createCount = 0;

/**
 * `POST /v1/client` as issue 16's cost is measured (docs/api.md#idempotent-retries,
 * docs/authentication.md#signature-version-2): `key` 'fresh' sends a new `Idempotency-Key` per request (claim
 * + stored answer), 'fixed' one key for the whole run (every request after the first is a replay); `v2` signs
 * version 2 (timestamp, method, path, body; every body differs, so no signature repeats).
 */
function createClientRequest(s: Seeded, opts: { key?: 'fresh' | 'fixed'; v2?: boolean }): RequestTemplate {
  const fixedKey = `bench-replay-${Date.now()}`;
  return {
    setupRequest: (req) => {
      const n = ++createCount;
      const body = JSON.stringify({
        companyName: opts.key === 'fixed' ? 'Benchmark Trading Co.' : `Benchmark Trading Co. ${n}`,
        inCharge: 'Kim',
        email: 'bench@example.com',
      });
      const headers: Record<string, string> = signedHeaders(s, body);
      if (opts.v2) {
        const ts = String(Math.floor(Date.now() / 1000));
        headers['x-signature-timestamp'] = ts;
        headers['x-signature'] = `v2=${signV2(s.secretKey, ts, 'POST', '/v1/client', body)}`;
      }
      if (opts.key === 'fresh') headers['idempotency-key'] = `bench-${process.pid}-${n}`;
      if (opts.key === 'fixed') headers['idempotency-key'] = fixedKey;
      return { ...req, method: 'POST', path: '/v1/client', headers, body };
    },
  };
}

const SCENARIOS: Scenario[] = [
  {
    name: 'get-client',
    description: 'GET /v1/client/{id}, a random seeded client each time',
    baseline: true,
    bare: true,
    requests: (s) => [dynamic(s, () => ({ method: 'GET', path: `/v1/client/${any(s.clientIds)}` }))],
  },
  {
    name: 'list-clients',
    description: 'GET /v1/client, the first page (20 items)',
    baseline: true,
    requests: (s) => [{ method: 'GET', path: '/v1/client', headers: signedHeaders(s, '') }],
  },
  {
    name: 'list-clients-page-500',
    description: 'GET /v1/client, the 500th page, reached by following `next`',
    baseline: false,
    requests: async (s, baseUrl) => [
      { method: 'GET', path: await pathOfPage(s, baseUrl, 500), headers: signedHeaders(s, '') },
    ],
  },
  {
    name: 'search-clients',
    description: 'GET /v1/client?search=<two terms>',
    baseline: false,
    requests: (s) => [{ method: 'GET', path: '/v1/client?search=Harbor&search=Busan', headers: signedHeaders(s, '') }],
  },
  {
    name: 'search-clients-2char',
    description:
      'GET /v1/client?search=한빛 (a two-character Korean term in 1 of 40 clients; the baseline scans with LIKE)',
    baseline: true,
    requests: (s) => [
      { method: 'GET', path: `/v1/client?search=${encodeURIComponent('한빛')}`, headers: signedHeaders(s, '') },
    ],
  },
  {
    name: 'search-clients-2char-rare',
    description: `GET /v1/client?search=${WORDS.rare} (a rare two-character term, 1 in 2,000 clients; the baseline scans with LIKE)`,
    baseline: true,
    requests: (s) => [
      { method: 'GET', path: `/v1/client?search=${encodeURIComponent(WORDS.rare)}`, headers: signedHeaders(s, '') },
    ],
  },
  {
    name: 'create-client',
    description: 'POST /v1/client (signed JSON)',
    baseline: true,
    bare: true,
    requests: (s) => {
      const body = JSON.stringify({
        companyName: 'Benchmark Trading Co.',
        inCharge: 'Kim',
        email: 'bench@example.com',
      });
      return [{ method: 'POST', path: '/v1/client', headers: signedHeaders(s, body), body }];
    },
  },
  {
    name: 'create-client-unique',
    description: 'POST /v1/client, a different body each time, no Idempotency-Key (reference for the next four)',
    baseline: false,
    requests: (s) => [createClientRequest(s, {})],
  },
  {
    name: 'create-client-idempotency-key',
    description: 'POST /v1/client with a new Idempotency-Key each time (claim, run, store the answer)',
    baseline: false,
    requests: (s) => [createClientRequest(s, { key: 'fresh' })],
  },
  {
    name: 'create-client-idempotent-replay',
    description: 'POST /v1/client with one Idempotency-Key for the whole run (stored answer replayed)',
    baseline: false,
    requests: (s) => [createClientRequest(s, { key: 'fixed' })],
  },
  {
    name: 'create-client-v2',
    description: 'POST /v1/client signed with version 2 (window check, replay cache insert)',
    baseline: false,
    requests: (s) => [createClientRequest(s, { v2: true })],
  },
  {
    name: 'create-client-v2-idempotency-key',
    description: 'POST /v1/client signed with version 2 and a new Idempotency-Key each time',
    baseline: false,
    requests: (s) => [createClientRequest(s, { key: 'fresh', v2: true })],
  },
  {
    name: 'patch-inquiry-status',
    description: 'PATCH /v1/inquiry/{id} with a new status (status history + outbox)',
    baseline: false,
    requests: (s) => [
      dynamic(s, () => ({
        method: 'PATCH',
        path: `/v1/inquiry/${any(s.inquiryIds)}`,
        body: { status: { id: any(s.inquiryStatusIds) } },
      })),
    ],
  },
  {
    name: 'patch-inquiry-one',
    description: 'PATCH /v1/inquiry/{id} with one property (`name`)',
    baseline: false,
    requests: (s) => [
      dynamic(s, () => ({
        method: 'PATCH',
        path: `/v1/inquiry/${any(s.inquiryIds)}`,
        body: { name: `Renamed ${Math.floor(rnd() * 1e9)}` },
      })),
    ],
  },
  {
    name: 'get-inquiry',
    description: 'GET /v1/inquiry/{id} (full shape)',
    baseline: false,
    requests: (s) => [dynamic(s, () => ({ method: 'GET', path: `/v1/inquiry/${any(s.inquiryIds)}` }))],
  },
  {
    name: 'mix-90-10',
    description: '90% reads (one client, one inquiry, first page), 10% writes (POST client, PATCH inquiry status)',
    baseline: false,
    requests: (s) => [
      dynamic(s, () => {
        const r = rnd();
        const hasInquiries = s.inquiryIds.length > 0;
        if (r < 0.4) return { method: 'GET', path: `/v1/client/${any(s.clientIds)}` };
        if (r < 0.7 && hasInquiries) return { method: 'GET', path: `/v1/inquiry/${any(s.inquiryIds)}` };
        if (r < 0.9) return { method: 'GET', path: '/v1/client' };
        if (r < 0.95 || !hasInquiries)
          return { method: 'POST', path: '/v1/client', body: { companyName: 'Mixed Load Co.' } };
        return {
          method: 'PATCH',
          path: `/v1/inquiry/${any(s.inquiryIds)}`,
          body: { status: { id: any(s.inquiryStatusIds) } },
        };
      }),
    ],
  },
];

/** Pids of the bench database's PostgreSQL backends (none on SQLite), this harness's own connection excepted. */
let dbBackends: () => Promise<number[]> = async () => [];

/**
 * Runs one scenario against one child process: samples its RSS, reads the CPU time of its serving processes
 * (and of PostgreSQL's backends) around the measured run, and the RSS of each serving process after it.
 */
async function measure(
  child: Child,
  target: ScenarioResult['target'],
  workers: number,
  scenario: Scenario,
  seeded: Seeded,
): Promise<ScenarioResult> {
  const requests = await scenario.requests(seeded, child.baseUrl);
  // With workers, the processes that serve are the primary's children (read once they all listen).
  const primary = child.process.pid!;
  const pids = workers > 1 ? childPids(primary) : [primary];
  const samplers = pids.map((pid) => sampleRss(pid));
  const server = cpuMeter(() => (workers > 1 ? [primary, ...pids] : pids));
  const database = cpuMeter(dbBackends);
  let serverMs = 0;
  let dbMs = 0;
  const around = {
    before: async () => {
      await server.start();
      await database.start();
    },
    after: async () => {
      serverMs = await server.stop();
      dbMs = await database.stop();
    },
  };
  const d = { ...drv, around };
  const result =
    opts.driver === 'wrk'
      ? await driveWrk(child.baseUrl, requests, { ...d, threads: Number(opts.threads) })
      : await drive(child.baseUrl, requests, d);
  const rssAfterMb = pids.map((pid) => Math.round(rssOf(pid) / 1048576));
  const peak = Math.max(...samplers.map((r) => r.stop()));
  const cpuMs = serverMs + dbMs;
  return {
    name: scenario.name,
    target,
    workers,
    ...result,
    peakRssMb: Math.round(peak / 1048576),
    rssAfterMb,
    cpuMs,
    dbCpuMs: dbMs,
    cpuUsPerRequest: result.requests > 0 ? Math.round((cpuMs * 1000) / result.requests) : 0,
  };
}

/** The children of `pid` (Linux /proc), e.g. the workers of `serve --workers`. */
function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [pid];
  }
}

const fmt = (n: number) => n.toLocaleString('en-US');
/** `a / b` with `digits` decimals (two more below 0.1, so a small ratio never reads 0.0), or '' when `b` is 0. */
const ratio = (a: number, b: number, digits = 2) => (b > 0 ? (a / b).toFixed(a / b < 0.1 ? digits + 2 : digits) : '');

function markdown(results: ScenarioResult[], meta: Record<string, string>): string {
  const base = new Map(results.filter((r) => r.target === 'baseline').map((r) => [`${r.name}/${r.workers}`, r]));
  const bare = new Map(results.filter((r) => r.target === 'bare').map((r) => [r.name, r]));
  const lines = [
    `Run ${meta.date} on ${meta.machine}; ${meta.database}; ${meta.node}; load by ${meta.driver}; bizapi ${meta.runtime}; ${drv.connections} connections, ${drv.duration} s per scenario after ${drv.warmup} s of warm-up; load average ${meta.loadAverage} at the start.`,
    '',
    'CPU µs/req: user + system time of the serving processes' +
      ((meta.database ?? '').startsWith('PostgreSQL')
        ? " plus the bench database's PostgreSQL backends (their share in parentheses)"
        : '') +
      ' over the measured run, per request. "of limit": req/s of bizapi ÷ the bare `node:http` limit (bench/baseline.ts) with the same number of processes; "CPU vs limit": CPU per request of bizapi ÷ the limit\'s. "of bare", "CPU vs bare": the same against the bare server of issue 38 (bench/bare.ts: the key looked up per request and one statement, no signature check; one process).',
    '',
    '| scenario | target | workers | req/s | p50 ms | p99 ms | errors | non-2xx | CPU µs/req | peak RSS MB | RSS after, MB per process | of limit | CPU vs limit | of bare | CPU vs bare |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of results) {
    const b = r.target === 'bizapi' ? base.get(`${r.name}/${r.workers}`) : undefined;
    const f = r.target !== 'bare' ? bare.get(r.name) : undefined;
    const cpu =
      r.dbCpuMs > 0
        ? `${fmt(r.cpuUsPerRequest)} (${Math.round((100 * r.dbCpuMs) / Math.max(1, r.cpuMs))}% db)`
        : fmt(r.cpuUsPerRequest);
    lines.push(
      `| ${r.name} | ${r.target === 'baseline' ? 'limit' : r.target} | ${r.workers} | ${fmt(r.requestsPerSecond)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} | ${cpu} | ${r.peakRssMb} | ${r.rssAfterMb.join(' / ')} | ${b ? ratio(r.requestsPerSecond, b.requestsPerSecond) : ''} | ${b && b.cpuUsPerRequest > 0 ? `${ratio(r.cpuUsPerRequest, b.cpuUsPerRequest, 1)}×` : ''} | ${f ? ratio(r.requestsPerSecond, f.requestsPerSecond) : ''} | ${f && f.cpuUsPerRequest > 0 ? `${ratio(r.cpuUsPerRequest, f.cpuUsPerRequest, 1)}×` : ''} |`,
    );
  }
  // Issue 27's row "2 workers vs 1 (GET)": the gain of each target from its 1-process to its 2-process run.
  const gains: string[] = [];
  for (const name of new Set(results.map((r) => r.name))) {
    for (const target of ['bizapi', 'baseline'] as const) {
      const one = results.find((r) => r.name === name && r.target === target && r.workers === 1);
      const two = results.find((r) => r.name === name && r.target === target && r.workers === 2);
      if (one && two && one.requestsPerSecond > 0)
        gains.push(
          `| ${name} | ${target === 'baseline' ? 'limit' : 'bizapi'} | ${ratio(two.requestsPerSecond, one.requestsPerSecond)}× |`,
        );
    }
  }
  if (gains.length > 0) lines.push('', '| 2 workers vs 1 | target | gain |', '|---|---|---:|', ...gains);
  return lines.join('\n') + '\n';
}

async function main(): Promise<void> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'bizapi-bench-'));
  const masterKeyHex = randomBytes(32).toString('hex');
  const databaseUrl = process.env.DATABASE_URL?.startsWith('postgres')
    ? process.env.DATABASE_URL
    : `sqlite:${path.join(work, 'bench.db')}`;
  const dialect = databaseUrl.startsWith('postgres') ? 'postgres' : 'sqlite';
  const config = loadConfig({ DATABASE_URL: databaseUrl, BIZAPI_DATA_DIR: work });
  const db = createDb(config.database);
  let seeded: Seeded;
  const t0 = Date.now();
  try {
    if (dialect === 'postgres') {
      await sql`DROP SCHEMA IF EXISTS public CASCADE`.execute(db);
      await sql`CREATE SCHEMA public`.execute(db);
    }
    await migrateToLatest(db);
    seeded = await seed(db, Buffer.from(masterKeyHex, 'hex'), {
      clients: Number(opts.clients),
      inquiries: Number(opts.inquiries),
      contracts: Number(opts.contracts),
      settlements: Number(opts.settlements),
    });
    if (dialect === 'postgres') await sql`ANALYZE`.execute(db);
  } finally {
    await db.destroy();
  }
  const seedSeconds = (Date.now() - t0) / 1000;
  process.stderr.write(`seeded in ${seedSeconds.toFixed(1)} s (${JSON.stringify(seeded.timings)} ms)\n`);

  const wanted = opts.only?.split(',');
  const scenarios = SCENARIOS.filter((s) => !wanted || wanted.includes(s.name)).filter((s) => {
    const needsInquiries = s.name.includes('inquiry');
    if (needsInquiries && seeded.inquiryIds.length === 0) {
      process.stderr.write(`skipping ${s.name}: no inquiries were seeded\n`);
      return false;
    }
    return true;
  });

  // PostgreSQL: the bench database's backends, for their CPU time (one connection of this harness asks).
  let pgClient: pg.Client | undefined;
  if (dialect === 'postgres') {
    pgClient = new pg.Client({ connectionString: databaseUrl });
    await pgClient.connect();
    const c = pgClient;
    dbBackends = async () =>
      (
        await c.query<{ pid: number }>(
          'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
        )
      ).rows.map((r) => r.pid);
  }

  const env = {
    DATABASE_URL: databaseUrl,
    BIZAPI_MASTER_KEY: masterKeyHex,
    BIZAPI_DATA_DIR: work,
    BIZAPI_RATE_LIMIT: '0',
    LOG_LEVEL: 'warn',
  };
  const results: ScenarioResult[] = [];
  const loadAtStart = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
  for (const scenario of scenarios) {
    for (const workers of workerCounts) {
      const port = await freePort();
      // With --cpu-prof, Node writes `<scenario>.cpuprofile` when the server exits after the scenario.
      const profile = opts.cpuProf
        ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(opts.cpuProf)}`, `--cpu-prof-name=${scenario.name}.cpuprofile`]
        : [];
      const entry = opts.runtime === 'dist' ? 'dist/cli/main.js' : 'bin/bizapi';
      // The memory flags the Docker image's CMD gives a single process (workers get them from src/cluster.ts).
      const server = await startChild(
        [...profile, ...WORKER_V8_FLAGS, entry, 'serve', '--workers', String(workers)],
        { ...env, PORT: String(port) },
        port,
        '/openapi.json',
      );
      try {
        if (workers > 1) await new Promise((r) => setTimeout(r, 3000)); // every worker listening (the probe reached one)
        process.stderr.write(`bizapi   ${scenario.name} (${workers} worker${workers > 1 ? 's' : ''}) …\n`);
        results.push(await measure(server, 'bizapi', workers, scenario, seeded));
      } finally {
        await server.stop();
      }
    }
    // The limit with the same process counts, so "of limit" and the 2-vs-1 gain compare like with like.
    for (const workers of opts.baseline && scenario.baseline ? workerCounts : []) {
      const bport = await freePort();
      const baseline = await startChild(
        ['--import', 'tsx/esm', 'bench/baseline.ts'],
        { ...env, PORT: String(bport), BASELINE_WORKERS: String(workers) },
        bport,
        '/',
      );
      try {
        if (workers > 1) await new Promise((r) => setTimeout(r, 3000)); // every worker listening
        process.stderr.write(`limit    ${scenario.name} (${workers} process${workers > 1 ? 'es' : ''}) …\n`);
        results.push(await measure(baseline, 'baseline', workers, scenario, seeded));
      } finally {
        await baseline.stop();
      }
    }
    // The bare server of issue 38, one process, right after the others in the same run.
    if (opts.bare && scenario.bare) {
      const fport = await freePort();
      const floor = await startChild(
        ['--import', 'tsx/esm', 'bench/bare.ts'],
        { ...env, PORT: String(fport) },
        fport,
        '/',
      );
      try {
        process.stderr.write(`bare     ${scenario.name} (1 process) …\n`);
        results.push(await measure(floor, 'bare', 1, scenario, seeded));
      } finally {
        await floor.stop();
      }
    }
  }
  await pgClient?.end();

  const cpu = os.cpus();
  const meta = {
    date: new Date().toISOString(),
    machine: `${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    database: dialect === 'postgres' ? 'PostgreSQL' : 'SQLite (WAL, synchronous=FULL)',
    node: `Node ${process.version}`,
    driver: opts.driver === 'wrk' ? `wrk (${opts.threads} threads)` : 'autocannon',
    runtime: opts.runtime === 'dist' ? 'compiled (node dist/cli/main.js)' : 'from source (tsx)',
    seedSeconds: seedSeconds.toFixed(1),
    loadAverage: loadAtStart,
  };
  mkdirSync(opts.out, { recursive: true });
  const table = markdown(results, meta);
  writeFileSync(path.join(opts.out, `perf-${dialect}.md`), table);
  writeFileSync(
    path.join(opts.out, `perf-${dialect}.json`),
    JSON.stringify({ meta, options: drv, counts: opts, results }, null, 2) + '\n',
  );
  process.stdout.write(table);
  rmSync(work, { recursive: true, force: true });
}

await main();
