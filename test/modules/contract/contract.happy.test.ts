/**
 * Contracts, the successful paths (spec: Resources › Contract, Operation rules › Contract create / update;
 * reference: Contract; decisions §1, §4, §5, §7): create and list shapes vs get and update shapes, defaults,
 * recurring fields of type S, categorySet replaced as a whole, fieldSet of kind CO, status and isHidden
 * (extensions), delete, the three body encodings, ordering, paging, every list filter, and contract notes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextDay, todayIn } from '../../../src/shared/time.ts';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { type SignedRequest } from '../../setup/signed-request.ts';
import { apiClient } from '../../setup/api-client.ts';
import { prevDay, relative } from '../../setup/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const LIST_KEYS = [
  'id',
  'title',
  'amount',
  'type',
  'status',
  'created',
  'contractNumber',
  'startDate',
  'endDate',
  'inquiry',
  'client',
  'categorySet',
];
const FULL_KEYS = [
  ...LIST_KEYS,
  'vatType',
  'settlementFrequency',
  'settlementCycle',
  'settlementDay',
  'fieldSet',
  'isHidden',
  'updated',
];
const RFC3339_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const api = apiClient(() => t.app);
const { call, get, raw } = api;
const patch = (b: TestBusiness, id: unknown, body: unknown) => api.patch(b, `/v1/contract/${id}`, body);
async function create(b: TestBusiness, body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await call(b, {
    method: 'POST',
    url: '/v1/contract',
    body: { title: 'Contract', amount: 1000, type: 'G', ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
async function newClient(b: TestBusiness, body: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await call(b, { method: 'POST', url: '/v1/client', body: { companyName: 'Acme Corp.', ...body } });
  expect(res.status).toBe(201);
  return res.body;
}
describe('POST /v1/contract', () => {
  it('answers 201 with exactly the list shape (no vatType, recurring fields or fieldSet)', async () => {
    const b = await newBusiness(t);
    const client = await newClient(b, {
      inCharge: 'Jane',
      position: 'CTO',
      contact: '010',
      email: 'jane@acme.example',
    });
    const before = Date.now();
    const res = await call(b, {
      method: 'POST',
      url: '/v1/contract',
      body: {
        title: 'Website renewal',
        amount: 12_000_000,
        type: 'S',
        contractNumber: 'C-001',
        startDate: '2026-12-01',
        endDate: '2027-11-30',
        vatType: 'I',
        settlementFrequency: 1,
        settlementCycle: 'M',
        settlementDay: 25,
        client: { id: client.id },
        categorySet: [{ id: b.ids.contractCategories.design }, { id: b.ids.contractCategories.web }],
        fieldSet: [{ field: { id: b.ids.fields.po }, value: 'PO-1' }],
      },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(LIST_KEYS);
    expect(res.body).toEqual({
      id: expect.any(Number),
      title: 'Website renewal',
      amount: 12_000_000,
      type: 'S',
      status: 'P',
      created: expect.stringMatching(RFC3339_MS_UTC),
      contractNumber: 'C-001',
      startDate: '2026-12-01',
      endDate: '2027-11-30',
      inquiry: null,
      client: {
        id: client.id,
        status: { id: b.ids.clientStatuses.lead, title: 'Lead' },
        companyName: 'Acme Corp.',
        inCharge: 'Jane',
        position: 'CTO',
        contact: '010',
        email: 'jane@acme.example',
      },
      categorySet: [
        { id: b.ids.contractCategories.web, title: 'Web development' },
        { id: b.ids.contractCategories.design, title: 'Design' },
      ],
    });
    const created = Date.parse(res.body.created);
    expect(created).toBeGreaterThanOrEqual(before - 5);
    expect(created).toBeLessThanOrEqual(Date.now() + 5);
  });

  it('needs only title, amount and type; defaults: status P, vatType E, not hidden, everything else null or empty', async () => {
    const b = await newBusiness(t);
    const res = await call(b, {
      method: 'POST',
      url: '/v1/contract',
      body: { title: 'Minimal', amount: 0, type: 'I' },
    });
    expect(res.status).toBe(201);
    const full = await get(b, `/v1/contract/${res.body.id}`);
    expect(full.status).toBe(200);
    expect(Object.keys(full.body)).toEqual(FULL_KEYS);
    expect(full.body).toEqual({
      id: res.body.id,
      title: 'Minimal',
      amount: 0,
      type: 'I',
      status: 'P',
      created: res.body.created,
      contractNumber: null,
      startDate: null,
      endDate: null,
      inquiry: null,
      client: null,
      categorySet: [],
      vatType: 'E',
      settlementFrequency: null,
      settlementCycle: null,
      settlementDay: null,
      fieldSet: [],
      isHidden: false,
      updated: res.body.created,
    });
  });

  it('takes every type, and status as an extension', async () => {
    const b = await newBusiness(t);
    for (const type of ['I', 'S', 'G']) expect((await create(b, { type })).type).toBe(type);
    for (const status of ['P', 'I', 'C', 'T']) expect((await create(b, { status })).status).toBe(status);
  });

  it('takes the recurring fields on type S: weekly days 0..6, monthly days 1..30', async () => {
    const b = await newBusiness(t);
    for (const day of [0, 6]) {
      const c = await create(b, { type: 'S', settlementFrequency: 2, settlementCycle: 'W', settlementDay: day });
      expect((await get(b, `/v1/contract/${c.id}`)).body).toMatchObject({
        settlementFrequency: 2,
        settlementCycle: 'W',
        settlementDay: day,
      });
    }
    for (const day of [1, 30]) {
      const c = await create(b, { type: 'S', settlementFrequency: 1, settlementCycle: 'M', settlementDay: day });
      expect((await get(b, `/v1/contract/${c.id}`)).body).toMatchObject({ settlementCycle: 'M', settlementDay: day });
    }
  });

  it('accepts null recurring fields on any type', async () => {
    const b = await newBusiness(t);
    const c = await create(b, { type: 'G', settlementFrequency: null, settlementCycle: null, settlementDay: null });
    expect((await get(b, `/v1/contract/${c.id}`)).body).toMatchObject({
      settlementFrequency: null,
      settlementCycle: null,
      settlementDay: null,
    });
  });

  it('accepts the largest safe amount and the longest title and contract number', async () => {
    const b = await newBusiness(t);
    const c = await create(b, {
      amount: Number.MAX_SAFE_INTEGER,
      title: 'x'.repeat(128),
      contractNumber: 'n'.repeat(128),
    });
    expect(c.amount).toBe(Number.MAX_SAFE_INTEGER);
    expect((await get(b, `/v1/contract/${c.id}`)).body.amount).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('accepts equal start and end dates', async () => {
    const b = await newBusiness(t);
    const c = await create(b, { startDate: '2026-01-01', endDate: '2026-01-01' });
    expect(c).toMatchObject({ startDate: '2026-01-01', endDate: '2026-01-01' });
  });

  it('ignores unknown and read-only properties, and collapses repeated categories', async () => {
    const b = await newBusiness(t);
    const web = b.ids.contractCategories.web;
    const c = await create(b, {
      id: 999999,
      created: '2000-01-01T00:00:00.000Z',
      bogus: 1,
      categorySet: [{ id: web }, { id: web }],
    });
    expect(c.id).not.toBe(999999);
    expect(c.created).not.toBe('2000-01-01T00:00:00.000Z');
    expect(c.categorySet).toEqual([{ id: web, title: 'Web development' }]);
  });

  it('stores fieldSet values of kind CO, shown on get', async () => {
    const b = await newBusiness(t);
    const c = await create(b, { fieldSet: [{ field: { id: b.ids.fields.po }, value: 'PO-77' }] });
    expect((await get(b, `/v1/contract/${c.id}`)).body.fieldSet).toEqual([
      {
        field: { id: b.ids.fields.po, name: 'PO number', dataType: 'S', optionSet: [], memberSet: [] },
        value: 'PO-77',
      },
    ]);
  });

  it('shows a soft-deleted client as null', async () => {
    const b = await newBusiness(t);
    const client = await newClient(b);
    const c = await create(b, { client: { id: client.id } });
    expect((await call(b, { method: 'DELETE', url: `/v1/client/${client.id}` })).status).toBe(204);
    expect((await get(b, `/v1/contract/${c.id}`)).body.client).toBeNull();
    expect((await get(b, '/v1/contract')).body.results[0].client).toBeNull();
  });
});

describe('PATCH /v1/contract/{contract_id}', () => {
  it('changes only the properties sent and answers the full shape', async () => {
    const b = await newBusiness(t);
    const c = await create(b, {
      title: 'Before',
      contractNumber: 'N-1',
      startDate: '2026-01-01',
      endDate: '2026-12-31',
    });
    const before = (await get(b, `/v1/contract/${c.id}`)).body;
    const res = await patch(b, c.id, { title: 'After', amount: 5, contractNumber: null, vatType: 'N' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(FULL_KEYS);
    expect(res.body).toEqual({
      ...before,
      title: 'After',
      amount: 5,
      contractNumber: null,
      vatType: 'N',
      updated: res.body.updated,
    });
    expect(res.body.updated > before.updated).toBe(true);
    expect((await get(b, `/v1/contract/${c.id}`)).body).toEqual(res.body);
  });

  it('answers the unchanged contract for an empty body', async () => {
    const b = await newBusiness(t);
    const c = await create(b, {});
    const before = (await get(b, `/v1/contract/${c.id}`)).body;
    const res = await patch(b, c.id, {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual(before);
  });

  it('writes the status (extension) and the type', async () => {
    const b = await newBusiness(t);
    const c = await create(b, { type: 'G' });
    expect((await patch(b, c.id, { status: 'T' })).body.status).toBe('T');
    expect((await patch(b, c.id, { type: 'I', status: 'C' })).body).toMatchObject({ type: 'I', status: 'C' });
  });

  it('replaces categorySet as a whole; [] and null clear it; omitted keeps it', async () => {
    const b = await newBusiness(t);
    const { web, design } = b.ids.contractCategories;
    const c = await create(b, { categorySet: [{ id: web }] });
    const replaced = await patch(b, c.id, { categorySet: [{ id: design }] });
    expect(replaced.body.categorySet).toEqual([{ id: design, title: 'Design' }]);
    expect((await patch(b, c.id, { title: 'Kept' })).body.categorySet).toEqual([{ id: design, title: 'Design' }]);
    const both = await patch(b, c.id, { categorySet: [{ id: design }, { id: web }] });
    expect(both.body.categorySet).toEqual([
      { id: web, title: 'Web development' },
      { id: design, title: 'Design' },
    ]);
    expect((await patch(b, c.id, { categorySet: [] })).body.categorySet).toEqual([]);
    await patch(b, c.id, { categorySet: [{ id: web }] });
    expect((await patch(b, c.id, { categorySet: null })).body.categorySet).toEqual([]);
  });

  it('fieldSet sets the fields it names and keeps the others; an empty value clears one', async () => {
    const b = await newBusiness(t);
    const c = await create(b, { fieldSet: [{ field: { id: b.ids.fields.po }, value: 'PO-1' }] });
    expect((await patch(b, c.id, { title: 'No fieldSet' })).body.fieldSet).toHaveLength(1);
    const changed = await patch(b, c.id, { fieldSet: [{ field: { id: b.ids.fields.po }, value: 'PO-2' }] });
    expect(changed.body.fieldSet.map((f: { value: string }) => f.value)).toEqual(['PO-2']);
    expect((await patch(b, c.id, { fieldSet: [{ field: { id: b.ids.fields.po }, value: '' }] })).body.fieldSet).toEqual(
      [],
    );
  });

  it('sets, changes and clears the client', async () => {
    const b = await newBusiness(t);
    const one = await newClient(b, { companyName: 'One' });
    const two = await newClient(b, { companyName: 'Two' });
    const c = await create(b, { client: { id: one.id } });
    expect((await patch(b, c.id, { client: { id: two.id } })).body.client).toMatchObject({
      id: two.id,
      companyName: 'Two',
    });
    expect((await patch(b, c.id, { client: null })).body.client).toBeNull();
  });

  it('merges the recurring fields with the stored ones on type S', async () => {
    const b = await newBusiness(t);
    const c = await create(b, { type: 'S', settlementFrequency: 1, settlementCycle: 'W', settlementDay: 5 });
    const res = await patch(b, c.id, { settlementCycle: 'M' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ settlementFrequency: 1, settlementCycle: 'M', settlementDay: 5 });
    expect((await patch(b, c.id, { settlementDay: 30 })).body.settlementDay).toBe(30);
    expect((await patch(b, c.id, { settlementCycle: 'W', settlementDay: 0 })).body).toMatchObject({
      settlementCycle: 'W',
      settlementDay: 0,
    });
  });

  it('changing the type to S allows the recurring fields in the same request', async () => {
    const b = await newBusiness(t);
    const c = await create(b, { type: 'G' });
    const res = await patch(b, c.id, { type: 'S', settlementFrequency: 3, settlementCycle: 'M', settlementDay: 10 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'S', settlementFrequency: 3, settlementCycle: 'M', settlementDay: 10 });
  });

  it('changing the type away from S clears the recurring fields', async () => {
    const b = await newBusiness(t);
    const c = await create(b, { type: 'S', settlementFrequency: 1, settlementCycle: 'M', settlementDay: 15 });
    const res = await patch(b, c.id, { type: 'I' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      type: 'I',
      settlementFrequency: null,
      settlementCycle: null,
      settlementDay: null,
    });
  });

  it('sets and clears the hidden flag (extension)', async () => {
    const b = await newBusiness(t);
    const c = await create(b, {});
    expect((await patch(b, c.id, { isHidden: true })).body.isHidden).toBe(true);
    expect((await patch(b, c.id, { isHidden: false })).body.isHidden).toBe(false);
  });

  it('ignores unknown and read-only properties', async () => {
    const b = await newBusiness(t);
    const c = await create(b, {});
    const res = await patch(b, c.id, {
      id: 999999,
      created: '2001-01-01T00:00:00.000Z',
      whatever: 1,
      title: 'Renamed',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: c.id, created: c.created, title: 'Renamed' });
  });
});

describe('DELETE /v1/contract/{contract_id}', () => {
  it('answers 204 with an empty body; afterwards the contract and its notes answer 404 and the list drops it', async () => {
    const b = await newBusiness(t);
    const keep = await create(b, { title: 'Keep' });
    const doomed = await create(b, {
      title: 'Doomed',
      categorySet: [{ id: b.ids.contractCategories.web }],
      fieldSet: [{ field: { id: b.ids.fields.po }, value: 'x' }],
    });
    const note = await call(b, { method: 'POST', url: `/v1/contract/${doomed.id}/history`, body: { content: 'n' } });
    expect(note.status).toBe(201);
    const del = await raw(b, { method: 'DELETE', url: `/v1/contract/${doomed.id}` });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    for (const req of [
      { method: 'GET', url: `/v1/contract/${doomed.id}` },
      { method: 'PATCH', url: `/v1/contract/${doomed.id}`, body: { title: 'Zombie' } },
      { method: 'DELETE', url: `/v1/contract/${doomed.id}` },
      { method: 'GET', url: `/v1/contract/${doomed.id}/history` },
      { method: 'GET', url: `/v1/contract/${doomed.id}/history/${note.body.id}` },
    ] as SignedRequest[]) {
      const res = await call(b, req);
      expect(res.status, `${req.method} ${req.url}`).toBe(404);
      expect(res.body).toEqual({ detail: 'Not found.', code: 'not_found', requestId: res.headers['x-request-id'] });
    }
    expect(await api.listIds(b, '/v1/contract')).toEqual([keep.id]);
  });
});

describe('body encodings', () => {
  it('JSON, urlencoded (dot and bracket notation) and multipart give the same contract', async () => {
    const b = await newBusiness(t);
    const client = await newClient(b);
    const web = b.ids.contractCategories.web;
    const po = b.ids.fields.po;
    async function roundTrip(req: SignedRequest) {
      const res = await call(b, req);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const {
        id: _id,
        created: _created,
        updated: _updated,
        ...rest
      } = (await get(b, `/v1/contract/${res.body.id}`)).body;
      return rest;
    }
    const json = await roundTrip({
      method: 'POST',
      url: '/v1/contract',
      body: {
        title: 'Encoded',
        amount: 700,
        type: 'S',
        settlementFrequency: 1,
        settlementCycle: 'W',
        settlementDay: 2,
        isHidden: true,
        client: { id: client.id },
        categorySet: [{ id: web }],
        fieldSet: [{ field: { id: po }, value: 'P' }],
      },
    });
    const flat = {
      title: 'Encoded',
      amount: 700,
      type: 'S',
      settlementFrequency: 1,
      settlementCycle: 'W',
      settlementDay: 2,
      isHidden: true,
    };
    const dots = await roundTrip({
      method: 'POST',
      url: '/v1/contract',
      form: 'urlencoded',
      body: {
        ...flat,
        'client.id': client.id,
        'categorySet[0].id': web,
        'fieldSet[0].field.id': po,
        'fieldSet[0].value': 'P',
      },
    });
    const brackets = await roundTrip({
      method: 'POST',
      url: '/v1/contract',
      form: 'urlencoded',
      body: {
        ...flat,
        'client[id]': client.id,
        'categorySet[0][id]': web,
        'fieldSet[0][field][id]': po,
        'fieldSet[0][value]': 'P',
      },
    });
    const multi = await roundTrip({
      method: 'POST',
      url: '/v1/contract',
      form: 'multipart',
      body: {
        ...flat,
        'client.id': client.id,
        'categorySet[0].id': web,
        'fieldSet[0].field.id': po,
        'fieldSet[0].value': 'P',
      },
    });
    expect(dots).toEqual(json);
    expect(brackets).toEqual(json);
    expect(multi).toEqual(json);
  });
});

describe('GET /v1/contract', () => {
  it('lists newest first in the list shape, and pages with next / previous links', async () => {
    const b = await newBusiness(t);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await create(b, { title: `C${i}` })).id);
    const first = await get(b, '/v1/contract?page_size=2');
    expect(first.status).toBe(200);
    expect(first.body.results.map((r: { id: number }) => r.id)).toEqual([ids[4], ids[3]]);
    for (const item of first.body.results) expect(Object.keys(item)).toEqual(LIST_KEYS);
    expect(first.body.previous).toBeNull();
    const second = await get(b, relative(first.body.next));
    expect(second.body.results.map((r: { id: number }) => r.id)).toEqual([ids[2], ids[1]]);
    const third = await get(b, relative(second.body.next));
    expect(third.body.results.map((r: { id: number }) => r.id)).toEqual([ids[0]]);
    expect(third.body.next).toBeNull();
    const back = await get(b, relative(third.body.previous));
    expect(back.body.results.map((r: { id: number }) => r.id)).toEqual([ids[2], ids[1]]);
    expect(await api.listIds(b, '/v1/contract?limit=1')).toEqual([ids[4]]);
  });

  it('shows only the business’s own contracts', async () => {
    const a = await newBusiness(t);
    const other = await newBusiness(t);
    const mine = await create(a, {});
    await create(other, {});
    expect(await api.listIds(a, '/v1/contract')).toEqual([mine.id]);
  });

  it('search matches title, contract number and client company name, case-insensitively; terms are ANDed; % and _ are literal', async () => {
    const b = await newBusiness(t);
    const client = await newClient(b, { companyName: 'Blue Harbor Logistics' });
    const byTitle = await create(b, { title: 'Mobile App Build' });
    const byNumber = await create(b, { title: 'Other', contractNumber: 'APP-2026' });
    const byClient = await create(b, { title: 'Third', client: { id: client.id } });
    const both = await create(b, { title: 'App for harbor', contractNumber: '100%_done' });
    expect((await api.listIds(b, '/v1/contract?search=app')).sort()).toEqual([byTitle.id, byNumber.id, both.id].sort());
    expect(await api.listIds(b, '/v1/contract?search=HARBOR')).toEqual([both.id, byClient.id]);
    expect(await api.listIds(b, '/v1/contract?search=app&search=harbor')).toEqual([both.id]);
    expect(await api.listIds(b, `/v1/contract?search=${encodeURIComponent('%_')}`)).toEqual([both.id]);
    expect(await api.listIds(b, '/v1/contract?search=nothing-like-this')).toEqual([]);
  });

  it('client_id keeps the contracts of one client', async () => {
    const b = await newBusiness(t);
    const one = await newClient(b);
    const two = await newClient(b);
    const c1 = await create(b, { client: { id: one.id } });
    await create(b, { client: { id: two.id } });
    await create(b, {});
    expect(await api.listIds(b, `/v1/contract?client_id=${one.id}`)).toEqual([c1.id]);
    expect(await api.listIds(b, '/v1/contract?client_id=999999')).toEqual([]);
  });

  it('start_date_from / start_date_to and end_date_from / end_date_to are inclusive; contracts without the date drop out', async () => {
    const b = await newBusiness(t);
    const jan = await create(b, { startDate: '2026-01-10', endDate: '2026-06-30' });
    const feb = await create(b, { startDate: '2026-02-10', endDate: '2026-07-31' });
    const none = await create(b, {});
    expect(await api.listIds(b, '/v1/contract?start_date_from=2026-01-10')).toEqual([feb.id, jan.id]);
    expect(await api.listIds(b, '/v1/contract?start_date_from=2026-01-11')).toEqual([feb.id]);
    expect(await api.listIds(b, '/v1/contract?start_date_to=2026-01-10')).toEqual([jan.id]);
    expect(await api.listIds(b, '/v1/contract?start_date_from=2026-01-01&start_date_to=2026-12-31')).toEqual([
      feb.id,
      jan.id,
    ]);
    expect(await api.listIds(b, '/v1/contract?end_date_from=2026-07-31')).toEqual([feb.id]);
    expect(await api.listIds(b, '/v1/contract?end_date_to=2026-06-30')).toEqual([jan.id]);
    expect(await api.listIds(b, '/v1/contract?end_date_from=2026-06-30&end_date_to=2026-07-31')).toEqual([
      feb.id,
      jan.id,
    ]);
    expect(await api.listIds(b, '/v1/contract')).toEqual([none.id, feb.id, jan.id]);
  });

  it('created_start / created_end compare the creation date in the business time zone, inclusive', async () => {
    const b = await newBusiness(t);
    const c = await create(b, {});
    const today = todayIn(b.timezone);
    expect(await api.listIds(b, `/v1/contract?created_start=${today}&created_end=${today}`)).toEqual([c.id]);
    expect(await api.listIds(b, `/v1/contract?created_start=${nextDay(today)}`)).toEqual([]);
    expect(await api.listIds(b, `/v1/contract?created_end=${prevDay(today)}`)).toEqual([]);
  });

  it('is_hidden: true only hidden, false only visible, omitted all (also 1 / 0)', async () => {
    const b = await newBusiness(t);
    const hidden = await create(b, { isHidden: true });
    const visible = await create(b, {});
    expect(await api.listIds(b, '/v1/contract?is_hidden=true')).toEqual([hidden.id]);
    expect(await api.listIds(b, '/v1/contract?is_hidden=1')).toEqual([hidden.id]);
    expect(await api.listIds(b, '/v1/contract?is_hidden=false')).toEqual([visible.id]);
    expect(await api.listIds(b, '/v1/contract?is_hidden=0')).toEqual([visible.id]);
    expect(await api.listIds(b, '/v1/contract')).toEqual([visible.id, hidden.id]);
  });

  it('status and category_id filter (extensions)', async () => {
    const b = await newBusiness(t);
    const { web, design } = b.ids.contractCategories;
    const p = await create(b, { categorySet: [{ id: web }] });
    const t1 = await create(b, { status: 'T', categorySet: [{ id: web }, { id: design }] });
    expect(await api.listIds(b, '/v1/contract?status=T')).toEqual([t1.id]);
    expect(await api.listIds(b, '/v1/contract?status=P')).toEqual([p.id]);
    expect(await api.listIds(b, `/v1/contract?category_id=${web}`)).toEqual([t1.id, p.id]);
    expect(await api.listIds(b, `/v1/contract?category_id=${design}`)).toEqual([t1.id]);
    expect(await api.listIds(b, `/v1/contract?category_id=${design}&status=P`)).toEqual([]);
  });

  it('ignores unknown query parameters and empty values', async () => {
    const b = await newBusiness(t);
    const c = await create(b, {});
    expect(await api.listIds(b, '/v1/contract?bogus=1&client_id=&search=')).toEqual([c.id]);
  });
});

describe('contract notes /v1/contract/{contract_id}/history', () => {
  it('creates, lists newest first, retrieves, updates and deletes notes', async () => {
    const b = await newBusiness(t);
    const c = await create(b, {});
    const url = `/v1/contract/${c.id}/history`;
    const first = await call(b, { method: 'POST', url, body: { content: 'First call' } });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: expect.any(Number),
      content: 'First call',
      created: expect.stringMatching(RFC3339_MS_UTC),
      member: null,
    });
    const second = await call(b, {
      method: 'POST',
      url,
      body: { content: 'Second', member: { id: b.ids.members.lee } },
    });
    expect(second.body.member).toEqual({
      id: b.ids.members.lee,
      nickname: 'Lee',
      email: 'lee@example.com',
      isActive: true,
      grade: { id: b.ids.grades.staff, title: 'Staff' },
    });
    const list = await get(b, url);
    expect(list.status).toBe(200);
    expect(list.body.results.map((n: { id: number }) => n.id)).toEqual([second.body.id, first.body.id]);
    expect(list.body.next).toBeNull();
    expect((await get(b, `${url}/${first.body.id}`)).body).toEqual({ ...first.body, updated: first.body.created });
    const patched = await call(b, {
      method: 'PATCH',
      url: `${url}/${second.body.id}`,
      body: { content: 'Edited', member: { id: b.ids.members.kim } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ ...second.body, content: 'Edited', updated: patched.body.updated });
    const del = await raw(b, { method: 'DELETE', url: `${url}/${first.body.id}` });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    expect((await get(b, `${url}/${first.body.id}`)).status).toBe(404);
    expect((await get(b, url)).body.results.map((n: { id: number }) => n.id)).toEqual([second.body.id]);
  });

  it('takes created with any offset (stored in UTC), orders by it, and lets PATCH change it', async () => {
    const b = await newBusiness(t);
    const c = await create(b, {});
    const url = `/v1/contract/${c.id}/history`;
    const old = await call(b, { method: 'POST', url, body: { content: 'Old', created: '2026-01-01T09:00:00+09:00' } });
    expect(old.body.created).toBe('2026-01-01T00:00:00.000Z');
    const recent = await call(b, { method: 'POST', url, body: { content: 'Recent', created: '2026-03-01T00:00:00Z' } });
    expect((await get(b, url)).body.results.map((n: { id: number }) => n.id)).toEqual([recent.body.id, old.body.id]);
    const moved = await call(b, {
      method: 'PATCH',
      url: `${url}/${old.body.id}`,
      body: { created: '2026-05-01T12:30:00.5Z' },
    });
    expect(moved.body.created).toBe('2026-05-01T12:30:00.500Z');
    expect((await get(b, url)).body.results.map((n: { id: number }) => n.id)).toEqual([old.body.id, recent.body.id]);
  });

  it('pages notes and keeps them per contract', async () => {
    const b = await newBusiness(t);
    const c = await create(b, {});
    const other = await create(b, {});
    const url = `/v1/contract/${c.id}/history`;
    for (let i = 0; i < 3; i++) await call(b, { method: 'POST', url, body: { content: `n${i}` } });
    await call(b, { method: 'POST', url: `/v1/contract/${other.id}/history`, body: { content: 'elsewhere' } });
    const page = await get(b, `${url}?page_size=2`);
    expect(page.body.results.map((n: { content: string }) => n.content)).toEqual(['n2', 'n1']);
    const next = await get(b, relative(page.body.next));
    expect(next.body.results.map((n: { content: string }) => n.content)).toEqual(['n0']);
  });

  it('notes added while the contract is deleted answer 201 or 404, never a 500', async () => {
    for (let round = 0; round < 5; round++) {
      const b = await newBusiness(t);
      const c = await create(b, {});
      const notes = Array.from({ length: 10 }, (_, i) =>
        call(b, { method: 'POST', url: `/v1/contract/${c.id}/history`, body: { content: `Note ${i}` } }),
      );
      const [deleted, ...results] = await Promise.all([
        call(b, { method: 'DELETE', url: `/v1/contract/${c.id}` }),
        ...notes,
      ]);
      expect(deleted.status).toBe(204);
      for (const r of results) {
        expect([201, 404], JSON.stringify(r.body)).toContain(r.status);
        if (r.status === 404)
          expect(r.body).toEqual({ detail: 'Not found.', code: 'not_found', requestId: r.headers['x-request-id'] });
      }
    }
  });

  it('accepts content of 5000 characters', async () => {
    const b = await newBusiness(t);
    const c = await create(b, {});
    const res = await call(b, {
      method: 'POST',
      url: `/v1/contract/${c.id}/history`,
      body: { content: 'x'.repeat(5000) },
    });
    expect(res.status).toBe(201);
  });
});
