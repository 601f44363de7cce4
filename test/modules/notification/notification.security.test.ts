/** Security suite of `GET /v1/notification`, and tenant isolation of the in-app notifications. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { runCommonRouteTests } from '../../setup/common-route-tests.ts';
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
const ctx = () => t;

describe('notification routes', () => {
  runCommonRouteTests(ctx, {
    name: 'GET /v1/notification',
    okStatus: 200,
    request: () => ({ method: 'GET', url: '/v1/notification' }),
  });
  for (const plan of ['BASIC'] as const) {
    runCommonRouteTests(ctx, {
      name: `GET /v1/notification on ${plan}`,
      okStatus: 200,
      plan,
      request: () => ({ method: 'GET', url: '/v1/notification' }),
    });
  }

  it("never shows another business's notifications, with or without its member id", async () => {
    const owner = await newBusiness(t);
    const stranger = await newBusiness(t);
    await notify(t, owner.businessId, [{ memberIds: [owner.ids.members.kim!] }]);
    const mine = await call(owner, { method: 'GET', url: '/v1/notification' });
    expect(mine.body.results).toHaveLength(1);
    for (const url of ['/v1/notification', `/v1/notification?member_id=${owner.ids.members.kim}`]) {
      const res = await call(stranger, { method: 'GET', url });
      expect(res.status).toBe(200);
      expect(res.body.results).toEqual([]);
    }
  });
});
