/**
 * `npm run bench:webhooks`: how fast webhooks go from a committed change to a receiver (docs/webhooks.md).
 * Never part of `npm test`.
 *
 * One business (bench/lib/seed.ts), a receiver on loopback in this process (verifies every signature with the
 * `standardwebhooks` package, answers 204, notes when each event arrived), one endpoint for `*` pointing at it
 * (`BIZAPI_WEBHOOK_ALLOW_PRIVATE=true`), and the server as a child process (compiled `dist/cli/main.js`, or
 * `bin/bizapi` under tsx with `--runtime src`). Two phases, each writing `POST /v1/client` (one `client.created`
 * event per write):
 *
 * - **backlog**: the server runs with `BIZAPI_DISPATCHER=off`; `--events` clients are written (`--concurrency`
 *   at a time), so their events and nothing else wait in the outbox; then one `bizapi worker` starts and
 *   drains them. Reported: events/s from the worker's start to the last receipt, events/s between the first
 *   and the last receipt (the worker's start-up left out), and the time from the last commit to the last
 *   receipt.
 * - **live**: a fresh server with the dispatcher in-process; clients are written at a steady `--rate` per
 *   second for `--duration` seconds. Reported: end-to-end latency (receipt time minus the event's `created`,
 *   the time of the change: same machine, same clock) p50 / p99 / max, events/s received, and the API's own
 *   p50 / p99 while it delivers.
 *
 * - **idle**: a fresh server with the dispatcher in-process, idle between writes: `--idle-writes` clients are
 *   written one at a time, each after a random pause of 300–900 ms (so each lands at a random point of the
 *   dispatcher's poll cycle). Reported: write's answer → receipt and event `created` → receipt, p50 / p99 / max
 *   (docs/webhooks.md#live-delivery: the aim is under 100 ms at the median).
 *
 * The phases also count repeats (the same `webhook-id` twice: allowed, at least once), missing events and
 * signatures that did not verify (must be 0). Results: `bench/results/webhooks-<dialect>.md` and `.json`.
 *
 * - **noisy** (`--only noisy`, docs/webhooks.md#fairness-and-limits): the noisy-neighbour scenario, once per
 *   count of `--noisy-businesses` (default 1 and 50): that many businesses with 20 endpoints each on a receiver
 *   that never answers write 3 clients each, while the measured business writes 2 a second; reported: its
 *   commit → receipt latency p50 / p99 / max. Results: `bench/results/webhooks-noisy-<dialect>.md` and `.json`.
 *
 * - **replay** (`--only replay`, docs/webhooks.md#replay; issue 39): `--events` clients are written while the
 *   endpoint is off (nothing is delivered), the endpoint is turned on, and one server with the dispatcher
 *   in-process is asked `POST /v1/webhook/{webhook_id}/replay` from the feed's sequence before the writes (calls
 *   of at most 5,000 events, following `next_after_sequence`). Reported: the replay requests' time, and the
 *   recovery's pace: deliveries/s from the first request to the last receipt, and between the first and the
 *   last receipt.
 *
 * Database: a fresh SQLite file in a temporary directory by default; `DATABASE_URL=postgres://…` uses that
 * PostgreSQL database, which must be a throwaway one (its `public` schema is dropped and rebuilt).
 * Options: `npm run bench:webhooks -- --help`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { loadConfig } from '../src/config.ts';
import { createDb } from '../src/db/create-db.ts';
import { migrateToLatest } from '../src/db/migrator.ts';
import { createApiKey, createBusiness } from '../src/modules/auth/auth.service.ts';
import { encryptSecret } from '../src/modules/auth/secret-box.ts';
import { type Keys, signedHeaders } from './lib/load.ts';
import { seed, type Seeded } from './lib/seed.ts';
import { ROOT, freePort, startChild, type Child } from './lib/server.ts';

const program = new Command()
  .name('bench:webhooks')
  .description('webhook delivery benchmark: a backlog drained by a worker, then a steady write rate')
  .option('--events <n>', 'backlog: changes written before the worker starts', '2000')
  .option('--concurrency <n>', 'backlog: writes in flight at once', '16')
  .option('--rate <n>', 'live: changes per second', '50')
  .option('--duration <seconds>', 'live: seconds of steady writes', '20')
  .option('--drain-timeout <seconds>', 'how long to wait for the last event after the writes', '120')
  .option('--poll-ms <ms>', 'BIZAPI_DISPATCHER_POLL_MS of the server and the worker (unset: the server default)')
  .option('--idle-writes <n>', 'idle: writes, one at a time with a random pause of 300-900 ms', '30')
  .option('--only <phases>', 'comma-separated phases to run: backlog, live, idle, noisy, replay', 'backlog,live,idle')
  .option(
    '--noisy-businesses <list>',
    'noisy: comma-separated counts of businesses whose 20 receivers hang, one run each',
    '1,50',
  )
  .option(
    '--noisy-duration <seconds>',
    'noisy: seconds the measured business writes (2 clients/s) while the others hang',
    '25',
  )
  .option('--receiver-delay-ms <ms>', 'the receiver answers after this many milliseconds (a slow receiver)', '0')
  .option('--out <dir>', 'results directory', path.join(ROOT, 'bench/results'))
  .option(
    '--runtime <which>',
    'dist: the compiled server (node dist/cli/main.js; npm run build first) or src: bin/bizapi under tsx',
    'dist',
  )
  .option(
    '--cpu-prof <dir>',
    'write a V8 CPU profile of each `bizapi worker` into <dir> when it stops (see bench/profile.ts)',
  )
  .parse();
const opts = program.opts<{
  events: string;
  concurrency: string;
  rate: string;
  duration: string;
  drainTimeout: string;
  pollMs?: string;
  only: string;
  receiverDelayMs: string;
  out: string;
  runtime: string;
  noisyBusinesses: string;
  noisyDuration: string;
  idleWrites: string;
  cpuProf?: string;
}>();
if (!['dist', 'src'].includes(opts.runtime)) throw new Error('--runtime: dist or src');
const ENTRY = opts.runtime === 'dist' ? 'dist/cli/main.js' : 'bin/bizapi';
if (opts.runtime === 'dist' && !existsSync(path.join(ROOT, ENTRY)))
  throw new Error('dist/ is missing: run `npm run build` (or pass --runtime src)');
const phases = opts.only.split(',');
const number = (name: string, value: string, min: number): number => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < min) throw new Error(`--${name}: a number ≥ ${min}`);
  return n;
};
const N = number('events', opts.events, 1);
const CONCURRENCY = number('concurrency', opts.concurrency, 1);
const RATE = number('rate', opts.rate, 0.1);
const DURATION = number('duration', opts.duration, 1);
const DRAIN_TIMEOUT_MS = number('drain-timeout', opts.drainTimeout, 1) * 1000;
const RECEIVER_DELAY_MS = number('receiver-delay-ms', opts.receiverDelayMs, 0);
const NOISY_COUNTS = opts.noisyBusinesses.split(',').map((n) => number('noisy-businesses', n, 1));
const NOISY_DURATION = number('noisy-duration', opts.noisyDuration, 1);
const IDLE_WRITES = number('idle-writes', opts.idleWrites, 1);

/** One event as the receiver got it. */
interface Receipt {
  type: string;
  companyName: string | undefined;
  /** Epoch ms: when the event happened (its `created`) and when its first delivery arrived. */
  created: number;
  receivedAt: number;
}

