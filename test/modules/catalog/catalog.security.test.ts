/** Security suite for every catalog route, plus tenant isolation: a business never sees another's catalog rows. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { runCommonRouteTests } from '../../setup/common-route-tests.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { apiClient } from '../../setup/api-client.ts';

let t: TestApp;
const { call } = apiClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());
const ctx = () => t;

const PAGED = ['/v1/member', '/v1/field', '/v1/inquiry/status', '/v1/client/status', '/v1/contract/category'];
const PLAIN = ['/v1/folder', '/v1/settlement/type'];

describe('catalog routes', () => {
  for (const url of [...PAGED, ...PLAIN]) {
    runCommonRouteTests(ctx, { name: `GET ${url}`, okStatus: 200, request: () => ({ method: 'GET', url }) });
  }
  runCommonRouteTests(ctx, {
    name: 'GET /v1/member (TEAM plan)',
    okStatus: 200,
    plan: 'TEAM',
    request: () => ({ method: 'GET', url: '/v1/member' }),
  });
});

describe('tenant isolation', () => {
  /** Every row id of every catalog list of `b`, by path. */
  async function everything(b: TestBusiness): Promise<Record<string, unknown[]>> {
    const out: Record<string, unknown[]> = {};
    for (const url of PAGED) {
      const res = await call(b, { method: 'GET', url: `${url}?page_size=100` });
      expect(res.status, url).toBe(200);
      expect(res.body.next, url).toBeNull();
      out[url] = (res.body.results as { id: unknown }[]).map((r) => r.id);
    }
    for (const url of PLAIN) {
      const res = await call(b, { method: 'GET', url });
      expect(res.status, url).toBe(200);
      out[url] = (res.body as { id: unknown }[]).map((r) => r.id);
    }
    return out;
  }
  function expected(b: TestBusiness): Record<string, unknown[]> {
    const sorted = (o: Record<string, number>) => Object.values(o).sort((x, y) => x - y);
    return {
      '/v1/member': sorted(b.ids.members),
      '/v1/field': sorted(b.ids.fields),
      '/v1/inquiry/status': sorted(b.ids.statuses),
      '/v1/client/status': sorted(b.ids.clientStatuses),
      '/v1/contract/category': sorted(b.ids.contractCategories),
      '/v1/folder': sorted(b.ids.folders),
      '/v1/settlement/type': sorted(b.ids.settlementTypes),
    };
  }

  it("business A never sees business B's catalog rows in any list", async () => {
    const a = await newBusiness(t);
    const b = await newBusiness(t);
    const c = await newBusiness(t, { catalog: null });
    const seenA = await everything(a);
    const seenB = await everything(b);
    const seenC = await everything(c);
    for (const url of Object.keys(seenA)) {
      expect(
        [...seenA[url]!].sort((x, y) => Number(x) - Number(y)),
        url,
      ).toEqual(expected(a)[url]);
      expect(
        [...seenB[url]!].sort((x, y) => Number(x) - Number(y)),
        url,
      ).toEqual(expected(b)[url]);
      expect(seenC[url], url).toEqual([]);
      for (const id of seenA[url]!) expect(seenB[url], url).not.toContain(id);
    }
  });

  it("filters never reach another business's rows", async () => {
    const a = await newBusiness(t);
    const b = await newBusiness(t);
    const res = await call(a, { method: 'GET', url: `/v1/inquiry/status?folder_id=${b.ids.folders.sales}` });
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([]);
    const members = await call(a, { method: 'GET', url: '/v1/member?search=kim' });
    expect(members.body.results.map((m: { id: number }) => m.id)).toEqual([a.ids.members.kim]);
    const folders = await call(a, { method: 'GET', url: '/v1/folder?search=sales' });
    expect(folders.body.map((f: { id: number }) => f.id)).toEqual([a.ids.folders.sales]);
  });

  it("a cursor from another business's list does not reveal its rows", async () => {
    const a = await newBusiness(t);
    const b = await newBusiness(t);
    const first = await call(b, { method: 'GET', url: '/v1/field?page_size=1' });
    const cursor = new URL(first.body.next as string).searchParams.get('cursor')!;
    const res = await call(a, { method: 'GET', url: `/v1/field?page_size=100&cursor=${encodeURIComponent(cursor)}` });
    if (res.status === 200) {
      const aFields = Object.values(a.ids.fields);
      for (const f of res.body.results as { id: number }[]) expect(aFields).toContain(f.id);
    } else {
      expect(res.status).toBe(400);
    }
  });
});
