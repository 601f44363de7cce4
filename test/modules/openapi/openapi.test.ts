/** The OpenAPI document and the docs UI: public, complete, and generated from the route schemas. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { dereference } from '../../setup/openapi-document.ts';
import { apiClient } from '../../setup/api-client.ts';

let t: TestApp;
const { raw } = apiClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

type Operation = {
  operationId?: string;
  summary?: string;
  requestBody?: { content: Record<string, { example?: unknown; schema?: unknown }> };
  responses: Record<string, { content?: Record<string, { example?: unknown }> }>;
};

async function document(url = '/openapi.json') {
  const res = await raw(undefined, { method: 'GET', url });
  expect(res.statusCode).toBe(200);
  return res.json() as {
    openapi: string;
    paths: Record<string, Record<string, Operation>>;
    components: any;
    security: unknown;
  };
}

describe('GET /openapi.json', () => {
  it('is OpenAPI 3.1 and needs no key, with or without the trailing slash', async () => {
    const doc = await document();
    expect(doc.openapi).toBe('3.1.0');
    expect((await document('/openapi.json/')).paths).toEqual(doc.paths);
  });

  it('declares X-API-Key and X-Signature as security schemes required by default', async () => {
    const doc = await document();
    // Named as docs/authentication.md names them (the docs page's "Authorize" boxes), each explained.
    expect(Object.keys(doc.components.securitySchemes)).toEqual(['X-API-Key', 'X-Signature', 'Metrics-Token']);
    expect(doc.components.securitySchemes['X-API-Key']).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
      description: expect.stringContaining('API key'),
    });
    expect(doc.components.securitySchemes['X-Signature']).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-Signature',
      description: expect.stringContaining('secret key'),
    });
    expect(doc.components.securitySchemes['Metrics-Token']).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      description: expect.stringContaining('BIZAPI_METRICS_TOKEN'),
    });
    expect(doc.security).toEqual([{ 'X-API-Key': [], 'X-Signature': [] }]);
  });

  it('gives every operation a unique operationId, a summary and an example', async () => {
    const doc = await document();
    const ids = new Set<string>();
    let count = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        count += 1;
        const where = `${method.toUpperCase()} ${path}`;
        expect(op.operationId, where).toMatch(/^[a-z][a-z_]+[a-z]$/);
        expect(ids.has(op.operationId!), `${where} duplicates ${op.operationId}`).toBe(false);
        ids.add(op.operationId!);
        expect(op.summary, where).toBeTruthy();
        const success = op.responses['200'] ?? op.responses['201'] ?? op.responses['202'] ?? op.responses['204'];
        expect(success, where).toBeDefined();
        const examples = [
          ...Object.values(op.requestBody?.content ?? {}).map((m) => m.example),
          ...Object.values(success?.content ?? {}).map((m) => m.example),
        ].filter((e) => e !== undefined);
        if (!op.responses['204']) expect(examples.length, `${where} has no example`).toBeGreaterThan(0);
      }
    }
    expect(count).toBeGreaterThanOrEqual(12);
    expect(doc.paths['/v1/client/{client_id}']).toBeDefined();
    expect(doc.paths['/openapi.json']).toBeUndefined();
  });

  it('names every response: none reads "Default Response" (issue 36: 74 did)', async () => {
    const doc = await document();
    const unnamed: string[] = [];
    const responses: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const [status, res] of Object.entries(op.responses ?? {})) {
          const description = (res as { description?: string; $ref?: string }).description;
          responses.push(`${method} ${path} ${status}`);
          if (description === 'Default Response' || description === '')
            unnamed.push(`${method.toUpperCase()} ${path} ${status}`);
        }
      }
    }
    expect(responses.length).toBeGreaterThan(100);
    expect(unnamed).toEqual([]);
    expect((doc.paths['/v1/client']!.post!.responses['201'] as { description?: string }).description).toBe(
      'Created: `ClientListItem`.',
    );
  });

  it('marks extensions with x-extension: true', async () => {
    const doc = await dereference(await document());
    const get = doc.paths['/v1/client/{client_id}']!.get!;
    const schema = (get.responses['200']!.content!['application/json'] as { schema: any }).schema;
    expect(schema.properties.isHidden['x-extension']).toBe(true);
  });
});

describe('GET /docs', () => {
  it('serves the docs UI and its assets from the server itself', async () => {
    const page = await raw(undefined, { method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).not.toMatch(/https?:\/\/(?!127\.0\.0\.1|localhost)[^"']*\.js/);
    const bundle = await raw(undefined, { method: 'GET', url: '/docs/static/swagger-ui-bundle.js' });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.body.length).toBeGreaterThan(100_000);
  });

  it('titles the tab and shows the logo of bizapi, and never upgrades requests to https (issue 36)', async () => {
    const page = await raw(undefined, { method: 'GET', url: '/docs/' });
    expect(page.body).toContain('<title>bizapi — API docs</title>');
    expect(page.body).toContain('theme/favicon.svg');
    expect(page.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    const init = await raw(undefined, { method: 'GET', url: '/docs/static/swagger-initializer.js' });
    expect(init.body).toContain(`data:image/svg+xml;base64,`);
    expect(init.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
  });
});
