/**
 * Tenant isolation of the inquiry ↔ contract link: another business's inquiry in a contract body, or another
 * business's contract in an inquiry body, is a 400 on that property worded like a missing record.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { runOtherBusinessReferenceTest } from '../../setup/common-route-tests.ts';
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

async function inquiryOf(b: TestBusiness): Promise<number> {
  return (await call(b, { method: 'POST', url: '/v1/inquiry', body: {} })).body.id as number;
}
async function contractOf(b: TestBusiness): Promise<number> {
  return (await call(b, { method: 'POST', url: '/v1/contract', body: { title: 'Owned', amount: 1, type: 'G' } })).body
    .id as number;
}

describe('inquiry ↔ contract references across businesses', () => {
  runOtherBusinessReferenceTest(ctx, 'POST /v1/contract inquiry', ['inquiry', 'id'], async (_t, _caller, foreign) => ({
    method: 'POST',
    url: '/v1/contract',
    body: { title: 'X', amount: 1, type: 'G', inquiry: { id: await inquiryOf(foreign) } },
  }));
  runOtherBusinessReferenceTest(
    ctx,
    'PATCH /v1/contract/{contract_id} inquiry',
    ['inquiry', 'id'],
    async (_t, caller, foreign) => ({
      method: 'PATCH',
      url: `/v1/contract/${await contractOf(caller)}`,
      body: { inquiry: { id: await inquiryOf(foreign) } },
    }),
  );
  runOtherBusinessReferenceTest(ctx, 'POST /v1/inquiry contract', ['contract', 'id'], async (_t, _caller, foreign) => ({
    method: 'POST',
    url: '/v1/inquiry',
    body: { contract: { id: await contractOf(foreign) } },
  }));
  runOtherBusinessReferenceTest(
    ctx,
    'PATCH /v1/inquiry/{inquiry_id} contract',
    ['contract', 'id'],
    async (_t, caller, foreign) => ({
      method: 'PATCH',
      url: `/v1/inquiry/${await inquiryOf(caller)}`,
      body: { contract: { id: await contractOf(foreign) } },
    }),
  );
});