/** The receiver on loopback: verifies, answers 204, records the first receipt of each `webhook-id`. */
class Receiver {
  readonly receipts = new Map<string, Receipt>();
  repeats = 0;
  badSignatures = 0;
  secret = '';
  private server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const receivedAt = Date.now();
      const body = Buffer.concat(chunks).toString('utf8');
      let event: { type: string; created: string; data: { companyName?: string } };
      try {
        event = new Webhook(this.secret).verify(body, req.headers as Record<string, string>) as typeof event;
      } catch {
        this.badSignatures++;
        return void res.writeHead(400).end();
      }
      const id = String(req.headers['webhook-id']);
      if (this.receipts.has(id)) this.repeats++;
      else
        this.receipts.set(id, {
          type: event.type,
          companyName: event.data?.companyName,
          created: Date.parse(event.created),
          receivedAt,
        });
      if (RECEIVER_DELAY_MS > 0) setTimeout(() => res.writeHead(204).end(), RECEIVER_DELAY_MS);
      else res.writeHead(204).end();
    });
  });

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** The receipts of `client.created` events whose company name starts with `prefix`. */
  of(prefix: string): Receipt[] {
    return [...this.receipts.values()].filter((r) => r.type === 'client.created' && r.companyName?.startsWith(prefix));
  }

  /** Waits until `count` receipts of `prefix` arrived, at most `timeoutMs`; answers how many did. */
  async waitFor(prefix: string, count: number, timeoutMs: number): Promise<number> {
    const until = Date.now() + timeoutMs;
    while (this.of(prefix).length < count && Date.now() < until) await sleep(20);
    return this.of(prefix).length;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The value at quantile `q` of ascending `sorted` (nearest rank), rounded to 0.1. */
function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const v = sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
  return Math.round(v * 10) / 10;
}

