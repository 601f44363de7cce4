/**
 * A malformed or tampered cursor answers 404 `{"detail": "Invalid cursor"}` on every paged list, as DRF's
 * `CursorPagination` does (issue 14; docs/api.md#pagination). Generated from the document: every documented
 * operation that takes `cursor`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../setup/factories.ts';
import { type Document, loadDocument } from '../setup/openapi-document.ts';
import { fillPath, type Records, securedOperations, seedRecords } from './fuzz-targets.ts';
import { apiClient } from '../setup/api-client.ts';

let t: TestApp;
const { call } = apiClient(() => t.app);
let doc: Document;
let b: TestBusiness;
let records: Records;
beforeAll(async () => {
  t = await buildTestApp({ BIZAPI_RATE_LIMIT: '0' });
  doc = await loadDocument(t.app);
  b = await newBusiness(t, { plan: 'AGENCY' });
  records = await seedRecords(t.app, b, doc);
});
afterAll(async () => {
  await t.close();
});

describe('an invalid cursor on every paged list', () => {
  it('answers 404 {"detail": "Invalid cursor"} for garbage, a tampered cursor and another list’s cursor', async () => {
    const lists = securedOperations(doc).filter((o) => o.method === 'GET' && o.query.some((q) => q.name === 'cursor'));
    expect(lists.length).toBeGreaterThanOrEqual(20);
    // A real cursor of the client list (two clients, one per page), and the same with one character changed.
    for (const name of ['A', 'B']) await call(b, { method: 'POST', url: '/v1/client', body: { companyName: name } });
    const page = await call(b, { method: 'GET', url: '/v1/client?page_size=1' });
    const real = new URL(page.body.next as string).searchParams.get('cursor')!;
    const tampered = (real[0] === 'A' ? 'B' : 'A') + real.slice(1);
    for (const op of lists) {
      const url = fillPath(op.path, records);
      const bad = op.path === '/v1/client' ? ['garbage', tampered, `${real}x`] : ['garbage', tampered, real];
      for (const cursor of bad) {
        const res = await call(b, { method: 'GET', url: `${url}?cursor=${encodeURIComponent(cursor)}` });
        expect(res.status, `${op.operationId} cursor=${cursor}`).toBe(404);
        expect(res.body).toEqual({
          detail: 'Invalid cursor',
          code: 'not_found',
          requestId: res.headers['x-request-id'],
        });
      }
    }
  });
});
