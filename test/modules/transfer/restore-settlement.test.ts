/**
 * The restore entry points of settlements and settlement notes (src/shared/restore.ts, decisions §16):
 * settlements created through the API in business A (every property, responsible members, a changed status,
 * Korean text, notes), their full shapes rewritten to business B's ids and restored through the settlement
 * service; B's GET answers the same JSON, a second restore is `unchanged`, a changed shape `updated`, a taken
 * id moves, a single-round type stays once per contract, references B lacks are refused by name, no event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as settlements from '../../../src/modules/settlement/settlement.service.ts';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { apiClient } from '../../setup/api-client.ts';
import { eventHelpers } from '../../setup/event-helpers.ts';
import {
  authOf,
  catalogMaps,
  expectValidation,
  freeId,
  httpHelpers,
  type IdMaps,
  remap,
  restoreCatalog,
} from './restore-helpers.ts';

let t: TestApp;
const api = apiClient(() => t.app);
const { get, patch } = api;
const { eventsAfter, lastEventId } = eventHelpers(api);

let a: TestBusiness;
let b: TestBusiness;
let maps: IdMaps;
/** A's contract and B's twin. */
let contracts: { a: number; b: number };
/** A's rich settlement (multi-round type) with its notes, and a single-round one. */
let rich: { id: number; noteIds: number[] };
let single: number;

const auth = authOf;
const { created, read } = httpHelpers(api);

beforeAll(async () => {
  t = await buildTestApp();
  a = await newBusiness(t, { catalog: restoreCatalog() });
  b = await newBusiness(t, { catalog: restoreCatalog() });
  maps = catalogMaps(a, b);
  const contract = {
    title: '디자인 용역 계약',
    amount: 9_000_000,
    type: 'I',
    startDate: '2026-12-01',
    endDate: '2027-05-31',
  };
  contracts = {
    a: (await created(a, '/v1/contract', contract)).id,
    b: (await created(b, '/v1/contract', contract)).id,
  };
  maps.contracts!.set(contracts.a, contracts.b);
  const ids = a.ids;
  const s = await created(a, '/v1/settlement', {
    title: '중도금 1차',
    amount: 3_000_000,
    additionalAmount: 150_000,
    vat: 315_000,
    contract: { id: contracts.a },
    type: { id: ids.settlementTypes.sub },
    settlementRound: 2,
    dueDate: '2026-12-20',
    settledDate: '2026-12-21',
    isTaxInvoiceIssued: true,
    isTaxInvoiceNeeded: true,
    taxInvoiceIssuedDate: '2026-12-21',
    taxInvoiceIssueDueDate: '2026-12-25',
    inChargeSet: [{ id: ids.members.kim }, { id: ids.members.park }],
    isHidden: true,
  });
  expect((await patch(a, `/v1/settlement/${s.id}`, { status: 'S' })).status).toBe(200);
  const n1 = await created(a, `/v1/settlement/${s.id}/history`, {
    content: '입금 확인 요청',
    created: '2026-12-19T09:30:00+09:00',
    member: { id: ids.members.lee },
  });
  const n2 = await created(a, `/v1/settlement/${s.id}/history`, { content: 'Paid in full.' });
  rich = { id: s.id, noteIds: [n1.id, n2.id] };
  single = (
    await created(a, '/v1/settlement', {
      title: 'Down payment',
      amount: 1_000_000,
      additionalAmount: 0,
      vat: 0,
      contract: { id: contracts.a },
      type: { id: ids.settlementTypes.ini },
    })
  ).id;
});
afterAll(() => t.close());

/** A's settlement `id`, rewritten to B's ids. */
async function shapeOf(id: number): Promise<any> {
  return remap(await read(a, `/v1/settlement/${id}`), maps);
}

