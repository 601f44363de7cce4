/**
 * Every `{detail}` error body carries a machine `code` (docs/api.md#errors): DRF's `default_code` of its
 * exception (`parse_error`, `not_found`, `method_not_allowed`, `unsupported_media_type`, `throttled`, `error`,
 * …); 401/403 keep their own codes; a 400 field map keeps DRF's shape (no top-level `code`).
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import errorHandler from '../../src/plugins/error-handler.ts';
import { ServiceUnavailable } from '../../src/shared/errors.ts';
import { buildSiblingApp, buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../setup/factories.ts';
import { apiClient } from '../setup/api-client.ts';

let t: TestApp;
const { raw } = apiClient(() => t.app);
let b: TestBusiness;
beforeAll(async () => {
  t = await buildTestApp();
  b = await newBusiness(t);
});
afterAll(async () => {
  await t.close();
});

describe('error codes through HTTP', () => {
  it('400 field map: DRF shape, no top-level code', async () => {
    const res = await raw(b, { method: 'POST', url: '/v1/client', body: {} });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.companyName).toEqual(['This field is required.']);
    expect(body).not.toHaveProperty('code');
    expect(body).not.toHaveProperty('detail');
  });

  it('400 malformed JSON → parse_error', async () => {
    const res = await raw(b, {
      method: 'POST',
      url: '/v1/client',
      raw: { payload: '{"companyName": ', contentType: 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      detail: expect.stringMatching(/^JSON parse error - /),
      code: 'parse_error',
      requestId: res.headers['x-request-id'],
    });
  });

  it('400 malformed form → parse_error', async () => {
    const res = await raw(b, {
      method: 'POST',
      url: '/v1/client',
      raw: { payload: 'no boundary', contentType: 'multipart/form-data; boundary=zzz' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'parse_error' });
  });

  it('404 → not_found, for an unknown id and an unknown path', async () => {
    for (const url of ['/v1/client/999999999', '/v1/no-such-thing']) {
      const res = await raw(b, { method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({
        detail: 'Not found.',
        code: 'not_found',
        requestId: res.headers['x-request-id'],
      });
    }
  });

  it('405 → method_not_allowed', async () => {
    const res = await raw(b, { method: 'PUT', url: '/v1/client', body: {} });
    expect(res.statusCode).toBe(405);
    expect(res.json()).toEqual({
      detail: 'Method "PUT" not allowed.',
      code: 'method_not_allowed',
      requestId: res.headers['x-request-id'],
    });
  });

  it('413 → payload_too_large, 415 → unsupported_media_type', async () => {
    const big = await raw(b, {
      method: 'POST',
      url: '/v1/client',
      raw: { payload: JSON.stringify({ companyName: 'x'.repeat(1024 * 1024 + 10) }), contentType: 'application/json' },
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ code: 'payload_too_large' });
    const xml = await raw(b, {
      method: 'POST',
      url: '/v1/client',
      raw: { payload: '<a/>', contentType: 'application/xml' },
    });
    expect(xml.statusCode).toBe(415);
    expect(xml.json()).toEqual({
      detail: expect.any(String),
      code: 'unsupported_media_type',
      requestId: xml.headers['x-request-id'],
    });
  });

  it('401 and 403 keep their own codes', async () => {
    const none = await raw(undefined, { method: 'GET', url: '/v1/client' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ code: 'not_authenticated' });
    const bad = await raw(b, { method: 'GET', url: '/v1/client', signature: '0'.repeat(64) });
    expect(bad.statusCode).toBe(403);
    expect(bad.json()).toMatchObject({ code: 'signature_invalid' });
  });

  it('429 → throttled', async () => {
    const limited = await buildSiblingApp(t, { BIZAPI_RATE_LIMIT: '1' });
    try {
      const c = await newBusiness(t);
      await apiClient(limited).raw(c, { method: 'GET', url: '/v1/folder' });
      const res = await apiClient(limited).raw(c, { method: 'GET', url: '/v1/folder' });
      expect(res.statusCode).toBe(429);
      expect(res.json()).toMatchObject({ code: 'throttled', detail: expect.stringMatching(/^Request was throttled/) });
    } finally {
      await limited.close();
    }
  });

  it('500 → error (no stack), 503 → service_unavailable, from the one renderer', async () => {
    // A bare Fastify app with only the error renderer: no bizapi routes, no OpenAPI document, so app.inject.
    const app = Fastify({ logger: false });
    await app.register(errorHandler);
    app.get('/boom', async () => {
      throw new Error('secret internals');
    });
    app.get('/busy', async () => {
      throw new ServiceUnavailable(undefined, 3);
    });
    try {
      const boom = await app.inject({ method: 'GET', url: '/boom' });
      expect(boom.statusCode).toBe(500);
      expect(boom.json()).toEqual({ detail: 'A server error occurred.', code: 'error', requestId: expect.any(String) });
      const busy = await app.inject({ method: 'GET', url: '/busy' });
      expect(busy.statusCode).toBe(503);
      expect(busy.headers['retry-after']).toBe('3');
      expect(busy.json()).toMatchObject({ code: 'service_unavailable' });
    } finally {
      await app.close();
    }
  });
});
