/**
 * Workers, the successful paths (spec: Resources › Worker, Endpoints — a new `position.id` reassigns;
 * reference: Worker; decisions §1, §4, §5, §7): shapes, defaults, position reassignment and clearing,
 * partial update, soft delete, the body encodings, ordering, paging and every list filter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../../../src/demo/demo.ts';
import { DEMO_WORKERS } from '../../../src/demo/demo-data.ts';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, testCatalog, type TestBusiness } from '../../setup/factories.ts';
import { type SignedRequest } from '../../setup/signed-request.ts';
import { apiClient } from '../../setup/api-client.ts';
import { relative } from '../../setup/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** The keys of the create answer and the list items (the spec's). */
const KEYS = ['id', 'name', 'created', 'position', 'order', 'isHidden', 'manMonthAmount'];
/** The keys of the full shape (retrieve, update): the spec's plus `updated` (docs/api.md#events). */
const FULL_KEYS = [...KEYS, 'updated'];
/** The full shape of a worker never changed since its create answer `w`. */
const unchanged = (w: Record<string, unknown>) => ({ ...w, updated: w.created });
const RFC3339_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A business whose catalog has two worker positions: dev (#2f80ed) and designer (#eb5757). */
function business(plan?: 'FREE' | 'AGENCY'): Promise<TestBusiness> {
  return newBusiness(t, {
    plan,
    catalog: {
      ...testCatalog(),
      positions: [
        { key: 'dev', title: 'Developer', symbolColor: '#2f80ed' },
        { key: 'designer', title: 'Designer', symbolColor: '#eb5757' },
      ],
    },
  });
}
function dev(b: TestBusiness) {
  return { id: b.ids.positions.dev!, title: 'Developer', symbolColor: '#2f80ed' };
}
function designer(b: TestBusiness) {
  return { id: b.ids.positions.designer!, title: 'Designer', symbolColor: '#eb5757' };
}
const { call, get, listIds, raw } = apiClient(() => t.app);
async function create(b: TestBusiness, body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await call(b, { method: 'POST', url: '/v1/worker', body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe('POST /v1/worker', () => {
  it('answers 201 with the reference shape and the nested position', async () => {
    const b = await business();
    const before = Date.now();
    const res = await call(b, {
      method: 'POST',
      url: '/v1/worker',
      body: {
        name: 'Choi Minho',
        position: { id: b.ids.positions.dev },
        order: 2,
        isHidden: true,
        manMonthAmount: 6500000,
      },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(KEYS);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'Choi Minho',
      created: expect.stringMatching(RFC3339_MS_UTC),
      position: dev(b),
      order: 2,
      isHidden: true,
      manMonthAmount: 6500000,
    });
    expect(Date.parse(res.body.created)).toBeGreaterThanOrEqual(before - 5);
  });

  it('defaults: no position, order 0, not hidden, manMonthAmount 0', async () => {
    const b = await business();
    expect(await create(b, { name: 'Minimal' })).toMatchObject({
      position: null,
      order: 0,
      isHidden: false,
      manMonthAmount: 0,
    });
    expect((await create(b, { name: 'Null position', position: null })).position).toBeNull();
  });

  it('accepts the limits: names of 1 and 32 characters (Korean too), order up to 2^31 − 1, manMonthAmount up to 2^53 − 1', async () => {
    const b = await business();
    expect((await create(b, { name: 'x' })).name).toBe('x');
    expect((await create(b, { name: 'n'.repeat(32) })).name).toHaveLength(32);
    expect((await create(b, { name: '김'.repeat(32) })).name).toBe('김'.repeat(32));
    const big = await create(b, { name: 'Big', order: 2147483647, manMonthAmount: Number.MAX_SAFE_INTEGER });
    expect(big).toMatchObject({ order: 2147483647, manMonthAmount: Number.MAX_SAFE_INTEGER });
    expect((await get(b, `/v1/worker/${big.id}`)).body).toEqual(unchanged(big));
  });

  it('ignores read-only and unknown properties, and extra keys of the position reference', async () => {
    const b = await business();
    const w = await create(b, {
      name: 'Sneaky',
      id: 999999,
      created: '2000-01-01T00:00:00.000Z',
      position: { id: b.ids.positions.dev, title: 'Boss' },
      x: 1,
    });
    expect(w.id).not.toBe(999999);
    expect(w.created).not.toBe('2000-01-01T00:00:00.000Z');
    expect(w.position).toEqual(dev(b));
  });
});

describe('GET /v1/worker/{worker_id}', () => {
  it('answers the create response plus updated, equal to created', async () => {
    const b = await business();
    const w = await create(b, { name: 'Read me', position: { id: b.ids.positions.designer } });
    const res = await get(b, `/v1/worker/${w.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(FULL_KEYS);
    expect(res.body).toEqual(unchanged(w));
  });
});

describe('PATCH /v1/worker/{worker_id}', () => {
  it('a new position.id reassigns the position; null clears it; other properties stay', async () => {
    const b = await business();
    const w = await create(b, { name: 'Mover', position: { id: b.ids.positions.dev }, order: 4, manMonthAmount: 100 });
    const moved = await call(b, {
      method: 'PATCH',
      url: `/v1/worker/${w.id}`,
      body: { position: { id: b.ids.positions.designer } },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toEqual({ ...w, position: designer(b), updated: moved.body.updated });
    const cleared = await call(b, { method: 'PATCH', url: `/v1/worker/${w.id}`, body: { position: null } });
    expect(cleared.body).toEqual({ ...w, position: null, updated: cleared.body.updated });
    const back = await call(b, {
      method: 'PATCH',
      url: `/v1/worker/${w.id}`,
      body: { position: { id: b.ids.positions.dev } },
    });
    expect(back.body).toEqual({ ...w, updated: back.body.updated });
    expect(back.body.updated >= cleared.body.updated && cleared.body.updated >= moved.body.updated).toBe(true);
    expect((await get(b, `/v1/worker/${w.id}`)).body).toEqual(back.body);
  });

  it('changes only the properties sent', async () => {
    const b = await business();
    const w = await create(b, { name: 'Before', position: { id: b.ids.positions.dev }, order: 1, manMonthAmount: 10 });
    const res = await call(b, {
      method: 'PATCH',
      url: `/v1/worker/${w.id}`,
      body: { name: 'After', order: 0, isHidden: true, manMonthAmount: 0 },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(FULL_KEYS);
    expect(res.body).toEqual({
      ...w,
      name: 'After',
      order: 0,
      isHidden: true,
      manMonthAmount: 0,
      updated: res.body.updated,
    });
    expect((await call(b, { method: 'PATCH', url: `/v1/worker/${w.id}`, body: {} })).body).toEqual(res.body);
  });
});

describe('DELETE /v1/worker/{worker_id}', () => {
  it('soft-deletes: 204 without a body, then 404 everywhere and excluded from the list, but kept in the database', async () => {
    const b = await business();
    const keep = await create(b, { name: 'Keep', position: { id: b.ids.positions.dev } });
    const doomed = await create(b, { name: 'Doomed', position: { id: b.ids.positions.dev } });
    const del = await raw(b, { method: 'DELETE', url: `/v1/worker/${doomed.id}` });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    for (const req of [
      { method: 'GET', url: `/v1/worker/${doomed.id}` },
      { method: 'PATCH', url: `/v1/worker/${doomed.id}`, body: { name: 'Zombie' } },
      { method: 'DELETE', url: `/v1/worker/${doomed.id}` },
    ] as SignedRequest[]) {
      const res = await call(b, req);
      expect(res.status, req.method).toBe(404);
      expect(res.body).toEqual({ detail: 'Not found.', code: 'not_found', requestId: res.headers['x-request-id'] });
    }
    expect(await listIds(b, '/v1/worker')).toEqual([keep.id]);
    expect(await listIds(b, `/v1/worker?position_id=${b.ids.positions.dev}`)).toEqual([keep.id]);
    expect(await listIds(b, '/v1/worker?search=Doomed')).toEqual([]);
    const row = await t.testDb.db
      .selectFrom('worker')
      .select(['name', 'deleted_at'])
      .where('id', '=', doomed.id)
      .executeTakeFirstOrThrow();
    expect(row.name).toBe('Doomed');
    expect(row.deleted_at).toMatch(RFC3339_MS_UTC);
  });
});

describe('body encodings', () => {
  it('JSON, urlencoded (dot and bracket references) and multipart give the same worker', async () => {
    const b = await business();
    const pos = b.ids.positions.designer!;
    const strip = ({ id: _id, created: _c, ...rest }: Record<string, unknown>) => rest;
    const json = await create(b, {
      name: 'Encoded',
      position: { id: pos },
      order: 3,
      isHidden: true,
      manMonthAmount: 42,
    });
    const bodies: SignedRequest[] = [
      {
        method: 'POST',
        url: '/v1/worker',
        form: 'urlencoded',
        body: { name: 'Encoded', 'position.id': pos, order: 3, isHidden: 'true', manMonthAmount: 42 },
      },
      {
        method: 'POST',
        url: '/v1/worker',
        form: 'urlencoded',
        body: { name: 'Encoded', 'position[id]': pos, order: 3, isHidden: 'true', manMonthAmount: 42 },
      },
      {
        method: 'POST',
        url: '/v1/worker',
        form: 'multipart',
        body: { name: 'Encoded', 'position[id]': pos, order: 3, isHidden: 'true', manMonthAmount: 42 },
      },
    ];
    for (const req of bodies) {
      const res = await call(b, req);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(strip(res.body)).toEqual(strip(json));
    }
  });
});

describe('GET /v1/worker', () => {
  it('lists newest first and pages with links that keep the filters', async () => {
    const b = await business();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await create(b, { name: `Dev ${i}`, position: { id: b.ids.positions.dev } })).id);
    await create(b, { name: 'Designer', position: { id: b.ids.positions.designer } });
    const newest = [...ids].reverse();
    const page1 = await get(b, `/v1/worker?position_id=${b.ids.positions.dev}&page_size=2`);
    expect(page1.body.results.map((w: { id: number }) => w.id)).toEqual(newest.slice(0, 2));
    expect(page1.body.previous).toBeNull();
    expect(Object.keys(page1.body.results[0])).toEqual(KEYS);
    const page2 = await get(b, relative(page1.body.next));
    expect(page2.body.results.map((w: { id: number }) => w.id)).toEqual(newest.slice(2, 4));
    const page3 = await get(b, relative(page2.body.next));
    expect(page3.body.results.map((w: { id: number }) => w.id)).toEqual(newest.slice(4));
    expect(page3.body.next).toBeNull();
    expect((await get(b, relative(page3.body.previous))).body.results.map((w: { id: number }) => w.id)).toEqual(
      newest.slice(2, 4),
    );
  });

  it('filters by position_id and is_hidden', async () => {
    const b = await business();
    const d = (await create(b, { name: 'D', position: { id: b.ids.positions.dev } })).id;
    const g = (await create(b, { name: 'G', position: { id: b.ids.positions.designer }, isHidden: true })).id;
    const n = (await create(b, { name: 'N' })).id;
    expect(await listIds(b, `/v1/worker?position_id=${b.ids.positions.dev}`)).toEqual([d]);
    expect(await listIds(b, `/v1/worker?position_id=${b.ids.positions.designer}`)).toEqual([g]);
    expect(await listIds(b, '/v1/worker?position_id=2147483647')).toEqual([]);
    expect(await listIds(b, '/v1/worker?is_hidden=true')).toEqual([g]);
    expect(await listIds(b, '/v1/worker?is_hidden=false')).toEqual([n, d]);
    expect(await listIds(b, `/v1/worker?is_hidden=false&position_id=${b.ids.positions.designer}`)).toEqual([]);
    expect(await listIds(b, '/v1/worker')).toEqual([n, g, d]);
  });

  it('search: a case-insensitive substring of the name; repeated terms must all match; % and _ are literal', async () => {
    const b = await business();
    const kim = (await create(b, { name: 'Kim Minji' })).id;
    const lee = (await create(b, { name: 'Lee Minho' })).id;
    const pct = (await create(b, { name: '100%_sure' })).id;
    const ko = (await create(b, { name: '박서연' })).id;
    expect(await listIds(b, '/v1/worker?search=min')).toEqual([lee, kim]);
    expect(await listIds(b, '/v1/worker?search=MIN&search=ho')).toEqual([lee]);
    expect(await listIds(b, '/v1/worker?search=kim&search=lee')).toEqual([]);
    expect(await listIds(b, `/v1/worker?search=${encodeURIComponent('%')}`)).toEqual([pct]);
    expect(await listIds(b, '/v1/worker?search=_')).toEqual([pct]);
    expect(await listIds(b, `/v1/worker?search=${encodeURIComponent('서연')}`)).toEqual([ko]);
    expect(await listIds(b, '/v1/worker?search=')).toHaveLength(4);
  });

  it('is allowed on the FREE plan, end to end', async () => {
    const b = await business('FREE');
    const w = await create(b, { name: 'Free', position: { id: b.ids.positions.dev } });
    expect((await call(b, { method: 'PATCH', url: `/v1/worker/${w.id}`, body: { order: 9 } })).body.order).toBe(9);
    expect(await listIds(b, '/v1/worker')).toEqual([w.id]);
    expect((await raw(b, { method: 'DELETE', url: `/v1/worker/${w.id}` })).statusCode).toBe(204);
    expect(await listIds(b, '/v1/worker')).toEqual([]);
  });
});

describe('the demo business', () => {
  it('has workers, readable through the API with its key', async () => {
    const demo = await createDemo(t.testDb.db, t.masterKey);
    const res = await call(demo, { method: 'GET', url: '/v1/worker' });
    expect(res.status).toBe(200);
    expect(res.body.results.map((w: { name: string }) => w.name)).toEqual(
      [...DEMO_WORKERS].reverse().map((w) => w.name),
    );
    expect(res.body.results[3].position).toEqual({
      id: demo.catalog.positions.developer,
      title: 'Developer',
      symbolColor: '#2f80ed',
    });
    expect(res.body.results[0].position).toBeNull();
  });
});
