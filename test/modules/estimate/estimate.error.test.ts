/**
 * Estimate items, the refusals (reference: "Estimate item templates"; decisions §1, §2, §11): every
 * validation rule of create and update with DRF's messages, references that do not exist, bad ids, bad
 * queries and methods — and a refused request writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogError, importCatalog } from '../../../src/modules/catalog/catalog-import.ts';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import type { SignedRequest } from '../../setup/signed-request.ts';
import { apiClient } from '../../setup/api-client.ts';

let t: TestApp;
let b: TestBusiness;
beforeAll(async () => {
  t = await buildTestApp();
  b = await newBusiness(t);
});
afterAll(() => t.close());

const VALID = { title: 'Valid line', unitCost: '100', unit: 'EA' };
const BLANK = 'This field may not be blank.';
const NOT_NULL = 'This field may not be null.';
const REQUIRED = 'This field is required.';
const NUMBER = 'A valid number is required.';
const max = (n: number) => `Ensure this field has no more than ${n} characters.`;

const api = apiClient(() => t.app);
function call(req: SignedRequest) {
  return api.call(b, req);
}
async function itemRows() {
  return t.testDb.db
    .selectFrom('estimate_item')
    .selectAll()
    .where('business_id', '=', b.businessId)
    .orderBy('id')
    .execute();
}
async function createItem(): Promise<number> {
  const res = await call({
    method: 'POST',
    url: '/v1/estimate/item',
    body: { ...VALID, description: 'Original', classification: { id: b.ids.estimateItemClassifications.design } },
  });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

/** Body → the exact 400 body (without `requestId`). */
const INVALID: [string, Record<string, unknown>, Record<string, unknown>][] = [
  ['nothing', {}, { title: [REQUIRED], unitCost: [REQUIRED], unit: [REQUIRED] }],
  ['title missing', { unitCost: '1', unit: 'EA' }, { title: [REQUIRED] }],
  ['unitCost missing', { title: 'x', unit: 'EA' }, { unitCost: [REQUIRED] }],
  ['unit missing', { title: 'x', unitCost: '1' }, { unit: [REQUIRED] }],
  ['title blank', { ...VALID, title: '' }, { title: [BLANK] }],
  ['title 257 characters', { ...VALID, title: 'a'.repeat(257) }, { title: [max(256)] }],
  ['title null', { ...VALID, title: null }, { title: [NOT_NULL] }],
  ['title not a string', { ...VALID, title: ['x'] }, { title: ['Not a valid string.'] }],
  ['unit blank', { ...VALID, unit: '' }, { unit: [BLANK] }],
  ['unit 9 characters', { ...VALID, unit: '123456789' }, { unit: [max(8)] }],
  ['unit null', { ...VALID, unit: null }, { unit: [NOT_NULL] }],
  ['description blank', { ...VALID, description: '' }, { description: [BLANK] }],
  ['description 2049 characters', { ...VALID, description: 'd'.repeat(2049) }, { description: [max(2048)] }],
  ['unitCost null', { ...VALID, unitCost: null }, { unitCost: [NOT_NULL] }],
  ['unitCost empty', { ...VALID, unitCost: '' }, { unitCost: [NUMBER] }],
  ['unitCost text', { ...VALID, unitCost: 'abc' }, { unitCost: [NUMBER] }],
  ['unitCost with a comma', { ...VALID, unitCost: '1,000' }, { unitCost: [NUMBER] }],
  ['unitCost exponent', { ...VALID, unitCost: '1e5' }, { unitCost: [NUMBER] }],
  ['unitCost boolean', { ...VALID, unitCost: true }, { unitCost: [NUMBER] }],
  ['unitCost object', { ...VALID, unitCost: { amount: 1 } }, { unitCost: [NUMBER] }],
  [
    'unitCost 3 decimals',
    { ...VALID, unitCost: '1.234' },
    { unitCost: ['Ensure that there are no more than 2 decimal places.'] },
  ],
  [
    'unitCost JSON number with 3 decimals',
    { ...VALID, unitCost: 0.125 },
    { unitCost: ['Ensure that there are no more than 2 decimal places.'] },
  ],
  [
    'unitCost 29 integer digits',
    { ...VALID, unitCost: '1'.repeat(29) },
    { unitCost: ['Ensure that there are no more than 28 digits before the decimal point.'] },
  ],
  ['unitCost huge JSON number', { ...VALID, unitCost: 1e300 }, { unitCost: [NUMBER] }],
  ['classification missing id', { ...VALID, classification: {} }, { classification: { id: [REQUIRED] } }],
  [
    'classification id not an integer',
    { ...VALID, classification: { id: 'x' } },
    { classification: { id: ['A valid integer is required.'] } },
  ],
  [
    'classification not an object',
    { ...VALID, classification: 5 },
    { classification: ['Invalid data. Expected a dictionary, but got int.'] },
  ],
  [
    'classification that does not exist',
    { ...VALID, classification: { id: 2147483647 } },
    { classification: { id: ['Invalid pk "2147483647" - object does not exist.'] } },
  ],
  ['several at once', { title: '', unitCost: '1', unit: 'toolongunit' }, { title: [BLANK], unit: [max(8)] }],
  [
    'service errors together',
    { ...VALID, unitCost: 'x', classification: { id: 2147483647 } },
    { unitCost: [NUMBER], classification: { id: ['Invalid pk "2147483647" - object does not exist.'] } },
  ],
];

