/**
 * Security suite for every worker route: authentication and signatures, tenant isolation of ids and of the
 * `position` reference, and the plan gate (spec: Plan constraints — FREE and AGENCY only) on every operation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { runCommonRouteTests, runOtherBusinessIdTest, runOtherBusinessReferenceTest } from '../../setup/common-route-tests.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { runPlanGateTests } from '../../setup/plan-gate-tests.ts';
import { type SignedRequest } from '../../setup/signed-request.ts';
import { apiClient } from '../../setup/api-client.ts';

let t: TestApp;
const { call } = apiClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});
const ctx = () => t;

async function workerOf(b: TestBusiness, name = 'Owned worker'): Promise<number> {
  const res = await call(b, { method: 'POST', url: '/v1/worker', body: { name, position: { id: b.ids.positions.dev } } });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

/** Every worker row of a business, deleted or not, as stored. */
async function workerRows(t: TestApp, b: TestBusiness) {
  return t.testDb.db.selectFrom('worker').selectAll().where('business_id', '=', b.businessId).orderBy('id').execute();
}

const ALLOWED = ['FREE', 'AGENCY'] as const;

describe('worker routes', () => {
  const routes: { name: string; okStatus: number; request: (t: TestApp, b: TestBusiness) => Promise<SignedRequest> | SignedRequest }[] = [
    { name: 'GET /v1/worker', okStatus: 200, request: () => ({ method: 'GET', url: '/v1/worker' }) },
    { name: 'POST /v1/worker', okStatus: 201, request: (_t, b) => ({ method: 'POST', url: '/v1/worker', body: { name: 'Signed', position: { id: b.ids.positions.dev } } }) },
    { name: 'GET /v1/worker/{worker_id}', okStatus: 200, request: async (_t, b) => ({ method: 'GET', url: `/v1/worker/${await workerOf(b)}` }) },
    {
      name: 'PATCH /v1/worker/{worker_id}',
      okStatus: 200,
      request: async (_t, b) => ({ method: 'PATCH', url: `/v1/worker/${await workerOf(b)}`, body: { order: 3 } }),
    },
    { name: 'DELETE /v1/worker/{worker_id}', okStatus: 204, request: async (_t, b) => ({ method: 'DELETE', url: `/v1/worker/${await workerOf(b)}` }) },
  ];
  for (const route of routes) runCommonRouteTests(ctx, route);
  runCommonRouteTests(ctx, { ...routes[1]!, name: 'POST /v1/worker (FREE plan)', plan: 'FREE' });

  runOtherBusinessIdTest(ctx, 'GET /v1/worker/{worker_id}', async (_t, owner) => ({ method: 'GET', url: `/v1/worker/${await workerOf(owner)}` }));
  runOtherBusinessIdTest(ctx, 'PATCH /v1/worker/{worker_id}', async (_t, owner) => ({
    method: 'PATCH',
    url: `/v1/worker/${await workerOf(owner)}`,
    body: { name: 'Hijacked' },
  }));
  runOtherBusinessIdTest(ctx, 'DELETE /v1/worker/{worker_id}', async (_t, owner) => ({ method: 'DELETE', url: `/v1/worker/${await workerOf(owner)}` }));

  runOtherBusinessReferenceTest(ctx, 'POST /v1/worker', ['position', 'id'], async (_t, _caller, foreign) => ({
    method: 'POST',
    url: '/v1/worker',
    body: { name: 'X', position: { id: foreign.ids.positions.dev } },
  }));
  runOtherBusinessReferenceTest(ctx, 'PATCH /v1/worker/{worker_id}', ['position', 'id'], async (_t, caller, foreign) => ({
    method: 'PATCH',
    url: `/v1/worker/${await workerOf(caller)}`,
    body: { position: { id: foreign.ids.positions.dev } },
  }));

  it("never lists another business's workers, nor filters by its position", async () => {
    const a = await newBusiness(t);
    const b = await newBusiness(t);
    const mine = await workerOf(a, 'Mine');
    await workerOf(b, 'Theirs');
    const res = await call(a, { method: 'GET', url: '/v1/worker' });
    expect(res.body.results.map((w: { id: number }) => w.id)).toEqual([mine]);
    const foreign = await call(a, { method: 'GET', url: `/v1/worker?position_id=${b.ids.positions.dev}` });
    expect(foreign.body.results).toEqual([]);
  });
});

