/**
 * The machinery of the generated suites (issue 8) can fail: the conformance check rejects undocumented
 * statuses, undeclared and missing properties and 500s, and the schema arbitraries produce values that the
 * document's own schemas accept (valid) and reject (hostile).
 */
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness } from '../setup/factories.ts';
import { checkResponse, closeObjects, type Document, findOperation, loadDocument } from '../setup/openapi-document.ts';
import { invalid, valid } from '../setup/schema-arbitrary.ts';
import { apiClient } from '../setup/api-client.ts';

let t: TestApp;
const { call } = apiClient(() => t.app);
let doc: Document;
beforeAll(async () => {
  t = await buildTestApp();
  doc = await loadDocument(t.app);
});
afterAll(async () => {
  await t.close();
});

describe('checkResponse', () => {
  it('accepts a real answer and rejects undocumented statuses, extra or missing properties and 500s', async () => {
    const b = await newBusiness(t);
    const created = await call(b, { method: 'POST', url: '/v1/client', body: { companyName: 'Conformance Co' } });
    expect(created.status).toBe(201);
    const url = `/v1/client/${created.body.id}`;
    const got = await call(b, { method: 'GET', url });
    const body = JSON.stringify(got.body);
    expect(checkResponse(doc, 'GET', url, 200, body)).toEqual([]);
    expect(checkResponse(doc, 'GET', url, 418, body).join()).toMatch(/418 is not documented/);
    expect(checkResponse(doc, 'GET', url, 500, '{}').join()).toMatch(/500/);
    expect(checkResponse(doc, 'GET', url, 200, JSON.stringify({ ...got.body, secret: 'x' })).join()).toMatch(/secret/);
    const { id: _id, ...withoutId } = got.body;
    expect(checkResponse(doc, 'GET', url, 200, JSON.stringify(withoutId)).join()).toMatch(/id/);
    expect(checkResponse(doc, 'GET', url, 200, 'not json').join()).toMatch(/not JSON/);
  });

  it('matches literal segments before parameters and leaves undocumented routes alone', () => {
    expect(findOperation(doc, 'GET', '/v1/client/status')?.path).toBe('/v1/client/status');
    expect(findOperation(doc, 'GET', '/v1/client/12?x=1')?.path).toBe('/v1/client/{client_id}');
    expect(checkResponse(doc, 'GET', '/docs/static/index.html', 200, '<html>')).toEqual([]);
  });
});

describe('schema arbitraries', () => {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);

  it('valid() produces bodies every documented request schema accepts', () => {
    const withBodies = doc.operations.filter((o) => o.requestSchema);
    expect(withBodies.length).toBeGreaterThan(0);
    for (const op of withBodies) {
      const validate = ajv.compile(closeObjects(op.requestSchema) as object);
      fc.assert(
        fc.property(valid(op.requestSchema!), (body) => {
          expect(validate(body), `${op.operationId}: ${JSON.stringify(validate.errors)}`).toBe(true);
        }),
        { numRuns: 30, seed: 1 },
      );
    }
  });

  it('invalid() produces mostly bodies the schema rejects', () => {
    const op = doc.operations.find((o) => o.operationId === 'client_create')!;
    const validate = ajv.compile(op.requestSchema!);
    const samples = fc.sample(invalid(op.requestSchema!), { numRuns: 100, seed: 2 });
    const rejected = samples.filter((s) => !validate(s)).length;
    expect(rejected).toBeGreaterThan(60);
  });
});
