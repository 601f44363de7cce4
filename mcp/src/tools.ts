/**
 * The tools of `bizapi mcp` (docs/mcp.md#tools), generated from the OpenAPI document: one per operation
 * under `/v1`, named by its `operationId`, whose input schema holds the path and query parameters at the top
 * level by their names and the JSON request body under `body`, with every `$ref` inlined so that clients
 * which do not follow references still see the fields. Pure: no I/O, no MCP SDK.
 */

/** A JSON Schema object (JSON Schema 2020-12, the dialect of OpenAPI 3.1 and of MCP tool schemas). */
export type JsonSchema = Record<string, unknown>;

/** The MCP tool annotations this server sets (docs/mcp.md#tools). */
export interface ToolAnnotations {
  /** The operation's summary. */
  title?: string;
  /** `true` for GET. */
  readOnlyHint: boolean;
  /** `true` for DELETE; `false` for the other writes (creates add, PATCH changes only the fields sent). */
  destructiveHint?: boolean;
  /** `true` for GET, PATCH and DELETE (a repeat with the same arguments changes nothing more); `false` for POST. */
  idempotentHint: boolean;
  /** Always `false`: the tools act on the one configured API. */
  openWorldHint: boolean;
}

/** How one argument of a tool reaches the HTTP request. */
export interface ToolParameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  /** An array-typed query parameter: each value is sent as its own `name=value` (`search=a&search=b`). */
  repeated: boolean;
  /** The parameter's schema, `$ref`s inlined: a path argument is checked against it before it reaches the URL (docs/mcp.md#path-arguments). */
  schema: JsonSchema;
}

/** One operation of the document as a tool. */
export interface OperationTool {
  /** The `operationId`: the tool's name. */
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** The path template, e.g. `/v1/client/{client_id}`. */
  path: string;
  /** The operation's summary (may be empty). */
  summary: string;
  /** The summary and the first sentence of the operation's description, plus how to page a list. */
  description: string;
  /** The whole description of the operation, as documented. */
  fullDescription: string;
  /** `{type: 'object', properties, required, additionalProperties: false}`, no `$ref` except for recursive shapes (`$defs`). */
  inputSchema: JsonSchema & { type: 'object' };
  parameters: ToolParameter[];
  /** Whether the operation takes a JSON request body (the `body` argument), and whether it must. */
  body: 'none' | 'optional' | 'required';
  /** Whether the operation answers a page `{next, previous, results}` (it takes a `cursor`). */
  paged: boolean;
  annotations: ToolAnnotations;
}

const METHODS = ['get', 'post', 'patch', 'put', 'delete'] as const;

/** Keywords of OpenAPI (not JSON Schema) and vendor extensions: dropped from tool schemas, so that strict validators accept them. */
const NON_SCHEMA_KEYWORDS = new Set([
  'example',
  'discriminator',
  'xml',
  'externalDocs',
  'nullable',
  'readOnly',
  'writeOnly',
]);

/** The first sentence of `text` (up to the first `.`, `!` or `?` followed by white space, or the first blank line). */
export function firstSentence(text: string): string {
  const paragraph = text.trim().split(/\n\s*\n/)[0] ?? '';
  const match = /^([\s\S]*?[.!?])(\s|$)/.exec(paragraph);
  return (match ? match[1]! : paragraph).replace(/\s+/g, ' ').trim();
}

