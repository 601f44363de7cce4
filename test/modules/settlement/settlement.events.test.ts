/**
 * Change events and `updated` on settlements and their notes (docs/api.md#events): `settlement.created`,
 * `settlement.updated` with exact `changedFields` (a status change among them, besides its status-history
 * row), `settlement.deleted`; none for a no-op PATCH or a refused write; `settlement.history.*` for notes;
 * `updated` in the full shapes and the `updated_start` / `updated_end` list filters.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import type { TestBusiness } from '../../setup/factories.ts';
import { apiClient } from '../../setup/api-client.ts';
import { eventHelpers } from '../../setup/event-helpers.ts';
import { contractFor, createSettlement, settlementBody, settlementBusiness } from './settlement-helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const { get, post, patch, delete: del } = apiClient(() => t.app);

const { lastEventId, eventsAfter } = eventHelpers({ get });

/** A business, a contract ready for settlements, and the events mark after them. */
async function setup(): Promise<{ b: TestBusiness; contractId: number }> {
  const b = await settlementBusiness(t);
  const c = await contractFor(t, b);
  return { b, contractId: c.id };
}

describe('settlement events', () => {
  it('writes settlement.created with the full shape GET answers; updated equals created', async () => {
    const { b, contractId } = await setup();
    const mark = await lastEventId(b);
    const s = await createSettlement(t, b, contractId, b.ids.settlementTypes.ins, {
      inChargeSet: [{ id: b.ids.members.kim }],
    });
    expect(s).not.toHaveProperty('updated');
    const all = await eventsAfter(b, mark);
    expect(all.map((e) => e.type)).toEqual(['settlement.created']);
    const full = (await get(b, `/v1/settlement/${s.id}`)).body;
    expect(full.updated).toBe(full.created);
    expect(all[0]).toMatchObject({ changedFields: [], data: full, created: full.updated });
    // The contract's full shape does not show its settlements: no contract event.
    expect(all.some((e) => e.type.startsWith('contract.'))).toBe(false);
  });

  it('writes settlement.updated naming exactly the changed properties, a status change with its history row', async () => {
    const { b, contractId } = await setup();
    const s = await createSettlement(t, b, contractId, b.ids.settlementTypes.ins, { dueDate: '2026-03-01' });
    const before = (await get(b, `/v1/settlement/${s.id}`)).body;
    const mark = await lastEventId(b);
    await sleep(5);
    // dueDate sent with its current value: not a change; inChargeSet counts as one property.
    const res = await patch(b, `/v1/settlement/${s.id}`, {
      status: 'S',
      settledDate: '2026-03-05',
      dueDate: '2026-03-01',
      inChargeSet: [{ id: b.ids.members.kim }, { id: b.ids.members.lee }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.updated > before.updated).toBe(true);
    const all = await eventsAfter(b, mark);
    expect(all.map((e) => e.type)).toEqual(['settlement.updated']);
    expect(all[0].changedFields).toEqual(['status', 'settledDate', 'inChargeSet']);
    expect(all[0].data).toEqual(res.body);
    expect(all[0].created).toBe(res.body.updated);
    expect((await get(b, `/v1/settlement/${s.id}`)).body).toEqual(res.body);
    const history = (await get(b, `/v1/settlement/${s.id}/status_history`)).body.results;
    expect(history.map((h: any) => [h.previousStatus, h.status])).toEqual([['C', 'S']]);
  });

  it('a PATCH that changes nothing writes no event, no history row, and keeps updated', async () => {
    const { b, contractId } = await setup();
    const s = await createSettlement(t, b, contractId, b.ids.settlementTypes.ins, {
      inChargeSet: [{ id: b.ids.members.kim }],
    });
    const before = (await get(b, `/v1/settlement/${s.id}`)).body;
    const mark = await lastEventId(b);
    await sleep(5);
    for (const body of [
      {},
      { status: 'C' },
      { title: 'Payment', inChargeSet: [{ id: b.ids.members.kim }], isHidden: false },
      { settlementRound: 9 },
    ]) {
      const res = await patch(b, `/v1/settlement/${s.id}`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.updated).toBe(before.updated);
    }
    expect(await eventsAfter(b, mark)).toEqual([]);
    expect((await get(b, `/v1/settlement/${s.id}/status_history`)).body.results).toEqual([]);
    expect((await get(b, `/v1/settlement/${s.id}`)).body).toEqual(before);
  });

  it('a refused write writes no event', async () => {
    const { b, contractId } = await setup();
    const s = await createSettlement(t, b, contractId, b.ids.settlementTypes.ini);
    const mark = await lastEventId(b);
    // ini is single-round: a second one is refused.
    expect((await post(b, '/v1/settlement', settlementBody(contractId, b.ids.settlementTypes.ini))).status).toBe(400);
    expect((await post(b, '/v1/settlement', settlementBody(999999, b.ids.settlementTypes.ins))).status).toBe(400);
    expect((await patch(b, `/v1/settlement/${s.id}`, { title: 'New', inChargeSet: [{ id: 999999 }] })).status).toBe(
      400,
    );
    expect((await patch(b, `/v1/settlement/${s.id}`, { status: 'X' })).status).toBe(400);
    expect((await patch(b, '/v1/settlement/999999', { title: 'X' })).status).toBe(404);
    expect((await del(b, '/v1/settlement/999999')).status).toBe(404);
    expect(await eventsAfter(b, mark)).toEqual([]);
    expect((await get(b, `/v1/settlement/${s.id}`)).body.title).toBe('Payment');
  });

  it('writes settlement.deleted with data {id}', async () => {
    const { b, contractId } = await setup();
    const s = await createSettlement(t, b, contractId, b.ids.settlementTypes.ins);
    const mark = await lastEventId(b);
    expect((await del(b, `/v1/settlement/${s.id}`)).status).toBe(204);
    const all = await eventsAfter(b, mark);
    expect(all.map((e) => e.type)).toEqual(['settlement.deleted']);
    expect(all[0]).toMatchObject({ changedFields: [], data: { id: s.id } });
    expect(Object.keys(all[0].data)).toEqual(['id']);
  });

  it('deleting a settlement writes settlement.history.deleted for each of its notes first', async () => {
    const { b, contractId } = await setup();
    const s = await createSettlement(t, b, contractId, b.ids.settlementTypes.ins);
    const other = await createSettlement(t, b, contractId, b.ids.settlementTypes.ins);
    const n1 = (await post(b, `/v1/settlement/${s.id}/history`, { content: 'a' })).body.id;
    const n2 = (await post(b, `/v1/settlement/${s.id}/history`, { content: 'b' })).body.id;
    const kept = (await post(b, `/v1/settlement/${other.id}/history`, { content: 'c' })).body.id;
    const mark = await lastEventId(b);
    expect((await del(b, `/v1/settlement/${s.id}`)).status).toBe(204);
    expect((await eventsAfter(b, mark)).map((e) => [e.type, e.data])).toEqual([
      ['settlement.history.deleted', { id: n1 }],
      ['settlement.history.deleted', { id: n2 }],
      ['settlement.deleted', { id: s.id }],
    ]);
    expect((await get(b, `/v1/settlement/${other.id}/history/${kept}`)).status).toBe(200);
  });
});

describe('settlement note events', () => {
  it('writes settlement.history.created, .updated (exact changedFields, none for a no-op) and .deleted', async () => {
    const { b, contractId } = await setup();
    const s = await createSettlement(t, b, contractId, b.ids.settlementTypes.ins);
    const mark = await lastEventId(b);
    // A back-dated note: `created` is the date named, `updated` the time of the write.
    const created = await post(b, `/v1/settlement/${s.id}/history`, {
      content: 'Invoice sent',
      created: '2020-01-01T00:00:00+09:00',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.created).toBe('2019-12-31T15:00:00.000Z');
    const noteUrl = `/v1/settlement/${s.id}/history/${created.body.id}`;
    const full = (await get(b, noteUrl)).body;
    expect(full.updated > '2026-01-01').toBe(true);
    let all = await eventsAfter(b, mark);
    expect(all.map((e) => e.type)).toEqual(['settlement.history.created']);
    expect(all[0].data).toEqual(full);
    expect(all[0].created).toBe(full.updated);

    await sleep(5);
    expect((await patch(b, noteUrl, {})).body.updated).toBe(full.updated);
    const changed = await patch(b, noteUrl, { content: 'Invoice re-sent' });
    expect(changed.status).toBe(200);
    expect(changed.body.updated > full.updated).toBe(true);
    expect((await del(b, noteUrl)).status).toBe(204);
    all = await eventsAfter(b, mark);
    expect(all.map((e) => [e.type, e.changedFields])).toEqual([
      ['settlement.history.created', []],
      ['settlement.history.updated', ['content']],
      ['settlement.history.deleted', []],
    ]);
    expect(all[1].data).toEqual(changed.body);
    expect(all[2].data).toEqual({ id: created.body.id });
  });

  it('a refused note write writes nothing', async () => {
    const { b, contractId } = await setup();
    const s = await createSettlement(t, b, contractId, b.ids.settlementTypes.ins);
    const note = (await post(b, `/v1/settlement/${s.id}/history`, { content: 'Hi' })).body;
    const mark = await lastEventId(b);
    expect((await post(b, `/v1/settlement/${s.id}/history`, { content: 'x'.repeat(5001) })).status).toBe(400);
    expect((await patch(b, `/v1/settlement/${s.id}/history/${note.id}`, { content: '' })).status).toBe(400);
    expect((await patch(b, `/v1/settlement/${s.id}/history/999999`, { content: 'X' })).status).toBe(404);
    expect((await del(b, `/v1/settlement/${s.id}/history/999999`)).status).toBe(404);
    expect(await eventsAfter(b, mark)).toEqual([]);
  });
});

describe('updated_start / updated_end', () => {
  it('select settlements and settlement notes by their last change', async () => {
    const { b, contractId } = await setup();
    const a = await createSettlement(t, b, contractId, b.ids.settlementTypes.ins, { title: 'A' });
    const c = await createSettlement(t, b, contractId, b.ids.settlementTypes.ins, { title: 'C' });
    const na = (await post(b, `/v1/settlement/${a.id}/history`, { content: 'a' })).body;
    const nb = (await post(b, `/v1/settlement/${a.id}/history`, { content: 'b' })).body;
    await sleep(5);
    const mark = new Date().toISOString();
    await sleep(5);
    const patched = await patch(b, `/v1/settlement/${a.id}`, { status: 'D' });
    await patch(b, `/v1/settlement/${a.id}/history/${na.id}`, { content: 'a2' });
    const ids = async (url: string) => ((await get(b, url)).body.results as { id: number }[]).map((r) => r.id);
    const q = (s: string) => encodeURIComponent(s);
    expect(await ids(`/v1/settlement?updated_start=${q(mark)}`)).toEqual([a.id]);
    expect(await ids(`/v1/settlement?updated_end=${q(mark)}`)).toEqual([c.id]);
    expect(
      await ids(`/v1/settlement?updated_start=${q(patched.body.updated)}&updated_end=${q(patched.body.updated)}`),
    ).toEqual([a.id]);
    expect(await ids(`/v1/settlement/${a.id}/history?updated_start=${q(mark)}`)).toEqual([na.id]);
    expect(await ids(`/v1/settlement/${a.id}/history?updated_end=${q(mark)}`)).toEqual([nb.id]);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: b.timezone }).format(new Date());
    expect((await ids(`/v1/settlement?updated_start=${today}&updated_end=${today}`)).sort()).toEqual(
      [a.id, c.id].sort(),
    );
    const bad = await get(b, '/v1/settlement?updated_end=2026-02-30');
    expect(bad.status).toBe(400);
    expect(bad.body).toHaveProperty('updated_end');
  });
});