/** A signed JSON request to the server; answers status, body and the time it took (ms). */
async function call(
  base: string,
  keys: Keys,
  method: string,
  pathname: string,
  body?: unknown,
): Promise<{ status: number; body: unknown; ms: number }> {
  const raw = body === undefined ? '' : JSON.stringify(body);
  const t0 = performance.now();
  const res = await fetch(base + pathname, {
    method,
    headers: signedHeaders(keys, raw),
    ...(raw === '' ? {} : { body: raw }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : (JSON.parse(text) as unknown), ms: performance.now() - t0 };
}

/** Writes one client named `name`. @throws when the server does not answer 201 */
async function writeClient(base: string, keys: Keys, name: string): Promise<number> {
  const r = await call(base, keys, 'POST', '/v1/client', {
    companyName: name,
    inCharge: 'Kim',
    email: 'bench@example.com',
  });
  if (r.status !== 201) throw new Error(`POST /v1/client answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.ms;
}

/**
 * `bizapi worker` as a child process (no port: ready when it runs), stopped with SIGTERM; with `--cpu-prof`,
 * Node writes its CPU profile into that folder as it exits.
 */
function startWorker(env: Record<string, string>): { process: ChildProcess; stop(): Promise<void> } {
  const profile = opts.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(opts.cpuProf)}`] : [];
  const child = spawn(process.execPath, [...profile, ENTRY, 'worker'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  child.once('exit', (code) => {
    if (code !== 0 && code !== null) process.stderr.write(`bizapi worker exited with ${code}:\n${stderr}\n`);
  });
  return {
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
      }),
  };
}

/** The numbers of one phase. */
interface PhaseResult {
  phase: 'backlog' | 'live' | string;
  written: number;
  received: number;
  missing: number;
  repeats: number;
  badSignatures: number;
  [metric: string]: number | string;
}

async function backlog(env: Record<string, string>, keys: Seeded, receiver: Receiver): Promise<PhaseResult> {
  const prefix = `bench-backlog-${Date.now()}-`;
  const port = await freePort();
  const server = await startChild(
    [ENTRY, 'serve'],
    { ...env, BIZAPI_DISPATCHER: 'off', PORT: String(port) },
    port,
    '/healthz',
  );
  let lastCommit = 0;
  try {
    process.stderr.write(`backlog: writing ${N} clients (dispatcher off) …\n`);
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(CONCURRENCY, N) }, async () => {
        while (next < N) await writeClient(server.baseUrl, keys, `${prefix}${next++}`);
      }),
    );
    lastCommit = Date.now();
  } finally {
    await server.stop();
  }
  const repeatsBefore = receiver.repeats;
  const badBefore = receiver.badSignatures;
  process.stderr.write('backlog: starting one worker …\n');
  const started = Date.now();
  const worker = startWorker(env);
  let received: number;
  try {
    received = await receiver.waitFor(prefix, N, DRAIN_TIMEOUT_MS);
  } finally {
    await worker.stop();
  }
  const receipts = receiver.of(prefix).sort((a, b) => a.receivedAt - b.receivedAt);
  const first = receipts[0]?.receivedAt ?? NaN;
  const last = receipts.at(-1)?.receivedAt ?? NaN;
  return {
    phase: 'backlog',
    written: N,
    received,
    missing: N - received,
    repeats: receiver.repeats - repeatsBefore,
    badSignatures: receiver.badSignatures - badBefore,
    'events/s (worker start → last receipt)': Math.round((received / (last - started)) * 1000),
    'events/s (first → last receipt)': received > 1 ? Math.round(((received - 1) / (last - first)) * 1000) : NaN,
    'worker start → first receipt ms': first - started,
    'last commit → last receipt s (incl. worker start)': Math.round((last - lastCommit) / 100) / 10,
  };
}

