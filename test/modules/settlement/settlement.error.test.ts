/**
 * Settlements, the failing paths (spec: Operation rules › Settlement create 1–5, Limits; reference:
 * Settlement; decisions §2, §5, §7): each creation rule as a 400 in the shape of decisions §7 that writes
 * nothing, property rules with DRF's wording, PATCH validation, 404s, bad query parameters, and the unique
 * index behind the once-per-contract rule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../../../src/db/sql-helpers.ts';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import type { TestBusiness } from '../../setup/factories.ts';
import { contractFor, createSettlement, settlementBody, settlementBusiness } from './settlement-helpers.ts';
import { apiClient, expect400 } from '../../setup/api-client.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const api = apiClient(() => t.app);
const { call } = api;
const post = (b: TestBusiness, body: unknown) => api.post(b, '/v1/settlement', body);
const patch = (b: TestBusiness, id: unknown, body: unknown) => api.patch(b, `/v1/settlement/${id}`, body);
async function count(b: TestBusiness): Promise<number> {
  return (await call(b, { method: 'GET', url: '/v1/settlement?page_size=100' })).body.results.length;
}

const NEEDS_DATES = 'The contract needs both a start date and an end date before a settlement can be created.';
const SUSPENDED = 'No settlement can be created for a suspended contract.';
const OUT = 'The outstanding payment type (OUT) cannot be used to create a settlement.';
const used = (title: string) =>
  `A settlement of type "${title}" already exists for this contract, and the type does not allow multiple rounds.`;

describe('POST /v1/settlement — the creation rules (spec: Settlement create 1–5)', () => {
  it('1. contract and type are required, as references with an id', async () => {
    const b = await settlementBusiness(t);
    expect400(await post(b, { title: 'T', amount: 1, additionalAmount: 0, vat: 0 }), {
      contract: ['This field is required.'],
      type: ['This field is required.'],
    });
    expect400(await post(b, { title: 'T', amount: 1, additionalAmount: 0, vat: 0, contract: {}, type: {} }), {
      contract: { id: ['This field is required.'] },
      type: { id: ['This field is required.'] },
    });
    expect400(await post(b, { title: 'T', amount: 1, additionalAmount: 0, vat: 0, contract: null, type: 3 }), {
      contract: ['This field may not be null.'],
      type: ['Invalid data. Expected a dictionary, but got int.'],
    });
    expect(await count(b)).toBe(0);
  });

  it('1. a contract or type that does not exist: 400 on contract.id / type.id', async () => {
    const b = await settlementBusiness(t);
    expect400(await post(b, settlementBody(999999, 999998)), {
      contract: { id: ['Invalid pk "999999" - object does not exist.'] },
      type: { id: ['Invalid pk "999998" - object does not exist.'] },
    });
  });

  it('1. the OUTSTANDING_PAYMENT type is refused on type.id', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b);
    expect400(await post(b, settlementBody(c.id, b.ids.settlementTypes.out)), { type: { id: [OUT] } });
    expect(await count(b)).toBe(0);
  });

  it('3. the contract needs both dates: nonField', async () => {
    const b = await settlementBusiness(t);
    const ins = b.ids.settlementTypes.ins;
    for (const dates of [
      { startDate: null, endDate: null },
      { startDate: '2026-01-01', endDate: null },
      { startDate: null, endDate: '2026-12-31' },
    ]) {
      const c = await contractFor(t, b, dates);
      expect400(await post(b, settlementBody(c.id, ins)), { nonField: [NEEDS_DATES] });
    }
    expect(await count(b)).toBe(0);
  });

  it('4. no settlement on a suspended contract: nonField', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b, { status: 'T' });
    expect400(await post(b, settlementBody(c.id, b.ids.settlementTypes.ins)), { nonField: [SUSPENDED] });
    // Suspending a contract that already has settlements stops new ones.
    const later = await contractFor(t, b);
    await createSettlement(t, b, later.id, b.ids.settlementTypes.ins);
    await call(b, { method: 'PATCH', url: `/v1/contract/${later.id}`, body: { status: 'T' } });
    expect400(await post(b, settlementBody(later.id, b.ids.settlementTypes.ins)), { nonField: [SUSPENDED] });
    expect(await count(b)).toBe(1);
  });

  it('5. a single-round type a second time on the same contract: 400 on type.id (INI, SIN)', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b);
    await createSettlement(t, b, c.id, b.ids.settlementTypes.ini);
    await createSettlement(t, b, c.id, b.ids.settlementTypes.sin);
    expect400(await post(b, settlementBody(c.id, b.ids.settlementTypes.ini)), { type: { id: [used('Down payment')] } });
    expect400(await post(b, settlementBody(c.id, b.ids.settlementTypes.sin, { settlementRound: 2 })), {
      type: { id: [used('Single settlement')] },
    });
    expect(await count(b)).toBe(2);
  });

  it('every broken rule is reported at once', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b, { status: 'T', endDate: null });
    expect400(await post(b, settlementBody(c.id, b.ids.settlementTypes.out, { inChargeSet: [{ id: 999999 }] })), {
      type: { id: [OUT] },
      nonField: [NEEDS_DATES, SUSPENDED],
      inChargeSet: ['Invalid pk "999999" - object does not exist.'],
    });
  });
});

describe('POST /v1/settlement — property validation', () => {
  it('title, amount, additionalAmount and vat are required', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b);
    expect400(await post(b, { contract: { id: c.id }, type: { id: b.ids.settlementTypes.ins } }), {
      title: ['This field is required.'],
      amount: ['This field is required.'],
      additionalAmount: ['This field is required.'],
      vat: ['This field is required.'],
    });
  });

  it('title 1..128; amounts integers ≥ 0; settlementRound ≥ 1; dates; booleans', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b);
    const body = (extra: Record<string, unknown>) => settlementBody(c.id, b.ids.settlementTypes.ins, extra);
    expect400(await post(b, body({ title: '' })), { title: ['This field may not be blank.'] });
    expect400(await post(b, body({ title: 'x'.repeat(129) })), {
      title: ['Ensure this field has no more than 128 characters.'],
    });
    expect400(await post(b, body({ amount: -1, additionalAmount: -2, vat: -3 })), {
      amount: ['Ensure this value is greater than or equal to 0.'],
      additionalAmount: ['Ensure this value is greater than or equal to 0.'],
      vat: ['Ensure this value is greater than or equal to 0.'],
    });
    expect400(await post(b, body({ amount: 1.5, vat: '10' })), {
      amount: ['A valid integer is required.'],
      vat: ['A valid integer is required.'],
    });
    expect400(await post(b, body({ settlementRound: 0 })), {
      settlementRound: ['Ensure this value is greater than or equal to 1.'],
    });
    expect400(await post(b, body({ dueDate: '2026-02-30', taxInvoiceIssuedDate: 'today' })), {
      dueDate: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'],
      taxInvoiceIssuedDate: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'],
    });
    expect400(await post(b, body({ isTaxInvoiceIssued: 'yes', isHidden: 1 })), {
      isTaxInvoiceIssued: ['Must be a valid boolean.'],
      isHidden: ['Must be a valid boolean.'],
    });
    expect400(await post(b, body({ inChargeSet: [{}] })), { inChargeSet: ['Item 1 (id): This field is required.'] });
    expect400(await post(b, body({ inChargeSet: [{ id: b.ids.members.kim }, { id: 999999 }] })), {
      inChargeSet: ['Invalid pk "999999" - object does not exist.'],
    });
    expect(await count(b)).toBe(0);
  });
});

describe('PATCH /v1/settlement/{settlement_id} — validation', () => {
  it('status codes, non-null properties and members; a failed PATCH changes nothing and records no history', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b);
    const s = await createSettlement(t, b, c.id, b.ids.settlementTypes.ins, {
      inChargeSet: [{ id: b.ids.members.kim }],
    });
    const before = (await call(b, { method: 'GET', url: `/v1/settlement/${s.id}` })).body;
    expect400(await patch(b, s.id, { status: 'X' }), { status: ['"X" is not a valid choice.'] });
    expect400(await patch(b, s.id, { status: null, title: null, amount: null }), {
      status: ['This field may not be null.'],
      title: ['This field may not be null.'],
      amount: ['This field may not be null.'],
    });
    expect400(await patch(b, s.id, { status: 'S', inChargeSet: [{ id: 999999 }] }), {
      inChargeSet: ['Invalid pk "999999" - object does not exist.'],
    });
    expect400(await patch(b, s.id, { status: 'S', vat: -1 }), {
      vat: ['Ensure this value is greater than or equal to 0.'],
    });
    expect((await call(b, { method: 'GET', url: `/v1/settlement/${s.id}` })).body).toEqual(before);
    expect((await call(b, { method: 'GET', url: `/v1/settlement/${s.id}/status_history` })).body.results).toEqual([]);
  });

  it('answers 404 before looking at the body for a settlement that does not exist', async () => {
    const b = await settlementBusiness(t);
    const res = await patch(b, 999999, { status: 'bogus' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'Not found.', code: 'not_found', requestId: res.headers['x-request-id'] });
  });
});

describe('routes, ids and queries', () => {
  it('unknown and non-integer ids answer 404 on every route', async () => {
    const b = await settlementBusiness(t);
    for (const url of [
      '/v1/settlement/999999',
      '/v1/settlement/abc',
      '/v1/settlement/999999/status_history',
      '/v1/settlement/x/status_history',
    ]) {
      const res = await call(b, { method: 'GET', url });
      expect(res.status, url).toBe(404);
    }
    expect((await call(b, { method: 'DELETE', url: '/v1/settlement/999999' })).status).toBe(404);
  });

  it('an unsupported method answers 405 with Allow', async () => {
    const b = await settlementBusiness(t);
    const res = await call(b, { method: 'PUT', url: '/v1/settlement', body: {} });
    expect(res.status).toBe(405);
    expect(String(res.headers.allow)).toMatch(/POST/);
  });

  it('bad query parameters answer 400 under their own names', async () => {
    const b = await settlementBusiness(t);
    const get = (q: string) => call(b, { method: 'GET', url: `/v1/settlement?${q}` });
    const dateMessage = ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'];
    expect400(await get('contract_id=x'), { contract_id: ['A valid integer is required.'] });
    expect400(await get('due_date_start=x'), { due_date_start: dateMessage });
    expect400(await get('due_date_end=2026-02-31'), { due_date_end: dateMessage });
    expect400(await get('settled_date_start=1'), { settled_date_start: dateMessage });
    expect400(await get('settled_date_end=1'), { settled_date_end: dateMessage });
    expect400(await get('created_start=1'), { created_start: dateMessage });
    expect400(await get('is_hidden=yes'), { is_hidden: ['Must be a valid boolean.'] });
    expect400(await get('page_size=-1'), { page_size: ['Ensure this value is greater than or equal to 1.'] });
    const c = await contractFor(t, b);
    const s = await createSettlement(t, b, c.id, b.ids.settlementTypes.ins);
    expect400(await call(b, { method: 'GET', url: `/v1/settlement/${s.id}/status_history?page_size=abc` }), {
      page_size: ['A valid integer is required.'],
    });
    const bad = await call(b, { method: 'GET', url: `/v1/settlement/${s.id}/status_history?cursor=nope` });
    expect(bad.status).toBe(404);
    expect(bad.body.detail).toBe('Invalid cursor');
  });
});

describe('settlement notes — failing paths', () => {
  it('content rules, unknown member, a note of another settlement', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b);
    const one = await createSettlement(t, b, c.id, b.ids.settlementTypes.ins);
    const two = await createSettlement(t, b, c.id, b.ids.settlementTypes.ins);
    const url = `/v1/settlement/${one.id}/history`;
    expect400(await call(b, { method: 'POST', url, body: { content: '' } }), {
      content: ['This field may not be blank.'],
    });
    expect400(await call(b, { method: 'POST', url, body: { content: 'x'.repeat(5001) } }), {
      content: ['Ensure this field has no more than 5000 characters.'],
    });
    expect400(await call(b, { method: 'POST', url, body: { content: 'x', member: { id: 999999 } } }), {
      member: { id: ['Invalid pk "999999" - object does not exist.'] },
    });
    const note = await call(b, { method: 'POST', url, body: { content: 'x' } });
    expect((await call(b, { method: 'GET', url: `/v1/settlement/${two.id}/history/${note.body.id}` })).status).toBe(
      404,
    );
    expect(
      (await call(b, { method: 'POST', url: '/v1/settlement/999999/history', body: { content: 'x' } })).status,
    ).toBe(404);
  });
});

describe('the unique index behind "once per contract" (both dialects)', () => {
  it('refuses a second row with the same single_type_id on a contract, and allows NULLs', async () => {
    const b = await settlementBusiness(t);
    const c = await contractFor(t, b);
    const db = t.testDb.db;
    const type = b.ids.settlementTypes.ini!;
    const row = (single: number | null) => ({
      business_id: b.businessId,
      contract_id: c.id,
      type_id: type,
      single_type_id: single,
      title: 'Direct',
      status: 'C',
      amount: 1,
      additional_amount: 0,
      vat: 0,
      settlement_round: 1,
      type_alias: 'Down payment',
      is_tax_invoice_issued: 0 as const,
      is_tax_invoice_needed: 0 as const,
      is_hidden: 0 as const,
      created: new Date().toISOString(),
      updated: new Date().toISOString(),
    });
    await db.insertInto('settlement').values(row(null)).execute();
    await db.insertInto('settlement').values(row(null)).execute();
    await db.insertInto('settlement').values(row(type)).execute();
    let error: unknown;
    try {
      await db.insertInto('settlement').values(row(type)).execute();
    } catch (err) {
      error = err;
    }
    expect(error).toBeDefined();
    expect(
      isUniqueViolation(error, 'settlement_single_round_uq', [
        'settlement.business_id',
        'settlement.contract_id',
        'settlement.single_type_id',
      ]),
    ).toBe(true);
    expect(isUniqueViolation(error, 'another_uq', ['settlement.id'])).toBe(false);
  });
});
