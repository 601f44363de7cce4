/**
 * An empty body is no body, whatever its `Content-Type` says (issue 14; docs/api.md#request-bodies): zero
 * bytes sent as `application/json`, `application/x-www-form-urlencoded` or `multipart/form-data` read as
 * `{}`, and the signature covers the empty string. Real clients of the reference service send
 * `Content-Type: application/json` on every request, so every `DELETE` they make depends on this.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBody } from '../../src/modules/auth/hmac.ts';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../setup/factories.ts';
import { type Document, loadDocument } from '../setup/openapi-document.ts';
import { fillPath, securedOperations, seedRecords } from './fuzz-targets.ts';
import { apiClient } from '../setup/api-client.ts';

let t: TestApp;
const { call } = apiClient(() => t.app);
let doc: Document;
beforeAll(async () => {
  t = await buildTestApp({ BIZAPI_RATE_LIMIT: '0' });
  doc = await loadDocument(t.app);
});
afterAll(async () => {
  await t.close();
});

/** The three request encodings, each with zero bytes of body. */
const EMPTY_BODIES = [
  { name: 'application/json', contentType: 'application/json' },
  { name: 'application/json; charset=utf-8', contentType: 'application/json; charset=utf-8' },
  { name: 'urlencoded', contentType: 'application/x-www-form-urlencoded' },
  { name: 'multipart', contentType: 'multipart/form-data; boundary=----empty' },
] as const;

/** Sends `method url` with the given content type and zero bytes, signed over the empty string. */
function sendEmpty(
  b: TestBusiness,
  method: 'GET' | 'POST' | 'DELETE' | 'PATCH',
  url: string,
  contentType: string,
  signature?: string,
) {
  return call(b, { method, url, raw: { payload: '', contentType }, ...(signature !== undefined && { signature }) });
}

describe('DELETE with a content type and zero bytes', () => {
  for (const { name, contentType } of EMPTY_BODIES) {
    it(`deletes every deletable resource (${name}): 204, then 404`, async () => {
      const b = await newBusiness(t, { plan: 'AGENCY' });
      const records = await seedRecords(t.app, b, doc);
      // Newest record first (children and records that reference others were made after what they point
      // at), so no deletion takes another record with it before that record's own turn.
      const order = Object.keys(records);
      const collection = (path: string) => path.slice(0, path.lastIndexOf('/{'));
      const deletes = securedOperations(doc)
        .filter((o) => o.method === 'DELETE')
        .sort((x, y) => order.indexOf(collection(y.path)) - order.indexOf(collection(x.path)));
      expect(deletes.length).toBeGreaterThanOrEqual(12);
      for (const op of deletes) {
        const url = fillPath(op.path, records);
        expect(url, `no record seeded for ${op.path}`).not.toContain('2147483000');
        const res = await sendEmpty(b, 'DELETE', url, contentType);
        expect(res.status, `${op.operationId} ${url}: ${JSON.stringify(res.body)}`).toBe(204);
        const again = await sendEmpty(b, 'DELETE', url, contentType);
        expect(again.status, `${op.operationId} ${url} deleted twice`).toBe(404);
        if (doc.operations.some((o) => o.method === 'GET' && o.path === op.path)) {
          expect((await call(b, { method: 'GET', url })).status, `${url} still readable`).toBe(404);
        }
      }
    });
  }

  it('checks the signature over the empty string: any other signature is 403', async () => {
    const b = await newBusiness(t);
    const created = await call(b, { method: 'POST', url: '/v1/client', body: { companyName: 'Doomed' } });
    const url = `/v1/client/${created.body.id}`;
    const wrong = await sendEmpty(b, 'DELETE', url, 'application/json', signBody(b.secretKey, '{}'));
    expect(wrong.status).toBe(403);
    expect(wrong.body.code).toBe('signature_invalid');
    expect((await call(b, { method: 'GET', url })).status).toBe(200);
    const right = await sendEmpty(b, 'DELETE', url, 'application/json', signBody(b.secretKey, ''));
    expect(right.status).toBe(204);
  });
});

describe('POST /v1/inquiry with no body', () => {
  it('creates an inquiry with the defaults when nothing at all is sent', async () => {
    const b = await newBusiness(t);
    const res = await call(b, { method: 'POST', url: '/v1/inquiry' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      name: '의뢰 제목',
      estimate: '0.00',
      client: null,
      status: { id: b.ids.statuses.new },
    });
  });

  for (const { name, contentType } of EMPTY_BODIES) {
    it(`creates an inquiry with the defaults from zero bytes of ${name}`, async () => {
      const b = await newBusiness(t);
      const res = await sendEmpty(b, 'POST', '/v1/inquiry', contentType);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body).toMatchObject({
        name: '의뢰 제목',
        estimate: '0.00',
        inChargeSet: [],
        status: { folder: { id: b.ids.folders.sales } },
      });
      const read = await call(b, { method: 'GET', url: `/v1/inquiry/${res.body.id}` });
      expect(read.status).toBe(200);
    });
  }
});

describe('POST /v1/inquiry/{id}/text_history with an empty body', () => {
  for (const { name, contentType } of EMPTY_BODIES) {
    it(`answers 400 on content, not a parse error (${name})`, async () => {
      const b = await newBusiness(t);
      const inquiry = await call(b, { method: 'POST', url: '/v1/inquiry', body: {} });
      const url = `/v1/inquiry/${inquiry.body.id}/text_history`;
      const res = await sendEmpty(b, 'POST', url, contentType);
      expect(res.status).toBe(400);
      expect(res.body.content).toEqual(['This field is required.']);
      expect(res.body.detail).toBeUndefined();
      expect((await call(b, { method: 'GET', url })).body.results).toEqual([]);
    });
  }

  it('PATCH with zero bytes of JSON changes nothing and answers 200', async () => {
    const b = await newBusiness(t);
    const created = await call(b, { method: 'POST', url: '/v1/client', body: { companyName: 'Same' } });
    const res = await sendEmpty(b, 'PATCH', `/v1/client/${created.body.id}`, 'application/json');
    expect(res.status).toBe(200);
    expect(res.body.companyName).toBe('Same');
  });
});

describe('GET with a content type and zero bytes', () => {
  it('answers like a GET without one', async () => {
    const b = await newBusiness(t);
    await call(b, { method: 'POST', url: '/v1/client', body: { companyName: 'Listed' } });
    for (const { contentType } of EMPTY_BODIES) {
      const res = await sendEmpty(b, 'GET', '/v1/client', contentType);
      expect(res.status).toBe(200);
      expect(res.body.results.map((c: { companyName: string }) => c.companyName)).toEqual(['Listed']);
    }
  });

  it('still refuses a non-empty malformed JSON body with a parse error', async () => {
    const b = await newBusiness(t);
    const res = await call(b, {
      method: 'POST',
      url: '/v1/client',
      raw: { payload: ' ', contentType: 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/^JSON parse error - /);
  });
});
