/** `GET /v1/notification`, the failing paths: query parameters (decisions §4, §5) and cursors. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness } from '../../setup/factories.ts';
import { notify } from './notification-helpers.ts';
import { apiClient } from '../../setup/api-client.ts';

let t: TestApp;
const { call } = apiClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('GET /v1/notification — query parameter errors', () => {
  const cases: [query: string, key: string, message: string][] = [
    ['member_id=x', 'member_id', 'A valid integer is required.'],
    ['member_id=1.5', 'member_id', 'A valid integer is required.'],
    ['member_id=0', 'member_id', 'Ensure this value is greater than or equal to 1.'],
    ['member_id=-2', 'member_id', 'Ensure this value is greater than or equal to 1.'],
    ['page_size=0', 'page_size', 'Ensure this value is greater than or equal to 1.'],
    ['page_size=abc', 'page_size', 'A valid integer is required.'],
    ['limit=x', 'limit', 'A valid integer is required.'],
  ];
  for (const [query, key, message] of cases) {
    it(`${query} → 400 {${key}: [${message}]}`, async () => {
      const b = await newBusiness(t);
      const res = await call(b, { method: 'GET', url: `/v1/notification?${query}` });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ [key]: [message], requestId: res.headers['x-request-id'] });
    });
  }

  it('reports several bad parameters at once', async () => {
    const b = await newBusiness(t);
    const res = await call(b, { method: 'GET', url: '/v1/notification?member_id=x&page_size=0' });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body).sort()).toEqual(['member_id', 'page_size', 'requestId']);
  });

  it('a tampered cursor, or one of another list → 404 Invalid cursor', async () => {
    const b = await newBusiness(t);
    await notify(t, b.businessId, [{ memberIds: [b.ids.members.kim!] }, { memberIds: [b.ids.members.kim!] }]);
    const page = await call(b, { method: 'GET', url: '/v1/notification?page_size=1' });
    const cursor = new URL(page.body.next).searchParams.get('cursor')!;
    const clients = await call(b, { method: 'GET', url: '/v1/member?page_size=1' });
    const foreign = new URL(clients.body.next).searchParams.get('cursor')!;
    for (const bad of ['garbage', `${cursor}x`, `x${cursor}`, foreign]) {
      const res = await call(b, { method: 'GET', url: `/v1/notification?cursor=${encodeURIComponent(bad)}` });
      expect(res.status, bad).toBe(404);
      expect(res.body.detail).toBe('Invalid cursor');
    }
  });

  it('answers 405 with Allow for a method the list does not take', async () => {
    const b = await newBusiness(t);
    const res = await call(b, { method: 'POST', url: '/v1/notification', body: {} });
    expect(res.status).toBe(405);
    expect(res.body.detail).toBe('Method "POST" not allowed.');
    expect(res.headers.allow).toContain('GET');
  });
});
