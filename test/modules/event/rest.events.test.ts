/**
 * Change events and `updated` (docs/api.md#events) on projects, workers, todos and estimate items: one event
 * per create, change and delete, `data` equal to what `GET` answers, exact `changedFields`, none for a no-op
 * PATCH (which keeps `updated`) or a refused write; `updated` only in the full shape; the `updated_start` /
 * `updated_end` list filters. Each resource's events are read with a `type` filter, so that the events of the
 * records a test needs besides (inquiries, contracts) do not matter.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { apiClient } from '../../setup/api-client.ts';
import { eventHelpers } from '../../setup/event-helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const { get, post, patch, delete: del } = apiClient(() => t.app);

const { events: eventList } = eventHelpers({ get });

/** The business's events of `resource` (created, updated, deleted), oldest first. */
function events(b: TestBusiness, resource: string): Promise<any[]> {
  return eventList(b, ['created', 'updated', 'deleted'].map((a) => `&type=${resource}.${a}`).join(''));
}

/** `POST url body`, expecting 201; the create answer. */
async function created(b: TestBusiness, url: string, body: Record<string, unknown>): Promise<any> {
  const res = await post(b, url, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** A live inquiry to attach todos to. */
async function newInquiry(b: TestBusiness): Promise<number> {
  return (await created(b, '/v1/inquiry', { name: 'Events' })).id;
}

/** One resource under test: how to create it, a change with its exact `changedFields`, no-op bodies, refused writes. */
interface Case {
  resource: string;
  path: string;
  /** The create body (may create what it references). */
  body: (b: TestBusiness) => Promise<Record<string, unknown>>;
  /** A PATCH body that changes the record, and the properties it changes. */
  change: (b: TestBusiness) => Record<string, unknown>;
  changed: string[];
  /** PATCH bodies that change nothing (values equal to the stored ones). */
  noops: Record<string, unknown>[];
  /** PATCH bodies the API refuses (400). */
  refusedPatches: (b: TestBusiness) => Record<string, unknown>[];
  /** A create body the API refuses (400). */
  refusedCreate: (b: TestBusiness) => Promise<Record<string, unknown>>;
}

const CASES: Case[] = [
  {
    resource: 'project',
    path: '/v1/project',
    body: async () => ({ title: 'Website', status: 'I', startDate: '2026-12-01' }),
    change: () => ({ title: 'Website', status: 'E', actualEndDate: '2027-01-02', isHidden: false }),
    changed: ['status', 'actualEndDate'],
    noops: [
      {},
      { title: 'Website' },
      { status: 'I', startDate: '2026-12-01', endDate: null, contract: null, isHidden: false },
    ],
    refusedPatches: () => [{ title: '' }, { contract: { id: 2147483647 } }, { status: 'X' }],
    refusedCreate: async () => ({ title: 'X', contract: { id: 2147483647 } }),
  },
  {
    resource: 'worker',
    path: '/v1/worker',
    body: async () => ({ name: 'Choi', order: 2, manMonthAmount: 100 }),
    change: (b) => ({ name: 'Choi', position: { id: b.ids.positions.dev }, manMonthAmount: 200 }),
    changed: ['position', 'manMonthAmount'],
    noops: [{}, { name: 'Choi', order: 2 }, { position: null, isHidden: false, manMonthAmount: 100 }],
    refusedPatches: () => [{ name: '' }, { position: { id: 2147483647 } }, { order: -1 }],
    refusedCreate: async () => ({ name: 'X', position: { id: 2147483647 } }),
  },
  {
    resource: 'todo',
    path: '/v1/todo',
    body: async (b) => ({
      inquiry: { id: await newInquiry(b) },
      type: 'CA',
      dueDate: '2026-12-01',
      dueTime: '10:00',
      action: 'Call',
    }),
    change: () => ({ action: 'Call back', dueTime: '10:00:00', actionHistory: 'Left a message' }),
    changed: ['action', 'actionHistory'],
    noops: [
      {},
      { action: 'Call', type: 'CA' },
      { dueTime: '10:00:00', isComplete: false, completedAt: null, inCharge: null },
    ],
    refusedPatches: (b) => [
      { action: '' },
      { inCharge: { id: 2147483647 } },
      { completedAt: '2026-11-01T00:00:00Z' },
      { completedInCharge: { id: b.ids.members.kim } },
    ],
    refusedCreate: async () => ({ inquiry: { id: 2147483647 }, type: 'CA', dueDate: '2026-12-01', action: 'Call' }),
  },
  {
    resource: 'estimate.item',
    path: '/v1/estimate/item',
    body: async () => ({ title: 'Design', unitCost: '100', unit: 'EA' }),
    change: (b) => ({
      unitCost: '100.50',
      classification: { id: b.ids.estimateItemClassifications.design },
      unit: 'EA',
    }),
    changed: ['unitCost', 'classification'],
    noops: [{}, { unitCost: '100.00' }, { unitCost: 100, title: 'Design', description: null, classification: null }],
    refusedPatches: () => [{ title: '' }, { unitCost: 'abc' }, { classification: { id: 2147483647 } }],
    refusedCreate: async () => ({ title: 'X', unitCost: 'abc', unit: 'EA' }),
  },
];

for (const c of CASES) {
  describe(`${c.resource} events`, () => {
    it(`writes ${c.resource}.created with the full shape GET answers; the create answer has no updated`, async () => {
      const b = await newBusiness(t);
      const answer = await created(b, c.path, await c.body(b));
      expect(answer).not.toHaveProperty('updated');
      const [event, ...rest] = await events(b, c.resource);
      expect(rest).toEqual([]);
      const full = await get(b, `${c.path}/${answer.id}`);
      expect(full.status).toBe(200);
      expect(Object.keys(full.body)).toEqual([...Object.keys(full.body).filter((k) => k !== 'updated'), 'updated']);
      expect(full.body.updated).toBe(full.body.created);
      const { updated: _updated, ...withoutUpdated } = full.body;
      // The create answer shows the same values (the todo's short shape: a subset of them).
      expect(withoutUpdated).toMatchObject(answer);
      expect(event).toMatchObject({ type: `${c.resource}.created`, changedFields: [], data: full.body });
      expect(event.created).toBe(full.body.updated);
      expect((await get(b, `/v1/event/${event.id}`)).body).toEqual(event);
    });

    it(`writes ${c.resource}.updated naming exactly the changed properties, and stamps updated`, async () => {
      const b = await newBusiness(t);
      const { id } = await created(b, c.path, await c.body(b));
      const before = (await get(b, `${c.path}/${id}`)).body;
      await sleep(5);
      const res = await patch(b, `${c.path}/${id}`, c.change(b));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.updated > before.updated).toBe(true);
      expect(res.body.created).toBe(before.created);
      const all = await events(b, c.resource);
      expect(all.map((e) => e.type)).toEqual([`${c.resource}.created`, `${c.resource}.updated`]);
      expect(all[1].changedFields).toEqual(c.changed);
      expect(all[1].data).toEqual(res.body);
      expect(all[1].created).toBe(res.body.updated);
      expect((await get(b, `${c.path}/${id}`)).body).toEqual(res.body);
    });

    it('a PATCH that changes nothing writes no event and keeps updated', async () => {
      const b = await newBusiness(t);
      const { id } = await created(b, c.path, await c.body(b));
      const before = (await get(b, `${c.path}/${id}`)).body;
      await sleep(5);
      for (const body of c.noops) {
        const res = await patch(b, `${c.path}/${id}`, body);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body, JSON.stringify(body)).toEqual(before);
      }
      expect((await events(b, c.resource)).map((e) => e.type)).toEqual([`${c.resource}.created`]);
    });

    it('a refused write writes no event and changes nothing', async () => {
      const b = await newBusiness(t);
      const { id } = await created(b, c.path, await c.body(b));
      const before = (await get(b, `${c.path}/${id}`)).body;
      for (const body of c.refusedPatches(b)) {
        const res = await patch(b, `${c.path}/${id}`, body);
        expect(res.status, `${JSON.stringify(body)} → ${JSON.stringify(res.body)}`).toBe(400);
      }
      expect((await post(b, c.path, await c.refusedCreate(b))).status).toBe(400);
      expect((await patch(b, `${c.path}/2147483647`, c.change(b))).status).toBe(404);
      expect((await del(b, `${c.path}/2147483647`)).status).toBe(404);
      expect((await get(b, `${c.path}/${id}`)).body).toEqual(before);
      expect((await events(b, c.resource)).map((e) => e.type)).toEqual([`${c.resource}.created`]);
    });

    it(`writes ${c.resource}.deleted with data {id}, once`, async () => {
      const b = await newBusiness(t);
      const { id } = await created(b, c.path, await c.body(b));
      expect((await del(b, `${c.path}/${id}`)).status).toBe(204);
      expect((await del(b, `${c.path}/${id}`)).status).toBe(404);
      expect((await patch(b, `${c.path}/${id}`, c.change(b))).status).toBe(404);
      const all = await events(b, c.resource);
      expect(all.map((e) => e.type)).toEqual([`${c.resource}.created`, `${c.resource}.deleted`]);
      expect(all[1]).toMatchObject({ changedFields: [], data: { id } });
      expect(Object.keys(all[1].data)).toEqual(['id']);
    });

    it('updated_start / updated_end select by the last change (inclusive); list items have no updated', async () => {
      const b = await newBusiness(t);
      const a = (await created(b, c.path, await c.body(b))).id;
      const z = (await created(b, c.path, await c.body(b))).id;
      await sleep(5);
      const mark = new Date().toISOString();
      await sleep(5);
      const patched = await patch(b, `${c.path}/${a}`, c.change(b));
      expect(patched.status).toBe(200);
      const list = async (q: string) => {
        const res = await get(b, `${c.path}?${q}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        for (const item of res.body.results) expect(item).not.toHaveProperty('updated');
        return (res.body.results as { id: number }[]).map((r) => r.id);
      };
      expect(await list(`updated_start=${encodeURIComponent(mark)}`)).toEqual([a]);
      expect(await list(`updated_end=${encodeURIComponent(mark)}`)).toEqual([z]);
      const at = encodeURIComponent(patched.body.updated);
      expect(await list(`updated_start=${at}&updated_end=${at}`)).toEqual([a]);
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: b.timezone }).format(new Date());
      expect((await list(`updated_start=${today}&updated_end=${today}`)).sort()).toEqual([a, z].sort());
      expect(await list('updated_end=2000-01-01')).toEqual([]);
      const bad = await get(b, `${c.path}?updated_start=2026-02-30`);
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ updated_start: ['Enter a valid date/time.'] });
      expect((await get(b, `${c.path}?updated_end=yesterday`)).status).toBe(400);
    });
  });
}

describe('todo completion events', () => {
  async function newTodo(b: TestBusiness): Promise<number> {
    return (
      await created(b, '/v1/todo', {
        inquiry: { id: await newInquiry(b) },
        type: 'CA',
        dueDate: '2026-12-01',
        action: 'Call',
      })
    ).id;
  }
  const changes = async (b: TestBusiness) => (await events(b, 'todo')).slice(1).map((e) => [e.type, e.changedFields]);

  it('completing names isComplete and completedAt; completing again changes nothing; reopening names them again', async () => {
    const b = await newBusiness(t);
    const id = await newTodo(b);
    const done = await patch(b, `/v1/todo/${id}`, { isComplete: true });
    expect(done.body).toMatchObject({ isComplete: true, completedAt: expect.any(String) });
    expect((await patch(b, `/v1/todo/${id}`, { isComplete: true })).body).toEqual(done.body);
    const reopened = await patch(b, `/v1/todo/${id}`, { isComplete: false });
    expect(reopened.body).toMatchObject({ isComplete: false, completedAt: null });
    expect(await changes(b)).toEqual([
      ['todo.updated', ['isComplete', 'completedAt']],
      ['todo.updated', ['isComplete', 'completedAt']],
    ]);
    const all = await events(b, 'todo');
    expect(all[1].data).toEqual(done.body);
    expect(all[2].data).toEqual(reopened.body);
  });

  it('completing with a member names completedInCharge too; a new completedAt alone names only completedAt', async () => {
    const b = await newBusiness(t);
    const id = await newTodo(b);
    const kim = b.ids.members.kim;
    const done = await patch(b, `/v1/todo/${id}`, {
      isComplete: true,
      completedInCharge: { id: kim },
      completedAt: '2026-11-20T01:00:00Z',
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const moved = await patch(b, `/v1/todo/${id}`, {
      completedAt: '2026-11-21T01:00:00+09:00',
      completedInCharge: { id: kim },
    });
    expect(moved.body.completedAt).toBe('2026-11-20T16:00:00.000Z');
    const reopened = await patch(b, `/v1/todo/${id}`, { isComplete: false });
    expect(reopened.body).toMatchObject({ completedInCharge: null, completedAt: null });
    expect(await changes(b)).toEqual([
      ['todo.updated', ['completedInCharge', 'isComplete', 'completedAt']],
      ['todo.updated', ['completedAt']],
      ['todo.updated', ['completedInCharge', 'isComplete', 'completedAt']],
    ]);
  });

  it('concurrent completions and reopenings: each event flips the state the previous one left', async () => {
    const b = await newBusiness(t);
    const id = await newTodo(b);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, n) => patch(b, `/v1/todo/${id}`, { isComplete: n % 2 === 0 })),
    );
    for (const res of answers) expect(res.status, JSON.stringify(res.body)).toBe(200);
    const updates = (await events(b, 'todo')).slice(1);
    expect(updates.length).toBeGreaterThan(0);
    updates.forEach((e, i) => {
      // Starting incomplete, every change alternates: complete, reopen, complete, …
      expect(e.data.isComplete, JSON.stringify(updates.map((u) => u.data.isComplete))).toBe(i % 2 === 0);
      expect(e.data.completedAt === null).toBe(!e.data.isComplete);
      expect(e.changedFields).toEqual(['isComplete', 'completedAt']);
    });
    expect((await get(b, `/v1/todo/${id}`)).body).toEqual(updates.at(-1).data);
  });

  it('a new dueDate changes dDay with it', async () => {
    const b = await newBusiness(t);
    const id = await newTodo(b);
    const res = await patch(b, `/v1/todo/${id}`, { dueDate: '2026-12-03' });
    expect(res.status).toBe(200);
    expect(await changes(b)).toEqual([['todo.updated', ['dueDate', 'dDay']]]);
  });

  it('the todos of another business are not touched and their events not shown', async () => {
    const b = await newBusiness(t);
    const other = await newBusiness(t);
    const id = await newTodo(other);
    expect((await patch(b, `/v1/todo/${id}`, { isComplete: true })).status).toBe(404);
    expect((await del(b, `/v1/todo/${id}`)).status).toBe(404);
    expect(await events(b, 'todo')).toEqual([]);
    expect((await events(other, 'todo')).map((e) => e.type)).toEqual(['todo.created']);
  });
});

describe('project contract and worker position changes', () => {
  it('linking and unlinking a contract names contract', async () => {
    const b = await newBusiness(t);
    const contract = await created(b, '/v1/contract', { title: 'Build', amount: 1000, type: 'G' });
    const { id } = await created(b, '/v1/project', { title: 'P' });
    expect((await patch(b, `/v1/project/${id}`, { contract: { id: contract.id } })).status).toBe(200);
    expect((await patch(b, `/v1/project/${id}`, { contract: { id: contract.id } })).status).toBe(200);
    expect((await patch(b, `/v1/project/${id}`, { contract: null })).status).toBe(200);
    const all = await events(b, 'project');
    expect(all.map((e) => [e.type, e.changedFields])).toEqual([
      ['project.created', []],
      ['project.updated', ['contract']],
      ['project.updated', ['contract']],
    ]);
    expect(all[1].data.contract).toMatchObject({ id: contract.id, title: 'Build' });
  });
});
