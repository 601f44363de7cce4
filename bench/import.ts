/**
 * `npm run bench:import`: how fast `bizapi import --from URL` moves a business from a local source server
 * (docs/deployment.md#11-moving-a-business-in-and-out). Never part of `npm test`.
 *
 * 1. **Fills a source** (SQLite file in a temporary directory): one business on AGENCY with the demo catalog
 *    and one API key (bench/lib/seed.ts), then `--clients` clients, `--inquiries` inquiries (a client, two
 *    people in charge, a task, custom field values; `--notes` text notes each) and `--contracts` contracts
 *    (a client, a category, custom field values; every other one linked to an inquiry), written **in-process
 *    through the services** (`client.service.create`, `inquiry.service.create`,
 *    `inquiry-history.service.createTextHistory`, `contract.service.create`: the code `POST` runs, without
 *    HTTP), `--batch` records per transaction. The source's data is thus what the API would have written
 *    (events, status history, field values), only faster to make.
 * 2. **Starts the source**: the compiled server (`node dist/cli/main.js serve`) on that file, rate limit off
 *    (`BIZAPI_RATE_LIMIT=0`), load shedding off, dispatcher off, call log on (the default).
 * 3. **Imports** into a fresh target, migrated beforehand: a SQLite file, and PostgreSQL too when
 *    `DATABASE_URL=postgres://…` is set (a throwaway database: its `public` schema is dropped). The import is
 *    the compiled CLI, `node dist/cli/main.js import --from … --rate <--rate>`, run under `/usr/bin/time -v`
 *    (peak RSS, CPU seconds); then the same command again (the repeat run: every count must be `unchanged`).
 * 4. **Reports** per target: wall time of both runs, records per second overall and per resource, requests
 *    the source answered (its `/metrics` counter `bizapi_http_requests_total` before and after, by route and
 *    status), the import's peak RSS and CPU time, the source's CPU time, and the load average (the machine is
 *    shared). Per-resource time comes from the source's API call log: each logged request's time up to the
 *    next one (the import is sequential: one request, then the writes of what it answered) is charged to the
 *    resource the request reads. Results: `bench/results/import-<target dialect>.{md,json}`.
 *
 * Options: `npm run bench:import -- --help`; `--cpu-prof DIR` writes a V8 CPU profile of the first import
 * (summarise it with `npx tsx bench/profile.ts DIR/<file>.cpuprofile`).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import { createDb } from '../src/db/create-db.ts';
import type { Db } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrator.ts';
import { inTransaction } from '../src/db/sql-helpers.ts';
import { demoFileContext } from '../src/demo/demo.ts';
import { create as createClient } from '../src/modules/client/client.service.ts';
import { services } from '../src/services.ts';
import { createTextHistory } from '../src/modules/inquiry/inquiry-history.service.ts';
import { create as createInquiry } from '../src/modules/inquiry/inquiry.service.ts';
import { prng, seed, WORDS, type Seeded } from './lib/seed.ts';
import { ROOT, freePort, startChild, type Child } from './lib/server.ts';

const program = new Command()
  .name('bench:import')
  .description(
    'bizapi import --from URL: a filled source server, a fresh target, wall time, records/s, requests, peak RSS',
  )
  .option('--clients <n>', 'clients in the source', '10000')
  .option('--inquiries <n>', 'inquiries in the source', '5000')
  .option('--notes <n>', 'text notes per inquiry', '2')
  .option('--contracts <n>', 'contracts in the source', '2000')
  .option('--batch <n>', 'records per transaction while filling the source', '250')
  .option('--rate <n>', "the import's --rate (requests per minute; high: the source has no rate limit)", '1000000')
  .option('--cpu-prof <dir>', 'write a V8 CPU profile of the first import run into this directory')
  .option('--out <dir>', 'results directory', path.join(ROOT, 'bench/results'))
  .option('--no-repeat', 'skip the second (repeat) run')
  .option(
    '--targets <list>',
    'comma-separated targets: sqlite, postgres (postgres needs DATABASE_URL; default: sqlite, and postgres when DATABASE_URL is set)',
  )
  .parse();
const opts = program.opts<{
  clients: string;
  inquiries: string;
  notes: string;
  contracts: string;
  batch: string;
  rate: string;
  cpuProf?: string;
  out: string;
  repeat: boolean;
  targets?: string;
}>();
const number = (name: string, value: string, min: number): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name}: an integer ≥ ${min}`);
  return n;
};
const N = {
  clients: number('clients', opts.clients, 0),
  inquiries: number('inquiries', opts.inquiries, 0),
  notes: number('notes', opts.notes, 0),
  contracts: number('contracts', opts.contracts, 0),
};
const BATCH = number('batch', opts.batch, 1);
const RATE = number('rate', opts.rate, 0);
const ENTRY = 'dist/cli/main.js';
if (!existsSync(path.join(ROOT, ENTRY)))
  throw new Error('dist/ is missing: run `npm run build` (npm run bench:import does)');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (message: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${message}\n`);
const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

/** Runs `fn(i)` for i in [0, n) in transactions of {@link BATCH}; logs progress. */
async function batched(db: Db, what: string, n: number, fn: (trx: Db, i: number) => Promise<void>): Promise<number> {
  const t0 = performance.now();
  for (let start = 0; start < n; start += BATCH) {
    await inTransaction(db, async (trx) => {
      for (let i = start; i < Math.min(n, start + BATCH); i++) await fn(trx, i);
    });
    if ((start / BATCH) % 10 === 9) log(`fill: ${what} ${Math.min(n, start + BATCH)} / ${n}`);
  }
  return Math.round(performance.now() - t0);
}

