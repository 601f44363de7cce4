/**
 * The demo business (decisions §6) shows contracts of all three types with their categories, custom fields
 * and clients, and settlements in every state with their status history — read through the API with the
 * demo's own key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../../../src/demo/demo.ts';
import { DEMO_CONTRACTS } from '../../../src/demo/demo-data.ts';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { apiClient } from '../../setup/api-client.ts';

let t: TestApp;
const { call } = apiClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('demo contracts and settlements', () => {
  it('has contracts of types I, S and G with clients and categories, and settlements in states C, D, S and P', async () => {
    const demo = await createDemo(t.testDb.db, t.masterKey);
    const get = (url: string) => call(demo, { method: 'GET', url });
    const contracts = (await get('/v1/contract?page_size=100')).body.results as Record<string, any>[];
    expect(contracts).toHaveLength(DEMO_CONTRACTS.length);
    expect(new Set(contracts.map((c) => c.type))).toEqual(new Set(['I', 'S', 'G']));
    for (const c of contracts) {
      expect(c.client).not.toBeNull();
      expect(c.categorySet.length).toBeGreaterThan(0);
    }
    const recurring = contracts.find((c) => c.type === 'S')!;
    expect((await get(`/v1/contract/${recurring.id}`)).body).toMatchObject({
      settlementFrequency: 1,
      settlementCycle: 'M',
      settlementDay: 25,
    });
    expect(contracts.some((c) => c.status === 'T')).toBe(true);

    const settlements = (await get('/v1/settlement?page_size=100')).body.results as Record<string, any>[];
    expect(settlements.length).toBe(DEMO_CONTRACTS.reduce((n, c) => n + c.settlements.length, 0));
    expect(new Set(settlements.map((s) => s.status))).toEqual(new Set(['C', 'D', 'S', 'P']));
    const done = settlements.find((s) => s.status === 'S')!;
    const history = (await get(`/v1/settlement/${done.id}/status_history`)).body.results;
    expect(history).toEqual([expect.objectContaining({ status: 'S', previousStatus: 'C' })]);
    expect(settlements.map((s) => s.typeAlias)).toEqual(
      expect.arrayContaining(['Interim payment 1', 'Interim payment 2', 'Monthly payment 3']),
    );
  });
});
