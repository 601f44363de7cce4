/** Security suite for every client route, plus tenant isolation of ids and references. */
import { afterAll, beforeAll, describe } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { runCommonRouteTests, runOtherBusinessIdTest, runOtherBusinessReferenceTest } from '../../setup/common-route-tests.ts';
import type { TestBusiness } from '../../setup/factories.ts';
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

async function clientOf(b: TestBusiness): Promise<number> {
  const res = await call(b, { method: 'POST', url: '/v1/client', body: { companyName: 'Owned Ltd.' } });
  return res.body.id as number;
}

describe('client routes', () => {
  runCommonRouteTests(ctx, { name: 'GET /v1/client', okStatus: 200, request: () => ({ method: 'GET', url: '/v1/client' }) });
  runCommonRouteTests(ctx, {
    name: 'POST /v1/client',
    okStatus: 201,
    request: () => ({ method: 'POST', url: '/v1/client', body: { companyName: 'Signed Co.' } }),
  });
  runCommonRouteTests(ctx, {
    name: 'GET /v1/client/{client_id}',
    okStatus: 200,
    request: async (_t, b) => ({ method: 'GET', url: `/v1/client/${await clientOf(b)}` }),
  });
  runCommonRouteTests(ctx, {
    name: 'PATCH /v1/client/{client_id}',
    okStatus: 200,
    request: async (_t, b) => ({ method: 'PATCH', url: `/v1/client/${await clientOf(b)}`, body: { contact: '010' } }),
  });
  runCommonRouteTests(ctx, {
    name: 'DELETE /v1/client/{client_id}',
    okStatus: 204,
    request: async (_t, b) => ({ method: 'DELETE', url: `/v1/client/${await clientOf(b)}` }),
  });

  runOtherBusinessIdTest(ctx, 'GET /v1/client/{client_id}', async (_t, owner) => ({ method: 'GET', url: `/v1/client/${await clientOf(owner)}` }));
  runOtherBusinessIdTest(ctx, 'PATCH /v1/client/{client_id}', async (_t, owner) => ({
    method: 'PATCH',
    url: `/v1/client/${await clientOf(owner)}`,
    body: { companyName: 'Hijacked' },
  }));
  runOtherBusinessIdTest(ctx, 'DELETE /v1/client/{client_id}', async (_t, owner) => ({ method: 'DELETE', url: `/v1/client/${await clientOf(owner)}` }));

  runOtherBusinessReferenceTest(ctx, 'POST /v1/client', ['status', 'id'], async (_t, _caller, foreign) => ({
    method: 'POST',
    url: '/v1/client',
    body: { companyName: 'X', status: { id: foreign.ids.clientStatuses.lead } },
  }));
  runOtherBusinessReferenceTest(ctx, 'PATCH /v1/client/{client_id}', ['status', 'id'], async (_t, caller, foreign) => ({
    method: 'PATCH',
    url: `/v1/client/${await clientOf(caller)}`,
    body: { status: { id: foreign.ids.clientStatuses.customer } },
  }));
  runOtherBusinessReferenceTest(ctx, 'POST /v1/client fieldSet', ['fieldSet'], async (_t, _caller, foreign) => ({
    method: 'POST',
    url: '/v1/client',
    body: { companyName: 'X', fieldSet: [{ field: { id: foreign.ids.fields.note }, value: 'x' }] },
  }));
});
