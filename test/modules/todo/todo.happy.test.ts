/**
 * Todos, the successful paths (spec: Resources › Todo, States — permanent delete; reference: Todo;
 * decisions §1, §4, §5, §7): the short and full shapes, `dDay` around midnight in the business's time zone,
 * completion rules, partial update, permanent delete, todos of a deleted inquiry, paging and filters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../../../src/demo/demo.ts';
import { DEMO_TODOS } from '../../../src/demo/demo-data.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import {
  buildClockedApp,
  type ClockedApp,
  FULL_KEYS,
  memberOf,
  newInquiry,
  newTodo,
  SHORT_KEYS,
} from './todo-helpers.ts';
import { apiClient } from '../../setup/api-client.ts';
import { relative } from '../../setup/helpers.ts';

let t: ClockedApp;
beforeAll(async () => {
  t = await buildClockedApp();
});
afterAll(() => t.close());

const { call, listIds, raw } = apiClient(() => t.app);

/** Sets the server's "now". */
function at(iso: string): Date {
  t.clock.now = new Date(iso);
  return t.clock.now;
}
function get(b: TestBusiness, url: string) {
  return call(b, { method: 'GET', url });
}
function patch(b: TestBusiness, id: number, body: Record<string, unknown>) {
  return call(b, { method: 'PATCH', url: `/v1/todo/${id}`, body });
}

