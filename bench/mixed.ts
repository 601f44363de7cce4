/**
 * Issue 38's mixed-load target (bench/README.md#issue-38-targets): 8 reader connections issuing
 * `GET /v1/client/{id}` and `GET /v1/client` (first page), alternately at random, and 4 writer connections
 * issuing `POST /v1/client`, **at the same time** against one compiled bizapi process, for `--seconds`
 * (180 by default) after `--warmup` seconds of the same mix. Reads/s and writes/s are reported apart, with
 * each side's p50/p99 (ms), plus the server's (and on PostgreSQL its backends') CPU time per request over the
 * measured run (bench/run.ts's meter, `/proc/<pid>/stat`). Seeding and start-up are bench/run.ts's.
 *
 * Run: `npm run build && npx tsx bench/mixed.ts [--seconds 180]`; `DATABASE_URL=postgres://…` uses that
 * throwaway PostgreSQL database (its `public` schema is dropped). Writes bench/results/issue-38-mixed-<dialect>.md
 * (or `--out`). Never part of `npm test`; run it under the load lock (`flock /work/notes/load.lock`).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { sql } from 'kysely';
import autocannon, { type Result } from 'autocannon';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { createDb } from '../src/db/create-db.ts';
import { migrateToLatest } from '../src/db/migrator.ts';
import { WORKER_V8_FLAGS } from '../src/cluster.ts';
import { dynamic } from './lib/load.ts';
import { prng, seed } from './lib/seed.ts';
import { ROOT, cpuMeter, freePort, startChild } from './lib/server.ts';

const opts = new Command()
  .name('bench-mixed')
  .description("issue 38's mixed load: readers and writers at once, reads/s and writes/s apart")
  .option('--seconds <n>', 'measured seconds', '180')
  .option('--warmup <n>', 'warm-up seconds (same mix)', '5')
  .option('--readers <n>', 'reader connections (GET one / GET list)', '8')
  .option('--writers <n>', 'writer connections (POST client)', '4')
  .option('--clients <n>', 'clients to seed', '100000')
  .option('--out <file>', 'result file (default bench/results/issue-38-mixed-<dialect>.md)')
  .option('--cpu-prof <dir>', 'write a V8 CPU profile of the server into <dir> when it stops (see bench/profile.ts)')
  .parse()
  .opts<{
    seconds: string;
    warmup: string;
    readers: string;
    writers: string;
    clients: string;
    out?: string;
    cpuProf?: string;
  }>();

/** One side's numbers: requests per second over the measured run, latencies in ms. */
interface Side {
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

function side(r: Result, seconds: number): Side {
  return {
    requests: r.requests.total,
    perSecond: Math.round(r.requests.total / seconds),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}

async function main(): Promise<void> {
  const seconds = Number(opts.seconds);
  const warmup = Number(opts.warmup);
  if (!(seconds > 0) || !(warmup >= 0)) throw new Error('--seconds > 0, --warmup ≥ 0');
  if (!existsSync(path.join(ROOT, 'dist/cli/main.js'))) throw new Error('dist/ is missing: run `npm run build`');
  const work = mkdtempSync(path.join(os.tmpdir(), 'bizapi-mixed-'));
  const masterKeyHex = randomBytes(32).toString('hex');
  const databaseUrl = process.env.DATABASE_URL?.startsWith('postgres')
    ? process.env.DATABASE_URL
    : `sqlite:${path.join(work, 'bench.db')}`;
  const dialect = databaseUrl.startsWith('postgres') ? 'postgres' : 'sqlite';
  const db = createDb(loadConfig({ DATABASE_URL: databaseUrl, BIZAPI_DATA_DIR: work }).database);
  let seeded;
  try {
    if (dialect === 'postgres') {
      await sql`DROP SCHEMA IF EXISTS public CASCADE`.execute(db);
      await sql`CREATE SCHEMA public`.execute(db);
    }
    await migrateToLatest(db);
    seeded = await seed(db, Buffer.from(masterKeyHex, 'hex'), {
      clients: Number(opts.clients),
      inquiries: 0,
      contracts: 0,
      settlements: 0,
    });
    if (dialect === 'postgres') await sql`ANALYZE`.execute(db);
  } finally {
    await db.destroy();
  }
  const s = seeded;

  let pgClient: pg.Client | undefined;
  let backends: () => Promise<number[]> = async () => [];
  if (dialect === 'postgres') {
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    pgClient = c;
    backends = async () =>
      (
        await c.query<{ pid: number }>(
          'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
        )
      ).rows.map((r) => r.pid);
  }

  const rnd = prng(38);
  let n = 0;
  const reads = [
    dynamic(s, () =>
      rnd() < 0.5
        ? { method: 'GET', path: `/v1/client/${s.clientIds[Math.floor(rnd() * s.clientIds.length)]}` }
        : { method: 'GET', path: '/v1/client' },
    ),
  ];
  const writes = [
    dynamic(s, () => ({
      method: 'POST',
      path: '/v1/client',
      body: { companyName: `Mixed Load Co. ${++n}`, inCharge: 'Kim', email: 'bench@example.com' },
    })),
  ];

  const port = await freePort();
  const env = {
    DATABASE_URL: databaseUrl,
    BIZAPI_MASTER_KEY: masterKeyHex,
    BIZAPI_DATA_DIR: work,
    BIZAPI_RATE_LIMIT: '0',
    LOG_LEVEL: 'warn',
    PORT: String(port),
  };
  // With --cpu-prof, Node writes `mixed.cpuprofile` when the server exits after the run.
  const profile = opts.cpuProf
    ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(opts.cpuProf)}`, '--cpu-prof-name=mixed.cpuprofile']
    : [];
  const server = await startChild(
    [...profile, ...WORKER_V8_FLAGS, 'dist/cli/main.js', 'serve', '--workers', '1'],
    env,
    port,
    '/openapi.json',
  );
  const loadBefore = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
  let result: { read: Side; write: Side; serverMs: number; dbMs: number };
  try {
    const both = (duration: number) =>
      Promise.all([
        autocannon({ url: server.baseUrl, connections: Number(opts.readers), duration, requests: reads }),
        autocannon({ url: server.baseUrl, connections: Number(opts.writers), duration, requests: writes }),
      ]);
    if (warmup > 0) await both(warmup);
    const cpuServer = cpuMeter(() => [server.process.pid!]);
    const cpuDb = cpuMeter(backends);
    await cpuServer.start();
    await cpuDb.start();
    const [r, w] = await both(seconds);
    const serverMs = await cpuServer.stop();
    const dbMs = await cpuDb.stop();
    result = { read: side(r, seconds), write: side(w, seconds), serverMs, dbMs };
  } finally {
    await server.stop();
    await pgClient?.end();
  }
  const loadAfter = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
  const total = result.read.requests + result.write.requests;
  const cpuUs = total > 0 ? Math.round(((result.serverMs + result.dbMs) * 1000) / total) : 0;
  const fmt = (x: number) => x.toLocaleString('en-US');
  const row = (name: string, x: Side, target: number) =>
    `| ${name} | ${fmt(x.perSecond)} | ≥ ${fmt(target)} | ${x.perSecond >= target ? 'met' : 'not met'} | ${fmt(x.requests)} | ${x.p50} | ${x.p99} | ${x.errors} | ${x.non2xx} |`;
  const cpu = os.cpus();
  const text = [
    `# Issue 38: mixed load on ${dialect === 'postgres' ? 'PostgreSQL' : 'SQLite (WAL, synchronous=FULL)'}`,
    '',
    `\`npx tsx bench/mixed.ts --seconds ${seconds}\` (bench/mixed.ts), ${new Date().toISOString()}, ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, Node ${process.version}; ` +
      `one compiled bizapi process (\`node dist/cli/main.js serve --workers 1\`), ${fmt(Number(opts.clients))} clients seeded; autocannon in this process: ` +
      `${opts.readers} reader connections (GET /v1/client/{id} or GET /v1/client, half each) and ${opts.writers} writer connections (POST /v1/client) at the same time, ` +
      `${seconds} s measured after ${warmup} s of warm-up; load average ${loadBefore} before, ${loadAfter} after.`,
    '',
    '| side | req/s | target | | requests | p50 ms | p99 ms | errors | non-2xx |',
    '|---|---:|---:|---|---:|---:|---:|---:|---:|',
    row('reads', result.read, 1500),
    row('writes', result.write, 400),
    '',
    `CPU over the measured run: server ${fmt(result.serverMs)} ms${dialect === 'postgres' ? `, PostgreSQL backends ${fmt(result.dbMs)} ms` : ''}; ${fmt(cpuUs)} µs per request (reads and writes together).`,
    '',
  ].join('\n');
  writeFileSync(opts.out ?? path.join(ROOT, `bench/results/issue-38-mixed-${dialect}.md`), text);
  process.stdout.write(text);
  rmSync(work, { recursive: true, force: true });
}

await main();
