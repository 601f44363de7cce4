/**
 * Clients, the failing paths (decisions §2 errors, §4 cursors, §5 query parameters): DRF-shaped validation
 * bodies with DRF's wording, reference and fieldSet problems that write nothing, unreadable bodies, media
 * types, size limit, unknown routes and methods, bad query parameters and cursors, and `requestId`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { type SignedRequest } from '../../setup/signed-request.ts';
import { apiClient, expect400 } from '../../setup/api-client.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const api = apiClient(() => t.app);
const { call, listIds } = api;
const post = (b: TestBusiness, body: unknown) => api.post(b, '/v1/client', body);
async function create(b: TestBusiness, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await post(b, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
function raw(
  b: TestBusiness,
  method: SignedRequest['method'],
  url: string,
  payload: string | Buffer,
  contentType: string,
) {
  return call(b, { method, url, raw: { payload, contentType } });
}

describe('POST /v1/client — property validation', () => {
  it('companyName missing → This field is required.', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, {}), { companyName: ['This field is required.'] });
    expect400(await post(b, { inCharge: 'x' }), { companyName: ['This field is required.'] });
  });

  it('companyName blank → This field may not be blank.', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, { companyName: '' }), { companyName: ['This field may not be blank.'] });
  });

  it('companyName null → This field may not be null.', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, { companyName: null }), { companyName: ['This field may not be null.'] });
  });

  it('companyName of 129 characters → Ensure this field has no more than 128 characters.; 128 is fine', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, { companyName: 'x'.repeat(129) }), {
      companyName: ['Ensure this field has no more than 128 characters.'],
    });
    expect((await post(b, { companyName: 'x'.repeat(128) })).status).toBe(201);
  });

  it('the other text properties have their reference maximum lengths', async () => {
    const b = await newBusiness(t);
    expect400(
      await post(b, {
        companyName: 'A',
        inCharge: 'x'.repeat(65),
        branchNumber: '12345',
        businessRegistrationNumber: '1'.repeat(17),
      }),
      {
        inCharge: ['Ensure this field has no more than 64 characters.'],
        branchNumber: ['Ensure this field has no more than 4 characters.'],
        businessRegistrationNumber: ['Ensure this field has no more than 16 characters.'],
      },
    );
  });

  it('an invalid e-mail → Enter a valid email address.', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, { companyName: 'A', email: 'not-an-email' }), { email: ['Enter a valid email address.'] });
    expect400(await post(b, { companyName: 'A', taxInvoiceEmail: 'a@' }), {
      taxInvoiceEmail: ['Enter a valid email address.'],
    });
  });

  it('wrong JSON types are reported with DRF wording', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, { companyName: 5 }), { companyName: ['Not a valid string.'] });
    expect400(await post(b, { companyName: 'A', isHidden: 'yes' }), { isHidden: ['Must be a valid boolean.'] });
    expect400(await post(b, { companyName: 'A', status: 'x' }), {
      status: ['Invalid data. Expected a dictionary, but got str.'],
    });
    expect400(await post(b, { companyName: 'A', status: { id: 'abc' } }), {
      status: { id: ['A valid integer is required.'] },
    });
    expect400(await post(b, { companyName: 'A', status: {} }), { status: { id: ['This field is required.'] } });
    expect400(await post(b, { companyName: 'A', fieldSet: 'x' }), {
      fieldSet: [expect.stringMatching(/^Expected a list of items but got type "str"\.$/)],
    });
  });

  it('reports several bad properties at once', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, { companyName: '', email: 'bad', isHidden: 'yes', contact: 7 }), {
      companyName: ['This field may not be blank.'],
      email: ['Enter a valid email address.'],
      isHidden: ['Must be a valid boolean.'],
      contact: ['Not a valid string.'],
    });
  });

  it('a status id that does not exist → status.id Invalid pk', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, { companyName: 'A', status: { id: 999999 } }), {
      status: { id: ['Invalid pk "999999" - object does not exist.'] },
    });
    expect(await listIds(b, '/v1/client')).toEqual([]);
  });

  it('nothing is written when validation fails', async () => {
    const b = await newBusiness(t);
    await post(b, { companyName: '' });
    await post(b, { companyName: 'A', status: { id: 999999 } });
    expect(await listIds(b, '/v1/client')).toEqual([]);
  });
});

describe('NUL characters (no database can store them) → 400, never a 500', () => {
  it('in a body string, in a nested string and in a query value', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, { companyName: 'Bad\u0000Name' }), { companyName: ['Null characters are not allowed.'] });
    expect400(await post(b, { companyName: 'Ok', fieldSet: [{ field: { id: 1 }, value: '\u0000' }] }), {
      fieldSet: ['Item 1 (value): Null characters are not allowed.'],
    });
    expect(await listIds(b, '/v1/client')).toEqual([]);
    const res = await call(b, { method: 'GET', url: '/v1/client?search=%00' });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body.search)).toContain('Null characters are not allowed.');
  });
});

describe('fieldSet problems → 400 with fieldSet a list of strings, nothing written', () => {
  type Case = [label: string, entry: (b: TestBusiness) => { field: { id: number | undefined }; value: unknown }];
  const cases: Case[] = [
    ['an unknown field id', () => ({ field: { id: 999999 }, value: 'x' })],
    ['a field of another record kind (I)', (b) => ({ field: { id: b.ids.fields.budget }, value: '1' })],
    ['a field of another record kind (CO)', (b) => ({ field: { id: b.ids.fields.po }, value: 'x' })],
    ['N with text', (b) => ({ field: { id: b.ids.fields.employees }, value: 'many' })],
    ['D with an impossible date', (b) => ({ field: { id: b.ids.fields.since }, value: '2025-02-30' })],
    ['D in another format', (b) => ({ field: { id: b.ids.fields.since }, value: '01/02/2025' })],
    ['B with yes', (b) => ({ field: { id: b.ids.fields.vip }, value: 'yes' })],
    ['SL with an unknown option', (b) => ({ field: { id: b.ids.fields.channel }, value: 'fax' })],
    ['SL with an option title instead of its id', (b) => ({ field: { id: b.ids.fields.channel }, value: 'Web' })],
    ['ML with one unknown option', (b) => ({ field: { id: b.ids.fields.tags }, value: 'a,zzz' })],
    [
      'M with a member outside the memberSet',
      (b) => ({ field: { id: b.ids.fields.owner }, value: String(b.ids.members.park) }),
    ],
    ['M with a non-id', (b) => ({ field: { id: b.ids.fields.owner }, value: 'kim' })],
  ];

  for (const [label, entry] of cases) {
    it(`${label}: create writes nothing`, async () => {
      const b = await newBusiness(t);
      const res = await post(b, {
        companyName: 'Bad field',
        fieldSet: [{ field: { id: b.ids.fields.note }, value: 'ok' }, entry(b)],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(Object.keys(res.body).sort()).toEqual(['fieldSet', 'requestId']);
      expect(res.body.fieldSet).toEqual([expect.any(String)]);
      expect(await listIds(b, '/v1/client')).toEqual([]);
    });
  }

  it('a bad entry in a PATCH changes nothing, not even the valid properties sent with it', async () => {
    const b = await newBusiness(t);
    const c = await create(b, {
      companyName: 'Stable',
      fieldSet: [{ field: { id: b.ids.fields.note }, value: 'keep' }],
    });
    const before = (await call(b, { method: 'GET', url: `/v1/client/${c.id}` })).body;
    const res = await call(b, {
      method: 'PATCH',
      url: `/v1/client/${c.id}`,
      body: {
        companyName: 'Changed',
        fieldSet: [
          { field: { id: b.ids.fields.note }, value: 'changed' },
          { field: { id: b.ids.fields.vip }, value: 'maybe' },
        ],
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.fieldSet).toEqual([expect.any(String)]);
    expect((await call(b, { method: 'GET', url: `/v1/client/${c.id}` })).body).toEqual(before);
  });

  it('the same field twice is a 400', async () => {
    const b = await newBusiness(t);
    const res = await post(b, {
      companyName: 'Twice',
      fieldSet: [
        { field: { id: b.ids.fields.note }, value: 'a' },
        { field: { id: b.ids.fields.note }, value: 'b' },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.fieldSet).toEqual([expect.any(String)]);
    expect(await listIds(b, '/v1/client')).toEqual([]);
  });

  it('several bad entries are all reported, with the status problem too', async () => {
    const b = await newBusiness(t);
    const res = await post(b, {
      companyName: 'Many',
      status: { id: 999999 },
      fieldSet: [
        { field: { id: 999998 }, value: 'x' },
        { field: { id: b.ids.fields.employees }, value: 'x' },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.status).toEqual({ id: ['Invalid pk "999999" - object does not exist.'] });
    expect(res.body.fieldSet).toEqual([expect.stringContaining('999998'), expect.any(String)]);
  });

  it('a malformed entry (missing field) is a 400 on fieldSet', async () => {
    const b = await newBusiness(t);
    const res = await post(b, { companyName: 'Malformed', fieldSet: [{ value: 'x' }] });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body).sort()).toEqual(['fieldSet', 'requestId']);
    expect(res.body.fieldSet).toEqual([expect.any(String)]);
  });
});

describe('unreadable bodies, media types and size', () => {
  it('malformed JSON → 400 JSON parse error', async () => {
    const b = await newBusiness(t);
    const res = await raw(b, 'POST', '/v1/client', '{"companyName": ', 'application/json');
    expect(res.status).toBe(400);
    expect(Object.keys(res.body).sort()).toEqual(['code', 'detail', 'requestId']);
    expect(res.body.code).toBe('parse_error');
    expect(res.body.detail).toMatch(/^JSON parse error - /);
    expect(res.body.requestId).toBe(res.headers['x-request-id']);
    expect(await listIds(b, '/v1/client')).toEqual([]);
  });

  it('an empty JSON body is no body: POST → 400 on companyName (not a parse error), PATCH → 200 unchanged', async () => {
    const b = await newBusiness(t);
    const res = await raw(b, 'POST', '/v1/client', '', 'application/json');
    expect(res.status).toBe(400);
    expect(res.body.companyName).toEqual(['This field is required.']);
    expect(res.body.detail).toBeUndefined();
    const patch = await raw(
      b,
      'PATCH',
      `/v1/client/${(await create(b, { companyName: 'P' })).id}`,
      '',
      'application/json',
    );
    expect(patch.status).toBe(200);
    expect(patch.body.companyName).toBe('P');
  });

  it('a JSON body that is not an object → 400 nonField', async () => {
    const b = await newBusiness(t);
    for (const payload of ['[1]', '"x"', '5', 'null']) {
      const res = await raw(b, 'POST', '/v1/client', payload, 'application/json');
      expect(res.status, payload).toBe(400);
      expect(Object.keys(res.body).sort(), payload).toEqual(['nonField', 'requestId']);
      expect(res.body.nonField, payload).toEqual([
        expect.stringMatching(/^Invalid data\. Expected a dictionary, but got /),
      ]);
    }
    expect(await listIds(b, '/v1/client')).toEqual([]);
  });

  it('a text/plain body → 415', async () => {
    const b = await newBusiness(t);
    const res = await raw(b, 'POST', '/v1/client', 'companyName=A', 'text/plain');
    expect(res.status).toBe(415);
    expect(res.body).toEqual({
      detail: expect.any(String),
      code: 'unsupported_media_type',
      requestId: res.headers['x-request-id'],
    });
    const xml = await raw(b, 'POST', '/v1/client', '<a/>', 'application/xml');
    expect(xml.status).toBe(415);
    expect(await listIds(b, '/v1/client')).toEqual([]);
  });

  it('a body over 1 MiB → 413', async () => {
    const b = await newBusiness(t);
    const big = JSON.stringify({ companyName: 'Big', content: 'x'.repeat(1024 * 1024) });
    const res = await raw(b, 'POST', '/v1/client', big, 'application/json');
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      detail: expect.any(String),
      code: 'payload_too_large',
      requestId: res.headers['x-request-id'],
    });
    expect(await listIds(b, '/v1/client')).toEqual([]);
  });

  it('a malformed form body → 400', async () => {
    const b = await newBusiness(t);
    const res = await raw(b, 'POST', '/v1/client', '--nope\r\n', 'multipart/form-data; boundary=something');
    expect(res.status).toBe(400);
    expect(res.body.detail).toEqual(expect.any(String));
  });

  it('form bodies are validated like JSON', async () => {
    const b = await newBusiness(t);
    const res = await call(b, {
      method: 'POST',
      url: '/v1/client',
      form: 'urlencoded',
      body: { email: 'bad', isHidden: 'maybe' },
    });
    expect400(res, {
      companyName: ['This field is required.'],
      email: ['Enter a valid email address.'],
      isHidden: ['Must be a valid boolean.'],
    });
    const ref = await call(b, {
      method: 'POST',
      url: '/v1/client',
      form: 'multipart',
      body: { companyName: 'A', 'status[id]': '999999' },
    });
    expect400(ref, { status: { id: ['Invalid pk "999999" - object does not exist.'] } });
  });
});

describe('routes and methods', () => {
  it('a wrong method → 405 with Allow and DRF detail', async () => {
    const b = await newBusiness(t);
    const item = await call(b, { method: 'PUT', url: '/v1/client/1', body: { companyName: 'X' } });
    expect(item.status).toBe(405);
    expect(item.body).toEqual({
      detail: 'Method "PUT" not allowed.',
      code: 'method_not_allowed',
      requestId: item.headers['x-request-id'],
    });
    expect(item.headers.allow).toBe('GET, PATCH, DELETE');
    const collection = await call(b, { method: 'DELETE', url: '/v1/client' });
    expect(collection.status).toBe(405);
    expect(collection.body.detail).toBe('Method "DELETE" not allowed.');
    expect(collection.headers.allow).toBe('GET, POST');
    const slash = await call(b, { method: 'PUT', url: '/v1/client/1/' });
    expect(slash.status).toBe(405);
  });

  it('an unknown route → 404 Not found.', async () => {
    const b = await newBusiness(t);
    for (const url of ['/v1/nothing-here', '/v1/client/1/extra', '/nothing']) {
      const res = await call(b, { method: 'GET', url });
      expect(res.status, url).toBe(404);
      expect(res.body, url).toEqual({
        detail: 'Not found.',
        code: 'not_found',
        requestId: res.headers['x-request-id'],
      });
    }
  });

  it('a path id that is not a positive integer → 404', async () => {
    const b = await newBusiness(t);
    for (const id of ['abc', '0', '-1', '1.5']) {
      for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
        const res = await call(b, {
          method,
          url: `/v1/client/${id}`,
          ...(method === 'PATCH' ? { body: { contact: 'x' } } : {}),
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

  it('a path id above 2^53 − 1 → 400, on GET, PATCH and DELETE alike (docs/api.md#ids)', async () => {
    const b = await newBusiness(t);
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await call(b, {
        method,
        url: '/v1/client/99999999999999999999',
        ...(method === 'PATCH' ? { body: { contact: 'x' } } : {}),
      });
      expect400(res, { client_id: ['Ensure this value is less than or equal to 9007199254740991.'] });
    }
  });

  it('PATCH of a missing client → 404', async () => {
    const b = await newBusiness(t);
    const res = await call(b, { method: 'PATCH', url: '/v1/client/2147483647', body: { contact: 'x' } });
    expect(res.status).toBe(404);
  });

  it('PATCH with an invalid body to a missing or foreign client → 404, not the body errors (as DRF)', async () => {
    const b = await newBusiness(t);
    const other = await newBusiness(t);
    const foreign = (await create(other, { companyName: 'Theirs' })).id;
    for (const url of ['/v1/client/2147483647', `/v1/client/${foreign}`]) {
      const res = await call(b, { method: 'PATCH', url, body: { companyName: null, email: 'not-an-email' } });
      expect(res.status, url).toBe(404);
      expect(res.body.detail).toBe('Not found.');
    }
    const mine = (await create(b, { companyName: 'Mine' })).id;
    const invalid = await call(b, { method: 'PATCH', url: `/v1/client/${mine}`, body: { companyName: null } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.companyName).toEqual(['This field may not be null.']);
  });
});

describe('GET /v1/client — query parameter errors', () => {
  const cases: [query: string, key: string, message: string][] = [
    ['page_size=0', 'page_size', 'Ensure this value is greater than or equal to 1.'],
    ['page_size=-3', 'page_size', 'Ensure this value is greater than or equal to 1.'],
    ['page_size=abc', 'page_size', 'A valid integer is required.'],
    ['page_size=1.5', 'page_size', 'A valid integer is required.'],
    ['limit=0', 'limit', 'Ensure this value is greater than or equal to 1.'],
    ['limit=x', 'limit', 'A valid integer is required.'],
    ['is_hidden=maybe', 'is_hidden', 'Must be a valid boolean.'],
    ['is_hidden=TRUE1', 'is_hidden', 'Must be a valid boolean.'],
    ['status_id=x', 'status_id', 'A valid integer is required.'],
    [
      'created_start=2026-13-01',
      'created_start',
      'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.',
    ],
    ['created_end=2026-02-30', 'created_end', 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'],
    ['created_end=yesterday', 'created_end', 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'],
  ];
  for (const [query, key, message] of cases) {
    it(`${query} → 400 {${key}: [${message}]}`, async () => {
      const b = await newBusiness(t);
      expect400(await call(b, { method: 'GET', url: `/v1/client?${query}` }), { [key]: [message] });
    });
  }

  it('reports several bad parameters at once', async () => {
    const b = await newBusiness(t);
    const res = await call(b, { method: 'GET', url: '/v1/client?page_size=0&is_hidden=maybe&status_id=x' });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body).sort()).toEqual(['is_hidden', 'page_size', 'requestId', 'status_id']);
  });

  it('ignores unknown query parameters', async () => {
    const b = await newBusiness(t);
    const res = await call(b, { method: 'GET', url: '/v1/client?ordering=-id&foo=bar' });
    expect(res.status).toBe(200);
  });
});

describe('GET /v1/client — cursors', () => {
  async function realNext(b: TestBusiness): Promise<string> {
    await create(b, { companyName: 'One' });
    await create(b, { companyName: 'Two' });
    const res = await call(b, { method: 'GET', url: '/v1/client?page_size=1' });
    const cursor = new URL(res.body.next as string).searchParams.get('cursor');
    expect(cursor).toEqual(expect.any(String));
    return cursor!;
  }
  function flip(c: string): string {
    return c === 'A' ? 'B' : 'A';
  }
  async function expectInvalid(b: TestBusiness, cursor: string): Promise<void> {
    const res = await call(b, { method: 'GET', url: `/v1/client?page_size=1&cursor=${encodeURIComponent(cursor)}` });
    expect(res.status, cursor).toBe(404);
    expect(res.body, cursor).toEqual({
      detail: 'Invalid cursor',
      code: 'not_found',
      requestId: res.headers['x-request-id'],
    });
  }

  it('a garbage cursor → 404 Invalid cursor', async () => {
    const b = await newBusiness(t);
    for (const garbage of ['garbage', 'a.b', 'a.b.c', '.', '%%%', 'eyJ4IjoxfQ']) await expectInvalid(b, garbage);
  });

  it('a real cursor with one character changed → 404 Invalid cursor', async () => {
    const b = await newBusiness(t);
    const cursor = await realNext(b);
    const dot = cursor.indexOf('.');
    expect(dot).toBeGreaterThan(0);
    // First character of the payload, and a character in the middle of the tag.
    await expectInvalid(b, flip(cursor[0]!) + cursor.slice(1));
    const mid = dot + 5;
    await expectInvalid(b, cursor.slice(0, mid) + flip(cursor[mid]!) + cursor.slice(mid + 1));
    // The untouched cursor still works.
    const ok = await call(b, { method: 'GET', url: `/v1/client?page_size=1&cursor=${encodeURIComponent(cursor)}` });
    expect(ok.status).toBe(200);
    expect(ok.body.results.map((r: { companyName: string }) => r.companyName)).toEqual(['One']);
  });

  it('a cursor issued by another list (another ordering) → 404 Invalid cursor', async () => {
    const b = await newBusiness(t);
    await create(b, { companyName: 'Listed' });
    // The client status list is ordered by (position, id); the client list by (created, id).
    const statuses = await call(b, { method: 'GET', url: '/v1/client/status?page_size=1' });
    const foreign = new URL(statuses.body.next as string).searchParams.get('cursor')!;
    await expectInvalid(b, foreign);
  });

  it('a cursor with characters appended → 404 Invalid cursor', async () => {
    const b = await newBusiness(t);
    const cursor = await realNext(b);
    await expectInvalid(b, `${cursor}!`);
    await expectInvalid(b, `${cursor}.x`);
  });
});

describe('requestId', () => {
  it('every error body carries requestId equal to the X-Request-Id header', async () => {
    const b = await newBusiness(t);
    const requests: [creds: TestBusiness | undefined, req: SignedRequest][] = [
      [b, { method: 'POST', url: '/v1/client', body: {} }],
      [b, { method: 'GET', url: '/v1/client/2147483647' }],
      [b, { method: 'GET', url: '/v1/client?page_size=0' }],
      [b, { method: 'GET', url: '/v1/client?cursor=nope' }],
      [b, { method: 'PUT', url: '/v1/client/1' }],
      [b, { method: 'POST', url: '/v1/client', raw: { payload: '{', contentType: 'application/json' } }],
      [b, { method: 'POST', url: '/v1/client', raw: { payload: 'x', contentType: 'text/plain' } }],
      [undefined, { method: 'GET', url: '/v1/client' }],
      [b, { method: 'GET', url: '/v1/client', signature: 'f'.repeat(64) }],
    ];
    for (const [creds, req] of requests) {
      const res = await api.raw(creds, req);
      expect(res.statusCode, `${req.method} ${req.url}`).toBeGreaterThanOrEqual(400);
      const id = res.headers['x-request-id'];
      expect(id, `${req.method} ${req.url}`).toEqual(expect.any(String));
      expect(JSON.parse(res.body).requestId, `${req.method} ${req.url}`).toBe(id);
      expect(res.body).not.toMatch(/\bat .*\.ts:\d+/);
    }
  });
});
