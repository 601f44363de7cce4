/**
 * The restore entry points of contracts and contract notes (src/shared/restore.ts, decisions §16): rich
 * records created through the API in business A, their full shapes read with GET, rewritten to business B's
 * ids and restored there through the contract service; B's GET answers the same JSON, a second restore is
 * `unchanged`, a changed shape `updated`, a taken id moves, a deleted target comes back under its id, a
 * reference B lacks is a ValidationError naming the property, and no event is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { services } from '../../../src/services.ts';
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
/** The rich contract of A and its two notes. */
let rich: { id: number; noteIds: number[] };
/** A contract of A with every optional property empty. */
let bare: number;

const auth = authOf;
/** contract.service `restore` as the transfer module calls it: the service the composition root built (src/services.ts). */
const contracts = services.contract;
const restore = contracts.restore;
const { created, read } = httpHelpers(api);

beforeAll(async () => {
  t = await buildTestApp();
  a = await newBusiness(t, { catalog: restoreCatalog() });
  b = await newBusiness(t, { catalog: restoreCatalog() });
  maps = catalogMaps(a, b);
  // The parents, made alike in both businesses (the transfer module restores them before contracts).
  const parents = async (x: TestBusiness) => ({
    client: (
      await created(x, '/v1/client', {
        companyName: '주식회사 한빛',
        inCharge: '김민수',
        email: 'minsu@hanbit.example',
        status: { id: x.ids.clientStatuses.customer },
      })
    ).id as number,
    inquiry: (
      await created(x, '/v1/inquiry', {
        name: '홈페이지 개편',
        estimate: '1500000',
        inquiryDate: '2026-11-02',
        status: { id: x.ids.statuses.won },
      })
    ).id as number,
  });
  const [pa, pb] = [await parents(a), await parents(b)];
  maps.clients!.set(pa.client, pb.client);
  maps.inquiries!.set(pa.inquiry, pb.inquiry);
  const ids = a.ids;
  const [clientA, inquiryA] = [pa.client, pa.inquiry];
  const c = await created(a, '/v1/contract', {
    title: '웹사이트 유지보수 계약',
    amount: 12_000_000,
    type: 'S',
    status: 'I',
    contractNumber: 'C-2026-001',
    startDate: '2026-12-01',
    endDate: '2027-11-30',
    vatType: 'I',
    settlementFrequency: 1,
    settlementCycle: 'M',
    settlementDay: 25,
    client: { id: clientA },
    inquiry: { id: inquiryA },
    categorySet: [{ id: ids.contractCategories.web }, { id: ids.contractCategories.design }],
    fieldSet: [
      { field: { id: ids.fields.po }, value: 'PO-7 발주' },
      { field: { id: ids.fields.co_sl }, value: 'on' },
      { field: { id: ids.fields.co_ml }, value: 'x,y' },
      { field: { id: ids.fields.co_m }, value: String(ids.members.lee) },
      { field: { id: ids.fields.co_n }, value: '42.5' },
      { field: { id: ids.fields.co_d }, value: '2026-11-30' },
      { field: { id: ids.fields.co_b }, value: 'true' },
      { field: { id: ids.fields.co_t }, value: '첫 줄\n둘째 줄 — "따옴표" & <태그>' },
    ],
    isHidden: true,
  });
  // A change after creation, so that `updated` differs from `created`.
  expect((await patch(a, `/v1/contract/${c.id}`, { contractNumber: 'C-2026-001-R' })).status).toBe(200);
  const n1 = await created(a, `/v1/contract/${c.id}/history`, {
    content: '계약서 초안 송부 (1차)',
    created: '2026-11-20T10:00:00+09:00',
    member: { id: ids.members.kim },
  });
  const n2 = await created(a, `/v1/contract/${c.id}/history`, { content: 'Signed copy received.' });
  expect(
    (await patch(a, `/v1/contract/${c.id}/history/${n2.id}`, { content: 'Signed copy received; 서명본 수령.' })).status,
  ).toBe(200);
  rich = { id: c.id, noteIds: [n1.id, n2.id] };
  bare = (await created(a, '/v1/contract', { title: 'Bare', amount: 0, type: 'G' })).id;
});
afterAll(() => t.close());

/** A's contract `id`, rewritten to B's ids. */
async function shapeOf(id: number): Promise<any> {
  return remap(await read(a, `/v1/contract/${id}`), maps);
}

