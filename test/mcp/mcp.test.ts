/**
 * `bizapi mcp` as an assistant's MCP client runs it (docs/mcp.md): the official SDK's `Client` with its
 * `StdioClientTransport` spawns `bin/bizapi mcp`, which calls a live `bin/bizapi serve` child on the test
 * database (a SQLite file, or the run's PostgreSQL) that requires signatures (`BIZAPI_SIGNATURE_MODE=required`),
 * and a second one that accepts only version 2. Each scenario spawns one MCP process and makes all its calls
 * through it. The first scenario runs on the document bundled with the `@bizapi/mcp` workspace
 * (mcp/openapi.json, kept equal to `bizapi openapi`'s by mcp/test/build.test.ts); the others read the served
 * document from a file (`--openapi`).
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../setup/factories.ts';
import { BIN, type BizapiProcess, cleanEnv, runUntilExit, startServer } from '../setup/server-process.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 90_000 });

let t: TestApp;
let dataDir: string;
let required: BizapiProcess;
let v2only: BizapiProcess;
let b: TestBusiness;
/** `--openapi <the served document>`: the tools of the bundled document, without building it again. */
let docArgs: string[];
beforeAll(async () => {
  t = await buildTestApp();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-mcp-'));
  const docFile = path.join(dataDir, 'openapi.json');
  fs.writeFileSync(docFile, JSON.stringify(t.app.swagger()));
  docArgs = ['--openapi', docFile];
  [required, v2only] = await Promise.all([
    startServer({ databaseUrl: t.testDb.url, dataDir, env: { BIZAPI_SIGNATURE_MODE: 'required' } }),
    startServer({ databaseUrl: t.testDb.url, dataDir, env: { BIZAPI_SIGNATURE_MODE: 'v2' } }),
  ]);
  b = await newBusiness(t);
});
afterAll(async () => {
  await Promise.all([required?.stop(), v2only?.stop()]);
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A connected MCP client over a `bin/bizapi mcp` child, with every JSON-RPC message it received and its stderr. */
interface Session {
  client: Client;
  messages: JSONRPCMessage[];
  /** Transport errors: a line on stdout that is not JSON-RPC, among others. */
  errors: Error[];
  stderr(): string;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** Spawns `bin/bizapi mcp <args>` for `creds` against the server on `port` (or at the URL `port`) and connects the SDK's client to it. */
async function connect(
  args: string[],
  creds: { apiKey: string; secretKey: string },
  port: number | string,
): Promise<Session> {
  const env = {
    ...cleanEnv(),
    BIZAPI_URL: typeof port === 'string' ? port : `http://127.0.0.1:${port}`,
    BIZAPI_API_KEY: creds.apiKey,
    BIZAPI_SECRET_KEY: creds.secretKey,
  } as Record<string, string>;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const messages: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  // Handlers set before connect are kept: the Client chains its own after them.
  transport.onmessage = (m) => messages.push(m);
  transport.onerror = (e) => errors.push(e);
  const client = new Client({ name: 'bizapi-test', version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (err) {
    throw new Error(`bizapi mcp did not start: ${(err as Error).message}\n${stderr}`);
  }
  return {
    client,
    messages,
    errors,
    stderr: () => stderr,
    call: async (name, a = {}) => (await client.callTool({ name, arguments: a })) as CallToolResult,
    close: () => client.close(),
  };
}

/** The text of a result's single text item. */
function textOf(result: CallToolResult): string {
  expect(result.content).toHaveLength(1);
  const item = result.content[0]!;
  expect(item.type).toBe('text');
  return (item as { text: string }).text;
}

/** A successful result's JSON, checked to be the same as `structuredContent` and its text item. */
function ok(result: CallToolResult): any {
  expect(result.isError ?? false, textOf(result)).toBe(false);
  expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  return result.structuredContent;
}

/** The /v1 operations of the served document: operationId → method. */
function v1Operations(): Map<string, string> {
  const doc = t.app.swagger() as unknown as { paths: Record<string, Record<string, { operationId?: string }>> };
  const ops = new Map<string, string>();
  for (const [p, item] of Object.entries(doc.paths)) {
    // the event stream never ends, so it is no tool (mcp/src/tools.ts)
    if (!p.startsWith('/v1') || p === '/v1/event/stream') continue;
    for (const [method, op] of Object.entries(item))
      if (['get', 'post', 'patch', 'put', 'delete'].includes(method)) ops.set(op.operationId!, method);
  }
  return ops;
}

describe('one tool per operation (--full), against a server that requires signatures', () => {
  let s: Session;
  beforeAll(async () => {
    s = await connect(['--full'], b, required.port);
  });
  afterAll(() => s?.close());

  it('negotiates protocol 2025-06-18 or newer and writes nothing but JSON-RPC on stdout', async () => {
    const init = s.messages[0] as { result?: { protocolVersion?: string; serverInfo?: { name?: string } } };
    expect((init.result?.protocolVersion ?? '') >= '2025-06-18').toBe(true);
    expect(init.result?.serverInfo?.name).toBe('bizapi');
    await s.client.ping();
    expect(s.errors).toEqual([]);
  });

  it('lists exactly the operations of the document under /v1, named by operationId, with valid JSON Schemas', async () => {
    const { tools } = await s.client.listTools();
    const ops = v1Operations();
    expect(tools.map((x) => x.name).sort()).toEqual([...ops.keys()].sort());
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
    addFormats.default(ajv);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
      // Self-contained: a $ref only into the schema's own $defs (recursive shapes).
      for (const ref of JSON.stringify(tool.inputSchema).match(/"\$ref":"[^"]*"/g) ?? [])
        expect(ref, tool.name).toMatch(/"\$ref":"#\/\$defs\//);
      const method = ops.get(tool.name);
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(method === 'get');
      if (method === 'delete') expect(tool.annotations?.destructiveHint, tool.name).toBe(true);
      expect(tool.description, tool.name).toMatch(/\S/);
    }
    const create = tools.find((x) => x.name === 'client_create')!;
    expect(create.inputSchema.required).toEqual(['body']);
    const body = (create.inputSchema.properties as any).body;
    expect(body.required).toContain('companyName');
    expect(body.properties.fieldSet.items.properties.field).toBeDefined(); // a $ref, inlined
    const retrieve = tools.find((x) => x.name === 'inquiry_text_history_retrieve')!;
    expect(retrieve.inputSchema.required).toEqual(['inquiry_id', 'history_id']);
    const list = tools.find((x) => x.name === 'client_list')!;
    expect(Object.keys(list.inputSchema.properties!)).toEqual(
      expect.arrayContaining(['cursor', 'page_size', 'search', 'is_hidden']),
    );
    expect(list.inputSchema.required).toBeUndefined();
  });

  it('creates, reads, updates and deletes a client (signed: the server requires it)', async () => {
    const created = ok(
      await s.call('client_create', { body: { companyName: 'MCP Corp.', email: 'mcp@corp.example' } }),
    );
    expect(created).toMatchObject({ id: expect.any(Number), companyName: 'MCP Corp.', email: 'mcp@corp.example' });
    expect(ok(await s.call('client_retrieve', { client_id: created.id }))).toMatchObject({
      id: created.id,
      companyName: 'MCP Corp.',
    });
    expect(
      ok(await s.call('client_partial_update', { client_id: created.id, body: { inCharge: 'Ada' } })),
    ).toMatchObject({ id: created.id, inCharge: 'Ada' });
    ok(await s.call('client_destroy', { client_id: created.id }));
    const gone = await s.call('client_retrieve', { client_id: created.id });
    expect(gone.isError).toBe(true);
    expect(textOf(gone)).toMatch(/^status 404 not_found: Not found\./);
  });

  it('offers the webhook recovery operations like any other: recover and replay through their tools', async () => {
    const { tools } = await s.client.listTools();
    for (const name of ['webhook_recover_create', 'webhook_replay_create']) {
      const tool = tools.find((x) => x.name === name);
      expect(tool, name).toBeDefined();
      expect(tool!.inputSchema.required).toEqual(['webhook_id', 'body']);
      expect(tool!.annotations?.readOnlyHint).toBe(false);
    }
    // a public address literal: no name to resolve, and no event after the endpoint's creation is ever sent to it
    const webhook = ok(
      await s.call('webhook_create', {
        body: { url: 'http://93.184.215.14/mcp-hook', eventTypes: ['*'], isActive: true },
      }),
    );
    const since = new Date(Date.now() - 60_000).toISOString();
    expect(ok(await s.call('webhook_recover_create', { webhook_id: webhook.id, body: { since } }))).toEqual({
      count: 0,
      since,
    });
    expect(ok(await s.call('webhook_replay_create', { webhook_id: webhook.id, body: { after_sequence: 0 } }))).toEqual({
      count: 0,
      next_after_sequence: null,
    });
    const bad = await s.call('webhook_replay_create', {
      webhook_id: webhook.id,
      body: { after_sequence: 0, types: ['*', 'client.created'] },
    });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^status 400/);
    ok(await s.call('webhook_destroy', { webhook_id: webhook.id }));
  });

  it('lists, reads, creates, updates and deletes every writable resource', async () => {
    const { ids } = b;
    /** Creates through `<tool>_create`, reads it back, finds it in `<tool>_list`, and updates it; returns its id. */
    const crud = async (
      tool: string,
      idArg: string,
      body: Record<string, unknown>,
      patch: Record<string, unknown>,
      scope: Record<string, unknown> = {},
    ) => {
      const created = ok(await s.call(`${tool}_create`, { ...scope, body }));
      expect(created.id, tool).toEqual(expect.any(Number));
      const key = { ...scope, [idArg]: created.id };
      expect(ok(await s.call(`${tool}_retrieve`, key)).id, tool).toBe(created.id);
      expect(
        ok(await s.call(`${tool}_list`, { ...scope, page_size: 100 })).results.map((r: { id: number }) => r.id),
        tool,
      ).toContain(created.id);
      expect(ok(await s.call(`${tool}_partial_update`, { ...key, body: patch })), tool).toMatchObject(patch);
      return { id: created.id as number, key };
    };
    const client = await crud('client', 'client_id', { companyName: 'Tour client' }, { inCharge: 'Ada' });
    const inquiry = await crud(
      'inquiry',
      'inquiry_id',
      { name: 'Tour inquiry', client: { id: client.id } },
      { name: 'Tour inquiry, renamed' },
    );
    const note = await crud(
      'inquiry_text_history',
      'history_id',
      { content: 'Called them.' },
      { content: 'Called them twice.' },
      { inquiry_id: inquiry.id },
    );
    const contract = await crud(
      'contract',
      'contract_id',
      {
        title: 'Tour contract',
        amount: 1000,
        type: 'I',
        client: { id: client.id },
        startDate: '2026-12-01',
        endDate: '2027-03-31',
      },
      { title: 'Tour contract v2' },
    );
    const settlement = await crud(
      'settlement',
      'settlement_id',
      {
        title: 'Down payment',
        amount: 100,
        additionalAmount: 0,
        vat: 10,
        contract: { id: contract.id },
        type: { id: ids.settlementTypes.ini },
      },
      { title: 'Down payment (late)' },
    );
    const project = await crud(
      'project',
      'project_id',
      { title: 'Tour project', contract: { id: contract.id } },
      { title: 'Tour project v2' },
    );
    const worker = await crud(
      'worker',
      'worker_id',
      { name: 'Choi', position: { id: ids.positions.dev } },
      { name: 'Choi Minho' },
    );
    const todo = await crud(
      'todo',
      'todo_id',
      { inquiry: { id: inquiry.id }, type: 'CA', dueDate: '2026-12-01', action: 'Call back' },
      { action: 'Call back today' },
    );
    const item = await crud(
      'estimate_item',
      'item_id',
      { title: 'UI design', unitCost: '4500000', unit: 'M/M' },
      { title: 'UX design' },
    );
    for (const [tool, { key }] of [
      ['todo', todo],
      ['estimate_item', item],
      ['worker', worker],
      ['project', project],
      ['settlement', settlement],
      ['contract', contract],
      ['inquiry_text_history', note],
      ['inquiry', inquiry],
      ['client', client],
    ] as const) {
      expect(ok(await s.call(`${tool}_destroy`, key)), tool).toEqual({ status: 204 });
      const gone = await s.call(`${tool}_retrieve`, key);
      expect(gone.isError, tool).toBe(true);
      expect(textOf(gone), tool).toMatch(/^status 404/);
    }
  });

  it('walks a list to its end with nextCursor, keeping the filters of the first page', async () => {
    const tag = `walk${Math.random().toString(36).slice(2, 8)}`;
    for (let i = 0; i < 3; i++) ok(await s.call('client_create', { body: { companyName: `Other ${i}` } }));
    const ids: number[] = [];
    for (let i = 0; i < 7; i++)
      ids.unshift(ok(await s.call('client_create', { body: { companyName: `${tag} ${i}` } })).id);

    // The assistant passes only the cursor back: the search and page size of the first page still apply.
    const seen: number[] = [];
    let page = ok(await s.call('client_list', { search: [tag], page_size: 2 }));
    let pages = 1;
    for (;;) {
      expect(Object.keys(page).sort()).toEqual(['nextCursor', 'results']);
      expect(page.results.length).toBeLessThanOrEqual(2);
      seen.push(...page.results.map((c: { id: number }) => c.id));
      if (page.nextCursor === null) break;
      expect(page.nextCursor).toEqual(expect.any(String));
      expect(page.nextCursor).not.toMatch(/:\/\/|\?|&/); // a token, never a URL
      page = ok(await s.call('client_list', { cursor: page.nextCursor }));
      pages++;
    }
    expect(seen).toEqual(ids);
    expect(pages).toBe(4);

    // Passing every argument again walks the same pages; a single search term is accepted as a string.
    const again: number[] = [];
    let cursor: string | null | undefined;
    do {
      page = ok(await s.call('client_list', { search: tag, page_size: 3, ...(cursor && { cursor }) }));
      again.push(...page.results.map((c: { id: number }) => c.id));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(again).toEqual(ids);
  });

  it('answers a 400 as a tool error naming the status and every field message', async () => {
    const missing = await s.call('client_create', { body: {} });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('status 400: companyName: This field is required.');
    expect(missing.structuredContent).toMatchObject({ companyName: ['This field is required.'] });

    const nested = await s.call('client_create', { body: { companyName: 'X', status: { id: 2147483000 } } });
    expect(nested.isError).toBe(true);
    expect(textOf(nested)).toMatch(/status 400: status\.id: Invalid pk "2147483000" - object does not exist\./);

    const badQuery = await s.call('client_list', { page_size: 0 });
    expect(badQuery.isError).toBe(true);
    expect(textOf(badQuery)).toMatch(/^status 400: page_size: /);
  });

  it('takes a body sent as a JSON string, as some models send objects', async () => {
    const created = ok(await s.call('client_create', { body: JSON.stringify({ companyName: 'Stringified' }) }));
    expect(created.companyName).toBe('Stringified');
  });

  it('reports arguments that do not fit the tool, and unknown tools', async () => {
    const stray = await s.call('client_create', { companyName: 'Outside body' });
    expect(stray.isError).toBe(true);
    expect(textOf(stray)).toMatch(/unknown argument "companyName".*inside `body`/);
    const noId = await s.call('client_retrieve', {});
    expect(noId.isError).toBe(true);
    expect(textOf(noId)).toContain('missing required argument "client_id"');
    await expect(s.call('no_such_tool')).rejects.toThrow(/Unknown tool/);
    expect(s.errors).toEqual([]);
  });
});

describe('--read-only and --tools', () => {
  it('--read-only lists only the reads', async () => {
    const s = await connect(['--read-only', '--full', ...docArgs], b, required.port);
    try {
      const { tools } = await s.client.listTools();
      const reads = [...v1Operations()].filter(([, m]) => m === 'get').map(([id]) => id);
      expect(tools.map((x) => x.name).sort()).toEqual(reads.sort());
      expect(tools.every((x) => x.annotations?.readOnlyHint === true)).toBe(true);
      await expect(s.call('client_create', { body: { companyName: 'No' } })).rejects.toThrow(/Unknown tool/);
      expect(ok(await s.call('folder_list')).nextCursor).toBeNull(); // an unpaged list: {results, nextCursor: null}
    } finally {
      await s.close();
    }
  });

  it('an unknown --tools name, or a missing secret, is a clear startup error', async () => {
    const env = {
      ...cleanEnv(),
      BIZAPI_URL: `http://127.0.0.1:${required.port}`,
      BIZAPI_API_KEY: b.apiKey,
      BIZAPI_SECRET_KEY: b.secretKey,
    };
    const run = await runUntilExit(['mcp', ...docArgs, '--tools', 'client_list,client_lisst'], env);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('--tools: unknown operation "client_lisst"');
    const { BIZAPI_SECRET_KEY: _omit, ...noSecret } = env;
    const missing = await runUntilExit(['mcp', ...docArgs], noSecret);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain('BIZAPI_SECRET_KEY is required');
  });
});

describe('the default tools', () => {
  it('finds, describes and calls an operation through the three meta-tools, under 2,000 tokens (--dynamic: the same)', async () => {
    const s = await connect(docArgs, b, required.port);
    try {
      const { tools } = await s.client.listTools();
      expect(tools.map((x) => x.name).sort()).toEqual(['call_operation', 'describe_operation', 'list_operations']);
      expect(JSON.stringify({ tools }).length / 4).toBeLessThan(2000);
      const dynamic = await connect(['--dynamic', ...docArgs], b, required.port);
      expect((await dynamic.client.listTools()).tools).toEqual(tools);
      await dynamic.close();
      const found = ok(await s.call('list_operations', { search: 'client create' }));
      expect(found.operations).toContainEqual({
        id: 'client_create',
        method: 'POST',
        path: '/v1/client',
        summary: expect.any(String),
      });
      expect(ok(await s.call('list_operations')).operations).toHaveLength(v1Operations().size);
      const described = ok(await s.call('describe_operation', { operation_id: 'client_create' }));
      expect(described).toMatchObject({ operationId: 'client_create', method: 'POST', path: '/v1/client' });
      expect(described.inputSchema.properties.body.required).toContain('companyName');
      const created = ok(
        await s.call('call_operation', {
          operation_id: 'client_create',
          arguments: { body: { companyName: 'Dynamic Ltd.' } },
        }),
      );
      expect(
        ok(await s.call('call_operation', { operation_id: 'client_retrieve', arguments: { client_id: created.id } })),
      ).toMatchObject({ companyName: 'Dynamic Ltd.' });
      expect(
        ok(
          await s.call('call_operation', {
            operation_id: 'client_retrieve',
            arguments: JSON.stringify({ client_id: created.id }),
          }),
        ).id,
      ).toBe(created.id);
      const invalid = await s.call('call_operation', { operation_id: 'client_create', arguments: { body: {} } });
      expect(invalid.isError).toBe(true);
      expect(textOf(invalid)).toContain('companyName: This field is required.');
      const unknown = await s.call('describe_operation', { operation_id: 'nope' });
      expect(unknown.isError).toBe(true);
      expect(textOf(unknown)).toContain('list_operations');
    } finally {
      await s.close();
    }
  });
});

describe('failures are tool errors, not crashes', () => {
  it('a wrong secret: a clear tool error naming the signature, and the server keeps serving', async () => {
    const s = await connect(['--full', ...docArgs], { apiKey: b.apiKey, secretKey: 'not-the-secret' }, required.port);
    try {
      for (let i = 0; i < 2; i++) {
        const r = await s.call('client_list');
        expect(r.isError).toBe(true);
        expect(textOf(r)).toMatch(/^status 403 signature_invalid: .*\n.*BIZAPI_SECRET_KEY/);
        expect(r.structuredContent).toMatchObject({ code: 'signature_invalid' });
      }
      await s.client.ping();
    } finally {
      await s.close();
    }
  });

  it('an unreachable API: a clear tool error', async () => {
    const closed = await new Promise<number>((resolve) => {
      const srv = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = srv.address() as net.AddressInfo;
        srv.close(() => resolve(port));
      });
    });
    const s = await connect(['--full', ...docArgs], b, closed);
    try {
      const r = await s.call('client_list');
      expect(r.isError).toBe(true);
      expect(textOf(r)).toContain(`could not reach the API at http://127.0.0.1:${closed}`);
      await s.client.ping();
    } finally {
      await s.close();
    }
  });
});

describe('--signature v2', () => {
  it('works against a server that accepts only version-2 signatures (where v1 is refused)', async () => {
    // BIZAPI_URL given with /v1 (a common slip): the tools still call /v1/client, not /v1/v1/client.
    const s = await connect(
      ['--signature', 'v2', '--tools', 'client_create,client_list', ...docArgs],
      b,
      `http://127.0.0.1:${v2only.port}/v1/`,
    );
    try {
      expect((await s.client.listTools()).tools.map((x) => x.name).sort()).toEqual(['client_create', 'client_list']);
      const created = ok(await s.call('client_create', { body: { companyName: 'Signed v2' } }));
      const page = ok(await s.call('client_list', { search: ['Signed v2'] }));
      expect(page.results.map((c: { id: number }) => c.id)).toEqual([created.id]);
    } finally {
      await s.close();
    }
    const v1 = await connect(['--tools', 'client_list', ...docArgs], b, v2only.port);
    try {
      const refused = await v1.call('client_list');
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/^status 403 signature_required: .*\n.*--signature v2/);
    } finally {
      await v1.close();
    }
  });
});

describe('path arguments (issue 44): validated against their schema, no dot segment reaches the URL', () => {
  /** Values a hostile or confused caller sends for an integer id; before the check, `..` and `5/..` resolved to the parent path. */
  const HOSTILE = [
    '..',
    '.',
    '%2e%2e',
    '%2E%2E',
    '.%2e',
    '5/..',
    '../5',
    '5/../..',
    '..\\',
    '1.5',
    ' 5',
    '0x5',
    '1e3',
    0,
    -1,
    1.5,
    2 ** 53,
    true,
    [5],
    { id: 5 },
  ];

  it('refuses each before any request: the inquiry and its note are untouched (also under --read-only)', async () => {
    const s = await connect(['--full', ...docArgs], b, required.port);
    const ro = await connect(['--read-only', '--full', ...docArgs], b, required.port);
    try {
      const client = ok(await s.call('client_create', { body: { companyName: 'Traversal target' } }));
      const inquiry = ok(await s.call('inquiry_create', { body: { name: 'Keep me', client: { id: client.id } } }));
      const note = ok(
        await s.call('inquiry_text_history_create', { inquiry_id: inquiry.id, body: { content: 'Keep me too.' } }),
      );
      for (const value of HOSTILE) {
        const label = JSON.stringify(value);
        for (const [session, tool, args] of [
          [s, 'inquiry_file_destroy', { inquiry_id: inquiry.id, file_id: value }],
          [
            s,
            'inquiry_text_history_partial_update',
            { inquiry_id: inquiry.id, history_id: value, body: { name: 'Renamed through a note', content: 'x' } },
          ],
          [s, 'inquiry_text_history_destroy', { inquiry_id: inquiry.id, history_id: value }],
          [ro, 'inquiry_text_history_retrieve', { inquiry_id: inquiry.id, history_id: value }],
          [ro, 'client_retrieve', { client_id: value }],
        ] as const) {
          const r = await session.call(tool, args);
          expect(r.isError, `${tool} ${label}: ${textOf(r)}`).toBe(true);
          expect(textOf(r), `${tool} ${label}`).toMatch(
            new RegExp(`^invalid arguments for ${tool}: argument "(file_id|history_id|client_id)" must be`),
          );
        }
      }
      // An id as its digits is still accepted.
      expect(
        ok(
          await ro.call('inquiry_text_history_retrieve', {
            inquiry_id: String(inquiry.id),
            history_id: String(note.id),
          }),
        ).id,
      ).toBe(note.id);
      expect(ok(await s.call('inquiry_retrieve', { inquiry_id: inquiry.id }))).toMatchObject({
        id: inquiry.id,
        name: 'Keep me',
      });
      expect(
        ok(await s.call('inquiry_text_history_retrieve', { inquiry_id: inquiry.id, history_id: note.id })),
      ).toMatchObject({ content: 'Keep me too.' });
    } finally {
      await Promise.all([s.close(), ro.close()]);
    }
  });
});
