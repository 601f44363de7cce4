/** Security suite for every contract and contract-note route, plus tenant isolation of ids and references. */
import { afterAll, beforeAll, describe } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import {
  runCommonRouteTests,
  runOtherBusinessIdTest,
  runOtherBusinessReferenceTest,
} from '../../setup/common-route-tests.ts';
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

async function contractOf(b: TestBusiness): Promise<number> {
  const res = await call(b, { method: 'POST', url: '/v1/contract', body: { title: 'Owned', amount: 1, type: 'G' } });
  return res.body.id as number;
}
async function clientOf(b: TestBusiness): Promise<number> {
  const res = await call(b, { method: 'POST', url: '/v1/client', body: { companyName: 'Owned Ltd.' } });
  return res.body.id as number;
}
async function noteOf(b: TestBusiness): Promise<[number, number]> {
  const contract = await contractOf(b);
  const res = await call(b, { method: 'POST', url: `/v1/contract/${contract}/history`, body: { content: 'note' } });
  return [contract, res.body.id as number];
}

describe('contract routes', () => {
  runCommonRouteTests(ctx, {
    name: 'GET /v1/contract',
    okStatus: 200,
    request: () => ({ method: 'GET', url: '/v1/contract' }),
  });
  runCommonRouteTests(ctx, {
    name: 'POST /v1/contract',
    okStatus: 201,
    request: () => ({ method: 'POST', url: '/v1/contract', body: { title: 'Signed', amount: 5, type: 'I' } }),
  });
  runCommonRouteTests(ctx, {
    name: 'GET /v1/contract/{contract_id}',
    okStatus: 200,
    request: async (_t, b) => ({ method: 'GET', url: `/v1/contract/${await contractOf(b)}` }),
  });
  runCommonRouteTests(ctx, {
    name: 'PATCH /v1/contract/{contract_id}',
    okStatus: 200,
    request: async (_t, b) => ({
      method: 'PATCH',
      url: `/v1/contract/${await contractOf(b)}`,
      body: { title: 'Patched' },
    }),
  });
  runCommonRouteTests(ctx, {
    name: 'DELETE /v1/contract/{contract_id}',
    okStatus: 204,
    request: async (_t, b) => ({ method: 'DELETE', url: `/v1/contract/${await contractOf(b)}` }),
  });
  runCommonRouteTests(ctx, {
    name: 'GET /v1/contract/{contract_id}/history',
    okStatus: 200,
    request: async (_t, b) => ({ method: 'GET', url: `/v1/contract/${await contractOf(b)}/history` }),
  });
  runCommonRouteTests(ctx, {
    name: 'POST /v1/contract/{contract_id}/history',
    okStatus: 201,
    request: async (_t, b) => ({
      method: 'POST',
      url: `/v1/contract/${await contractOf(b)}/history`,
      body: { content: 'Signed note' },
    }),
  });
  runCommonRouteTests(ctx, {
    name: 'GET /v1/contract/{contract_id}/history/{history_id}',
    okStatus: 200,
    request: async (_t, b) => {
      const [c, n] = await noteOf(b);
      return { method: 'GET', url: `/v1/contract/${c}/history/${n}` };
    },
  });
  runCommonRouteTests(ctx, {
    name: 'PATCH /v1/contract/{contract_id}/history/{history_id}',
    okStatus: 200,
    request: async (_t, b) => {
      const [c, n] = await noteOf(b);
      return { method: 'PATCH', url: `/v1/contract/${c}/history/${n}`, body: { content: 'Edited' } };
    },
  });
  runCommonRouteTests(ctx, {
    name: 'DELETE /v1/contract/{contract_id}/history/{history_id}',
    okStatus: 204,
    request: async (_t, b) => {
      const [c, n] = await noteOf(b);
      return { method: 'DELETE', url: `/v1/contract/${c}/history/${n}` };
    },
  });

  runOtherBusinessIdTest(ctx, 'GET /v1/contract/{contract_id}', async (_t, owner) => ({
    method: 'GET',
    url: `/v1/contract/${await contractOf(owner)}`,
  }));
  runOtherBusinessIdTest(ctx, 'PATCH /v1/contract/{contract_id}', async (_t, owner) => ({
    method: 'PATCH',
    url: `/v1/contract/${await contractOf(owner)}`,
    body: { title: 'Hijacked' },
  }));
  runOtherBusinessIdTest(ctx, 'DELETE /v1/contract/{contract_id}', async (_t, owner) => ({
    method: 'DELETE',
    url: `/v1/contract/${await contractOf(owner)}`,
  }));
  runOtherBusinessIdTest(ctx, 'GET /v1/contract/{contract_id}/history', async (_t, owner) => ({
    method: 'GET',
    url: `/v1/contract/${await contractOf(owner)}/history`,
  }));
  runOtherBusinessIdTest(ctx, 'POST /v1/contract/{contract_id}/history', async (_t, owner) => ({
    method: 'POST',
    url: `/v1/contract/${await contractOf(owner)}/history`,
    body: { content: 'Intruder' },
  }));
  runOtherBusinessIdTest(ctx, 'GET /v1/contract/{contract_id}/history/{history_id}', async (_t, owner) => {
    const [c, n] = await noteOf(owner);
    return { method: 'GET', url: `/v1/contract/${c}/history/${n}` };
  });
  runOtherBusinessIdTest(ctx, 'PATCH /v1/contract/{contract_id}/history/{history_id}', async (_t, owner) => {
    const [c, n] = await noteOf(owner);
    return { method: 'PATCH', url: `/v1/contract/${c}/history/${n}`, body: { content: 'Hijacked' } };
  });
  runOtherBusinessIdTest(ctx, 'DELETE /v1/contract/{contract_id}/history/{history_id}', async (_t, owner) => {
    const [c, n] = await noteOf(owner);
    return { method: 'DELETE', url: `/v1/contract/${c}/history/${n}` };
  });

  runOtherBusinessReferenceTest(ctx, 'POST /v1/contract client', ['client', 'id'], async (_t, _caller, foreign) => ({
    method: 'POST',
    url: '/v1/contract',
    body: { title: 'X', amount: 1, type: 'G', client: { id: await clientOf(foreign) } },
  }));
  runOtherBusinessReferenceTest(
    ctx,
    'PATCH /v1/contract/{contract_id} client',
    ['client', 'id'],
    async (_t, caller, foreign) => ({
      method: 'PATCH',
      url: `/v1/contract/${await contractOf(caller)}`,
      body: { client: { id: await clientOf(foreign) } },
    }),
  );
  runOtherBusinessReferenceTest(
    ctx,
    'POST /v1/contract categorySet',
    ['categorySet'],
    async (_t, _caller, foreign) => ({
      method: 'POST',
      url: '/v1/contract',
      body: { title: 'X', amount: 1, type: 'G', categorySet: [{ id: foreign.ids.contractCategories.web }] },
    }),
  );
  runOtherBusinessReferenceTest(
    ctx,
    'PATCH /v1/contract/{contract_id} categorySet',
    ['categorySet'],
    async (_t, caller, foreign) => ({
      method: 'PATCH',
      url: `/v1/contract/${await contractOf(caller)}`,
      body: { categorySet: [{ id: foreign.ids.contractCategories.design }] },
    }),
  );
  runOtherBusinessReferenceTest(ctx, 'POST /v1/contract fieldSet', ['fieldSet'], async (_t, _caller, foreign) => ({
    method: 'POST',
    url: '/v1/contract',
    body: { title: 'X', amount: 1, type: 'G', fieldSet: [{ field: { id: foreign.ids.fields.po }, value: 'x' }] },
  }));
  runOtherBusinessReferenceTest(
    ctx,
    'POST /v1/contract/{contract_id}/history member',
    ['member', 'id'],
    async (_t, caller, foreign) => ({
      method: 'POST',
      url: `/v1/contract/${await contractOf(caller)}/history`,
      body: { content: 'x', member: { id: foreign.ids.members.kim } },
    }),
  );
});
