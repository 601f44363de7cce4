/**
 * Clients, the successful paths (spec: Resources › Client, Endpoints, States and transitions; reference:
 * Client; decisions §1 wire conventions, §4 pagination, §5 filters, §7): shapes, defaults, partial update,
 * soft delete, the three body encodings, ordering, paging and every list filter.
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

const SHORT_KEYS = ['id', 'companyName', 'created', 'status', 'inCharge', 'position', 'contact', 'email'];
const FULL_KEYS = [
  ...SHORT_KEYS,
  'content',
  'businessRegistrationNumber',
  'ceoName',
  'companyAddress',
  'companyDetailAddress',
  'businessType',
  'businessClass',
  'branchNumber',
  'taxInvoiceEmail',
  'fieldSet',
  'isHidden',
  'updated',
];
const RFC3339_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const { call, get, listIds, raw } = apiClient(() => t.app);
async function create(b: TestBusiness, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await call(b, { method: 'POST', url: '/v1/client', body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
async function createMany(b: TestBusiness, n: number, prefix = 'Co'): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push((await create(b, { companyName: `${prefix} ${i}` })).id as number);
  return ids;
}
describe('POST /v1/client', () => {
  it('answers 201 with exactly the short shape', async () => {
    const b = await newBusiness(t);
    const before = Date.now();
    const res = await call(b, {
      method: 'POST',
      url: '/v1/client',
      body: {
        companyName: 'Acme Corp.',
        inCharge: 'Jane Doe',
        position: 'CTO',
        contact: '+82-2-555-0100',
        email: 'jane@acme.example',
        content: 'memo',
        ceoName: 'John',
      },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(SHORT_KEYS);
    expect(res.body).toEqual({
      id: expect.any(Number),
      companyName: 'Acme Corp.',
      created: expect.stringMatching(RFC3339_MS_UTC),
      status: { id: b.ids.clientStatuses.lead, title: 'Lead' },
      inCharge: 'Jane Doe',
      position: 'CTO',
      contact: '+82-2-555-0100',
      email: 'jane@acme.example',
    });
    const created = Date.parse(res.body.created);
    expect(created).toBeGreaterThanOrEqual(before - 5);
    expect(created).toBeLessThanOrEqual(Date.now() + 5);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('assigns the default client status when status is omitted, none for null, and keeps an explicit one', async () => {
    const b = await newBusiness(t);
    expect((await create(b, { companyName: 'Omitted' })).status).toEqual({
      id: b.ids.clientStatuses.lead,
      title: 'Lead',
    });
    expect((await create(b, { companyName: 'Null', status: null })).status).toBeNull();
    expect(
      (await create(b, { companyName: 'Explicit', status: { id: b.ids.clientStatuses.customer } })).status,
    ).toEqual({
      id: b.ids.clientStatuses.customer,
      title: 'Customer',
    });
  });

  it('assigns no status when the business has no default client status', async () => {
    const b = await newBusiness(t, { catalog: null });
    const c = await create(b, { companyName: 'No catalog' });
    expect(c.status).toBeNull();
  });

  it('fills the optional properties with null when they are not sent', async () => {
    const b = await newBusiness(t);
    const c = await create(b, { companyName: 'Minimal' });
    const full = await get(b, `/v1/client/${c.id}`);
    expect(full.body).toEqual({
      updated: c.created,
      id: c.id,
      companyName: 'Minimal',
      created: c.created,
      status: { id: b.ids.clientStatuses.lead, title: 'Lead' },
      inCharge: null,
      position: null,
      contact: null,
      email: null,
      content: null,
      businessRegistrationNumber: null,
      ceoName: null,
      companyAddress: null,
      companyDetailAddress: null,
      businessType: null,
      businessClass: null,
      branchNumber: null,
      taxInvoiceEmail: null,
      fieldSet: [],
      isHidden: false,
    });
  });

  it('ignores unknown and read-only properties (id, created)', async () => {
    const b = await newBusiness(t);
    const c = await create(b, {
      companyName: 'Sneaky',
      id: 987654,
      created: '2000-01-01T00:00:00.000Z',
      bogus: 'x',
      isDeleted: true,
    });
    expect(c.id).not.toBe(987654);
    expect(c.created).not.toBe('2000-01-01T00:00:00.000Z');
    expect(Date.now() - Date.parse(c.created as string)).toBeLessThan(60_000);
    expect(Object.keys(c)).toEqual(SHORT_KEYS);
    expect((await get(b, `/v1/client/${c.id}`)).status).toBe(200);
    expect((await get(b, '/v1/client/987654')).status).toBe(404);
  });

  it('accepts null for every nullable text property', async () => {
    const b = await newBusiness(t);
    const c = await create(b, {
      companyName: 'Nulls',
      inCharge: null,
      email: null,
      taxInvoiceEmail: null,
      fieldSet: null,
    });
    expect(c).toMatchObject({ inCharge: null, email: null });
  });
});

describe('GET /v1/client/{client_id}', () => {
  it('answers the full shape with fieldSet entries carrying the full field', async () => {
    const b = await newBusiness(t);
    const f = b.ids.fields;
    const c = await create(b, {
      companyName: 'Full Ltd.',
      inCharge: 'Jane',
      position: 'Lead',
      contact: '010',
      email: 'jane@full.example',
      content: 'A long memo',
      businessRegistrationNumber: '123-45-67890',
      ceoName: 'Ceo Kim',
      companyAddress: 'Seoul',
      companyDetailAddress: '3F',
      businessType: 'Service',
      businessClass: 'Software',
      branchNumber: '0001',
      taxInvoiceEmail: 'tax@full.example',
      isHidden: true,
      fieldSet: [
        { field: { id: f.owner }, value: String(b.ids.members.lee) },
        { field: { id: f.channel }, value: 'phone' },
        { field: { id: f.tags }, value: 'a, b' },
        { field: { id: f.employees }, value: 42 },
        { field: { id: f.since }, value: '2024-02-29' },
        { field: { id: f.vip }, value: true },
        { field: { id: f.note }, value: 'free text' },
      ],
    });
    const res = await get(b, `/v1/client/${c.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(FULL_KEYS);
    const kim = {
      id: b.ids.members.kim,
      nickname: 'Kim',
      email: 'kim@example.com',
      isActive: true,
      grade: { id: b.ids.grades.owner, title: 'Owner' },
    };
    const lee = {
      id: b.ids.members.lee,
      nickname: 'Lee',
      email: 'lee@example.com',
      isActive: true,
      grade: { id: b.ids.grades.staff, title: 'Staff' },
    };
    expect(res.body).toEqual({
      updated: c.created,
      id: c.id,
      companyName: 'Full Ltd.',
      created: c.created,
      status: { id: b.ids.clientStatuses.lead, title: 'Lead' },
      inCharge: 'Jane',
      position: 'Lead',
      contact: '010',
      email: 'jane@full.example',
      content: 'A long memo',
      businessRegistrationNumber: '123-45-67890',
      ceoName: 'Ceo Kim',
      companyAddress: 'Seoul',
      companyDetailAddress: '3F',
      businessType: 'Service',
      businessClass: 'Software',
      branchNumber: '0001',
      taxInvoiceEmail: 'tax@full.example',
      isHidden: true,
      fieldSet: [
        {
          field: {
            id: f.channel,
            name: 'Channel',
            dataType: 'SL',
            optionSet: [
              { id: 'web', title: 'Web' },
              { id: 'phone', title: 'Phone' },
            ],
            memberSet: [],
          },
          value: 'phone',
        },
        {
          field: {
            id: f.tags,
            name: 'Tags',
            dataType: 'ML',
            optionSet: [
              { id: 'a', title: 'A' },
              { id: 'b', title: 'B' },
            ],
            memberSet: [],
          },
          value: 'a,b',
        },
        {
          field: { id: f.owner, name: 'Owner', dataType: 'M', optionSet: [], memberSet: [kim, lee] },
          value: String(b.ids.members.lee),
        },
        { field: { id: f.employees, name: 'Employees', dataType: 'N', optionSet: [], memberSet: [] }, value: '42' },
        {
          field: { id: f.since, name: 'Customer since', dataType: 'D', optionSet: [], memberSet: [] },
          value: '2024-02-29',
        },
        { field: { id: f.vip, name: 'VIP', dataType: 'B', optionSet: [], memberSet: [] }, value: 'true' },
        { field: { id: f.note, name: 'Note', dataType: 'S', optionSet: [], memberSet: [] }, value: 'free text' },
      ],
    });
    for (const entry of res.body.fieldSet as { field: { memberSet: Record<string, unknown>[] } }[]) {
      for (const m of entry.field.memberSet)
        expect(Object.keys(m).sort()).toEqual(['email', 'grade', 'id', 'isActive', 'nickname']);
    }
  });

  it('answers 404 Not found. for an unknown id', async () => {
    const b = await newBusiness(t);
    const res = await get(b, '/v1/client/2147483647');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'Not found.', code: 'not_found', requestId: res.headers['x-request-id'] });
  });
});

describe('PATCH /v1/client/{client_id}', () => {
  it('changes only the properties sent and answers the full shape', async () => {
    const b = await newBusiness(t);
    const c = await create(b, {
      companyName: 'Before',
      inCharge: 'Jane',
      position: 'CTO',
      contact: '010',
      email: 'a@b.example',
      content: 'memo',
      ceoName: 'Ceo',
    });
    const before = (await get(b, `/v1/client/${c.id}`)).body;
    const res = await call(b, {
      method: 'PATCH',
      url: `/v1/client/${c.id}`,
      body: { companyName: 'After', contact: null, ceoName: 'New Ceo' },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(FULL_KEYS);
    expect(res.body).toEqual({
      ...before,
      companyName: 'After',
      contact: null,
      ceoName: 'New Ceo',
      updated: res.body.updated,
    });
    expect(res.body.updated > before.updated).toBe(true);
    expect((await get(b, `/v1/client/${c.id}`)).body).toEqual(res.body);
  });

  it('answers the unchanged client for an empty body', async () => {
    const b = await newBusiness(t);
    const c = await create(b, { companyName: 'Same', inCharge: 'X' });
    const before = (await get(b, `/v1/client/${c.id}`)).body;
    const res = await call(b, { method: 'PATCH', url: `/v1/client/${c.id}`, body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(before);
  });

  it('fieldSet sets the fields it names, keeps the others, and an empty value clears one', async () => {
    const b = await newBusiness(t);
    const f = b.ids.fields;
    const c = await create(b, {
      companyName: 'Fields',
      fieldSet: [
        { field: { id: f.channel }, value: 'web' },
        { field: { id: f.note }, value: 'first' },
        { field: { id: f.employees }, value: '10' },
      ],
    });
    const res = await call(b, {
      method: 'PATCH',
      url: `/v1/client/${c.id}`,
      body: {
        fieldSet: [
          { field: { id: f.note }, value: 'second' },
          { field: { id: f.employees }, value: '' },
          { field: { id: f.vip }, value: 'false' },
        ],
      },
    });
    expect(res.status).toBe(200);
    const values = (res.body.fieldSet as { field: { id: number }; value: string }[]).map((e) => [e.field.id, e.value]);
    expect(values).toEqual([
      [f.channel, 'web'],
      [f.vip, 'false'],
      [f.note, 'second'],
    ]);
    // A PATCH without fieldSet keeps every value.
    const other = await call(b, { method: 'PATCH', url: `/v1/client/${c.id}`, body: { companyName: 'Renamed' } });
    expect(other.body.fieldSet).toEqual(res.body.fieldSet);
  });

  it('changes the status to another one, and null clears it', async () => {
    const b = await newBusiness(t);
    const c = await create(b, { companyName: 'Status' });
    expect(c.status).toEqual({ id: b.ids.clientStatuses.lead, title: 'Lead' });
    const res = await call(b, {
      method: 'PATCH',
      url: `/v1/client/${c.id}`,
      body: { status: { id: b.ids.clientStatuses.customer } },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toEqual({ id: b.ids.clientStatuses.customer, title: 'Customer' });
    expect((await get(b, `/v1/client/${c.id}`)).body.status).toEqual({
      id: b.ids.clientStatuses.customer,
      title: 'Customer',
    });
    const cleared = await call(b, { method: 'PATCH', url: `/v1/client/${c.id}`, body: { status: null } });
    expect(cleared.body.status).toBeNull();
  });

  it('sets and clears the hidden flag', async () => {
    const b = await newBusiness(t);
    const c = await create(b, { companyName: 'Hide me' });
    expect(
      (await call(b, { method: 'PATCH', url: `/v1/client/${c.id}`, body: { isHidden: true } })).body.isHidden,
    ).toBe(true);
    expect(
      (await call(b, { method: 'PATCH', url: `/v1/client/${c.id}`, body: { isHidden: false } })).body.isHidden,
    ).toBe(false);
  });

  it('ignores unknown and read-only properties', async () => {
    const b = await newBusiness(t);
    const c = await create(b, { companyName: 'Fixed' });
    const res = await call(b, {
      method: 'PATCH',
      url: `/v1/client/${c.id}`,
      body: { id: 999999, created: '2001-01-01T00:00:00.000Z', whatever: 1, contact: '011' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: c.id, created: c.created, contact: '011' });
  });
});

describe('DELETE /v1/client/{client_id}', () => {
  it('answers 204 with an empty body; afterwards GET, PATCH and DELETE answer 404 and the list drops it', async () => {
    const b = await newBusiness(t);
    const keep = await create(b, { companyName: 'Keep' });
    const doomed = await create(b, { companyName: 'Doomed' });
    const del = await raw(b, { method: 'DELETE', url: `/v1/client/${doomed.id}` });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    for (const req of [
      { method: 'GET', url: `/v1/client/${doomed.id}` },
      { method: 'PATCH', url: `/v1/client/${doomed.id}`, body: { companyName: 'Zombie' } },
      { method: 'DELETE', url: `/v1/client/${doomed.id}` },
    ] as SignedRequest[]) {
      const res = await call(b, req);
      expect(res.status, req.method).toBe(404);
      expect(res.body).toEqual({ detail: 'Not found.', code: 'not_found', requestId: res.headers['x-request-id'] });
    }
    expect(await listIds(b, '/v1/client')).toEqual([keep.id]);
    expect(await listIds(b, '/v1/client?search=Doomed')).toEqual([]);
  });
});

describe('body encodings', () => {
  async function roundTrip(b: TestBusiness, req: SignedRequest): Promise<Record<string, unknown>> {
    const res = await call(b, req);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const full = await get(b, `/v1/client/${res.body.id}`);
    const { id: _id, created: _created, updated: _updated, ...rest } = full.body;
    return rest;
  }

  it('JSON, urlencoded (dot and bracket notation) and multipart give the same client', async () => {
    const b = await newBusiness(t);
    const customer = b.ids.clientStatuses.customer;
    const channel = b.ids.fields.channel;
    const employees = b.ids.fields.employees;
    const json = await roundTrip(b, {
      method: 'POST',
      url: '/v1/client',
      body: {
        companyName: 'Encoded',
        email: 'e@x.example',
        status: { id: customer },
        isHidden: true,
        fieldSet: [
          { field: { id: channel }, value: 'web' },
          { field: { id: employees }, value: '7' },
        ],
      },
    });
    const dots = await roundTrip(b, {
      method: 'POST',
      url: '/v1/client',
      form: 'urlencoded',
      body: {
        companyName: 'Encoded',
        email: 'e@x.example',
        'status.id': customer,
        isHidden: 'true',
        'fieldSet[0].field.id': channel,
        'fieldSet[0].value': 'web',
        'fieldSet[1].field.id': employees,
        'fieldSet[1].value': '7',
      },
    });
    const brackets = await roundTrip(b, {
      method: 'POST',
      url: '/v1/client',
      form: 'urlencoded',
      body: {
        companyName: 'Encoded',
        email: 'e@x.example',
        'status[id]': customer,
        isHidden: 'true',
        'fieldSet[0][field][id]': channel,
        'fieldSet[0][value]': 'web',
        'fieldSet[1][field][id]': employees,
        'fieldSet[1][value]': '7',
      },
    });
    const multi = await roundTrip(b, {
      method: 'POST',
      url: '/v1/client',
      form: 'multipart',
      body: {
        companyName: 'Encoded',
        email: 'e@x.example',
        'status[id]': customer,
        isHidden: 'true',
        'fieldSet[0].field.id': channel,
        'fieldSet[0].value': 'web',
        'fieldSet[1][field][id]': employees,
        'fieldSet[1][value]': '7',
      },
    });
    expect(json).toMatchObject({ status: { id: customer, title: 'Customer' }, isHidden: true });
    expect((json.fieldSet as unknown[]).length).toBe(2);
    expect(dots).toEqual(json);
    expect(brackets).toEqual(json);
    expect(multi).toEqual(json);
  });

  it('a form PATCH coerces booleans and changes only what it names', async () => {
    const b = await newBusiness(t);
    const c = await create(b, { companyName: 'Form patch', inCharge: 'Keep me' });
    const res = await call(b, {
      method: 'PATCH',
      url: `/v1/client/${c.id}`,
      form: 'urlencoded',
      body: { isHidden: 'true', 'status[id]': b.ids.clientStatuses.customer },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      isHidden: true,
      inCharge: 'Keep me',
      companyName: 'Form patch',
      status: { id: b.ids.clientStatuses.customer },
    });
    const off = await call(b, {
      method: 'PATCH',
      url: `/v1/client/${c.id}`,
      form: 'multipart',
      body: { isHidden: 'false' },
    });
    expect(off.body.isHidden).toBe(false);
  });
});

describe('GET /v1/client — order and pagination', () => {
  it('lists newest first in the short shape, ties broken by id descending', async () => {
    const b = await newBusiness(t);
    const ids = await createMany(b, 4);
    const res = await get(b, '/v1/client');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['next', 'previous', 'results']);
    expect(res.body.next).toBeNull();
    expect(res.body.previous).toBeNull();
    for (const item of res.body.results) expect(Object.keys(item)).toEqual(SHORT_KEYS);
    expect(res.body.results.map((r: { id: number }) => r.id)).toEqual([...ids].reverse());

    // Make creation times disagree with id order: created decides, then id (descending) on a tie.
    const [a, b2, c, d] = ids as [number, number, number, number];
    const db = t.testDb.db;
    await db.updateTable('client').set({ created: '2030-01-01T00:00:00.000Z' }).where('id', 'in', [a, c]).execute();
    await db.updateTable('client').set({ created: '2020-01-01T00:00:00.000Z' }).where('id', 'in', [b2, d]).execute();
    expect(await listIds(b, '/v1/client')).toEqual([c, a, d, b2]);
    // The same order holds across page boundaries.
    const p1 = await get(b, '/v1/client?page_size=1');
    const seen = [p1.body.results[0].id];
    let next: string | null = p1.body.next;
    while (next) {
      const page = await get(b, relative(next));
      seen.push(...page.body.results.map((r: { id: number }) => r.id));
      next = page.body.next;
    }
    expect(seen).toEqual([c, a, d, b2]);
  });

  it('page_size and its alias limit set the page size', async () => {
    const b = await newBusiness(t);
    const ids = (await createMany(b, 5)).reverse();
    expect(await listIds(b, '/v1/client?page_size=2')).toEqual(ids.slice(0, 2));
    expect(await listIds(b, '/v1/client?limit=3')).toEqual(ids.slice(0, 3));
    expect(await listIds(b, '/v1/client?page_size=1&limit=4')).toEqual(ids.slice(0, 1));
  });

  it('defaults to 20 per page', async () => {
    const b = await newBusiness(t);
    const ids = (await createMany(b, 21)).reverse();
    const res = await get(b, '/v1/client');
    expect(res.body.results.map((r: { id: number }) => r.id)).toEqual(ids.slice(0, 20));
    expect(res.body.next).toEqual(expect.any(String));
    const rest = await get(b, relative(res.body.next));
    expect(rest.body.results.map((r: { id: number }) => r.id)).toEqual(ids.slice(20));
    expect(rest.body.next).toBeNull();
  });

  it('accepts a page_size above the maximum and answers at most 100', async () => {
    const b = await newBusiness(t);
    // 101 rows written in one statement (101 POSTs would only slow the suite down).
    const created = new Date().toISOString();
    await t.testDb.db
      .insertInto('client')
      .values(
        Array.from({ length: 101 }, (_, i) => ({
          business_id: b.businessId,
          company_name: `Bulk ${i}`,
          is_hidden: 0 as const,
          created,
          updated: created,
        })),
      )
      .execute();
    for (const query of ['page_size=500', 'limit=1000000', 'page_size=101']) {
      const res = await get(b, `/v1/client?${query}`);
      expect(res.status, query).toBe(200);
      expect(res.body.results.length, query).toBe(100);
      expect(res.body.next, query).toEqual(expect.any(String));
      const rest = await get(b, relative(res.body.next));
      expect(rest.body.results.length, query).toBe(1);
    }
    expect((await get(b, '/v1/client?page_size=100')).body.results.length).toBe(100);
  });

  it('walking next returns every row exactly once; previous from page 2 returns page 1', async () => {
    const b = await newBusiness(t);
    const ids = (await createMany(b, 7)).reverse();
    const first = await get(b, '/v1/client?page_size=3');
    expect(first.body.previous).toBeNull();
    const pages: number[][] = [first.body.results.map((r: { id: number }) => r.id)];
    let next: string | null = first.body.next;
    let second: { next: string | null; previous: string | null } | undefined;
    while (next) {
      expect(next).toMatch(/^https?:\/\/[^/]+\/v1\/client\?/);
      const page = await get(b, relative(next));
      expect(page.status).toBe(200);
      second ??= page.body;
      pages.push(page.body.results.map((r: { id: number }) => r.id));
      next = page.body.next;
    }
    expect(pages).toEqual([ids.slice(0, 3), ids.slice(3, 6), ids.slice(6)]);
    expect(second!.previous).toMatch(/^https?:\/\/[^/]+\/v1\/client\?/);
    const back = await get(b, relative(second!.previous!));
    expect(back.body.results.map((r: { id: number }) => r.id)).toEqual(ids.slice(0, 3));
    expect(back.body.previous).toBeNull();
    expect(back.body.next).toEqual(expect.any(String));
    const again = await get(b, relative(back.body.next));
    expect(again.body.results.map((r: { id: number }) => r.id)).toEqual(ids.slice(3, 6));
  });

  it('next and previous are absolute URLs that keep the other query parameters', async () => {
    const b = await newBusiness(t);
    for (let i = 0; i < 3; i++) await create(b, { companyName: `Match ${i}`, email: `m${i}@keep.example` });
    await create(b, { companyName: 'Other' });
    const res = await get(b, '/v1/client?search=match&search=keep&page_size=1&is_hidden=false');
    const next = new URL(res.body.next);
    expect(next.pathname).toBe('/v1/client');
    expect(next.searchParams.getAll('search')).toEqual(['match', 'keep']);
    expect(next.searchParams.get('page_size')).toBe('1');
    expect(next.searchParams.get('is_hidden')).toBe('false');
    expect(next.searchParams.get('cursor')).toEqual(expect.any(String));
    const page2 = await get(b, relative(res.body.next));
    const prev = new URL(page2.body.previous);
    expect(prev.searchParams.getAll('search')).toEqual(['match', 'keep']);
    expect(prev.searchParams.get('page_size')).toBe('1');
    expect(prev.searchParams.get('cursor')).not.toBe(next.searchParams.get('cursor'));
    // Following the links keeps filtering: 3 matches over 3 pages, never "Other".
    const names: string[] = [res.body.results[0].companyName];
    let link: string | null = res.body.next;
    while (link) {
      const page = await get(b, relative(link));
      names.push(...page.body.results.map((r: { companyName: string }) => r.companyName));
      link = page.body.next;
    }
    expect(names).toEqual(['Match 2', 'Match 1', 'Match 0']);
  });
});

describe('GET /v1/client — filters', () => {
  it('search is a case-insensitive substring of companyName, inCharge, contact or email', async () => {
    const b = await newBusiness(t);
    const byName = (await create(b, { companyName: 'Zebra Holdings' })).id;
    const byInCharge = (await create(b, { companyName: 'A', inCharge: 'Mr ZEBRA' })).id;
    const byContact = (await create(b, { companyName: 'B', contact: 'zebra-line 010' })).id;
    const byEmail = (await create(b, { companyName: 'C', email: 'boss@ZeBrA.example' })).id;
    const inPosition = (await create(b, { companyName: 'D', position: 'zebra keeper', content: 'zebra' })).id;
    const ids = await listIds(b, '/v1/client?search=zEbRa');
    expect(ids.sort()).toEqual([byName, byInCharge, byContact, byEmail].sort());
    expect(ids).not.toContain(inPosition);
    expect(await listIds(b, '/v1/client?search=holdings')).toEqual([byName]);
    expect(await listIds(b, '/v1/client?search=nothing-like-this')).toEqual([]);
  });

  it('a repeated search requires every term (AND)', async () => {
    const b = await newBusiness(t);
    const both = (await create(b, { companyName: 'Alpha', email: 'x@beta.example' })).id;
    await create(b, { companyName: 'Alpha only' });
    await create(b, { companyName: 'Beta only' });
    expect(await listIds(b, '/v1/client?search=alpha&search=beta')).toEqual([both]);
    expect((await listIds(b, '/v1/client?search=alpha')).length).toBe(2);
  });

  it('treats % and _ in a term as literal characters', async () => {
    const b = await newBusiness(t);
    const percent = (await create(b, { companyName: '100%' })).id;
    await create(b, { companyName: '1000' });
    const underscore = (await create(b, { companyName: 'a_b' })).id;
    await create(b, { companyName: 'axb' });
    const backslash = (await create(b, { companyName: 'c\\d' })).id;
    await create(b, { companyName: 'cd' });
    expect(await listIds(b, `/v1/client?search=${encodeURIComponent('100%')}`)).toEqual([percent]);
    expect(await listIds(b, `/v1/client?search=${encodeURIComponent('0%')}`)).toEqual([percent]);
    expect(await listIds(b, `/v1/client?search=${encodeURIComponent('%')}`)).toEqual([percent]);
    expect(await listIds(b, '/v1/client?search=a_b')).toEqual([underscore]);
    expect(await listIds(b, '/v1/client?search=_')).toEqual([underscore]);
    expect(await listIds(b, `/v1/client?search=${encodeURIComponent('c\\d')}`)).toEqual([backslash]);
  });

  it('search follows every change of the searched columns (the trigram index stays current)', async () => {
    const b = await newBusiness(t);
    const id = (await create(b, { companyName: 'Original Name', email: 'first@old.example' })).id as number;
    expect(await listIds(b, '/v1/client?search=original')).toEqual([id]);
    const patched = await call(b, {
      method: 'PATCH',
      url: `/v1/client/${id}`,
      body: { companyName: 'Renamed Firm', email: null, contact: 'phone 777' },
    });
    expect(patched.status).toBe(200);
    expect(await listIds(b, '/v1/client?search=original')).toEqual([]);
    expect(await listIds(b, '/v1/client?search=old.example')).toEqual([]);
    expect(await listIds(b, '/v1/client?search=renamed')).toEqual([id]);
    expect(await listIds(b, '/v1/client?search=phone&search=777')).toEqual([id]);
    // A change of a column outside the search leaves the match alone.
    await call(b, { method: 'PATCH', url: `/v1/client/${id}`, body: { position: 'CEO' } });
    expect(await listIds(b, '/v1/client?search=renamed')).toEqual([id]);
    expect((await call(b, { method: 'DELETE', url: `/v1/client/${id}` })).status).toBe(204);
    expect(await listIds(b, '/v1/client?search=renamed')).toEqual([]);
  });

  it('search matches short terms, quotes, Korean text and terms spanning no column boundary', async () => {
    const b = await newBusiness(t);
    const korean = (await create(b, { companyName: '주식회사 한빛소프트' })).id;
    const quoted = (await create(b, { companyName: 'The "Best" Co' })).id;
    const split = (await create(b, { companyName: 'Ab', inCharge: 'cd' })).id;
    expect(await listIds(b, `/v1/client?search=${encodeURIComponent('한빛')}`)).toEqual([korean]);
    expect(await listIds(b, `/v1/client?search=${encodeURIComponent('한빛소프트')}`)).toEqual([korean]);
    expect(await listIds(b, `/v1/client?search=${encodeURIComponent('"best"')}`)).toEqual([quoted]);
    expect(await listIds(b, `/v1/client?search=${encodeURIComponent('"')}`)).toEqual([quoted]);
    expect(await listIds(b, '/v1/client?search=ab')).toEqual([split]);
    expect(await listIds(b, '/v1/client?search=abcd')).toEqual([]);
    expect(await listIds(b, `/v1/client?search=${encodeURIComponent('AND')}`)).toEqual([]);
  });

  it("search never sees another business's clients", async () => {
    const a = await newBusiness(t);
    const b = await newBusiness(t);
    await create(a, { companyName: 'Shared Keyword Alpha' });
    const own = (await create(b, { companyName: 'Shared Keyword Beta' })).id;
    expect(await listIds(b, '/v1/client?search=shared&search=keyword')).toEqual([own]);
  });

  it('is_hidden: true/1 only hidden, false/0 only visible, omitted all', async () => {
    const b = await newBusiness(t);
    const hidden = (await create(b, { companyName: 'Hidden', isHidden: true })).id;
    const visible = (await create(b, { companyName: 'Visible' })).id;
    expect(await listIds(b, '/v1/client?is_hidden=true')).toEqual([hidden]);
    expect(await listIds(b, '/v1/client?is_hidden=1')).toEqual([hidden]);
    expect(await listIds(b, '/v1/client?is_hidden=false')).toEqual([visible]);
    expect(await listIds(b, '/v1/client?is_hidden=0')).toEqual([visible]);
    expect(await listIds(b, '/v1/client')).toEqual([visible, hidden]);
    expect(await listIds(b, '/v1/client?is_hidden=')).toEqual([visible, hidden]);
  });

  it('status_id narrows to one status', async () => {
    const b = await newBusiness(t);
    const lead = (await create(b, { companyName: 'Lead' })).id;
    const customer = (await create(b, { companyName: 'Customer', status: { id: b.ids.clientStatuses.customer } })).id;
    await create(b, { companyName: 'None', status: null });
    expect(await listIds(b, `/v1/client?status_id=${b.ids.clientStatuses.lead}`)).toEqual([lead]);
    expect(await listIds(b, `/v1/client?status_id=${b.ids.clientStatuses.customer}`)).toEqual([customer]);
    expect(await listIds(b, '/v1/client?status_id=2147483647')).toEqual([]);
  });

  it('combines filters', async () => {
    const b = await newBusiness(t);
    const target = (
      await create(b, { companyName: 'Combo hidden', isHidden: true, status: { id: b.ids.clientStatuses.customer } })
    ).id;
    await create(b, { companyName: 'Combo visible', status: { id: b.ids.clientStatuses.customer } });
    await create(b, { companyName: 'Combo lead', isHidden: true });
    expect(
      await listIds(b, `/v1/client?search=combo&is_hidden=true&status_id=${b.ids.clientStatuses.customer}`),
    ).toEqual([target]);
  });

  for (const timezone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
    it(`created_start / created_end are inclusive dates in the business time zone (${timezone})`, async () => {
      const b = await newBusiness(t, { timezone });
      const c = await create(b, { companyName: 'Dated' });
      const today = todayIn(timezone, new Date(c.created as string));
      const utcToday = (c.created as string).slice(0, 10);
      // These zones are 14 h ahead / 11 h behind UTC: their date differs from UTC's for most of the day.
      const yesterday = prevDay(today);
      const tomorrow = nextDay(today);
      expect(await listIds(b, `/v1/client?created_start=${today}&created_end=${today}`)).toEqual([c.id]);
      expect(await listIds(b, `/v1/client?created_start=${today}`)).toEqual([c.id]);
      expect(await listIds(b, `/v1/client?created_end=${today}`)).toEqual([c.id]);
      expect(await listIds(b, `/v1/client?created_start=${yesterday}&created_end=${tomorrow}`)).toEqual([c.id]);
      expect(await listIds(b, `/v1/client?created_start=${yesterday}&created_end=${yesterday}`)).toEqual([]);
      expect(await listIds(b, `/v1/client?created_start=${tomorrow}&created_end=${tomorrow}`)).toEqual([]);
      expect(await listIds(b, `/v1/client?created_start=${tomorrow}`)).toEqual([]);
      expect(await listIds(b, `/v1/client?created_end=${yesterday}`)).toEqual([]);
      if (utcToday !== today) {
        expect(await listIds(b, `/v1/client?created_start=${utcToday}&created_end=${utcToday}`)).toEqual([]);
      }
    });
  }

  it('created range bounds are the business-local midnights', async () => {
    const b = await newBusiness(t, { timezone: 'Asia/Seoul' });
    const early = (await create(b, { companyName: 'Early' })).id as number;
    const late = (await create(b, { companyName: 'Late' })).id as number;
    const db = t.testDb.db;
    // 2026-03-01 00:00 in Seoul is 2026-02-28T15:00Z.
    await db.updateTable('client').set({ created: '2026-02-28T15:00:00.000Z' }).where('id', '=', early).execute();
    await db.updateTable('client').set({ created: '2026-02-28T14:59:59.999Z' }).where('id', '=', late).execute();
    expect(await listIds(b, '/v1/client?created_start=2026-03-01&created_end=2026-03-01')).toEqual([early]);
    expect(await listIds(b, '/v1/client?created_start=2026-02-28&created_end=2026-02-28')).toEqual([late]);
    expect(await listIds(b, '/v1/client?created_start=2026-02-28&created_end=2026-03-01')).toEqual([early, late]);
  });
});

describe('wire conventions', () => {
  it('tolerates a trailing slash on the collection and item paths', async () => {
    const b = await newBusiness(t);
    const posted = await call(b, { method: 'POST', url: '/v1/client/', body: { companyName: 'Slash' } });
    expect(posted.status).toBe(201);
    const list = await get(b, '/v1/client/');
    expect(list.status).toBe(200);
    expect(list.body.results.map((r: { id: number }) => r.id)).toEqual([posted.body.id]);
    const one = await get(b, `/v1/client/${posted.body.id}/`);
    expect(one.status).toBe(200);
    expect(one.body.companyName).toBe('Slash');
    const patched = await call(b, { method: 'PATCH', url: `/v1/client/${posted.body.id}/`, body: { contact: '1' } });
    expect(patched.status).toBe(200);
    const del = await raw(b, { method: 'DELETE', url: `/v1/client/${posted.body.id}/` });
    expect(del.statusCode).toBe(204);
  });

  it('X-Request-Id is on every response; a sane incoming one is echoed, an insane one replaced', async () => {
    const b = await newBusiness(t);
    const responses = [
      await raw(b, { method: 'GET', url: '/v1/client' }),
      await raw(b, { method: 'POST', url: '/v1/client', body: { companyName: 'Rid' } }),
      await raw(b, { method: 'GET', url: '/v1/client/2147483647' }),
      await raw(undefined, { method: 'GET', url: '/v1/client' }),
      await raw(b, { method: 'POST', url: '/v1/client', body: {} }),
    ];
    const ids = responses.map((r) => r.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
    expect(new Set(ids).size).toBe(ids.length);

    const sane = 'trace-42.abc:XYZ_9';
    const echoed = await raw(b, { method: 'GET', url: '/v1/client', headers: { 'x-request-id': sane } });
    expect(echoed.headers['x-request-id']).toBe(sane);
    const echoedError = await call(b, {
      method: 'POST',
      url: '/v1/client',
      body: {},
      headers: { 'x-request-id': sane },
    });
    expect(echoedError.headers['x-request-id']).toBe(sane);
    expect(echoedError.body.requestId).toBe(sane);

    for (const insane of ['has spaces in it', 'x'.repeat(300), 'semi;colon', '<script>']) {
      const res = await raw(b, { method: 'GET', url: '/v1/client', headers: { 'x-request-id': insane } });
      expect(res.statusCode).toBe(200);
      const id = res.headers['x-request-id'];
      expect(id).not.toBe(insane);
      expect(id).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
    }
  });
});
