/**
 * Contracts, the failing paths (spec: Resources › Contract, Limits; reference: Contract; decisions §2, §5,
 * §7): every property rule as a DRF-shaped 400 that writes nothing, bad references, recurring-field rules,
 * 404s, bad query parameters, and the failing paths of contract notes.
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
const { call } = api;
const post = (b: TestBusiness, body: unknown) => api.post(b, '/v1/contract', body);
const patch = (b: TestBusiness, id: unknown, body: unknown) => api.patch(b, `/v1/contract/${id}`, body);
async function create(b: TestBusiness, body: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await post(b, { title: 'Contract', amount: 1000, type: 'G', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
const base = { title: 'T', amount: 1, type: 'G' };

describe('POST /v1/contract — property validation', () => {
  it('title, amount and type are required', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, {}), {
      title: ['This field is required.'],
      amount: ['This field is required.'],
      type: ['This field is required.'],
    });
    expect400(await post(b, { title: 'T', amount: 1 }), { type: ['This field is required.'] });
  });

  it('title: blank, null, 129 characters', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, { ...base, title: '' }), { title: ['This field may not be blank.'] });
    expect400(await post(b, { ...base, title: null }), { title: ['This field may not be null.'] });
    expect400(await post(b, { ...base, title: 'x'.repeat(129) }), {
      title: ['Ensure this field has no more than 128 characters.'],
    });
  });

  it('contractNumber of 129 characters', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, { ...base, contractNumber: 'n'.repeat(129) }), {
      contractNumber: ['Ensure this field has no more than 128 characters.'],
    });
  });

  it('amount: negative, fractional, a string, null, beyond 2^53 − 1', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, { ...base, amount: -1 }), { amount: ['Ensure this value is greater than or equal to 0.'] });
    expect400(await post(b, { ...base, amount: 1.5 }), { amount: ['A valid integer is required.'] });
    expect400(await post(b, { ...base, amount: '100' }), { amount: ['A valid integer is required.'] });
    expect400(await post(b, { ...base, amount: null }), { amount: ['This field may not be null.'] });
    expect400(await post(b, { ...base, amount: Number.MAX_SAFE_INTEGER + 1 }), {
      amount: [`Ensure this value is less than or equal to ${Number.MAX_SAFE_INTEGER}.`],
    });
  });

  it('type, status, vatType and settlementCycle only take their codes', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, { ...base, type: 'X' }), { type: ['"X" is not a valid choice.'] });
    expect400(await post(b, { ...base, type: null }), { type: ['This field may not be null.'] });
    expect400(await post(b, { ...base, status: 'Z' }), { status: ['"Z" is not a valid choice.'] });
    expect400(await post(b, { ...base, status: null }), { status: ['This field may not be null.'] });
    expect400(await post(b, { ...base, vatType: 'V' }), { vatType: ['"V" is not a valid choice.'] });
    expect400(await post(b, { ...base, type: 'S', settlementCycle: 'D' }), {
      settlementCycle: ['"D" is not a valid choice.'],
    });
  });

  it('dates must be YYYY-MM-DD calendar dates', async () => {
    const b = await newBusiness(t);
    const message = ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'];
    expect400(await post(b, { ...base, startDate: '2026-02-30', endDate: '01/02/2026' }), {
      startDate: message,
      endDate: message,
    });
  });

  it('endDate before startDate', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, { ...base, startDate: '2026-05-02', endDate: '2026-05-01' }), {
      endDate: ['The end date may not be before the start date.'],
    });
  });

  it('recurring fields on a type other than S: 400 on each property sent', async () => {
    const b = await newBusiness(t);
    const message = ['Only recurring contracts (type "S") take this property.'];
    for (const type of ['I', 'G']) {
      expect400(await post(b, { ...base, type, settlementFrequency: 1, settlementCycle: 'M', settlementDay: 5 }), {
        settlementFrequency: message,
        settlementCycle: message,
        settlementDay: message,
      });
      expect400(await post(b, { ...base, type, settlementDay: 0 }), { settlementDay: message });
    }
  });

  it('settlementFrequency ≥ 1; settlementDay 0..30 (31 refused); weekly 0..6; monthly 1..30', async () => {
    const b = await newBusiness(t);
    const s = { ...base, type: 'S' };
    expect400(await post(b, { ...s, settlementFrequency: 0 }), {
      settlementFrequency: ['Ensure this value is greater than or equal to 1.'],
    });
    expect400(await post(b, { ...s, settlementCycle: 'M', settlementDay: 31 }), {
      settlementDay: ['Ensure this value is less than or equal to 30.'],
    });
    expect400(await post(b, { ...s, settlementDay: -1 }), {
      settlementDay: ['Ensure this value is greater than or equal to 0.'],
    });
    expect400(await post(b, { ...s, settlementCycle: 'W', settlementDay: 7 }), {
      settlementDay: ['On a weekly cycle the settlement day is 0 (Sunday) to 6 (Saturday).'],
    });
    expect400(await post(b, { ...s, settlementCycle: 'M', settlementDay: 0 }), {
      settlementDay: ['On a monthly cycle the settlement day is 1 to 30.'],
    });
  });

  it('references to records that do not exist: client, categorySet', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, { ...base, client: { id: 999999 } }), {
      client: { id: ['Invalid pk "999999" - object does not exist.'] },
    });
    expect400(await post(b, { ...base, categorySet: [{ id: b.ids.contractCategories.web }, { id: 999999 }] }), {
      categorySet: ['Invalid pk "999999" - object does not exist.'],
    });
  });

  it('a soft-deleted client cannot be referenced', async () => {
    const b = await newBusiness(t);
    const client = await call(b, { method: 'POST', url: '/v1/client', body: { companyName: 'Gone' } });
    await call(b, { method: 'DELETE', url: `/v1/client/${client.body.id}` });
    expect400(await post(b, { ...base, client: { id: client.body.id } }), {
      client: { id: [`Invalid pk "${client.body.id}" - object does not exist.`] },
    });
  });

  it('reference shapes: not an object, no id, a bad id', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, { ...base, client: 5 }), { client: ['Invalid data. Expected a dictionary, but got int.'] });
    expect400(await post(b, { ...base, client: {} }), { client: { id: ['This field is required.'] } });
    expect400(await post(b, { ...base, client: { id: 'x' } }), { client: { id: ['A valid integer is required.'] } });
    expect400(await post(b, { ...base, categorySet: {} }), {
      categorySet: ['Expected a list of items but got type "dict".'],
    });
    expect400(await post(b, { ...base, categorySet: [{}] }), { categorySet: ['Item 1 (id): This field is required.'] });
  });

  it('fieldSet: a field of another record kind, an unknown field, a value that does not fit', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, { ...base, fieldSet: [{ field: { id: b.ids.fields.note }, value: 'x' }] }), {
      fieldSet: [`Field "Note" (${b.ids.fields.note}) is not a field of a contract.`],
    });
    expect400(await post(b, { ...base, fieldSet: [{ field: { id: 999999 }, value: 'x' }] }), {
      fieldSet: ['Invalid pk "999999" - object does not exist.'],
    });
  });

  it('reports several problems at once and writes nothing', async () => {
    const b = await newBusiness(t);
    expect400(
      await post(b, {
        title: '',
        amount: -5,
        type: 'G',
        settlementCycle: 'W',
        client: { id: 999999 },
        isHidden: 'yes',
      }),
      {
        title: ['This field may not be blank.'],
        amount: ['Ensure this value is greater than or equal to 0.'],
        isHidden: ['Must be a valid boolean.'],
      },
    );
    expect400(await post(b, { ...base, settlementCycle: 'W', client: { id: 999999 }, categorySet: [{ id: 999998 }] }), {
      settlementCycle: ['Only recurring contracts (type "S") take this property.'],
      client: { id: ['Invalid pk "999999" - object does not exist.'] },
      categorySet: ['Invalid pk "999998" - object does not exist.'],
    });
    expect(await api.listIds(b, '/v1/contract')).toEqual([]);
  });

  it('a body that is not an object', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, [1, 2]), { nonField: ['Invalid data. Expected a dictionary, but got list.'] });
  });
});

describe('PATCH /v1/contract/{contract_id} — validation', () => {
  it('the recurring rules apply to the merged state, and a failed PATCH changes nothing', async () => {
    const b = await newBusiness(t);
    const c = await create(b, { type: 'S', settlementFrequency: 1, settlementCycle: 'M', settlementDay: 20 });
    const before = (await call(b, { method: 'GET', url: `/v1/contract/${c.id}` })).body;
    expect400(await patch(b, c.id, { settlementCycle: 'W', title: 'Changed' }), {
      settlementDay: ['On a weekly cycle the settlement day is 0 (Sunday) to 6 (Saturday).'],
    });
    expect400(await patch(b, c.id, { type: 'G', settlementDay: 3 }), {
      settlementDay: ['Only recurring contracts (type "S") take this property.'],
    });
    const g = await create(b, { type: 'G' });
    expect400(await patch(b, g.id, { settlementFrequency: 2 }), {
      settlementFrequency: ['Only recurring contracts (type "S") take this property.'],
    });
    expect((await call(b, { method: 'GET', url: `/v1/contract/${c.id}` })).body).toEqual(before);
  });

  it('endDate before the stored startDate, and startDate after the stored endDate', async () => {
    const b = await newBusiness(t);
    const c = await create(b, { startDate: '2026-03-01', endDate: '2026-03-31' });
    expect400(await patch(b, c.id, { endDate: '2026-02-28' }), {
      endDate: ['The end date may not be before the start date.'],
    });
    expect400(await patch(b, c.id, { startDate: '2026-04-01' }), {
      endDate: ['The end date may not be before the start date.'],
    });
    expect((await patch(b, c.id, { startDate: '2026-04-01', endDate: null })).status).toBe(200);
  });

  it('title, amount and type may not be null; bad references; categorySet untouched on failure', async () => {
    const b = await newBusiness(t);
    const web = b.ids.contractCategories.web;
    const c = await create(b, { categorySet: [{ id: web }] });
    expect400(await patch(b, c.id, { title: null, amount: null, type: null }), {
      title: ['This field may not be null.'],
      amount: ['This field may not be null.'],
      type: ['This field may not be null.'],
    });
    expect400(await patch(b, c.id, { categorySet: [{ id: 999999 }] }), {
      categorySet: ['Invalid pk "999999" - object does not exist.'],
    });
    expect((await call(b, { method: 'GET', url: `/v1/contract/${c.id}` })).body.categorySet).toEqual([
      { id: web, title: 'Web development' },
    ]);
  });

  it('answers 404 before looking at the body for a contract that does not exist', async () => {
    const b = await newBusiness(t);
    const res = await patch(b, 999999, { title: '' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'Not found.', code: 'not_found', requestId: res.headers['x-request-id'] });
  });
});

describe('routes and ids', () => {
  it('unknown ids and non-integer ids answer 404 on every method', async () => {
    const b = await newBusiness(t);
    for (const url of ['/v1/contract/999999', '/v1/contract/abc', '/v1/contract/0', '/v1/contract/1.5']) {
      for (const method of ['GET', 'DELETE'] as const) {
        const res = await call(b, { method, url });
        expect(res.status, `${method} ${url}`).toBe(404);
        expect(res.body.detail).toBe('Not found.');
      }
    }
  });

  it('an unsupported method answers 405 with Allow', async () => {
    const b = await newBusiness(t);
    const c = await create(b);
    const res = await call(b, { method: 'PUT', url: `/v1/contract/${c.id}`, body: base });
    expect(res.status).toBe(405);
    expect(res.body.detail).toBe('Method "PUT" not allowed.');
    expect(String(res.headers.allow)).toMatch(/GET/);
    expect(String(res.headers.allow)).toMatch(/PATCH/);
  });
});

describe('GET /v1/contract — query errors', () => {
  it('bad page sizes, ids, dates, booleans and statuses answer 400 under their own names', async () => {
    const b = await newBusiness(t);
    const get = (q: string) => call(b, { method: 'GET', url: `/v1/contract?${q}` });
    expect400(await get('page_size=0'), { page_size: ['Ensure this value is greater than or equal to 1.'] });
    expect400(await get('client_id=abc'), { client_id: ['A valid integer is required.'] });
    expect400(await get('inquiry_id=x'), { inquiry_id: ['A valid integer is required.'] });
    expect400(await get('category_id=x'), { category_id: ['A valid integer is required.'] });
    expect400(await get('start_date_from=2026-13-01'), {
      start_date_from: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'],
    });
    expect400(await get('end_date_to=yesterday'), {
      end_date_to: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'],
    });
    expect400(await get('created_start=2026-1-1'), {
      created_start: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'],
    });
    expect400(await get('is_hidden=maybe'), { is_hidden: ['Must be a valid boolean.'] });
    expect400(await get('status=X'), { status: ['"X" is not a valid choice.'] });
  });

  it('a tampered cursor, or one from another list, answers 404 Invalid cursor', async () => {
    const b = await newBusiness(t);
    await create(b);
    await create(b);
    const page = await call(b, { method: 'GET', url: '/v1/contract?page_size=1' });
    const cursor = new URL(page.body.next).searchParams.get('cursor')!;
    const tampered = await call(b, { method: 'GET', url: `/v1/contract?cursor=${cursor}x` });
    expect(tampered.status).toBe(404);
    expect(tampered.body.detail).toBe('Invalid cursor');
    const elsewhere = await call(b, { method: 'GET', url: `/v1/client?cursor=${cursor}` });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.detail).toBe('Invalid cursor');
  });
});

describe('contract notes — failing paths', () => {
  it('content is required, 1..5000 characters', async () => {
    const b = await newBusiness(t);
    const c = await create(b);
    const url = `/v1/contract/${c.id}/history`;
    expect400(await call(b, { method: 'POST', url, body: {} }), { content: ['This field is required.'] });
    expect400(await call(b, { method: 'POST', url, body: { content: '' } }), {
      content: ['This field may not be blank.'],
    });
    expect400(await call(b, { method: 'POST', url, body: { content: 'x'.repeat(5001) } }), {
      content: ['Ensure this field has no more than 5000 characters.'],
    });
    expect((await call(b, { method: 'GET', url })).body.results).toEqual([]);
  });

  it('member must be a member of the business; created must be a date-time', async () => {
    const b = await newBusiness(t);
    const c = await create(b);
    const url = `/v1/contract/${c.id}/history`;
    expect400(await call(b, { method: 'POST', url, body: { content: 'x', member: { id: 999999 } } }), {
      member: { id: ['Invalid pk "999999" - object does not exist.'] },
    });
    expect400(await call(b, { method: 'POST', url, body: { content: 'x', member: {} } }), {
      member: { id: ['This field is required.'] },
    });
    expect400(await call(b, { method: 'POST', url, body: { content: 'x', created: 'yesterday' } }), {
      created: [
        'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
      ],
    });
  });

  it('PATCH validates content and answers 404 first for a missing note', async () => {
    const b = await newBusiness(t);
    const c = await create(b);
    const url = `/v1/contract/${c.id}/history`;
    const note = await call(b, { method: 'POST', url, body: { content: 'x' } });
    expect400(await call(b, { method: 'PATCH', url: `${url}/${note.body.id}`, body: { content: '' } }), {
      content: ['This field may not be blank.'],
    });
    const missing = await call(b, { method: 'PATCH', url: `${url}/999999`, body: { content: '' } });
    expect(missing.status).toBe(404);
  });

  it('a note of another contract, or of a missing contract, answers 404', async () => {
    const b = await newBusiness(t);
    const one = await create(b);
    const two = await create(b);
    const note = await call(b, { method: 'POST', url: `/v1/contract/${one.id}/history`, body: { content: 'x' } });
    for (const req of [
      { method: 'GET', url: `/v1/contract/${two.id}/history/${note.body.id}` },
      { method: 'PATCH', url: `/v1/contract/${two.id}/history/${note.body.id}`, body: { content: 'y' } },
      { method: 'DELETE', url: `/v1/contract/${two.id}/history/${note.body.id}` },
      { method: 'GET', url: '/v1/contract/999999/history' },
      { method: 'POST', url: '/v1/contract/999999/history', body: { content: 'x' } },
      { method: 'POST', url: '/v1/contract/999999/history', body: {} },
      { method: 'GET', url: `/v1/contract/${one.id}/history/abc` },
    ] as SignedRequest[]) {
      const res = await call(b, req);
      expect(res.status, `${req.method} ${req.url}`).toBe(404);
    }
    expect((await call(b, { method: 'GET', url: `/v1/contract/${one.id}/history/${note.body.id}` })).body.content).toBe(
      'x',
    );
  });
});
