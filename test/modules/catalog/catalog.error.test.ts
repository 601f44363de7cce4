/**
 * The read-only catalogs, the failing paths (spec: Plan constraints, Errors 3; decisions §2, §4, §5): the
 * member list's plan gate, bad filters, bad page sizes and cursors, wrong methods.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness } from '../../setup/factories.ts';
import { apiClient, expect400 } from '../../setup/api-client.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const PAGED = ['/v1/member', '/v1/field', '/v1/inquiry/status', '/v1/client/status', '/v1/contract/category'];
const ALL = [...PAGED, '/v1/folder', '/v1/settlement/type'];

const { get, post } = apiClient(() => t.app);

describe('plan gate of GET /v1/member', () => {
  it('a BASIC business gets 403 PLAN_PERMISSION_DENIED', async () => {
    const b = await newBusiness(t, { plan: 'BASIC' });
    for (const url of ['/v1/member', '/v1/member/', '/v1/member?search=kim', '/v1/member?page_size=0']) {
      const res = await get(b, url);
      expect(res.status, url).toBe(403);
      expect(res.body, url).toEqual({
        detail: expect.any(String),
        code: 'PLAN_PERMISSION_DENIED',
        requestId: res.headers['x-request-id'],
      });
      expect(res.body.detail.length, url).toBeGreaterThan(0);
    }
  });

  for (const plan of ['FREE', 'TEAM', 'AGENCY'] as const) {
    it(`a ${plan} business gets 200`, async () => {
      const b = await newBusiness(t, { plan });
      const res = await get(b, '/v1/member');
      expect(res.status).toBe(200);
      expect(res.body.results).toHaveLength(3);
    });
  }

  it('the other catalogs are open to a BASIC business', async () => {
    const b = await newBusiness(t, { plan: 'BASIC' });
    for (const url of ALL.filter((u) => u !== '/v1/member')) {
      const res = await get(b, url);
      expect(res.status, url).toBe(200);
    }
  });
});

describe('bad filters', () => {
  it('category=X → "X" is not a valid choice.', async () => {
    const b = await newBusiness(t);
    expect400(await get(b, '/v1/field?category=X'), { category: ['"X" is not a valid choice.'] });
    expect400(await get(b, '/v1/field?category=c'), { category: ['"c" is not a valid choice.'] });
  });

  it('folder_id that is not an integer → 400 on folder_id', async () => {
    const b = await newBusiness(t);
    expect400(await get(b, '/v1/inquiry/status?folder_id=abc'), { folder_id: ['A valid integer is required.'] });
    expect400(await get(b, '/v1/inquiry/status?folder_id=0'), {
      folder_id: ['Ensure this value is greater than or equal to 1.'],
    });
  });

  it('is_active that is not a boolean → 400 on is_active', async () => {
    const b = await newBusiness(t);
    expect400(await get(b, '/v1/member?is_active=maybe'), { is_active: ['Must be a valid boolean.'] });
  });
});

describe('bad page sizes', () => {
  for (const url of PAGED) {
    it(`${url}: page_size=0, page_size=abc and limit=-1 → 400 on the parameter`, async () => {
      const b = await newBusiness(t);
      expect400(await get(b, `${url}?page_size=0`), {
        page_size: ['Ensure this value is greater than or equal to 1.'],
      });
      expect400(await get(b, `${url}?page_size=abc`), { page_size: ['A valid integer is required.'] });
      expect400(await get(b, `${url}?limit=-1`), { limit: ['Ensure this value is greater than or equal to 1.'] });
    });
  }
});

describe('bad cursors', () => {
  for (const url of PAGED) {
    it(`${url}: a garbage or tampered cursor → 404 Invalid cursor`, async () => {
      const b = await newBusiness(t);
      const first = await get(b, `${url}?page_size=1`);
      const cursor = new URL(first.body.next as string).searchParams.get('cursor')!;
      const tampered = (cursor[0] === 'A' ? 'B' : 'A') + cursor.slice(1);
      for (const bad of ['garbage', tampered]) {
        const res = await get(b, `${url}?cursor=${encodeURIComponent(bad)}`);
        expect(res.status, bad).toBe(404);
        expect(res.body, bad).toEqual({
          detail: 'Invalid cursor',
          code: 'not_found',
          requestId: res.headers['x-request-id'],
        });
      }
      expect((await get(b, `${url}?cursor=${encodeURIComponent(cursor)}`)).status).toBe(200);
    });
  }

  it('a cursor issued by a list with another ordering → 404 Invalid cursor', async () => {
    const b = await newBusiness(t);
    // Members are ordered by (created, id), inquiry and client statuses by (position, id).
    const m = await get(b, '/v1/member?page_size=1');
    const memberCursor = new URL(m.body.next as string).searchParams.get('cursor')!;
    const s = await get(b, '/v1/client/status?page_size=1');
    const statusCursor = new URL(s.body.next as string).searchParams.get('cursor')!;
    for (const [url, cursor] of [
      ['/v1/inquiry/status', memberCursor],
      ['/v1/client/status', memberCursor],
      ['/v1/member', statusCursor],
      ['/v1/field', statusCursor],
      ['/v1/contract/category', statusCursor],
    ] as const) {
      const res = await get(b, `${url}?cursor=${encodeURIComponent(cursor)}`);
      expect(res.status, url).toBe(404);
      expect(res.body, url).toEqual({
        detail: 'Invalid cursor',
        code: 'not_found',
        requestId: res.headers['x-request-id'],
      });
    }
  });
});

describe('methods', () => {
  for (const url of ALL) {
    it(`POST ${url} → 405 with Allow: GET`, async () => {
      const b = await newBusiness(t);
      const res = await post(b, url, { title: 'x' });
      expect(res.status).toBe(405);
      expect(res.body).toEqual({
        detail: 'Method "POST" not allowed.',
        code: 'method_not_allowed',
        requestId: res.headers['x-request-id'],
      });
      expect(res.headers.allow).toBe('GET');
    });
  }

  it('GET of an id under a catalog path → 404', async () => {
    const b = await newBusiness(t);
    for (const url of ['/v1/member/1', '/v1/folder/1', '/v1/settlement/type/1', '/v1/contract/category/1']) {
      const res = await get(b, url);
      expect(res.status, url).toBe(404);
      expect(res.body, url).toEqual({
        detail: 'Not found.',
        code: 'not_found',
        requestId: res.headers['x-request-id'],
      });
    }
  });
});
