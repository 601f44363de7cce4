/**
 * `npm run bench:statements`: the CPU and wall time of each SQL statement one request runs, in-process (the
 * app built with `buildApp` and driven by `inject`, no sockets), on SQLite. Never part of `npm test`.
 *
 *   npm run bench:statements -- [--clients 20000] [--requests 1000] [--scenario create-client|list-clients|get-client]
 *
 * Seeds one business (bench/lib/seed.ts) in a fresh SQLite file (WAL, `synchronous=FULL`), warms up with 200
 * requests, then times every better-sqlite3 `run`/`all`/`get` during `--requests` requests: per statement text,
 * how often it ran and its wall and CPU time per request (CPU: `process.cpuUsage`, this process, so garbage
 * collection threads count where they ran). The call log's batched insert shows once per flush. Used for issue
 * 27's account of the POST path (bench/README.md, "Issue 27 against its targets").
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Command } from 'commander';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createDb } from '../src/db/create-db.ts';
import { migrateToLatest } from '../src/db/migrator.ts';
import { signedHeaders } from './lib/load.ts';
import { seed } from './lib/seed.ts';

const opts = new Command()
  .name('bench:statements')
  .option('--clients <n>', 'seeded clients', '20000')
  .option('--requests <n>', 'measured requests', '1000')
  .option('--scenario <name>', 'create-client, list-clients or get-client', 'create-client')
  .parse()
  .opts<{ clients: string; requests: string; scenario: string }>();

/** Time per statement text, summed over the measured requests. */
const stats = new Map<string, { n: number; wallMs: number; cpuMs: number }>();
let measuring = false;
const statementPrototype = Object.getPrototypeOf(new Database(':memory:').prepare('select 1')) as Record<
  string,
  (...a: unknown[]) => unknown
>;
for (const method of ['run', 'all', 'get']) {
  const original = statementPrototype[method]!;
  statementPrototype[method] = function (this: { source: string }, ...args: unknown[]) {
    if (!measuring) return original.apply(this, args);
    const cpu = process.cpuUsage();
    const start = performance.now();
    try {
      return original.apply(this, args);
    } finally {
      const key = this.source.replace(/\s+/g, ' ').slice(0, 110);
      const s = stats.get(key) ?? { n: 0, wallMs: 0, cpuMs: 0 };
      const used = process.cpuUsage(cpu);
      s.n++;
      s.wallMs += performance.now() - start;
      s.cpuMs += (used.user + used.system) / 1000;
      stats.set(key, s);
    }
  };
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'bizapi-statements-'));
const masterKeyHex = '11'.repeat(32);
const config = loadConfig({
  ...process.env,
  DATABASE_URL: `sqlite:${path.join(dir, 'bench.sqlite')}`,
  BIZAPI_MASTER_KEY: masterKeyHex,
  BIZAPI_DATA_DIR: dir,
  BIZAPI_RATE_LIMIT: '0',
  LOG_LEVEL: 'warn',
});
const db = createDb(config.database);
await migrateToLatest(db);
const masterKey = Buffer.from(masterKeyHex, 'hex');
const seeded = await seed(db, masterKey, {
  clients: Number(opts.clients),
  inquiries: 100,
  contracts: 0,
  settlements: 0,
});
const app = await buildApp(config, { db, masterKey });
let n = 0;
const requestOf = (): { method: 'GET' | 'POST'; url: string; body: string } => {
  n++;
  if (opts.scenario === 'list-clients') return { method: 'GET', url: '/v1/client', body: '' };
  if (opts.scenario === 'get-client')
    return { method: 'GET', url: `/v1/client/${seeded.clientIds[n % seeded.clientIds.length]}`, body: '' };
  return {
    method: 'POST',
    url: '/v1/client',
    body: JSON.stringify({
      companyName: `Statement ${n} 한빛상사`,
      inCharge: 'Kim',
      contact: '010-1234-5678',
      email: `s${n}@example.com`,
    }),
  };
};
const send = async () => {
  const r = requestOf();
  const res = await app.inject({
    method: r.method,
    url: r.url,
    ...(r.body ? { payload: r.body } : {}),
    headers: signedHeaders(seeded, r.body),
  });
  if (res.statusCode >= 300) throw new Error(`${r.method} ${r.url} answered ${res.statusCode}: ${res.body}`);
};
for (let i = 0; i < 200; i++) await send();
await app.logWriter.flush();
const requests = Number(opts.requests);
measuring = true;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
for (let i = 0; i < requests; i++) await send();
await app.logWriter.flush();
const cpu = process.cpuUsage(cpu0);
const wall = performance.now() - t0;
measuring = false;
const perRequest = (ms: number) => ((ms * 1000) / requests).toFixed(0);
const lines = [
  `${opts.scenario}, ${requests} requests in-process, ${opts.clients} clients, SQLite (WAL, synchronous=FULL), ${process.version}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ')}`,
  `whole request: wall ${perRequest(wall)} µs, CPU ${perRequest((cpu.user + cpu.system) / 1000)} µs`,
  '',
  '| runs | wall µs/request | CPU µs/request | statement |',
  '|---:|---:|---:|---|',
  ...[...stats]
    .sort((a, b) => b[1].cpuMs - a[1].cpuMs)
    .map(([sql, s]) => `| ${s.n} | ${perRequest(s.wallMs)} | ${perRequest(s.cpuMs)} | \`${sql}\` |`),
];
process.stdout.write(lines.join('\n') + '\n');
await app.close();
await db.destroy();
rmSync(dir, { recursive: true, force: true });
