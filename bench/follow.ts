/**
 * Issue 39's live-feed targets (bench/README.md#issue-39): commit → consumer latency of the long-poll
 * (`GET /v1/event?after_sequence=N&wait=30`) and of the stream (`GET /v1/event/stream`), and what 10,000 idle
 * long-polls cost one process (memory per waiter, a GET's p99 beside them).
 *
 * 1. Latency: two `bin/bizapi serve` processes on one database (A holds the followers, B takes half the
 *    writes). `--writes` `POST /v1/client` spaced `--gap-ms` apart, alternately to A (same process) and B (other
 *    process); a long-poll loop and a stream follow the business on A. Each event's latency is its arrival at
 *    the follower minus the moment the write's answer arrived at the writer (the commit is before the answer,
 *    so this is at most the commit → consumer latency, and can be slightly negative).
 * 2. Idle waiters: `--waiters` long-polls (`wait=60`) on A spread over `--businesses` businesses (the
 *    per-business limit raised), then A's RSS growth per waiter, and `--gets` sequential `GET /v1/client/{id}`
 *    on A with and without them (p50/p99).
 *
 * Run: `npx tsx bench/follow.ts` (SQLite in a temporary directory) or with `DATABASE_URL=postgres://…` (its
 * `public` schema is emptied by the migrations' test setup: use a throwaway database). Never part of
 * `npm test`; under the load lock (`flock /work/notes/load.lock`). Needs `ulimit -n` above twice `--waiters`
 * in total (each side holds one socket per waiter).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import { createDb } from '../src/db/create-db.ts';
import { migrateToLatest } from '../src/db/migrator.ts';
import { signBody } from '../src/modules/auth/hmac.ts';
import { newBusiness, type TestBusiness } from '../test/setup/factories.ts';
import { openEventStream } from '../test/setup/event-stream.ts';
import { freePort, rssOf, startChild } from './lib/server.ts';

const opts = new Command()
  .option('--writes <n>', 'writes in the latency run', '200')
  .option('--gap-ms <n>', 'milliseconds between writes', '40')
  .option('--waiters <n>', 'idle long-polls', '10000')
  .option('--businesses <n>', 'businesses the idle long-polls are spread over', '100')
  .option('--gets <n>', 'sequential GETs measured beside them', '500')
  .parse()
  .opts<{ writes: string; gapMs: string; waiters: string; businesses: string; gets: string }>();

const MASTER_KEY = '0f'.repeat(32);

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
}

const fmt = (xs: number[]) =>
  `p50 ${quantile(xs, 0.5).toFixed(1)} ms, p99 ${quantile(xs, 0.99).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms (n=${xs.length})`;

/** One signed request; resolves with status and body text. */
function send(
  port: number,
  b: TestBusiness,
  method: string,
  url: string,
  agent: http.Agent,
  body?: unknown,
): Promise<{ status: number; body: string }> {
  const payload = body === undefined ? '' : JSON.stringify(body);
  const headers: Record<string, string> = { 'x-api-key': b.apiKey, 'x-signature': signBody(b.secretKey, payload) };
  if (payload) headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: url, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bizapi-bench-follow-'));
  const databaseUrl = process.env.DATABASE_URL ?? `sqlite:${path.join(dir, 'bench.db')}`;
  const dialect = databaseUrl.startsWith('postgres') ? 'PostgreSQL' : 'SQLite';
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    BIZAPI_MASTER_KEY: MASTER_KEY,
    BIZAPI_DATA_DIR: dir,
    LOG_LEVEL: 'silent',
  });
  const db = createDb(config.database);
  if (dialect === 'PostgreSQL')
    await sql`drop schema public cascade; create schema public`.execute(db).catch(() => undefined);
  await migrateToLatest(db);
  const ctx = { testDb: { db }, masterKey: config.masterKey! };
  const b = await newBusiness(ctx);
  const others: TestBusiness[] = [];
  for (let i = 0; i < Number(opts.businesses); i++) others.push(await newBusiness(ctx));
  await db.destroy();

  const env = {
    DATABASE_URL: databaseUrl,
    BIZAPI_MASTER_KEY: MASTER_KEY,
    BIZAPI_DATA_DIR: dir,
    LOG_LEVEL: 'warn',
    BIZAPI_DISPATCHER: 'off',
    BIZAPI_RATE_LIMIT: '0',
    BIZAPI_MAX_EVENT_LOOP_DELAY: '0',
    BIZAPI_EVENT_FOLLOWERS_MAX_PER_BUSINESS: '100000',
  };
  const [portA, portB] = [await freePort(), await freePort()];
  const a = await startChild(['bin/bizapi', 'serve'], { ...env, PORT: String(portA) }, portA, '/healthz');
  const w = await startChild(['bin/bizapi', 'serve'], { ...env, PORT: String(portB) }, portB, '/healthz');
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const lines: string[] = [
    `${dialect}, ${new Date().toISOString()}, load: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  ];
  try {
    // 1. latency
    const arrivals = { poll: new Map<number, number>(), stream: new Map<number, number>() };
    let last = 0;
    let polling = true;
    const pollLoop = (async () => {
      while (polling) {
        const res = await send(portA, b, 'GET', `/v1/event?after_sequence=${last}&wait=30&page_size=100`, agent);
        const now = performance.now();
        for (const e of (JSON.parse(res.body) as { results: { sequence: number; data: { id: number } }[] }).results) {
          arrivals.poll.set(e.data.id, now);
          last = e.sequence;
        }
      }
    })();
    const stream = openEventStream(portA, b, '/v1/event/stream');
    await stream.response;
    let seen = 0;
    const streamTimer = setInterval(() => {
      for (; seen < stream.messages.length; seen++)
        arrivals.stream.set(stream.messages[seen]!.data.data.id, performance.now());
    }, 1);
    await new Promise((r) => setTimeout(r, 500));
    const answered = new Map<number, { at: number; sameProcess: boolean }>();
    for (let i = 0; i < Number(opts.writes); i++) {
      const sameProcess = i % 2 === 0;
      const res = await send(sameProcess ? portA : portB, b, 'POST', '/v1/client', agent, {
        companyName: `Follow ${i}`,
      });
      answered.set((JSON.parse(res.body) as { id: number }).id, { at: performance.now(), sameProcess });
      await new Promise((r) => setTimeout(r, Number(opts.gapMs)));
    }
    await new Promise((r) => setTimeout(r, 1000));
    clearInterval(streamTimer);
    for (const [kind, map] of Object.entries(arrivals)) {
      for (const same of [true, false]) {
        const lat = [...answered]
          .filter(([, v]) => v.sameProcess === same)
          .map(([id, v]) => (map.get(id) ?? Infinity) - v.at);
        const missing = lat.filter((x) => x === Infinity).length;
        lines.push(
          `${kind === 'poll' ? 'long-poll' : 'stream'}, writes ${same ? 'on the same process' : 'on another process'}: ${fmt(lat.filter((x) => x !== Infinity))}${missing ? `, ${missing} never arrived` : ''}`,
        );
      }
    }
    polling = false;
    await send(portA, b, 'POST', '/v1/client', agent, { companyName: 'Stop' });
    await pollLoop;
    stream.close();

    // 2. idle waiters
    const getOne = async () => {
      const xs: number[] = [];
      for (let i = 0; i < Number(opts.gets); i++) {
        const t0 = performance.now();
        const res = await send(portA, b, 'GET', `/v1/client/${[...answered.keys()][i % answered.size]}`, agent);
        if (res.status !== 200) throw new Error(`GET answered ${res.status}`);
        xs.push(performance.now() - t0);
      }
      return xs;
    };
    const before = await getOne();
    await new Promise((r) => setTimeout(r, 500));
    const rssBefore = rssOf(a.process.pid!);
    const waiters = Number(opts.waiters);
    const idleAgent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
    const held: Promise<unknown>[] = [];
    const t0 = performance.now();
    for (let i = 0; i < waiters; i++) {
      const o = others[i % others.length]!;
      held.push(send(portA, o, 'GET', `/v1/event?after_sequence=0&wait=60`, idleAgent).catch((err: Error) => err));
      if (i % 500 === 499) await new Promise((r) => setTimeout(r, 50));
    }
    // every waiter registered: a long-poll answers at once with `wait=0`, so one more request behind them all
    // is answered only once the server has read every request before it
    await new Promise((r) => setTimeout(r, Number(process.env.FOLLOW_SETTLE_MS ?? 3000)));
    const opened = performance.now() - t0;
    const rssAfter = rssOf(a.process.pid!);
    const beside = await getOne();
    lines.push(
      `${waiters} idle long-polls over ${others.length} businesses opened in ${(opened / 1000).toFixed(1)} s: RSS ${(rssBefore / 2 ** 20).toFixed(0)} → ${(rssAfter / 2 ** 20).toFixed(0)} MiB, ${((rssAfter - rssBefore) / waiters / 1024).toFixed(1)} KiB per waiter`,
    );
    lines.push(`GET /v1/client/{id}, sequential: alone ${fmt(before)}; beside the waiters ${fmt(beside)}`);
    await a.stop();
    const ends = await Promise.all(held);
    const outcomes = new Map<string, number>();
    for (const e of ends) {
      const k =
        e instanceof Error
          ? ((e as NodeJS.ErrnoException).code ?? e.message)
          : String((e as { status: number }).status);
      outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
    }
    lines.push(`shutdown with the waiters held: ${[...outcomes].map(([k, n]) => `${n} × ${k}`).join(', ')}`);
  } finally {
    await a.stop();
    await w.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(lines.join('\n'));
}

await main();
