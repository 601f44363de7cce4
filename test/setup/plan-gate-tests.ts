/**
 * The plan-gate suite (spec: Plan constraints; decisions §2, §7): a route that only some plans may call
 * answers 403 `PLAN_PERMISSION_DENIED` on every other plan, writes nothing, and decides so before it reads
 * anything — a missing id, an invalid body or query all still answer 403 on a denied plan.
 */
import { describe, expect, it } from 'vitest';
import { PLANS, type Plan } from '../../src/shared/auth-context.ts';
import type { TestApp } from './build-test-app.ts';
import { newBusiness, type TestBusiness } from './factories.ts';
import { type SignedRequest } from './signed-request.ts';
import { apiClient } from './api-client.ts';

/** A plan-gated route under test. */
export interface GatedRoute {
  /** Label used in test names, e.g. `GET /v1/project`. */
  name: string;
  /** Plans allowed to call the route. */
  allowed: readonly Plan[];
  /** Status of the successful call. */
  okStatus: number;
  /**
   * Builds a valid request for `b`, created while `b` is on the AGENCY plan (it may create records first).
   */
  request: (t: TestApp, b: TestBusiness) => Promise<SignedRequest> | SignedRequest;
  /**
   * Requests that would fail validation or lookup (a missing id, a bad body, query or media type): on a denied plan
   * each must still answer 403, because the plan is decided first.
   */
  invalidRequests?: (t: TestApp, b: TestBusiness) => Promise<SignedRequest[]> | SignedRequest[];
  /**
   * Reads the state the request would change (as a JSON-comparable value), to prove that a denied call
   * wrote nothing. Runs with the business on the AGENCY plan.
   */
  snapshot?: (t: TestApp, b: TestBusiness, req: SignedRequest) => Promise<unknown>;
}

/** Moves a business to another plan (the plan is read on every request). */
export async function setPlan(t: TestApp, b: TestBusiness, plan: Plan): Promise<void> {
  await t.testDb.db.updateTable('business').set({ plan }).where('id', '=', b.businessId).execute();
}

/** Registers the plan-gate tests of one route. `ctx()` returns the test app of the file. */
export function runPlanGateTests(ctx: () => TestApp, route: GatedRoute): void {
  describe(`${route.name} — plan gate`, () => {
    for (const plan of PLANS) {
      const allowed = route.allowed.includes(plan);
      it(
        allowed
          ? `is allowed on the ${plan} plan`
          : `answers 403 PLAN_PERMISSION_DENIED on the ${plan} plan and writes nothing`,
        async () => {
          const t = ctx();
          const b = await newBusiness(t, { plan: 'AGENCY' });
          const req = await route.request(t, b);
          const before = route.snapshot ? await route.snapshot(t, b, req) : undefined;
          await setPlan(t, b, plan);
          if (allowed) {
            const res = await apiClient(t.app).raw(b, req);
            expect(res.statusCode, res.body).toBe(route.okStatus);
            return;
          }
          const res = await apiClient(t.app).call(b, req);
          expect(res.status).toBe(403);
          expect(res.body).toEqual({
            detail: expect.stringContaining(plan),
            code: 'PLAN_PERMISSION_DENIED',
            requestId: expect.any(String),
          });
          await setPlan(t, b, 'AGENCY');
          if (route.snapshot) expect(await route.snapshot(t, b, req)).toEqual(before);
        },
      );
    }

    if (route.invalidRequests) {
      it('decides the plan before reading anything: missing ids and invalid input still answer 403', async () => {
        const t = ctx();
        const denied = PLANS.find((p) => !route.allowed.includes(p))!;
        const b = await newBusiness(t, { plan: 'AGENCY' });
        const requests = await route.invalidRequests!(t, b);
        expect(requests.length).toBeGreaterThan(0);
        // On an allowed plan these requests fail for their own reason …
        for (const req of requests) {
          const res = await apiClient(t.app).raw(b, req);
          expect([400, 404, 415], `${req.method} ${req.url}: ${res.body}`).toContain(res.statusCode);
        }
        // … and on a denied plan the plan answers first.
        await setPlan(t, b, denied);
        for (const req of requests) {
          const res = await apiClient(t.app).call(b, req);
          expect(res.status, `${req.method} ${req.url}`).toBe(403);
          expect(res.body.code).toBe('PLAN_PERMISSION_DENIED');
        }
      });
    }
  });
}
