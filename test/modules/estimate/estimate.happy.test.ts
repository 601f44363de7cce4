/**
 * Estimate items, the successful paths (reference: "Estimate item templates"; decisions §1, §4, §5, §11):
 * shapes, the decimal `unitCost`, classification set and cleared, partial update, permanent delete, the
 * body encodings, newest-first order, paging, search; the classification list in its configured order;
 * the catalog section and the demo data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCatalog } from '../../../src/modules/catalog/catalog-import.ts';
import { createDemo } from '../../../src/demo/demo.ts';
import { DEMO_ESTIMATE_ITEMS } from '../../../src/demo/demo-data.ts';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { type SignedRequest } from '../../setup/signed-request.ts';
import { apiClient } from '../../setup/api-client.ts';
import { relative } from '../../setup/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** The keys of the create answer and the list items. */
const KEYS = ['id', 'title', 'unitCost', 'unit', 'description', 'image', 'classification', 'created'];
/** The keys of the full shape (retrieve, update): plus `updated` (docs/api.md#events). */
const FULL_KEYS = [...KEYS, 'updated'];
const RFC3339_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const { call, get, listIds, raw } = apiClient(() => t.app);
async function create(b: TestBusiness, body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await call(b, { method: 'POST', url: '/v1/estimate/item', body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
function design(b: TestBusiness) {
  return { id: b.ids.estimateItemClassifications.design!, title: 'Design' };
}

describe('POST /v1/estimate/item', () => {
  it('creates an item with the required properties only: 201, every key, defaults null, image ""', async () => {
    const b = await newBusiness(t);
    const item = await create(b, { title: '서버 API 개발', unitCost: '7000000', unit: 'M/M' });
    expect(Object.keys(item)).toEqual(KEYS);
    expect(item).toMatchObject({
      title: '서버 API 개발',
      unitCost: '7000000.00',
      unit: 'M/M',
      description: null,
      image: '',
      classification: null,
    });
    expect(item.id).toEqual(expect.any(Number));
    expect(item.created).toMatch(RFC3339_MS_UTC);
    const got = await get(b, `/v1/estimate/item/${item.id}`);
    expect(got.status).toBe(200);
    expect(Object.keys(got.body)).toEqual(FULL_KEYS);
    expect(got.body).toEqual({ ...item, updated: item.created });
  });

  it('stores every property: description, classification {id, title}, the unit 식', async () => {
    const b = await newBusiness(t);
    const item = await create(b, {
      title: 'Logo design',
      unitCost: '3000000.5',
      unit: '식',
      description: 'Two directions.',
      classification: { id: design(b).id, title: 'ignored' },
    });
    expect(item).toMatchObject({
      title: 'Logo design',
      unitCost: '3000000.50',
      unit: '식',
      description: 'Two directions.',
      classification: design(b),
    });
  });

  it('unitCost: decimal strings and JSON numbers, negative for discounts, normalised to two decimals', async () => {
    const b = await newBusiness(t);
    const cases: [unknown, string][] = [
      ['0', '0.00'],
      ['-0', '0.00'],
      ['-1000000', '-1000000.00'],
      ['-12.5', '-12.50'],
      ['007.10', '7.10'],
      [150000, '150000.00'],
      [-99.99, '-99.99'],
      [0.1, '0.10'],
      ['9'.repeat(28) + '.99', `${'9'.repeat(28)}.99`],
      [`-${'9'.repeat(28)}.99`, `-${'9'.repeat(28)}.99`],
    ];
    for (const [input, expected] of cases) {
      const item = await create(b, { title: 'Line', unitCost: input, unit: 'EA' });
      expect(item.unitCost, String(input)).toBe(expected);
      expect((await get(b, `/v1/estimate/item/${item.id}`)).body.unitCost, String(input)).toBe(expected);
    }
  });

  it('accepts the longest title, unit and description, and Korean text and emoji', async () => {
    const b = await newBusiness(t);
    const item = await create(b, {
      title: '가'.repeat(256),
      unitCost: '1',
      unit: 'M/M🙂ABCD'.slice(0, 8),
      description: '설'.repeat(2048),
    });
    expect(item.title).toHaveLength(256);
    expect(item.description).toHaveLength(2048);
    expect(item.unit).toBe('M/M🙂ABCD'.slice(0, 8));
  });

  it('reads read-only properties as ignored (id, created, image)', async () => {
    const b = await newBusiness(t);
    const item = await create(b, {
      id: 999999,
      created: '2000-01-01T00:00:00.000Z',
      image: 'https://x.example/a.png',
      title: 'T',
      unitCost: '1',
      unit: 'EA',
    });
    expect(item.id).not.toBe(999999);
    expect(item.created).not.toBe('2000-01-01T00:00:00.000Z');
    expect(item.image).toBe('');
  });

  it('JSON, urlencoded (dot and bracket references) and multipart give the same item', async () => {
    const b = await newBusiness(t);
    const c = design(b).id;
    const requests: SignedRequest[] = [
      {
        method: 'POST',
        url: '/v1/estimate/item',
        body: { title: 'Encoded', unitCost: '-50.5', unit: 'EA', description: 'd', classification: { id: c } },
      },
      {
        method: 'POST',
        url: '/v1/estimate/item',
        form: 'urlencoded',
        body: { title: 'Encoded', unitCost: '-50.5', unit: 'EA', description: 'd', 'classification.id': c },
      },
      {
        method: 'POST',
        url: '/v1/estimate/item',
        form: 'urlencoded',
        body: { title: 'Encoded', unitCost: '-50.5', unit: 'EA', description: 'd', 'classification[id]': c },
      },
      {
        method: 'POST',
        url: '/v1/estimate/item',
        form: 'multipart',
        body: { title: 'Encoded', unitCost: '-50.5', unit: 'EA', description: 'd', 'classification[id]': c },
      },
    ];
    for (const req of requests) {
      const res = await call(b, req);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body).toMatchObject({
        title: 'Encoded',
        unitCost: '-50.50',
        unit: 'EA',
        description: 'd',
        classification: design(b),
      });
    }
  });
});

describe('PATCH /v1/estimate/item/{item_id}', () => {
  it('changes only what it sends; null clears description and classification', async () => {
    const b = await newBusiness(t);
    const item = await create(b, {
      title: 'Before',
      unitCost: '10',
      unit: 'EA',
      description: 'Keep me',
      classification: { id: design(b).id },
    });
    const url = `/v1/estimate/item/${item.id}`;

    const titled = await call(b, { method: 'PATCH', url, body: { title: 'After' } });
    expect(titled.status).toBe(200);
    expect(titled.body).toEqual({ ...item, title: 'After', updated: titled.body.updated });
    expect(titled.body.updated >= item.created).toBe(true);

    const costed = await call(b, { method: 'PATCH', url, body: { unitCost: -20, unit: '식' } });
    expect(costed.body).toEqual({
      ...item,
      title: 'After',
      unitCost: '-20.00',
      unit: '식',
      updated: costed.body.updated,
    });

    const dev = b.ids.estimateItemClassifications.dev!;
    const moved = await call(b, { method: 'PATCH', url, body: { classification: { id: dev } } });
    expect(moved.body.classification).toEqual({ id: dev, title: 'Development' });

    const cleared = await call(b, { method: 'PATCH', url, body: { description: null, classification: null } });
    expect(cleared.body).toEqual({
      ...item,
      title: 'After',
      unitCost: '-20.00',
      unit: '식',
      description: null,
      classification: null,
      updated: cleared.body.updated,
    });
    expect((await get(b, url)).body).toEqual(cleared.body);
  });

  it('an empty body changes nothing and answers the item', async () => {
    const b = await newBusiness(t);
    const item = await create(b, { title: 'Same', unitCost: '1', unit: 'EA' });
    const res = await call(b, { method: 'PATCH', url: `/v1/estimate/item/${item.id}`, body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...item, updated: item.created });
  });
});

describe('DELETE /v1/estimate/item/{item_id}', () => {
  it('answers 204 with no body and removes the row for good; the id answers 404 from then on', async () => {
    const b = await newBusiness(t);
    const keep = await create(b, { title: 'Keep', unitCost: '1', unit: 'EA' });
    const doomed = await create(b, { title: 'Doomed', unitCost: '1', unit: 'EA' });
    const url = `/v1/estimate/item/${doomed.id}`;
    const res = await raw(b, { method: 'DELETE', url });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const rows = await t.testDb.db
      .selectFrom('estimate_item')
      .select('id')
      .where('business_id', '=', b.businessId)
      .execute();
    expect(rows.map((r) => r.id)).toEqual([keep.id]);
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const again = await call(b, { method, url, ...(method === 'PATCH' ? { body: { title: 'x' } } : {}) });
      expect(again.status, method).toBe(404);
      expect(again.body.detail).toBe('Not found.');
    }
    expect(await listIds(b, '/v1/estimate/item')).toEqual([keep.id]);
  });
});

describe('GET /v1/estimate/item', () => {
  it('lists items newest first with the full shape, pages both ways with links that keep the query', async () => {
    const b = await newBusiness(t);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await create(b, { title: `Line ${i}`, unitCost: String(i), unit: 'EA' })).id);
    const first = await get(b, '/v1/estimate/item?page_size=2&search=line');
    expect(first.status).toBe(200);
    expect(Object.keys(first.body)).toEqual(['next', 'previous', 'results']);
    for (const r of first.body.results) expect(Object.keys(r)).toEqual(KEYS);
    expect(first.body.results.map((r: { id: number }) => r.id)).toEqual([ids[4], ids[3]]);
    expect(first.body.previous).toBeNull();
    expect(first.body.next).toMatch(/^http:\/\/[^/]+\/v1\/estimate\/item\?/);
    expect(new URL(first.body.next).searchParams.get('search')).toBe('line');
    const second = await get(b, relative(first.body.next));
    expect(second.body.results.map((r: { id: number }) => r.id)).toEqual([ids[2], ids[1]]);
    const third = await get(b, relative(second.body.next));
    expect(third.body.results.map((r: { id: number }) => r.id)).toEqual([ids[0]]);
    expect(third.body.next).toBeNull();
    const back = await get(b, relative(third.body.previous));
    expect(back.body.results.map((r: { id: number }) => r.id)).toEqual([ids[2], ids[1]]);
    expect(await listIds(b, '/v1/estimate/item?limit=1')).toEqual([ids[4]]);
  });

  it('orders by created, ties by id descending', async () => {
    const b = await newBusiness(t);
    const x = await create(b, { title: 'x', unitCost: '1', unit: 'EA' });
    const y = await create(b, { title: 'y', unitCost: '1', unit: 'EA' });
    const z = await create(b, { title: 'z', unitCost: '1', unit: 'EA' });
    await t.testDb.db
      .updateTable('estimate_item')
      .set({ created: '2099-01-01T00:00:00.000Z' })
      .where('id', '=', x.id)
      .execute();
    await t.testDb.db
      .updateTable('estimate_item')
      .set({ created: '2000-01-01T00:00:00.000Z' })
      .where('id', 'in', [y.id, z.id])
      .execute();
    expect(await listIds(b, '/v1/estimate/item')).toEqual([x.id, z.id, y.id]);
  });

  it('search: title or description, case-insensitive, every term must match, % and _ literal', async () => {
    const b = await newBusiness(t);
    const ui = await create(b, {
      title: 'UI 디자인',
      unitCost: '1',
      unit: 'M/M',
      description: 'Screens and STYLE guide',
    });
    const api = await create(b, { title: 'API development', unitCost: '1', unit: 'M/M', description: null });
    const pct = await create(b, { title: 'Discount 10%', unitCost: '-1', unit: '식', description: 'package_deal' });
    expect(await listIds(b, '/v1/estimate/item?search=디자인')).toEqual([ui.id]);
    expect(await listIds(b, '/v1/estimate/item?search=style')).toEqual([ui.id]);
    expect(await listIds(b, '/v1/estimate/item?search=DEVELOP')).toEqual([api.id]);
    expect(await listIds(b, '/v1/estimate/item?search=i')).toEqual([pct.id, api.id, ui.id]);
    expect(await listIds(b, '/v1/estimate/item?search=i&search=guide')).toEqual([ui.id]);
    expect(await listIds(b, '/v1/estimate/item?search=%25')).toEqual([pct.id]);
    expect(await listIds(b, '/v1/estimate/item?search=_')).toEqual([pct.id]);
    expect(await listIds(b, '/v1/estimate/item?search=nothing')).toEqual([]);
    expect(await listIds(b, '/v1/estimate/item?search=')).toEqual([pct.id, api.id, ui.id]);
  });

  it('a business without items gets an empty page', async () => {
    const b = await newBusiness(t, { catalog: null });
    expect(await get(b, '/v1/estimate/item').then((r) => r.body)).toEqual({ next: null, previous: null, results: [] });
  });

  it('answers with a trailing slash too', async () => {
    const b = await newBusiness(t);
    const item = await create(b, { title: 'Slash', unitCost: '1', unit: 'EA' });
    expect((await get(b, '/v1/estimate/item/')).body.results.map((r: { id: number }) => r.id)).toEqual([item.id]);
    expect((await get(b, `/v1/estimate/item/${item.id}/`)).body.id).toBe(item.id);
    expect((await get(b, '/v1/estimate/item/classification/')).status).toBe(200);
  });
});

