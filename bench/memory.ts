/**
 * `npm run bench:memory` (issue 26): the resident memory of the compiled server (`node dist/cli/main.js
 * serve --workers N`, as the Docker image runs it) idle and after load. Starts it on a fresh SQLite file
 * (or the PostgreSQL database `DATABASE_URL` names), creates a business with a few clients through the CLI,
 * reads the RSS (VmRSS) of the primary and of every worker after start-up, sends 30,000 signed GETs
 * (three list and retrieve operations, autocannon), waits for the garbage collector to settle, and reads the
 * RSS again. Writes bench/results/memory-<dialect>.md and .json. Never part of `npm test`.
 *
 * Options: --workers (default 2), --requests (default 30000), --connections (default 32).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { Command } from 'commander';
import { signedHeaders } from './lib/load.ts';
import { ROOT, freePort, rssOf, startChild } from './lib/server.ts';

const opts = new Command()
  .option('--workers <n>', 'server processes (serve --workers)', '2')
  .option('--requests <n>', 'GET requests to send', '30000')
  .option('--connections <n>', 'concurrent connections', '32')
  .option('--out <dir>', 'results directory', path.join(ROOT, 'bench/results'))
  .parse()
  .opts<{ workers: string; requests: string; connections: string; out: string }>();

const MIB = 1024 * 1024;
const mib = (bytes: number) => Math.round((bytes / MIB) * 10) / 10;

/** The children of `pid` (the cluster workers of the primary), from /proc. */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** RSS in MiB of the primary and of each worker. */
function snapshot(primary: number): { primary: number; workers: number[] } {
  return { primary: mib(rssOf(primary)), workers: childrenOf(primary).map((p) => mib(rssOf(p))) };
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'bizapi-bench-memory-'));
const databaseUrl = process.env.DATABASE_URL?.startsWith('postgres')
  ? process.env.DATABASE_URL
  : `sqlite:${path.join(dir, 'bench.db')}`;
const dialect = databaseUrl.startsWith('postgres') ? 'postgres' : 'sqlite';
const env: Record<string, string> = {
  NODE_ENV: 'production',
  DATABASE_URL: databaseUrl,
  BIZAPI_DATA_DIR: path.join(dir, 'data'),
  BIZAPI_MASTER_KEY: '0f'.repeat(32),
  LOG_LEVEL: 'warn',
  BIZAPI_RATE_LIMIT: '0',
  BIZAPI_MAX_EVENT_LOOP_DELAY: '0',
};
const cli = (...args: string[]) =>
  JSON.parse(
    execFileSync(process.execPath, ['dist/cli/main.js', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  ) as Record<string, unknown>;

try {
  const created = cli('business', 'create', '--name', 'Memory bench', '--plan', 'AGENCY');
  const keys = { apiKey: created.apiKey as string, secretKey: created.secretKey as string };
  const port = await freePort();
  const server = await startChild(
    ['dist/cli/main.js', 'serve', '--workers', opts.workers],
    { ...env, HOST: '127.0.0.1', PORT: String(port) },
    port,
    '/readyz',
  );
  const pid = server.process.pid!;
  try {
    const base = server.baseUrl;
    // The GETs read one of these clients (its id: on PostgreSQL ids need not start at 1).
    let clientId = 0;
    for (let i = 0; i < 20; i++) {
      const body = JSON.stringify({ companyName: `Memory ${i}` });
      const res = await fetch(`${base}/v1/client`, { method: 'POST', headers: signedHeaders(keys, body), body });
      clientId ||= ((await res.json()) as { id: number }).id;
    }
    while (childrenOf(pid).length < Number(opts.workers)) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 3000));
    const idle = snapshot(pid);
    const get = (p: string) => ({ method: 'GET' as const, path: p, headers: signedHeaders(keys, '') });
    const result = await autocannon({
      url: base,
      connections: Number(opts.connections),
      amount: Number(opts.requests),
      requests: [get('/v1/client?page_size=20'), get(`/v1/client/${clientId}`), get('/v1/inquiry?page_size=20')],
    });
    const peak = snapshot(pid);
    await new Promise((r) => setTimeout(r, 5000));
    const after = snapshot(pid);
    const report = {
      date: new Date().toISOString(),
      node: process.version,
      dialect,
      workers: Number(opts.workers),
      requests: result.requests.total,
      non2xx: result.non2xx,
      requestsPerSecond: Math.round(result.requests.average),
      p99Ms: result.latency.p99,
      nodeOptions: process.env.NODE_OPTIONS ?? '',
      errors: result.errors,
      rssMiB: { idle, rightAfterLoad: peak, fiveSecondsLater: after },
    };
    mkdirSync(opts.out, { recursive: true });
    writeFileSync(path.join(opts.out, `memory-${dialect}.json`), `${JSON.stringify(report, null, 2)}\n`);
    const row = (name: string, s: { primary: number; workers: number[] }) =>
      `| ${name} | ${s.primary} | ${s.workers.join(' / ')} |`;
    const md = [
      `# Memory (RSS, MiB) — ${dialect}, Node ${process.version}, serve --workers ${opts.workers}`,
      '',
      `${report.date}. ${report.requests} GETs (${result.non2xx} non-2xx, ${result.errors} errors), ${opts.connections} connections, ${report.requestsPerSecond} requests/s, p99 ${report.p99Ms} ms; NODE_OPTIONS=${JSON.stringify(report.nodeOptions)}; \`npm run bench:memory\`.`,
      '',
      '| when | primary | workers |',
      '|---|---|---|',
      row('idle, after start-up', idle),
      row('right after the load', peak),
      row('5 s later', after),
      '',
    ].join('\n');
    writeFileSync(path.join(opts.out, `memory-${dialect}.md`), md);
    process.stdout.write(md);
  } finally {
    await server.stop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
