/**
 * Change events and `updated` on contracts and their notes (docs/api.md#events): `contract.created`,
 * `contract.updated` with exact `changedFields`, `contract.deleted`; `inquiry.updated` when a contract write
 * links or releases an inquiry; none for a no-op PATCH or a refused write; `contract.history.*` for notes;
 * `updated` in the full shapes and the `updated_start` / `updated_end` list filters.
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

const { lastEventId, eventsAfter } = eventHelpers({ get });

async function newContract(b: TestBusiness, body: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await post(b, '/v1/contract', { title: 'Website', amount: 1000, type: 'I', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function newInquiry(b: TestBusiness): Promise<number> {
  const res = await post(b, '/v1/inquiry', { name: 'Lead' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

describe('contract events', () => {
  it('writes contract.created with the full shape GET answers; updated equals created', async () => {
    const b = await newBusiness(t);
    const c = await newContract(b, { categorySet: [{ id: b.ids.contractCategories.web }], contractNumber: 'N-1' });
    const all = await eventsAfter(b);
    expect(all.map((e) => e.type)).toEqual(['contract.created']);
    const full = (await get(b, `/v1/contract/${c.id}`)).body;
    expect(full.updated).toBe(full.created);
    expect(all[0]).toMatchObject({ changedFields: [], data: full, created: full.updated });
    // The create answer keeps the list shape (no updated).
    expect(c).not.toHaveProperty('updated');
  });

  it('writes contract.updated naming exactly the changed properties, and stamps updated', async () => {
    const b = await newBusiness(t);
    const c = await newContract(b, { contractNumber: 'N-1', startDate: '2026-01-01' });
    const before = (await get(b, `/v1/contract/${c.id}`)).body;
    const mark = await lastEventId(b);
    await sleep(5);
    // contractNumber sent with its current value: not a change; the category set counts as one property.
    const res = await patch(b, `/v1/contract/${c.id}`, {
      title: 'Website 2',
      contractNumber: 'N-1',
      status: 'I',
      categorySet: [{ id: b.ids.contractCategories.web }, { id: b.ids.contractCategories.design }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.updated > before.updated).toBe(true);
    const all = await eventsAfter(b, mark);
    expect(all.map((e) => e.type)).toEqual(['contract.updated']);
    expect(all[0].changedFields).toEqual(['title', 'status', 'categorySet']);
    expect(all[0].data).toEqual(res.body);
    expect(all[0].created).toBe(res.body.updated);
    expect((await get(b, `/v1/contract/${c.id}`)).body).toEqual(res.body);
  });

  it('clearing the recurring fields by a type change names each of them', async () => {
    const b = await newBusiness(t);
    const c = await newContract(b, { type: 'S', settlementFrequency: 1, settlementCycle: 'M', settlementDay: 5 });
    const mark = await lastEventId(b);
    const res = await patch(b, `/v1/contract/${c.id}`, { type: 'G' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const all = await eventsAfter(b, mark);
    expect(all.map((e) => [e.type, e.changedFields])).toEqual([
      ['contract.updated', ['type', 'settlementFrequency', 'settlementCycle', 'settlementDay']],
    ]);
  });

  it('a PATCH that changes nothing writes no event and keeps updated', async () => {
    const b = await newBusiness(t);
    const c = await newContract(b, { categorySet: [{ id: b.ids.contractCategories.web }], isHidden: false });
    const before = (await get(b, `/v1/contract/${c.id}`)).body;
    const mark = await lastEventId(b);
    await sleep(5);
    for (const body of [
      {},
      { title: 'Website' },
      { categorySet: [{ id: b.ids.contractCategories.web }], isHidden: false, inquiry: null },
    ]) {
      const res = await patch(b, `/v1/contract/${c.id}`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.updated).toBe(before.updated);
    }
    expect(await eventsAfter(b, mark)).toEqual([]);
    expect((await get(b, `/v1/contract/${c.id}`)).body).toEqual(before);
  });

  it('a refused write writes no event', async () => {
    const b = await newBusiness(t);
    const c = await newContract(b);
    const mark = await lastEventId(b);
    expect((await patch(b, `/v1/contract/${c.id}`, { client: { id: 999999 } })).status).toBe(400);
    expect((await patch(b, `/v1/contract/${c.id}`, { title: '' })).status).toBe(400);
    expect((await patch(b, `/v1/contract/${c.id}`, { title: 'New', inquiry: { id: 999999 } })).status).toBe(400);
    expect((await post(b, '/v1/contract', { title: 'X', amount: 1, type: 'I', client: { id: 999999 } })).status).toBe(
      400,
    );
    expect((await patch(b, '/v1/contract/999999', { title: 'X' })).status).toBe(404);
    expect((await del(b, '/v1/contract/999999')).status).toBe(404);
    expect(await eventsAfter(b, mark)).toEqual([]);
    expect((await get(b, `/v1/contract/${c.id}`)).body.title).toBe('Website');
  });

  it('writes contract.deleted with data {id}', async () => {
    const b = await newBusiness(t);
    const c = await newContract(b);
    const mark = await lastEventId(b);
    expect((await del(b, `/v1/contract/${c.id}`)).status).toBe(204);
    const all = await eventsAfter(b, mark);
    expect(all.map((e) => e.type)).toEqual(['contract.deleted']);
    expect(all[0]).toMatchObject({ changedFields: [], data: { id: c.id } });
    expect(Object.keys(all[0].data)).toEqual(['id']);
  });

  it('deleting a contract writes a delete event for each settlement note, settlement and note it takes with it', async () => {
    const b = await newBusiness(t);
    const c = await newContract(b, { startDate: '2026-01-01', endDate: '2026-12-31' });
    const other = await newContract(b, { startDate: '2026-01-01', endDate: '2026-12-31' });
    const settlement = async (contractId: number) => {
      const res = await post(b, '/v1/settlement', {
        title: 'P',
        amount: 1,
        additionalAmount: 0,
        vat: 0,
        contract: { id: contractId },
        type: { id: b.ids.settlementTypes.sub },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id as number;
    };
    const note = async (url: string) => (await post(b, url, { content: 'n' })).body.id as number;
    const s1 = await settlement(c.id);
    const s2 = await settlement(c.id);
    const kept = await settlement(other.id);
    const sn1 = await note(`/v1/settlement/${s1.toString()}/history`);
    const sn2 = await note(`/v1/settlement/${s2.toString()}/history`);
    await note(`/v1/settlement/${kept.toString()}/history`);
    const cn = await note(`/v1/contract/${c.id}/history`);
    await note(`/v1/contract/${other.id}/history`);
    const mark = await lastEventId(b);
    expect((await del(b, `/v1/contract/${c.id}`)).status).toBe(204);
    expect((await eventsAfter(b, mark)).map((e) => [e.type, e.data])).toEqual([
      ['settlement.history.deleted', { id: sn1 }],
      ['settlement.history.deleted', { id: sn2 }],
      ['settlement.deleted', { id: s1 }],
      ['settlement.deleted', { id: s2 }],
      ['contract.history.deleted', { id: cn }],
      ['contract.deleted', { id: c.id }],
    ]);
    expect((await get(b, `/v1/settlement/${kept.toString()}`)).status).toBe(200);
    expect((await get(b, `/v1/settlement/${s1.toString()}`)).status).toBe(404);
    expect((await get(b, `/v1/contract/${other.id}/history`)).body.results).toHaveLength(1);
  });
});

describe('contract ↔ inquiry link events', () => {
  it('a create that links an inquiry writes contract.created, then inquiry.updated with ["contract"]', async () => {
    const b = await newBusiness(t);
    const i = await newInquiry(b);
    const mark = await lastEventId(b);
    const c = await newContract(b, { inquiry: { id: i } });
    const all = await eventsAfter(b, mark);
    expect(all.map((e) => e.type)).toEqual(['contract.created', 'inquiry.updated']);
    expect(all[0].data).toEqual((await get(b, `/v1/contract/${c.id}`)).body);
    const inquiry = (await get(b, `/v1/inquiry/${i}`)).body;
    expect(all[1].changedFields).toEqual(['contract']);
    expect(all[1].data.id).toBe(i);
    expect(all[1].data.contract).toEqual(inquiry.contract);
    expect(inquiry.contract.id).toBe(c.id);
  });

  it('moving the link writes contract.updated, then inquiry.updated for the released and the linked inquiry', async () => {
    const b = await newBusiness(t);
    const first = await newInquiry(b);
    const second = await newInquiry(b);
    const c = await newContract(b, { inquiry: { id: first } });
    const mark = await lastEventId(b);
    const res = await patch(b, `/v1/contract/${c.id}`, { inquiry: { id: second } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const all = await eventsAfter(b, mark);
    expect(all.map((e) => [e.type, e.data.id, e.changedFields])).toEqual([
      ['contract.updated', c.id, ['inquiry']],
      ['inquiry.updated', first, ['contract']],
      ['inquiry.updated', second, ['contract']],
    ]);
    expect(all[1].data.contract).toBeNull();
    expect(all[2].data.contract).toMatchObject({ id: c.id });
    // The same inquiry again changes nothing.
    const again = await lastEventId(b);
    expect((await patch(b, `/v1/contract/${c.id}`, { inquiry: { id: second } })).status).toBe(200);
    expect(await eventsAfter(b, again)).toEqual([]);
  });

  it('unlinking (null) writes inquiry.updated; deleting a linked contract writes contract.deleted, then inquiry.updated', async () => {
    const b = await newBusiness(t);
    const i = await newInquiry(b);
    const c = await newContract(b, { inquiry: { id: i } });
    let mark = await lastEventId(b);
    expect((await patch(b, `/v1/contract/${c.id}`, { inquiry: null })).status).toBe(200);
    expect((await eventsAfter(b, mark)).map((e) => [e.type, e.changedFields])).toEqual([
      ['contract.updated', ['inquiry']],
      ['inquiry.updated', ['contract']],
    ]);
    expect((await patch(b, `/v1/contract/${c.id}`, { inquiry: { id: i } })).status).toBe(200);
    mark = await lastEventId(b);
    expect((await del(b, `/v1/contract/${c.id}`)).status).toBe(204);
    const all = await eventsAfter(b, mark);
    expect(all.map((e) => [e.type, e.data.id])).toEqual([
      ['contract.deleted', c.id],
      ['inquiry.updated', i],
    ]);
    expect(all[1].data.contract).toBeNull();
    expect(all[1].changedFields).toEqual(['contract']);
  });

  it('an inquiry already linked to another contract is refused and writes nothing', async () => {
    const b = await newBusiness(t);
    const i = await newInquiry(b);
    await newContract(b, { inquiry: { id: i } });
    const other = await newContract(b);
    const mark = await lastEventId(b);
    expect((await post(b, '/v1/contract', { title: 'X', amount: 1, type: 'I', inquiry: { id: i } })).status).toBe(400);
    expect((await patch(b, `/v1/contract/${other.id}`, { inquiry: { id: i } })).status).toBe(400);
    expect(await eventsAfter(b, mark)).toEqual([]);
  });
});

describe('contract note events', () => {
  it('writes contract.history.created, .updated (exact changedFields, none for a no-op) and .deleted', async () => {
    const b = await newBusiness(t);
    const c = await newContract(b);
    const mark = await lastEventId(b);
    const created = await post(b, `/v1/contract/${c.id}/history`, {
      content: 'Called',
      member: { id: b.ids.members.kim },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).not.toHaveProperty('updated');
    const noteUrl = `/v1/contract/${c.id}/history/${created.body.id}`;
    const full = (await get(b, noteUrl)).body;
    expect(Object.keys(full)).toEqual(['id', 'content', 'created', 'member', 'updated']);
    let all = await eventsAfter(b, mark);
    expect(all.map((e) => e.type)).toEqual(['contract.history.created']);
    expect(all[0].data).toEqual(full);

    await sleep(5);
    expect((await patch(b, noteUrl, { content: 'Called' })).body.updated).toBe(full.updated);
    const changed = await patch(b, noteUrl, { content: 'Called again', created: '2026-01-02T03:04:05Z' });
    expect(changed.status).toBe(200);
    expect(changed.body.updated > full.updated).toBe(true);
    expect((await del(b, noteUrl)).status).toBe(204);
    expect((await del(b, noteUrl)).status).toBe(404);
    all = await eventsAfter(b, mark);
    expect(all.map((e) => [e.type, e.changedFields])).toEqual([
      ['contract.history.created', []],
      ['contract.history.updated', ['content', 'created']],
      ['contract.history.deleted', []],
    ]);
    expect(all[1].data).toEqual(changed.body);
    expect(all[2].data).toEqual({ id: created.body.id });
    // Notes do not change the contract's full shape.
    expect(all.some((e) => e.type.startsWith('contract.updated'))).toBe(false);
  });

  it('a refused note write writes nothing', async () => {
    const b = await newBusiness(t);
    const c = await newContract(b);
    const note = (await post(b, `/v1/contract/${c.id}/history`, { content: 'Hi' })).body;
    const mark = await lastEventId(b);
    expect((await post(b, `/v1/contract/${c.id}/history`, { content: '' })).status).toBe(400);
    expect((await post(b, `/v1/contract/${c.id}/history`, { content: 'X', member: { id: 999999 } })).status).toBe(400);
    expect((await patch(b, `/v1/contract/${c.id}/history/${note.id}`, { content: '' })).status).toBe(400);
    expect((await post(b, '/v1/contract/999999/history', { content: 'X' })).status).toBe(404);
    expect(await eventsAfter(b, mark)).toEqual([]);
  });
});

describe('updated_start / updated_end', () => {
  it('select contracts and contract notes by their last change', async () => {
    const b = await newBusiness(t);
    const a = await newContract(b, { title: 'A' });
    const c = await newContract(b, { title: 'C' });
    const na = (await post(b, `/v1/contract/${a.id}/history`, { content: 'a' })).body;
    const nb = (await post(b, `/v1/contract/${a.id}/history`, { content: 'b' })).body;
    await sleep(5);
    const mark = new Date().toISOString();
    await sleep(5);
    const patched = await patch(b, `/v1/contract/${a.id}`, { title: 'A2' });
    await patch(b, `/v1/contract/${a.id}/history/${nb.id}`, { content: 'b2' });
    const ids = async (url: string) => ((await get(b, url)).body.results as { id: number }[]).map((r) => r.id);
    const q = (s: string) => encodeURIComponent(s);
    expect(await ids(`/v1/contract?updated_start=${q(mark)}`)).toEqual([a.id]);
    expect(await ids(`/v1/contract?updated_end=${q(mark)}`)).toEqual([c.id]);
    expect(
      await ids(`/v1/contract?updated_start=${q(patched.body.updated)}&updated_end=${q(patched.body.updated)}`),
    ).toEqual([a.id]);
    expect(await ids(`/v1/contract/${a.id}/history?updated_start=${q(mark)}`)).toEqual([nb.id]);
    expect(await ids(`/v1/contract/${a.id}/history?updated_end=${q(mark)}`)).toEqual([na.id]);
    const bad = await get(b, '/v1/contract?updated_start=2026-13-01');
    expect(bad.status).toBe(400);
    expect(bad.body).toHaveProperty('updated_start');
    expect((await get(b, `/v1/contract/${a.id}/history?updated_end=nope`)).status).toBe(400);
  });
});