describe('contract restore', () => {
  it('writes every property under a free id: B answers the same JSON, the inquiry shows the link, no event', async () => {
    const since = await lastEventId(b);
    const shape = { ...(await shapeOf(rich.id)), id: await freeId(t.testDb.db, 'contract') };
    expect(shape.fieldSet).toHaveLength(8);
    expect(shape.updated).not.toBe(shape.created);

    const result = await restore(t.testDb.db, auth(b), shape, {});
    expect(result).toEqual({ id: shape.id, outcome: 'created' });
    expect(await read(b, `/v1/contract/${shape.id}`)).toEqual(shape);
    // The list shows it too, and the inquiry's side of the 1:1 link follows.
    const listed = (await read(b, '/v1/contract')).results.find((r: any) => r.id === shape.id);
    expect(listed).toMatchObject({
      id: shape.id,
      title: shape.title,
      created: shape.created,
      inquiry: shape.inquiry,
      client: shape.client,
    });
    expect((await read(b, `/v1/inquiry/${shape.inquiry.id}`)).contract).toMatchObject({
      id: shape.id,
      title: shape.title,
    });

    // Its notes, each under a free id.
    for (const noteId of rich.noteIds) {
      const note = {
        ...remap(await read(a, `/v1/contract/${rich.id}/history/${noteId}`), maps),
        id: await freeId(t.testDb.db, 'contract_note'),
      };
      expect(await contracts.restoreHistory(t.testDb.db, auth(b), shape.id, note, {})).toEqual({
        id: note.id,
        outcome: 'created',
      });
      expect(await read(b, `/v1/contract/${shape.id}/history/${note.id}`)).toEqual(note);
    }
    const notesA = (await read(a, `/v1/contract/${rich.id}/history`)).results.map((n: any) => ({
      ...n,
      id: undefined,
    }));
    const notesB = (await read(b, `/v1/contract/${shape.id}/history`)).results.map((n: any) => ({
      ...n,
      id: undefined,
    }));
    expect(notesB).toEqual(remap(notesA, maps));
    expect(await eventsAfter(b, since)).toEqual([]);

    // Again with the target id: unchanged, nothing written.
    const before = await read(b, `/v1/contract/${shape.id}`);
    expect(await restore(t.testDb.db, auth(b), shape, { targetId: shape.id })).toEqual({
      id: shape.id,
      outcome: 'unchanged',
    });
    expect(await read(b, `/v1/contract/${shape.id}`)).toEqual(before);
    // Sets in another order (where ids moved, this server orders them by other ids) are the same sets.
    const reordered = {
      ...shape,
      categorySet: [...shape.categorySet].reverse(),
      fieldSet: [...shape.fieldSet].reverse(),
    };
    expect(await restore(t.testDb.db, auth(b), reordered, { targetId: shape.id })).toEqual({
      id: shape.id,
      outcome: 'unchanged',
    });

    // One property changed, a set shrunk, a field value dropped: updated, and GET shows exactly the new shape.
    const changed = {
      ...shape,
      title: '웹사이트 유지보수 계약 (갱신)',
      categorySet: shape.categorySet.slice(0, 1),
      fieldSet: shape.fieldSet.slice(1),
      updated: '2026-11-25T01:02:03.456Z',
    };
    expect(await restore(t.testDb.db, auth(b), changed, { targetId: shape.id })).toEqual({
      id: shape.id,
      outcome: 'updated',
    });
    expect(await read(b, `/v1/contract/${shape.id}`)).toEqual(changed);
    expect(await eventsAfter(b, since)).toEqual([]);
  });

  it('an id taken elsewhere gives a new id; empty references store as null', async () => {
    const shape = await shapeOf(bare);
    const result = await restore(t.testDb.db, auth(b), shape, {});
    expect(result.outcome).toBe('created');
    expect(result.id).not.toBe(bare);
    expect(await read(b, `/v1/contract/${result.id}`)).toEqual({ ...shape, id: result.id });
    // A's contract is untouched.
    expect((await read(a, `/v1/contract/${bare}`)).title).toBe('Bare');
  });

  it('a deleted target comes back under its id', async () => {
    const shape = await shapeOf(bare);
    const { id } = await restore(t.testDb.db, auth(b), shape, {});
    expect((await api.delete(b, `/v1/contract/${id}`)).status).toBe(204);
    expect(await restore(t.testDb.db, auth(b), shape, { targetId: id })).toEqual({ id, outcome: 'created' });
    expect(await read(b, `/v1/contract/${id}`)).toEqual({ ...shape, id });
  });

  it('the inquiry link moves to the restored contract when another contract here still holds it (1:1, the source wins)', async () => {
    const shape = { ...(await shapeOf(rich.id)), id: await freeId(t.testDb.db, 'contract') };
    const holder = (await read(b, `/v1/inquiry/${shape.inquiry.id}`)).contract?.id as number;
    expect(holder).toEqual(expect.any(Number));
    const since = await lastEventId(b);
    expect(await restore(t.testDb.db, auth(b), shape, {})).toEqual({ id: shape.id, outcome: 'created' });
    expect(await read(b, `/v1/contract/${shape.id}`)).toEqual(shape);
    expect((await read(b, `/v1/inquiry/${shape.inquiry.id}`)).contract.id).toBe(shape.id);
    expect((await read(b, `/v1/contract/${holder}`)).inquiry).toBeNull();
    expect(await eventsAfter(b, since)).toEqual([]);
  });

  it('refuses references B does not have, naming the property, and writes nothing', async () => {
    const shape = { ...(await shapeOf(rich.id)), id: await freeId(t.testDb.db, 'contract') };
    const foreignClient = { ...shape, client: { ...shape.client, id: maps.clients!.keys().next().value } };
    await expectValidation(restore(t.testDb.db, auth(b), { ...foreignClient, inquiry: null }, {}), {
      client: { id: [`Invalid pk "${foreignClient.client.id}" - object does not exist.`] },
    });
    await expectValidation(
      restore(
        t.testDb.db,
        auth(b),
        { ...shape, inquiry: null, categorySet: [{ id: a.ids.contractCategories.web, title: 'x' }] },
        {},
      ),
      {
        categorySet: [`Invalid pk "${a.ids.contractCategories.web}" - object does not exist.`],
      },
    );
    await expectValidation(restore(t.testDb.db, auth(b), { ...shape, inquiry: { ...shape.inquiry, id: 0 } }, {}), {
      // The API's own validation comes first, as for a request: ids are at least 1.
      inquiry: { id: ['Ensure this value is greater than or equal to 1.'] },
    });
    expect((await get(b, `/v1/contract/${shape.id}`)).status).toBe(404);
    // A note on a contract B does not have, or by a member B does not have.
    const note = remap(await read(a, `/v1/contract/${rich.id}/history/${rich.noteIds[0]}`), maps);
    await expectValidation(contracts.restoreHistory(t.testDb.db, auth(b), bare, note, {}), {
      contract: { id: [`Invalid pk "${bare}" - object does not exist.`] },
    });
    const withA = (await read(b, '/v1/contract')).results[0].id as number;
    await expectValidation(
      contracts.restoreHistory(
        t.testDb.db,
        auth(b),
        withA,
        { ...note, member: { ...note.member, id: a.ids.members.kim } },
        {},
      ),
      {
        member: { id: [`Invalid pk "${a.ids.members.kim}" - object does not exist.`] },
      },
    );
  });

  it('a note: unchanged again, updated when changed, moved to a new id when taken, re-created when deleted', async () => {
    const { id: contractId } = await restore(t.testDb.db, auth(b), await shapeOf(bare), {});
    const note = remap(await read(a, `/v1/contract/${rich.id}/history/${rich.noteIds[0]}`), maps);
    const first = await contracts.restoreHistory(t.testDb.db, auth(b), contractId, note, {});
    expect(first.outcome).toBe('created');
    expect(first.id).not.toBe(note.id); // A holds that id
    const mine = { ...note, id: first.id };
    expect(await read(b, `/v1/contract/${contractId}/history/${first.id}`)).toEqual(mine);
    expect(await contracts.restoreHistory(t.testDb.db, auth(b), contractId, note, { targetId: first.id })).toEqual({
      id: first.id,
      outcome: 'unchanged',
    });
    const edited = { ...note, content: '수정된 메모', member: null };
    expect(await contracts.restoreHistory(t.testDb.db, auth(b), contractId, edited, { targetId: first.id })).toEqual({
      id: first.id,
      outcome: 'updated',
    });
    expect(await read(b, `/v1/contract/${contractId}/history/${first.id}`)).toEqual({ ...edited, id: first.id });
    expect((await api.delete(b, `/v1/contract/${contractId}/history/${first.id}`)).status).toBe(204);
    expect(await contracts.restoreHistory(t.testDb.db, auth(b), contractId, note, { targetId: first.id })).toEqual({
      id: first.id,
      outcome: 'created',
    });
    expect(await read(b, `/v1/contract/${contractId}/history/${first.id}`)).toEqual(mine);
  });
});