describe('worker plan gates', () => {
  const snapshot = (t: TestApp, b: TestBusiness) => workerRows(t, b);

  runPlanGateTests(ctx, {
    name: 'GET /v1/worker',
    allowed: ALLOWED,
    okStatus: 200,
    request: () => ({ method: 'GET', url: '/v1/worker' }),
    invalidRequests: () => [
      { method: 'GET', url: '/v1/worker?position_id=x' },
      { method: 'GET', url: '/v1/worker?is_hidden=maybe' },
      { method: 'GET', url: '/v1/worker?cursor=forged' },
    ],
  });
  runPlanGateTests(ctx, {
    name: 'POST /v1/worker',
    allowed: ALLOWED,
    okStatus: 201,
    request: () => ({ method: 'POST', url: '/v1/worker', body: { name: 'Denied?' } }),
    snapshot,
    invalidRequests: () => [
      { method: 'POST', url: '/v1/worker', body: {} },
      { method: 'POST', url: '/v1/worker', body: { name: 'x', position: { id: 2147483647 } } },
      { method: 'POST', url: '/v1/worker', raw: { payload: '{"name": ', contentType: 'application/json' } },
      { method: 'POST', url: '/v1/worker', raw: { payload: 'name=x', contentType: 'text/plain' } },
    ],
  });
  runPlanGateTests(ctx, {
    name: 'GET /v1/worker/{worker_id}',
    allowed: ALLOWED,
    okStatus: 200,
    request: async (_t, b) => ({ method: 'GET', url: `/v1/worker/${await workerOf(b)}` }),
    invalidRequests: () => [{ method: 'GET', url: '/v1/worker/2147483647' }],
  });
  runPlanGateTests(ctx, {
    name: 'PATCH /v1/worker/{worker_id}',
    allowed: ALLOWED,
    okStatus: 200,
    request: async (_t, b) => ({ method: 'PATCH', url: `/v1/worker/${await workerOf(b)}`, body: { name: 'Changed', position: null, manMonthAmount: 5 } }),
    snapshot,
    invalidRequests: async (_t, b) => [
      { method: 'PATCH', url: '/v1/worker/2147483647', body: { name: 'x' } },
      { method: 'PATCH', url: `/v1/worker/${await workerOf(b)}`, body: { order: -1 } },
    ],
  });
  runPlanGateTests(ctx, {
    name: 'DELETE /v1/worker/{worker_id}',
    allowed: ALLOWED,
    okStatus: 204,
    request: async (_t, b) => ({ method: 'DELETE', url: `/v1/worker/${await workerOf(b)}` }),
    snapshot,
    invalidRequests: () => [{ method: 'DELETE', url: '/v1/worker/2147483647' }],
  });
});

describe('worker plan gates in the OpenAPI document', () => {
  it('every worker operation lists its plans (x-plans) and describes the 403 PLAN_PERMISSION_DENIED', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { description?: string; 'x-plans'?: string[]; responses: Record<string, unknown> }>>;
    };
    const operations = [
      ['/v1/worker', 'get'],
      ['/v1/worker', 'post'],
      ['/v1/worker/{worker_id}', 'get'],
      ['/v1/worker/{worker_id}', 'patch'],
      ['/v1/worker/{worker_id}', 'delete'],
    ] as const;
    for (const [path, method] of operations) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op!['x-plans'], `${method} ${path}`).toEqual(['FREE', 'AGENCY']);
      expect(op!.description, `${method} ${path}`).toMatch(/FREE and AGENCY plans: any other plan gets 403 `PLAN_PERMISSION_DENIED`/);
      expect(op!.responses['403'], `${method} ${path}`).toBeDefined();
    }
  });
});
