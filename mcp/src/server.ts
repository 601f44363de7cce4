/**
 * The MCP server of `@bizapi/mcp`, `bizapi mcp` and the remote endpoint (docs/mcp.md): a Model Context
 * Protocol server whose tools are the API's operations, built on the official SDK's low-level `Server` (the
 * tool schemas are JSON Schemas from the OpenAPI document, not zod). It is a client of the HTTP API through
 * `@bizapi/client` (signing, `Idempotency-Key`, retries), so it works against a bizapi server and against the
 * reference service alike.
 */
import { BizapiNetworkError, type Bizapi, createBizapi } from '@bizapi/client';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type CallToolResult,
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { buildOperationTools, type JsonSchema, type OperationTool, type ToolParameter } from './tools.js';

/** A mistake in how `bizapi mcp` was started (unknown `--tools` name, missing key): reported before serving. */
export class McpConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpConfigError';
  }
}

/** What the server offers and where it sends the calls. */
export interface McpServerOptions {
  /** The OpenAPI document the tools are generated from (as `bizapi openapi` prints it). */
  document: unknown;
  /** The API's address, e.g. `http://127.0.0.1:8000` (a path prefix is kept; no `/v1`). */
  baseUrl: string;
  apiKey: string;
  secretKey: string;
  /** `v1` (the reference service's body signature; default) or `v2` (timestamped, replay-proof). docs/authentication.md#signature-version-2 */
  signature?: 'v1' | 'v2';
  /** Offer only the reads (GET). */
  readOnly?: boolean;
  /** Offer only these operations (operation ids). */
  tools?: readonly string[];
  /**
   * Offer one tool per operation (docs/mcp.md#the-full-tool-list) instead of the default three meta-tools
   * (`list_operations`, `describe_operation`, `call_operation`, docs/mcp.md#the-default-tools). `tools`
   * (a named selection) implies it.
   */
  full?: boolean;
  /** The operations, already built and selected (the remote endpoint builds them once per process); `document`, `readOnly`, `tools` and `extensions` are then not read. */
  operations?: readonly OperationTool[];
  /**
   * Hand out cursors that carry the filters of their page (`mc1.` + base64url JSON), so that any process
   * answers the next page (the remote endpoint, docs/mcp.md#remote-mcp); default: the API's own cursor, with
   * the filters remembered in this process.
   */
  statelessCursors?: boolean;
  /** Offer the extensions (operations marked `x-extension`, which the reference service lacks); default true. */
  extensions?: boolean;
  /** Retries of a call answered 429 or 503, or cut off by a network error (default 3, the client's; the remote endpoint: 0, it answers at once). */
  retries?: number;
  /** Longest wait for one tool call, retries included, in milliseconds (default 60000). */
  timeoutMs?: number;
  /** The server's version, reported to the client. */
  version?: string;
  /** The `fetch` the client uses (default: `globalThis.fetch`). */
  fetch?: typeof globalThis.fetch;
}

/** What a paged list tool answers (docs/mcp.md#paging-with-cursors). */
export interface ToolPage {
  results: unknown[];
  /** The `cursor` of the answer's `next` link, or `null` on the last page. */
  nextCursor: string | null;
}

/** How many cursors (with the filters of their page) are remembered, newest kept. */
const REMEMBERED_CURSORS = 1000;

const INSTRUCTIONS = [
  'Tools of the bizapi Business Management API (inquiries, clients, contracts, settlements, projects, workers, todos, estimate items).',
  'Each API operation has an operation id: <resource>_list, _retrieve, _create, _partial_update, _destroy.',
  'Path and query parameters are top-level arguments; a request body goes under `body`.',
  'Lists answer {results, nextCursor}: pass nextCursor back as `cursor` for the next page until it is null; `fields` keeps only the named fields of each record.',
  'A failed call is a tool error naming the HTTP status, the error code and each field message: correct the arguments and call again.',
].join(' ');

/**
 * The largest tool result, in characters of its JSON text: 80,000, about 20,000 tokens (JSON size / 4), under
 * the 25,000 tokens clients accept (docs/mcp.md#result-sizes). A larger page is fetched again smaller.
 */
