/**
 * The shared security suite every endpoint runs (architecture rule 10; decisions §2, §3):
 * no key, unknown key, bad signature, unsigned in `required` mode, revoked key, a valid call, and — for
 * routes with an id or with references in the body — another business's id (404) and another business's
 * reference (400 on that property).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSiblingApp, type TestApp } from './build-test-app.ts';
import { newBusiness, newKey, revokeKey, type TestBusiness } from './factories.ts';
import { type SignedRequest } from './signed-request.ts';
import { apiClient } from './api-client.ts';

/** A route under test. `request` builds a request that succeeds for business `b`. */
export interface RouteUnderTest {
  /** Label used in test names, e.g. `GET /v1/client`. */
  name: string;
  /** Builds a valid request for `b` (it may create records first, e.g. the client a PATCH targets). */
  request: (t: TestApp, b: TestBusiness) => Promise<SignedRequest> | SignedRequest;
  /** Status of the successful call. */
  okStatus: number;
  /** Plan to create test businesses with (default AGENCY). */
  plan?: 'FREE' | 'BASIC' | 'TEAM' | 'AGENCY';
}

/**
 * Registers the authentication tests for one route. `ctx()` returns the test app of the file (built in
 * its `beforeAll`).
 */
export function runCommonRouteTests(ctx: () => TestApp, route: RouteUnderTest): void {
  describe(`${route.name} — authentication`, () => {
    let b: TestBusiness;
    let required: FastifyInstance;
    beforeAll(async () => {
      b = await newBusiness(ctx(), { plan: route.plan });
      required = await buildSiblingApp(ctx(), { BIZAPI_SIGNATURE_MODE: 'required' });
    });
    afterAll(async () => {
      await required.close();
    });

    it('succeeds with a valid key and signature', async () => {
      const res = await apiClient(ctx().app).raw(b, await route.request(ctx(), b));
      expect(res.statusCode, res.body).toBe(route.okStatus);
    });

    it('accepts an upper-case hex signature', async () => {
      const res = await apiClient(ctx().app).raw(b, { ...(await route.request(ctx(), b)), upperCaseSignature: true });
      expect(res.statusCode, res.body).toBe(route.okStatus);
    });

    it('answers 401 not_authenticated without X-API-Key', async () => {
      const res = await apiClient(ctx().app).call(undefined, await route.request(ctx(), b));
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'not_authenticated', detail: expect.any(String) });
    });

    it('answers 401 authentication_failed for an unknown key', async () => {
      const res = await apiClient(ctx().app).call(
        { apiKey: 'bz_unknown', secretKey: b.secretKey },
        await route.request(ctx(), b),
      );
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'authentication_failed' });
    });

    it('answers 403 signature_invalid for a wrong signature', async () => {
      const res = await apiClient(ctx().app).call(b, { ...(await route.request(ctx(), b)), signature: 'a'.repeat(64) });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'signature_invalid' });
    });

    it('answers 403 signature_invalid for a signature made with another secret', async () => {
      const res = await apiClient(ctx().app).call(
        { apiKey: b.apiKey, secretKey: 'not-the-secret' },
        await route.request(ctx(), b),
      );
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'signature_invalid' });
    });

    it('accepts an unsigned request in optional mode', async () => {
      const res = await apiClient(ctx().app).raw(b, { ...(await route.request(ctx(), b)), signature: false });
      expect(res.statusCode, res.body).toBe(route.okStatus);
    });

    it('answers 403 signature_required for an unsigned request in required mode, and accepts a signed one', async () => {
      const unsigned = await apiClient(required).call(b, { ...(await route.request(ctx(), b)), signature: false });
      expect(unsigned.status).toBe(403);
      expect(unsigned.body).toMatchObject({ code: 'signature_required' });
      const signed = await apiClient(required).raw(b, await route.request(ctx(), b));
      expect(signed.statusCode, signed.body).toBe(route.okStatus);
    });

    it("answers 401 for a revoked key at once, while the business's other key still works", async () => {
      const doomed = await newKey(ctx(), b.businessId);
      const before = await apiClient(ctx().app).raw(doomed, await route.request(ctx(), b));
      expect(before.statusCode).toBe(route.okStatus);
      await revokeKey(ctx(), doomed);
      const after = await apiClient(ctx().app).call(doomed, await route.request(ctx(), b));
      expect(after.status).toBe(401);
      expect(after.body).toMatchObject({ code: 'authentication_failed' });
      const other = await apiClient(ctx().app).raw(b, await route.request(ctx(), b));
      expect(other.statusCode).toBe(route.okStatus);
    });
  });
}

/**
 * Another business's id answers exactly like a missing one: 404 `{"detail": "Not found."}`.
 * `request(owner)` builds a request for a record that `owner` holds.
 */
export function runOtherBusinessIdTest(
  ctx: () => TestApp,
  name: string,
  request: (t: TestApp, owner: TestBusiness) => Promise<SignedRequest>,
): void {
  it(`${name}: another business's id answers 404 Not found.`, async () => {
    const owner = await newBusiness(ctx());
    const stranger = await newBusiness(ctx());
    const req = await request(ctx(), owner);
    const res = await apiClient(ctx().app).call(stranger, req);
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe('Not found.');
    const mine = await apiClient(ctx().app).raw(owner, req);
    expect(mine.statusCode).toBeLessThan(300);
  });
}

/**
 * A reference to another business's record in a body is a 400 on that property, worded like a missing id.
 * `request(caller, foreign)` builds a request of `caller` whose body references a record of `foreign`;
 * `path` is where the error must appear (e.g. `['status', 'id']`).
 */
export function runOtherBusinessReferenceTest(
  ctx: () => TestApp,
  name: string,
  path: readonly string[],
  request: (t: TestApp, caller: TestBusiness, foreign: TestBusiness) => Promise<SignedRequest>,
): void {
  it(`${name}: another business's reference answers 400 on ${path.join('.')}`, async () => {
    const caller = await newBusiness(ctx());
    const foreign = await newBusiness(ctx());
    const res = await apiClient(ctx().app).call(caller, await request(ctx(), caller, foreign));
    expect(res.status).toBe(400);
    let node: unknown = res.body;
    for (const key of path) node = (node as Record<string, unknown>)[key];
    expect(node).toEqual([expect.stringMatching(/does not exist/)]);
  });
}