describe('POST /v1/todo', () => {
  it('answers 201 with exactly the short shape of the reference', async () => {
    const now = at('2026-11-22T03:00:00.000Z'); // 12:00 in Seoul
    const b = await newBusiness(t);
    const inquiry = await newInquiry(t, b, 'Brand refresh');
    const res = await call(b, {
      method: 'POST',
      url: '/v1/todo',
      body: {
        inquiry: { id: inquiry.id },
        type: 'CA',
        dueDate: '2026-11-25',
        dueTime: '10:30',
        action: 'Call back about the estimate',
        actionHistory: 'Left a voicemail',
        inCharge: { id: b.ids.members.kim },
      },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(SHORT_KEYS);
    expect(res.body).toEqual({
      id: expect.any(Number),
      inquiry,
      inCharge: memberOf(b, 'kim'),
      type: 'CA',
      dueDate: '2026-11-25',
      dueTime: '10:30:00',
      action: 'Call back about the estimate',
      isComplete: false,
      completedAt: null,
      dDay: 3,
      created: now.toISOString(),
    });
    expect(res.body.inquiry).toEqual({ id: inquiry.id, uniqueId: expect.any(String), name: 'Brand refresh' });
  });

  it('optional properties default to null, every type is accepted, and times keep their seconds', async () => {
    at('2026-11-22T03:00:00.000Z');
    const b = await newBusiness(t);
    const { id } = await newInquiry(t, b);
    for (const type of ['M', 'CA', 'MS', 'E']) {
      const todo = await newTodo(t, b, { inquiry: { id }, type, dueDate: '2026-11-22', action: type });
      expect(todo).toMatchObject({ type, inCharge: null, dueTime: null, dDay: 0, isComplete: false });
    }
    expect(
      (await newTodo(t, b, { inquiry: { id }, type: 'E', dueDate: '2026-11-22', action: 'x', dueTime: '23:59:59' }))
        .dueTime,
    ).toBe('23:59:59');
    expect(
      (
        await newTodo(t, b, {
          inquiry: { id },
          type: 'E',
          dueDate: '2026-11-22',
          action: 'x',
          dueTime: '00:00:05.123456',
        })
      ).dueTime,
    ).toBe('00:00:05');
    const full = await get(
      b,
      `/v1/todo/${(await newTodo(t, b, { inquiry: { id }, type: 'E', dueDate: '2026-11-22', action: 'x', inCharge: null, dueTime: null, actionHistory: null })).id}`,
    );
    expect(full.body).toMatchObject({ inCharge: null, completedInCharge: null, dueTime: null, actionHistory: null });
  });

  it('accepts an action of exactly 2048 characters (Korean too)', async () => {
    const b = await newBusiness(t);
    const { id } = await newInquiry(t, b);
    expect(
      (await newTodo(t, b, { inquiry: { id }, type: 'M', dueDate: '2026-11-22', action: 'a'.repeat(2048) })).action,
    ).toHaveLength(2048);
    expect(
      (await newTodo(t, b, { inquiry: { id }, type: 'M', dueDate: '2026-11-22', action: '할'.repeat(2048) })).action,
    ).toBe('할'.repeat(2048));
  });

  it('ignores completion properties, read-only and unknown ones on create', async () => {
    at('2026-11-22T03:00:00.000Z');
    const b = await newBusiness(t);
    const { id } = await newInquiry(t, b);
    const todo = await newTodo(t, b, {
      inquiry: { id },
      type: 'M',
      dueDate: '2026-11-30',
      action: 'Meet',
      isComplete: true,
      completedAt: '2026-11-01T00:00:00Z',
      completedInCharge: { id: b.ids.members.kim },
      dDay: 99,
      id: 999999,
      created: '2000-01-01T00:00:00.000Z',
    });
    expect(todo).toMatchObject({ isComplete: false, completedAt: null, dDay: 8, created: '2026-11-22T03:00:00.000Z' });
    expect(todo.id).not.toBe(999999);
    expect((await get(b, `/v1/todo/${todo.id}`)).body.completedInCharge).toBeNull();
  });

  it('accepts urlencoded and multipart bodies with dotted and bracketed references', async () => {
    const b = await newBusiness(t);
    const { id } = await newInquiry(t, b);
    const fields = { type: 'MS', dueDate: '2026-12-01', dueTime: '09:00', action: 'Send the proposal' };
    const json = await newTodo(t, b, { ...fields, inquiry: { id }, inCharge: { id: b.ids.members.lee } });
    const strip = ({ id: _id, created: _c, dDay: _d, ...rest }: Record<string, unknown>) => rest;
    for (const req of [
      { form: 'urlencoded' as const, body: { ...fields, 'inquiry.id': id, 'inCharge.id': b.ids.members.lee! } },
      { form: 'multipart' as const, body: { ...fields, 'inquiry[id]': id, 'inCharge[id]': b.ids.members.lee! } },
    ]) {
      const res = await call(b, { method: 'POST', url: '/v1/todo', ...req });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(strip(res.body)).toEqual(strip(json));
    }
  });
});

describe('GET /v1/todo/{todo_id}', () => {
  it('answers the full shape, with completedInCharge and actionHistory', async () => {
    at('2026-11-22T03:00:00.000Z');
    const b = await newBusiness(t);
    const inquiry = await newInquiry(t, b);
    const todo = await newTodo(t, b, {
      inquiry: { id: inquiry.id },
      type: 'E',
      dueDate: '2026-11-20',
      action: 'Follow up',
      actionHistory: 'Sent mail',
    });
    const res = await get(b, `/v1/todo/${todo.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(FULL_KEYS);
    expect(res.body).toEqual({
      ...todo,
      completedInCharge: null,
      actionHistory: 'Sent mail',
      dDay: -2,
      updated: todo.created,
    });
  });
});

describe('dDay: dueDate minus today in the business time zone', () => {
  it('turns from 1 to 0 at midnight in Seoul (15:00 UTC), and goes negative when overdue', async () => {
    const b = await newBusiness(t, { timezone: 'Asia/Seoul' });
    const { id: inquiryId } = await newInquiry(t, b);
    at('2026-11-22T14:59:59.999Z'); // 23:59:59.999 on the 22nd in Seoul
    const todo = await newTodo(t, b, { inquiry: { id: inquiryId }, type: 'CA', dueDate: '2026-11-23', action: 'Call' });
    expect(todo.dDay).toBe(1);
    expect((await get(b, `/v1/todo/${todo.id}`)).body.dDay).toBe(1);
    expect((await get(b, '/v1/todo')).body.results[0].dDay).toBe(1);
    at('2026-11-22T15:00:00.000Z'); // midnight of the 23rd in Seoul, still the 22nd in UTC
    expect((await get(b, `/v1/todo/${todo.id}`)).body.dDay).toBe(0);
    expect((await get(b, '/v1/todo')).body.results[0].dDay).toBe(0);
    expect((await patch(b, todo.id, {})).body.dDay).toBe(0);
    at('2026-11-23T14:59:59.999Z'); // the last instant of the 23rd in Seoul
    expect((await get(b, `/v1/todo/${todo.id}`)).body.dDay).toBe(0);
    at('2026-11-23T15:00:00.000Z'); // the 24th in Seoul: one day overdue
    expect((await get(b, `/v1/todo/${todo.id}`)).body.dDay).toBe(-1);
    at('2026-12-03T15:00:00.000Z');
    expect((await get(b, `/v1/todo/${todo.id}`)).body.dDay).toBe(-11);
  });

  it('follows each business its own time zone: the same instant is another day in New York', async () => {
    const seoul = await newBusiness(t, { timezone: 'Asia/Seoul' });
    const newYork = await newBusiness(t, { timezone: 'America/New_York' });
    const body = (inquiryId: number) => ({
      inquiry: { id: inquiryId },
      type: 'M',
      dueDate: '2026-11-23',
      action: 'Meet',
    });
    const s = await newTodo(t, seoul, body((await newInquiry(t, seoul)).id));
    const n = await newTodo(t, newYork, body((await newInquiry(t, newYork)).id));
    at('2026-11-23T04:59:59.999Z'); // 13:59 on the 23rd in Seoul; 23:59 on the 22nd in New York (UTC-5)
    expect((await get(seoul, `/v1/todo/${s.id}`)).body.dDay).toBe(0);
    expect((await get(newYork, `/v1/todo/${n.id}`)).body.dDay).toBe(1);
    at('2026-11-23T05:00:00.000Z'); // midnight in New York
    expect((await get(newYork, `/v1/todo/${n.id}`)).body.dDay).toBe(0);
  });

  it('counts calendar days across a daylight-saving change', async () => {
    const b = await newBusiness(t, { timezone: 'America/New_York' });
    const { id } = await newInquiry(t, b);
    const todo = await newTodo(t, b, { inquiry: { id }, type: 'M', dueDate: '2026-03-09', action: 'After the switch' });
    at('2026-03-08T04:59:59.999Z'); // 23:59 on the 7th (EST), the night before clocks spring forward
    expect((await get(b, `/v1/todo/${todo.id}`)).body.dDay).toBe(2);
    at('2026-03-08T05:00:00.000Z'); // midnight of the 8th (EST)
    expect((await get(b, `/v1/todo/${todo.id}`)).body.dDay).toBe(1);
    at('2026-03-09T03:59:59.999Z'); // 23:59 on the 8th (EDT, UTC-4)
    expect((await get(b, `/v1/todo/${todo.id}`)).body.dDay).toBe(1);
    at('2026-03-09T04:00:00.000Z'); // midnight of the 9th (EDT)
    expect((await get(b, `/v1/todo/${todo.id}`)).body.dDay).toBe(0);
  });
});

describe('PATCH /v1/todo/{todo_id}', () => {
  it('changes only the properties sent; null clears the nullable ones; inquiry cannot be changed', async () => {
    at('2026-11-22T03:00:00.000Z');
    const b = await newBusiness(t);
    const inquiry = await newInquiry(t, b, 'Original');
    const other = await newInquiry(t, b, 'Other');
    const todo = await newTodo(t, b, {
      inquiry: { id: inquiry.id },
      type: 'CA',
      dueDate: '2026-11-25',
      dueTime: '10:00',
      action: 'Call',
      actionHistory: 'None yet',
      inCharge: { id: b.ids.members.kim },
    });
    const before = (await get(b, `/v1/todo/${todo.id}`)).body;
    const res = await patch(b, todo.id, {
      type: 'M',
      dueDate: '2026-11-24',
      action: 'Meet instead',
      inquiry: { id: other.id },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(FULL_KEYS);
    expect(res.body).toEqual({
      ...before,
      type: 'M',
      dueDate: '2026-11-24',
      action: 'Meet instead',
      dDay: 2,
      updated: res.body.updated,
    });
    expect(res.body.inquiry).toEqual(inquiry);
    const cleared = await patch(b, todo.id, { dueTime: null, actionHistory: null, inCharge: null });
    expect(cleared.body).toEqual({
      ...res.body,
      dueTime: null,
      actionHistory: null,
      inCharge: null,
      updated: cleared.body.updated,
    });
    const reassigned = await patch(b, todo.id, {
      inCharge: { id: b.ids.members.park, nickname: 'ignored' },
      dueTime: '18:45:30',
    });
    expect(reassigned.body).toMatchObject({ inCharge: memberOf(b, 'park'), dueTime: '18:45:30' });
    expect((await get(b, `/v1/todo/${todo.id}`)).body).toEqual(reassigned.body);
    expect((await patch(b, todo.id, {})).body).toEqual(reassigned.body);
  });

  it('isComplete true sets completedAt to now; again true keeps it; false clears completedAt and completedInCharge', async () => {
    at('2026-11-22T03:00:00.000Z');
    const b = await newBusiness(t);
    const { id } = await newInquiry(t, b);
    const todo = await newTodo(t, b, { inquiry: { id }, type: 'CA', dueDate: '2026-11-25', action: 'Call' });
    const done = at('2026-11-23T08:15:00.123Z');
    const completed = await patch(b, todo.id, { isComplete: true, completedInCharge: { id: b.ids.members.lee } });
    expect(completed.status).toBe(200);
    expect(completed.body).toMatchObject({
      isComplete: true,
      completedAt: done.toISOString(),
      completedInCharge: memberOf(b, 'lee'),
    });
    at('2026-11-24T00:00:00.000Z');
    const again = await patch(b, todo.id, { isComplete: true, actionHistory: 'Done' });
    expect(again.body).toMatchObject({
      isComplete: true,
      completedAt: done.toISOString(),
      completedInCharge: memberOf(b, 'lee'),
      actionHistory: 'Done',
    });
    const other = await patch(b, todo.id, { action: 'Call (done)' });
    expect(other.body).toMatchObject({ isComplete: true, completedAt: done.toISOString() });
    const reopened = await patch(b, todo.id, { isComplete: false });
    expect(reopened.body).toMatchObject({
      isComplete: false,
      completedAt: null,
      completedInCharge: null,
      actionHistory: 'Done',
    });
    const list = await get(b, '/v1/todo');
    expect(list.body.results[0]).toMatchObject({ id: todo.id, isComplete: false, completedAt: null });
  });

  it('takes a given completedAt with any offset (answered in UTC), and lets a complete todo change it and its member', async () => {
    at('2026-11-22T03:00:00.000Z');
    const b = await newBusiness(t);
    const { id } = await newInquiry(t, b);
    const todo = await newTodo(t, b, { inquiry: { id }, type: 'MS', dueDate: '2026-11-25', action: 'Message' });
    const res = await patch(b, todo.id, { isComplete: true, completedAt: '2026-11-22T09:30:00+09:00' });
    expect(res.body).toMatchObject({
      isComplete: true,
      completedAt: '2026-11-22T00:30:00.000Z',
      completedInCharge: null,
    });
    const changed = await patch(b, todo.id, {
      completedAt: '2026-11-21T23:00:00Z',
      completedInCharge: { id: b.ids.members.kim },
    });
    expect(changed.body).toMatchObject({
      completedAt: '2026-11-21T23:00:00.000Z',
      completedInCharge: memberOf(b, 'kim'),
    });
    const noMember = await patch(b, todo.id, { completedInCharge: null });
    expect(noMember.body).toMatchObject({
      isComplete: true,
      completedAt: '2026-11-21T23:00:00.000Z',
      completedInCharge: null,
    });
    const reopened = await patch(b, todo.id, { isComplete: false, completedAt: null, completedInCharge: null });
    expect(reopened.body).toMatchObject({ isComplete: false, completedAt: null, completedInCharge: null });
  });
});

describe('DELETE /v1/todo/{todo_id}', () => {
  it('deletes for good: 204 without a body, then 404, gone from the list and from the database', async () => {
    const b = await newBusiness(t);
    const { id } = await newInquiry(t, b);
    const keep = await newTodo(t, b, { inquiry: { id }, type: 'E', dueDate: '2026-11-25', action: 'Keep' });
    const doomed = await newTodo(t, b, { inquiry: { id }, type: 'E', dueDate: '2026-11-25', action: 'Doomed' });
    const del = await raw(b, { method: 'DELETE', url: `/v1/todo/${doomed.id}` });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    for (const req of [
      { method: 'GET' as const, url: `/v1/todo/${doomed.id}` },
      { method: 'PATCH' as const, url: `/v1/todo/${doomed.id}`, body: { action: 'Zombie' } },
      { method: 'DELETE' as const, url: `/v1/todo/${doomed.id}` },
    ]) {
      const res = await call(b, req);
      expect(res.status, req.method).toBe(404);
      expect(res.body).toEqual({ detail: 'Not found.', code: 'not_found', requestId: res.headers['x-request-id'] });
    }
    expect(await listIds(b, '/v1/todo')).toEqual([keep.id]);
    const rows = await t.testDb.db.selectFrom('todo').select('id').where('id', '=', doomed.id).execute();
    expect(rows).toEqual([]);
  });
});

describe('todos of a deleted inquiry', () => {
  it('disappear with it (404, not listed), and a deleted inquiry cannot take new todos', async () => {
    const b = await newBusiness(t);
    const live = await newInquiry(t, b, 'Live');
    const doomed = await newInquiry(t, b, 'Doomed');
    const kept = await newTodo(t, b, { inquiry: { id: live.id }, type: 'E', dueDate: '2026-11-25', action: 'Kept' });
    const gone = await newTodo(t, b, { inquiry: { id: doomed.id }, type: 'E', dueDate: '2026-11-25', action: 'Gone' });
    expect((await raw(b, { method: 'DELETE', url: `/v1/inquiry/${doomed.id}` })).statusCode).toBe(204);
    expect(await listIds(b, '/v1/todo')).toEqual([kept.id]);
    expect(await listIds(b, `/v1/todo?inquiry_id=${doomed.id}`)).toEqual([]);
    for (const req of [
      { method: 'GET' as const, url: `/v1/todo/${gone.id}` },
      { method: 'PATCH' as const, url: `/v1/todo/${gone.id}`, body: { action: 'x' } },
      { method: 'DELETE' as const, url: `/v1/todo/${gone.id}` },
    ]) {
      expect((await call(b, req)).status, req.method).toBe(404);
    }
    const res = await call(b, {
      method: 'POST',
      url: '/v1/todo',
      body: { inquiry: { id: doomed.id }, type: 'E', dueDate: '2026-11-25', action: 'x' },
    });
    expect(res.status).toBe(400);
    expect(res.body.inquiry).toEqual({ id: [`Invalid pk "${doomed.id}" - object does not exist.`] });
  });
});

describe('GET /v1/todo', () => {
  it('lists newest first in the short shape, and pages with links that keep the filters', async () => {
    const b = await newBusiness(t);
    const { id } = await newInquiry(t, b);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      at(`2026-11-22T03:00:0${i}.000Z`);
      ids.push((await newTodo(t, b, { inquiry: { id }, type: 'E', dueDate: '2026-11-25', action: `T${i}` })).id);
    }
    const newest = [...ids].reverse();
    const page1 = await get(b, `/v1/todo?inquiry_id=${id}&page_size=2`);
    expect(page1.body.results.map((r: { id: number }) => r.id)).toEqual(newest.slice(0, 2));
    for (const item of page1.body.results) expect(Object.keys(item)).toEqual(SHORT_KEYS);
    expect(page1.body.next).toContain(`inquiry_id=${id}`);
    const page2 = await get(b, relative(page1.body.next));
    expect(page2.body.results.map((r: { id: number }) => r.id)).toEqual(newest.slice(2, 4));
    const page3 = await get(b, relative(page2.body.next));
    expect(page3.body.results.map((r: { id: number }) => r.id)).toEqual(newest.slice(4));
    expect(page3.body.next).toBeNull();
    expect((await get(b, relative(page3.body.previous))).body.results.map((r: { id: number }) => r.id)).toEqual(
      newest.slice(2, 4),
    );
  });

  it('ties on created are broken by id, newest first', async () => {
    at('2026-11-22T03:00:00.000Z');
    const b = await newBusiness(t);
    const { id } = await newInquiry(t, b);
    const a = await newTodo(t, b, { inquiry: { id }, type: 'E', dueDate: '2026-11-25', action: 'A' });
    const c = await newTodo(t, b, { inquiry: { id }, type: 'E', dueDate: '2026-11-25', action: 'C' });
    expect(a.created).toBe(c.created);
    expect(await listIds(b, '/v1/todo')).toEqual([c.id, a.id]);
  });

  it('filters by inclusive due-date range, inquiry and completion, alone and combined', async () => {
    const b = await newBusiness(t);
    const one = await newInquiry(t, b, 'One');
    const two = await newInquiry(t, b, 'Two');
    const todo = async (inquiryId: number, dueDate: string) =>
      (await newTodo(t, b, { inquiry: { id: inquiryId }, type: 'E', dueDate, action: dueDate })).id as number;
    const jan31 = await todo(one.id, '2026-01-31');
    const feb01 = await todo(one.id, '2026-02-01');
    const feb28 = await todo(two.id, '2026-02-28');
    const mar01 = await todo(two.id, '2026-03-01');
    await patch(b, feb01, { isComplete: true });
    await patch(b, mar01, { isComplete: true });
    expect(await listIds(b, '/v1/todo?due_date_start=2026-02-01')).toEqual([mar01, feb28, feb01]);
    expect(await listIds(b, '/v1/todo?due_date_end=2026-02-28')).toEqual([feb28, feb01, jan31]);
    expect(await listIds(b, '/v1/todo?due_date_start=2026-02-01&due_date_end=2026-02-28')).toEqual([feb28, feb01]);
    expect(await listIds(b, '/v1/todo?due_date_start=2026-03-01&due_date_end=2026-03-01')).toEqual([mar01]);
    expect(await listIds(b, `/v1/todo?inquiry_id=${one.id}`)).toEqual([feb01, jan31]);
    expect(await listIds(b, `/v1/todo?inquiry_id=${two.id}`)).toEqual([mar01, feb28]);
    expect(await listIds(b, '/v1/todo?inquiry_id=2147483647')).toEqual([]);
    expect(await listIds(b, '/v1/todo?is_complete=true')).toEqual([mar01, feb01]);
    expect(await listIds(b, '/v1/todo?is_complete=0')).toEqual([feb28, jan31]);
    expect(await listIds(b, `/v1/todo?is_complete=false&inquiry_id=${two.id}&due_date_end=2026-02-28`)).toEqual([
      feb28,
    ]);
    expect(await listIds(b, '/v1/todo?is_complete=&inquiry_id=&due_date_start=')).toHaveLength(4);
  });

  it('answers an empty page for a business without todos', async () => {
    const b = await newBusiness(t);
    expect((await get(b, '/v1/todo')).body).toEqual({ next: null, previous: null, results: [] });
  });
});

describe('plans', () => {
  it('todos need no particular plan: every operation works on BASIC and TEAM', async () => {
    for (const plan of ['BASIC', 'TEAM'] as const) {
      const b = await newBusiness(t, { plan });
      const { id } = await newInquiry(t, b);
      const todo = await newTodo(t, b, { inquiry: { id }, type: 'E', dueDate: '2026-11-25', action: plan });
      expect((await get(b, '/v1/todo')).status).toBe(200);
      expect((await get(b, `/v1/todo/${todo.id}`)).status).toBe(200);
      expect((await patch(b, todo.id, { isComplete: true })).status).toBe(200);
      expect((await raw(b, { method: 'DELETE', url: `/v1/todo/${todo.id}` })).statusCode).toBe(204);
    }
  });
});

describe('the demo business', () => {
  it('has todos on its inquiries, readable through the API with its key', async () => {
    const demo = await createDemo(t.testDb.db, t.masterKey);
    t.clock.now = new Date();
    const res = await call(demo, { method: 'GET', url: '/v1/todo' });
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(DEMO_TODOS.length);
    for (const todo of res.body.results) expect(Object.keys(todo)).toEqual(SHORT_KEYS);
    // Due dates are relative to the day the demo is created: dDay reads them back.
    expect(res.body.results.map((todo: { dDay: number }) => todo.dDay)).toEqual(
      [...DEMO_TODOS].reverse().map((todo) => todo.dueInDays),
    );
    const done = res.body.results.filter((todo: { isComplete: boolean }) => todo.isComplete);
    expect(done).toHaveLength(1);
    expect(done[0].completedAt).toEqual(expect.any(String));
    expect(new Set(res.body.results.map((todo: { inquiry: { id: number } }) => todo.inquiry.id)).size).toBe(2);
  });
});
