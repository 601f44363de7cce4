/**
 * How many SQL statements the writes of inquiries, clients and contracts run (issue 27's lean write path,
 * docs/api.md#events): for each resource a create, a one-property PATCH, a no-op PATCH and a DELETE, each
 * within a tight budget (transaction control and the authentication lookup included, the call log left out;
 * see test/setup/statement-count.ts), with the same budgets on SQLite and PostgreSQL, and each answer
 * checked. A budget is the count the write path reaches: a statement added to it fails this test.
 *
 * The target of the issue: a one-property `PATCH /v1/inquiry/{id}` runs at most 8 statements (auth lookup ·
 * begin · the full shape read that is the lock · UPDATE of the column and `updated` · the full shape after ·
 * INSERT of the event · commit).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { apiClient } from '../setup/api-client.ts';
import { eventHelpers } from '../setup/event-helpers.ts';
import { newBusiness, type TestBusiness } from '../setup/factories.ts';
import { withinStatements } from '../setup/statement-count.ts';

let t: TestApp;
let b: TestBusiness;
beforeAll(async () => {
  t = await buildTestApp();
  b = await newBusiness(t);
});
afterAll(() => t.close());

const { get, post, patch, delete: del } = apiClient(() => t.app);
const { lastEventId, eventsAfter } = eventHelpers({ get });

/**
 * The statement budgets, the same on both databases (SQLite counts `begin immediate`, PostgreSQL `begin`).
 * Before the lean write path (main at ac341e5, both databases): inquiry create 19, PATCH 20, no-op PATCH
 * 18, PATCH of one field value 26, DELETE 6; client create 9, PATCH 13, no-op 11, field value 20, DELETE 5;
 * contract create 10, PATCH 15, no-op 13, linking an inquiry 34, DELETE of a linked contract 25.
 */
const BUDGET = {
  // create: auth · begin · number · INSERT (default status inside) · status history · full shape · event · commit
  // patch: auth · begin · full shape FOR UPDATE · UPDATE (name, updated) · full shape · event · commit
  //   + the cascade of a rename (docs/api.md#cascades): its todos' UPDATE of `updated` (none here)
  // no-op: auth · begin · full shape FOR UPDATE · commit
  // patchField: + the field check (3 catalog reads) + the value's upsert
  // delete: auth · begin · UPDATE deleted_at · release the contract link · event · commit
  //   + the cascade: the ids of its text notes and of its todos (none here)
  inquiry: { get: 2, create: 8, patch: 8, noop: 4, patchField: 11, delete: 8 },
  // create: auth · begin · INSERT (default status inside) · full shape · event · commit
  // patch (companyName) and delete: + the cascade to what nests the client (docs/api.md#cascades): the
  //   UPDATE of `updated` of its inquiries, then of its contracts (none here)
  client: { get: 2, create: 6, patch: 9, noop: 4, patchField: 11, delete: 7 },
  // patch (title) and no-op: + the read of the linked inquiry's id before the lock (an inquiry is locked
  //   before its contract); patch: + the cascade's UPDATEs of `updated` of its projects and settlements
  // patchInquiry: auth · 2 reference checks · begin · the link · inquiry FOR UPDATE · contract FOR UPDATE ·
  //   UPDATE · full shape · event · inquiry UPDATE updated · inquiry full shape · inquiry event · commit
  // delete: auth · begin · the link · inquiry FOR UPDATE · contract FOR UPDATE · 3 child DELETEs · its
  //   projects' release (docs/api.md#cascades) · DELETE · event · inquiry UPDATE updated · inquiry full shape ·
  //   inquiry event · commit
  contract: { get: 2, create: 6, patch: 10, noop: 5, patchInquiry: 14, delete: 15 },
} as const;

