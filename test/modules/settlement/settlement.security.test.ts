/** Security suite for every settlement route (with status history and notes), plus tenant isolation. */
import { afterAll, beforeAll, describe } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import {
  runCommonRouteTests,
  runOtherBusinessIdTest,
  runOtherBusinessReferenceTest,
} from '../../setup/common-route-tests.ts';
import type { TestBusiness } from '../../setup/factories.ts';
import { contractFor, createSettlement, settlementBody } from './settlement-helpers.ts';
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

/** A settlement of `b` (the test catalog's multi-round type `sub`). */
async function settlementOf(b: TestBusiness): Promise<number> {
  const c = await contractFor(t, b);
  return (await createSettlement(t, b, c.id, b.ids.settlementTypes.sub)).id as number;
}
async function noteOf(b: TestBusiness): Promise<[number, number]> {
  const s = await settlementOf(b);
  const res = await call(b, { method: 'POST', url: `/v1/settlement/${s}/history`, body: { content: 'note' } });
  return [s, res.body.id as number];
}

describe('settlement routes', () => {
  runCommonRouteTests(ctx, {
    name: 'GET /v1/settlement',
    okStatus: 200,
    request: () => ({ method: 'GET', url: '/v1/settlement' }),
  });
  runCommonRouteTests(ctx, {
    name: 'POST /v1/settlement',
    okStatus: 201,
    request: async (_t, b) => ({
      method: 'POST',
      url: '/v1/settlement',
      body: settlementBody((await contractFor(t, b)).id, b.ids.settlementTypes.sub),
    }),
  });
  runCommonRouteTests(ctx, {
    name: 'GET /v1/settlement/{settlement_id}',
    okStatus: 200,
    request: async (_t, b) => ({ method: 'GET', url: `/v1/settlement/${await settlementOf(b)}` }),
  });
  runCommonRouteTests(ctx, {
    name: 'PATCH /v1/settlement/{settlement_id}',
    okStatus: 200,
    request: async (_t, b) => ({
      method: 'PATCH',
      url: `/v1/settlement/${await settlementOf(b)}`,
      body: { status: 'S' },
    }),
  });
  runCommonRouteTests(ctx, {
    name: 'DELETE /v1/settlement/{settlement_id}',
    okStatus: 204,
    request: async (_t, b) => ({ method: 'DELETE', url: `/v1/settlement/${await settlementOf(b)}` }),
  });
  runCommonRouteTests(ctx, {
    name: 'GET /v1/settlement/{settlement_id}/status_history',
    okStatus: 200,
    request: async (_t, b) => ({ method: 'GET', url: `/v1/settlement/${await settlementOf(b)}/status_history` }),
  });
  runCommonRouteTests(ctx, {
    name: 'GET /v1/settlement/{settlement_id}/history',
    okStatus: 200,
    request: async (_t, b) => ({ method: 'GET', url: `/v1/settlement/${await settlementOf(b)}/history` }),
  });
  runCommonRouteTests(ctx, {
    name: 'POST /v1/settlement/{settlement_id}/history',
    okStatus: 201,
    request: async (_t, b) => ({
      method: 'POST',
      url: `/v1/settlement/${await settlementOf(b)}/history`,
      body: { content: 'Signed' },
    }),
  });
  runCommonRouteTests(ctx, {
    name: 'GET /v1/settlement/{settlement_id}/history/{history_id}',
    okStatus: 200,
    request: async (_t, b) => {
      const [s, n] = await noteOf(b);
      return { method: 'GET', url: `/v1/settlement/${s}/history/${n}` };
    },
  });
  runCommonRouteTests(ctx, {
    name: 'PATCH /v1/settlement/{settlement_id}/history/{history_id}',
    okStatus: 200,
    request: async (_t, b) => {
      const [s, n] = await noteOf(b);
      return { method: 'PATCH', url: `/v1/settlement/${s}/history/${n}`, body: { content: 'Edited' } };
    },
  });
  runCommonRouteTests(ctx, {
    name: 'DELETE /v1/settlement/{settlement_id}/history/{history_id}',
    okStatus: 204,
    request: async (_t, b) => {
      const [s, n] = await noteOf(b);
      return { method: 'DELETE', url: `/v1/settlement/${s}/history/${n}` };
    },
  });

  runOtherBusinessIdTest(ctx, 'GET /v1/settlement/{settlement_id}', async (_t, owner) => ({
    method: 'GET',
    url: `/v1/settlement/${await settlementOf(owner)}`,
  }));
  runOtherBusinessIdTest(ctx, 'PATCH /v1/settlement/{settlement_id}', async (_t, owner) => ({
    method: 'PATCH',
    url: `/v1/settlement/${await settlementOf(owner)}`,
    body: { status: 'P' },
  }));
  runOtherBusinessIdTest(ctx, 'DELETE /v1/settlement/{settlement_id}', async (_t, owner) => ({
    method: 'DELETE',
    url: `/v1/settlement/${await settlementOf(owner)}`,
  }));
  runOtherBusinessIdTest(ctx, 'GET /v1/settlement/{settlement_id}/status_history', async (_t, owner) => ({
    method: 'GET',
    url: `/v1/settlement/${await settlementOf(owner)}/status_history`,
  }));
  runOtherBusinessIdTest(ctx, 'GET /v1/settlement/{settlement_id}/history', async (_t, owner) => ({
    method: 'GET',
    url: `/v1/settlement/${await settlementOf(owner)}/history`,
  }));
  runOtherBusinessIdTest(ctx, 'POST /v1/settlement/{settlement_id}/history', async (_t, owner) => ({
    method: 'POST',
    url: `/v1/settlement/${await settlementOf(owner)}/history`,
    body: { content: 'Intruder' },
  }));
  runOtherBusinessIdTest(ctx, 'GET /v1/settlement/{settlement_id}/history/{history_id}', async (_t, owner) => {
    const [s, n] = await noteOf(owner);
    return { method: 'GET', url: `/v1/settlement/${s}/history/${n}` };
  });
  runOtherBusinessIdTest(ctx, 'PATCH /v1/settlement/{settlement_id}/history/{history_id}', async (_t, owner) => {
    const [s, n] = await noteOf(owner);
    return { method: 'PATCH', url: `/v1/settlement/${s}/history/${n}`, body: { content: 'Hijacked' } };
  });
  runOtherBusinessIdTest(ctx, 'DELETE /v1/settlement/{settlement_id}/history/{history_id}', async (_t, owner) => {
    const [s, n] = await noteOf(owner);
    return { method: 'DELETE', url: `/v1/settlement/${s}/history/${n}` };
  });

  runOtherBusinessReferenceTest(
    ctx,
    'POST /v1/settlement contract',
    ['contract', 'id'],
    async (_t, caller, foreign) => ({
      method: 'POST',
      url: '/v1/settlement',
      body: settlementBody((await contractFor(t, foreign)).id, caller.ids.settlementTypes.sub),
    }),
  );
  runOtherBusinessReferenceTest(ctx, 'POST /v1/settlement type', ['type', 'id'], async (_t, caller, foreign) => ({
    method: 'POST',
    url: '/v1/settlement',
    body: settlementBody((await contractFor(t, caller)).id, foreign.ids.settlementTypes.sub),
  }));
  runOtherBusinessReferenceTest(
    ctx,
    'POST /v1/settlement inChargeSet',
    ['inChargeSet'],
    async (_t, caller, foreign) => ({
      method: 'POST',
      url: '/v1/settlement',
      body: settlementBody((await contractFor(t, caller)).id, caller.ids.settlementTypes.sub, {
        inChargeSet: [{ id: foreign.ids.members.kim }],
      }),
    }),
  );
  runOtherBusinessReferenceTest(
    ctx,
    'PATCH /v1/settlement/{settlement_id} inChargeSet',
    ['inChargeSet'],
    async (_t, caller, foreign) => ({
      method: 'PATCH',
      url: `/v1/settlement/${await settlementOf(caller)}`,
      body: { inChargeSet: [{ id: foreign.ids.members.lee }] },
    }),
  );
  runOtherBusinessReferenceTest(
    ctx,
    'POST /v1/settlement/{settlement_id}/history member',
    ['member', 'id'],
    async (_t, caller, foreign) => ({
      method: 'POST',
      url: `/v1/settlement/${await settlementOf(caller)}/history`,
      body: { content: 'x', member: { id: foreign.ids.members.kim } },
    }),
  );
});
