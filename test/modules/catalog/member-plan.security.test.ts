/**
 * The member list's plan gate (spec: Plan constraints — member list only on FREE, TEAM or AGENCY; decisions
 * §2, §7), through the shared plan-gate suite: every plan in turn, decided before the query is validated,
 * and documented in the OpenAPI document like the project and worker gates.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { runPlanGateTests } from '../../setup/plan-gate-tests.ts';
import { apiClient } from '../../setup/api-client.ts';

let t: TestApp;
const { raw } = apiClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});
const ctx = () => t;

const ALLOWED = ['FREE', 'TEAM', 'AGENCY'] as const;

describe('member list plan gate', () => {
  runPlanGateTests(ctx, {
    name: 'GET /v1/member',
    allowed: ALLOWED,
    okStatus: 200,
    request: () => ({ method: 'GET', url: '/v1/member' }),
    invalidRequests: () => [
      { method: 'GET', url: '/v1/member?page_size=0' },
      { method: 'GET', url: '/v1/member?is_active=maybe' },
      { method: 'GET', url: '/v1/member?cursor=forged' },
    ],
  });
});

describe('member list plan gate in the OpenAPI document', () => {
  it('GET /v1/member lists its plans (x-plans) and describes the 403 PLAN_PERMISSION_DENIED', async () => {
    const doc = (await raw(undefined, { method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<
        string,
        Record<string, { description?: string; 'x-plans'?: string[]; responses: Record<string, unknown> }>
      >;
    };
    const op = doc.paths['/v1/member']?.get;
    expect(op).toBeDefined();
    expect(op!['x-plans']).toEqual([...ALLOWED]);
    expect(op!.description).toMatch(/FREE, TEAM and AGENCY plans.*403 `PLAN_PERMISSION_DENIED`/);
    expect(op!.responses['403']).toBeDefined();
  });
});
