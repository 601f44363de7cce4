/**
 * `npm run bench:import`: how fast `bizapi import --from` moves a business (docs/deployment.md#11-moving-a-business-in-and-out).
 * Never part of `npm test`.
 *
 * A source: a fresh SQLite database seeded in bulk (bench/lib/seed.ts: `--clients`, `--inquiries`,
 * `--contracts`) plus one text note per inquiry, served by `bizapi serve` with its rate limit off. The import
 * runs as its own process (`node bin/bizapi import --rate 0`, under `/usr/bin/time` for its peak memory) into
 * a fresh target: a SQLite file, or the PostgreSQL database of `DATABASE_URL` (which must be a throwaway one:
 * its `public` schema is dropped and rebuilt). Reported: wall time, records per second (records and notes
 * written), requests made to the source (its API call log is not needed: read + files), peak RSS.
 * Results: `bench/results/import-<dialect>.md` and `.json`.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { sql } from 'kysely';
import { createDb } from '../src/db/create-db.ts';
import { migrateToLatest } from '../src/db/migrator.ts';
import { createTextHistory } from '../src/modules/inquiry/inquiry-history.service.ts';
import { seed } from './lib/seed.ts';
import { ROOT, freePort, startChild } from './lib/server.ts';

const opts = new Command()
  .name('bench:import')
  .option('--clients <n>', 'clients on the source', '10000')
  .option('--inquiries <n>', 'inquiries on the source (one text note each)', '5000')
  .option('--contracts <n>', 'contracts on the source', '2000')
  .option('--out <dir>', 'results directory', path.join(ROOT, 'bench/results'))
  .parse()
  .opts<{ clients: string; inquiries: string; contracts: string; out: string }>();

const work = mkdtempSync(path.join(os.tmpdir(), 'bizapi-bench-import-'));
const masterKeyHex = randomBytes(32).toString('hex');
const sourceUrl = `sqlite:${path.join(work, 'source.db')}`;
const pgUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
const dialect = pgUrl ? 'postgres' : 'sqlite';
const targetUrl = pgUrl ?? `sqlite:${path.join(work, 'target.db')}`;

const counts = { clients: Number(opts.clients), inquiries: Number(opts.inquiries), contracts: Number(opts.contracts), settlements: 0 };
process.stderr.write(`seeding ${JSON.stringify(counts)}…\n`);
const sourceDb = createDb({ dialect: 'sqlite', path: path.join(work, 'source.db') });
await migrateToLatest(sourceDb);
const seeded = await seed(sourceDb, Buffer.from(masterKeyHex, 'hex'), counts);
for (const id of seeded.inquiryIds) {
  await createTextHistory(sourceDb, { businessId: seeded.businessId }, id, { content: `Note on inquiry ${id}` });
}
await sourceDb.destroy();

if (pgUrl) {
  const db = createDb({ dialect: 'postgres', url: pgUrl });
  await sql`drop schema public cascade`.execute(db);
  await sql`create schema public`.execute(db);
  await db.destroy();
}

const port = await freePort();
const env = { BIZAPI_MASTER_KEY: masterKeyHex, BIZAPI_RATE_LIMIT: '0', BIZAPI_DISPATCHER: 'off', LOG_LEVEL: 'warn', BIZAPI_MAX_EVENT_LOOP_DELAY: '0' };
const source = await startChild(['bin/bizapi', 'serve'], { ...env, DATABASE_URL: sourceUrl, BIZAPI_DATA_DIR: work, PORT: String(port), HOST: '127.0.0.1' }, port, '/healthz');
try {
  const started = Date.now();
  const child = spawn('/usr/bin/time', ['-f', 'maxrss_kb=%M', process.execPath, 'bin/bizapi', 'import', '--from', source.baseUrl, '--api-key', seeded.apiKey, '--secret-key', seeded.secretKey, '--rate', '0'], {
    cwd: ROOT,
    env: { ...process.env, ...env, DATABASE_URL: targetUrl, BIZAPI_DATA_DIR: path.join(work, 'target') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const seconds = (Date.now() - started) / 1000;
  if (code !== 0) throw new Error(`import exited with ${code}:\n${stderr}`);
  const answer = JSON.parse(stdout) as { counts: Record<string, { read: number; created: number }> };
  const written = Object.values(answer.counts).reduce((n, c) => n + c.created, 0);
  const peakKb = Number(/maxrss_kb=(\d+)/.exec(stderr)?.[1] ?? 0);
  const result = {
    dialect,
    source: counts,
    notes: seeded.inquiryIds.length,
    seconds: Number(seconds.toFixed(1)),
    recordsWritten: written,
    recordsPerSecond: Math.round(written / seconds),
    peakRssMiB: Math.round(peakKb / 1024),
    counts: answer.counts,
    cpus: os.cpus().length,
    date: new Date().toISOString(),
  };
  const md = [
    `# bench:import (${dialect})`,
    '',
    `Source: ${counts.clients} clients, ${counts.inquiries} inquiries with one text note each, ${counts.contracts} contracts (bench/lib/seed.ts), served by \`bizapi serve\` on SQLite, rate limit off; \`bizapi import --rate 0\` into a fresh ${dialect} target; ${os.cpus().length} CPUs shared.`,
    '',
    '| records written | seconds | records/s | peak RSS (MiB) |',
    '|---|---|---|---|',
    `| ${written} | ${result.seconds} | ${result.recordsPerSecond} | ${result.peakRssMiB} |`,
    '',
  ].join('\n');
  writeFileSync(path.join(opts.out, `import-${dialect}.json`), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(path.join(opts.out, `import-${dialect}.md`), md);
  process.stdout.write(`${md}\n`);
} finally {
  await source.stop();
  rmSync(work, { recursive: true, force: true });
}
