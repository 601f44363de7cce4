/**
 * Security suite for every estimate item route: authentication and signatures, tenant isolation of ids
 * (404), of the `classification` reference (400) and of the lists, and the absence of a plan restriction
 * (decisions §11: every plan may call every operation).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLANS } from '../../../src/shared/auth-context.ts';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import {
  runCommonRouteTests,
  runOtherBusinessIdTest,
  runOtherBusinessReferenceTest,
} from '../../setup/common-route-tests.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { runPlanGateTests } from '../../setup/plan-gate-tests.ts';
import { type SignedRequest } from '../../setup/signed-request.ts';
import { apiClient } from '../../setup/api-client.ts';

let t: TestApp;
const { call, raw } = apiClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});
const ctx = () => t;

async function itemOf(b: TestBusiness, title = 'Owned item'): Promise<number> {
  const res = await call(b, {
    method: 'POST',
    url: '/v1/estimate/item',
    body: { title, unitCost: '1000', unit: 'EA', classification: { id: b.ids.estimateItemClassifications.design } },
  });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

/** Every estimate item row of a business, as stored. */
async function itemRows(t: TestApp, b: TestBusiness) {
  return t.testDb.db
    .selectFrom('estimate_item')
    .selectAll()
    .where('business_id', '=', b.businessId)
    .orderBy('id')
    .execute();
}

const routes: {
  name: string;
  okStatus: number;
  request: (t: TestApp, b: TestBusiness) => Promise<SignedRequest> | SignedRequest;
}[] = [
  { name: 'GET /v1/estimate/item', okStatus: 200, request: () => ({ method: 'GET', url: '/v1/estimate/item' }) },
  {
    name: 'POST /v1/estimate/item',
    okStatus: 201,
    request: (_t, b) => ({
      method: 'POST',
      url: '/v1/estimate/item',
      body: {
        title: '서명됨',
        unitCost: '-5',
        unit: '식',
        classification: { id: b.ids.estimateItemClassifications.dev },
      },
    }),
  },
  {
    name: 'GET /v1/estimate/item/classification',
    okStatus: 200,
    request: () => ({ method: 'GET', url: '/v1/estimate/item/classification' }),
  },
  {
    name: 'GET /v1/estimate/item/{item_id}',
    okStatus: 200,
    request: async (_t, b) => ({ method: 'GET', url: `/v1/estimate/item/${await itemOf(b)}` }),
  },
  {
    name: 'PATCH /v1/estimate/item/{item_id}',
    okStatus: 200,
    request: async (_t, b) => ({
      method: 'PATCH',
      url: `/v1/estimate/item/${await itemOf(b)}`,
      body: { unitCost: '2000' },
    }),
  },
  {
    name: 'DELETE /v1/estimate/item/{item_id}',
    okStatus: 204,
    request: async (_t, b) => ({ method: 'DELETE', url: `/v1/estimate/item/${await itemOf(b)}` }),
  },
];

describe('estimate item routes', () => {
  for (const route of routes) runCommonRouteTests(ctx, route);
  runCommonRouteTests(ctx, { ...routes[1]!, name: 'POST /v1/estimate/item (BASIC plan)', plan: 'BASIC' });

  runOtherBusinessIdTest(ctx, 'GET /v1/estimate/item/{item_id}', async (_t, owner) => ({
    method: 'GET',
    url: `/v1/estimate/item/${await itemOf(owner)}`,
  }));
  runOtherBusinessIdTest(ctx, 'PATCH /v1/estimate/item/{item_id}', async (_t, owner) => ({
    method: 'PATCH',
    url: `/v1/estimate/item/${await itemOf(owner)}`,
    body: { title: 'Hijacked' },
  }));
  runOtherBusinessIdTest(ctx, 'DELETE /v1/estimate/item/{item_id}', async (_t, owner) => ({
    method: 'DELETE',
    url: `/v1/estimate/item/${await itemOf(owner)}`,
  }));

  runOtherBusinessReferenceTest(
    ctx,
    'POST /v1/estimate/item',
    ['classification', 'id'],
    async (_t, _caller, foreign) => ({
      method: 'POST',
      url: '/v1/estimate/item',
      body: {
        title: 'X',
        unitCost: '1',
        unit: 'EA',
        classification: { id: foreign.ids.estimateItemClassifications.design },
      },
    }),
  );
  runOtherBusinessReferenceTest(
    ctx,
    'PATCH /v1/estimate/item/{item_id}',
    ['classification', 'id'],
    async (_t, caller, foreign) => ({
      method: 'PATCH',
      url: `/v1/estimate/item/${await itemOf(caller)}`,
      body: { classification: { id: foreign.ids.estimateItemClassifications.dev } },
    }),
  );

  it("another business's PATCH and DELETE change nothing of the owner's item", async () => {
    const owner = await newBusiness(t);
    const stranger = await newBusiness(t);
    const id = await itemOf(owner);
    const before = await itemRows(t, owner);
    expect(
      (
        await call(stranger, {
          method: 'PATCH',
          url: `/v1/estimate/item/${id}`,
          body: { title: 'Hijacked', unitCost: '0' },
        })
      ).status,
    ).toBe(404);
    expect((await call(stranger, { method: 'DELETE', url: `/v1/estimate/item/${id}` })).status).toBe(404);
    expect(await itemRows(t, owner)).toEqual(before);
  });

  it("never lists another business's items or classifications", async () => {
    const a = await newBusiness(t);
    const b = await newBusiness(t);
    const mine = await itemOf(a, 'Mine');
    await itemOf(b, 'Theirs');
    const items = await call(a, { method: 'GET', url: '/v1/estimate/item' });
    expect(items.body.results.map((i: { id: number }) => i.id)).toEqual([mine]);
    const searched = await call(a, { method: 'GET', url: '/v1/estimate/item?search=Theirs' });
    expect(searched.body.results).toEqual([]);
    const classifications = await call(a, { method: 'GET', url: '/v1/estimate/item/classification' });
    expect(classifications.body.results.map((c: { id: number }) => c.id)).toEqual([
      a.ids.estimateItemClassifications.design,
      a.ids.estimateItemClassifications.dev,
    ]);
  });
});

describe('estimate items have no plan restriction', () => {
  const snapshot = (t: TestApp, b: TestBusiness) => itemRows(t, b);
  for (const route of routes)
    runPlanGateTests(ctx, { ...route, allowed: PLANS, ...(route.name.startsWith('GET') ? {} : { snapshot }) });

  it('no estimate item operation lists plans (x-plans) in the OpenAPI document', async () => {
    const doc = (await raw(undefined, { method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { operationId: string; 'x-plans'?: string[] }>>;
    };
    const operations = [
      ['/v1/estimate/item', 'get', 'estimate_item_list'],
      ['/v1/estimate/item', 'post', 'estimate_item_create'],
      ['/v1/estimate/item/classification', 'get', 'estimate_item_classification_list'],
      ['/v1/estimate/item/{item_id}', 'get', 'estimate_item_retrieve'],
      ['/v1/estimate/item/{item_id}', 'patch', 'estimate_item_partial_update'],
      ['/v1/estimate/item/{item_id}', 'delete', 'estimate_item_destroy'],
    ] as const;
    for (const [path, method, operationId] of operations) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op!.operationId).toBe(operationId);
      expect(op!['x-plans'], `${method} ${path}`).toBeUndefined();
    }
  });
});
