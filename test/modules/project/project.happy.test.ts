/**
 * Projects, the successful paths (spec: Resources › Project, Endpoints, States — soft delete; reference:
 * Project; decisions §1, §4, §5, §7): shapes, defaults, `actualEndDate` only by PATCH, partial update, soft
 * delete, the three body encodings, ordering, paging and every list filter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../../../src/demo/demo.ts';
import { DEMO_PROJECTS } from '../../../src/demo/demo-data.ts';
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

/** The keys of the create answer and the list items (the spec's). */
const KEYS = [
  'id',
  'contract',
  'title',
  'status',
  'symbolColor',
  'startDate',
  'endDate',
  'actualEndDate',
  'isHidden',
  'created',
];
/** The keys of the full shape (retrieve, update): the spec's plus `updated` (docs/api.md#events). */
const FULL_KEYS = [...KEYS, 'updated'];
const RFC3339_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const { call, get, listIds, raw } = apiClient(() => t.app);
async function create(b: TestBusiness, body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await call(b, { method: 'POST', url: '/v1/project', body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe('POST /v1/project', () => {
  it('answers 201 with the full shape of the reference, every property as sent', async () => {
    const b = await newBusiness(t);
    const before = Date.now();
    const res = await call(b, {
      method: 'POST',
      url: '/v1/project',
      body: {
        title: 'Website renewal',
        status: 'I',
        symbolColor: '#2f80ed',
        startDate: '2026-12-01',
        endDate: '2027-02-28',
        isHidden: true,
      },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(KEYS);
    expect(res.body).toEqual({
      id: expect.any(Number),
      contract: null,
      title: 'Website renewal',
      status: 'I',
      symbolColor: '#2f80ed',
      startDate: '2026-12-01',
      endDate: '2027-02-28',
      actualEndDate: null,
      isHidden: true,
      created: expect.stringMatching(RFC3339_MS_UTC),
    });
    expect(Date.parse(res.body.created)).toBeGreaterThanOrEqual(before - 5);
    expect(Date.parse(res.body.created)).toBeLessThanOrEqual(Date.now() + 5);
  });

  it('defaults: status U, not hidden, no colour and no dates', async () => {
    const b = await newBusiness(t);
    const p = await create(b, { title: 'Minimal' });
    expect(p).toMatchObject({
      status: 'U',
      isHidden: false,
      symbolColor: null,
      startDate: null,
      endDate: null,
      actualEndDate: null,
    });
  });

  it('ignores actualEndDate on create (settable only by PATCH), read-only and unknown properties', async () => {
    const b = await newBusiness(t);
    const p = await create(b, {
      title: 'No actual end',
      actualEndDate: '2027-01-01',
      id: 999999,
      created: '2000-01-01T00:00:00.000Z',
      bogus: 1,
    });
    expect(p.actualEndDate).toBeNull();
    expect(p.id).not.toBe(999999);
    expect(p.created).not.toBe('2000-01-01T00:00:00.000Z');
    expect((await get(b, `/v1/project/${p.id}`)).body.actualEndDate).toBeNull();
  });

  it('accepts the limits: title of 1 and 128 characters, symbolColor of 1 and 32, every status, nulls', async () => {
    const b = await newBusiness(t);
    expect((await create(b, { title: 'x', symbolColor: 'r' })).title).toBe('x');
    const long = await create(b, { title: 'T'.repeat(128), symbolColor: 'c'.repeat(32) });
    expect(long.title).toHaveLength(128);
    expect(long.symbolColor).toHaveLength(32);
    for (const status of ['U', 'I', 'A', 'E']) expect((await create(b, { title: status, status })).status).toBe(status);
    const nulls = await create(b, { title: 'Nulls', symbolColor: null, startDate: null, endDate: null });
    expect(nulls).toMatchObject({ symbolColor: null, startDate: null, endDate: null });
  });

  it('counts characters, not bytes: 128 Korean characters fit the title', async () => {
    const b = await newBusiness(t);
    const p = await create(b, { title: '프'.repeat(128) });
    expect(p.title).toBe('프'.repeat(128));
  });
});

/** Creates a contract through the API; returns its summary as a project nests it. */
async function newContract(b: TestBusiness, body: Record<string, unknown> = {}) {
  const res = await call(b, {
    method: 'POST',
    url: '/v1/contract',
    body: { title: 'Website build', amount: 12000000, type: 'G', ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const c = res.body;
  return {
    id: c.id,
    title: c.title,
    amount: c.amount,
    type: c.type,
    status: c.status,
    startDate: c.startDate,
    endDate: c.endDate,
  };
}

describe('the contract reference', () => {
  it('links a contract on create and answers its summary everywhere', async () => {
    const b = await newBusiness(t);
    const contract = await newContract(b, {
      title: 'Store build',
      amount: 24000000,
      type: 'I',
      startDate: '2026-09-01',
      endDate: '2027-02-28',
    });
    expect(contract).toEqual({
      id: expect.any(Number),
      title: 'Store build',
      amount: 24000000,
      type: 'I',
      status: 'P',
      startDate: '2026-09-01',
      endDate: '2027-02-28',
    });
    const p = await create(b, { title: 'Linked', contract: { id: contract.id } });
    expect(p.contract).toEqual(contract);
    expect((await get(b, `/v1/project/${p.id}`)).body.contract).toEqual(contract);
    expect((await get(b, '/v1/project')).body.results[0].contract).toEqual(contract);
    expect((await create(b, { title: 'Unlinked', contract: null })).contract).toBeNull();
  });

  it('PATCH reassigns the contract, null unlinks it, and other properties keep it', async () => {
    const b = await newBusiness(t);
    const first = await newContract(b, { title: 'First' });
    const second = await newContract(b, { title: 'Second' });
    const p = await create(b, { title: 'Moving', contract: { id: first.id } });
    expect(
      (await call(b, { method: 'PATCH', url: `/v1/project/${p.id}`, body: { contract: { id: second.id } } })).body
        .contract,
    ).toEqual(second);
    expect(
      (await call(b, { method: 'PATCH', url: `/v1/project/${p.id}`, body: { title: 'Renamed' } })).body.contract,
    ).toEqual(second);
    expect(
      (await call(b, { method: 'PATCH', url: `/v1/project/${p.id}`, body: { contract: null } })).body.contract,
    ).toBeNull();
  });

  it('shows the contract as it is now, and none once the contract is deleted', async () => {
    const b = await newBusiness(t);
    const contract = await newContract(b);
    const p = await create(b, { title: 'Follows', contract: { id: contract.id } });
    await call(b, {
      method: 'PATCH',
      url: `/v1/contract/${contract.id}`,
      body: { title: 'Renamed contract', status: 'I' },
    });
    expect((await get(b, `/v1/project/${p.id}`)).body.contract).toMatchObject({
      id: contract.id,
      title: 'Renamed contract',
      status: 'I',
    });
    expect((await raw(b, { method: 'DELETE', url: `/v1/contract/${contract.id}` })).statusCode).toBe(204);
    const after = await get(b, `/v1/project/${p.id}`);
    expect(after.status).toBe(200);
    expect(after.body).toEqual({ ...p, contract: null, updated: expect.any(String) });
  });

  it('filters the list by contract_id', async () => {
    const b = await newBusiness(t);
    const one = await newContract(b, { title: 'One' });
    const two = await newContract(b, { title: 'Two' });
    const a = (await create(b, { title: 'A', contract: { id: one.id } })).id;
    const c = (await create(b, { title: 'C', contract: { id: one.id } })).id;
    const d = (await create(b, { title: 'D', contract: { id: two.id } })).id;
    await create(b, { title: 'None' });
    expect(await listIds(b, `/v1/project?contract_id=${one.id}`)).toEqual([c, a]);
    expect(await listIds(b, `/v1/project?contract_id=${two.id}&status=U`)).toEqual([d]);
    expect(await listIds(b, '/v1/project?contract_id=2147483647')).toEqual([]);
  });

  it('creates and PATCHes sent while the contract is deleted answer 201 / 200 or 400 on contract.id, never a 500', async () => {
    for (let round = 0; round < 5; round++) {
      const b = await newBusiness(t);
      const contract = await newContract(b);
      const existing = await create(b, { title: 'Existing' });
      const requests: SignedRequest[] = [];
      for (let i = 0; i < 5; i++) {
        requests.push({
          method: 'POST',
          url: '/v1/project',
          body: { title: `Race ${i}`, contract: { id: contract.id } },
        });
        requests.push({ method: 'PATCH', url: `/v1/project/${existing.id}`, body: { contract: { id: contract.id } } });
      }
      const [deleted, ...results] = await Promise.all([
        call(b, { method: 'DELETE', url: `/v1/contract/${contract.id}` }),
        ...requests.map((r) => call(b, r)),
      ]);
      expect(deleted.status).toBe(204);
      for (const [i, r] of results.entries()) {
        expect([requests[i]!.method === 'POST' ? 201 : 200, 400], JSON.stringify(r.body)).toContain(r.status);
        if (r.status === 400) {
          expect(r.body).toEqual({
            contract: { id: [`Invalid pk "${contract.id}" - object does not exist.`] },
            requestId: r.headers['x-request-id'],
          });
        }
      }
      // Every project that got the contract lost it with the contract.
      const list = (await get(b, '/v1/project?page_size=100')).body.results as { contract: unknown }[];
      expect(list.every((p) => p.contract === null)).toBe(true);
    }
  });

  it('takes the contract from a form body too', async () => {
    const b = await newBusiness(t);
    const contract = await newContract(b);
    const res = await call(b, {
      method: 'POST',
      url: '/v1/project',
      form: 'urlencoded',
      body: { title: 'Form', 'contract[id]': contract.id },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.contract).toEqual(contract);
  });
});

describe('GET /v1/project/{project_id}', () => {
  it('answers the create response plus updated, equal to created', async () => {
    const b = await newBusiness(t);
    const p = await create(b, { title: 'Read me', status: 'A', startDate: '2026-01-31' });
    const res = await get(b, `/v1/project/${p.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(FULL_KEYS);
    expect(res.body).toEqual({ ...p, updated: p.created });
  });
});

describe('PATCH /v1/project/{project_id}', () => {
  it('changes only the properties sent, sets actualEndDate, and null clears nullable ones', async () => {
    const b = await newBusiness(t);
    const p = await create(b, { title: 'Before', symbolColor: '#111', startDate: '2026-01-01', endDate: '2026-02-01' });
    const res = await call(b, {
      method: 'PATCH',
      url: `/v1/project/${p.id}`,
      body: { title: 'After', status: 'E', actualEndDate: '2026-02-03', symbolColor: null },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(FULL_KEYS);
    expect(res.body).toEqual({
      ...p,
      title: 'After',
      status: 'E',
      actualEndDate: '2026-02-03',
      symbolColor: null,
      updated: res.body.updated,
    });
    expect(res.body.updated >= p.created).toBe(true);
    expect((await get(b, `/v1/project/${p.id}`)).body).toEqual(res.body);
    const cleared = await call(b, {
      method: 'PATCH',
      url: `/v1/project/${p.id}`,
      body: { actualEndDate: null, startDate: null, endDate: null },
    });
    expect(cleared.body).toMatchObject({ actualEndDate: null, startDate: null, endDate: null, title: 'After' });
  });

  it('answers the unchanged project for an empty body, and ignores read-only properties', async () => {
    const b = await newBusiness(t);
    const p = await create(b, { title: 'Same' });
    const full = { ...p, updated: p.created };
    expect((await call(b, { method: 'PATCH', url: `/v1/project/${p.id}`, body: {} })).body).toEqual(full);
    const res = await call(b, {
      method: 'PATCH',
      url: `/v1/project/${p.id}`,
      body: { id: 1, created: '2001-01-01T00:00:00.000Z', updated: '2001-01-01T00:00:00.000Z' },
    });
    expect(res.body).toEqual(full);
  });

  it('sets and clears the hidden flag', async () => {
    const b = await newBusiness(t);
    const p = await create(b, { title: 'Hide me' });
    expect(
      (await call(b, { method: 'PATCH', url: `/v1/project/${p.id}`, body: { isHidden: true } })).body.isHidden,
    ).toBe(true);
    expect(
      (await call(b, { method: 'PATCH', url: `/v1/project/${p.id}`, body: { isHidden: false } })).body.isHidden,
    ).toBe(false);
  });
});

describe('DELETE /v1/project/{project_id}', () => {
  it('soft-deletes: 204 without a body, then 404 everywhere and gone from the list, but kept in the database', async () => {
    const b = await newBusiness(t);
    const keep = await create(b, { title: 'Keep' });
    const doomed = await create(b, { title: 'Doomed', status: 'I' });
    const del = await raw(b, { method: 'DELETE', url: `/v1/project/${doomed.id}` });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    for (const req of [
      { method: 'GET', url: `/v1/project/${doomed.id}` },
      { method: 'PATCH', url: `/v1/project/${doomed.id}`, body: { title: 'Zombie' } },
      { method: 'DELETE', url: `/v1/project/${doomed.id}` },
    ] as SignedRequest[]) {
      const res = await call(b, req);
      expect(res.status, req.method).toBe(404);
      expect(res.body).toEqual({ detail: 'Not found.', code: 'not_found', requestId: res.headers['x-request-id'] });
    }
    expect(await listIds(b, '/v1/project')).toEqual([keep.id]);
    expect(await listIds(b, '/v1/project?status=I')).toEqual([]);
    const row = await t.testDb.db
      .selectFrom('project')
      .select(['title', 'deleted_at'])
      .where('id', '=', doomed.id)
      .executeTakeFirstOrThrow();
    expect(row.title).toBe('Doomed');
    expect(row.deleted_at).toMatch(RFC3339_MS_UTC);
  });
});

describe('body encodings', () => {
  it('JSON, urlencoded and multipart give the same project', async () => {
    const b = await newBusiness(t);
    const fields = {
      title: 'Encoded',
      status: 'A',
      symbolColor: '#abc',
      startDate: '2026-03-01',
      endDate: '2026-04-30',
      isHidden: 'true',
    };
    const json = await create(b, { ...fields, isHidden: true });
    const form = await call(b, { method: 'POST', url: '/v1/project', body: fields, form: 'urlencoded' });
    const multi = await call(b, { method: 'POST', url: '/v1/project', body: fields, form: 'multipart' });
    const strip = ({ id: _id, created: _c, ...rest }: Record<string, unknown>) => rest;
    expect(form.status, JSON.stringify(form.body)).toBe(201);
    expect(multi.status, JSON.stringify(multi.body)).toBe(201);
    expect(strip(form.body)).toEqual(strip(json));
    expect(strip(multi.body)).toEqual(strip(json));
    const patched = await call(b, {
      method: 'PATCH',
      url: `/v1/project/${json.id}`,
      body: { actualEndDate: '2026-05-02', isHidden: 'false' },
      form: 'urlencoded',
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ actualEndDate: '2026-05-02', isHidden: false });
  });
});

describe('GET /v1/project', () => {
  it('lists newest first, and pages with next / previous links that keep the filters', async () => {
    const b = await newBusiness(t);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await create(b, { title: `P${i}`, status: 'I' })).id);
    const other = (await create(b, { title: 'Other status', status: 'E' })).id;
    const newest = [...ids].reverse();
    const page1 = await get(b, '/v1/project?status=I&page_size=2');
    expect(page1.body.results.map((p: { id: number }) => p.id)).toEqual(newest.slice(0, 2));
    expect(page1.body.previous).toBeNull();
    expect(page1.body.next).toContain('status=I');
    const page2 = await get(b, relative(page1.body.next));
    expect(page2.body.results.map((p: { id: number }) => p.id)).toEqual(newest.slice(2, 4));
    const page3 = await get(b, relative(page2.body.next));
    expect(page3.body.results.map((p: { id: number }) => p.id)).toEqual(newest.slice(4));
    expect(page3.body.next).toBeNull();
    const back = await get(b, relative(page3.body.previous));
    expect(back.body.results.map((p: { id: number }) => p.id)).toEqual(newest.slice(2, 4));
    expect(Object.keys(page1.body.results[0])).toEqual(KEYS);
    expect(await listIds(b, '/v1/project?limit=1')).toEqual([other]);
  });

  it('filters by status, each code alone', async () => {
    const b = await newBusiness(t);
    const byStatus: Record<string, number> = {};
    for (const status of ['U', 'I', 'A', 'E']) byStatus[status] = (await create(b, { title: status, status })).id;
    for (const status of ['U', 'I', 'A', 'E'])
      expect(await listIds(b, `/v1/project?status=${status}`)).toEqual([byStatus[status]]);
  });

  it('filters by is_hidden: true only hidden, false only visible, omitted all', async () => {
    const b = await newBusiness(t);
    const visible = (await create(b, { title: 'Visible' })).id;
    const hidden = (await create(b, { title: 'Hidden', isHidden: true })).id;
    expect(await listIds(b, '/v1/project?is_hidden=true')).toEqual([hidden]);
    expect(await listIds(b, '/v1/project?is_hidden=1')).toEqual([hidden]);
    expect(await listIds(b, '/v1/project?is_hidden=false')).toEqual([visible]);
    expect(await listIds(b, '/v1/project?is_hidden=0')).toEqual([visible]);
    expect(await listIds(b, '/v1/project')).toEqual([hidden, visible]);
  });

  it('filters start and end dates by inclusive ranges; projects without that date never match', async () => {
    const b = await newBusiness(t);
    const jan = (await create(b, { title: 'Jan', startDate: '2026-01-31', endDate: '2026-03-01' })).id;
    const feb = (await create(b, { title: 'Feb', startDate: '2026-02-01', endDate: '2026-02-28' })).id;
    const mar = (await create(b, { title: 'Mar', startDate: '2026-03-01', endDate: '2026-03-31' })).id;
    const none = (await create(b, { title: 'No dates' })).id;
    expect(await listIds(b, '/v1/project?start_date_start=2026-02-01')).toEqual([mar, feb]);
    expect(await listIds(b, '/v1/project?start_date_end=2026-02-01')).toEqual([feb, jan]);
    expect(await listIds(b, '/v1/project?start_date_start=2026-02-01&start_date_end=2026-02-01')).toEqual([feb]);
    expect(await listIds(b, '/v1/project?start_date_start=2026-01-31&start_date_end=2026-03-01')).toEqual([
      mar,
      feb,
      jan,
    ]);
    expect(await listIds(b, '/v1/project?end_date_start=2026-03-01')).toEqual([mar, jan]);
    expect(await listIds(b, '/v1/project?end_date_end=2026-02-28')).toEqual([feb]);
    expect(await listIds(b, '/v1/project?end_date_start=2026-03-01&end_date_end=2026-03-01')).toEqual([jan]);
    expect(await listIds(b, '/v1/project?start_date_start=2026-01-01&end_date_end=2026-03-01')).toEqual([feb, jan]);
    expect(await listIds(b, '/v1/project?start_date_start=2027-01-01')).toEqual([]);
    expect(await listIds(b, '/v1/project')).toEqual([none, mar, feb, jan]);
  });

  it('combines filters (AND) and treats empty values as no filter', async () => {
    const b = await newBusiness(t);
    const a = (await create(b, { title: 'A', status: 'I', isHidden: true, startDate: '2026-05-05' })).id;
    await create(b, { title: 'B', status: 'I', startDate: '2026-05-05' });
    await create(b, { title: 'C', status: 'U', isHidden: true, startDate: '2026-05-05' });
    expect(await listIds(b, '/v1/project?status=I&is_hidden=true&start_date_start=2026-05-05')).toEqual([a]);
    expect(await listIds(b, '/v1/project?status=&is_hidden=&start_date_start=')).toHaveLength(3);
  });

  it('answers an empty page for a business without projects', async () => {
    const b = await newBusiness(t);
    expect((await get(b, '/v1/project')).body).toEqual({ next: null, previous: null, results: [] });
  });

  it('is allowed on the FREE plan, end to end', async () => {
    const b = await newBusiness(t, { plan: 'FREE' });
    const p = await create(b, { title: 'Free' });
    expect((await call(b, { method: 'PATCH', url: `/v1/project/${p.id}`, body: { status: 'I' } })).status).toBe(200);
    expect(await listIds(b, '/v1/project')).toEqual([p.id]);
    expect((await raw(b, { method: 'DELETE', url: `/v1/project/${p.id}` })).statusCode).toBe(204);
  });
});

describe('the demo business', () => {
  it('has projects, readable through the API with its key', async () => {
    const demo = await createDemo(t.testDb.db, t.masterKey);
    const res = await call(demo, { method: 'GET', url: '/v1/project' });
    expect(res.status).toBe(200);
    expect(res.body.results.map((p: { title: string }) => p.title)).toEqual(
      [...DEMO_PROJECTS].reverse().map((p) => p.title),
    );
    expect(res.body.results.map((p: { status: string }) => p.status)).toEqual(['E', 'A', 'I', 'U']);
    expect(res.body.results.map((p: { contract: { title: string } | null }) => p.contract?.title ?? null)).toEqual([
      null,
      'Fleet tracking maintenance',
      'Online store build',
      'Brand refresh',
    ]);
  });
});