async function live(env: Record<string, string>, keys: Seeded, receiver: Receiver): Promise<PhaseResult> {
  const prefix = `bench-live-${Date.now()}-`;
  const port = await freePort();
  const server = await startChild([ENTRY, 'serve'], { ...env, PORT: String(port) }, port, '/healthz');
  const total = Math.round(RATE * DURATION);
  const apiMs: number[] = [];
  let failures = 0;
  const repeatsBefore = receiver.repeats;
  const badBefore = receiver.badSignatures;
  let received: number;
  const started = Date.now();
  try {
    process.stderr.write(`live: ${RATE} clients/s for ${DURATION} s (dispatcher in-process) …\n`);
    const writes: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      // A steady schedule: write i is due at started + i / RATE, whatever the previous writes took.
      const due = started + (i * 1000) / RATE;
      const wait = due - Date.now();
      if (wait > 0) await sleep(wait);
      writes.push(
        writeClient(server.baseUrl, keys, `${prefix}${i}`).then(
          (ms) => void apiMs.push(ms),
          (err: unknown) => {
            failures++;
            if (failures <= 3) process.stderr.write(`write failed: ${String(err)}\n`);
          },
        ),
      );
    }
    await Promise.all(writes);
    received = await receiver.waitFor(prefix, total - failures, DRAIN_TIMEOUT_MS);
  } finally {
    await server.stop();
  }
  const receipts = receiver.of(prefix);
  const latency = receipts.map((r) => r.receivedAt - r.created).sort((a, b) => a - b);
  const first = Math.min(...receipts.map((r) => r.receivedAt));
  const last = Math.max(...receipts.map((r) => r.receivedAt));
  apiMs.sort((a, b) => a - b);
  return {
    phase: 'live',
    written: total - failures,
    received,
    missing: total - failures - received,
    repeats: receiver.repeats - repeatsBefore,
    badSignatures: receiver.badSignatures - badBefore,
    'write rate /s': RATE,
    // Keeping up: events/s between the first and the last receipt (equals the write rate when delivery keeps up).
    'events/s received (first → last receipt)':
      received > 1 ? Math.round(((received - 1) / (last - first)) * 1000 * 10) / 10 : NaN,
    'last write → last receipt ms': last - (started + ((total - 1) * 1000) / RATE),
    'latency p50 ms': quantile(latency, 0.5),
    'latency p99 ms': quantile(latency, 0.99),
    'latency max ms': quantile(latency, 1),
    'API p50 ms': quantile(apiMs, 0.5),
    'API p99 ms': quantile(apiMs, 0.99),
    'failed writes': failures,
  };
}

