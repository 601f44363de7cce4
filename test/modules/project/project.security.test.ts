/**
 * Security suite for every project route: authentication and signatures, tenant isolation of ids, and the
 * plan gate (spec: Plan constraints — FREE and AGENCY only) on every operation.
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

async function projectOf(b: TestBusiness, title = 'Owned project'): Promise<number> {
  const res = await call(b, { method: 'POST', url: '/v1/project', body: { title } });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

/** Every project row of a business, deleted or not, as stored. */
async function projectRows(t: TestApp, b: TestBusiness) {
  return t.testDb.db.selectFrom('project').selectAll().where('business_id', '=', b.businessId).orderBy('id').execute();
}

const ALLOWED = ['FREE', 'AGENCY'] as const;

describe('project routes', () => {
  const routes: { name: string; okStatus: number; request: (t: TestApp, b: TestBusiness) => Promise<SignedRequest> | SignedRequest }[] = [
    { name: 'GET /v1/project', okStatus: 200, request: () => ({ method: 'GET', url: '/v1/project' }) },
    { name: 'POST /v1/project', okStatus: 201, request: () => ({ method: 'POST', url: '/v1/project', body: { title: 'Signed' } }) },
    {
      name: 'GET /v1/project/{project_id}',
      okStatus: 200,
      request: async (_t, b) => ({ method: 'GET', url: `/v1/project/${await projectOf(b)}` }),
    },
    {
      name: 'PATCH /v1/project/{project_id}',
      okStatus: 200,
      request: async (_t, b) => ({ method: 'PATCH', url: `/v1/project/${await projectOf(b)}`, body: { status: 'I' } }),
    },
    {
      name: 'DELETE /v1/project/{project_id}',
      okStatus: 204,
      request: async (_t, b) => ({ method: 'DELETE', url: `/v1/project/${await projectOf(b)}` }),
    },
  ];
  for (const route of routes) runCommonRouteTests(ctx, route);
  // The FREE plan is allowed too: the whole suite once more on it for the list.
  runCommonRouteTests(ctx, { ...routes[0]!, name: 'GET /v1/project (FREE plan)', plan: 'FREE' });

  runOtherBusinessIdTest(ctx, 'GET /v1/project/{project_id}', async (_t, owner) => ({ method: 'GET', url: `/v1/project/${await projectOf(owner)}` }));
  runOtherBusinessIdTest(ctx, 'PATCH /v1/project/{project_id}', async (_t, owner) => ({
    method: 'PATCH',
    url: `/v1/project/${await projectOf(owner)}`,
    body: { title: 'Hijacked' },
  }));
  runOtherBusinessIdTest(ctx, 'DELETE /v1/project/{project_id}', async (_t, owner) => ({ method: 'DELETE', url: `/v1/project/${await projectOf(owner)}` }));

  async function contractOf(b: TestBusiness): Promise<number> {
    const res = await call(b, { method: 'POST', url: '/v1/contract', body: { title: 'Theirs', amount: 1, type: 'G' } });
    expect(res.status).toBe(201);
    return res.body.id as number;
  }
  runOtherBusinessReferenceTest(ctx, 'POST /v1/project', ['contract', 'id'], async (_t, _caller, foreign) => ({
    method: 'POST',
    url: '/v1/project',
    body: { title: 'X', contract: { id: await contractOf(foreign) } },
  }));
  runOtherBusinessReferenceTest(ctx, 'PATCH /v1/project/{project_id}', ['contract', 'id'], async (_t, caller, foreign) => ({
    method: 'PATCH',
    url: `/v1/project/${await projectOf(caller)}`,
    body: { contract: { id: await contractOf(foreign) } },
  }));

  it("never lists another business's projects, nor filters by its contract", async () => {
    const a = await newBusiness(t);
    const b = await newBusiness(t);
    const mine = await projectOf(a, 'Mine');
    await projectOf(b, 'Theirs');
    const res = await call(a, { method: 'GET', url: '/v1/project' });
    expect(res.body.results.map((p: { id: number }) => p.id)).toEqual([mine]);
    const theirs = await contractOf(b);
    await call(b, { method: 'POST', url: '/v1/project', body: { title: 'Linked', contract: { id: theirs } } });
    expect((await call(a, { method: 'GET', url: `/v1/project?contract_id=${theirs}` })).body.results).toEqual([]);
  });
});

describe('project plan gates', () => {
  const snapshot = (t: TestApp, b: TestBusiness) => projectRows(t, b);

  runPlanGateTests(ctx, {
    name: 'GET /v1/project',
    allowed: ALLOWED,
    okStatus: 200,
    request: () => ({ method: 'GET', url: '/v1/project' }),
    invalidRequests: () => [
      { method: 'GET', url: '/v1/project?status=Z' },
      { method: 'GET', url: '/v1/project?page_size=0' },
      { method: 'GET', url: '/v1/project?cursor=forged' },
    ],
  });
  runPlanGateTests(ctx, {
    name: 'POST /v1/project',
    allowed: ALLOWED,
    okStatus: 201,
    request: () => ({ method: 'POST', url: '/v1/project', body: { title: 'Denied?' } }),
    snapshot,
    invalidRequests: () => [
      { method: 'POST', url: '/v1/project', body: {} },
      { method: 'POST', url: '/v1/project', body: { title: 'x', status: 'Z' } },
      { method: 'POST', url: '/v1/project', raw: { payload: '{"title": ', contentType: 'application/json' } },
      { method: 'POST', url: '/v1/project', raw: { payload: 'title=x', contentType: 'text/plain' } },
    ],
  });
  runPlanGateTests(ctx, {
    name: 'GET /v1/project/{project_id}',
    allowed: ALLOWED,
    okStatus: 200,
    request: async (_t, b) => ({ method: 'GET', url: `/v1/project/${await projectOf(b)}` }),
    invalidRequests: () => [{ method: 'GET', url: '/v1/project/2147483647' }],
  });
  runPlanGateTests(ctx, {
    name: 'PATCH /v1/project/{project_id}',
    allowed: ALLOWED,
    okStatus: 200,
    request: async (_t, b) => ({ method: 'PATCH', url: `/v1/project/${await projectOf(b)}`, body: { title: 'Changed', status: 'E' } }),
    snapshot,
    invalidRequests: async (_t, b) => [
      { method: 'PATCH', url: '/v1/project/2147483647', body: { title: 'x' } },
      { method: 'PATCH', url: `/v1/project/${await projectOf(b)}`, body: { title: '' } },
    ],
  });
  runPlanGateTests(ctx, {
    name: 'DELETE /v1/project/{project_id}',
    allowed: ALLOWED,
    okStatus: 204,
    request: async (_t, b) => ({ method: 'DELETE', url: `/v1/project/${await projectOf(b)}` }),
    snapshot,
    invalidRequests: () => [{ method: 'DELETE', url: '/v1/project/2147483647' }],
  });
});

describe('project plan gates in the OpenAPI document', () => {
  it('every project operation lists its plans (x-plans) and describes the 403 PLAN_PERMISSION_DENIED', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { description?: string; 'x-plans'?: string[]; responses: Record<string, unknown> }>>;
    };
    const operations = [
      ['/v1/project', 'get'],
      ['/v1/project', 'post'],
      ['/v1/project/{project_id}', 'get'],
      ['/v1/project/{project_id}', 'patch'],
      ['/v1/project/{project_id}', 'delete'],
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
