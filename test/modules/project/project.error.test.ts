/**
 * Projects, the failing paths (spec: Limits — title 1..128, symbolColor 1..32; decisions §2 errors, §4
 * cursors, §5 query parameters): DRF-shaped validation bodies with DRF's wording that write nothing, bad
 * bodies and media types, unknown ids and methods, bad query parameters and cursors.
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
const post = (b: TestBusiness, body: unknown) => api.post(b, '/v1/project', body);
async function create(b: TestBusiness, body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await post(b, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const DATE_FORMAT = 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.';

describe('POST /v1/project — property validation', () => {
  it('title missing, blank, null or longer than 128 characters', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, {}), { title: ['This field is required.'] });
    expect400(await post(b, { status: 'I' }), { title: ['This field is required.'] });
    expect400(await post(b, { title: '' }), { title: ['This field may not be blank.'] });
    expect400(await post(b, { title: null }), { title: ['This field may not be null.'] });
    expect400(await post(b, { title: 'x'.repeat(129) }), {
      title: ['Ensure this field has no more than 128 characters.'],
    });
    expect400(await post(b, { title: 5 }), { title: ['Not a valid string.'] });
    expect(await listIds(b, '/v1/project')).toEqual([]);
  });

  it('status outside U I A E, or null → DRF choice / null messages', async () => {
    const b = await newBusiness(t);
    for (const status of ['X', 'u', 'IA', ''])
      expect400(await post(b, { title: 'x', status }), { status: [`"${status}" is not a valid choice.`] });
    expect400(await post(b, { title: 'x', status: 1 }), { status: ['"1" is not a valid choice.'] });
    expect400(await post(b, { title: 'x', status: null }), { status: ['This field may not be null.'] });
  });

  it('symbolColor blank or longer than 32 characters', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, { title: 'x', symbolColor: '' }), { symbolColor: ['This field may not be blank.'] });
    expect400(await post(b, { title: 'x', symbolColor: 'c'.repeat(33) }), {
      symbolColor: ['Ensure this field has no more than 32 characters.'],
    });
  });

  it('dates that are not YYYY-MM-DD calendar dates', async () => {
    const b = await newBusiness(t);
    for (const value of ['2026-02-30', '2026-13-01', '26-01-01', '2026-01-01T00:00:00Z', 'tomorrow']) {
      expect400(await post(b, { title: 'x', startDate: value, endDate: value }), {
        startDate: [DATE_FORMAT],
        endDate: [DATE_FORMAT],
      });
    }
    expect400(await post(b, { title: 'x', startDate: 20260101 }), { startDate: ['Not a valid string.'] });
  });

  it('a contract that does not exist, or a malformed reference', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, { title: 'x', contract: { id: 2147483647 } }), {
      contract: { id: ['Invalid pk "2147483647" - object does not exist.'] },
    });
    expect400(await post(b, { title: 'x', contract: {} }), { contract: { id: ['This field is required.'] } });
    expect400(await post(b, { title: 'x', contract: { id: 'abc' } }), {
      contract: { id: ['A valid integer is required.'] },
    });
    expect400(await post(b, { title: 'x', contract: 3 }), {
      contract: ['Invalid data. Expected a dictionary, but got int.'],
    });
    expect(await listIds(b, '/v1/project')).toEqual([]);
  });

  it('isHidden that is not a boolean', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, { title: 'x', isHidden: 'yes' }), { isHidden: ['Must be a valid boolean.'] });
    expect400(await post(b, { title: 'x', isHidden: null }), { isHidden: ['This field may not be null.'] });
  });

  it('reports every bad property at once and writes nothing', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, { title: '', status: 'Z', symbolColor: '', startDate: 'x', isHidden: 3 }), {
      title: ['This field may not be blank.'],
      status: ['"Z" is not a valid choice.'],
      symbolColor: ['This field may not be blank.'],
      startDate: [DATE_FORMAT],
      isHidden: ['Must be a valid boolean.'],
    });
    expect(await listIds(b, '/v1/project')).toEqual([]);
  });

  it('form bodies are validated like JSON', async () => {
    const b = await newBusiness(t);
    expect400(
      await call(b, {
        method: 'POST',
        url: '/v1/project',
        form: 'urlencoded',
        body: { status: 'Q', isHidden: 'maybe' },
      }),
      {
        title: ['This field is required.'],
        status: ['"Q" is not a valid choice.'],
        isHidden: ['Must be a valid boolean.'],
      },
    );
  });
});

describe('PATCH /v1/project/{project_id} — validation', () => {
  it('the same rules as create, plus actualEndDate; a rejected PATCH changes nothing', async () => {
    const b = await newBusiness(t);
    const p = await create(b, { title: 'Stable', status: 'I' });
    expect400(await call(b, { method: 'PATCH', url: `/v1/project/${p.id}`, body: { title: null } }), {
      title: ['This field may not be null.'],
    });
    expect400(
      await call(b, {
        method: 'PATCH',
        url: `/v1/project/${p.id}`,
        body: { title: 'New', actualEndDate: '2026-02-31' },
      }),
      {
        actualEndDate: [DATE_FORMAT],
      },
    );
    expect400(
      await call(b, {
        method: 'PATCH',
        url: `/v1/project/${p.id}`,
        body: { status: 'D', symbolColor: 'c'.repeat(33) },
      }),
      {
        status: ['"D" is not a valid choice.'],
        symbolColor: ['Ensure this field has no more than 32 characters.'],
      },
    );
    expect400(
      await call(b, {
        method: 'PATCH',
        url: `/v1/project/${p.id}`,
        body: { title: 'New', contract: { id: 2147483647 } },
      }),
      {
        contract: { id: ['Invalid pk "2147483647" - object does not exist.'] },
      },
    );
    expect((await call(b, { method: 'GET', url: `/v1/project/${p.id}` })).body).toEqual({ ...p, updated: p.created });
  });

  it('an invalid body to a missing or foreign project → 404, not the body errors', async () => {
    const b = await newBusiness(t);
    const other = await newBusiness(t);
    const foreign = (await create(other, { title: 'Theirs' })).id;
    for (const url of ['/v1/project/2147483647', `/v1/project/${foreign}`]) {
      const res = await call(b, { method: 'PATCH', url, body: { title: null } });
      expect(res.status, url).toBe(404);
      expect(res.body.detail).toBe('Not found.');
    }
  });
});

describe('bodies, routes and methods', () => {
  it('malformed JSON → 400 JSON parse error; a text/plain body → 415; nothing written', async () => {
    const b = await newBusiness(t);
    const bad = await call(b, {
      method: 'POST',
      url: '/v1/project',
      raw: { payload: '{"title": ', contentType: 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/^JSON parse error - /);
    const plain = await call(b, {
      method: 'POST',
      url: '/v1/project',
      raw: { payload: 'title=x', contentType: 'text/plain' },
    });
    expect(plain.status).toBe(415);
    const array = await call(b, {
      method: 'POST',
      url: '/v1/project',
      raw: { payload: '[]', contentType: 'application/json' },
    });
    expect400(array, { nonField: ['Invalid data. Expected a dictionary, but got list.'] });
    expect(await listIds(b, '/v1/project')).toEqual([]);
  });

  it('a path id that is not a positive integer, or unknown → 404 Not found.', async () => {
    const b = await newBusiness(t);
    for (const id of ['abc', '0', '-1', '1.5', '2147483647', '3000000000']) {
      for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
        const res = await call(b, {
          method,
          url: `/v1/project/${id}`,
          ...(method === 'PATCH' ? { body: { title: 'x' } } : {}),
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
    const item = await call(b, { method: 'PUT', url: '/v1/project/1', body: { title: 'X' } });
    expect(item.status).toBe(405);
    expect(item.body.detail).toBe('Method "PUT" not allowed.');
    expect(item.headers.allow).toBe('GET, PATCH, DELETE');
    const collection = await call(b, { method: 'DELETE', url: '/v1/project' });
    expect(collection.status).toBe(405);
    expect(collection.headers.allow).toBe('GET, POST');
  });
});

describe('GET /v1/project — query parameter errors', () => {
  const cases: [query: string, key: string, message: string][] = [
    ['status=X', 'status', '"X" is not a valid choice.'],
    ['status=u', 'status', '"u" is not a valid choice.'],
    ['is_hidden=maybe', 'is_hidden', 'Must be a valid boolean.'],
    ['start_date_start=2026-13-01', 'start_date_start', DATE_FORMAT],
    ['start_date_end=2026-02-30', 'start_date_end', DATE_FORMAT],
    ['end_date_start=yesterday', 'end_date_start', DATE_FORMAT],
    ['end_date_end=2026-1-1', 'end_date_end', DATE_FORMAT],
    ['page_size=0', 'page_size', 'Ensure this value is greater than or equal to 1.'],
    ['limit=x', 'limit', 'A valid integer is required.'],
    ['contract_id=x', 'contract_id', 'A valid integer is required.'],
    ['contract_id=0', 'contract_id', 'Ensure this value is greater than or equal to 1.'],
  ];
  for (const [query, key, message] of cases) {
    it(`${query} → 400 {${key}: [${message}]}`, async () => {
      const b = await newBusiness(t);
      expect400(await call(b, { method: 'GET', url: `/v1/project?${query}` }), { [key]: [message] });
    });
  }

  it('reports several bad parameters at once and ignores unknown ones', async () => {
    const b = await newBusiness(t);
    const res = await call(b, { method: 'GET', url: '/v1/project?status=Q&is_hidden=x&end_date_end=no&contract=x' });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body).sort()).toEqual(['end_date_end', 'is_hidden', 'requestId', 'status']);
    expect((await call(b, { method: 'GET', url: '/v1/project?ordering=-id&foo=bar' })).status).toBe(200);
  });

  it('a forged cursor, or one issued by another list → 404 Invalid cursor', async () => {
    const b = await newBusiness(t);
    for (const cursor of ['garbage', 'a.b']) {
      const res = await call(b, { method: 'GET', url: `/v1/project?cursor=${cursor}` });
      expect(res.status).toBe(404);
      expect(res.body.detail).toBe('Invalid cursor');
    }
    await call(b, { method: 'POST', url: '/v1/client', body: { companyName: 'A' } });
    await call(b, { method: 'POST', url: '/v1/client', body: { companyName: 'B' } });
    const clients = await call(b, { method: 'GET', url: '/v1/client?page_size=1' });
    const foreign = new URL(clients.body.next as string).searchParams.get('cursor')!;
    const res = await call(b, { method: 'GET', url: `/v1/project?page_size=1&cursor=${encodeURIComponent(foreign)}` });
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe('Invalid cursor');
  });
});