describe('GET /v1/estimate/item/classification', () => {
  it('lists {id, title} in the configured order (file order, later imports after), paged, never as an item id', async () => {
    const b = await newBusiness(t);
    const c = b.ids.estimateItemClassifications;
    const later = await importCatalog(t.testDb.db, b.businessId, {
      estimateItemClassifications: [{ key: 'ops', title: 'Aardvark ops' }],
    });
    const all = await get(b, '/v1/estimate/item/classification');
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      next: null,
      previous: null,
      results: [
        { id: c.design, title: 'Design' },
        { id: c.dev, title: 'Development' },
        { id: later.estimateItemClassifications.ops, title: 'Aardvark ops' },
      ],
    });
    const first = await get(b, '/v1/estimate/item/classification?page_size=2');
    expect(first.body.results.map((r: { id: number }) => r.id)).toEqual([c.design, c.dev]);
    const second = await get(b, relative(first.body.next));
    expect(second.body.results.map((r: { id: number }) => r.id)).toEqual([later.estimateItemClassifications.ops]);
    expect(second.body.next).toBeNull();
  });

  it('search matches the title case-insensitively; every term must match', async () => {
    const b = await newBusiness(t);
    const c = b.ids.estimateItemClassifications;
    const titles = async (q: string) =>
      (await get(b, `/v1/estimate/item/classification${q}`)).body.results.map((r: { title: string }) => r.title);
    expect(await titles('?search=DESIGN')).toEqual(['Design']);
    expect(await titles('?search=e')).toEqual(['Design', 'Development']);
    expect(await titles('?search=e&search=dev')).toEqual(['Development']);
    expect(await titles('?search=%25')).toEqual([]);
    expect(c.design).toEqual(expect.any(Number));
  });

  it('a business without classifications gets an empty page', async () => {
    const b = await newBusiness(t, { catalog: null });
    expect((await get(b, '/v1/estimate/item/classification')).body).toEqual({
      next: null,
      previous: null,
      results: [],
    });
  });
});

