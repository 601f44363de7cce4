/**
 * Cascades (docs/api.md#cascades, decisions §17): a write that changes the API shape of other records writes
 * `<resource>.updated` (or `.deleted`) for each of them, in the same transaction, after its own event, with
 * `data` equal to what `GET` answers for that record afterwards and `updated` stamped (the event's time).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { apiClient } from '../../setup/api-client.ts';
import { eventHelpers } from '../../setup/event-helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const { get, post, patch, delete: del } = apiClient(() => t.app);
const { lastEventId, eventsAfter } = eventHelpers({ get });

/** `POST url body`, expecting 201; the answer. */
async function created(b: TestBusiness, url: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await post(b, url, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const CONTRACT = { title: 'Website', amount: 1000, type: 'I', startDate: '2026-01-01', endDate: '2026-12-31' };
const TODO = { type: 'CA', dueDate: '2026-12-01', action: 'Call' };

/** The `type`, `changedFields` and record id of each event, for an exact comparison. */
const summary = (events: any[]) => events.map((e) => [e.type, e.changedFields, e.data.id]);

/** Each `*.updated` event's `data` is what GET answers for the record now, and its time the record's `updated`. */
async function expectDataAsGet(b: TestBusiness, events: any[], paths: Record<string, string>): Promise<void> {
  for (const e of events.filter((x) => x.type.endsWith('.updated'))) {
    const resource = e.type.slice(0, -'.updated'.length) as string;
    const res = await get(b, `${paths[resource]}/${e.data.id}`);
    expect(res.status, `${e.type} ${e.data.id}`).toBe(200);
    expect(e.data, e.type).toEqual(res.body);
    expect(e.created).toBe(res.body.updated);
  }
}

const PATHS = {
  inquiry: '/v1/inquiry',
  contract: '/v1/contract',
  project: '/v1/project',
  settlement: '/v1/settlement',
  todo: '/v1/todo',
  client: '/v1/client',
};

describe('cascade events', () => {
  it("a client's PATCH of what others nest writes inquiry.updated and contract.updated [client]; other properties none", async () => {
    const b = await newBusiness(t);
    const client = await created(b, '/v1/client', { companyName: 'Acme' });
    const i1 = await created(b, '/v1/inquiry', { name: 'A', client: { id: client.id } });
    const i2 = await created(b, '/v1/inquiry', { name: 'B', client: { id: client.id } });
    const c = await created(b, '/v1/contract', { ...CONTRACT, client: { id: client.id } });
    await created(b, '/v1/inquiry', { name: 'Other' });

    let since = await lastEventId(b);
    expect((await patch(b, `/v1/client/${client.id}`, { companyName: 'Acme 2', email: 'a@acme.example' })).status).toBe(
      200,
    );
    const events = await eventsAfter(b, since);
    expect(summary(events)).toEqual([
      ['client.updated', ['companyName', 'email'], client.id],
      ['inquiry.updated', ['client'], i1.id],
      ['inquiry.updated', ['client'], i2.id],
      ['contract.updated', ['client'], c.id],
    ]);
    expect(events[1].data.client).toMatchObject({ id: client.id, companyName: 'Acme 2', email: 'a@acme.example' });
    await expectDataAsGet(b, events, PATHS);

    since = await lastEventId(b);
    expect((await patch(b, `/v1/client/${client.id}`, { ceoName: 'Kim', isHidden: true })).status).toBe(200);
    expect(summary(await eventsAfter(b, since))).toEqual([['client.updated', ['ceoName', 'isHidden'], client.id]]);
  });

  it("a client's delete writes inquiry.updated and contract.updated with client null", async () => {
    const b = await newBusiness(t);
    const client = await created(b, '/v1/client', { companyName: 'Acme' });
    const i = await created(b, '/v1/inquiry', { name: 'A', client: { id: client.id } });
    const c = await created(b, '/v1/contract', { ...CONTRACT, client: { id: client.id } });
    const since = await lastEventId(b);
    expect((await del(b, `/v1/client/${client.id}`)).status).toBe(204);
    const events = await eventsAfter(b, since);
    expect(summary(events)).toEqual([
      ['client.deleted', [], client.id],
      ['inquiry.updated', ['client'], i.id],
      ['contract.updated', ['client'], c.id],
    ]);
    expect(events[1].data.client).toBeNull();
    expect(events[2].data.client).toBeNull();
    await expectDataAsGet(b, events, PATHS);
  });

  it("a contract's summary change writes inquiry, project and settlement .updated [contract]; other properties none", async () => {
    const b = await newBusiness(t);
    const i = await created(b, '/v1/inquiry', { name: 'A' });
    const c = await created(b, '/v1/contract', { ...CONTRACT, inquiry: { id: i.id } });
    const p = await created(b, '/v1/project', { title: 'P', contract: { id: c.id } });
    const s = await created(b, '/v1/settlement', {
      title: 'S',
      amount: 1,
      additionalAmount: 0,
      vat: 0,
      contract: { id: c.id },
      type: { id: b.ids.settlementTypes.sub },
    });

    let since = await lastEventId(b);
    expect((await patch(b, `/v1/contract/${c.id}`, { title: 'Website 2', status: 'I' })).status).toBe(200);
    const events = await eventsAfter(b, since);
    expect(summary(events)).toEqual([
      ['contract.updated', ['title', 'status'], c.id],
      ['inquiry.updated', ['contract'], i.id],
      ['project.updated', ['contract'], p.id],
      ['settlement.updated', ['contract'], s.id],
    ]);
    expect(events[2].data.contract).toMatchObject({ id: c.id, title: 'Website 2', status: 'I' });
    await expectDataAsGet(b, events, PATHS);

    since = await lastEventId(b);
    expect((await patch(b, `/v1/contract/${c.id}`, { contractNumber: 'N-1', title: 'Website 2' })).status).toBe(200);
    expect(summary(await eventsAfter(b, since))).toEqual([['contract.updated', ['contractNumber'], c.id]]);
  });

  it("a contract's delete writes project.updated with contract null", async () => {
    const b = await newBusiness(t);
    const c = await created(b, '/v1/contract', CONTRACT);
    const p = await created(b, '/v1/project', { title: 'P', contract: { id: c.id } });
    const since = await lastEventId(b);
    expect((await del(b, `/v1/contract/${c.id}`)).status).toBe(204);
    const events = await eventsAfter(b, since);
    expect(summary(events)).toEqual([
      ['project.updated', ['contract'], p.id],
      ['contract.deleted', [], c.id],
    ]);
    expect(events[0].data.contract).toBeNull();
    await expectDataAsGet(b, events, PATHS);
  });

  it('an inquiry that links, moves and unlinks a contract writes contract.updated [inquiry] for each contract concerned', async () => {
    const b = await newBusiness(t);
    const a = await created(b, '/v1/contract', CONTRACT);
    const z = await created(b, '/v1/contract', CONTRACT);

    let since = await lastEventId(b);
    const i = await created(b, '/v1/inquiry', { name: 'A', contract: { id: a.id } });
    let events = await eventsAfter(b, since);
    expect(summary(events)).toEqual([
      ['inquiry.created', [], i.id],
      ['contract.updated', ['inquiry'], a.id],
    ]);
    expect(events[1].data.inquiry).toMatchObject({ id: i.id, name: 'A' });
    await expectDataAsGet(b, events, PATHS);

    since = await lastEventId(b);
    expect((await patch(b, `/v1/inquiry/${i.id}`, { contract: { id: z.id } })).status).toBe(200);
    events = await eventsAfter(b, since);
    expect(summary(events)).toEqual([
      ['inquiry.updated', ['contract'], i.id],
      ['contract.updated', ['inquiry'], a.id],
      ['contract.updated', ['inquiry'], z.id],
    ]);
    expect(events[1].data.inquiry).toBeNull();
    await expectDataAsGet(b, events, PATHS);

    since = await lastEventId(b);
    expect((await patch(b, `/v1/inquiry/${i.id}`, { contract: null })).status).toBe(200);
    events = await eventsAfter(b, since);
    expect(summary(events)).toEqual([
      ['inquiry.updated', ['contract'], i.id],
      ['contract.updated', ['inquiry'], z.id],
    ]);
    await expectDataAsGet(b, events, PATHS);
  });

  it("an inquiry's rename writes contract.updated and todo.updated [inquiry]; an estimate change only contract.updated", async () => {
    const b = await newBusiness(t);
    const c = await created(b, '/v1/contract', CONTRACT);
    const i = await created(b, '/v1/inquiry', { name: 'A', contract: { id: c.id } });
    const todo = await created(b, '/v1/todo', { ...TODO, inquiry: { id: i.id } });

    let since = await lastEventId(b);
    expect((await patch(b, `/v1/inquiry/${i.id}`, { name: 'A 2' })).status).toBe(200);
    let events = await eventsAfter(b, since);
    expect(summary(events)).toEqual([
      ['inquiry.updated', ['name'], i.id],
      ['contract.updated', ['inquiry'], c.id],
      ['todo.updated', ['inquiry'], todo.id],
    ]);
    expect(events[2].data.inquiry).toEqual({ id: i.id, uniqueId: i.uniqueId, name: 'A 2' });
    await expectDataAsGet(b, events, PATHS);

    since = await lastEventId(b);
    expect((await patch(b, `/v1/inquiry/${i.id}`, { estimate: '12.5', content: 'x' })).status).toBe(200);
    events = await eventsAfter(b, since);
    expect(summary(events)).toEqual([
      ['inquiry.updated', ['estimate', 'content'], i.id],
      ['contract.updated', ['inquiry'], c.id],
    ]);
    expect(events[1].data.inquiry.estimate).toBe('12.50');
    await expectDataAsGet(b, events, PATHS);

    since = await lastEventId(b);
    expect((await patch(b, `/v1/inquiry/${i.id}`, { content: 'y' })).status).toBe(200);
    expect(summary(await eventsAfter(b, since))).toEqual([['inquiry.updated', ['content'], i.id]]);
  });

  it("an inquiry's delete writes text_history.deleted and todo.deleted for what it hides, then contract.updated", async () => {
    const b = await newBusiness(t);
    const c = await created(b, '/v1/contract', CONTRACT);
    const i = await created(b, '/v1/inquiry', { name: 'A', contract: { id: c.id } });
    const note = await created(b, `/v1/inquiry/${i.id}/text_history`, { content: 'Note' });
    const t1 = await created(b, '/v1/todo', { ...TODO, inquiry: { id: i.id } });
    const t2 = await created(b, '/v1/todo', { ...TODO, inquiry: { id: i.id } });
    const since = await lastEventId(b);
    expect((await del(b, `/v1/inquiry/${i.id}`)).status).toBe(204);
    const events = await eventsAfter(b, since);
    expect(summary(events)).toEqual([
      ['inquiry.text_history.deleted', [], note.id],
      ['todo.deleted', [], t1.id],
      ['todo.deleted', [], t2.id],
      ['inquiry.deleted', [], i.id],
      ['contract.updated', ['inquiry'], c.id],
    ]);
    for (const e of events.filter((x) => x.type.endsWith('.deleted'))) expect(e.data).toEqual({ id: e.data.id });
    expect(events.map((e) => e.parent)).toEqual([{ type: 'inquiry', id: i.id }, null, null, null, null]);
    expect((await get(b, `/v1/todo/${t1.id}`)).status).toBe(404);
    expect(events[4].data.inquiry).toBeNull();
    await expectDataAsGet(b, events, PATHS);
  });
});
