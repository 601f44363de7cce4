/**
 * Races that PostgreSQL lets through without row locks (issue 13, item 6), over real HTTP sockets against a
 * listening server, on both databases (SQLite serialises write transactions; PostgreSQL needs the locks):
 * - concurrent `PATCH /v1/todo/{id}` `{"isComplete": true}` / `{"isComplete": false}` on complete todos
 *   never leave `isComplete: true, completedAt: null` (the todo row is locked before it is read);
 * - concurrent `POST /v1/settlement` of one multi-round type on one contract get distinct rounds
 *   1…n and distinct `typeAlias`es (the contract row is locked while the round is counted).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../setup/factories.ts';
import { fetchJson } from '../setup/server-process.ts';
import { DIALECT } from '../setup/test-db.ts';
import { contractFor, settlementBody, settlementBusiness } from '../modules/settlement/settlement-helpers.ts';

const RACERS = 24;

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await buildTestApp({ BIZAPI_RATE_LIMIT: '0' });
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await t?.close();
});

/** One signed request over HTTP (a new connection per request, like separate clients). */
async function http(
  b: TestBusiness,
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const { status, body: answer } = await fetchJson(base, b, method, url, body, { connection: 'close' });
  return { status, body: answer };
}

describe(`races (${DIALECT})`, () => {
  it(`${RACERS} concurrent PATCH isComplete true / false on each of 3 complete todos: isComplete and completedAt always agree`, async () => {
    const b = await newBusiness(t);
    const inquiry = await http(b, 'POST', '/v1/inquiry', { name: 'Racing todos' });
    expect(inquiry.status).toBe(201);
    const todos: number[] = [];
    for (let i = 0; i < 3; i++) {
      const todo = await http(b, 'POST', '/v1/todo', {
        inquiry: { id: inquiry.body.id },
        type: 'CA',
        dueDate: '2026-12-01',
        action: 'Call back',
      });
      expect(todo.status, JSON.stringify(todo.body)).toBe(201);
      expect((await http(b, 'PATCH', `/v1/todo/${todo.body.id}`, { isComplete: true })).status).toBe(200);
      todos.push(todo.body.id);
    }
    for (let round = 0; round < 2; round++) {
      const answers = await Promise.all(
        todos.flatMap((id) =>
          Array.from({ length: RACERS }, (_, n) => http(b, 'PATCH', `/v1/todo/${id}`, { isComplete: n % 2 === 0 })),
        ),
      );
      for (const a of answers) {
        expect(a.status, JSON.stringify(a.body)).toBe(200);
        expect(a.body.completedAt === null, JSON.stringify(a.body)).toBe(!a.body.isComplete);
      }
      for (const id of todos) {
        const todo = await http(b, 'GET', `/v1/todo/${id}`);
        expect(todo.body.completedAt === null, JSON.stringify(todo.body)).toBe(!todo.body.isComplete);
        // Complete again for the next round.
        expect((await http(b, 'PATCH', `/v1/todo/${id}`, { isComplete: true })).status).toBe(200);
      }
    }
  }, 60_000);

  it(`${RACERS} concurrent POST /v1/settlement of one multi-round type on one contract: rounds 1…${RACERS}, each once`, async () => {
    const b = await settlementBusiness(t);
    const contract = await contractFor(t, b);
    const multi = b.ids.settlementTypes.ins!;
    const answers = await Promise.all(
      Array.from({ length: RACERS }, (_, n) =>
        http(b, 'POST', '/v1/settlement', settlementBody(contract.id, multi, { title: `Racer ${n}` })),
      ),
    );
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(201);
    // The create answer is the list shape: the round shows in `typeAlias` ("Interim payment 7").
    const aliases = answers
      .map((a) => a.body.typeAlias as string)
      .sort((x, y) => x.localeCompare(y, 'en', { numeric: true }));
    expect(aliases).toEqual(Array.from({ length: RACERS }, (_, n) => `Interim payment ${n + 1}`));
    const detail = await http(b, 'GET', `/v1/settlement/${answers[0]!.body.id}`);
    expect(detail.body.settlementRound).toBe(Number(/(\d+)$/.exec(answers[0]!.body.typeAlias as string)![1]));
  }, 60_000);
});