/**
 * **idle** (docs/webhooks.md#live-delivery): `--idle-writes` clients written one at a time to an otherwise idle
 * server, each after a random pause of 300–900 ms; each write waits for its receipt (at most 5 s) before the
 * next pause. Reported: the write's answer → receipt, and the event's `created` → receipt.
 */
async function idle(env: Record<string, string>, keys: Seeded, receiver: Receiver): Promise<PhaseResult> {
  const prefix = `bench-idle-${Date.now()}-`;
  const port = await freePort();
  const server = await startChild([ENTRY, 'serve'], { ...env, PORT: String(port) }, port, '/healthz');
  const repeatsBefore = receiver.repeats;
  const badBefore = receiver.badSignatures;
  const answered = new Map<string, number>();
  try {
    process.stderr.write(`idle: ${IDLE_WRITES} single writes, 300-900 ms apart (dispatcher in-process) …\n`);
    await sleep(1500); // the server's first polls are over
    for (let i = 0; i < IDLE_WRITES; i++) {
      await sleep(300 + Math.random() * 600);
      const name = `${prefix}${i}`;
      await writeClient(server.baseUrl, keys, name);
      answered.set(name, Date.now());
      await receiver.waitFor(prefix, i + 1, 5_000);
    }
  } finally {
    await server.stop();
  }
  const receipts = receiver.of(prefix);
  const fromAnswer = receipts.map((r) => r.receivedAt - answered.get(r.companyName!)!).sort((a, b) => a - b);
  const fromCreated = receipts.map((r) => r.receivedAt - r.created).sort((a, b) => a - b);
  return {
    phase: 'idle',
    written: IDLE_WRITES,
    received: receipts.length,
    missing: IDLE_WRITES - receipts.length,
    repeats: receiver.repeats - repeatsBefore,
    badSignatures: receiver.badSignatures - badBefore,
    'answer → receipt p50 ms': quantile(fromAnswer, 0.5),
    'answer → receipt p99 ms': quantile(fromAnswer, 0.99),
    'answer → receipt max ms': quantile(fromAnswer, 1),
    'created → receipt p50 ms': quantile(fromCreated, 0.5),
    'created → receipt p99 ms': quantile(fromCreated, 0.99),
  };
}

