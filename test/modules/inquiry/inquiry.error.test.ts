/**
 * Inquiries, the failing paths (decisions §2 errors, §4 cursors, §5 query parameters, §7 member references
 * and custom fields; spec: Limits): DRF-shaped validation bodies, references and values that write nothing,
 * unknown ids, bad query parameters and cursors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { createClient, createInquiry, newInquiryBusiness } from './inquiry-helpers.ts';
import { apiClient, expect400 } from '../../setup/api-client.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const api = apiClient(() => t.app);
const { call, listIds } = api;
const post = (b: TestBusiness, body: unknown) => api.post(b, '/v1/inquiry', body);
const patch = (b: TestBusiness, id: number, body: unknown) => api.patch(b, `/v1/inquiry/${id}`, body);
/** The business has no inquiries (nothing was written). */
async function expectNoInquiries(b: TestBusiness): Promise<void> {
  expect(await listIds(b, '/v1/inquiry')).toEqual([]);
  const counter = await t.testDb.db
    .selectFrom('inquiry_counter')
    .select('last_value')
    .where('business_id', '=', b.businessId)
    .executeTakeFirst();
  expect(counter).toBeUndefined();
}

describe('POST /v1/inquiry — property validation', () => {
  it('name: more than 64 characters, blank, or not a string', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, { name: 'x'.repeat(65) }), { name: ['Ensure this field has no more than 64 characters.'] });
    expect400(await post(b, { name: '' }), { name: ['This field may not be blank.'] });
    expect400(await post(b, { name: 5 }), { name: ['Not a valid string.'] });
    await expectNoInquiries(b);
  });

  it('estimate: not a number, too many integer digits, too many decimals', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, { estimate: 'abc' }), { estimate: ['A valid number is required.'] });
    expect400(await post(b, { estimate: '1e5' }), { estimate: ['A valid number is required.'] });
    expect400(await post(b, { estimate: '1.' }), { estimate: ['A valid number is required.'] });
    expect400(await post(b, { estimate: '' }), { estimate: ['A valid number is required.'] });
    expect400(await post(b, { estimate: '1'.repeat(29) }), {
      estimate: ['Ensure that there are no more than 28 digits before the decimal point.'],
    });
    expect400(await post(b, { estimate: '1.234' }), {
      estimate: ['Ensure that there are no more than 2 decimal places.'],
    });
    expect400(await post(b, { estimate: 0.125 }), {
      estimate: ['Ensure that there are no more than 2 decimal places.'],
    });
    expect400(await post(b, { estimate: 1e30 }), { estimate: ['A valid number is required.'] });
    expect400(await post(b, { estimate: true }), { estimate: ['A valid number is required.'] });
    await expectNoInquiries(b);
  });

  it('inquiryDate: not a date', async () => {
    const b = await newBusiness(t);
    const message = ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'];
    expect400(await post(b, { inquiryDate: '2026-02-30' }), { inquiryDate: message });
    expect400(await post(b, { inquiryDate: '22/11/2026' }), { inquiryDate: message });
  });

  it('status and client: unknown ids, missing id, wrong types', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, { status: { id: 999999 }, client: { id: 999999 } }), {
      status: { id: ['Invalid pk "999999" - object does not exist.'] },
      client: { id: ['Invalid pk "999999" - object does not exist.'] },
    });
    expect400(await post(b, { status: {} }), { status: { id: ['This field is required.'] } });
    expect400(await post(b, { client: 5 }), { client: ['Invalid data. Expected a dictionary, but got int.'] });
    expect400(await post(b, { status: { id: 'x' } }), { status: { id: ['A valid integer is required.'] } });
    await expectNoInquiries(b);
  });

  it('a deleted client is not a valid reference', async () => {
    const b = await newBusiness(t);
    const clientId = await createClient(t, b);
    await call(b, { method: 'DELETE', url: `/v1/client/${clientId}` });
    expect400(await post(b, { client: { id: clientId } }), {
      client: { id: [`Invalid pk "${clientId}" - object does not exist.`] },
    });
  });

  it('inChargeSet: an entry without id, an unknown member, not a list', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, { inChargeSet: [{ nickname: 'Kim' }] }), {
      inChargeSet: ['Item 1 (id): This field is required.'],
    });
    expect400(await post(b, { inChargeSet: [{ id: b.ids.members.kim }, { id: 999999 }] }), {
      inChargeSet: ['Invalid pk "999999" - object does not exist.'],
    });
    expect400(await post(b, { inChargeSet: { id: 1 } }), {
      inChargeSet: ['Expected a list of items but got type "dict".'],
    });
    expect400(await post(b, { inChargeSet: Array.from({ length: 101 }, () => ({ id: b.ids.members.kim })) }), {
      inChargeSet: ['Ensure this field has no more than 100 elements.'],
    });
    await expectNoInquiries(b);
  });

  it('workSet and fileLinkSet: required keys and lengths', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, { workSet: [{ name: '' }, {}] }), {
      workSet: ['Item 1 (name): This field may not be blank.', 'Item 2 (name): This field is required.'],
    });
    expect400(await post(b, { fileLinkSet: [{ text: 'Brief' }] }), {
      fileLinkSet: ['Item 1 (link): This field is required.'],
    });
    expect400(await post(b, { fileLinkSet: [{ text: 'x'.repeat(257), link: 'https://x' }] }), {
      fileLinkSet: ['Item 1 (text): Ensure this field has no more than 256 characters.'],
    });
    await expectNoInquiries(b);
  });

  it('funnel: an object whose errors nest by key', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, { funnel: { utmSource: 5, gclid: 'x'.repeat(257) } }), {
      funnel: { utmSource: ['Not a valid string.'], gclid: ['Ensure this field has no more than 256 characters.'] },
    });
    expect400(await post(b, { funnel: 'google' }), { funnel: ['Invalid data. Expected a dictionary, but got str.'] });
  });

  it('fieldSet: a field of another kind, a value that does not fit, an unknown field', async () => {
    const b = await newInquiryBusiness(t);
    const f = b.ids.fields;
    expect400(
      await post(b, {
        fieldSet: [
          { field: { id: f.note }, value: 'x' },
          { field: { id: f.budget }, value: 'many' },
          { field: { id: f.iChannel }, value: 'fax' },
          { field: { id: 999999 }, value: 'x' },
        ],
      }),
      {
        fieldSet: [
          `Field "Note" (${f.note}) is not a field of an inquiry.`,
          `Field "Budget" (${f.budget}) expects a number.`,
          `Field "Inquiry channel" (${f.iChannel}): "fax" is not a valid choice.`,
          'Invalid pk "999999" - object does not exist.',
        ],
      },
    );
    await expectNoInquiries(b);
  });

  it('reports every problem of a body at once', async () => {
    const b = await newBusiness(t);
    const res = await post(b, { name: '', estimate: 'x', status: { id: 999999 } });
    expect(res.status).toBe(400);
    // Schema errors come first; reference checks run only on a body that passed the schema.
    expect(res.body).toMatchObject({ name: ['This field may not be blank.'] });
    expect400(await post(b, { estimate: 'x', status: { id: 999999 }, inChargeSet: [{ id: 999998 }] }), {
      estimate: ['A valid number is required.'],
      status: { id: ['Invalid pk "999999" - object does not exist.'] },
      inChargeSet: ['Invalid pk "999998" - object does not exist.'],
    });
  });

  it('a body that is not an object', async () => {
    const b = await newBusiness(t);
    expect400(await post(b, [1, 2]), { nonField: ['Invalid data. Expected a dictionary, but got list.'] });
  });
});