describe('settlement restore', () => {
  it('writes every property under a free id with its notes: B answers the same JSON; unchanged, then updated; no event', async () => {
    const since = await lastEventId(b);
    const shape = { ...(await shapeOf(rich.id)), id: await freeId(t.testDb.db, 'settlement') };
    expect(shape).toMatchObject({ status: 'S', settlementRound: 2, isHidden: true });
    expect(shape.inChargeSet).toHaveLength(2);

    expect(await settlements.restore(t.testDb.db, auth(b), shape, {})).toEqual({ id: shape.id, outcome: 'created' });
    expect(await read(b, `/v1/settlement/${shape.id}`)).toEqual(shape);
    const listed = (await read(b, `/v1/settlement?contract_id=${contracts.b}`)).results.find(
      (r: any) => r.id === shape.id,
    );
    const {
      settlementRound: _r,
      isTaxInvoiceIssued: _i,
      isTaxInvoiceNeeded: _n,
      type: _t,
      taxInvoiceIssuedDate: _d,
      taxInvoiceIssueDueDate: _e,
      inChargeSet: _c,
      isHidden: _h,
      updated: _u,
      ...item
    } = shape;
    expect(listed).toEqual(item);
    // No status-history row: the restore is not a status change.
    expect((await read(b, `/v1/settlement/${shape.id}/status_history`)).results).toEqual([]);

    for (const noteId of rich.noteIds) {
      const note = {
        ...remap(await read(a, `/v1/settlement/${rich.id}/history/${noteId}`), maps),
        id: await freeId(t.testDb.db, 'settlement_note'),
      };
      expect(await settlements.restoreHistory(t.testDb.db, auth(b), shape.id, note, {})).toEqual({
        id: note.id,
        outcome: 'created',
      });
      expect(await read(b, `/v1/settlement/${shape.id}/history/${note.id}`)).toEqual(note);
      expect(await settlements.restoreHistory(t.testDb.db, auth(b), shape.id, note, { targetId: note.id })).toEqual({
        id: note.id,
        outcome: 'unchanged',
      });
    }
    expect(await eventsAfter(b, since)).toEqual([]);

    expect(await settlements.restore(t.testDb.db, auth(b), shape, { targetId: shape.id })).toEqual({
      id: shape.id,
      outcome: 'unchanged',
    });
    const changed = {
      ...shape,
      status: 'D',
      vat: 0,
      inChargeSet: shape.inChargeSet.slice(1),
      updated: '2026-12-30T00:00:00.000Z',
    };
    expect(await settlements.restore(t.testDb.db, auth(b), changed, { targetId: shape.id })).toEqual({
      id: shape.id,
      outcome: 'updated',
    });
    expect(await read(b, `/v1/settlement/${shape.id}`)).toEqual(changed);
    expect(await eventsAfter(b, since)).toEqual([]);
  });

  it('an id taken elsewhere gives a new id; a single-round type stays once per contract; a deleted target comes back', async () => {
    const shape = await shapeOf(single);
    const first = await settlements.restore(t.testDb.db, auth(b), shape, {});
    expect(first.outcome).toBe('created');
    expect(first.id).not.toBe(single);
    expect(await read(b, `/v1/settlement/${first.id}`)).toEqual({ ...shape, id: first.id });
    // Restoring it again without its target id would be a second "Down payment" on the contract.
    await expectValidation(settlements.restore(t.testDb.db, auth(b), shape, {}), {
      type: {
        id: [
          'A settlement of type "Down payment" already exists for this contract, and the type does not allow multiple rounds.',
        ],
      },
    });
    expect(await settlements.restore(t.testDb.db, auth(b), shape, { targetId: first.id })).toEqual({
      id: first.id,
      outcome: 'unchanged',
    });
    expect((await api.delete(b, `/v1/settlement/${first.id}`)).status).toBe(204);
    expect(await settlements.restore(t.testDb.db, auth(b), shape, { targetId: first.id })).toEqual({
      id: first.id,
      outcome: 'created',
    });
    expect(await read(b, `/v1/settlement/${first.id}`)).toEqual({ ...shape, id: first.id });
  });

  it('refuses references B does not have, naming each property, and writes nothing', async () => {
    const shape = { ...(await shapeOf(rich.id)), id: await freeId(t.testDb.db, 'settlement') };
    const foreign = {
      ...shape,
      contract: { ...shape.contract, id: contracts.a },
      type: { ...shape.type, id: a.ids.settlementTypes.sub },
      inChargeSet: [{ ...shape.inChargeSet[0], id: a.ids.members.kim }],
    };
    await expectValidation(settlements.restore(t.testDb.db, auth(b), foreign, {}), {
      contract: { id: [`Invalid pk "${contracts.a}" - object does not exist.`] },
      type: { id: [`Invalid pk "${a.ids.settlementTypes.sub}" - object does not exist.`] },
      inChargeSet: [`Invalid pk "${a.ids.members.kim}" - object does not exist.`],
    });
    expect((await get(b, `/v1/settlement/${shape.id}`)).status).toBe(404);
    const note = remap(await read(a, `/v1/settlement/${rich.id}/history/${rich.noteIds[0]}`), maps);
    await expectValidation(settlements.restoreHistory(t.testDb.db, auth(b), rich.id, note, {}), {
      settlement: { id: [`Invalid pk "${rich.id}" - object does not exist.`] },
    });
  });
});