export const MAX_RESULT_CHARS = 80_000;

/** The `fields` argument (docs/mcp.md#result-sizes). */
const FIELDS_SCHEMA = {
  type: 'array',
  items: { type: 'string' },
  description: 'Keep only these top-level fields of the answer (of each record of a list), e.g. ["id", "companyName"].',
} as const;

/** Prefix of a stateless cursor: `mc1.` + base64url of `{"c": <the API cursor>, "q": <the other query parameters>}`. */
const STATELESS_CURSOR = 'mc1.';

/**
 * The operations `options` select, in name order.
 * @throws McpConfigError for a `--tools` name that is no operation, or a write operation named under `--read-only`
 */
export function selectOperations(
  all: readonly OperationTool[],
  options: Pick<McpServerOptions, 'readOnly' | 'tools' | 'extensions' | 'document'>,
): OperationTool[] {
  const extensionNames = new Set<string>();
  if (options.extensions === false) {
    const paths = ((options.document as JsonSchema)?.paths ?? {}) as Record<string, Record<string, JsonSchema>>;
    for (const item of Object.values(paths))
      for (const op of Object.values(item))
        if (op?.['x-extension'] === true && typeof op.operationId === 'string') extensionNames.add(op.operationId);
  }
  let selected = all.filter((t) => !extensionNames.has(t.name));
  if (options.tools !== undefined) {
    const byName = new Map(all.map((t) => [t.name, t]));
    const unknown = options.tools.filter((n) => !byName.has(n));
    if (unknown.length > 0)
      throw new McpConfigError(
        `--tools: unknown operation${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')} (the operation ids are listed in docs/mcp.md#tools and by \`bizapi openapi\`)`,
      );
    if (options.readOnly === true) {
      const writes = options.tools.filter((n) => byName.get(n)!.method !== 'GET');
      if (writes.length > 0)
        throw new McpConfigError(`--tools names write operations under --read-only: ${writes.join(', ')}`);
    }
    const wanted = new Set(options.tools);
    selected = selected.filter((t) => wanted.has(t.name));
  }
  if (options.readOnly === true) selected = selected.filter((t) => t.method === 'GET');
  return selected;
}

/** Flattens a DRF error body into `field.path: message` lines (`client.id: Invalid pk "9" - object does not exist.`). */
export function fieldMessages(body: unknown, prefix = ''): string[] {
  if (typeof body === 'string') return [prefix === '' ? body : `${prefix}: ${body}`];
  if (Array.isArray(body)) {
    if (body.every((m) => typeof m === 'string'))
      return body.length === 0 ? [] : [prefix === '' ? body.join(' ') : `${prefix}: ${body.join(' ')}`];
    return body.flatMap((item, i) => fieldMessages(item, prefix === '' ? String(i) : `${prefix}.${i}`));
  }
  if (body !== null && typeof body === 'object') {
    return Object.entries(body).flatMap(([key, value]) =>
      fieldMessages(value, prefix === '' ? key : `${prefix}.${key}`),
    );
  }
  return [];
}

/** A tool error: one text item (and, when given, the error body as `structuredContent`). */
function toolError(text: string, structured?: Record<string, unknown>): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text }],
    ...(structured !== undefined && { structuredContent: structured }),
  };
}

