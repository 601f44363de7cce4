/**
 * Security suite for every todo route: authentication and signatures, tenant isolation of ids, of the
 * `inquiry` reference and of the member references, and of the `inquiry_id` filter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../setup/build-test-app.ts';
import {
  runCommonRouteTests,
  runOtherBusinessIdTest,
  runOtherBusinessReferenceTest,
} from '../../setup/common-route-tests.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { buildClockedApp, type ClockedApp, newInquiry, newTodo } from './todo-helpers.ts';
import { apiClient } from '../../setup/api-client.ts';

let t: ClockedApp;
beforeAll(async () => {
  t = await buildClockedApp();
});
afterAll(async () => {
  await t.close();
});

const { call } = apiClient(() => t.app);
const ctx = (): TestApp => t;

async function todoOf(b: TestBusiness): Promise<number> {
  const inquiry = await newInquiry(t, b);
  return (await newTodo(t, b, { inquiry: { id: inquiry.id }, type: 'E', dueDate: '2026-11-25', action: 'Owned' }))
    .id as number;
}

describe('todo routes', () => {
  runCommonRouteTests(ctx, {
    name: 'GET /v1/todo',
    okStatus: 200,
    request: () => ({ method: 'GET', url: '/v1/todo' }),
  });
  runCommonRouteTests(ctx, {
    name: 'POST /v1/todo',
    okStatus: 201,
    request: async (_t, b) => ({
      method: 'POST',
      url: '/v1/todo',
      body: { inquiry: { id: (await newInquiry(t, b)).id }, type: 'M', dueDate: '2026-11-25', action: 'Signed' },
    }),
  });
  runCommonRouteTests(ctx, {
    name: 'GET /v1/todo/{todo_id}',
    okStatus: 200,
    request: async (_t, b) => ({ method: 'GET', url: `/v1/todo/${await todoOf(b)}` }),
  });
  runCommonRouteTests(ctx, {
    name: 'PATCH /v1/todo/{todo_id}',
    okStatus: 200,
    request: async (_t, b) => ({ method: 'PATCH', url: `/v1/todo/${await todoOf(b)}`, body: { isComplete: true } }),
  });
  runCommonRouteTests(ctx, {
    name: 'DELETE /v1/todo/{todo_id}',
    okStatus: 204,
    request: async (_t, b) => ({ method: 'DELETE', url: `/v1/todo/${await todoOf(b)}` }),
  });
  // Todos have no plan gate: the whole suite once more on the BASIC plan for the create.
  runCommonRouteTests(ctx, {
    name: 'POST /v1/todo (BASIC plan)',
    okStatus: 201,
    plan: 'BASIC',
    request: async (_t, b) => ({
      method: 'POST',
      url: '/v1/todo',
      body: { inquiry: { id: (await newInquiry(t, b)).id }, type: 'M', dueDate: '2026-11-25', action: 'Basic' },
    }),
  });

  runOtherBusinessIdTest(ctx, 'GET /v1/todo/{todo_id}', async (_t, owner) => ({
    method: 'GET',
    url: `/v1/todo/${await todoOf(owner)}`,
  }));
  runOtherBusinessIdTest(ctx, 'PATCH /v1/todo/{todo_id}', async (_t, owner) => ({
    method: 'PATCH',
    url: `/v1/todo/${await todoOf(owner)}`,
    body: { action: 'Hijacked' },
  }));
  runOtherBusinessIdTest(ctx, 'DELETE /v1/todo/{todo_id}', async (_t, owner) => ({
    method: 'DELETE',
    url: `/v1/todo/${await todoOf(owner)}`,
  }));

  runOtherBusinessReferenceTest(ctx, 'POST /v1/todo inquiry', ['inquiry', 'id'], async (_t, _caller, foreign) => ({
    method: 'POST',
    url: '/v1/todo',
    body: { inquiry: { id: (await newInquiry(t, foreign)).id }, type: 'M', dueDate: '2026-11-25', action: 'x' },
  }));
  runOtherBusinessReferenceTest(ctx, 'POST /v1/todo inCharge', ['inCharge', 'id'], async (_t, caller, foreign) => ({
    method: 'POST',
    url: '/v1/todo',
    body: {
      inquiry: { id: (await newInquiry(t, caller)).id },
      type: 'M',
      dueDate: '2026-11-25',
      action: 'x',
      inCharge: { id: foreign.ids.members.kim },
    },
  }));
  runOtherBusinessReferenceTest(
    ctx,
    'PATCH /v1/todo/{todo_id} inCharge',
    ['inCharge', 'id'],
    async (_t, caller, foreign) => ({
      method: 'PATCH',
      url: `/v1/todo/${await todoOf(caller)}`,
      body: { inCharge: { id: foreign.ids.members.lee } },
    }),
  );
  runOtherBusinessReferenceTest(
    ctx,
    'PATCH /v1/todo/{todo_id} completedInCharge',
    ['completedInCharge', 'id'],
    async (_t, caller, foreign) => ({
      method: 'PATCH',
      url: `/v1/todo/${await todoOf(caller)}`,
      body: { isComplete: true, completedInCharge: { id: foreign.ids.members.kim } },
    }),
  );

  it("never lists another business's todos, not even when filtering by its inquiry id", async () => {
    const a = await newBusiness(t);
    const b = await newBusiness(t);
    const mine = await todoOf(a);
    const theirInquiry = await newInquiry(t, b);
    await newTodo(t, b, { inquiry: { id: theirInquiry.id }, type: 'E', dueDate: '2026-11-25', action: 'Theirs' });
    expect((await call(a, { method: 'GET', url: '/v1/todo' })).body.results.map((r: { id: number }) => r.id)).toEqual([
      mine,
    ]);
    expect((await call(a, { method: 'GET', url: `/v1/todo?inquiry_id=${theirInquiry.id}` })).body.results).toEqual([]);
  });

  it("a PATCH cannot move a todo to another business's inquiry (inquiry is not writable)", async () => {
    const a = await newBusiness(t);
    const b = await newBusiness(t);
    const id = await todoOf(a);
    const before = (await call(a, { method: 'GET', url: `/v1/todo/${id}` })).body;
    const res = await call(a, {
      method: 'PATCH',
      url: `/v1/todo/${id}`,
      body: { inquiry: { id: (await newInquiry(t, b)).id } },
    });
    expect(res.status).toBe(200);
    expect(res.body.inquiry).toEqual(before.inquiry);
  });
});
