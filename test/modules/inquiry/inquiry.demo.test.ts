/**
 * The demo business as `npm start` and `bizapi demo` create it (issue 3 "Done when"; decisions §6, §7, §8):
 * inquiries with histories, attachments in the configured storage with working download URLs, and
 * notifications already delivered — in-app (read through `GET /v1/notification`) and as `.eml` files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../../../src/demo/demo.ts';
import { DEMO_ATTACHMENTS, DEMO_CATALOG } from '../../../src/demo/demo-data.ts';
import { findOutboxByBusiness } from '../../../src/modules/notification/notification.repository.ts';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import type { TestBusiness } from '../../setup/factories.ts';
import type { Storage } from '../../../src/modules/file/storage.ts';
import { apiClient } from '../../setup/api-client.ts';

let t: TestApp;
let b: TestBusiness;
beforeAll(async () => {
  t = await buildTestApp();
  // as src/server.ts does for `npm start`: the app's storage, delivery with the app's configuration
  const demo = await createDemo(t.testDb.db, t.masterKey, { storage: t.app.storage, deliver: t.config });
  b = {
    apiKey: demo.apiKey,
    secretKey: demo.secretKey,
    businessId: demo.business.id,
    ids: demo.catalog,
    timezone: demo.business.timezone,
  };
});
afterAll(() => t.close());

const { call, raw } = apiClient(() => t.app);

async function get(url: string) {
  const res = await call(b, { method: 'GET', url });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function inquiryNamed(name: string): Promise<Record<string, any>> {
  const list = await get('/v1/inquiry?page_size=100');
  const item = list.results.find((r: { name: string }) => r.name === name);
  expect(item, name).toBeDefined();
  return get(`/v1/inquiry/${item.id}`);
}

describe('the demo business (npm start, bizapi demo)', () => {
  it('has attachments whose download URLs serve the demo files', async () => {
    const names = [...new Set(DEMO_ATTACHMENTS.map((a) => a.inquiry))];
    for (const name of names) {
      const inquiry = await inquiryNamed(name);
      const expected = DEMO_ATTACHMENTS.filter((a) => a.inquiry === name);
      expect(inquiry.fileSet.map((f: { name: string }) => f.name)).toEqual(expected.map((a) => a.name));
      for (const [i, file] of (inquiry.fileSet as { file: string }[]).entries()) {
        const url = new URL(file.file);
        const res = await raw(undefined, { method: 'GET', url: `${url.pathname}${url.search}` });
        expect(res.statusCode).toBe(200);
        expect(res.rawPayload.equals(expected[i]!.bytes())).toBe(true);
      }
      expect((await get(`/v1/inquiry/${inquiry.id}/status_history`)).results.length).toBeGreaterThan(0);
    }
  });

  it('has delivered notifications: in-app for the active members with notifications on, e-mails as .eml files', async () => {
    const all = await get('/v1/notification?page_size=100');
    expect(all.results.length).toBeGreaterThan(0);
    const notified = new Set(all.results.map((n: { member: { id: number } }) => n.member.id));
    const wanted = (DEMO_CATALOG.members ?? [])
      .filter((m) => m.isActive && m.notificationsEnabled)
      .map((m) => b.ids.members[m.key]);
    expect([...notified].every((id) => wanted.includes(id as number))).toBe(true);
    const types = new Set(all.results.map((n: { type: string }) => n.type));
    expect(types).toEqual(new Set(['inquiry.created', 'inquiry.status_changed', 'inquiry.text_history_created']));
    // the messages name the inquiry
    const brand = await inquiryNamed('Brand refresh for the spring campaign');
    expect(all.results).toContainEqual(
      expect.objectContaining({
        type: 'inquiry.created',
        title: 'New inquiry assigned to you: Brand refresh for the spring campaign',
        content: `You are responsible for the new inquiry #${brand.uniqueId} "Brand refresh for the spring campaign".`,
        inquiry: { id: brand.id },
      }),
    );
    const kim = b.ids.members.kim!;
    const own = await get(`/v1/notification?member_id=${kim}`);
    expect(own.results.length).toBeGreaterThan(0);
    expect(own.results.every((n: { member: { id: number } }) => n.member.id === kim)).toBe(true);

    const outbox = await findOutboxByBusiness(t.testDb.db, b.businessId);
    expect(outbox).toHaveLength(all.results.length);
    expect(outbox.every((r) => r.delivered_at !== null && r.email_at !== null)).toBe(true);
    const emls = fs.readdirSync(path.join(t.config.dataDir, 'mail')).filter((f) => f.endsWith('.eml'));
    expect(emls).toHaveLength(outbox.length);
  });

  it('a storage that refuses the demo files does not stop the demo: it is made without them, with a warning', async () => {
    const refusing: Storage = Object.assign(
      Object.create(Object.getPrototypeOf(t.app.storage) as object) as Storage,
      t.app.storage,
      {
        put: () => Promise.reject(new Error('bucket unreachable')),
      },
    );
    const warnings: string[] = [];
    const demo = await createDemo(t.testDb.db, t.masterKey, { storage: refusing, warn: (m) => warnings.push(m) });
    expect(warnings).toEqual(DEMO_ATTACHMENTS.map((a) => `demo attachment "${a.name}" not stored: bucket unreachable`));
    const other = {
      apiKey: demo.apiKey,
      secretKey: demo.secretKey,
      businessId: demo.business.id,
      ids: demo.catalog,
      timezone: demo.business.timezone,
    };
    const list = await call(other, { method: 'GET', url: '/v1/inquiry?page_size=100' });
    expect(list.status).toBe(200);
    for (const item of list.body.results as { id: number }[]) {
      expect((await call(other, { method: 'GET', url: `/v1/inquiry/${item.id}` })).body.fileSet).toEqual([]);
    }
  });
});
