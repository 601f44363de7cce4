/**
 * Settlements, the successful paths (spec: Resources › Settlement, Operation rules › Settlement create, States
 * and transitions; reference: Settlement; decisions §1, §4, §5, §7): create and list shapes vs get and update
 * shapes, settlementRound and typeAlias, the exemptions of the once-per-contract rule, PATCH (status with its
 * history, inChargeSet, hidden flag), delete, encodings, ordering, paging, every list filter, notes, and the
 * concurrency rule (20 racing creates of a single-round type end with exactly one success).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextDay, todayIn } from '../../../src/shared/time.ts';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import type { TestBusiness } from '../../setup/factories.ts';
import { type SignedRequest } from '../../setup/signed-request.ts';
import { contractFor, createSettlement, settlementBody, settlementBusiness } from './settlement-helpers.ts';
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
  'status',
  'amount',
  'additionalAmount',
  'vat',
  'typeAlias',
  'created',
  'contract',
  'dueDate',
  'settledDate',
];
const FULL_KEYS = [
  ...LIST_KEYS,
  'settlementRound',
  'isTaxInvoiceIssued',
  'isTaxInvoiceNeeded',
  'type',
  'taxInvoiceIssuedDate',
  'taxInvoiceIssueDueDate',
  'inChargeSet',
  'isHidden',
  'updated',
];
const RFC3339_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const api = apiClient(() => t.app);
const { call, get, listIds, raw } = api;
const patch = (b: TestBusiness, id: unknown, body: unknown) => api.patch(b, `/v1/settlement/${id}`, body);
function memberOf(b: TestBusiness, key: 'kim' | 'lee' | 'park') {
  const members = {
    kim: { nickname: 'Kim', email: 'kim@example.com', isActive: true, grade: 'owner' },
    lee: { nickname: 'Lee', email: 'lee@example.com', isActive: true, grade: 'staff' },
    park: { nickname: null, email: 'park@sample.org', isActive: false, grade: 'staff' },
  } as const;
  const m = members[key];
  const gradeTitle = m.grade === 'owner' ? 'Owner' : 'Staff';
  return {
    id: b.ids.members[key],
    nickname: m.nickname,
    email: m.email,
    isActive: m.isActive,
    grade: { id: b.ids.grades[m.grade], title: gradeTitle },
  };
}

describe('POST /v1/settlement', () => {
  it('answers 201 with exactly the list shape; status starts at C', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b, { title: 'Brand site', amount: 9_000_000, status: 'I' });
    const before = Date.now();
    const res = await call(b, {
      method: 'POST',
      url: '/v1/settlement',
      body: settlementBody(c.id, b.ids.settlementTypes.ini, {
        title: 'Down payment 30%',
        amount: 2_700_000,
        additionalAmount: 50_000,
        vat: 270_000,
        dueDate: '2026-01-15',
        settledDate: null,
        isTaxInvoiceNeeded: true,
        inChargeSet: [{ id: b.ids.members.kim }],
      }),
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(LIST_KEYS);
    expect(res.body).toEqual({
      id: expect.any(Number),
      title: 'Down payment 30%',
      status: 'C',
      amount: 2_700_000,
      additionalAmount: 50_000,
      vat: 270_000,
      typeAlias: 'Down payment',
      created: expect.stringMatching(RFC3339_MS_UTC),
      contract: {
        id: c.id,
        title: 'Brand site',
        amount: 9_000_000,
        type: 'I',
        status: 'I',
        startDate: '2026-01-01',
        endDate: '2026-12-31',
      },
      dueDate: '2026-01-15',
      settledDate: null,
    });
    const created = Date.parse(res.body.created);
    expect(created).toBeGreaterThanOrEqual(before - 5);
    expect(created).toBeLessThanOrEqual(Date.now() + 5);
  });

  it('GET answers the full shape with the type, the round, the tax invoice properties and the members', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b);
    const s = await createSettlement(t, b, c.id, b.ids.settlementTypes.ins, {
      isTaxInvoiceIssued: true,
      isTaxInvoiceNeeded: true,
      taxInvoiceIssuedDate: '2026-02-01',
      taxInvoiceIssueDueDate: '2026-02-05',
      inChargeSet: [{ id: b.ids.members.lee }, { id: b.ids.members.kim }, { id: b.ids.members.lee }],
    });
    const res = await get(b, `/v1/settlement/${s.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(FULL_KEYS);
    expect(res.body).toEqual({
      ...s,
      settlementRound: 1,
      isTaxInvoiceIssued: true,
      isTaxInvoiceNeeded: true,
      type: {
        id: b.ids.settlementTypes.ins,
        baseType: 'INS',
        category: 'I',
        title: 'Interim payment',
        allowsMultipleRounds: true,
      },
      taxInvoiceIssuedDate: '2026-02-01',
      taxInvoiceIssueDueDate: '2026-02-05',
      inChargeSet: [memberOf(b, 'kim'), memberOf(b, 'lee')],
      isHidden: false,
      updated: s.created,
    });
  });

  it('defaults: round 1, tax invoice flags false, dates null, no members, not hidden', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b);
    const s = await createSettlement(t, b, c.id, b.ids.settlementTypes.sin);
    expect((await get(b, `/v1/settlement/${s.id}`)).body).toMatchObject({
      settlementRound: 1,
      isTaxInvoiceIssued: false,
      isTaxInvoiceNeeded: false,
      dueDate: null,
      settledDate: null,
      taxInvoiceIssuedDate: null,
      taxInvoiceIssueDueDate: null,
      inChargeSet: [],
      isHidden: false,
      typeAlias: 'Single settlement',
    });
  });

  it('settlementRound counts the settlements of the type on the contract; typeAlias adds the round for multi-round types', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b);
    const other = await contractFor(t, b);
    const { ins, ini, addMulti } = b.ids.settlementTypes;
    const rounds: [number, string][] = [];
    for (let i = 0; i < 3; i++) {
      const s = await createSettlement(t, b, c.id, ins);
      rounds.push([(await get(b, `/v1/settlement/${s.id}`)).body.settlementRound, s.typeAlias]);
    }
    expect(rounds).toEqual([
      [1, 'Interim payment 1'],
      [2, 'Interim payment 2'],
      [3, 'Interim payment 3'],
    ]);
    // Other types and other contracts count on their own.
    const single = await createSettlement(t, b, c.id, ini);
    expect(single.typeAlias).toBe('Down payment');
    expect((await get(b, `/v1/settlement/${single.id}`)).body.settlementRound).toBe(1);
    expect((await createSettlement(t, b, other.id, ins)).typeAlias).toBe('Interim payment 1');
    expect((await createSettlement(t, b, c.id, addMulti)).typeAlias).toBe('Extra work 1');
  });

  it('an explicit settlementRound is kept and named in typeAlias', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b);
    const s = await createSettlement(t, b, c.id, b.ids.settlementTypes.ins, { settlementRound: 7 });
    expect(s.typeAlias).toBe('Interim payment 7');
    expect((await get(b, `/v1/settlement/${s.id}`)).body.settlementRound).toBe(7);
  });

  it('multi-round types repeat; ADD types are exempt even when single-round; a single-round type works once per contract', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b);
    const other = await contractFor(t, b);
    const { ins, add, ini } = b.ids.settlementTypes;
    for (let i = 0; i < 3; i++) await createSettlement(t, b, c.id, ins);
    await createSettlement(t, b, c.id, add);
    const secondAdd = await createSettlement(t, b, c.id, add);
    expect(secondAdd.typeAlias).toBe('Additional settlement');
    await createSettlement(t, b, c.id, ini);
    await createSettlement(t, b, other.id, ini);
    expect((await listIds(b, `/v1/settlement?contract_id=${c.id}`)).length).toBe(6);
  });

  it('works on contracts of every type and every status but T', async () => {
    const b = await settlementBusiness(t);
    for (const type of ['I', 'S', 'G']) {
      for (const status of ['P', 'I', 'C']) {
        const c = await contractFor(t, b, { type, status });
        await createSettlement(t, b, c.id, b.ids.settlementTypes.ini);
      }
    }
  });

  it('accepts the largest safe amounts, a 128-character title, and ignores read-only and unknown properties', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b);
    const max = Number.MAX_SAFE_INTEGER;
    const s = await createSettlement(t, b, c.id, b.ids.settlementTypes.ins, {
      title: 'x'.repeat(128),
      amount: max,
      additionalAmount: max,
      vat: max,
      id: 999999,
      status: 'S',
      typeAlias: 'Mine',
      created: '2000-01-01T00:00:00.000Z',
      bogus: true,
    });
    expect(s).toMatchObject({
      amount: max,
      additionalAmount: max,
      vat: max,
      status: 'C',
      typeAlias: 'Interim payment 1',
    });
    expect(s.id).not.toBe(999999);
    expect(s.created).not.toBe('2000-01-01T00:00:00.000Z');
  });
});

describe('concurrency (spec: Settlement create 5; a unique index, not a read-then-write)', () => {
  it('20 parallel creates of a single-round type on one contract: exactly one 201, nineteen 400 on type.id', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b);
    const ini = b.ids.settlementTypes.ini;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(b, { method: 'POST', url: '/v1/settlement', body: settlementBody(c.id, ini, { title: `Race ${i}` }) }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(19);
    for (const r of results.filter((x) => x.status === 400)) {
      expect(r.body).toEqual({
        type: {
          id: [
            'A settlement of type "Down payment" already exists for this contract, and the type does not allow multiple rounds.',
          ],
        },
        requestId: r.headers['x-request-id'],
      });
    }
    const list = await get(b, `/v1/settlement?contract_id=${c.id}`);
    expect(list.body.results).toHaveLength(1);
  });

  it('20 parallel creates of a multi-round type all succeed', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        call(b, { method: 'POST', url: '/v1/settlement', body: settlementBody(c.id, b.ids.settlementTypes.ins) }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(await listIds(b, `/v1/settlement?contract_id=${c.id}&page_size=100`)).toHaveLength(20);
  });

  it('parallel status changes each record the status they really replaced', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b);
    const s = await createSettlement(t, b, c.id, b.ids.settlementTypes.ins);
    const targets = ['D', 'S', 'P', 'C', 'D', 'S', 'P', 'C', 'D', 'S'];
    const results = await Promise.all(targets.map((status) => patch(b, s.id, { status })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    const history = (await get(b, `/v1/settlement/${s.id}/status_history?page_size=100`)).body.results.reverse();
    let previous = 'C';
    for (const change of history) {
      expect(change.previousStatus).toBe(previous);
      expect(change.status).not.toBe(previous);
      previous = change.status;
    }
    expect((await get(b, `/v1/settlement/${s.id}`)).body.status).toBe(previous);
  });
});

describe('PATCH /v1/settlement/{settlement_id}', () => {
  it('changes only the properties sent and answers the full shape', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b);
    const s = await createSettlement(t, b, c.id, b.ids.settlementTypes.ins, { dueDate: '2026-03-01' });
    const before = (await get(b, `/v1/settlement/${s.id}`)).body;
    const res = await patch(b, s.id, {
      title: 'Renamed',
      amount: 5,
      additionalAmount: 6,
      vat: 7,
      dueDate: null,
      settledDate: '2026-03-02',
      isTaxInvoiceIssued: true,
      isTaxInvoiceNeeded: true,
      taxInvoiceIssuedDate: '2026-03-03',
      taxInvoiceIssueDueDate: '2026-03-04',
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(FULL_KEYS);
    expect(res.body).toEqual({
      ...before,
      title: 'Renamed',
      amount: 5,
      additionalAmount: 6,
      vat: 7,
      dueDate: null,
      settledDate: '2026-03-02',
      isTaxInvoiceIssued: true,
      isTaxInvoiceNeeded: true,
      taxInvoiceIssuedDate: '2026-03-03',
      taxInvoiceIssueDueDate: '2026-03-04',
      updated: res.body.updated,
    });
    expect((await get(b, `/v1/settlement/${s.id}`)).body).toEqual(res.body);
  });

  it('answers the unchanged settlement for an empty body, and ignores contract, type, settlementRound and typeAlias', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b);
    const other = await contractFor(t, b);
    const s = await createSettlement(t, b, c.id, b.ids.settlementTypes.ins);
    const before = (await get(b, `/v1/settlement/${s.id}`)).body;
    expect((await patch(b, s.id, {})).body).toEqual(before);
    const res = await patch(b, s.id, {
      contract: { id: other.id },
      type: { id: b.ids.settlementTypes.ini },
      settlementRound: 9,
      typeAlias: 'Mine',
      id: 5,
      created: '2000-01-01T00:00:00Z',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(before);
  });

  it('replaces inChargeSet as a whole; [] and null clear it; omitted keeps it', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b);
    const s = await createSettlement(t, b, c.id, b.ids.settlementTypes.ins, {
      inChargeSet: [{ id: b.ids.members.kim }],
    });
    expect(
      (await patch(b, s.id, { inChargeSet: [{ id: b.ids.members.park }, { id: b.ids.members.lee }] })).body.inChargeSet,
    ).toEqual([memberOf(b, 'lee'), memberOf(b, 'park')]);
    expect((await patch(b, s.id, { title: 'Kept' })).body.inChargeSet).toHaveLength(2);
    expect((await patch(b, s.id, { inChargeSet: [] })).body.inChargeSet).toEqual([]);
    await patch(b, s.id, { inChargeSet: [{ id: b.ids.members.kim }] });
    expect((await patch(b, s.id, { inChargeSet: null })).body.inChargeSet).toEqual([]);
  });

  it('status is writable (extension); each change writes one status-history row, an unchanged status none', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b);
    const s = await createSettlement(t, b, c.id, b.ids.settlementTypes.ins);
    const url = `/v1/settlement/${s.id}/status_history`;
    expect((await get(b, url)).body).toEqual({ next: null, previous: null, results: [] });
    expect((await patch(b, s.id, { status: 'D' })).body.status).toBe('D');
    expect((await patch(b, s.id, { status: 'D' })).body.status).toBe('D');
    expect((await patch(b, s.id, { status: 'S', settledDate: '2026-04-01' })).body).toMatchObject({
      status: 'S',
      settledDate: '2026-04-01',
    });
    expect((await get(b, `/v1/settlement/${s.id}`)).body.status).toBe('S');
    expect((await get(b, '/v1/settlement')).body.results[0].status).toBe('S');
    const history = await get(b, url);
    expect(history.status).toBe(200);
    expect(history.body.results).toEqual([
      {
        id: expect.any(Number),
        status: 'S',
        previousStatus: 'D',
        member: null,
        created: expect.stringMatching(RFC3339_MS_UTC),
      },
      {
        id: expect.any(Number),
        status: 'D',
        previousStatus: 'C',
        member: null,
        created: expect.stringMatching(RFC3339_MS_UTC),
      },
    ]);
    for (const status of ['P', 'C']) await patch(b, s.id, { status });
    const page = await get(b, `${url}?page_size=3`);
    expect(page.body.results.map((r: { status: string }) => r.status)).toEqual(['C', 'P', 'S']);
    const rest = await get(b, relative(page.body.next));
    expect(rest.body.results.map((r: { status: string }) => r.status)).toEqual(['D']);
  });

  it('sets and clears the hidden flag (extension)', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b);
    const s = await createSettlement(t, b, c.id, b.ids.settlementTypes.ins);
    expect((await patch(b, s.id, { isHidden: true })).body.isHidden).toBe(true);
    expect((await patch(b, s.id, { isHidden: false })).body.isHidden).toBe(false);
  });

  it('the nested contract follows the contract', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b);
    const s = await createSettlement(t, b, c.id, b.ids.settlementTypes.ins);
    await call(b, {
      method: 'PATCH',
      url: `/v1/contract/${c.id}`,
      body: { title: 'Renamed contract', status: 'T', amount: 1 },
    });
    expect((await get(b, `/v1/settlement/${s.id}`)).body.contract).toEqual({
      id: c.id,
      title: 'Renamed contract',
      amount: 1,
      type: 'I',
      status: 'T',
      startDate: '2026-01-01',
      endDate: '2026-12-31',
    });
    // A settlement of a contract suspended later can still be updated.
    expect((await patch(b, s.id, { status: 'P' })).status).toBe(200);
  });
});

describe('DELETE', () => {
  it('DELETE /v1/settlement/{id} answers 204; afterwards it, its history and its notes answer 404; the round frees up', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b);
    const keep = await createSettlement(t, b, c.id, b.ids.settlementTypes.ins);
    const doomed = await createSettlement(t, b, c.id, b.ids.settlementTypes.ini);
    await patch(b, doomed.id, { status: 'S' });
    const note = await call(b, { method: 'POST', url: `/v1/settlement/${doomed.id}/history`, body: { content: 'n' } });
    const del = await raw(b, { method: 'DELETE', url: `/v1/settlement/${doomed.id}` });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    for (const req of [
      { method: 'GET', url: `/v1/settlement/${doomed.id}` },
      { method: 'PATCH', url: `/v1/settlement/${doomed.id}`, body: { title: 'Zombie' } },
      { method: 'DELETE', url: `/v1/settlement/${doomed.id}` },
      { method: 'GET', url: `/v1/settlement/${doomed.id}/status_history` },
      { method: 'GET', url: `/v1/settlement/${doomed.id}/history` },
      { method: 'GET', url: `/v1/settlement/${doomed.id}/history/${note.body.id}` },
    ] as SignedRequest[]) {
      const res = await call(b, req);
      expect(res.status, `${req.method} ${req.url}`).toBe(404);
      expect(res.body).toEqual({ detail: 'Not found.', code: 'not_found', requestId: res.headers['x-request-id'] });
    }
    expect(await listIds(b, '/v1/settlement')).toEqual([keep.id]);
    // The single-round type can be used again on the contract.
    await createSettlement(t, b, c.id, b.ids.settlementTypes.ini);
  });

  it('deleting a contract deletes its settlements', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b);
    const other = await contractFor(t, b);
    const gone = await createSettlement(t, b, c.id, b.ids.settlementTypes.ins);
    const kept = await createSettlement(t, b, other.id, b.ids.settlementTypes.ins);
    expect((await call(b, { method: 'DELETE', url: `/v1/contract/${c.id}` })).status).toBe(204);
    expect((await get(b, `/v1/settlement/${gone.id}`)).status).toBe(404);
    expect(await listIds(b, '/v1/settlement')).toEqual([kept.id]);
  });
});

describe('racing the deletion of the contract', () => {
  it('creates sent while the contract is deleted answer 201 or 400 on contract.id, never a 500', async () => {
    for (let round = 0; round < 30; round++) {
      const b = await settlementBusiness(t);
      const c = await contractFor(t, b);
      const creates = Array.from({ length: 10 }, (_, i) =>
        call(b, {
          method: 'POST',
          url: '/v1/settlement',
          body: settlementBody(c.id, b.ids.settlementTypes.ins, { title: `Race ${i}` }),
        }),
      );
      const [deleted, ...results] = await Promise.all([
        call(b, { method: 'DELETE', url: `/v1/contract/${c.id}` }),
        ...creates,
      ]);
      expect(deleted.status).toBe(204);
      for (const r of results) {
        expect([201, 400], JSON.stringify(r.body)).toContain(r.status);
        // A 201 describes the settlement it created, even when the contract took it away right after.
        if (r.status === 201) expect(r.body.contract.id).toBe(c.id);
        if (r.status === 400) {
          expect(r.body).toEqual({
            contract: { id: [`Invalid pk "${c.id}" - object does not exist.`] },
            requestId: r.headers['x-request-id'],
          });
        }
      }
      // Whatever was created went with the contract.
      expect(await listIds(b, '/v1/settlement')).toEqual([]);
    }
  });
});

describe('body encodings', () => {
  it('JSON, urlencoded (dot and bracket notation) and multipart give the same settlement', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b);
    const ins = b.ids.settlementTypes.ins;
    const kim = b.ids.members.kim;
    async function roundTrip(req: SignedRequest) {
      const res = await call(b, req);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const {
        id: _id,
        created: _created,
        updated: _updated,
        typeAlias: _alias,
        settlementRound: _round,
        ...rest
      } = (await get(b, `/v1/settlement/${res.body.id}`)).body;
      return rest;
    }
    const flat = {
      title: 'Encoded',
      amount: 10,
      additionalAmount: 2,
      vat: 1,
      settlementRound: 1,
      isTaxInvoiceNeeded: true,
      dueDate: '2026-05-05',
    };
    const json = await roundTrip({
      method: 'POST',
      url: '/v1/settlement',
      body: { ...flat, contract: { id: c.id }, type: { id: ins }, inChargeSet: [{ id: kim }] },
    });
    const dots = await roundTrip({
      method: 'POST',
      url: '/v1/settlement',
      form: 'urlencoded',
      body: { ...flat, 'contract.id': c.id, 'type.id': ins, 'inChargeSet[0].id': kim },
    });
    const brackets = await roundTrip({
      method: 'POST',
      url: '/v1/settlement',
      form: 'urlencoded',
      body: { ...flat, 'contract[id]': c.id, 'type[id]': ins, 'inChargeSet[0][id]': kim },
    });
    const multi = await roundTrip({
      method: 'POST',
      url: '/v1/settlement',
      form: 'multipart',
      body: { ...flat, 'contract.id': c.id, 'type.id': ins, 'inChargeSet[0].id': kim },
    });
    expect(dots).toEqual(json);
    expect(brackets).toEqual(json);
    expect(multi).toEqual(json);
    const s = (await get(b, `/v1/settlement?page_size=1`)).body.results[0];
    const patched = await call(b, {
      method: 'PATCH',
      url: `/v1/settlement/${s.id}`,
      form: 'urlencoded',
      body: { status: 'S', isHidden: 'true', amount: '99' },
    });
    expect(patched.body).toMatchObject({ status: 'S', isHidden: true, amount: 99 });
  });
});

describe('GET /v1/settlement', () => {
  it('lists newest first in the list shape, pages with next / previous, and shows only the business’s own', async () => {
    const b = await settlementBusiness(t);
    const other = await settlementBusiness(t);
    await createSettlement(t, other, (await contractFor(t, other)).id, other.ids.settlementTypes.ins);
    const c = await contractFor(t, b);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createSettlement(t, b, c.id, b.ids.settlementTypes.ins)).id);
    const first = await get(b, '/v1/settlement?page_size=2');
    expect(first.body.results.map((r: { id: number }) => r.id)).toEqual([ids[4], ids[3]]);
    for (const item of first.body.results) expect(Object.keys(item)).toEqual(LIST_KEYS);
    const second = await get(b, relative(first.body.next));
    expect(second.body.results.map((r: { id: number }) => r.id)).toEqual([ids[2], ids[1]]);
    const third = await get(b, relative(second.body.next));
    expect(third.body.results.map((r: { id: number }) => r.id)).toEqual([ids[0]]);
    expect(third.body.next).toBeNull();
    const back = await get(b, relative(third.body.previous));
    expect(back.body.results.map((r: { id: number }) => r.id)).toEqual([ids[2], ids[1]]);
    expect(await listIds(b, '/v1/settlement?limit=1')).toEqual([ids[4]]);
  });

  it('contract_id keeps one contract’s settlements', async () => {
    const b = await settlementBusiness(t);
    const one = await contractFor(t, b);
    const two = await contractFor(t, b);
    const s1 = await createSettlement(t, b, one.id, b.ids.settlementTypes.ins);
    await createSettlement(t, b, two.id, b.ids.settlementTypes.ins);
    expect(await listIds(b, `/v1/settlement?contract_id=${one.id}`)).toEqual([s1.id]);
    expect(await listIds(b, '/v1/settlement?contract_id=999999')).toEqual([]);
  });

  it('search matches the title, the type alias and the contract title; terms are ANDed', async () => {
    const b = await settlementBusiness(t);
    const shop = await contractFor(t, b, { title: 'Online shop' });
    const app = await contractFor(t, b, { title: 'Mobile app' });
    const byTitle = await createSettlement(t, b, app.id, b.ids.settlementTypes.ins, { title: 'Shop fee' });
    const byContract = await createSettlement(t, b, shop.id, b.ids.settlementTypes.ins, { title: 'First' });
    const byAlias = await createSettlement(t, b, app.id, b.ids.settlementTypes.ini, { title: 'Second' });
    expect(await listIds(b, '/v1/settlement?search=SHOP')).toEqual([byContract.id, byTitle.id]);
    expect(await listIds(b, '/v1/settlement?search=down%20pay')).toEqual([byAlias.id]);
    expect(await listIds(b, '/v1/settlement?search=interim&search=mobile')).toEqual([byTitle.id]);
    expect(await listIds(b, '/v1/settlement?search=nothing')).toEqual([]);
  });

  it('due_date_* and settled_date_* are inclusive; settlements without the date drop out', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b);
    const ins = b.ids.settlementTypes.ins;
    const march = await createSettlement(t, b, c.id, ins, { dueDate: '2026-03-10', settledDate: '2026-03-12' });
    const april = await createSettlement(t, b, c.id, ins, { dueDate: '2026-04-10' });
    await createSettlement(t, b, c.id, ins);
    expect(await listIds(b, '/v1/settlement?due_date_start=2026-03-10')).toEqual([april.id, march.id]);
    expect(await listIds(b, '/v1/settlement?due_date_start=2026-03-11')).toEqual([april.id]);
    expect(await listIds(b, '/v1/settlement?due_date_end=2026-03-10')).toEqual([march.id]);
    expect(await listIds(b, '/v1/settlement?due_date_start=2026-04-10&due_date_end=2026-04-10')).toEqual([april.id]);
    expect(await listIds(b, '/v1/settlement?settled_date_start=2026-03-12&settled_date_end=2026-03-12')).toEqual([
      march.id,
    ]);
    expect(await listIds(b, '/v1/settlement?settled_date_start=2026-03-13')).toEqual([]);
    expect(await listIds(b, '/v1/settlement?settled_date_end=2026-12-31')).toEqual([march.id]);
  });

  it('created_start / created_end compare the creation date in the business time zone', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b);
    const s = await createSettlement(t, b, c.id, b.ids.settlementTypes.ins);
    const today = todayIn(b.timezone);
    expect(await listIds(b, `/v1/settlement?created_start=${today}&created_end=${today}`)).toEqual([s.id]);
    expect(await listIds(b, `/v1/settlement?created_start=${nextDay(today)}`)).toEqual([]);
    expect(await listIds(b, `/v1/settlement?created_end=${prevDay(today)}`)).toEqual([]);
  });

  it('is_hidden: true only hidden, false only visible, omitted all', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b);
    const hidden = await createSettlement(t, b, c.id, b.ids.settlementTypes.ins, { isHidden: true });
    const visible = await createSettlement(t, b, c.id, b.ids.settlementTypes.ins);
    expect(await listIds(b, '/v1/settlement?is_hidden=true')).toEqual([hidden.id]);
    expect(await listIds(b, '/v1/settlement?is_hidden=0')).toEqual([visible.id]);
    expect(await listIds(b, '/v1/settlement')).toEqual([visible.id, hidden.id]);
  });
});

describe('settlement notes /v1/settlement/{settlement_id}/history', () => {
  it('creates, lists newest first, retrieves, updates and deletes notes', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b);
    const s = await createSettlement(t, b, c.id, b.ids.settlementTypes.ins);
    const url = `/v1/settlement/${s.id}/history`;
    const first = await call(b, {
      method: 'POST',
      url,
      body: { content: 'Invoice sent', member: { id: b.ids.members.kim } },
    });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: expect.any(Number),
      content: 'Invoice sent',
      created: expect.stringMatching(RFC3339_MS_UTC),
      member: memberOf(b, 'kim'),
    });
    const second = await call(b, { method: 'POST', url, body: { content: 'Paid', member: null } });
    expect(second.body.member).toBeNull();
    expect((await get(b, url)).body.results.map((n: { id: number }) => n.id)).toEqual([second.body.id, first.body.id]);
    expect((await get(b, `${url}/${first.body.id}`)).body).toEqual({ ...first.body, updated: first.body.created });
    const edited = await call(b, {
      method: 'PATCH',
      url: `${url}/${first.body.id}`,
      body: { content: 'Invoice re-sent' },
    });
    expect(edited.body).toEqual({ ...first.body, content: 'Invoice re-sent', updated: edited.body.updated });
    expect((await raw(b, { method: 'DELETE', url: `${url}/${first.body.id}` })).statusCode).toBe(204);
    expect((await get(b, url)).body.results.map((n: { id: number }) => n.id)).toEqual([second.body.id]);
  });
});