/** A successful result: the JSON as `structuredContent` and as one text item. */
function toolResult(structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

/** What the assistant can do about an error code. */
function hintFor(status: number, code: string | undefined, detail: string | undefined): string | undefined {
  if (status === 401) return 'The API key was refused: check BIZAPI_API_KEY in the MCP server configuration.';
  if (code === 'signature_invalid')
    return 'The request signature was refused: check that BIZAPI_SECRET_KEY is the secret issued with BIZAPI_API_KEY.';
  if (code === 'signature_required')
    return 'The server requires another signature version: start `bizapi mcp` with --signature v2 (or v1 for the reference service).';
  if (code === 'PLAN_PERMISSION_DENIED') return 'The business plan does not allow this operation.';
  if (status === 404 && detail === 'Invalid cursor')
    return 'The cursor is not valid: start again from the first page (omit `cursor`).';
  if (status === 429) return 'Rate limited: wait before calling again.';
  return undefined;
}

/**
 * The tool error for a non-2xx answer: `status 400: companyName: This field is required.` (status, then the
 * `code` when the body has one, then `detail` and every field message), a hint for credential and signature
 * errors, and the body as JSON; `structuredContent` is the error body.
 */
export function errorResult(status: number, body: unknown): CallToolResult {
  const b =
    body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  const code = typeof b?.code === 'string' ? b.code : undefined;
  const detail = typeof b?.detail === 'string' ? b.detail : undefined;
  let messages: string[];
  if (b === undefined) messages = typeof body === 'string' && body.trim() !== '' ? [body.trim().slice(0, 500)] : [];
  else {
    const { code: _c, requestId: _r, detail: _d, ...fields } = b;
    messages = [...(detail !== undefined ? [detail] : []), ...fieldMessages(fields)];
  }
  const head = `status ${status}${code !== undefined ? ` ${code}` : ''}`;
  const hint = hintFor(status, code, detail);
  const lines = [`${head}: ${messages.length > 0 ? messages.join('; ') : 'no details'}`];
  if (hint !== undefined) lines.push(hint);
  if (b !== undefined) lines.push(JSON.stringify(b));
  return toolError(lines.join('\n'), b ?? { detail: typeof body === 'string' ? body : `HTTP ${status}` });
}

/** The `cursor` query parameter of a `next` link (an absolute URL, or a relative one), or `null`. */
function cursorOf(next: unknown): { cursor: string; query: URLSearchParams } | null {
  if (typeof next !== 'string' || next === '') return null;
  let url: URL;
  try {
    url = new URL(next, 'http://placeholder.invalid');
  } catch {
    return null;
  }
  const cursor = url.searchParams.get('cursor');
  if (cursor === null || cursor === '') return null;
  const query = new URLSearchParams(url.searchParams);
  query.delete('cursor');
  return { cursor, query };
}

/** One value of a query argument as text: booleans `true`/`false`, numbers and strings as they are. */
function queryValue(name: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new ArgumentError(
    `argument "${name}" must be a string, a number or a boolean (or a list of them), not ${JSON.stringify(value)}`,
  );
}

/**
 * The text of one path argument, checked against its schema (docs/mcp.md#path-arguments): an `integer` is a
 * whole number (or its decimal digits as a string) within `minimum`/`maximum`; a `string` matches its
 * `pattern`; and no value is empty, `.` or `..`, or holds a `/`, `\\` or `%`, so a dot segment or another path
 * can never reach the URL (issue 44: `file_id: ".."` sent `DELETE /v1/inquiry/5/`).
 * @throws ArgumentError naming the argument, what it must be and what was sent
 */
function pathSegment(p: ToolParameter, value: unknown): string {
  const refuse = (what: string) =>
    new ArgumentError(`argument "${p.name}" must be ${what}, not ${JSON.stringify(value)}`);
  const type = p.schema.type;
  let text: string;
  if (type === 'integer' || type === 'number') {
    const n =
      typeof value === 'number' ? value : typeof value === 'string' && /^-?[0-9]+$/.test(value) ? Number(value) : NaN;
    const min = typeof p.schema.minimum === 'number' ? p.schema.minimum : undefined;
    const max = typeof p.schema.maximum === 'number' ? p.schema.maximum : undefined;
    const range =
      min !== undefined && max !== undefined
        ? ` from ${min} to ${max}`
        : min !== undefined
          ? ` of at least ${min}`
          : '';
    if (!Number.isSafeInteger(n) || (min !== undefined && n < min) || (max !== undefined && n > max))
      throw refuse(`an integer id${range}`);
    text = String(n);
  } else {
    if (typeof value !== 'string' && typeof value !== 'number') throw refuse('a string');
    text = String(value);
    if (typeof p.schema.pattern === 'string' && !new RegExp(p.schema.pattern, 'u').test(text))
      throw refuse(`a string matching ${p.schema.pattern}`);
  }
  if (text === '' || text === '.' || text === '..' || /[/\\%]/.test(text))
    throw refuse('one path segment (no "/", "\\", "%", "." or "..")');
  return text;
}

/** A call's arguments do not fit the tool (reported as a tool error, so the assistant can correct them). */
class ArgumentError extends Error {}

/**
 * An object argument that a model sent as a JSON string (`"{\"companyName\": \"Acme\"}"`), parsed; any other
 * value as it is.
 */
function objectArgument(value: unknown): unknown {
  if (typeof value !== 'string' || !/^\s*\{/.test(value)) return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** `value` with only `fields` of it when it is an object and `fields` is given; else `value`. */
function pick(value: unknown, fields: readonly string[] | undefined): unknown {
  if (fields === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(fields.filter((f) => Object.hasOwn(record, f)).map((f) => [f, record[f]]));
}

/** A stateless cursor (see {@link STATELESS_CURSOR}). */
function encodeCursor(cursor: string, query: URLSearchParams): string {
  return STATELESS_CURSOR + Buffer.from(JSON.stringify({ c: cursor, q: query.toString() })).toString('base64url');
}

/** The API cursor and query of a stateless cursor, or `undefined` when it is not one. */
function decodeCursor(token: string): { cursor: string; query: URLSearchParams } | undefined {
  try {
    const { c, q } = JSON.parse(Buffer.from(token.slice(STATELESS_CURSOR.length), 'base64url').toString('utf8')) as {
      c?: unknown;
      q?: unknown;
    };
    if (typeof c !== 'string' || c === '' || typeof q !== 'string') return undefined;
    return { cursor: c, query: new URLSearchParams(q) };
  } catch {
    return undefined;
  }
}

/** Runs tool calls against the API. */
class OperationCaller {
  private readonly client: Bizapi;
  /** `<tool> <cursor>` → the other query parameters of the page whose `next` carried that cursor. */
  private readonly cursors = new Map<string, URLSearchParams>();

  constructor(private readonly options: McpServerOptions) {
    this.client = createBizapi({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      secretKey: options.secretKey,
      signatureVersion: options.signature ?? 'v1',
      ...(options.retries !== undefined && { retry: { retries: options.retries } }),
      ...(options.fetch !== undefined && { fetch: options.fetch }),
    });
  }

  /** The URL of a call: the path template filled in, the query arguments (and, with a cursor, the filters of its page). */
  private url(tool: OperationTool, args: Record<string, unknown>): URL {
    const accepted = new Set([...tool.parameters.map((p) => p.name), ...(tool.body !== 'none' ? ['body'] : [])]);
    const unknown = Object.keys(args).filter((k) => !accepted.has(k));
    if (unknown.length > 0) {
      const list = [...accepted].join(', ') || 'none';
      throw new ArgumentError(
        `unknown argument${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')}; ${tool.name} takes: ${list}${tool.body !== 'none' ? ' (the request fields go inside `body`)' : ''}`,
      );
    }
    let path = tool.path;
    for (const p of tool.parameters) {
      const value = args[p.name];
      if (value === undefined || value === null || value === '') {
        if (p.required) throw new ArgumentError(`missing required argument "${p.name}"`);
        continue;
      }
      if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(pathSegment(p, value)));
    }
    if (tool.body === 'required' && args.body === undefined)
      throw new ArgumentError('missing required argument "body" (the request fields go inside `body`)');
    const base = this.options.baseUrl.replace(/\/+$/, '');
    const url = new URL(`${base}${path}`);
    // Belt and braces: the URL parser resolves no segment of ours away (pathSegment refuses them already).
    if (url.pathname !== new URL(`${base}/`).pathname.replace(/\/$/, '') + path)
      throw new ArgumentError(`the path arguments do not make a path of ${tool.name} (${path})`);

    let cursor = args.cursor;
    if (tool.paged && typeof cursor === 'string' && /^https?:\/\//i.test(cursor)) {
      // A whole `next` link passed back as the cursor: take its cursor and its filters.
      const parsed = cursorOf(cursor);
      if (parsed !== null) {
        this.remember(tool.name, parsed.cursor, parsed.query);
        cursor = parsed.cursor;
      }
    }
    let carried: URLSearchParams | undefined;
    if (typeof cursor === 'string' && cursor.startsWith(STATELESS_CURSOR)) {
      const decoded = decodeCursor(cursor);
      if (decoded === undefined)
        throw new ArgumentError(
          'argument "cursor" is not a nextCursor this server handed out: start again from the first page (omit `cursor`)',
        );
      cursor = decoded.cursor;
      carried = decoded.query;
    }
    const remembered = carried ?? (typeof cursor === 'string' ? this.cursors.get(`${tool.name} ${cursor}`) : undefined);
    const query = new URLSearchParams(remembered);
    for (const p of tool.parameters) {
      if (p.in !== 'query' || p.name === 'cursor') continue;
      const value = args[p.name];
      if (value === undefined || value === null) continue;
      query.delete(p.name);
      for (const v of Array.isArray(value) ? value : [value]) query.append(p.name, queryValue(p.name, v));
    }
    if (typeof cursor === 'string' && cursor !== '') query.set('cursor', cursor);
    else if (cursor !== undefined && cursor !== null && cursor !== '')
      throw new ArgumentError('argument "cursor" must be the nextCursor string of the previous page');
    url.search = query.toString();
    return url;
  }

  private remember(tool: string, cursor: string, query: URLSearchParams): void {
    const key = `${tool} ${cursor}`;
    this.cursors.delete(key);
    this.cursors.set(key, query);
    while (this.cursors.size > REMEMBERED_CURSORS) this.cursors.delete(this.cursors.keys().next().value!);
  }

  /**
   * Calls `tool` with `args` (and `fields`, docs/mcp.md#result-sizes); every failure is a tool result with
   * `isError`, never a thrown error. A page whose result would pass {@link MAX_RESULT_CHARS} is fetched again
   * with a page size that fits (its `nextCursor` goes on from there); a record that does not fit is an error
   * that asks for `fields`.
   */
  async call(tool: OperationTool, rawArgs: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
    const { fields: rawFields, ...args } = rawArgs;
    let fields: string[] | undefined;
    if (rawFields !== undefined && rawFields !== null) {
      const list =
        typeof rawFields === 'string'
          ? rawFields
              .split(',')
              .map((f) => f.trim())
              .filter((f) => f !== '')
          : rawFields;
      if (!Array.isArray(list) || list.length === 0 || !list.every((f) => typeof f === 'string'))
        return toolError(
          `invalid arguments for ${tool.name}: argument "fields" must be a list of field names, e.g. ["id", "companyName"]`,
        );
      fields = list as string[];
    }
    let result = await this.callOnce(tool, args, fields, signal);
    for (let attempt = 0; attempt < 4; attempt++) {
      const size = (result.content[0] as { text?: string } | undefined)?.text?.length ?? 0;
      if (result.isError === true || size <= MAX_RESULT_CHARS) return result;
      const page = result.structuredContent as Partial<ToolPage> | undefined;
      const count = Array.isArray(page?.results) ? page.results.length : 0;
      if (!tool.paged || count <= 1 || !tool.parameters.some((p) => p.name === 'page_size')) break;
      const pageSize = Math.max(1, Math.min(count - 1, Math.floor((count * MAX_RESULT_CHARS * 0.9) / size)));
      result = await this.callOnce(tool, { ...args, page_size: pageSize }, fields, signal);
    }
    const size = (result.content[0] as { text?: string } | undefined)?.text?.length ?? 0;
    if (result.isError !== true && size > MAX_RESULT_CHARS) {
      return toolError(
        `the answer of ${tool.name} is ${size} characters (about ${Math.ceil(size / 4)} tokens), more than the ${MAX_RESULT_CHARS / 4} tokens a result may hold: name the fields you need with \`fields\`${tool.paged ? ' or pass a smaller `page_size`' : ''}.`,
      );
    }
    return result;
  }

  /** One request for `tool`; see {@link call}. */
  private async callOnce(
    tool: OperationTool,
    args: Record<string, unknown>,
    fields: string[] | undefined,
    signal?: AbortSignal,
  ): Promise<CallToolResult> {
    let url: URL;
    try {
      url = this.url(tool, args);
    } catch (err) {
      if (err instanceof ArgumentError) return toolError(`invalid arguments for ${tool.name}: ${err.message}`);
      throw err;
    }
    const timeoutMs = this.options.timeoutMs ?? 60_000;
    const timeout = AbortSignal.timeout(timeoutMs);
    const headers: Record<string, string> = { Accept: 'application/json' };
    let body: string | undefined;
    if (tool.body !== 'none' && args.body !== undefined) {
      body = JSON.stringify(objectArgument(args.body));
      headers['Content-Type'] = 'application/json';
    }
    let response: Response;
    let text: string;
    try {
      response = await this.client.fetch(url, {
        method: tool.method,
        headers,
        body,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      text = await response.text();
    } catch (err) {
      if (timeout.aborted)
        return toolError(
          `${tool.method} ${url.pathname}: no answer from the API at ${this.options.baseUrl} within ${timeoutMs / 1000} s.`,
        );
      if (signal?.aborted) return toolError(`${tool.method} ${url.pathname}: cancelled.`);
      const message = err instanceof BizapiNetworkError ? err.message : (err as Error).message;
      return toolError(
        `could not reach the API at ${this.options.baseUrl} (${message}). Check BIZAPI_URL and that the server is running.`,
      );
    }
    let json: unknown = undefined;
    if (text !== '') {
      try {
        json = JSON.parse(text);
      } catch {
        json = text;
      }
    }
    if (!response.ok) return errorResult(response.status, json);
    if (json === undefined) return toolResult({ status: response.status });
    if (Array.isArray(json))
      return toolResult({ results: json.map((r) => pick(r, fields)), nextCursor: null } satisfies ToolPage);
    if (json === null || typeof json !== 'object') return toolResult({ value: json });
    const answer = json as Record<string, unknown>;
    if (tool.paged && Array.isArray(answer.results) && 'next' in answer) {
      const next = cursorOf(answer.next);
      let nextCursor: string | null = null;
      if (next !== null) {
        if (this.options.statelessCursors === true) nextCursor = encodeCursor(next.cursor, next.query);
        else {
          this.remember(tool.name, next.cursor, next.query);
          nextCursor = next.cursor;
        }
      }
      return toolResult({ results: answer.results.map((r) => pick(r, fields)), nextCursor } satisfies ToolPage);
    }
    return toolResult(pick(answer, fields) as Record<string, unknown>);
  }
}

/** The MCP tool of an operation. */
function toTool(op: OperationTool): Tool {
  const inputSchema =
    op.method === 'GET'
      ? { ...op.inputSchema, properties: { ...(op.inputSchema.properties as JsonSchema), fields: FIELDS_SCHEMA } }
      : op.inputSchema;
  return {
    name: op.name,
    title: op.summary || op.name,
    description: op.description,
    inputSchema: inputSchema as Tool['inputSchema'],
    annotations: op.annotations,
  };
}

/**
 * The three default tools (docs/mcp.md#the-default-tools): `list_operations`, `describe_operation` and
 * `call_operation`. `call_operation`'s description names every operation id it accepts, so an assistant
 * can call a well-known operation without listing first; the whole list stays under 2,000 tokens.
 */
function metaTools(operations: readonly OperationTool[], readOnly: boolean): Tool[] {
  const ids = operations.map((op) => op.name).join(' ');
  return [
    {
      name: 'list_operations',
      title: 'List API operations',
      description:
        'Lists the API operations call_operation accepts: id, method, path, summary. `search` narrows them (every word must appear in the id, path, summary or description).',
      inputSchema: {
        type: 'object',
        properties: { search: { type: 'string', description: 'Words to look for, e.g. "client list".' } },
        additionalProperties: false,
      },
      annotations: { title: 'List API operations', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    {
      name: 'describe_operation',
      title: 'Describe an API operation',
      description:
        'Describes one API operation: its description, whether it reads or writes, and the JSON Schema of its arguments for call_operation. Call it before a create or an update to learn the body fields.',
      inputSchema: {
        type: 'object',
        properties: { operation_id: { type: 'string', description: 'An operation id, e.g. "client_create".' } },
        required: ['operation_id'],
        additionalProperties: false,
      },
      annotations: {
        title: 'Describe an API operation',
        readOnlyHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    {
      name: 'call_operation',
      title: 'Call an API operation',
      description: `Calls one API operation. \`arguments\`: path and query parameters by name (client_id, page_size, search, cursor, …), the request body under \`body\` (describe_operation shows them). Lists answer {results, nextCursor}; pass nextCursor back as cursor. \`fields\` keeps only the named fields. Operations: ${ids}`,
      inputSchema: {
        type: 'object',
        properties: {
          operation_id: { type: 'string', description: 'One of the operation ids above.' },
          arguments: { type: 'object', description: "The operation's arguments." },
          fields: FIELDS_SCHEMA,
        },
        required: ['operation_id'],
        additionalProperties: false,
      },
      annotations: {
        title: 'Call an API operation',
        readOnlyHint: readOnly,
        ...(!readOnly && { destructiveHint: true }),
        idempotentHint: false,
        openWorldHint: false,
      },
    },
  ];
}

/** Whether every word of `search` appears in the operation's id, path, summary or description. */
function matches(op: OperationTool, search: string): boolean {
  const haystack =
    `${op.name} ${op.name.replace(/_/g, ' ')} ${op.method} ${op.path} ${op.summary} ${op.fullDescription}`.toLowerCase();
  return search
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '')
    .every((w) => haystack.includes(w));
}

/**
 * Builds the MCP server (not yet connected to a transport): its tools generated from `options.document`
 * and selected by the options, each call sent to the API.
 * @throws McpConfigError for a bad selection (see {@link selectOperations}); Error when the document cannot be turned into tools
 */
export function createMcpServer(options: McpServerOptions): {
  server: Server;
  operations: readonly OperationTool[];
  tools: Tool[];
} {
  const operations = options.operations ?? selectOperations(buildOperationTools(options.document), options);
  const byName = new Map(operations.map((op) => [op.name, op]));
  const caller = new OperationCaller(options);
  const dynamic = options.full !== true && options.tools === undefined;
  const tools = dynamic
    ? metaTools(
        operations,
        operations.every((op) => op.method === 'GET'),
      )
    : operations.map(toTool);

  const server = new Server(
    { name: 'bizapi', title: 'bizapi Business Management API', version: options.version ?? '0.0.0' },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name } = request.params;
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    if (!dynamic) {
      const op = byName.get(name);
      if (op === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
      return caller.call(op, args, extra.signal);
    }
    if (name === 'list_operations') {
      const search = typeof args.search === 'string' ? args.search : '';
      const found = operations
        .filter((op) => matches(op, search))
        .map((op) => ({ id: op.name, method: op.method, path: op.path, summary: op.summary }));
      return toolResult({ operations: found });
    }
    if (name !== 'describe_operation' && name !== 'call_operation')
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const id = args.operation_id;
    const op = typeof id === 'string' ? byName.get(id) : undefined;
    if (op === undefined)
      return toolError(
        `unknown operation_id ${JSON.stringify(id ?? null)}: call list_operations for the operation ids.`,
      );
    if (name === 'describe_operation') {
      return toolResult({
        operationId: op.name,
        method: op.method,
        path: op.path,
        summary: op.summary,
        description: op.fullDescription,
        annotations: op.annotations,
        inputSchema: op.inputSchema,
      });
    }
    const callArgs = objectArgument(args.arguments ?? {});
    if (callArgs === null || typeof callArgs !== 'object' || Array.isArray(callArgs))
      return toolError('invalid arguments for call_operation: `arguments` must be an object.');
    return caller.call(
      op,
      { ...(callArgs as Record<string, unknown>), ...(args.fields !== undefined && { fields: args.fields }) },
      extra.signal,
    );
  });
  return { server, operations, tools };
}
