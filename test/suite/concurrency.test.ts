/**
 * Concurrency (issue 8): fifty requests at once over real HTTP sockets against a listening server, the way
 * many clients of one business race in production. The rules hold by a transaction and a unique constraint,
 * not by a read-then-write:
 * - 50 contract creates linking one inquiry → exactly one 201, the others 400 on `inquiry.id`, and both
 *   sides of the link agree (spec: Contract, the 1:1 inquiry link);
 * - 50 creates of a single-round settlement type on one contract → exactly one 201, the others 400 on
 *   `type.id` (spec: Settlement create, "only once per contract");
 * - 50 status PATCHes of one inquiry → every applied change writes exactly one status-history row whose
 *   `previousStatus` is the status it really replaced: the rows form one unbroken chain ending at the
 *   inquiry's status, none lost, none duplicated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../setup/factories.ts';
import { fetchJson } from '../setup/server-process.ts';
import { DIALECT } from '../setup/test-db.ts';
import { contractFor, settlementBody, settlementBusiness } from '../modules/settlement/settlement-helpers.ts';

const RACERS = 50;

let t: TestApp;
let base: string;
beforeAll(async () => {
  // the rate limit is per key, and fifty requests of one key in a burst are what this test is about
  t = await buildTestApp({ BIZAPI_RATE_LIMIT: '0' });
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await t?.close();
});

interface Answer {
  status: number;
  body: any;
}

/** One signed request over HTTP (a new connection per request, like separate clients). */
async function http(b: TestBusiness, method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown): Promise<Answer> {
  const { status, body: answer } = await fetchJson(base, b, method, url, body, { connection: 'close' });
  return { status, body: answer };
}

/** Fires `RACERS` requests at once and waits for every answer. */
function race(make: (n: number) => Promise<Answer>): Promise<Answer[]> {
  return Promise.all(Array.from({ length: RACERS }, (_, n) => make(n)));
}

describe(`${RACERS} concurrent requests over HTTP (${DIALECT})`, () => {
  it(`${RACERS} POST /v1/contract linking one inquiry: exactly one 201, the rest 400 on inquiry.id`, async () => {
    const b = await newBusiness(t);
    const inquiry = await http(b, 'POST', '/v1/inquiry', { name: 'Contested lead' });
    expect(inquiry.status).toBe(201);
    const answers = await race((n) =>
      http(b, 'POST', '/v1/contract', { title: `Racer ${n}`, amount: n, type: 'G', inquiry: { id: inquiry.body.id } }),
    );

    const won = answers.filter((a) => a.status === 201);
    expect(won).toHaveLength(1);
    const lost = answers.filter((a) => a.status !== 201);
    expect(lost).toHaveLength(RACERS - 1);
    for (const a of lost) {
      expect(a.status).toBe(400);
      expect(a.body.inquiry).toEqual({ id: ['This inquiry is already linked to another contract.'] });
    }
    // Nothing else was written, and both sides agree.
    const contracts = await http(b, 'GET', '/v1/contract?page_size=100');
    expect(contracts.body.results.map((c: { id: number }) => c.id)).toEqual([won[0]!.body.id]);
    expect((await http(b, 'GET', `/v1/inquiry/${inquiry.body.id}`)).body.contract).toMatchObject({
      id: won[0]!.body.id,
    });
    expect((await http(b, 'GET', `/v1/contract/${won[0]!.body.id}`)).body.inquiry).toMatchObject({
      id: inquiry.body.id,
    });
  }, 60_000);

  it(`${RACERS} POST /v1/settlement of a single-round type on one contract: exactly one 201, the rest 400 on type.id`, async () => {
    const b = await settlementBusiness(t);
    const contract = await contractFor(t, b);
    const single = b.ids.settlementTypes.ini!;
    const answers = await race((n) =>
      http(b, 'POST', '/v1/settlement', settlementBody(contract.id, single, { title: `Racer ${n}` })),
    );

    const won = answers.filter((a) => a.status === 201);
    expect(won).toHaveLength(1);
    const lost = answers.filter((a) => a.status !== 201);
    expect(lost).toHaveLength(RACERS - 1);
    for (const a of lost) {
      expect(a.status).toBe(400);
      expect(Object.keys(a.body).filter((k) => k !== 'requestId')).toEqual(['type']);
      expect(a.body.type.id[0]).toMatch(/already exists for this contract/);
    }
    const list = await http(b, 'GET', `/v1/settlement?contract_id=${contract.id}&page_size=100`);
    expect(list.body.results.map((s: { id: number }) => s.id)).toEqual([won[0]!.body.id]);
  }, 60_000);

  it(`${RACERS} PATCH /v1/inquiry/{id} status changes: one history row per applied change, an unbroken chain`, async () => {
    const b = await newBusiness(t);
    const { new: initial, won, lost } = b.ids.statuses as Record<string, number>;
    const inquiry = await http(b, 'POST', '/v1/inquiry', { name: 'Busy lead' });
    expect(inquiry.status).toBe(201);
    const targets = [won!, lost!, initial!];
    const answers = await race((n) =>
      http(b, 'PATCH', `/v1/inquiry/${inquiry.body.id}`, { status: { id: targets[n % 3] } }),
    );
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(200);

    const rows: { status: { id: number }; previousStatus: { id: number } | null }[] = [];
    for (let url: string | null = `/v1/inquiry/${inquiry.body.id}/status_history?page_size=100`; url !== null;) {
      const page = await http(b, 'GET', url);
      expect(page.status).toBe(200);
      rows.push(...page.body.results);
      url = page.body.next === null ? null : page.body.next.replace(/^https?:\/\/[^/]+/, '');
    }
    const chain = rows.reverse(); // oldest first
    // The create's row, then each applied change, each replacing exactly the status before it.
    expect(chain[0]).toMatchObject({ status: { id: initial }, previousStatus: null });
    for (let i = 1; i < chain.length; i++) {
      expect(chain[i]!.previousStatus?.id, `row ${i} replaces the status row ${i - 1} set`).toBe(
        chain[i - 1]!.status.id,
      );
      expect(chain[i]!.status.id).not.toBe(chain[i]!.previousStatus?.id);
    }
    // At most one row per PATCH; at least one change applied; the chain ends at the inquiry's status.
    expect(chain.length - 1).toBeGreaterThan(0);
    expect(chain.length - 1).toBeLessThanOrEqual(RACERS);
    const final = await http(b, 'GET', `/v1/inquiry/${inquiry.body.id}`);
    expect(final.body.status.id).toBe(chain.at(-1)!.status.id);
  }, 60_000);
});