/** A receiver that accepts connections and never answers (holds every socket until closed). */
class HangingReceiver {
  readonly sockets = new Set<net.Socket>();
  peak = 0;
  private server = net.createServer((socket) => {
    this.sockets.add(socket);
    this.peak = Math.max(this.peak, this.sockets.size);
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
    socket.on('close', () => this.sockets.delete(socket));
  });

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hang`;
  }

  close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * **noisy** (docs/webhooks.md#fairness-and-limits): `count` businesses, each with 20 endpoints on a receiver
 * that never answers, write 3 clients each (3 × 20 deliveries per business that can only time out after
 * 10 s); meanwhile the measured business writes 2 clients a second for `--noisy-duration` seconds. Reported:
 * its commit → receipt latency p50 / p99 / max, and how many connections the hanging receiver held at most.
 */
async function noisy(
  count: number,
  env: Record<string, string>,
  databaseUrl: string,
  masterKeyHex: string,
  keys: Seeded,
  receiver: Receiver,
): Promise<PhaseResult> {
  const hanging = new HangingReceiver();
  const hangUrl = await hanging.listen();
  const db = createDb(loadConfig({ DATABASE_URL: databaseUrl }).database);
  const noisyKeys: Keys[] = [];
  try {
    const now = new Date().toISOString();
    for (let i = 0; i < count; i++) {
      const business = await createBusiness(db, { name: `Noisy ${i}`, plan: 'AGENCY', timezone: 'UTC' });
      noisyKeys.push(await createApiKey(db, Buffer.from(masterKeyHex, 'hex'), business.id));
      await db
        .insertInto('webhook_endpoint')
        .values(
          Array.from({ length: 20 }, () => ({
            business_id: business.id,
            url: hangUrl,
            event_types: JSON.stringify(['*']),
            description: 'bench:webhooks noisy',
            is_active: 1 as const,
            format: 'standard',
            secret: encryptSecret(Buffer.from(masterKeyHex, 'hex'), `whsec_${randomBytes(24).toString('base64')}`),
            previous_secret: null,
            previous_secret_expires_at: null,
            last_success_at: null,
            failing_since: null,
            created: now,
            updated: now,
          })),
        )
        .execute();
    }
  } finally {
    await db.destroy();
  }
  const prefix = `bench-noisy-${count}-${Date.now()}-`;
  const port = await freePort();
  const server = await startChild([ENTRY, 'serve'], { ...env, PORT: String(port) }, port, '/healthz');
  const repeatsBefore = receiver.repeats;
  const badBefore = receiver.badSignatures;
  let written = 0;
  let received = 0;
  try {
    process.stderr.write(`noisy: ${count} businesses × 20 hanging endpoints, 3 writes each …
`);
    let next = 0;
    const jobs = noisyKeys.flatMap((k) => [0, 1, 2].map((j) => () => writeClient(server.baseUrl, k, `noisy-${j}`)));
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < jobs.length) await jobs[next++]!();
      }),
    );
    const waitUntil = Date.now() + 15_000;
    while (hanging.sockets.size < count * 20 * 0.95 && Date.now() < waitUntil) await sleep(50);
    process.stderr
      .write(`noisy: ${hanging.sockets.size} connections held; the measured business writes 2/s for ${NOISY_DURATION} s …
`);
    const started = Date.now();
    const total = Math.round(NOISY_DURATION * 2);
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < total; i++) {
      const wait = started + i * 500 - Date.now();
      if (wait > 0) await sleep(wait);
      writes.push(writeClient(server.baseUrl, keys, `${prefix}${i}`).then(() => void written++));
    }
    await Promise.all(writes);
    received = await receiver.waitFor(prefix, written, 30_000);
  } finally {
    await hanging.close();
    await server.stop();
  }
  const latency = receiver
    .of(prefix)
    .map((r) => r.receivedAt - r.created)
    .sort((a, b) => a - b);
  return {
    phase: `noisy: ${count} business${count > 1 ? 'es' : ''} × 20 hanging endpoints`,
    written,
    received,
    missing: written - received,
    repeats: receiver.repeats - repeatsBefore,
    badSignatures: receiver.badSignatures - badBefore,
    'hanging connections held at most': hanging.peak,
    'measured business: latency p50 ms': quantile(latency, 0.5),
    'measured business: latency p99 ms': quantile(latency, 0.99),
    'measured business: latency max ms': quantile(latency, 1),
  };
}

/**
 * The recovery's pace (docs/webhooks.md#replay): `N` clients written while the endpoint `webhookId` is off, then
 * replayed to it by a server with the dispatcher in-process; deliveries/s from the replay request to the last
 * receipt.
 */
async function replay(
  env: Record<string, string>,
  keys: Seeded,
  receiver: Receiver,
  webhookId: number,
): Promise<PhaseResult> {
  const prefix = `bench-replay-${Date.now()}-`;
  const port = await freePort();
  let server = await startChild(
    [ENTRY, 'serve'],
    { ...env, BIZAPI_DISPATCHER: 'off', PORT: String(port) },
    port,
    '/healthz',
  );
  let afterSequence: number;
  try {
    const off = await call(server.baseUrl, keys, 'PATCH', `/v1/webhook/${webhookId}`, { isActive: false });
    if (off.status !== 200) throw new Error(`PATCH /v1/webhook answered ${off.status}`);
    const newest = await call(server.baseUrl, keys, 'GET', '/v1/event?page_size=1');
    afterSequence = (newest.body as { results: { sequence: number }[] }).results[0]?.sequence ?? 0;
    process.stderr.write(`replay: writing ${N} clients (endpoint off) …\n`);
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(CONCURRENCY, N) }, async () => {
        while (next < N) await writeClient(server.baseUrl, keys, `${prefix}${next++}`);
      }),
    );
    const on = await call(server.baseUrl, keys, 'PATCH', `/v1/webhook/${webhookId}`, { isActive: true });
    if (on.status !== 200) throw new Error(`PATCH /v1/webhook answered ${on.status}`);
  } finally {
    await server.stop();
  }
  const repeatsBefore = receiver.repeats;
  const badBefore = receiver.badSignatures;
  server = await startChild([ENTRY, 'serve'], { ...env, PORT: String(port) }, port, '/healthz');
  const requestsMs: number[] = [];
  let queued = 0;
  let started = 0;
  let received: number;
  try {
    process.stderr.write(`replay: POST /v1/webhook/${webhookId}/replay after_sequence=${afterSequence} …\n`);
    started = Date.now();
    for (let after: number | null = afterSequence; after !== null;) {
      const r = await call(server.baseUrl, keys, 'POST', `/v1/webhook/${webhookId}/replay`, { after_sequence: after });
      if (r.status !== 202) throw new Error(`POST …/replay answered ${r.status}: ${JSON.stringify(r.body)}`);
      const body = r.body as { count: number; next_after_sequence: number | null };
      requestsMs.push(Math.round(r.ms));
      queued += body.count;
      after = body.next_after_sequence;
    }
    received = await receiver.waitFor(prefix, N, DRAIN_TIMEOUT_MS);
  } finally {
    await server.stop();
  }
  const receipts = receiver.of(prefix).sort((a, b) => a.receivedAt - b.receivedAt);
  const first = receipts[0]?.receivedAt ?? NaN;
  const last = receipts.at(-1)?.receivedAt ?? NaN;
  return {
    phase: 'replay',
    written: N,
    received,
    missing: N - received,
    repeats: receiver.repeats - repeatsBefore,
    badSignatures: receiver.badSignatures - badBefore,
    'events queued by the replay': queued,
    'replay requests (ms each)': requestsMs.join(', '),
    'deliveries/s (first request → last receipt)': Math.round((received / (last - started)) * 1000),
    'deliveries/s (first → last receipt)': received > 1 ? Math.round(((received - 1) / (last - first)) * 1000) : NaN,
  };
}

function markdown(results: PhaseResult[], meta: Record<string, string>): string {
  const lines = [
    `Run ${meta.date} on ${meta.machine}; ${meta.database}; ${meta.node}; bizapi ${meta.runtime}; dispatcher poll ${meta.pollMs}; receiver delay ${RECEIVER_DELAY_MS} ms.`,
    '',
  ];
  for (const r of results) {
    lines.push(`### ${r.phase}`, '', '| metric | value |', '|---|---:|');
    for (const [k, v] of Object.entries(r)) if (k !== 'phase') lines.push(`| ${k} | ${v} |`);
    lines.push('');
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'bizapi-bench-webhooks-'));
  const masterKeyHex = randomBytes(32).toString('hex');
  const databaseUrl = process.env.DATABASE_URL?.startsWith('postgres')
    ? process.env.DATABASE_URL
    : `sqlite:${path.join(work, 'bench.db')}`;
  const dialect = databaseUrl.startsWith('postgres') ? 'postgres' : 'sqlite';
  const db = createDb(loadConfig({ DATABASE_URL: databaseUrl, BIZAPI_DATA_DIR: work }).database);
  let keys: Seeded;
  try {
    if (dialect === 'postgres') {
      await sql`DROP SCHEMA IF EXISTS public CASCADE`.execute(db);
      await sql`CREATE SCHEMA public`.execute(db);
    }
    await migrateToLatest(db);
    keys = await seed(db, Buffer.from(masterKeyHex, 'hex'), { clients: 0, inquiries: 0, contracts: 0, settlements: 0 });
  } finally {
    await db.destroy();
  }

  const receiver = new Receiver();
  const url = await receiver.listen();
  try {
    await run(work, dialect, databaseUrl, masterKeyHex, keys, receiver, url);
  } finally {
    await receiver.close();
    rmSync(work, { recursive: true, force: true });
  }
}