describe('POST /v1/estimate/item refuses', () => {
  for (const [name, body, expected] of INVALID) {
    it(`${name} → 400 and writes nothing`, async () => {
      const before = await itemRows();
      const res = await call({ method: 'POST', url: '/v1/estimate/item', body });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      const { requestId, ...errors } = res.body;
      expect(requestId).toEqual(expect.any(String));
      expect(errors).toEqual(expected);
      expect(await itemRows()).toEqual(before);
    });
  }

  it("another business's classification → 400 on classification.id, worded like a missing one", async () => {
    const other = await newBusiness(t);
    const foreign = other.ids.estimateItemClassifications.design!;
    const res = await call({
      method: 'POST',
      url: '/v1/estimate/item',
      body: { ...VALID, classification: { id: foreign } },
    });
    expect(res.status).toBe(400);
    expect(res.body.classification).toEqual({ id: [`Invalid pk "${foreign}" - object does not exist.`] });
  });

  it('malformed JSON and another content type', async () => {
    const parse = await call({
      method: 'POST',
      url: '/v1/estimate/item',
      raw: { payload: '{"title": ', contentType: 'application/json' },
    });
    expect(parse.status).toBe(400);
    expect(parse.body.detail).toMatch(/^JSON parse error - /);
    const media = await call({
      method: 'POST',
      url: '/v1/estimate/item',
      raw: { payload: 'title=x', contentType: 'text/plain' },
    });
    expect(media.status).toBe(415);
  });

  it('a form body is checked the same way (urlencoded unitCost that is not a number)', async () => {
    const res = await call({
      method: 'POST',
      url: '/v1/estimate/item',
      form: 'urlencoded',
      body: { title: 'x', unitCost: 'abc', unit: 'EA' },
    });
    expect(res.status).toBe(400);
    expect(res.body.unitCost).toEqual([NUMBER]);
  });
});

describe('PATCH /v1/estimate/item/{item_id} refuses', () => {
  const PATCH_INVALID = INVALID.filter(
    ([name]) => !name.includes('missing') && name !== 'nothing' && name !== 'classification missing id',
  )
    .map(
      ([name, body, expected]) =>
        [
          name,
          Object.fromEntries(
            Object.entries(body).filter(([k]) => !(k in VALID) || (VALID as Record<string, unknown>)[k] !== body[k]),
          ),
          expected,
        ] as const,
    )
    .filter(([, body]) => Object.keys(body).length > 0);

  it('has cases', () => {
    expect(PATCH_INVALID.length).toBeGreaterThan(15);
  });
  for (const [name, body, expected] of PATCH_INVALID) {
    it(`${name} → 400 and the item is unchanged`, async () => {
      const id = await createItem();
      const before = await itemRows();
      const res = await call({ method: 'PATCH', url: `/v1/estimate/item/${id}`, body });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      const { requestId: _r, ...errors } = res.body;
      expect(errors).toEqual(expected);
      expect(await itemRows()).toEqual(before);
    });
  }

  it("another business's classification → 400 on classification.id; the item is unchanged", async () => {
    const id = await createItem();
    const other = await newBusiness(t);
    const foreign = other.ids.estimateItemClassifications.dev!;
    const before = await itemRows();
    const res = await call({
      method: 'PATCH',
      url: `/v1/estimate/item/${id}`,
      body: { title: 'Changed', classification: { id: foreign } },
    });
    expect(res.status).toBe(400);
    expect(res.body.classification).toEqual({ id: [`Invalid pk "${foreign}" - object does not exist.`] });
    expect(await itemRows()).toEqual(before);
  });

  it('a missing item with a bad body → 404, not the body errors', async () => {
    const res = await call({ method: 'PATCH', url: '/v1/estimate/item/2147483647', body: { title: '' } });
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe('Not found.');
  });
});