/**
 * Fills the source database through the services (see the file comment); answers the business's keys and
 * the fill time per resource (ms).
 */
async function fillSource(
  databaseUrl: string,
  dataDir: string,
  masterKey: Buffer,
): Promise<{ keys: Seeded; fillMs: Record<string, number> }> {
  const db = createDb(loadConfig({ DATABASE_URL: databaseUrl, BIZAPI_DATA_DIR: dataDir }).database);
  try {
    await migrateToLatest(db);
    const keys = await seed(db, masterKey, { clients: 0, inquiries: 0, contracts: 0, settlements: 0 });
    const { catalog } = keys;
    const auth = { businessId: keys.businessId, timezone: 'Asia/Seoul' };
    const rnd = prng(20261126);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
    const members = Object.values(catalog.members);
    const clientStatuses = Object.values(catalog.clientStatuses);
    const statuses = Object.values(catalog.statuses);
    const categories = Object.values(catalog.contractCategories);
    const f = catalog.fields;
    const files = demoFileContext(undefined);
    const fillMs: Record<string, number> = {};

    const clientIds: number[] = [];
    fillMs.clients = await batched(db, 'clients', N.clients, async (trx, i) => {
      const korean = i % 12 === 5 ? ` ${WORDS.korean[Math.floor(i / 12) % WORDS.korean.length]}` : '';
      const company = `${pick(WORDS.adjective)} ${pick(WORDS.noun)} ${pick(WORDS.kind)} ${pick(WORDS.city)}${korean} ${i}`;
      const created = await createClient(trx, auth, {
        companyName: company,
        inCharge: `${pick(WORDS.person)} ${String.fromCharCode(65 + (i % 26))}.`,
        position: 'Manager',
        contact: `010-${String(1000 + (i % 9000)).padStart(4, '0')}-${String(i % 10000).padStart(4, '0')}`,
        email: `contact${i}@example.com`,
        content: i % 4 === 0 ? `고객 메모 ${i}\n둘째 줄` : null,
        status: { id: pick(clientStatuses) },
        fieldSet: [
          { field: { id: f.industry! }, value: pick(['food', 'health', 'logistics', 'media']) },
          { field: { id: f.billingNotes! }, value: `청구 메모 ${i}` },
        ],
        isHidden: i % 50 === 0,
      });
      clientIds.push(created.id);
    });

    const inquiryIds: number[] = [];
    fillMs.inquiries = await batched(db, 'inquiries', N.inquiries, async (trx, i) => {
      const created = await createInquiry(trx, auth, {
        name: `${pick(WORDS.adjective)} ${pick(WORDS.noun)} 홈페이지 문의 ${i}`,
        ...(clientIds.length > 0 && i % 3 !== 0 ? { client: { id: pick(clientIds) } } : {}),
        content: `문의 내용 ${i}: 견적 요청`,
        estimate: String(Math.floor(rnd() * 1000) * 10000),
        inquiryDate: `2026-${String(1 + (i % 10)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
        status: { id: pick(statuses) },
        inChargeSet: [{ id: members[i % members.length]! }, { id: members[(i + 1) % members.length]! }],
        workSet: [{ name: `견적 보내기 ${i}` }],
        fieldSet: [
          { field: { id: f.channel! }, value: pick(['web', 'referral', 'phone', 'event']) },
          { field: { id: f.budget! }, value: String(1_000_000 + i) },
        ],
      });
      inquiryIds.push(created.id);
      for (let k = 0; k < N.notes; k++) {
        await createTextHistory(trx, auth, created.id, {
          content: `통화 메모 ${k + 1}: 고객이 금요일까지 견적을 원함 (${i})`,
          ...(k % 2 === 0 ? { member: { id: members[0]! } } : {}),
        });
      }
    });

    fillMs.contracts = await batched(db, 'contracts', N.contracts, async (trx, i) => {
      const type = (['I', 'S', 'G'] as const)[i % 3]!;
      const inquiry = i % 2 === 0 && i < inquiryIds.length ? { inquiry: { id: inquiryIds[i]! } } : {};
      await services.contract.create(
        trx,
        auth,
        {
          title: `${pick(WORDS.adjective)} ${pick(WORDS.noun)} 계약 ${i}`,
          amount: Math.floor(rnd() * 1000) * 100_000,
          type,
          status: (['P', 'I', 'C'] as const)[i % 3],
          contractNumber: `C-${i + 1}`,
          startDate: '2026-12-01',
          endDate: '2027-03-31',
          vatType: 'E',
          ...(type === 'S'
            ? { settlementFrequency: 1, settlementCycle: 'M' as const, settlementDay: 1 + (i % 28) }
            : {}),
          ...(clientIds.length > 0 ? { client: { id: pick(clientIds) } } : {}),
          ...inquiry,
          categorySet: [{ id: pick(categories) }],
          fieldSet: [{ field: { id: f.projectCode! }, value: `PRJ-${i}` }],
        },
        files,
      );
    });
    return { keys, fillMs };
  } finally {
    await db.destroy();
  }
}

/** `bizapi_http_requests_total` of the source, by `method route status`. */
async function requestCounts(baseUrl: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^bizapi_http_requests_total\{method="([^"]*)",route="([^"]*)",status_code="([^"]*)"\} (\d+)/.exec(line);
    if (m) out.set(`${m[1]} ${m[2]} ${m[3]}`, Number(m[4]));
  }
  return out;
}

/** The difference of two {@link requestCounts}, without `/metrics` itself; entries that did not change are left out. */
function countsBetween(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of after) {
    if (k.includes('/metrics')) continue;
    const d = v - (before.get(k) ?? 0);
    if (d > 0) out[k] = d;
  }
  return out;
}

/** CPU seconds (user + system) of process `pid` so far, from /proc (Linux; clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** What one import run gave. */
interface RunResult {
  exitCode: number;
  wallSeconds: number;
  /** `/usr/bin/time -v`: peak RSS (MB) and CPU seconds of the import process. */
  peakRssMb: number;
  userSeconds: number;
  systemSeconds: number;
  answer: {
    counts: Record<string, { read: number; created: number; updated: number; unchanged: number }>;
    warnings: string[];
    idsChanged: Record<string, unknown>;
    [k: string]: unknown;
  } | null;
  stderrTail: string;
  startedAt: string;
  endedAt: string;
  sourceRequests: Record<string, number>;
  sourceRequestsTotal: number;
  sourceCpuSeconds: number;
  loadAverage: { before: string; after: string };
}

/** Runs `bizapi import` once into the target `env` under `/usr/bin/time -v`. */
async function runImport(
  source: Child,
  keys: Seeded,
  env: Record<string, string>,
  work: string,
  label: string,
  cpuProf: string | undefined,
): Promise<RunResult> {
  const timeFile = path.join(work, `time-${label}.txt`);
  // `--import tsx`: the compiled CLI cannot load `@bizapi/client`, whose package exports TypeScript sources
  // (`sdk/package.json`: "./src/index.ts"); tsx compiles those few files in memory, the rest runs from dist/.
  const nodeArgs = [
    '--import',
    'tsx',
    ...(cpuProf ? ['--cpu-prof', '--cpu-prof-dir', cpuProf, '--cpu-prof-name', `import-${label}.cpuprofile`] : []),
    ENTRY,
  ];
  const args = [
    ...nodeArgs,
    'import',
    '--from',
    source.baseUrl,
    '--api-key',
    keys.apiKey,
    '--secret-key',
    keys.secretKey,
    '--rate',
    String(RATE),
  ];
  const useTime = existsSync('/usr/bin/time');
  const before = await requestCounts(source.baseUrl);
  const sourceCpu0 = cpuSeconds(source.process.pid!);
  const load0 = loadavg();
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const child = useTime
    ? spawn('/usr/bin/time', ['-v', '-o', timeFile, process.execPath, ...args], {
        cwd: ROOT,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    : spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-8000)));
  // Without /usr/bin/time: the peak from /proc (VmHWM, the kernel's high-water mark), read until exit.
  let hwm = 0;
  const sampler = setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (m) hwm = Math.max(hwm, Number(m[1]));
    } catch {
      /* gone */
    }
  }, 100);
  const exitCode = await new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? -1)));
  clearInterval(sampler);
  const wallSeconds = (performance.now() - t0) / 1000;
  const endedAt = new Date().toISOString();
  const after = await requestCounts(source.baseUrl);
  const sourceRequests = countsBetween(before, after);
  let peakRssMb = hwm / 1024;
  let userSeconds = NaN;
  let systemSeconds = NaN;
  if (useTime && existsSync(timeFile)) {
    const t = readFileSync(timeFile, 'utf8');
    const num = (re: RegExp) => Number(re.exec(t)?.[1] ?? NaN);
    peakRssMb = num(/Maximum resident set size \(kbytes\): (\d+)/) / 1024;
    userSeconds = num(/User time \(seconds\): ([\d.]+)/);
    systemSeconds = num(/System time \(seconds\): ([\d.]+)/);
  }
  let answer: RunResult['answer'] = null;
  try {
    answer = JSON.parse(stdout) as RunResult['answer'];
  } catch {
    /* reported through exitCode and stderrTail */
  }
  return {
    exitCode,
    wallSeconds: Math.round(wallSeconds * 10) / 10,
    peakRssMb: Math.round(peakRssMb),
    userSeconds,
    systemSeconds,
    answer,
    stderrTail: stderr.slice(-2000),
    startedAt,
    endedAt,
    sourceRequests,
    sourceRequestsTotal: Object.values(sourceRequests).reduce((a, b) => a + b, 0),
    sourceCpuSeconds: Math.round((cpuSeconds(source.process.pid!) - sourceCpu0) * 10) / 10,
    loadAverage: { before: load0, after: loadavg() },
  };
}

/** The resource a logged source request reads (for the per-resource time). */
function resourceOf(p: string): string {
  const pathOnly = p.split('?')[0]!;
  if (
    /^\/v1\/(member|folder|field|inquiry\/status|client\/status|contract\/category|settlement\/type|estimate\/item\/classification)(\/|$)/.test(
      pathOnly,
    )
  )
    return 'catalogs';
  if (pathOnly === '/v1/client' && /page_size=1(&|$)/.test(p)) return 'key check';
  const m = /^\/v1\/([a-z]+)/.exec(pathOnly);
  if (!m) return 'other';
  if (['client', 'inquiry', 'contract'].includes(m[1]!)) return m[1]!;
  return 'other (settlements, projects, workers, todos, estimate items)';
}

/**
 * Seconds charged per resource in the window [from, to]: each call logged by the source, in order, is charged
 * the time until the next one (the last: until `to`), the time before the first one to `start-up`.
 */
function secondsPerResource(
  rows: { path: string; created: string }[],
  from: string,
  to: string,
): Record<string, { seconds: number; requests: number }> {
  const inWindow = rows
    .filter((r) => r.created >= from && r.created <= to)
    .sort((a, b) => (a.created < b.created ? -1 : a.created > b.created ? 1 : 0));
  const out: Record<string, { seconds: number; requests: number }> = {};
  const add = (k: string, ms: number, requests: number) => {
    const e = (out[k] ??= { seconds: 0, requests: 0 });
    e.seconds += ms / 1000;
    e.requests += requests;
  };
  if (inWindow.length > 0)
    add('start-up (process, connect, migrations check)', Date.parse(inWindow[0]!.created) - Date.parse(from), 0);
  inWindow.forEach((r, i) => {
    const next = i + 1 < inWindow.length ? Date.parse(inWindow[i + 1]!.created) : Date.parse(to);
    add(resourceOf(r.path), next - Date.parse(r.created), 1);
  });
  for (const e of Object.values(out)) e.seconds = Math.round(e.seconds * 10) / 10;
  return out;
}

/** Records per second, one decimal. */
const perSecond = (n: number, s: number) => (s > 0 ? Math.round((n / s) * 10) / 10 : NaN);

/** One target's result. */
interface TargetResult {
  dialect: 'sqlite' | 'postgres';
  first: RunResult;
  repeat: RunResult | null;
  perResource: Record<string, { seconds: number; requests: number; records: number; recordsPerSecond: number }>;
  totals: { read: number; created: number; updated: number; unchanged: number };
  repeatAllUnchanged: boolean | null;
}

/** Sums of the counts of an answer. */
function totalsOf(answer: RunResult['answer']) {
  const t = { read: 0, created: 0, updated: 0, unchanged: 0 };
  for (const c of Object.values(answer?.counts ?? {})) {
    t.read += c.read;
    t.created += c.created;
    t.updated += c.updated;
    t.unchanged += c.unchanged;
  }
  return t;
}

/** Records read per resource group of {@link resourceOf}. */
function recordsOf(answer: RunResult['answer'], group: string): number {
  const c = answer?.counts ?? {};
  const read = (prefixes: string[]) =>
    Object.entries(c)
      .filter(([k]) => prefixes.some((p) => k === p || k.startsWith(`${p}.`)))
      .reduce((a, [, v]) => a + v.read, 0);
  switch (group) {
    case 'client':
      return read(['client']);
    case 'inquiry':
      return read(['inquiry']);
    case 'contract':
      return read(['contract']);
    case 'catalogs':
      return read([
        'member',
        'grade',
        'folder',
        'inquiry_status',
        'client_status',
        'field',
        'contract_category',
        'settlement_type',
        'estimate_item_classification',
        'worker_position',
      ]);
    default:
      return group.startsWith('other (') ? read(['settlement', 'project', 'worker', 'todo', 'estimate']) : 0;
  }
}

function markdown(results: TargetResult[], meta: Record<string, unknown>): string {
  const lines: string[] = [
    `Run ${String(meta.date)} on ${String(meta.machine)}; ${String(meta.node)}; bizapi compiled (node dist/cli/main.js); source: SQLite, rate limit off, call log on; import \`--rate ${RATE}\`.`,
    '',
    `Source: ${N.clients} clients, ${N.inquiries} inquiries with ${N.notes} text notes each (plus each inquiry's first status-history row), ${N.contracts} contracts, demo catalog; filled in-process through the services in ${String(meta.fillSeconds)} s.`,
    `Load average (1/5/15 min) at the start: ${String(meta.loadAverageAtStart)} — the machine's 2 cores were shared with other sessions' work, so absolute speeds are low and noisy.`,
    '',
  ];
  for (const r of results) {
    const t = r.totals;
    lines.push(`### Target: ${r.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'}`, '');
    lines.push('| | first run | repeat run |', '|---|---:|---:|');
    const row = (name: string, a: unknown, b: unknown) =>
      lines.push(`| ${name} | ${String(a)} | ${r.repeat ? String(b) : '—'} |`);
    row('exit code', r.first.exitCode, r.repeat?.exitCode);
    row('wall time s', r.first.wallSeconds, r.repeat?.wallSeconds);
    row('records read', t.read, r.repeat ? totalsOf(r.repeat.answer).read : '');
    row(
      'created / updated / unchanged',
      `${t.created} / ${t.updated} / ${t.unchanged}`,
      r.repeat
        ? (() => {
            const u = totalsOf(r.repeat.answer);
            return `${u.created} / ${u.updated} / ${u.unchanged}`;
          })()
        : '',
    );
    row(
      'records/s overall',
      perSecond(t.read, r.first.wallSeconds),
      r.repeat ? perSecond(totalsOf(r.repeat.answer).read, r.repeat.wallSeconds) : '',
    );
    row('requests to the source', r.first.sourceRequestsTotal, r.repeat?.sourceRequestsTotal);
    row(
      'requests/s',
      perSecond(r.first.sourceRequestsTotal, r.first.wallSeconds),
      r.repeat ? perSecond(r.repeat.sourceRequestsTotal, r.repeat.wallSeconds) : '',
    );
    row(
      'non-2xx answers of the source',
      Object.entries(r.first.sourceRequests)
        .filter(([k]) => !/ 2\d\d$/.test(k))
        .reduce((a, [, v]) => a + v, 0),
      r.repeat
        ? Object.entries(r.repeat.sourceRequests)
            .filter(([k]) => !/ 2\d\d$/.test(k))
            .reduce((a, [, v]) => a + v, 0)
        : '',
    );
    row('import peak RSS MB', r.first.peakRssMb, r.repeat?.peakRssMb);
    row(
      'import CPU s (user + sys)',
      Math.round((r.first.userSeconds + r.first.systemSeconds) * 10) / 10,
      r.repeat ? Math.round((r.repeat.userSeconds + r.repeat.systemSeconds) * 10) / 10 : '',
    );
    row('source server CPU s', r.first.sourceCpuSeconds, r.repeat?.sourceCpuSeconds);
    row('warnings', r.first.answer?.warnings.length ?? '?', r.repeat?.answer?.warnings.length ?? '?');
    row(
      'load average before → after',
      `${r.first.loadAverage.before} → ${r.first.loadAverage.after}`,
      r.repeat ? `${r.repeat.loadAverage.before} → ${r.repeat.loadAverage.after}` : '',
    );
    lines.push(
      '',
      `Repeat run: every count \`unchanged\`: **${r.repeatAllUnchanged === null ? 'not run' : r.repeatAllUnchanged ? 'yes' : 'NO'}**.`,
      '',
    );
    lines.push("First run, per resource (time charged from the source's call log, see bench/README.md):", '');
    lines.push('| resource | records read | requests | seconds | records/s |', '|---|---:|---:|---:|---:|');
    for (const [k, v] of Object.entries(r.perResource))
      lines.push(
        `| ${k} | ${v.records} | ${v.requests} | ${v.seconds} | ${Number.isNaN(v.recordsPerSecond) ? '' : v.recordsPerSecond} |`,
      );
    lines.push('', 'Counts of the first run (read / created / updated / unchanged):', '');
    lines.push('| resource | read | created | updated | unchanged |', '|---|---:|---:|---:|---:|');
    for (const [k, c] of Object.entries(r.first.answer?.counts ?? {}))
      lines.push(`| ${k} | ${c.read} | ${c.created} | ${c.updated} | ${c.unchanged} |`);
    lines.push('');
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'bizapi-bench-import-'));
  const masterKeyHex = randomBytes(32).toString('hex');
  const loadAverageAtStart = loadavg();
  const sourceDir = path.join(work, 'source');
  mkdirSync(sourceDir);
  const sourceUrl = `sqlite:${path.join(sourceDir, 'source.db')}`;
  try {
    log(
      `fill: ${N.clients} clients, ${N.inquiries} inquiries × ${N.notes} notes, ${N.contracts} contracts (load ${loadAverageAtStart}) …`,
    );
    const t0 = performance.now();
    const { keys, fillMs } = await fillSource(sourceUrl, sourceDir, Buffer.from(masterKeyHex, 'hex'));
    const fillSeconds = Math.round((performance.now() - t0) / 100) / 10;
    log(`fill: done in ${fillSeconds} s (${JSON.stringify(fillMs)} ms)`);

    const port = await freePort();
    const sourceEnv = {
      DATABASE_URL: sourceUrl,
      BIZAPI_DATA_DIR: sourceDir,
      BIZAPI_MASTER_KEY: masterKeyHex,
      BIZAPI_RATE_LIMIT: '0',
      BIZAPI_MAX_EVENT_LOOP_DELAY: '0',
      BIZAPI_DISPATCHER: 'off',
      LOG_LEVEL: 'warn',
      PORT: String(port),
    };
    const source = await startChild([ENTRY, 'serve'], sourceEnv, port, '/healthz');
    const results: TargetResult[] = [];
    const windows: { dialect: TargetResult['dialect']; from: string; to: string; index: number }[] = [];
    try {
      const pgUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
      const wanted = (opts.targets ?? (pgUrl ? 'sqlite,postgres' : 'sqlite')).split(',');
      if (wanted.includes('postgres') && !pgUrl)
        throw new Error('--targets postgres needs DATABASE_URL=postgres://… (a throwaway database)');
      const targets: { dialect: TargetResult['dialect']; url: string }[] = [];
      if (wanted.includes('sqlite'))
        targets.push({ dialect: 'sqlite', url: `sqlite:${path.join(work, 'target', 'target.db')}` });
      if (pgUrl && wanted.includes('postgres')) targets.push({ dialect: 'postgres', url: pgUrl });
      for (const target of targets) {
        const dataDir = path.join(work, `target-${target.dialect}`);
        mkdirSync(dataDir, { recursive: true });
        mkdirSync(path.join(work, 'target'), { recursive: true });
        const env = {
          DATABASE_URL: target.url,
          BIZAPI_DATA_DIR: dataDir,
          BIZAPI_MASTER_KEY: masterKeyHex,
          LOG_LEVEL: 'warn',
        };
        // A fresh target, migrated before the clock starts.
        const db = createDb(loadConfig(env).database);
        try {
          if (target.dialect === 'postgres') {
            await sql`DROP SCHEMA IF EXISTS public CASCADE`.execute(db);
            await sql`CREATE SCHEMA public`.execute(db);
          }
          await migrateToLatest(db);
        } finally {
          await db.destroy();
        }
        log(`import → ${target.dialect}: first run (load ${loadavg()}) …`);
        const first = await runImport(source, keys, env, work, `${target.dialect}-1`, opts.cpuProf);
        log(
          `import → ${target.dialect}: exit ${first.exitCode} in ${first.wallSeconds} s, ${first.sourceRequestsTotal} requests, peak RSS ${first.peakRssMb} MB`,
        );
        if (first.exitCode !== 0) process.stderr.write(first.stderrTail + '\n');
        windows.push({ dialect: target.dialect, from: first.startedAt, to: first.endedAt, index: results.length });
        let repeat: RunResult | null = null;
        if (opts.repeat && first.exitCode === 0) {
          log(`import → ${target.dialect}: repeat run …`);
          repeat = await runImport(source, keys, env, work, `${target.dialect}-2`, undefined);
          log(`import → ${target.dialect}: exit ${repeat.exitCode} in ${repeat.wallSeconds} s`);
          if (repeat.exitCode !== 0) process.stderr.write(repeat.stderrTail + '\n');
        }
        const repeatTotals = repeat ? totalsOf(repeat.answer) : null;
        results.push({
          dialect: target.dialect,
          first,
          repeat,
          perResource: {},
          totals: totalsOf(first.answer),
          repeatAllUnchanged:
            repeatTotals === null
              ? null
              : repeatTotals.read > 0 && repeatTotals.unchanged === repeatTotals.read && repeat!.exitCode === 0,
        });
      }
    } finally {
      await source.stop();
    }

    // The call log is flushed at shutdown: read it now for the per-resource time of each first run.
    const sdb = createDb(loadConfig({ DATABASE_URL: sourceUrl, BIZAPI_DATA_DIR: sourceDir }).database);
    try {
      const rows = await sdb
        .selectFrom('api_log')
        .select(['path', 'created'])
        .where('business_id', '=', keys.businessId)
        .execute();
      for (const w of windows) {
        const r = results[w.index]!;
        for (const [k, v] of Object.entries(secondsPerResource(rows, w.from, w.to))) {
          const records = recordsOf(r.first.answer, k);
          r.perResource[k] = { ...v, records, recordsPerSecond: records > 0 ? perSecond(records, v.seconds) : NaN };
        }
      }
    } finally {
      await sdb.destroy();
    }

    const cpu = os.cpus();
    const meta = {
      date: new Date().toISOString(),
      machine: `${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
      node: `Node ${process.version}`,
      loadAverageAtStart,
      sizes: N,
      fillSeconds,
      fillMs,
      fill: 'in-process through the services (client/inquiry/inquiry-history/contract .service), one transaction per --batch records',
      rate: RATE,
    };
    mkdirSync(opts.out, { recursive: true });
    for (const r of results) {
      const md = markdown([r], meta);
      writeFileSync(path.join(opts.out, `import-${r.dialect}.md`), md);
      writeFileSync(
        path.join(opts.out, `import-${r.dialect}.json`),
        JSON.stringify(
          {
            meta,
            options: opts,
            result: {
              ...r,
              first: { ...r.first, answer: { ...r.first.answer, apiKey: undefined, secretKey: undefined } },
              repeat: r.repeat && {
                ...r.repeat,
                answer: { ...r.repeat.answer, apiKey: undefined, secretKey: undefined },
              },
            },
          },
          null,
          2,
        ) + '\n',
      );
      process.stdout.write(md + '\n');
    }
    if (results.some((r) => r.first.exitCode !== 0 || r.repeatAllUnchanged === false)) process.exitCode = 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  await sleep(0);
}

await main();
