/**
 * The lean write path's statement budgets (issue 27, docs/api.md#events) for settlements and their notes,
 * contract notes, projects, workers, todos, estimate items, inquiry text history and webhook endpoints: a
 * create, a one-property PATCH, a no-op PATCH and a DELETE of each, through the real HTTP interface, each
 * run within a tight budget of SQL statements (transaction control and the authentication lookup included,
 * the call log left out: test/setup/statement-count.ts). The budgets are the counts reached, the same on
 * both databases (SQLite's `begin immediate` is PostgreSQL's `begin`; the `FOR UPDATE` read is the read of
 * the record's current shape, not an extra statement): one more statement fails the test.
 *
 * `STATEMENTS_REPORT=1` prints the counts seen instead of asserting them (`=2`: the statements too).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import type { TestBusiness } from '../setup/factories.ts';
import { apiClient, type JsonResponse } from '../setup/api-client.ts';
import { countStatements, withinStatements } from '../setup/statement-count.ts';
import { DIALECT } from '../setup/test-db.ts';
import { contractFor, settlementBody, settlementBusiness } from '../modules/settlement/settlement-helpers.ts';

const REPORT = process.env.STATEMENTS_REPORT;

/**
 * The one difference between the databases: a create counted against a cap or a round takes a lock first
 * on PostgreSQL (`SELECT … FOR UPDATE` of the contract, of the business), a statement of its own, since a
 * count in the locking statement would read the snapshot taken before the lock wait; SQLite's
 * `BEGIN IMMEDIATE` is that lock already.
 */
const PG_LOCK = DIALECT === 'postgres' ? 1 : 0;

let t: TestApp;
let b: TestBusiness;
beforeAll(async () => {
  t = await buildTestApp();
  b = await settlementBusiness(t);
});
afterAll(async () => {
  if (REPORT) console.log([...seen].map(([k, v]) => `${k}: ${v}`).join('\n'));
  await t.close();
});

const { get, post, patch, delete: del } = apiClient(() => t.app);

/** Counts seen, by operation (`STATEMENTS_REPORT` mode). */
const seen = new Map<string, number>();

/** Runs `fn` (one request) within `budget` statements; in report mode records the count under `name`. */
async function step(name: string, budget: number, fn: () => Promise<JsonResponse>): Promise<JsonResponse> {
  if (!REPORT) return withinStatements(budget, fn);
  const { result, statements } = await countStatements(fn);
  seen.set(name, statements.length);
  if (REPORT === '2')
    console.log(
      `${name}:\n${statements.map((s, i) => `  ${i + 1}. ${s.replace(/\s+/g, ' ').slice(0, 200)}`).join('\n')}`,
    );
  return result;
}

/**
 * The budgets of one resource: create, one-property PATCH, no-op PATCH, DELETE. The PATCH's 8 are the
 * authentication lookup, the route's 404-before-validation check, `begin`, the read of the full shape that
 * is also the lock, the UPDATE (changed columns and `updated`), the read after, the event and `commit`; a
 * no-op PATCH stops after the read (5).
 */
interface Budgets {
  create: number;
  patch: number;
  noop: number;
  delete: number;
}

/** GET one: the authentication lookup and the one statement of the full shape. */
const RETRIEVE = 2;

/**
 * Creates a record at `url` with `body`, PATCHes `change` (one property, a change), then the same again
 * (no change), then DELETEs it, each within its budget, and checks every answer: the PATCH answers the
 * change and a new `updated`, the no-op PATCH the same body (`updated` kept), the DELETE 204 and a 404 after.
 */
async function lifecycle(
  name: string,
  url: string,
  body: Record<string, unknown>,
  change: Record<string, unknown>,
  budgets: Budgets,
): Promise<void> {
  const created = await step(`${name} create`, budgets.create, () => post(b, url, body));
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as number;
  const one = `${url}/${id}`;
  const retrieved = await step(`${name} retrieve`, RETRIEVE, () => get(b, one));
  expect(retrieved.status).toBe(200);
  const full = retrieved.body;
  await new Promise((r) => setTimeout(r, 3));
  const changed = await step(`${name} patch`, budgets.patch, () => patch(b, one, change));
  expect(changed.status, JSON.stringify(changed.body)).toBe(200);
  expect(changed.body).toMatchObject(change);
  if ('updated' in full) expect(changed.body.updated > full.updated).toBe(true);
  expect((await get(b, one)).body).toEqual(changed.body);
  const again = await step(`${name} no-op patch`, budgets.noop, () => patch(b, one, change));
  expect(again.status).toBe(200);
  expect(again.body).toEqual(changed.body);
  const gone = await step(`${name} delete`, budgets.delete, () => del(b, one));
  expect(gone.status, JSON.stringify(gone.body)).toBe(204);
  expect((await get(b, one)).status).toBe(404);
}

