/**
 * `npm run bench:citus`: what one API request costs on Citus beside plain PostgreSQL, on the same machine in
 * the same run (issue 41; bench/README.md#citus-beside-plain-postgresql). Never part of `npm test`.
 *
 *   PG_URL=postgres://bizapi:bizapi@127.0.0.1:5432/bizapi_bench \
 *   CITUS_URL=postgres://postgres@127.0.0.1:5440/bizapi_bench \
 *   npm run bench:citus -- [--clients 2000] [--requests 300] [--connections 8] [--duration 5]
 *
 * For each of the two databases: a schema of its own (`bench_citus`, dropped first: both databases are
 * throwaway), `migrate`, on Citus `distribute` (src/db/distribute.ts, as `bizapi distribute` does it), one
 * business seeded with `--clients` clients (bench/lib/seed.ts), then `bin/bizapi serve` (one process, rate
 * limit off) on it. Both servers run at once; the scenarios alternate between them:
 *
 * - `GET /v1/client/{id}` (a random seeded client) and `POST /v1/client` (signed JSON), `--requests` times
 *   each one after the other (no concurrency): latency p50 / p99 in ms, the cost of one request;
 * - the same two at `--connections` connections for `--duration` s (autocannon, after 1 s of warm-up): req/s.
 *
 * Prints a Markdown table and writes it to bench/results/citus.md.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import { createDb } from '../src/db/create-db.ts';
import { distribute } from '../src/db/distribute.ts';
import { migrateToLatest } from '../src/db/migrator.ts';
import { dynamic, drive, signedHeaders, type Keys } from './lib/load.ts';
import { seed } from './lib/seed.ts';
import { ROOT, freePort, startChild, type Child } from './lib/server.ts';

const opts = new Command()
  .name('bench:citus')
  .option('--clients <n>', 'seeded clients', '2000')
  .option('--requests <n>', 'sequential requests per scenario', '300')
  .option('--connections <n>', 'connections of the throughput run', '8')
  .option('--duration <s>', 'seconds of the throughput run', '5')
  .parse()
  .opts<{ clients: string; requests: string; connections: string; duration: string }>();

const SCHEMA = 'bench_citus';

/** `url` with the bench schema first on the search path (public after it: the extensions live there). */
function inSchema(url: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${SCHEMA},public`)}`;
}

interface Target {
  name: string;
  server: Child;
  keys: Keys;
  clientIds: number[];
}

