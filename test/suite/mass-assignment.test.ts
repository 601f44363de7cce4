/**
 * Mass assignment (issue 8): read-only and internal properties sent in a body — `id`, `created`,
 * `uniqueId`, `dDay`, `typeAlias`, business ids, key material — never change anything, on every documented
 * POST and PATCH. The server may ignore them or refuse the body with a 400; either way the stored record
 * keeps the values the server chose, and it stays in the business that made the call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../setup/factories.ts';
import { type Document, loadDocument } from '../setup/openapi-document.ts';
import { fillPath, type Records, securedOperations, seedRecords } from './fuzz-targets.ts';
import { apiClient } from '../setup/api-client.ts';

/** What an attacker would like to set. */
const FORGED = {
  id: 987654,
  created: '2000-01-01T00:00:00.000Z',
  uniqueId: 'FORGED-1',
  dDay: 999,
  typeAlias: 'FORGED',
  businessId: 1,
  business_id: 1,
  business: { id: 1 },
  apiKey: 'bz_forged',
  secretKey: 'forged',
  deletedAt: '2000-01-01T00:00:00.000Z',
  deleted_at: '2000-01-01T00:00:00.000Z',
  requestId: 'forged',
};
const READ_ONLY = ['id', 'created', 'uniqueId', 'dDay', 'typeAlias'] as const;

let t: TestApp;
const { call } = apiClient(() => t.app);
let doc: Document;
let a: TestBusiness;
let b: TestBusiness;
let records: Records;
beforeAll(async () => {
  t = await buildTestApp({ BIZAPI_RATE_LIMIT: '0' });
  doc = await loadDocument(t.app);
  a = await newBusiness(t, { plan: 'AGENCY' });
  b = await newBusiness(t, { plan: 'AGENCY' });
  records = await seedRecords(t.app, a, doc);
});
afterAll(async () => {
  await t.close();
});

const collected = await (async () => {
  const probe = await buildTestApp();
  try {
    return securedOperations(await loadDocument(probe.app)).filter(
      (o) => (o.method === 'POST' || o.method === 'PATCH') && o.requestSchema,
    );
  } finally {
    await probe.close();
  }
})();

describe('read-only and internal properties in a body change nothing', () => {
  it('covers at least one operation', () => {
    expect(collected.length).toBeGreaterThan(0);
  });
  for (const { method, path } of collected) {
    it(`${method} ${path}`, async () => {
      const op = doc.operations.find((o) => o.method === method && o.path === path)!;
      const url = fillPath(op.path, records);
      const itemUrl = method === 'PATCH' ? url : undefined;
      const before = itemUrl ? await call(a, { method: 'GET', url: itemUrl }) : undefined;
      const base =
        method === 'POST' && op.requestExample && typeof op.requestExample === 'object' ? op.requestExample : {};
      const res = await call(a, { method, url, body: { ...base, ...FORGED } });
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
      if (res.status >= 300) {
        if (before) expect((await call(a, { method: 'GET', url: itemUrl! })).body).toEqual(before.body);
        return;
      }
      // A property the request schema declares is writable there (text history's `created`, for one).
      const writable = new Set(Object.keys((op.requestSchema!.properties ?? {}) as object));
      const readOnly = READ_ONLY.filter((k) => !writable.has(k));
      for (const key of readOnly) {
        if (key in res.body) expect(res.body[key], key).not.toEqual(FORGED[key]);
      }
      for (const key of ['businessId', 'business_id', 'business', 'apiKey', 'secretKey', 'deletedAt', 'deleted_at']) {
        expect(res.body, key).not.toHaveProperty(key);
      }
      if (before) {
        const after = await call(a, { method: 'GET', url: itemUrl! });
        for (const key of readOnly)
          if (key in before.body && key !== 'dDay') expect(after.body[key], key).toEqual(before.body[key]);
      }
      // The record is the caller's: another business cannot see it.
      const created = method === 'POST' && typeof res.body.id === 'number' ? `${url}/${res.body.id}` : itemUrl;
      if (created && doc.operations.some((o) => o.method === 'GET' && o.matcher.test(created))) {
        expect((await call(a, { method: 'GET', url: created })).status).toBe(200);
        expect((await call(b, { method: 'GET', url: created })).status).toBe(404);
      }
    });
  }
});