/** Creates the endpoint, runs the phases and writes the report. */
async function run(
  work: string,
  dialect: string,
  databaseUrl: string,
  masterKeyHex: string,
  keys: Seeded,
  receiver: Receiver,
  url: string,
): Promise<void> {
  const env: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    BIZAPI_MASTER_KEY: masterKeyHex,
    BIZAPI_DATA_DIR: work,
    BIZAPI_RATE_LIMIT: '0',
    BIZAPI_MAX_EVENT_LOOP_DELAY: '0',
    BIZAPI_WEBHOOK_ALLOW_PRIVATE: 'true',
    LOG_LEVEL: 'warn',
    ...(opts.pollMs === undefined ? {} : { BIZAPI_DISPATCHER_POLL_MS: opts.pollMs }),
  };

  // The endpoint, created through the API as an integrator does (docs/webhooks.md#endpoints).
  const port = await freePort();
  let webhookId = 0;
  const setup: Child = await startChild(
    [ENTRY, 'serve'],
    { ...env, BIZAPI_DISPATCHER: 'off', PORT: String(port) },
    port,
    '/healthz',
  );
  try {
    const created = await call(setup.baseUrl, keys, 'POST', '/v1/webhook', {
      url,
      eventTypes: ['*'],
      description: 'bench:webhooks',
    });
    if (created.status !== 201)
      throw new Error(`POST /v1/webhook answered ${created.status}: ${JSON.stringify(created.body)}`);
    receiver.secret = (created.body as { secret: string }).secret;
    webhookId = (created.body as { id: number }).id;
  } finally {
    await setup.stop();
  }

  const results: PhaseResult[] = [];
  if (phases.includes('backlog')) results.push(await backlog(env, keys, receiver));
  if (phases.includes('live')) results.push(await live(env, keys, receiver));
  if (phases.includes('idle')) results.push(await idle(env, keys, receiver));
  if (phases.includes('replay')) results.push(await replay(env, keys, receiver, webhookId));
  const noisyResults: PhaseResult[] = [];
  if (phases.includes('noisy'))
    for (const count of NOISY_COUNTS)
      noisyResults.push(await noisy(count, env, databaseUrl, masterKeyHex, keys, receiver));

  const cpu = os.cpus();
  const meta = {
    date: new Date().toISOString(),
    machine: `${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    database: dialect === 'postgres' ? 'PostgreSQL' : 'SQLite (WAL, synchronous=FULL)',
    node: `Node ${process.version}`,
    runtime: opts.runtime === 'dist' ? 'compiled (node dist/cli/main.js)' : 'from source (tsx)',
    pollMs: opts.pollMs === undefined ? 'default' : `${opts.pollMs} ms`,
  };
  mkdirSync(opts.out, { recursive: true });
  if (results.length > 0) {
    const table = markdown(results, meta);
    writeFileSync(path.join(opts.out, `webhooks-${dialect}.md`), table);
    writeFileSync(
      path.join(opts.out, `webhooks-${dialect}.json`),
      JSON.stringify({ meta, options: opts, results }, null, 2) + '\n',
    );
    process.stdout.write(table);
  }
  if (noisyResults.length > 0) {
    // the noisy-neighbour scenario has its own files (it runs with the server's default dispatcher settings)
    const table = markdown(noisyResults, meta);
    writeFileSync(path.join(opts.out, `webhooks-noisy-${dialect}.md`), table);
    writeFileSync(
      path.join(opts.out, `webhooks-noisy-${dialect}.json`),
      JSON.stringify({ meta, options: opts, results: noisyResults }, null, 2) + '\n',
    );
    process.stdout.write(table);
  }
  const broken = [...results, ...noisyResults].filter((r) => r.missing > 0 || r.badSignatures > 0);
  if (broken.length > 0) {
    process.stderr.write(`events missing or signatures not verifying in: ${broken.map((r) => r.phase).join(', ')}\n`);
    process.exitCode = 1;
  }
}

await main();
