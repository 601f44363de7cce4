/**
 * The feed's order under concurrency (docs/api.md#events): real `bin/bizapi serve` processes
 * on one database, many concurrent writers, and a consumer that follows `GET /v1/event?after_sequence=N`
 * the way an integrator would (storing the last sequence it processed). It must see every committed event
 * exactly once and never a sequence lower than one it has already seen, with the sequences assigned by the
 * list calls of either process (no dispatcher runs in these children).
 *
 * PostgreSQL: two processes, 20 writers, 10 s. SQLite (one writer at a time by design): two processes,
 * 6 writers, 3 s.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../setup/factories.ts';
import { type BizapiProcess, request, startServer } from '../setup/server-process.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let t: TestApp;
let dataDir: string;
beforeAll(async () => {
  t = await buildTestApp();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-event-sequence-'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const postgres = () => t.testDb.db.getExecutor().adapter.constructor.name.startsWith('Postgres');

/** A JSON answer, or throws with what came back. */
async function json(
  port: number,
  b: TestBusiness,
  method: string,
  url: string,
  agent: http.Agent,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const o = await request(port, b, method, url, body, agent);
  if (!('status' in o)) throw new Error(`${method} ${url}: ${o.error}`);
  return { status: o.status, body: o.body ? JSON.parse(o.body) : null };
}

describe('after_sequence under concurrent writers in several processes', () => {
  it('the consumer sees every committed event exactly once, in increasing sequence', async () => {
    const pg = postgres();
    const settings = pg ? { writers: 20, seconds: 10 } : { writers: 6, seconds: 3 };
    const env = { BIZAPI_RATE_LIMIT: '1000000000' };
    const servers: BizapiProcess[] = await Promise.all(
      [0, 1].map(() => startServer({ databaseUrl: t.testDb.url, dataDir, env })),
    );
    const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    try {
      const ports = servers.map((s) => s.port);
      const b = await newBusiness(t);
      const deadline = Date.now() + settings.seconds * 1000;
      let writesOk = 0;
      let writesFailed = 0;

      const writer = async (w: number) => {
        const port = ports[w % ports.length]!;
        const created = await json(port, b, 'POST', '/v1/client', agent, { companyName: `Writer ${w}` });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        writesOk++;
        for (let i = 0; Date.now() < deadline; i++) {
          const res = await json(ports[(w + i) % ports.length]!, b, 'PATCH', `/v1/client/${created.body.id}`, agent, {
            email: `w${w}-${i}@example.com`,
          });
          if (res.status === 200) writesOk++;
          else writesFailed++;
        }
      };

      const seen = new Map<number, number>(); // event id → sequence
      let last = 0;
      let regressions = 0;
      let duplicates = 0;
      let reads = 0;
      /** One page after `last`; returns how many events it had. */
      const readPage = async () => {
        const res = await json(
          ports[reads++ % ports.length]!,
          b,
          'GET',
          `/v1/event?after_sequence=${last}&page_size=100`,
          agent,
        );
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        for (const e of res.body.results as { id: number; sequence: number }[]) {
          if (e.sequence <= last) regressions++;
          if (seen.has(e.id)) duplicates++;
          seen.set(e.id, e.sequence);
          last = Math.max(last, e.sequence);
        }
        return res.body.results.length as number;
      };
      let writing = true;
      const consumer = async () => {
        while (writing) await readPage();
      };

      const consuming = consumer();
      await Promise.all(Array.from({ length: settings.writers }, (_, w) => writer(w)));
      writing = false;
      await consuming;
      // drain what committed last
      while ((await readPage()) > 0);

      expect(regressions).toBe(0);
      expect(duplicates).toBe(0);
      expect(writesOk).toBeGreaterThan(settings.writers * 5);
      // every committed event of the business, read from the database: each seen once, with its sequence
      const rows = await t.testDb.db
        .selectFrom('event')
        .select(['id', 'sequence'])
        .where('business_id', '=', b.businessId)
        .orderBy('id')
        .execute();
      expect(rows.length).toBe(writesOk);
      expect(rows.every((r) => r.sequence !== null)).toBe(true);
      expect([...seen.entries()].sort((x, y) => x[0] - y[0])).toEqual(rows.map((r) => [r.id, Number(r.sequence)]));
      console.info(
        `event feed under concurrency (${pg ? 'postgres' : 'sqlite'}): ${writesOk} events from ${settings.writers} writers in ${settings.seconds} s (${writesFailed} writes refused), ${reads} consumer pages`,
      );
    } finally {
      agent.destroy();
      await Promise.all(servers.map((s) => s.stop()));
    }
  });
});