/** Reads a local JSON pointer (`#/components/schemas/Client`) in `root`; `undefined` when it points at nothing. */
function resolvePointer(root: unknown, ref: string): unknown {
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/**
 * Inlines the local `$ref`s of schemas taken from `document`. A reference met again inside itself (a
 * recursive shape) becomes `{"$ref": "#/$defs/<Name>"}` and its target is collected in {@link defs}, to be
 * placed at the root of the tool schema; OpenAPI-only keywords and `x-…` extensions are dropped.
 */
class SchemaInliner {
  /** Recursive shapes met so far: `$defs` name → inlined schema. */
  readonly defs: Record<string, JsonSchema> = {};
  constructor(private readonly document: unknown) {}

  /**
   * A self-contained copy of `schema`.
   * @throws Error on a `$ref` to nothing or a non-local `$ref`
   */
  inline(schema: unknown, stack: string[] = []): unknown {
    if (Array.isArray(schema)) return schema.map((s) => this.inline(s, stack));
    if (schema === null || typeof schema !== 'object') return schema;
    const { $ref, ...rest } = schema as JsonSchema;
    let out: JsonSchema = {};
    if (typeof $ref === 'string') {
      if (!$ref.startsWith('#/')) throw new Error(`unsupported $ref "${$ref}" (only local references are inlined)`);
      const name = $ref
        .split('/')
        .pop()!
        .replace(/[^A-Za-z0-9_.-]/g, '_');
      if (stack.includes($ref)) {
        // A recursive shape: refer to it under $defs (inlined once, below, with itself on the stack).
        if (!(name in this.defs)) {
          this.defs[name] = {};
          this.defs[name] = this.inline(resolvePointer(this.document, $ref), stack) as JsonSchema;
        }
        out.$ref = `#/$defs/${name}`;
      } else {
        const target = resolvePointer(this.document, $ref);
        if (target === undefined) throw new Error(`$ref to nothing: ${$ref}`);
        out = { ...(this.inline(target, [...stack, $ref]) as JsonSchema) };
      }
    }
    for (const [key, value] of Object.entries(rest)) {
      if (key.startsWith('x-') || NON_SCHEMA_KEYWORDS.has(key)) continue;
      if (key === 'examples' && !Array.isArray(value)) continue;
      // Keys beside a $ref (a description) win over the target's.
      out[key] =
        key === 'properties' || key === 'patternProperties' || key === '$defs' || key === 'dependentSchemas'
          ? Object.fromEntries(Object.entries(value as JsonSchema).map(([k, v]) => [k, this.inline(v, stack)]))
          : key === 'enum' || key === 'const' || key === 'default' || key === 'examples' || key === 'required'
            ? value
            : this.inline(value, stack);
    }
    return out;
  }
}

/** A parameter object of the document, its `$ref` resolved. */
interface ParameterObject {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

/** The `application/json` schema of an operation's request body (or of its only content type), if any. */
function requestBodyOf(
  document: unknown,
  operation: JsonSchema,
): { schema: JsonSchema; required: boolean } | undefined {
  let rb = operation.requestBody as JsonSchema | undefined;
  if (rb !== undefined && typeof rb.$ref === 'string') rb = resolvePointer(document, rb.$ref) as JsonSchema | undefined;
  const content = rb?.content as Record<string, { schema?: JsonSchema }> | undefined;
  if (content === undefined) return undefined;
  const json = content['application/json'] ?? Object.entries(content).find(([type]) => /json/.test(type))?.[1];
  if (json === undefined) return undefined; // an upload-only body (application/octet-stream): not offered as a JSON argument
  return { schema: json.schema ?? {}, required: rb?.required === true };
}

/** Whether the 2xx answer of an operation is a page `{next, previous, results}` (its schema, followed through `$ref`s). */
function isPaged(document: unknown, operation: JsonSchema): boolean {
  const responses = (operation.responses ?? {}) as Record<string, JsonSchema>;
  const ok = Object.entries(responses).find(([status]) => /^2\d\d$/.test(status))?.[1];
  let schema = (ok?.content as Record<string, { schema?: JsonSchema }> | undefined)?.['application/json']?.schema;
  for (let i = 0; schema !== undefined && typeof schema.$ref === 'string' && i < 10; i++)
    schema = resolvePointer(document, schema.$ref) as JsonSchema | undefined;
  const properties = schema?.properties as Record<string, unknown> | undefined;
  return properties !== undefined && 'results' in properties && 'next' in properties;
}

const PAGING_NOTE =
  'Paged: the answer is {results, nextCursor}; pass nextCursor back as `cursor` (with the same other arguments) for the next page, until it is null.';
const CURSOR_DESCRIPTION = 'The `nextCursor` of the previous page (a token, not a URL). Omit for the first page.';

/** Whether an operation's success answers only a Server-Sent Events stream (docs/api.md#stream). */
function isStream(operation: JsonSchema): boolean {
  const ok = (operation.responses as Record<string, JsonSchema> | undefined)?.['200'];
  const types = Object.keys((ok?.content as Record<string, unknown> | undefined) ?? {});
  return types.length > 0 && types.every((type) => type === 'text/event-stream');
}

/**
 * The tools of `document` (an OpenAPI 3.1 document as `bizapi openapi` prints it): one per operation whose path
 * starts with `/v1` but the event stream (it never ends), sorted by name. Header parameters (`Idempotency-Key`) are not arguments: the client sets
 * them. A body that is not JSON (a raw upload) is not offered.
 * @throws Error when an operation has no `operationId`, two operations share one, a parameter is named `body`
 *   or appears twice, or a `$ref` points at nothing
 */
export function buildOperationTools(document: unknown): OperationTool[] {
  const paths = ((document as JsonSchema)?.paths ?? {}) as Record<string, Record<string, JsonSchema>>;
  const tools: OperationTool[] = [];
  const seen = new Set<string>();
  for (const [path, item] of Object.entries(paths)) {
    if (!/^\/v1(\/|$)/.test(path)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (operation === undefined) continue;
      // a stream (`text/event-stream`, GET /v1/event/stream) never ends: no tool call could answer it
      if (isStream(operation)) continue;
      const name = operation.operationId;
      if (typeof name !== 'string' || name === '')
        throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
      if (seen.has(name)) throw new Error(`operationId "${name}" is used twice`);
      seen.add(name);

      const inliner = new SchemaInliner(document);
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      const parameters: ToolParameter[] = [];
      const rawParameters = [
        ...((item.parameters as unknown[] | undefined) ?? []),
        ...((operation.parameters as unknown[] | undefined) ?? []),
      ];
      for (const raw of rawParameters) {
        const p = (
          typeof (raw as JsonSchema).$ref === 'string'
            ? resolvePointer(document, (raw as JsonSchema).$ref as string)
            : raw
        ) as ParameterObject;
        if (p.in !== 'path' && p.in !== 'query') continue;
        if (p.name === 'body' || p.name in properties)
          throw new Error(`${name}: parameter "${p.name}" clashes with another argument`);
        const schema = { ...(inliner.inline(p.schema ?? {}) as JsonSchema) };
        if (p.name === 'cursor') schema.description = CURSOR_DESCRIPTION;
        else if (p.description !== undefined && schema.description === undefined) schema.description = p.description;
        properties[p.name] = schema;
        const isRequired = p.in === 'path' || p.required === true;
        if (isRequired) required.push(p.name);
        parameters.push({ name: p.name, in: p.in, required: isRequired, repeated: schema.type === 'array', schema });
      }
      const rb = requestBodyOf(document, operation);
      if (rb !== undefined) {
        properties.body = { ...(inliner.inline(rb.schema) as JsonSchema) };
        if (properties.body.description === undefined) properties.body.description = 'The request body (JSON).';
        if (rb.required) required.push('body');
      }
      const inputSchema: JsonSchema & { type: 'object' } = { type: 'object', properties, additionalProperties: false };
      if (required.length > 0) inputSchema.required = required;
      if (Object.keys(inliner.defs).length > 0) inputSchema.$defs = inliner.defs;

      const summary = typeof operation.summary === 'string' ? operation.summary.trim() : '';
      const fullDescription = typeof operation.description === 'string' ? operation.description : '';
      const paged = isPaged(document, operation) && 'cursor' in properties;
      const first = firstSentence(fullDescription);
      const description = [
        summary && !/[.!?]$/.test(summary) ? `${summary}.` : summary,
        first && first !== summary ? first : '',
        paged ? PAGING_NOTE : '',
      ]
        .filter((s) => s !== '')
        .join(' ');
      const upper = method.toUpperCase() as OperationTool['method'];
      const annotations: ToolAnnotations = {
        ...(summary !== '' && { title: summary }),
        readOnlyHint: upper === 'GET',
        ...(upper !== 'GET' && { destructiveHint: upper === 'DELETE' }),
        idempotentHint: upper === 'GET' || upper === 'PATCH' || upper === 'PUT' || upper === 'DELETE',
        openWorldHint: false,
      };
      tools.push({
        name,
        method: upper,
        path,
        summary,
        description,
        fullDescription,
        inputSchema,
        parameters,
        body: rb === undefined ? 'none' : rb.required ? 'required' : 'optional',
        paged,
        annotations,
      });
    }
  }
  return tools.sort((a, b) => a.name.localeCompare(b.name));
}
