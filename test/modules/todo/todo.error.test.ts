/**
 * Todos, the failing paths (spec: Limits — action ≤ 2048; reference: Todo create requires inquiry, type,
 * dueDate, action; decisions §2 errors, §5 query parameters, §7 todo): DRF-shaped validation bodies that
 * write nothing, references to missing inquiries and members, completion rules, bad query parameters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { buildClockedApp, type ClockedApp, newInquiry, newTodo } from './todo-helpers.ts';
import { apiClient, expect400 } from '../../setup/api-client.ts';

let t: ClockedApp;
beforeAll(async () => {
  t = await buildClockedApp();
});
afterAll(() => t.close());

const { call } = apiClient(() => t.app);

function post(b: TestBusiness, body: unknown) {
  return call(b, { method: 'POST', url: '/v1/todo', body });
}
function patch(b: TestBusiness, id: number, body: unknown) {
  return call(b, { method: 'PATCH', url: `/v1/todo/${id}`, body });
}
async function count(b: TestBusiness): Promise<number> {
  const rows = await t.testDb.db.selectFrom('todo').select('id').where('business_id', '=', b.businessId).execute();
  return rows.length;
}

const DATE_FORMAT = 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.';
const TIME_FORMAT = 'Time has wrong format. Use one of these formats instead: hh:mm[:ss[.uuuuuu]].';
const DATETIME_FORMAT =
  'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].';

async function setup() {
  const b = await newBusiness(t);
  const inquiry = await newInquiry(t, b);
  const valid = { inquiry: { id: inquiry.id }, type: 'CA', dueDate: '2026-11-25', action: 'Call' };
  return { b, inquiry, valid };
}

describe('POST /v1/todo — property validation', () => {
  it('inquiry, type, dueDate and action are required', async () => {
    const { b } = await setup();
    expect400(await post(b, {}), {
      inquiry: ['This field is required.'],
      type: ['This field is required.'],
      dueDate: ['This field is required.'],
      action: ['This field is required.'],
    });
    expect(await count(b)).toBe(0);
  });

  it('none of the required properties may be null', async () => {
    const { b } = await setup();
    expect400(await post(b, { inquiry: null, type: null, dueDate: null, action: null }), {
      inquiry: ['This field may not be null.'],
      type: ['This field may not be null.'],
      dueDate: ['This field may not be null.'],
      action: ['This field may not be null.'],
    });
  });

  it('inquiry must be a live inquiry of the business, referenced as {id}', async () => {
    const { b, valid } = await setup();
    expect400(await post(b, { ...valid, inquiry: { id: 2147483647 } }), {
      inquiry: { id: ['Invalid pk "2147483647" - object does not exist.'] },
    });
    expect400(await post(b, { ...valid, inquiry: {} }), { inquiry: { id: ['This field is required.'] } });
    expect400(await post(b, { ...valid, inquiry: { id: 'x' } }), { inquiry: { id: ['A valid integer is required.'] } });
    expect400(await post(b, { ...valid, inquiry: 5 }), {
      inquiry: ['Invalid data. Expected a dictionary, but got int.'],
    });
    const deleted = await newInquiry(t, b, 'Deleted');
    expect((await call(b, { method: 'DELETE', url: `/v1/inquiry/${deleted.id}` })).status).toBe(204);
    expect400(await post(b, { ...valid, inquiry: { id: deleted.id } }), {
      inquiry: { id: [`Invalid pk "${deleted.id}" - object does not exist.`] },
    });
    expect(await count(b)).toBe(0);
  });

  it('type outside M CA MS E → not a valid choice', async () => {
    const { b, valid } = await setup();
    for (const type of ['X', 'ca', 'C', ''])
      expect400(await post(b, { ...valid, type }), { type: [`"${type}" is not a valid choice.`] });
  });

  it('dueDate and dueTime in the wrong format', async () => {
    const { b, valid } = await setup();
    for (const dueDate of ['2026-02-30', '25-11-2026', 'today'])
      expect400(await post(b, { ...valid, dueDate }), { dueDate: [DATE_FORMAT] });
    for (const dueTime of ['24:00', '10:60', '10', '9:00', '10:00:60', '10:00:00Z', '10:00:00.1234567', 'noon']) {
      expect400(await post(b, { ...valid, dueTime }), { dueTime: [TIME_FORMAT] });
    }
  });

  it('action blank or longer than 2048 characters', async () => {
    const { b, valid } = await setup();
    expect400(await post(b, { ...valid, action: '' }), { action: ['This field may not be blank.'] });
    expect400(await post(b, { ...valid, action: 'a'.repeat(2049) }), {
      action: ['Ensure this field has no more than 2048 characters.'],
    });
    expect400(await post(b, { ...valid, action: 7 }), { action: ['Not a valid string.'] });
  });

  it('inCharge must be a member of the business, referenced as {id}', async () => {
    const { b, valid } = await setup();
    expect400(await post(b, { ...valid, inCharge: { id: 2147483647 } }), {
      inCharge: { id: ['Invalid pk "2147483647" - object does not exist.'] },
    });
    expect400(await post(b, { ...valid, inCharge: { nickname: 'Kim' } }), {
      inCharge: { id: ['This field is required.'] },
    });
    expect(await count(b)).toBe(0);
  });

  it('reports every problem at once, schema problems before references', async () => {
    const { b } = await setup();
    expect400(await post(b, { inquiry: { id: 2147483647 }, type: 'Q', dueDate: 'x', action: '', dueTime: 'x' }), {
      type: ['"Q" is not a valid choice.'],
      dueDate: [DATE_FORMAT],
      action: ['This field may not be blank.'],
      dueTime: [TIME_FORMAT],
    });
    expect400(
      await post(b, {
        inquiry: { id: 2147483647 },
        type: 'M',
        dueDate: '2026-11-25',
        action: 'a',
        inCharge: { id: 2147483646 },
      }),
      {
        inquiry: { id: ['Invalid pk "2147483647" - object does not exist.'] },
        inCharge: { id: ['Invalid pk "2147483646" - object does not exist.'] },
      },
    );
  });
});

describe('PATCH /v1/todo/{todo_id} — validation and completion rules', () => {
  it('required properties may not be null or invalid; a rejected PATCH changes nothing', async () => {
    const { b, valid } = await setup();
    const todo = await newTodo(t, b, valid);
    const before = (await call(b, { method: 'GET', url: `/v1/todo/${todo.id}` })).body;
    expect400(await patch(b, todo.id, { type: null, dueDate: null, action: null }), {
      type: ['This field may not be null.'],
      dueDate: ['This field may not be null.'],
      action: ['This field may not be null.'],
    });
    expect400(await patch(b, todo.id, { action: 'Renamed', inCharge: { id: 2147483647 } }), {
      inCharge: { id: ['Invalid pk "2147483647" - object does not exist.'] },
    });
    expect400(await patch(b, todo.id, { action: 'Renamed', isComplete: 'yes' }), {
      isComplete: ['Must be a valid boolean.'],
    });
    expect400(await patch(b, todo.id, { isComplete: true, completedAt: 'yesterday' }), {
      completedAt: [DATETIME_FORMAT],
    });
    expect400(await patch(b, todo.id, { isComplete: true, completedInCharge: { id: 2147483647 } }), {
      completedInCharge: { id: ['Invalid pk "2147483647" - object does not exist.'] },
    });
    expect((await call(b, { method: 'GET', url: `/v1/todo/${todo.id}` })).body).toEqual(before);
  });

  it('an open todo takes no completion time or member, unless the same PATCH completes it', async () => {
    const { b, valid } = await setup();
    const todo = await newTodo(t, b, valid);
    expect400(await patch(b, todo.id, { completedAt: '2026-11-22T00:00:00Z' }), {
      completedAt: ['Must be null while isComplete is false.'],
    });
    expect400(await patch(b, todo.id, { completedInCharge: { id: b.ids.members.kim } }), {
      completedInCharge: ['Must be null while isComplete is false.'],
    });
    expect400(
      await patch(b, todo.id, {
        isComplete: false,
        completedAt: '2026-11-22T00:00:00Z',
        completedInCharge: { id: b.ids.members.kim },
      }),
      {
        completedAt: ['Must be null while isComplete is false.'],
        completedInCharge: ['Must be null while isComplete is false.'],
      },
    );
    // A member that does not exist is reported as such first (references before the completion rules).
    expect400(await patch(b, todo.id, { completedInCharge: { id: 2147483647 } }), {
      completedInCharge: { id: ['Invalid pk "2147483647" - object does not exist.'] },
    });
    const res = await patch(b, todo.id, {
      isComplete: true,
      completedAt: '2026-11-22T00:00:00Z',
      completedInCharge: { id: b.ids.members.kim },
    });
    expect(res.status).toBe(200);
    expect(res.body.completedAt).toBe('2026-11-22T00:00:00.000Z');
  });

  it('a complete todo keeps a completion time: completedAt null → 400 unless it is reopened', async () => {
    const { b, valid } = await setup();
    const todo = await newTodo(t, b, valid);
    await patch(b, todo.id, { isComplete: true });
    expect400(await patch(b, todo.id, { completedAt: null }), {
      completedAt: ['This field may not be null while isComplete is true.'],
    });
    expect400(await patch(b, todo.id, { isComplete: true, completedAt: null }), {
      completedAt: ['This field may not be null while isComplete is true.'],
    });
    expect400(await patch(b, todo.id, { isComplete: false, completedInCharge: { id: b.ids.members.kim } }), {
      completedInCharge: ['Must be null while isComplete is false.'],
    });
    const reopened = await patch(b, todo.id, { isComplete: false, completedAt: null });
    expect(reopened.body).toMatchObject({ isComplete: false, completedAt: null });
  });

  it('an invalid body to a missing or foreign todo → 404, not the body errors', async () => {
    const { b } = await setup();
    const other = await setup();
    const foreign = await newTodo(t, other.b, other.valid);
    for (const url of ['/v1/todo/2147483647', `/v1/todo/${foreign.id}`]) {
      const res = await call(b, { method: 'PATCH', url, body: { action: null } });
      expect(res.status, url).toBe(404);
      expect(res.body.detail).toBe('Not found.');
    }
  });
});

describe('bodies, routes and methods', () => {
  it('malformed JSON → 400; text/plain → 415; nothing written', async () => {
    const { b } = await setup();
    const bad = await call(b, {
      method: 'POST',
      url: '/v1/todo',
      raw: { payload: '{"action": ', contentType: 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/^JSON parse error - /);
    expect(
      (await call(b, { method: 'POST', url: '/v1/todo', raw: { payload: 'action=x', contentType: 'text/plain' } }))
        .status,
    ).toBe(415);
    expect(await count(b)).toBe(0);
  });

  it('form bodies are validated like JSON', async () => {
    const { b, inquiry } = await setup();
    expect400(
      await call(b, {
        method: 'POST',
        url: '/v1/todo',
        form: 'urlencoded',
        body: { 'inquiry.id': inquiry.id, type: 'Z', dueDate: '2026-11-25' },
      }),
      {
        type: ['"Z" is not a valid choice.'],
        action: ['This field is required.'],
      },
    );
  });

  it('a path id that is not a positive integer, or unknown → 404 Not found.', async () => {
    const { b } = await setup();
    for (const id of ['abc', '0', '-1', '1.5', '2147483647', '3000000000']) {
      for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
        const res = await call(b, {
          method,
          url: `/v1/todo/${id}`,
          ...(method === 'PATCH' ? { body: { action: 'x' } } : {}),
        });
        expect(res.status, `${method} ${id}`).toBe(404);
        expect(res.body, `${method} ${id}`).toEqual({
          detail: 'Not found.',
          code: 'not_found',
          requestId: res.headers['x-request-id'],
        });
      }
    }
  });

  it('a wrong method → 405 with Allow', async () => {
    const { b } = await setup();
    const item = await call(b, { method: 'PUT', url: '/v1/todo/1', body: {} });
    expect(item.status).toBe(405);
    expect(item.headers.allow).toBe('GET, PATCH, DELETE');
    expect((await call(b, { method: 'DELETE', url: '/v1/todo' })).headers.allow).toBe('GET, POST');
  });
});

describe('GET /v1/todo — query parameter errors', () => {
  const cases: [query: string, key: string, message: string][] = [
    ['due_date_start=2026-13-01', 'due_date_start', DATE_FORMAT],
    ['due_date_end=tomorrow', 'due_date_end', DATE_FORMAT],
    ['inquiry_id=x', 'inquiry_id', 'A valid integer is required.'],
    ['inquiry_id=1.5', 'inquiry_id', 'A valid integer is required.'],
    ['inquiry_id=0', 'inquiry_id', 'Ensure this value is greater than or equal to 1.'],
    ['is_complete=maybe', 'is_complete', 'Must be a valid boolean.'],
    ['page_size=0', 'page_size', 'Ensure this value is greater than or equal to 1.'],
  ];
  for (const [query, key, message] of cases) {
    it(`${query} → 400 {${key}: [${message}]}`, async () => {
      const b = await newBusiness(t);
      expect400(await call(b, { method: 'GET', url: `/v1/todo?${query}` }), { [key]: [message] });
    });
  }

  it('a forged cursor → 404 Invalid cursor; unknown parameters are ignored', async () => {
    const b = await newBusiness(t);
    const res = await call(b, { method: 'GET', url: '/v1/todo?cursor=forged' });
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe('Invalid cursor');
    expect((await call(b, { method: 'GET', url: '/v1/todo?ordering=due_date&type=M' })).status).toBe(200);
  });
});
