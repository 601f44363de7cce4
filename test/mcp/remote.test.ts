/**
 * Remote MCP (docs/mcp.md#remote-mcp): the official SDK's `Client` over its `StreamableHTTPClientTransport`
 * talks to `/mcp` of two live `bin/bizapi serve` processes on the test database (a SQLite file shared by both,
 * or the run's PostgreSQL). MCP tokens are issued, listed and revoked with the `bizapi key` CLI, as an
 * operator does. A third process runs with a rate limit of 5 calls a minute.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../setup/factories.ts';
import { type BizapiProcess, runUntilExit, serverEnv, startServer } from '../setup/server-process.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 90_000 });

let t: TestApp;
let dataDir: string;
let a: BizapiProcess;
let b: BizapiProcess;
let limited: BizapiProcess;
let biz: TestBusiness;
beforeAll(async () => {
  t = await buildTestApp();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-remote-mcp-'));
  [a, b, limited] = await Promise.all([
    startServer({ databaseUrl: t.testDb.url, dataDir, env: { BIZAPI_SIGNATURE_MODE: 'required' } }),
    startServer({ databaseUrl: t.testDb.url, dataDir, env: { BIZAPI_SIGNATURE_MODE: 'required' } }),
    startServer({ databaseUrl: t.testDb.url, dataDir, env: { BIZAPI_RATE_LIMIT: '5' } }),
  ]);
  biz = await newBusiness(t);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop(), limited?.stop()]);
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Runs `bizapi key …` on the test database and answers its JSON output. */
async function cli(...args: string[]): Promise<any> {
  const r = await runUntilExit(['key', ...args], serverEnv({ databaseUrl: t.testDb.url, dataDir }));
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/** An MCP token of `businessId` issued with `bizapi key create --mcp <flags>`. */
async function issue(businessId: number, ...flags: string[]): Promise<{ mcpToken: string; id: number }> {
  const out = await cli('create', '--business', String(businessId), '--mcp', ...flags);
  expect(out.mcpToken).toMatch(new RegExp(`^bzm_${businessId}_[A-Za-z0-9_-]{43}$`));
  return out;
}

/** A connected official MCP client over Streamable HTTP to `/mcp` of `server`, sending `headers` on every request. */
async function connect(server: BizapiProcess, headers: Record<string, string>) {
  const client = new Client({ name: 'bizapi-remote-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`), { requestInit: { headers } }),
  );
  return {
    client,
    call: async (name: string, args: Record<string, unknown> = {}) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult,
    op: async (operation_id: string, args: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
      (await client.callTool({
        name: 'call_operation',
        arguments: { operation_id, arguments: args, ...extra },
      })) as CallToolResult,
    close: () => client.close(),
  };
}

function textOf(r: CallToolResult): string {
  return (r.content[0] as { text: string }).text;
}
function ok(r: CallToolResult): any {
  expect(r.isError ?? false, textOf(r)).toBe(false);
  return r.structuredContent;
}

/** A raw JSON-RPC POST to `/mcp` (what an MCP client sends first), answering the status, headers and body. */
async function rawPost(server: BizapiProcess, headers: Record<string, string>) {
  const res = await fetch(`http://127.0.0.1:${server.port}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  return { status: res.status, headers: res.headers, body: await res.text() };
}

/** The /v1 operation ids of the served document. */
function v1OperationIds(): string[] {
  const doc = t.app.swagger() as unknown as { paths: Record<string, Record<string, { operationId?: string }>> };
  const ids: string[] = [];
  for (const [p, item] of Object.entries(doc.paths)) {
    // the event stream never ends, so it is no tool (mcp/src/tools.ts)
    if (!p.startsWith('/v1') || p === '/v1/event/stream') continue;
    for (const [method, op] of Object.entries(item))
      if (['get', 'post', 'patch', 'put', 'delete'].includes(method)) ids.push(op.operationId!);
  }
  return ids.sort();
}

/** The size of a tool list in tokens, as issue 37 measures it: its JSON size / 4. */
const tokens = (tools: Tool[]) => Math.ceil(JSON.stringify({ tools }).length / 4);

describe('the token lifecycle', () => {
  it('issues a token, serves it on any process, lists it without the token, and refuses it at once everywhere once revoked', async () => {
    const { mcpToken, id } = await issue(biz.businessId, '--name', 'Claude');
    const auth = { Authorization: `Bearer ${mcpToken}` };
    const onA = await connect(a, auth);
    const created = ok(await onA.op('client_create', { body: { companyName: 'Remote Corp.' } }));
    expect(created).toMatchObject({ id: expect.any(Number), companyName: 'Remote Corp.' });
    // Stateless: another process answers the same token, and reads what the first one wrote.
    const onB = await connect(b, auth);
    expect(ok(await onB.op('client_retrieve', { client_id: created.id }))).toMatchObject({
      companyName: 'Remote Corp.',
    });

    const listed = await cli('list', '--business', String(biz.businessId));
    const row = listed.mcpTokens.find((x: { id: number }) => x.id === id);
    expect(row).toMatchObject({
      prefix: mcpToken.slice(0, `bzm_${biz.businessId}_`.length + 8),
      name: 'Claude',
      readOnly: false,
      tools: null,
      revokedAt: null,
    });
    expect(JSON.stringify(listed)).not.toContain(mcpToken);
    // Stored hashed: the database holds no token.
    const stored = await t.testDb.db
      .selectFrom('mcp_token')
      .selectAll()
      .where('business_id', '=', biz.businessId)
      .execute();
    expect(JSON.stringify(stored)).not.toContain(mcpToken.slice(-43));
    // Never an API key.
    expect((await fetch(`http://127.0.0.1:${a.port}/v1/client`, { headers: { 'X-API-Key': mcpToken } })).status).toBe(
      401,
    );

    expect(await cli('revoke', row.prefix)).toEqual({ revoked: true, mcpTokenId: id });
    for (const [name, session] of [
      ['a', onA],
      ['b', onB],
    ] as const) {
      await expect(session.op('client_list'), name).rejects.toThrow(/Invalid or revoked MCP token/);
      await session.close();
    }
    for (const server of [a, b]) {
      const refused = await rawPost(server, auth);
      expect(refused.status).toBe(401);
      expect(JSON.parse(refused.body)).toMatchObject({
        detail: 'Invalid or revoked MCP token.',
        code: 'authentication_failed',
      });
    }
  });

  it('answers 401 with the resource metadata to a request without a token, and describes the resource (RFC 9728)', async () => {
    const none = await rawPost(a, {});
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="http://127.0.0.1:${a.port}/.well-known/oauth-protected-resource"`,
    );
    expect(JSON.parse(none.body)).toMatchObject({ detail: expect.stringContaining('Authorization: Bearer') });
    const meta = await (await fetch(`http://127.0.0.1:${a.port}/.well-known/oauth-protected-resource`)).json();
    expect(meta).toMatchObject({ resource: `http://127.0.0.1:${a.port}/mcp`, bearer_methods_supported: ['header'] });
    // Another business's id in a token does not help: the token is looked up in the business it names.
    const forged = await rawPost(a, { Authorization: `Bearer bzm_${biz.businessId}_${'A'.repeat(43)}` });
    expect(forged.status).toBe(401);
  });
});