describe('the demo business', () => {
  it('has classifications and estimate items, with Korean and English titles, the units 식, EA, M/M and a discount line', async () => {
    const demo = await createDemo(t.testDb.db, t.masterKey);
    const classifications = await call(demo, { method: 'GET', url: '/v1/estimate/item/classification' });
    expect(classifications.body.results.map((r: { title: string }) => r.title)).toEqual([
      '디자인',
      'Development',
      '운영 및 유지보수',
    ]);
    const items = await call(demo, { method: 'GET', url: '/v1/estimate/item' });
    expect(items.status).toBe(200);
    const results = items.body.results as Record<string, any>[];
    expect(results.map((r) => r.title)).toEqual([...DEMO_ESTIMATE_ITEMS].reverse().map((i) => i.title));
    expect(new Set(results.map((r) => r.unit))).toEqual(new Set(['식', 'EA', 'M/M']));
    expect(results[0]).toMatchObject({ title: 'Package discount', unitCost: '-1000000.00', classification: null });
    const ui = results.find((r) => r.title === 'UI/UX 디자인')!;
    expect(ui.classification).toEqual({ id: demo.catalog.estimateItemClassifications.design, title: '디자인' });
    expect(results.find((r) => r.title === '월 유지보수')!.unitCost).toBe('800000.50');
  });
});
