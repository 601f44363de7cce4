/**
 * The security suite of a plain collection (`/v1/<resource>` and `/v1/<resource>/{<resource>_id}`), generated
 * from one row per resource (test/modules/resource.security.test.ts holds the table): authentication and
 * signatures on every route ({@link runCommonRouteTests}), tenant isolation of ids and of every reference
 * property, a list that never shows nor filters by another business's records, and, for a plan-gated
 * resource, the plan gate on every operation ({@link runPlanGateTests}) and its statement in the OpenAPI
 * document (`x-plans`, the 403 `PLAN_PERMISSION_DENIED`).
 */
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../src/shared/auth-context.ts';
import { apiClient } from './api-client.ts';
import type { TestApp } from './build-test-app.ts';
import { runCommonRouteTests, runOtherBusinessIdTest, runOtherBusinessReferenceTest } from './common-route-tests.ts';
import { newBusiness, type TestBusiness } from './factories.ts';
import { runPlanGateTests } from './plan-gate-tests.ts';
import type { SignedRequest } from './signed-request.ts';

type Body = Record<string, unknown>;

/** One resource's row of the security table. */
export interface ResourceSecurityRow {
  /** The collection's name: its routes are `/v1/<resource>` and `/v1/<resource>/{<resource>_id}`. */
  resource: string;
  /** The body creating one record of business `b` named `name` (the suite's own records). */
  create: (b: TestBusiness, name?: string) => Body;
  /** The body of the signed `POST` every route test sends. */
  post: (b: TestBusiness) => Body;
  /** The body of the signed `PATCH` every route test sends. */
  patch: Body;
  /** The route (`GET` list or `POST` create) whose whole suite runs once more on the FREE plan. */
  freePlan?: 'GET' | 'POST';
  /** The `PATCH` body another business sends to a record it does not own. */
  hijack: Body;
  /**
   * The reference properties of the create and update bodies: `caller` sending `foreign`'s record at
   * `property` gets 400 there and writes nothing. `label` names the test beside the route (`fieldSet`).
   */
  references: {
    method: 'POST' | 'PATCH';
    label?: string;
    property: string[];
    body: (foreign: TestBusiness) => Promise<Body> | Body;
  }[];
  /**
   * The list's isolation: `title` names the test; `foreignFilter(b)` answers a list URL filtering by one of
   * `b`'s records (creating what it needs), which another business's list must answer empty.
   */
  listIsolation?: { title: string; foreignFilter: (b: TestBusiness) => Promise<string> | string };
  /** The plan gate of every operation, for a resource only some plans may call. */
  planGates?: {
    allowed: readonly Plan[];
    /** The operations' description of the gate, as the OpenAPI document states it. */
    described: RegExp;
    /** Invalid list queries (`?status=Z`). */
    listInvalid: string[];
    /** A valid create body. */
    post: Body;
    /** Invalid create requests (a bad body, or raw bytes). */
    postInvalid: Pick<SignedRequest, 'body' | 'raw'>[];
    /** A valid update body. */
    patch: Body;
    /** An update body invalid for an existing record. */
    patchInvalid: Body;
    /** An update body, sent to a missing record. */
    patchMissing: Body;
  };
}

