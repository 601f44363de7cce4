/** Security suite for every inquiry route, plus tenant isolation of ids and references. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import {
  runCommonRouteTests,
  runOtherBusinessIdTest,
  runOtherBusinessReferenceTest,
} from '../../setup/common-route-tests.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { createClient, createInquiry } from './inquiry-helpers.ts';
import { apiClient } from '../../setup/api-client.ts';

let t: TestApp;
const { call, listIds } = apiClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});
const ctx = () => t;

async function inquiryOf(b: TestBusiness, body: Record<string, unknown> = { name: 'Owned' }): Promise<number> {
  return (await createInquiry(t, b, body)).id as number;
}

describe('inquiry routes', () => {
  runCommonRouteTests(ctx, {
    name: 'GET /v1/inquiry',
    okStatus: 200,
    request: () => ({ method: 'GET', url: '/v1/inquiry' }),
  });
  runCommonRouteTests(ctx, {
    name: 'POST /v1/inquiry',
    okStatus: 201,
    request: () => ({ method: 'POST', url: '/v1/inquiry', body: { name: 'Signed inquiry' } }),
  });
  runCommonRouteTests(ctx, {
    name: 'GET /v1/inquiry/work',
    okStatus: 200,
    request: () => ({ method: 'GET', url: '/v1/inquiry/work' }),
  });
  runCommonRouteTests(ctx, {
    name: 'GET /v1/inquiry/{inquiry_id}',
    okStatus: 200,
    request: async (_t, b) => ({ method: 'GET', url: `/v1/inquiry/${await inquiryOf(b)}` }),
  });
  runCommonRouteTests(ctx, {
    name: 'PATCH /v1/inquiry/{inquiry_id}',
    okStatus: 200,
    request: async (_t, b) => ({
      method: 'PATCH',
      url: `/v1/inquiry/${await inquiryOf(b)}`,
      body: { name: 'Renamed' },
    }),
  });
  runCommonRouteTests(ctx, {
    name: 'DELETE /v1/inquiry/{inquiry_id}',
    okStatus: 204,
    request: async (_t, b) => ({ method: 'DELETE', url: `/v1/inquiry/${await inquiryOf(b)}` }),
  });

  runOtherBusinessIdTest(ctx, 'GET /v1/inquiry/{inquiry_id}', async (_t, owner) => ({
    method: 'GET',
    url: `/v1/inquiry/${await inquiryOf(owner)}`,
  }));
  runOtherBusinessIdTest(ctx, 'PATCH /v1/inquiry/{inquiry_id}', async (_t, owner) => ({
    method: 'PATCH',
    url: `/v1/inquiry/${await inquiryOf(owner)}`,
    body: { name: 'Hijacked' },
  }));
  runOtherBusinessIdTest(ctx, 'DELETE /v1/inquiry/{inquiry_id}', async (_t, owner) => ({
    method: 'DELETE',
    url: `/v1/inquiry/${await inquiryOf(owner)}`,
  }));

  for (const method of ['POST', 'PATCH'] as const) {
    const target = async (caller: TestBusiness) =>
      method === 'POST' ? '/v1/inquiry' : `/v1/inquiry/${await inquiryOf(caller)}`;
    runOtherBusinessReferenceTest(ctx, `${method} status`, ['status', 'id'], async (_t, caller, foreign) => ({
      method,
      url: await target(caller),
      body: { status: { id: foreign.ids.statuses.won } },
    }));
    runOtherBusinessReferenceTest(ctx, `${method} client`, ['client', 'id'], async (_t, caller, foreign) => ({
      method,
      url: await target(caller),
      body: { client: { id: await createClient(t, foreign) } },
    }));
    runOtherBusinessReferenceTest(ctx, `${method} inChargeSet`, ['inChargeSet'], async (_t, caller, foreign) => ({
      method,
      url: await target(caller),
      body: { inChargeSet: [{ id: foreign.ids.members.kim }] },
    }));
    runOtherBusinessReferenceTest(ctx, `${method} fieldSet`, ['fieldSet'], async (_t, caller, foreign) => ({
      method,
      url: await target(caller),
      body: { fieldSet: [{ field: { id: foreign.ids.fields.budget }, value: '1' }] },
    }));
  }

  it("never lists, counts or searches another business's inquiries", async () => {
    const mine = await newBusiness(t);
    const theirs = await newBusiness(t);
    const own = await inquiryOf(mine, { name: 'Shared words', workSet: [{ name: 'mine' }] });
    await inquiryOf(theirs, { name: 'Shared words', workSet: [{ name: 'theirs' }] });
    expect(await listIds(mine, '/v1/inquiry?search=shared')).toEqual([own]);
    expect(await listIds(mine, `/v1/inquiry?status_id=${theirs.ids.statuses.new}`)).toEqual([]);
    expect(await listIds(mine, `/v1/inquiry?folder_id=${theirs.ids.folders.sales}`)).toEqual([]);
    const work = await call(mine, { method: 'GET', url: '/v1/inquiry/work' });
    expect(work.body.results.map((w: { name: string }) => w.name)).toEqual(['mine']);
  });
});
