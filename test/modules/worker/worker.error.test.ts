/**
 * Workers, the failing paths (reference: Worker — name 1..32, integers; decisions §1 amounts ≥ 0, §2
 * errors, §5 query parameters): DRF-shaped validation bodies that write nothing, bad position references,
 * bad bodies, unknown ids and methods, bad query parameters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { apiClient, expect400 } from '../../setup/api-client.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const api = apiClient(() => t.app);
const { call, listIds } = api;
const post = (b: TestBusiness, body: unknown) => api.post(b, '/v1/worker', body);
async function create(b: TestBusiness, body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await post(b, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe('POST /v1/worker — property validation', () => {
  it('name missing, blank, null, or longer than 32 characters', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, {}), { name: ['This field is required.'] });
    expect400(await post(b, { name: '' }), { name: ['This field may not be blank.'] });
    expect400(await post(b, { name: null }), { name: ['This field may not be null.'] });
    expect400(await post(b, { name: 'n'.repeat(33) }), { name: ['Ensure this field has no more than 32 characters.'] });
    expect400(await post(b, { name: ['a'] }), { name: ['Not a valid string.'] });
    expect(await listIds(b, '/v1/worker')).toEqual([]);
  });

  it('order: an integer from 0 to 2^31 − 1; manMonthAmount: an integer from 0 to 2^53 − 1', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, { name: 'x', order: -1, manMonthAmount: -1 }), {
      order: ['Ensure this value is greater than or equal to 0.'],
      manMonthAmount: ['Ensure this value is greater than or equal to 0.'],
    });
    expect400(await post(b, { name: 'x', order: 1.5, manMonthAmount: '5' }), {
      order: ['A valid integer is required.'],
      manMonthAmount: ['A valid integer is required.'],
    });
    expect400(await post(b, { name: 'x', order: 2147483648, manMonthAmount: Number.MAX_SAFE_INTEGER + 1 }), {
      order: ['Ensure this value is less than or equal to 2147483647.'],
      manMonthAmount: [`Ensure this value is less than or equal to ${Number.MAX_SAFE_INTEGER}.`],
    });
    expect400(await post(b, { name: 'x', order: null, manMonthAmount: null }), {
      order: ['This field may not be null.'],
      manMonthAmount: ['This field may not be null.'],
    });
  });

  it('isHidden that is not a boolean', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, { name: 'x', isHidden: 'yes' }), { isHidden: ['Must be a valid boolean.'] });
  });

  it('a position that does not exist, or a malformed reference', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, { name: 'x', position: { id: 2147483647 } }), {
      position: { id: ['Invalid pk "2147483647" - object does not exist.'] },
    });
    expect400(await post(b, { name: 'x', position: {} }), { position: { id: ['This field is required.'] } });
    expect400(await post(b, { name: 'x', position: { id: 'abc' } }), {
      position: { id: ['A valid integer is required.'] },
    });
    expect400(await post(b, { name: 'x', position: { id: 0 } }), {
      position: { id: ['Ensure this value is greater than or equal to 1.'] },
    });
    expect400(await post(b, { name: 'x', position: 5 }), {
      position: ['Invalid data. Expected a dictionary, but got int.'],
    });
    expect(await listIds(b, '/v1/worker')).toEqual([]);
  });

  it('reports every bad property at once', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, { name: '', order: -1, isHidden: 1, position: { id: 'x' } }), {
      name: ['This field may not be blank.'],
      order: ['Ensure this value is greater than or equal to 0.'],
      isHidden: ['Must be a valid boolean.'],
      position: { id: ['A valid integer is required.'] },
    });
  });

  it('form bodies are validated like JSON, references included', async () => {
    const b = await newBusiness(t);
    expect400(
      await call(b, {
        method: 'POST',
        url: '/v1/worker',
        form: 'urlencoded',
        body: { order: 'x', 'position.id': '999999' },
      }),
      {
        name: ['This field is required.'],
        order: ['A valid integer is required.'],
      },
    );
    expect400(
      await call(b, {
        method: 'POST',
        url: '/v1/worker',
        form: 'multipart',
        body: { name: 'x', 'position[id]': '999999' },
      }),
      {
        position: { id: ['Invalid pk "999999" - object does not exist.'] },
      },
    );
  });
});

describe('PATCH /v1/worker/{worker_id} — validation', () => {
  it('a bad position changes nothing, not even the valid properties sent with it', async () => {
    const b = await newBusiness(t);
    const w = await create(b, { name: 'Stable', position: { id: b.ids.positions.dev }, order: 1 });
    expect400(
      await call(b, {
        method: 'PATCH',
        url: `/v1/worker/${w.id}`,
        body: { name: 'Renamed', order: 7, position: { id: 2147483647 } },
      }),
      {
        position: { id: ['Invalid pk "2147483647" - object does not exist.'] },
      },
    );
    expect400(await call(b, { method: 'PATCH', url: `/v1/worker/${w.id}`, body: { name: null, manMonthAmount: -5 } }), {
      name: ['This field may not be null.'],
      manMonthAmount: ['Ensure this value is greater than or equal to 0.'],
    });
    expect((await call(b, { method: 'GET', url: `/v1/worker/${w.id}` })).body).toEqual({ ...w, updated: w.created });
  });

  it('an invalid body to a missing or foreign worker → 404, not the body errors', async () => {
    const b = await newBusiness(t);
    const other = await newBusiness(t);
    const foreign = (await create(other, { name: 'Theirs' })).id;
    for (const url of ['/v1/worker/2147483647', `/v1/worker/${foreign}`]) {
      const res = await call(b, { method: 'PATCH', url, body: { name: null } });
      expect(res.status, url).toBe(404);
      expect(res.body.detail).toBe('Not found.');
    }
  });
});

describe('bodies, routes and methods', () => {
  it('malformed JSON → 400; a text/plain body → 415; a JSON array → 400 nonField; nothing written', async () => {
    const b = await newBusiness(t);
    const bad = await call(b, {
      method: 'POST',
      url: '/v1/worker',
      raw: { payload: '{"name": ', contentType: 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/^JSON parse error - /);
    expect(
      (await call(b, { method: 'POST', url: '/v1/worker', raw: { payload: 'name=x', contentType: 'text/plain' } }))
        .status,
    ).toBe(415);
    expect400(
      await call(b, { method: 'POST', url: '/v1/worker', raw: { payload: '"x"', contentType: 'application/json' } }),
      {
        nonField: ['Invalid data. Expected a dictionary, but got str.'],
      },
    );
    expect(await listIds(b, '/v1/worker')).toEqual([]);
  });

  it('a path id that is not a positive integer, or unknown → 404 Not found.', async () => {
    const b = await newBusiness(t);
    for (const id of ['abc', '0', '-1', '1.5', '2147483647', '3000000000']) {
      for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
        const res = await call(b, {
          method,
          url: `/v1/worker/${id}`,
          ...(method === 'PATCH' ? { body: { name: 'x' } } : {}),
        });
        expect(res.status, `${method} ${id}`).toBe(404);
        expect(res.body, `${method} ${id}`).toEqual({
          detail: 'Not found.',
          code: 'not_found',
          requestId: res.headers['x-request-id'],
        });
      }
    }
  });

  it('a wrong method → 405 with Allow', async () => {
    const b = await newBusiness(t);
    const item = await call(b, { method: 'PUT', url: '/v1/worker/1', body: { name: 'X' } });
    expect(item.status).toBe(405);
    expect(item.headers.allow).toBe('GET, PATCH, DELETE');
    const collection = await call(b, { method: 'PATCH', url: '/v1/worker', body: {} });
    expect(collection.status).toBe(405);
    expect(collection.headers.allow).toBe('GET, POST');
  });
});

describe('GET /v1/worker — query parameter errors', () => {
  const cases: [query: string, key: string, message: string][] = [
    ['position_id=x', 'position_id', 'A valid integer is required.'],
    ['position_id=0', 'position_id', 'Ensure this value is greater than or equal to 1.'],
    ['is_hidden=maybe', 'is_hidden', 'Must be a valid boolean.'],
    ['page_size=0', 'page_size', 'Ensure this value is greater than or equal to 1.'],
    [`search=${'s'.repeat(201)}`, 'search', 'Item 1: Ensure this field has no more than 200 characters.'],
  ];
  for (const [query, key, message] of cases) {
    it(`${query.slice(0, 40)} → 400 {${key}: [${message}]}`, async () => {
      const b = await newBusiness(t);
      expect400(await call(b, { method: 'GET', url: `/v1/worker?${query}` }), { [key]: [message] });
    });
  }

  it('a forged cursor → 404 Invalid cursor; unknown parameters are ignored', async () => {
    const b = await newBusiness(t);
    const res = await call(b, { method: 'GET', url: '/v1/worker?cursor=forged.cursor' });
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe('Invalid cursor');
    expect((await call(b, { method: 'GET', url: '/v1/worker?name=x&ordering=order' })).status).toBe(200);
  });
});