describe('PATCH /v1/inquiry/{inquiry_id} — validation', () => {
  it('status, name and inquiryDate may not be null; the same limits as create apply', async () => {
    const b = await newBusiness(t);
    const c = await createInquiry(t, b);
    expect400(await patch(b, c.id, { status: null, name: null, inquiryDate: null }), {
      status: ['This field may not be null.'],
      name: ['This field may not be null.'],
      inquiryDate: ['This field may not be null.'],
    });
    expect400(await patch(b, c.id, { name: 'x'.repeat(65), estimate: '1.001' }), {
      name: ['Ensure this field has no more than 64 characters.'],
    });
    expect400(await patch(b, c.id, { estimate: '1.001' }), {
      estimate: ['Ensure that there are no more than 2 decimal places.'],
    });
  });

  it('a rejected PATCH changes nothing at all', async () => {
    const b = await newInquiryBusiness(t);
    const c = await createInquiry(t, b, {
      name: 'Original',
      inChargeSet: [{ id: b.ids.members.kim }],
      workSet: [{ name: 'w' }],
      fieldSet: [{ field: { id: b.ids.fields.iNote }, value: 'n' }],
      fileLinkSet: [{ text: 't', link: 'https://l.example' }],
    });
    const before = (await call(b, { method: 'GET', url: `/v1/inquiry/${c.id}` })).body;
    const res = await patch(b, c.id, {
      name: 'Changed',
      status: { id: b.ids.statuses.won },
      inChargeSet: [{ id: b.ids.members.lee }],
      workSet: [],
      fileLinkSet: [],
      fieldSet: [
        { field: { id: b.ids.fields.iNote }, value: '' },
        { field: { id: b.ids.fields.budget }, value: 'NaN' },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      fieldSet: [`Field "Budget" (${b.ids.fields.budget}) expects a number.`],
      requestId: res.headers['x-request-id'],
    });
    expect((await call(b, { method: 'GET', url: `/v1/inquiry/${c.id}` })).body).toEqual(before);
    const history = await call(b, { method: 'GET', url: `/v1/inquiry/${c.id}/status_history` });
    expect(history.body.results).toHaveLength(1);
  });

  it('a deleted inquiry cannot be patched', async () => {
    const b = await newBusiness(t);
    const c = await createInquiry(t, b);
    await call(b, { method: 'DELETE', url: `/v1/inquiry/${c.id}` });
    const res = await patch(b, c.id, { name: 'Back' });
    expect(res.status).toBe(404);
  });
});

describe('GET /v1/inquiry — query errors', () => {
  it('rejects bad filters with the parameter name', async () => {
    const b = await newBusiness(t);
    const get = (q: string) => call(b, { method: 'GET', url: `/v1/inquiry?${q}` });
    expect400(await get('is_hidden=maybe'), { is_hidden: ['Must be a valid boolean.'] });
    expect400(await get('status_id=abc'), { status_id: ['A valid integer is required.'] });
    expect400(await get('folder_id=1.5'), { folder_id: ['A valid integer is required.'] });
    const dateMessage = ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'];
    expect400(await get('created_start=yesterday'), { created_start: dateMessage });
    expect400(await get('inquiry_date_end=2026-13-01'), { inquiry_date_end: dateMessage });
    expect400(await get('page_size=0'), { page_size: ['Ensure this value is greater than or equal to 1.'] });
  });

  it('rejects a tampered cursor and one issued by another list', async () => {
    const b = await newBusiness(t);
    for (let i = 0; i < 3; i++) await createInquiry(t, b);
    const page = await call(b, { method: 'GET', url: '/v1/inquiry?page_size=1' });
    const cursor = new URL(page.body.next).searchParams.get('cursor')!;
    const bad = await call(b, { method: 'GET', url: `/v1/inquiry?cursor=${cursor.slice(0, -2)}xx` });
    expect(bad.status).toBe(404);
    expect(bad.body.detail).toBe('Invalid cursor');
    const clients = await call(b, { method: 'GET', url: `/v1/client?cursor=${cursor}` });
    expect(clients.status).toBe(404);
    expect(clients.body.detail).toBe('Invalid cursor');
  });
});

describe('unknown ids and paths', () => {
  it('answers 404 for an id that is not a positive integer', async () => {
    const b = await newBusiness(t);
    for (const id of ['0', '-1', 'abc', '1.5', '99999999999']) {
      const res = await call(b, { method: 'GET', url: `/v1/inquiry/${id}` });
      expect(res.status, id).toBe(404);
      expect(res.body.detail).toBe('Not found.');
    }
  });

  it('answers 405 with Allow for a method the path does not have', async () => {
    const b = await newBusiness(t);
    const res = await call(b, { method: 'PUT', url: '/v1/inquiry', body: {} });
    expect(res.status).toBe(405);
    expect(String(res.headers.allow)).toMatch(/GET/);
    expect(String(res.headers.allow)).toMatch(/POST/);
  });

  it('PATCH to a missing inquiry answers 404 before validating the body', async () => {
    const b = await newBusiness(t);
    const res = await patch(b, 999999, { name: '' });
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe('Not found.');
  });
});
