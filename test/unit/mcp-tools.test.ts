/**
 * The tool generator of `bizapi mcp` (docs/mcp.md#tools) on small hand-made documents: shapes the served
 * document does not have today (a recursive `$ref`, a parameter `$ref`, an upload-only body), the description
 * rule, the `--tools` / `--read-only` selection errors and the error text. The whole served document is
 * covered through real processes in test/mcp/mcp.test.ts.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { buildOperationTools, errorResult, firstSentence, McpConfigError, selectOperations } from '@bizapi/mcp';

const doc = {
  openapi: '3.1.0',
  components: {
    parameters: { Id: { name: 'node_id', in: 'path', required: true, schema: { type: 'integer' } } },
    schemas: {
      Node: {
        type: 'object',
        'x-extension': true,
        example: { name: 'a' },
        properties: {
          name: { type: 'string', example: 'a' },
          children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
        },
      },
      Page: {
        type: 'object',
        properties: {
          next: { type: ['string', 'null'] },
          previous: { type: ['string', 'null'] },
          results: { type: 'array' },
        },
      },
    },
  },
  paths: {
    '/healthz': { get: { operationId: 'healthz_retrieve' } },
    '/v1/node': {
      get: {
        operationId: 'node_list',
        summary: 'List nodes',
        description: 'Nodes, newest first. Every node of the business.\n\nMore text.',
        parameters: [
          { name: 'cursor', in: 'query', schema: { type: 'string' } },
          { name: 'search', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
        ],
        responses: { 200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Page' } } } } },
      },
      post: {
        operationId: 'node_create',
        summary: 'Create a node',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } },
        },
      },
    },
    '/v1/node/{node_id}': {
      parameters: [{ $ref: '#/components/parameters/Id' }],
      delete: { operationId: 'node_destroy', summary: 'Delete a node' },
      put: {
        operationId: 'node_upload',
        summary: 'Upload',
        'x-extension': true,
        requestBody: { content: { 'application/octet-stream': { schema: { type: 'string' } } } },
      },
    },
  },
};

describe('buildOperationTools', () => {
  const tools = buildOperationTools(doc);
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));

  it('makes one tool per /v1 operation, named by operationId', () => {
    expect(tools.map((t) => t.name)).toEqual(['node_create', 'node_destroy', 'node_list', 'node_upload']);
  });

  it('inlines a recursive shape once under $defs, drops OpenAPI-only keywords, and stays valid JSON Schema', () => {
    const schema = byName.node_create!.inputSchema;
    expect(schema.required).toEqual(['body']);
    const body = (schema.properties as any).body;
    expect(body.properties.children.items).toEqual({ $ref: '#/$defs/Node' });
    expect((schema.$defs as any).Node.properties.children.items).toEqual({ $ref: '#/$defs/Node' });
    expect(JSON.stringify(schema)).not.toMatch(/"example"|"x-extension"|components/);
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
    addFormats.default(ajv);
    const validate = ajv.compile(schema);
    expect(validate({ body: { name: 'a', children: [{ name: 'b', children: [] }] } })).toBe(true);
    expect(validate({ body: { children: [{ name: 1 }] } })).toBe(false);
    expect(validate({ body: {}, stray: 1 })).toBe(false);
  });

  it('takes path parameters declared on the path item (through a $ref), and offers no non-JSON body', () => {
    expect(byName.node_destroy!.inputSchema).toMatchObject({
      required: ['node_id'],
      properties: { node_id: { type: 'integer' } },
    });
    expect(byName.node_upload!.body).toBe('none');
    expect(Object.keys(byName.node_upload!.inputSchema.properties as object)).toEqual(['node_id']);
  });

  it('describes with the summary and the first sentence, and says how to page a list', () => {
    expect(byName.node_list!.paged).toBe(true);
    expect(byName.node_list!.description).toMatch(/^List nodes\. Nodes, newest first\. Paged: .*nextCursor/);
    expect(byName.node_list!.parameters.find((p) => p.name === 'search')!.repeated).toBe(true);
    expect(byName.node_create!.paged).toBe(false);
    expect(byName.node_create!.description).toBe('Create a node.');
  });

  it('annotates reads, deletes and creates', () => {
    expect(byName.node_list!.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    expect(byName.node_destroy!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    });
    expect(byName.node_create!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
  });

  it('refuses a document with a duplicate operationId', () => {
    const dup = { paths: { '/v1/a': { get: { operationId: 'x' } }, '/v1/b': { get: { operationId: 'x' } } } };
    expect(() => buildOperationTools(dup)).toThrow(/"x" is used twice/);
  });
});

describe('selectOperations', () => {
  const all = buildOperationTools(doc);
  it('--read-only keeps the reads; --tools keeps the named ones', () => {
    expect(selectOperations(all, { readOnly: true, document: doc }).map((t) => t.name)).toEqual(['node_list']);
    expect(selectOperations(all, { tools: ['node_list', 'node_destroy'], document: doc }).map((t) => t.name)).toEqual([
      'node_destroy',
      'node_list',
    ]);
  });
  it('--no-extensions leaves out the operations marked x-extension', () => {
    expect(selectOperations(all, { extensions: false, document: doc }).map((t) => t.name)).toEqual([
      'node_create',
      'node_destroy',
      'node_list',
    ]);
  });
  it('names an unknown operation, and a write under --read-only', () => {
    expect(() => selectOperations(all, { tools: ['node_lst'], document: doc })).toThrow(McpConfigError);
    expect(() => selectOperations(all, { tools: ['node_lst'], document: doc })).toThrow(/unknown operation "node_lst"/);
    expect(() => selectOperations(all, { tools: ['node_destroy'], readOnly: true, document: doc })).toThrow(
      /write operations under --read-only: node_destroy/,
    );
  });
});

describe('firstSentence and errorResult', () => {
  it('cuts at the first sentence end or blank line', () => {
    expect(firstSentence('One thing. Two.')).toBe('One thing.');
    expect(firstSentence('No end\n\nSecond paragraph.')).toBe('No end');
    expect(firstSentence('Version 1.5 of it. Rest.')).toBe('Version 1.5 of it.');
    expect(firstSentence('')).toBe('');
  });

  it('names the status, code, detail and every nested field message', () => {
    const text = (body: unknown, status = 400) =>
      (errorResult(status, body).content[0] as { text: string }).text.split('\n')[0];
    expect(text({ companyName: ['This field is required.'], requestId: 'r' })).toBe(
      'status 400: companyName: This field is required.',
    );
    expect(
      text({ client: { id: ['Invalid pk "9" - object does not exist.'] }, inChargeSet: [{}, { id: ['Bad.'] }] }),
    ).toBe('status 400: client.id: Invalid pk "9" - object does not exist.; inChargeSet.1.id: Bad.');
    expect(text({ detail: 'Not found.', code: 'not_found' }, 404)).toBe('status 404 not_found: Not found.');
    expect(text('<html>Bad gateway</html>', 502)).toBe('status 502: <html>Bad gateway</html>');
    expect(errorResult(502, 'x').structuredContent).toEqual({ detail: 'x' });
  });
});