describe('inquiry writes', () => {
  it('create, PATCH, no-op PATCH and DELETE within their budgets', async () => {
    const since = await lastEventId(b);
    const created = await withinStatements(BUDGET.inquiry.create, () => post(b, '/v1/inquiry', { name: 'Web shop' }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ name: 'Web shop', inChargeSet: [] });
    const id = created.body.id as number;
    const before = (await withinStatements(BUDGET.inquiry.get, () => get(b, `/v1/inquiry/${id}`))).body;

    const changed = await withinStatements(BUDGET.inquiry.patch, () =>
      patch(b, `/v1/inquiry/${id}`, { name: 'Web shop 2' }),
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toEqual({ ...before, name: 'Web shop 2', updated: changed.body.updated });
    expect(changed.body.updated > before.updated).toBe(true);

    const same = await withinStatements(BUDGET.inquiry.noop, () =>
      patch(b, `/v1/inquiry/${id}`, { name: 'Web shop 2' }),
    );
    expect(same.status).toBe(200);
    expect(same.body).toEqual(changed.body);

    const field = await withinStatements(BUDGET.inquiry.patchField, () =>
      patch(b, `/v1/inquiry/${id}`, { fieldSet: [{ field: { id: b.ids.fields.budget }, value: '5' }] }),
    );
    expect(field.status, JSON.stringify(field.body)).toBe(200);
    expect(field.body.fieldSet).toMatchObject([
      { field: { id: b.ids.fields.budget, name: 'Budget', dataType: 'N' }, value: '5' },
    ]);

    const gone = await withinStatements(BUDGET.inquiry.delete, () => del(b, `/v1/inquiry/${id}`));
    expect(gone.status).toBe(204);
    expect((await get(b, `/v1/inquiry/${id}`)).status).toBe(404);

    const events = await eventsAfter(b, since);
    expect(events.map((e) => [e.type, e.changedFields])).toEqual([
      ['inquiry.created', []],
      ['inquiry.updated', ['name']],
      ['inquiry.updated', ['fieldSet']],
      ['inquiry.deleted', []],
    ]);
    expect(events[1].data).toEqual(changed.body);
  });
});

describe('client writes', () => {
  it('create, PATCH, no-op PATCH and DELETE within their budgets', async () => {
    const since = await lastEventId(b);
    const created = await withinStatements(BUDGET.client.create, () => post(b, '/v1/client', { companyName: 'Acme' }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ companyName: 'Acme' });
    const id = created.body.id as number;
    const before = (await withinStatements(BUDGET.client.get, () => get(b, `/v1/client/${id}`))).body;

    const changed = await withinStatements(BUDGET.client.patch, () =>
      patch(b, `/v1/client/${id}`, { companyName: 'Acme 2' }),
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toEqual({ ...before, companyName: 'Acme 2', updated: changed.body.updated });

    const same = await withinStatements(BUDGET.client.noop, () =>
      patch(b, `/v1/client/${id}`, { companyName: 'Acme 2' }),
    );
    expect(same.status).toBe(200);
    expect(same.body).toEqual(changed.body);

    const field = await withinStatements(BUDGET.client.patchField, () =>
      patch(b, `/v1/client/${id}`, { fieldSet: [{ field: { id: b.ids.fields.channel }, value: 'web' }] }),
    );
    expect(field.status, JSON.stringify(field.body)).toBe(200);
    expect(field.body.fieldSet).toMatchObject([
      { field: { id: b.ids.fields.channel, optionSet: [{ id: 'web' }, { id: 'phone' }] }, value: 'web' },
    ]);

    const gone = await withinStatements(BUDGET.client.delete, () => del(b, `/v1/client/${id}`));
    expect(gone.status).toBe(204);

    const events = await eventsAfter(b, since);
    expect(events.map((e) => [e.type, e.changedFields])).toEqual([
      ['client.created', []],
      ['client.updated', ['companyName']],
      ['client.updated', ['fieldSet']],
      ['client.deleted', []],
    ]);
  });
});

describe('contract writes', () => {
  it('create, PATCH, no-op PATCH, a link to an inquiry and DELETE within their budgets', async () => {
    const inquiry = (await post(b, '/v1/inquiry', { name: 'For a contract' })).body.id as number;
    const after = await lastEventId(b);
    const created = await withinStatements(BUDGET.contract.create, () =>
      post(b, '/v1/contract', { title: 'Build', amount: 1000, type: 'I' }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    const before = (await withinStatements(BUDGET.contract.get, () => get(b, `/v1/contract/${id}`))).body;

    const changed = await withinStatements(BUDGET.contract.patch, () =>
      patch(b, `/v1/contract/${id}`, { title: 'Build 2' }),
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toEqual({ ...before, title: 'Build 2', updated: changed.body.updated });

    const same = await withinStatements(BUDGET.contract.noop, () =>
      patch(b, `/v1/contract/${id}`, { title: 'Build 2' }),
    );
    expect(same.status).toBe(200);
    expect(same.body).toEqual(changed.body);

    const linked = await withinStatements(BUDGET.contract.patchInquiry, () =>
      patch(b, `/v1/contract/${id}`, { inquiry: { id: inquiry } }),
    );
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect(linked.body.inquiry).toMatchObject({ id: inquiry });

    const gone = await withinStatements(BUDGET.contract.delete, () => del(b, `/v1/contract/${id}`));
    expect(gone.status).toBe(204);

    const events = await eventsAfter(b, after);
    expect(events.map((e) => [e.type, e.changedFields])).toEqual([
      ['contract.created', []],
      ['contract.updated', ['title']],
      ['contract.updated', ['inquiry']],
      ['inquiry.updated', ['contract']],
      ['contract.deleted', []],
      ['inquiry.updated', ['contract']],
    ]);
    expect((await get(b, `/v1/inquiry/${inquiry}`)).body.contract).toBeNull();
  });
});