describe('narrowing', () => {
  it('a read-only token offers only reads, and a header cannot widen it', async () => {
    const { mcpToken } = await issue(biz.businessId, '--read-only');
    const s = await connect(a, { Authorization: `Bearer ${mcpToken}`, 'X-MCP-Read-Only': 'false' });
    try {
      const refused = await s.op('client_create', { body: { companyName: 'Nope' } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/^unknown operation_id "client_create"/);
      ok(await s.op('client_list', { page_size: 1 }));
      const listed = ok(await s.call('list_operations'));
      expect(listed.operations.every((o: { method: string }) => o.method === 'GET')).toBe(true);
    } finally {
      await s.close();
    }
    const widen = await rawPost(a, { Authorization: `Bearer ${mcpToken}`, 'X-MCP-Tools': 'client_create' });
    expect(widen.status).toBe(403);
    expect(JSON.parse(widen.body).detail).toMatch(/client_create.*never widen/);
  });

  it('headers narrow a full token to reads and to a tool list (one tool per named operation)', async () => {
    const { mcpToken } = await issue(biz.businessId, '--tools', 'client_list,client_create,client_retrieve');
    const auth = { Authorization: `Bearer ${mcpToken}` };
    const ro = await connect(a, { ...auth, 'X-MCP-Read-Only': 'true' });
    try {
      expect(textOf(await ro.op('client_create', { body: { companyName: 'Nope' } }))).toMatch(/^unknown operation_id/);
      expect(textOf(await ro.op('inquiry_list'))).toMatch(/^unknown operation_id/); // outside the token's tools
    } finally {
      await ro.close();
    }
    const named = await connect(b, { ...auth, 'X-MCP-Tools': 'client_list' });
    try {
      expect((await named.client.listTools()).tools.map((x) => x.name)).toEqual(['client_list']);
      ok(await named.call('client_list', { page_size: 1 }));
    } finally {
      await named.close();
    }
    expect((await rawPost(a, { ...auth, 'X-MCP-Tools': 'inquiry_list' })).status).toBe(403);
    expect((await rawPost(a, { ...auth, 'X-MCP-Read-Only': 'maybe' })).status).toBe(400);
  });
});

describe('the tool lists', () => {
  it('the default list is three tools under 2,000 tokens; the full list is one per operation', async () => {
    const { mcpToken } = await issue(biz.businessId);
    const auth = { Authorization: `Bearer ${mcpToken}` };
    const d = await connect(a, auth);
    const full = await connect(a, { ...auth, 'X-MCP-Tool-List': 'full' });
    try {
      const defaults = (await d.client.listTools()).tools;
      expect(defaults.map((x) => x.name)).toEqual(['list_operations', 'describe_operation', 'call_operation']);
      expect(tokens(defaults)).toBeLessThan(2000);
      const all = (await full.client.listTools()).tools;
      expect(all.map((x) => x.name).sort()).toEqual(v1OperationIds());
      expect(tokens(all)).toBeGreaterThan(10 * tokens(defaults));
    } finally {
      await Promise.all([d.close(), full.close()]);
    }
  });

  it('a scripted client reaches every operation through the three default tools', async () => {
    const other = await newBusiness(t);
    const { mcpToken } = await issue(other.businessId);
    const s = await connect(b, { Authorization: `Bearer ${mcpToken}` });
    try {
      const listed = ok(await s.call('list_operations')).operations as { id: string; method: string; path: string }[];
      expect(listed.map((o) => o.id).sort()).toEqual(v1OperationIds());
      const description = (await s.client.listTools()).tools.find((x) => x.name === 'call_operation')!.description!;
      const answered = new Map<string, number>();
      for (const op of listed) {
        expect(description, op.id).toContain(op.id);
        const described = ok(await s.call('describe_operation', { operation_id: op.id }));
        const args: Record<string, unknown> = {};
        for (const name of Object.keys(described.inputSchema.properties ?? {}))
          if (/_id$/.test(name) && op.path.includes(`{${name}}`)) args[name] = 999_999_999;
        if ((described.inputSchema.required ?? []).includes('body')) args.body = {};
        const r = await s.op(op.id, args);
        // Reached: the API answered (a success, or its own status); never a refusal of the MCP layer.
        if (r.isError === true) {
          const m = /^status (\d{3})/.exec(textOf(r));
          expect(m, `${op.id}: ${textOf(r)}`).not.toBeNull();
          answered.set(op.id, Number(m![1]));
        } else answered.set(op.id, 200);
      }
      expect(answered.size).toBe(listed.length);
      // Each answer came from the operation's own route: an id that does not exist is a 404, never a 405.
      expect([...answered.values()].filter((status) => status === 405)).toEqual([]);
    } finally {
      await s.close();
    }
  });
});

describe('results', () => {
  it('keep every list result under 20,000 tokens: a page too large comes smaller, with a nextCursor that goes on (on another process too)', async () => {
    const other = await newBusiness(t);
    const { mcpToken } = await issue(other.businessId);
    const auth = { Authorization: `Bearer ${mcpToken}` };
    const s = await connect(a, auth);
    const s2 = await connect(b, auth);
    try {
      // The event list carries each record whole: 8 inquiries with 20,000 characters of content each.
      const client = ok(await s.op('client_create', { body: { companyName: 'Big' } }));
      for (let i = 0; i < 8; i++)
        ok(
          await s.op('inquiry_create', {
            body: { name: `Big ${i}`, client: { id: client.id }, content: `${i}`.repeat(20_000) },
          }),
        );
      const seen: number[] = [];
      const sizes: number[] = [];
      let r = await s.op('event_list', { page_size: 100 });
      for (let turn = 0; ; turn++) {
        sizes.push(textOf(r).length);
        expect(textOf(r).length).toBeLessThanOrEqual(80_000);
        const page = ok(r);
        seen.push(...page.results.map((x: { id: number }) => x.id));
        if (page.nextCursor === null) break;
        // Stateless cursors: the next page from either process.
        r = await (turn % 2 === 0 ? s2 : s).op('event_list', { cursor: page.nextCursor });
      }
      expect(sizes.length).toBeGreaterThan(1);
      expect(Math.max(...sizes)).toBeGreaterThan(40_000); // pages are filled up to the budget
      expect(new Set(seen).size).toBe(seen.length);
      // All of them, in the API's order: the same ids as pages of 3 through the API's own cursor.
      const direct: number[] = [];
      let cursor: string | null = null;
      do {
        const page = ok(
          await s.op('event_list', { page_size: 3, ...(cursor !== null && { cursor }) }, { fields: ['id'] }),
        );
        expect(page.results.every((x: object) => Object.keys(x).join() === 'id')).toBe(true); // `fields`
        direct.push(...page.results.map((x: { id: number }) => x.id));
        cursor = page.nextCursor;
      } while (cursor !== null);
      expect(seen).toEqual(direct);
      expect(seen.length).toBeGreaterThanOrEqual(9);
      console.log(`event_list of 8 inquiries of 20,000 characters: pages of ${sizes.join(', ')} characters`);
    } finally {
      await Promise.all([s.close(), s2.close()]);
    }
  });

  it('records MCP calls in the API call log, and rate-limits them per token', async () => {
    const other = await newBusiness(t);
    const { mcpToken } = await issue(other.businessId);
    const s = await connect(limited, { Authorization: `Bearer ${mcpToken}` });
    try {
      ok(await s.op('client_create', { body: { companyName: 'Logged' } }));
      let statuses: string[] = [];
      for (let i = 0; i < 4; i++) statuses.push(textOf(await s.op('client_list', { page_size: 1 })).slice(0, 10));
      const over = await s.op('client_list', { page_size: 1 });
      expect(over.isError).toBe(true);
      expect(textOf(over)).toMatch(/^status 429/);
      statuses = statuses.filter((x) => x.startsWith('status'));
      expect(statuses).toEqual([]);
    } finally {
      await s.close();
    }
    // The log (read through the API with the business's key, on a process without a limit).
    await vi.waitFor(
      async () => {
        const rows = await t.testDb.db
          .selectFrom('api_log')
          .select(['method', 'path', 'status_code'])
          .where('business_id', '=', other.businessId)
          .execute();
        expect(rows).toEqual(
          expect.arrayContaining([
            { method: 'POST', path: '/v1/client', status_code: '201' },
            { method: 'GET', path: '/v1/client?page_size=1', status_code: '429' },
          ]),
        );
      },
      { timeout: 20_000, interval: 250 },
    );
  });
});
