/**
 * Test doubles for notification delivery: a real SMTP server (`smtp-server`) on 127.0.0.1 with a random
 * port, a local HTTP server as the push webhook, and a dispatcher restricted to the test's businesses (on
 * PostgreSQL every test file shares one database) with a clock the test moves.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { loadConfig } from '../../../src/config.ts';
import {
  createOutboxDispatcher,
  type DispatcherOptions,
  type OutboxDispatcher,
} from '../../../src/jobs/outbox-dispatcher.ts';
import { enqueueEvent, type NotificationEventType } from '../../../src/modules/notification/notification.service.ts';
import { TEST_MASTER_KEY_HEX, type TestApp } from '../../setup/build-test-app.ts';
import { poolEnvOf } from '../../setup/test-workers.ts';
export { until } from '../../setup/helpers.ts';

/** One message the SMTP server accepted. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** A header value of the raw message (first occurrence, unfolded), or undefined. */
  header(name: string): string | undefined;
}

/** A running SMTP server. */
export interface TestSmtp {
  url: string;
  messages: ReceivedMail[];
  /** While true, every connection is refused with `421` (a temporary failure). */
  refusing: boolean;
  /** When set, DATA waits for this promise before answering (a slow server). */
  hold: Promise<void> | undefined;
  /** Resolves when the next DATA command arrives. */
  nextData(): Promise<void>;
  close(): Promise<void>;
}

function headerOf(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const line = unfolded.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

/** Starts an SMTP server that accepts every message (no TLS, no authentication). */
export async function startSmtp(): Promise<TestSmtp> {
  let dataWaiters: (() => void)[] = [];
  const state: TestSmtp = {
    url: '',
    messages: [],
    refusing: false,
    hold: undefined,
    nextData: () => new Promise<void>((resolve) => dataWaiters.push(resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onConnect(_session, callback) {
      if (state.refusing) {
        const err = new Error('Service temporarily unavailable') as Error & { responseCode: number };
        err.responseCode = 421;
        callback(err);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      const waiters = dataWaiters;
      dataWaiters = [];
      for (const w of waiters) w();
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const finish = () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          state.messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            header: (name) => headerOf(raw, name),
          });
          callback();
        };
        if (state.hold) void state.hold.then(finish);
        else finish();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  return state;
}

/** One POST the webhook received. */
export interface ReceivedPush {
  headers: http.IncomingHttpHeaders;
  body: any;
}

/** A running push webhook. */
export interface TestWebhook {
  url: string;
  requests: ReceivedPush[];
  /** Status to answer with (default 204). */
  status: number;
  /** When set and it returns a promise for a push's body, that push is answered only once it resolves (a hanging receiver). */
  hold: ((body: any) => Promise<void> | undefined) | undefined;
  /** Requests received and not answered yet. */
  open: number;
  /** Most requests open at once so far. */
  maxOpen: number;
  close(): Promise<void>;
}

/** Starts an HTTP server recording every request as a push. */
export async function startWebhook(): Promise<TestWebhook> {
  const state: TestWebhook = {
    url: '',
    requests: [],
    status: 204,
    hold: undefined,
    open: 0,
    maxOpen: 0,
    close: async () => undefined,
  };
  const server = http.createServer((req, res) => {
    state.open += 1;
    state.maxOpen = Math.max(state.maxOpen, state.open);
    res.on('close', () => (state.open -= 1));
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
      state.requests.push({ headers: req.headers, body });
      const answer = () => {
        res.statusCode = state.status;
        res.end();
      };
      const held = state.hold?.(body);
      if (held) void held.then(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/push`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

/** A clock the test moves by hand (epoch milliseconds). */
export interface TestClock {
  now: () => number;
  advance(ms: number): void;
}

/** A clock starting at the real current time (create it after the events it must see as due). */
export function testClock(): TestClock {
  let t = Date.now();
  return { now: () => t, advance: (ms) => (t += ms) };
}

/**
 * A dispatcher over the test database for some businesses only, configured from `env` like the server
 * (`SMTP_URL`, `PUSH_WEBHOOK_URL`, `BIZAPI_DATA_DIR`, `BIZAPI_DISPATCHER_*`).
 */
export function testDispatcher(
  t: TestApp,
  businessIds: number[],
  env: Record<string, string>,
  extra: Partial<DispatcherOptions> = {},
): OutboxDispatcher {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    BIZAPI_MASTER_KEY: TEST_MASTER_KEY_HEX,
    ...env,
    DATABASE_URL: t.testDb.url,
    ...poolEnvOf(t.testDb.url),
  });
  return createOutboxDispatcher({ db: t.testDb.db, config, businessIds, ...extra });
}

/** Runs polls until one claims nothing; returns the number of rows claimed in all. */
export async function drain(d: OutboxDispatcher): Promise<number> {
  let total = 0;
  for (;;) {
    const r = await d.runOnce();
    total += r.claimed;
    if (r.claimed === 0) return total;
  }
}

/**
 * Writes `events` for business `b` (each in its own transaction) and delivers them with a dispatcher that
 * writes e-mails as `.eml` files into a throw-away directory; returns the outbox ids.
 */
export async function notify(
  t: TestApp,
  businessId: number,
  events: { type?: NotificationEventType; inquiryId?: number; memberIds: number[] }[],
): Promise<number[]> {
  const ids: number[] = [];
  for (const e of events) {
    ids.push(
      ...(await t.testDb.db.transaction().execute((trx) =>
        enqueueEvent(trx, businessId, {
          type: e.type ?? 'inquiry.created',
          inquiryId: e.inquiryId ?? 1,
          memberIds: e.memberIds,
        }),
      )),
    );
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-notify-'));
  try {
    const d = testDispatcher(t, [businessId], { BIZAPI_DATA_DIR: dir });
    await drain(d);
    await d.stop();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return ids;
}