async function newInquiry(): Promise<number> {
  const res = await post(b, '/v1/inquiry', { name: 'Website renewal' });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

const members = () => [{ id: b.ids.members.kim }, { id: b.ids.members.lee }];

describe('statement budgets of a create, a one-property PATCH, a no-op PATCH and a DELETE', () => {
  it('settlement', async () => {
    const c = await contractFor(t, b);
    const body = settlementBody(c.id, b.ids.settlementTypes.ins, { inChargeSet: members() });
    await lifecycle(
      'settlement',
      '/v1/settlement',
      body,
      { title: 'Renamed' },
      { create: 11 + PG_LOCK, patch: 8, noop: 5, delete: 6 },
    );
  });

  it('settlement: a nested set is written only when it changes, a status change adds its history row', async () => {
    const c = await contractFor(t, b);
    const s = await post(
      b,
      '/v1/settlement',
      settlementBody(c.id, b.ids.settlementTypes.ins, { inChargeSet: members() }),
    );
    const one = `/v1/settlement/${s.body.id}`;
    // The same set in another order: the member check, then the read under the lock, nothing written.
    const same = await step('settlement same inChargeSet', 6, () =>
      patch(b, one, { inChargeSet: members().reverse() }),
    );
    expect(same.status).toBe(200);
    expect(same.body.updated).toBe(s.body.created);
    // A new set: the UPDATE of `updated`, the set's DELETE and INSERT, the read after, the event.
    const changed = await step('settlement new inChargeSet', 11, () =>
      patch(b, one, { inChargeSet: [{ id: b.ids.members.park }] }),
    );
    expect(changed.body.inChargeSet.map((m: { id: number }) => m.id)).toEqual([b.ids.members.park]);
    // A status change: one UPDATE of both columns, one status-history row.
    const status = await step('settlement status', 9, () => patch(b, one, { status: 'S' }));
    expect(status.body.status).toBe('S');
    const history = (await get(b, `${one}/status_history`)).body.results;
    expect(history.map((h: { status: string; previousStatus: string }) => [h.status, h.previousStatus])).toEqual([
      ['S', 'C'],
    ]);
  });

  it('settlement note', async () => {
    const c = await contractFor(t, b);
    const s = await post(b, '/v1/settlement', settlementBody(c.id, b.ids.settlementTypes.ins));
    const url = `/v1/settlement/${s.body.id}/history`;
    await lifecycle(
      'settlement note',
      url,
      { content: 'Called', member: { id: b.ids.members.kim } },
      { content: 'Called back' },
      { create: 8, patch: 8, noop: 5, delete: 5 },
    );
  });

  it('contract note', async () => {
    const c = await contractFor(t, b);
    const url = `/v1/contract/${c.id}/history`;
    await lifecycle(
      'contract note',
      url,
      { content: 'Signed', member: { id: b.ids.members.lee } },
      { content: 'Signed twice' },
      { create: 8, patch: 8, noop: 5, delete: 5 },
    );
  });

  it('project', async () => {
    const c = await contractFor(t, b);
    const body = { title: 'Launch', contract: { id: c.id }, startDate: '2026-02-01' };
    await lifecycle('project', '/v1/project', body, { title: 'Relaunch' }, { create: 7, patch: 8, noop: 5, delete: 5 });
  });

  it('worker', async () => {
    const body = { name: 'Kim', position: { id: b.ids.positions.dev }, manMonthAmount: 5_000_000 };
    await lifecycle('worker', '/v1/worker', body, { name: 'Kim Jr.' }, { create: 7, patch: 8, noop: 5, delete: 5 });
  });

  it('todo', async () => {
    const inquiryId = await newInquiry();
    const body = {
      inquiry: { id: inquiryId },
      type: 'E',
      dueDate: '2026-11-25',
      action: 'Call',
      inCharge: { id: b.ids.members.kim },
    };
    await lifecycle('todo', '/v1/todo', body, { action: 'Call again' }, { create: 8, patch: 8, noop: 5, delete: 5 });
  });

  it('estimate item', async () => {
    const body = {
      title: 'Design',
      unit: 'EA',
      unitCost: '1200.50',
      classification: { id: b.ids.estimateItemClassifications.design },
    };
    await lifecycle(
      'estimate item',
      '/v1/estimate/item',
      body,
      { title: 'Redesign' },
      { create: 7, patch: 8, noop: 5, delete: 5 },
    );
  });

  it('inquiry text history', async () => {
    const inquiryId = await newInquiry();
    const url = `/v1/inquiry/${inquiryId}/text_history`;
    await lifecycle(
      'inquiry text history',
      url,
      { content: 'Asked for a quote', member: { id: b.ids.members.kim } },
      { content: 'Asked again' },
      { create: 9, patch: 8, noop: 5, delete: 5 },
    );
  });

  it('webhook endpoint', async () => {
    // create: the highest event id so far, its after_event_id (docs/webhooks.md#which-events-an-endpoint-receives;
    // PostgreSQL takes the event table's SHARE lock first, its wait bounded by a SET LOCAL lock_timeout)
    const body = { url: 'http://127.0.0.1:9/hook', eventTypes: ['client.created'] };
    await lifecycle(
      'webhook',
      '/v1/webhook',
      body,
      { eventTypes: ['client.created', 'client.updated'] },
      { create: 6 + 3 * PG_LOCK, patch: 6, noop: 5, delete: 2 },
    );
  });
});
