/**
 * Change events and `updated` (docs/api.md#events), on clients: one event per create, change and delete in
 * the transaction of the change, exact `changedFields`, `data` equal to what `GET` answers, none for a no-op
 * PATCH or a refused one; `GET /v1/event` with its filters, paging and tenant isolation; `updated` in the
 * full shape and the `updated_start` / `updated_end` list filters.
 */
import { setTimeout as sleep } from 'node:timers/promises';
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

const { events } = eventHelpers({ get });

async function newClient(b: TestBusiness, body: Record<string, unknown> = { companyName: 'Acme' }): Promise<number> {
  const res = await post(b, '/v1/client', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

describe('client events', () => {
  it('writes client.created with the full shape GET answers', async () => {
    const b = await newBusiness(t);
    const id = await newClient(b, { companyName: 'Acme', email: 'a@acme.example' });
    const [event, ...rest] = await events(b);
    expect(rest).toEqual([]);
    const full = await get(b, `/v1/client/${id}`);
    expect(event).toMatchObject({ type: 'client.created', changedFields: [], data: full.body });
    expect(full.body.updated).toBe(full.body.created);
    expect(event.created).toBe(full.body.updated);
    expect((await get(b, `/v1/event/${event.id}`)).body).toEqual(event);
  });

  it('writes client.updated naming exactly the changed properties, and stamps updated', async () => {
    const b = await newBusiness(t);
    const id = await newClient(b, { companyName: 'Acme', email: 'a@acme.example', contact: '1' });
    const before = (await get(b, `/v1/client/${id}`)).body;
    await sleep(5);
    // contact sent with its current value: not a change
    const res = await patch(b, `/v1/client/${id}`, { email: 'b@acme.example', contact: '1', isHidden: true });
    expect(res.status).toBe(200);
    expect(res.body.updated > before.updated).toBe(true);
    const all = await events(b);
    expect(all.map((e) => e.type)).toEqual(['client.created', 'client.updated']);
    const updated = all[1];
    expect(updated.changedFields).toEqual(['email', 'isHidden']);
    expect(updated.data).toEqual(res.body);
    expect(updated.created).toBe(res.body.updated);
    expect((await get(b, `/v1/client/${id}`)).body).toEqual(res.body);
  });

  it('a PATCH that changes nothing writes no event and keeps updated', async () => {
    const b = await newBusiness(t);
    const id = await newClient(b, { companyName: 'Acme', email: 'a@acme.example' });
    const before = (await get(b, `/v1/client/${id}`)).body;
    await sleep(5);
    for (const body of [{}, { companyName: 'Acme' }, { email: 'a@acme.example', isHidden: false }]) {
      const res = await patch(b, `/v1/client/${id}`, body);
      expect(res.status).toBe(200);
      expect(res.body.updated).toBe(before.updated);
    }
    expect((await events(b)).map((e) => e.type)).toEqual(['client.created']);
  });

  it('a refused write writes no event', async () => {
    const b = await newBusiness(t);
    const id = await newClient(b);
    expect((await patch(b, `/v1/client/${id}`, { status: { id: 999999 } })).status).toBe(400);
    expect((await patch(b, `/v1/client/${id}`, { companyName: '' })).status).toBe(400);
    expect((await post(b, '/v1/client', { companyName: 'X', status: { id: 999999 } })).status).toBe(400);
    expect((await del(b, '/v1/client/999999')).status).toBe(404);
    expect((await events(b)).map((e) => e.type)).toEqual(['client.created']);
  });

  it('writes client.deleted with data {id}', async () => {
    const b = await newBusiness(t);
    const id = await newClient(b);
    expect((await del(b, `/v1/client/${id}`)).status).toBe(204);
    const all = await events(b);
    expect(all.map((e) => e.type)).toEqual(['client.created', 'client.deleted']);
    expect(all[1]).toMatchObject({ changedFields: [], data: { id } });
    expect(Object.keys(all[1].data)).toEqual(['id']);
  });

  it('a change of the fieldSet alone is a change', async () => {
    const b = await newBusiness(t);
    const fields = (await get(b, '/v1/field?category=C')).body.results as { id: number; dataType: string }[];
    const text = fields.find((f) => f.dataType === 'S');
    expect(text, 'the test catalog has a text client field').toBeDefined();
    const id = await newClient(b);
    const res = await patch(b, `/v1/client/${id}`, { fieldSet: [{ field: { id: text!.id }, value: 'hello' }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const last = (await events(b)).at(-1);
    expect(last.type).toBe('client.updated');
    expect(last.changedFields).toEqual(['fieldSet']);
  });
});

describe('GET /v1/event', () => {
  it('filters by type (any of) and by creation time, pages newest first', async () => {
    const b = await newBusiness(t);
    const a = await newClient(b, { companyName: 'A' });
    await sleep(5);
    const mark = new Date().toISOString();
    await sleep(5);
    await patch(b, `/v1/client/${a}`, { companyName: 'A2' });
    await del(b, `/v1/client/${a}`);
    const types = async (q: string) => (await events(b, q)).map((e) => e.type);
    expect(await types('&type=client.deleted')).toEqual(['client.deleted']);
    expect(await types('&type=client.deleted&type=client.created')).toEqual(['client.created', 'client.deleted']);
    expect(await types(`&created_start=${encodeURIComponent(mark)}`)).toEqual(['client.updated', 'client.deleted']);
    expect(await types(`&created_end=${encodeURIComponent(mark)}`)).toEqual(['client.created']);
    const page1 = await get(b, '/v1/event?page_size=2');
    expect(page1.body.results.map((e: any) => e.type)).toEqual(['client.deleted', 'client.updated']);
    const page2 = await get(b, new URL(page1.body.next).pathname + new URL(page1.body.next).search);
    expect(page2.body.results.map((e: any) => e.type)).toEqual(['client.created']);
  });

  it('answers 400 for an unknown type or an impossible date, 404 for another business’s event', async () => {
    const b = await newBusiness(t);
    const other = await newBusiness(t);
    await newClient(other);
    const [theirs] = await events(other);
    expect((await get(b, `/v1/event/${theirs.id}`)).status).toBe(404);
    expect((await get(b, '/v1/event/2147483647')).status).toBe(404);
    expect(await events(b)).toEqual([]);
    const bad = await get(b, '/v1/event?type=client.exploded');
    expect(bad.status).toBe(400);
    expect(bad.body).toHaveProperty('type');
    const impossible = await get(b, '/v1/event?created_start=2026-02-30');
    expect(impossible.status).toBe(400);
    expect(impossible.body).toMatchObject({ created_start: ['Enter a valid date/time.'] });
    expect((await get(b, '/v1/event?created_end=yesterday')).status).toBe(400);
  });
});

describe('updated_start / updated_end', () => {
  it('select clients by their last change: a date-time is an instant, inclusive', async () => {
    const b = await newBusiness(t);
    const a = await newClient(b, { companyName: 'A' });
    const c = await newClient(b, { companyName: 'C' });
    await sleep(5);
    const mark = new Date().toISOString();
    await sleep(5);
    const patched = await patch(b, `/v1/client/${a}`, { companyName: 'A2' });
    const ids = async (q: string) =>
      ((await get(b, `/v1/client?${q}`)).body.results as { id: number }[]).map((r) => r.id);
    expect(await ids(`updated_start=${encodeURIComponent(mark)}`)).toEqual([a]);
    expect(await ids(`updated_end=${encodeURIComponent(mark)}`)).toEqual([c]);
    // inclusive at the millisecond
    expect(
      await ids(
        `updated_start=${encodeURIComponent(patched.body.updated)}&updated_end=${encodeURIComponent(patched.body.updated)}`,
      ),
    ).toEqual([a]);
    // a date covers the whole day in the business time zone (today holds both)
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: b.timezone }).format(new Date());
    expect((await ids(`updated_start=${today}&updated_end=${today}`)).sort()).toEqual([a, c].sort());
    const bad = await get(b, '/v1/client?updated_start=2026-13-01');
    expect(bad.status).toBe(400);
    expect(bad.body).toHaveProperty('updated_start');
  });
});
