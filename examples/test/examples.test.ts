/**
 * The examples run against a demo server: the app listening on port 0 with signatures required and the demo
 * business (`createDemo`, what `npm start` creates), each example's `main` called with that server's
 * address and credentials.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../../src/demo/demo.ts';
import { createStorage } from '../../src/modules/file/create-storage.ts';
import { buildTestApp, type TestApp } from '../../test/setup/build-test-app.ts';
import { main as createInquiry } from '../create-inquiry-with-attachment.ts';
import { main as inquiriesOfMonth } from '../inquiries-of-month.ts';
import { main as listClients } from '../list-clients.ts';
import { main as verifyWebhook } from '../verify-webhook.ts';

let t: TestApp;
let env: Record<string, string>;
beforeAll(async () => {
  t = await buildTestApp({ BIZAPI_SIGNATURE_MODE: 'required' });
  const base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  const demo = await createDemo(t.testDb.db, t.masterKey, {
    storage: await createStorage(t.config, t.masterKey),
    deliver: t.config,
    warn: () => undefined,
  });
  env = { BIZAPI_URL: base, BIZAPI_API_KEY: demo.apiKey, BIZAPI_SECRET_KEY: demo.secretKey };
}, 60_000);
afterAll(async () => {
  await t.close();
});

describe('examples/', () => {
  it('list-clients: a page, a search, every client', async () => {
    const r = await listClients(env, 'a');
    expect(r.firstPage.length).toBeGreaterThan(0);
    expect(r.total).toBeGreaterThanOrEqual(r.firstPage.length);
    expect(r.matching.length).toBeGreaterThan(0);
    expect(r.matching.length).toBeLessThanOrEqual(r.total);
  });

  it('create-inquiry-with-attachment: upload, attach, download the same bytes', async () => {
    const r = await createInquiry(env);
    expect(r).toMatchObject({ file: 'Proposal v1.pdf', sameBytes: true });
    expect(r.inquiryId).toBeGreaterThan(0);
  });

  it('inquiries-of-month: walks every inquiry created this month', async () => {
    const month = new Date().toISOString().slice(0, 7);
    const r = await inquiriesOfMonth(env, month);
    expect(r.total).toBeGreaterThan(0);
    expect(Object.values(r.byStatus).reduce((a, b) => a + b, 0)).toBe(r.total);
  });

  it('verify-webhook --self-test: a signed delivery 204, a tampered one 400', async () => {
    expect(await verifyWebhook({}, true)).toEqual({
      signed: 204,
      tampered: 400,
      events: [{ type: 'inquiry.created', data: { id: 1 } }],
    });
  });
});