/** Prepares one database (schema, migrate, distribute on Citus, seed) and starts a server on it. */
async function prepare(name: string, url: string, citus: boolean, work: string): Promise<Target> {
  const masterKeyHex = randomBytes(32).toString('hex');
  const admin = createDb(loadConfig({ DATABASE_URL: url, BIZAPI_DATA_DIR: work }).database);
  try {
    await sql`DROP SCHEMA IF EXISTS ${sql.id(SCHEMA)} CASCADE`.execute(admin);
    await sql`CREATE SCHEMA ${sql.id(SCHEMA)}`.execute(admin);
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public`.execute(admin);
    await sql`CREATE EXTENSION IF NOT EXISTS btree_gin SCHEMA public`.execute(admin);
  } finally {
    await admin.destroy();
  }
  const db = createDb(loadConfig({ DATABASE_URL: inSchema(url), BIZAPI_DATA_DIR: work }).database);
  let seeded;
  try {
    await migrateToLatest(db);
    if (citus) await distribute(db);
    seeded = await seed(db, Buffer.from(masterKeyHex, 'hex'), {
      clients: Number(opts.clients),
      inquiries: 0,
      contracts: 0,
      settlements: 0,
    });
    await sql`ANALYZE`.execute(db);
  } finally {
    await db.destroy();
  }
  const port = await freePort();
  const env = {
    DATABASE_URL: inSchema(url),
    BIZAPI_MASTER_KEY: masterKeyHex,
    BIZAPI_DATA_DIR: work,
    BIZAPI_RATE_LIMIT: '0',
    LOG_LEVEL: 'warn',
    PORT: String(port),
  };
  const server = await startChild([path.join(ROOT, 'bin/bizapi'), 'serve'], env, port, '/openapi.json');
  return { name, server, keys: { apiKey: seeded.apiKey, secretKey: seeded.secretKey }, clientIds: seeded.clientIds };
}

/** A GET of a random seeded client, or a POST of a new one. */
function request(t: Target, kind: 'get' | 'post', i: number): { method: string; path: string; body?: unknown } {
  if (kind === 'get')
    return { method: 'GET', path: `/v1/client/${t.clientIds[Math.floor(Math.random() * t.clientIds.length)]}` };
  return {
    method: 'POST',
    path: '/v1/client',
    body: { companyName: `Bench ${i} ${Math.random().toString(36).slice(2, 8)}` },
  };
}

/** `n` requests one after the other; latencies in ms, sorted. Throws on any answer that is not 2xx. */
async function sequential(t: Target, kind: 'get' | 'post', n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = request(t, kind, i);
    const body = r.body === undefined ? '' : JSON.stringify(r.body);
    const start = performance.now();
    const res = await fetch(t.server.baseUrl + r.path, {
      method: r.method,
      headers: signedHeaders(t.keys, body),
      ...(body === '' ? {} : { body }),
    });
    await res.arrayBuffer();
    out.push(performance.now() - start);
    if (!res.ok) throw new Error(`${t.name}: ${r.method} ${r.path} answered ${res.status}`);
  }
  return out.sort((a, b) => a - b);
}

const pct = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

async function main(): Promise<void> {
  const pgUrl = process.env.PG_URL;
  const citusUrl = process.env.CITUS_URL;
  if (!pgUrl || !citusUrl)
    throw new Error(
      'PG_URL (plain PostgreSQL) and CITUS_URL (a Citus coordinator database with the citus extension and its workers) are both needed',
    );
  const work = mkdtempSync(path.join(os.tmpdir(), 'bizapi-bench-citus-'));
  const targets = [await prepare('PostgreSQL', pgUrl, false, work), await prepare('Citus', citusUrl, true, work)];
  const rows: string[] = [];
  const loadAtStart = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
  try {
    for (const kind of ['get', 'post'] as const) {
      for (const t of targets) await sequential(t, kind, 20); // warm-up
      const measured: Record<string, { p50: number; p99: number; rps: number; non2xx: number }> = {};
      for (const t of targets) {
        const lat = await sequential(t, kind, Number(opts.requests));
        const load = await drive(
          t.server.baseUrl,
          [dynamic(t.keys, () => request(t, kind, Math.floor(Math.random() * 1e9)))],
          {
            connections: Number(opts.connections),
            duration: Number(opts.duration),
            warmup: 1,
          },
        );
        measured[t.name] = {
          p50: pct(lat, 50),
          p99: pct(lat, 99),
          rps: load.requestsPerSecond,
          non2xx: load.non2xx + load.errors,
        };
      }
      const label = kind === 'get' ? '`GET /v1/client/{id}`' : '`POST /v1/client`';
      for (const t of targets) {
        const m = measured[t.name]!;
        rows.push(
          `| ${label} | ${t.name} | ${m.p50.toFixed(2)} | ${m.p99.toFixed(2)} | ${Math.round(m.rps)} | ${m.non2xx} |`,
        );
      }
    }
  } finally {
    for (const t of targets) await t.server.stop();
  }
  const table = [
    `Run ${new Date().toISOString()}, ${os.cpus().length} cores, load average at start ${loadAtStart}; ${opts.clients} clients seeded, ` +
      `${opts.requests} sequential requests, then ${opts.connections} connections for ${opts.duration} s.`,
    '',
    '| request | database | p50 ms (one at a time) | p99 ms | req/s at ' +
      opts.connections +
      ' connections | errors / non-2xx |',
    '|---|---|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
  process.stdout.write(table + '\n');
  mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(path.join(ROOT, 'bench/results/citus.md'), table + '\n');
}

await main();
