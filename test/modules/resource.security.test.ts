/**
 * Security suites of the plain collections, one row per resource (test/setup/resource-security-tests.ts):
 * authentication and signatures on every route, tenant isolation of ids and references, and for projects and
 * workers the plan gate (spec: Plan constraints — FREE and AGENCY only) on every operation.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { apiClient } from '../setup/api-client.ts';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import type { TestBusiness } from '../setup/factories.ts';
import { type ResourceSecurityRow, runResourceSecurityTests } from '../setup/resource-security-tests.ts';

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
  const res = await call(b, { method: 'POST', url: '/v1/contract', body: { title: 'Theirs', amount: 1, type: 'G' } });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

const FREE_AND_AGENCY = {
  allowed: ['FREE', 'AGENCY'],
  described: /FREE and AGENCY plans: any other plan gets 403 `PLAN_PERMISSION_DENIED`/,
} as const;

const ROWS: ResourceSecurityRow[] = [
  {
    resource: 'project',
    create: (_b, title = 'Owned project') => ({ title }),
    post: () => ({ title: 'Signed' }),
    patch: { status: 'I' },
    // The FREE plan is allowed too: the whole suite once more on it for the list.
    freePlan: 'GET',
    hijack: { title: 'Hijacked' },
    references: [
      {
        method: 'POST',
        property: ['contract', 'id'],
        body: async (foreign) => ({ title: 'X', contract: { id: await contractOf(foreign) } }),
      },
      {
        method: 'PATCH',
        property: ['contract', 'id'],
        body: async (foreign) => ({ contract: { id: await contractOf(foreign) } }),
      },
    ],
    listIsolation: {
      title: "never lists another business's projects, nor filters by its contract",
      foreignFilter: async (b) => {
        const theirs = await contractOf(b);
        await call(b, { method: 'POST', url: '/v1/project', body: { title: 'Linked', contract: { id: theirs } } });
        return `/v1/project?contract_id=${theirs}`;
      },
    },
    planGates: {
      ...FREE_AND_AGENCY,
      listInvalid: ['?status=Z', '?page_size=0', '?cursor=forged'],
      post: { title: 'Denied?' },
      postInvalid: [
        { body: {} },
        { body: { title: 'x', status: 'Z' } },
        { raw: { payload: '{"title": ', contentType: 'application/json' } },
        { raw: { payload: 'title=x', contentType: 'text/plain' } },
      ],
      patch: { title: 'Changed', status: 'E' },
      patchMissing: { title: 'x' },
      patchInvalid: { title: '' },
    },
  },
  {
    resource: 'worker',
    create: (b, name = 'Owned worker') => ({ name, position: { id: b.ids.positions.dev } }),
    post: (b) => ({ name: 'Signed', position: { id: b.ids.positions.dev } }),
    patch: { order: 3 },
    freePlan: 'POST',
    hijack: { name: 'Hijacked' },
    references: [
      {
        method: 'POST',
        property: ['position', 'id'],
        body: (foreign) => ({ name: 'X', position: { id: foreign.ids.positions.dev } }),
      },
      {
        method: 'PATCH',
        property: ['position', 'id'],
        body: (foreign) => ({ position: { id: foreign.ids.positions.dev } }),
      },
    ],
    listIsolation: {
      title: "never lists another business's workers, nor filters by its position",
      foreignFilter: (b) => `/v1/worker?position_id=${b.ids.positions.dev}`,
    },
    planGates: {
      ...FREE_AND_AGENCY,
      listInvalid: ['?position_id=x', '?is_hidden=maybe', '?cursor=forged'],
      post: { name: 'Denied?' },
      postInvalid: [
        { body: {} },
        { body: { name: 'x', position: { id: 2147483647 } } },
        { raw: { payload: '{"name": ', contentType: 'application/json' } },
        { raw: { payload: 'name=x', contentType: 'text/plain' } },
      ],
      patch: { name: 'Changed', position: null, manMonthAmount: 5 },
      patchMissing: { name: 'x' },
      patchInvalid: { order: -1 },
    },
  },
  {
    resource: 'client',
    create: () => ({ companyName: 'Owned Ltd.' }),
    post: () => ({ companyName: 'Signed Co.' }),
    patch: { contact: '010' },
    hijack: { companyName: 'Hijacked' },
    references: [
      {
        method: 'POST',
        property: ['status', 'id'],
        body: (foreign) => ({ companyName: 'X', status: { id: foreign.ids.clientStatuses.lead } }),
      },
      {
        method: 'PATCH',
        property: ['status', 'id'],
        body: (foreign) => ({ status: { id: foreign.ids.clientStatuses.customer } }),
      },
      {
        method: 'POST',
        label: 'fieldSet',
        property: ['fieldSet'],
        body: (foreign) => ({ companyName: 'X', fieldSet: [{ field: { id: foreign.ids.fields.note }, value: 'x' }] }),
      },
    ],
  },
];

for (const row of ROWS) runResourceSecurityTests(ctx, row);