describe('ids, queries and methods', () => {
  it('an unknown or malformed item id → 404 on GET, PATCH and DELETE', async () => {
    for (const id of ['2147483647', '3000000000', '0', '-1', 'abc', '1.5', '99999999999']) {
      for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
        const res = await call({
          method,
          url: `/v1/estimate/item/${id}`,
          ...(method === 'PATCH' ? { body: { title: 'x' } } : {}),
        });
        expect(res.status, `${method} ${id}`).toBe(404);
        expect(res.body.detail).toBe('Not found.');
      }
    }
  });

  it('bad page sizes → 400 on the parameter, on both lists', async () => {
    for (const url of ['/v1/estimate/item', '/v1/estimate/item/classification']) {
      for (const [query, param] of [
        ['page_size=0', 'page_size'],
        ['page_size=abc', 'page_size'],
        ['limit=-1', 'limit'],
      ] as const) {
        const res = await call({ method: 'GET', url: `${url}?${query}` });
        expect(res.status, `${url}?${query}`).toBe(400);
        expect(res.body[param], `${url}?${query}`).toEqual([expect.any(String)]);
      }
    }
  });

  it('a search term longer than 200 characters → 400 on search', async () => {
    const res = await call({ method: 'GET', url: `/v1/estimate/item?search=${'a'.repeat(201)}` });
    expect(res.status).toBe(400);
    expect(res.body.search).toBeDefined();
  });

  it('methods that do not exist → 405 with Allow', async () => {
    const put = await call({ method: 'PUT', url: '/v1/estimate/item/1', body: VALID });
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET, PATCH, DELETE');
    const post = await call({ method: 'POST', url: '/v1/estimate/item/classification', body: { title: 'x' } });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET');
    const del = await call({ method: 'DELETE', url: '/v1/estimate/item' });
    expect(del.status).toBe(405);
    expect(del.headers.allow).toBe('GET, POST');
  });

  it('an id under the classification path → 404', async () => {
    const res = await call({ method: 'GET', url: '/v1/estimate/item/classification/1' });
    expect(res.status).toBe(404);
  });
});

describe('the catalog section estimateItemClassifications', () => {
  const cases: [string, unknown, string[]][] = [
    [
      'a duplicate key',
      {
        estimateItemClassifications: [
          { key: 'design', title: 'Design' },
          { key: 'design', title: 'Design again' },
        ],
      },
      ['estimateItemClassifications[1].key: duplicate key "design" (also estimateItemClassifications[0])'],
    ],
    [
      'an empty title and an unknown property',
      { estimateItemClassifications: [{ key: 'x', title: '', unitCost: '1' }] },
      [
        'estimateItemClassifications[0].title: must NOT have fewer than 1 characters',
        'estimateItemClassifications[0].unitCost: is not a known property',
      ],
    ],
    [
      'not a list',
      { estimateItemClassifications: { key: 'x', title: 'X' } },
      ['estimateItemClassifications: must be array'],
    ],
    [
      'a missing key',
      { estimateItemClassifications: [{ title: 'X' }] },
      ['estimateItemClassifications[0].key: is required'],
    ],
  ];
  for (const [name, file, problems] of cases) {
    it(`${name}: the import names every problem and writes nothing`, async () => {
      const before = await t.testDb.db
        .selectFrom('estimate_item_classification')
        .select('id')
        .where('business_id', '=', b.businessId)
        .execute();
      const error = await importCatalog(t.testDb.db, b.businessId, file).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(CatalogError);
      expect([...(error as CatalogError).problems].sort()).toEqual([...problems].sort());
      const after = await t.testDb.db
        .selectFrom('estimate_item_classification')
        .select('id')
        .where('business_id', '=', b.businessId)
        .execute();
      expect(after).toEqual(before);
    });
  }
});
