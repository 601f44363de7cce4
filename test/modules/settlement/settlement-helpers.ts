/**
 * Shared helpers of the settlement tests: a business whose catalog has a settlement type of every kind the
 * creation rules tell apart, and a contract ready for settlements (both dates, not suspended).
 */
import { expect } from 'vitest';
import type { TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness, testCatalog } from '../../setup/factories.ts';
import { apiClient } from '../../setup/api-client.ts';

/**
 * A business with settlement types: `ini` (INI, single round), `ins` (INS, multiple rounds), `sin` (SIN,
 * single), `add` (ADD, single round but exempt), `addMulti` (ADD, multiple), `out` (OUT, refused).
 */
export function settlementBusiness(t: TestApp): Promise<TestBusiness> {
  return newBusiness(t, {
    catalog: {
      ...testCatalog(),
      settlementTypes: [
        { key: 'ini', baseType: 'INI', category: 'I', title: 'Down payment', allowsMultipleRounds: false },
        { key: 'ins', baseType: 'INS', category: 'I', title: 'Interim payment', allowsMultipleRounds: true },
        { key: 'sin', baseType: 'SIN', category: 'E', title: 'Single settlement', allowsMultipleRounds: false },
        { key: 'add', baseType: 'ADD', category: 'E', title: 'Additional settlement', allowsMultipleRounds: false },
        { key: 'addMulti', baseType: 'ADD', category: 'E', title: 'Extra work', allowsMultipleRounds: true },
        { key: 'out', baseType: 'OUT', category: 'E', title: 'Outstanding payment', allowsMultipleRounds: true },
      ],
    },
  });
}

/** Creates a contract that accepts settlements; `extra` overrides any property. Returns its create body. */
export async function contractFor(
  t: TestApp,
  b: TestBusiness,
  extra: Record<string, unknown> = {},
): Promise<Record<string, any>> {
  const res = await apiClient(t.app).call(b, {
    method: 'POST',
    url: '/v1/contract',
    body: {
      title: 'Service contract',
      amount: 10_000_000,
      type: 'I',
      startDate: '2026-01-01',
      endDate: '2026-12-31',
      ...extra,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** A valid create body for `contractId` and `typeId`; `extra` overrides any property. */
export function settlementBody(
  contractId: number,
  typeId: number | undefined,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    title: 'Payment',
    amount: 1_000_000,
    additionalAmount: 0,
    vat: 100_000,
    contract: { id: contractId },
    type: { id: typeId },
    ...extra,
  };
}

/** Creates a settlement and returns the 201 body. */
export async function createSettlement(
  t: TestApp,
  b: TestBusiness,
  contractId: number,
  typeId: number | undefined,
  extra: Record<string, unknown> = {},
): Promise<Record<string, any>> {
  const res = await apiClient(t.app).call(b, {
    method: 'POST',
    url: '/v1/settlement',
    body: settlementBody(contractId, typeId, extra),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
