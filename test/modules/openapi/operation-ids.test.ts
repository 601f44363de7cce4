/**
 * Operation ids (issue 14; docs/api.md#migrating-from-the-reference-service): every operation of the reference
 * service has the reference's own `operationId` (the table of 72 copied to `test/fixtures/`), so that tools
 * generated from either document (MCP tool lists, SDK method names) map one to one; every other operation (the
 * extensions) is named by the same convention.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { apiClient } from '../../setup/api-client.ts';

interface Row {
  method: string;
  path: string;
  operationId: string;
}

/** The rows of the copied table: `| 1 | GET | \`/v1/client\` | \`client_list\` | … |`. */
function referenceTable(): Row[] {
  const text = fs.readFileSync(new URL('../../fixtures/reference-operation-ids.md', import.meta.url), 'utf8');
  return [...text.matchAll(/^\| \d+ \| (GET|POST|PATCH|DELETE) \| `([^`]+)` \| `(\w+)` \|/gm)].map((m) => ({
    method: m[1]!.toLowerCase(),
    path: m[2]!,
    operationId: m[3]!,
  }));
}

/**
 * Actions: a POST to `…/{id}/<verb>` that acts on the item rather than creating a sub-record is named by the
 * action's own verb (`webhook_rotate_secret`, `webhook_delivery_retry`, `webhook_resume`).
 */
const ACTIONS = new Set(['rotate_secret', 'test', 'retry', 'resume']);

/**
 * The convention (drf-spectacular's): the path's literal segments after `/v1` joined by `_` (`root` for `/`),
 * then `list` (a GET of a collection under `/v1`), `retrieve` (a GET of one item, or of anything outside
 * `/v1`), `create`, `update` (PUT), `partial_update` or `destroy`; an action ({@link ACTIONS}) ends with its
 * verb alone.
 */
function conventionalId(method: string, path: string): string {
  const segments = path.split('/').filter((s) => s !== '' && !s.startsWith('{'));
  if (segments[0] === 'v1') segments.shift();
  if (method === 'post' && /\}\/\w+$/.test(path) && ACTIONS.has(segments.at(-1)!)) return segments.join('_');
  const item = /\}\/?$/.test(path);
  const verbs: Record<string, string> = { post: 'create', put: 'update', patch: 'partial_update', delete: 'destroy' };
  const verb = method === 'get' ? (item || !path.startsWith('/v1/') ? 'retrieve' : 'list') : verbs[method]!;
  return `${segments.join('_') || 'root'}_${verb}`;
}

let t: TestApp;
const { raw } = apiClient(() => t.app);
let paths: Record<string, Record<string, { operationId?: string }>>;
beforeAll(async () => {
  t = await buildTestApp();
  paths = (await raw(undefined, { method: 'GET', url: '/openapi.json' })).json().paths;
});
afterAll(async () => {
  await t.close();
});

describe('operation ids', () => {
  it('the copied table has the 72 operations of the reference', () => {
    const rows = referenceTable();
    expect(rows).toHaveLength(72);
    expect(new Set(rows.map((r) => r.operationId)).size).toBe(72);
    // The convention reproduces every reference id, so it is the right rule for the extensions too.
    for (const r of rows) expect(conventionalId(r.method, r.path), `${r.method} ${r.path}`).toBe(r.operationId);
  });

  it('every operation of the reference has the reference’s operationId', () => {
    const missing: string[] = [];
    for (const r of referenceTable()) {
      const op = paths[r.path]?.[r.method];
      if (!op) missing.push(`${r.method.toUpperCase()} ${r.path}`);
      else expect(op.operationId, `${r.method.toUpperCase()} ${r.path}`).toBe(r.operationId);
    }
    expect(missing).toEqual([]);
  });

  it('every other operation (the extensions) is named by the same convention', () => {
    const reference = new Set(referenceTable().map((r) => `${r.method} ${r.path}`));
    const others: string[] = [];
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (reference.has(`${method} ${path}`)) continue;
        others.push(op.operationId!);
        expect(op.operationId, `${method.toUpperCase()} ${path}`).toBe(conventionalId(method, path));
      }
    }
    expect(others).toEqual(
      expect.arrayContaining([
        'notification_list',
        'settlement_status_history_list',
        'healthz_retrieve',
        'root_retrieve',
      ]),
    );
  });
});
