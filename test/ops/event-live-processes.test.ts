/**
 * Following the feed live across real `bin/bizapi serve` processes (docs/api.md#following-the-feed-live):
 * a long-poll held by one process wakes for a write answered by another (PostgreSQL: the write's `NOTIFY`,
 * sent because the waiter's process keeps a follower row; SQLite: `PRAGMA data_version` on the one file),
 * and a shutdown (SIGTERM) answers every waiter at once with the empty page before the process exits.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../setup/factories.ts';
import { openEventStream } from '../setup/event-stream.ts';
import { type BizapiProcess, type Outcome, request, startServer } from '../setup/server-process.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let t: TestApp;
let dataDir: string;
let servers: BizapiProcess[] = [];
beforeAll(async () => {
  t = await buildTestApp();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-event-live-'));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const agent = new http.Agent({ keepAlive: true });

/** The JSON answer of an outcome, or throws with what came back. */
function json(o: Outcome): { status: number; body: any } {
  if (!('status' in o)) throw new Error(o.error);
  return { status: o.status, body: o.body ? JSON.parse(o.body) : null };
}

async function lastSequence(port: number, b: TestBusiness): Promise<number> {
  const res = json(await request(port, b, 'GET', '/v1/event?page_size=1', undefined, agent));
  expect(res.status).toBe(200);
  return res.body.results[0]?.sequence ?? 0;
}

describe('long-poll across processes', () => {
  it('a waiter on one process answers with the event of a write answered by another', async () => {
    servers = await Promise.all([0, 1].map(() => startServer({ databaseUrl: t.testDb.url, dataDir })));
    const [a, w] = servers.map((s) => s.port) as [number, number];
    const b = await newBusiness(t);
    // a business nobody follows yet: its writes send no NOTIFY until the waiter's process follows it
    let after = await lastSequence(a, b);
    for (let round = 0; round < 3; round++) {
      let answeredAt = 0;
      const waiting = request(
        a,
        b,
        'GET',
        `/v1/event?after_sequence=${after}&wait=30&type=client.*`,
        undefined,
        agent,
      ).then((o) => {
        answeredAt = Date.now();
        return json(o);
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(answeredAt).toBe(0);
      const created = json(await request(w, b, 'POST', '/v1/client', { companyName: `Round ${round}` }, agent));
      expect(created.status).toBe(201);
      const writtenAt = Date.now();
      const res = await waiting;
      expect(res.status).toBe(200);
      expect(res.body.results.map((e: any) => [e.type, e.data.id])).toEqual([['client.created', created.body.id]]);
      // woken by the write, not by the 30 s bound nor the 5 s sweep
      expect(answeredAt - writtenAt).toBeLessThan(1_500);
      after = res.body.results[0].sequence;
    }
  });

  it('a stream on one process sends the events of writes answered by another', async () => {
    const [a, w] = servers.map((s) => s.port) as [number, number];
    const b = await newBusiness(t);
    const s = openEventStream(a, b, '/v1/event/stream');
    expect((await s.response).statusCode).toBe(200);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const created = json(await request(w, b, 'POST', '/v1/client', { companyName: `Streamed ${i}` }, agent));
      ids.push(created.body.id);
      const writtenAt = Date.now();
      await s.waitFor(i + 1);
      expect(Date.now() - writtenAt).toBeLessThan(1_500);
    }
    expect(s.messages.map((m) => [m.event, m.data.data.id])).toEqual(ids.map((id) => ['client.created', id]));
    s.close();
  });

  it('SIGTERM answers every waiter at once with the empty page and ends every stream, then the process exits', async () => {
    const [a] = servers;
    const b = await newBusiness(t);
    const waiters = [0, 1, 2].map(() =>
      request(a!.port, b, 'GET', '/v1/event?after_sequence=0&wait=60', undefined, new http.Agent({ keepAlive: true })),
    );
    const stream = openEventStream(a!.port, b, '/v1/event/stream');
    expect((await stream.response).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const stoppedAt = Date.now();
    const exited = a!.stop('SIGTERM');
    for (const o of await Promise.all(waiters)) {
      const res = json(o);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ next: null, previous: null, results: [] });
    }
    // the stream's response ends (a clean end, not a reset)
    expect(await stream.ended).toBe(true);
    expect(await exited).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(20_000);
    servers = servers.slice(1);
  });
});