/** Registers the security suite of `row` (see the module's description) on the test app `ctx()` answers. */
export function runResourceSecurityTests(ctx: () => TestApp, row: ResourceSecurityRow): void {
  const { call } = apiClient(() => ctx().app);
  const { resource } = row;
  const list = `/v1/${resource}`;
  const item = `/v1/${resource}/{${resource}_id}`;
  const recordOf = async (b: TestBusiness, name?: string): Promise<number> => {
    const res = await call(b, { method: 'POST', url: list, body: row.create(b, name) });
    expect(res.status).toBe(201);
    return res.body.id as number;
  };
  const at = async (b: TestBusiness) => `${list}/${await recordOf(b)}`;

  describe(`${resource} routes`, () => {
    const routes: {
      name: string;
      okStatus: number;
      request: (t: TestApp, b: TestBusiness) => Promise<SignedRequest> | SignedRequest;
    }[] = [
      { name: `GET ${list}`, okStatus: 200, request: () => ({ method: 'GET', url: list }) },
      { name: `POST ${list}`, okStatus: 201, request: (_t, b) => ({ method: 'POST', url: list, body: row.post(b) }) },
      { name: `GET ${item}`, okStatus: 200, request: async (_t, b) => ({ method: 'GET', url: await at(b) }) },
      {
        name: `PATCH ${item}`,
        okStatus: 200,
        request: async (_t, b) => ({ method: 'PATCH', url: await at(b), body: row.patch }),
      },
      { name: `DELETE ${item}`, okStatus: 204, request: async (_t, b) => ({ method: 'DELETE', url: await at(b) }) },
    ];
    for (const route of routes) runCommonRouteTests(ctx, route);
    if (row.freePlan) {
      const route = routes[row.freePlan === 'GET' ? 0 : 1]!;
      runCommonRouteTests(ctx, { ...route, name: `${route.name} (FREE plan)`, plan: 'FREE' });
    }

    runOtherBusinessIdTest(ctx, `GET ${item}`, async (_t, owner) => ({ method: 'GET', url: await at(owner) }));
    runOtherBusinessIdTest(ctx, `PATCH ${item}`, async (_t, owner) => ({
      method: 'PATCH',
      url: await at(owner),
      body: row.hijack,
    }));
    runOtherBusinessIdTest(ctx, `DELETE ${item}`, async (_t, owner) => ({ method: 'DELETE', url: await at(owner) }));

    for (const ref of row.references) {
      const name = `${ref.method} ${ref.method === 'POST' ? list : item}${ref.label ? ` ${ref.label}` : ''}`;
      runOtherBusinessReferenceTest(ctx, name, ref.property, async (_t, caller, foreign) =>
        ref.method === 'POST'
          ? { method: 'POST', url: list, body: await ref.body(foreign) }
          : { method: 'PATCH', url: await at(caller), body: await ref.body(foreign) },
      );
    }

    const isolation = row.listIsolation;
    if (isolation) {
      it(isolation.title, async () => {
        const a = await newBusiness(ctx());
        const b = await newBusiness(ctx());
        const mine = await recordOf(a, 'Mine');
        await recordOf(b, 'Theirs');
        const res = await call(a, { method: 'GET', url: list });
        expect(res.body.results.map((r: { id: number }) => r.id)).toEqual([mine]);
        const foreign = await call(a, { method: 'GET', url: await isolation.foreignFilter(b) });
        expect(foreign.body.results).toEqual([]);
      });
    }
  });

  const gates = row.planGates;
  if (!gates) return;

  describe(`${resource} plan gates`, () => {
    /** Every row of the resource's table for a business, deleted or not, as stored. */
    const snapshot = (t: TestApp, b: TestBusiness) =>
      t.testDb.db
        .selectFrom(resource as 'project')
        .selectAll()
        .where('business_id', '=', b.businessId)
        .orderBy('id')
        .execute();
    const { allowed } = gates;

    runPlanGateTests(ctx, {
      name: `GET ${list}`,
      allowed,
      okStatus: 200,
      request: () => ({ method: 'GET', url: list }),
      invalidRequests: () => gates.listInvalid.map((query) => ({ method: 'GET', url: `${list}${query}` })),
    });
    runPlanGateTests(ctx, {
      name: `POST ${list}`,
      allowed,
      okStatus: 201,
      request: () => ({ method: 'POST', url: list, body: gates.post }),
      snapshot,
      invalidRequests: () => gates.postInvalid.map((req) => ({ method: 'POST', url: list, ...req })),
    });
    runPlanGateTests(ctx, {
      name: `GET ${item}`,
      allowed,
      okStatus: 200,
      request: async (_t, b) => ({ method: 'GET', url: await at(b) }),
      invalidRequests: () => [{ method: 'GET', url: `${list}/2147483647` }],
    });
    runPlanGateTests(ctx, {
      name: `PATCH ${item}`,
      allowed,
      okStatus: 200,
      request: async (_t, b) => ({ method: 'PATCH', url: await at(b), body: gates.patch }),
      snapshot,
      invalidRequests: async (_t, b) => [
        { method: 'PATCH', url: `${list}/2147483647`, body: gates.patchMissing },
        { method: 'PATCH', url: await at(b), body: gates.patchInvalid },
      ],
    });
    runPlanGateTests(ctx, {
      name: `DELETE ${item}`,
      allowed,
      okStatus: 204,
      request: async (_t, b) => ({ method: 'DELETE', url: await at(b) }),
      snapshot,
      invalidRequests: () => [{ method: 'DELETE', url: `${list}/2147483647` }],
    });
  });

  describe(`${resource} plan gates in the OpenAPI document`, () => {
    it(`every ${resource} operation lists its plans (x-plans) and describes the 403 PLAN_PERMISSION_DENIED`, async () => {
      // The served document as published (unsigned), not the dereferenced copy the conformance check reads.
      const doc = (await apiClient(ctx().app).raw(undefined, { method: 'GET', url: '/openapi.json' })).json() as {
        paths: Record<
          string,
          Record<string, { description?: string; 'x-plans'?: string[]; responses: Record<string, unknown> }>
        >;
      };
      const operations = [
        [list, 'get'],
        [list, 'post'],
        [item, 'get'],
        [item, 'patch'],
        [item, 'delete'],
      ] as const;
      for (const [path, method] of operations) {
        const op = doc.paths[path]?.[method];
        expect(op, `${method} ${path}`).toBeDefined();
        expect(op!['x-plans'], `${method} ${path}`).toEqual([...gates.allowed]);
        expect(op!.description, `${method} ${path}`).toMatch(gates.described);
        expect(op!.responses['403'], `${method} ${path}`).toBeDefined();
      }
    });
  });
}
