/**
 * The OpenAPI document describes exactly the routes the server registers: every method and path the
 * server answers (HEAD aside) is an operation of the document, and every operation of the document is a
 * route. Derived from the running application, so it keeps holding as modules add routes. The only routes
 * left out are the documentation itself: the docs UI (`/docs…`) and the document (`/openapi.json`), and the
 * remote MCP endpoint (`/mcp`, JSON-RPC over Streamable HTTP) with its RFC 9728 metadata
 * (`/.well-known/oauth-protected-resource`): a protocol of its own, described in docs/mcp.md#remote-mcp, not
 * REST operations (as operations they would also become MCP tools of themselves).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { apiClient } from '../../setup/api-client.ts';

let t: TestApp;
const { raw } = apiClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Whether a route serves the documentation itself, or the remote MCP protocol (see the header). */
function isDocumentation(url: string): boolean {
  return (
    url === '/docs' ||
    url.startsWith('/docs/') ||
    url === '/openapi.json' ||
    url === '/mcp' ||
    url.startsWith('/.well-known/')
  );
}

describe('registered routes and the OpenAPI document', () => {
  it('are the same set of operations', async () => {
    const registered = new Set(
      t.app.registeredRoutes
        .filter((r) => !isDocumentation(r.url))
        .flatMap((r) => r.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${r.url.replace(/:(\w+)/g, '{$1}')}`)),
    );
    const doc = (await raw(undefined, { method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.keys(item)
          .filter((key) => METHODS.includes(key))
          .map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    expect([...registered].sort()).toEqual([...documented].sort());
    // The set is not trivially empty: the foundation's and this routes are in it.
    for (const op of ['GET /v1/client/{client_id}', 'GET /v1/log/', 'GET /healthz', 'GET /readyz', 'GET /metrics'])
      expect(registered).toContain(op);
  });
});
