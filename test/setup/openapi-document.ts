/**
 * The served OpenAPI document as test data (issue 8): its operations, a matcher from a concrete request
 * to its operation, and a conformance check of a response against the operation's schema for that status.
 * Suites generated from the document (tenant isolation, fuzzing, response conformance) use this, so that a
 * new route is covered the moment it is documented.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import $RefParser from '@apidevtools/json-schema-ref-parser';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

/** A JSON Schema, inline (the operations of a {@link Document} have every `$ref` resolved). */
export type JsonSchema = Record<string, any>;

/**
 * A copy of `document` with every local `$ref` (`#/components/schemas/Client`, `#/components/responses/NotFound`, …)
 * replaced by what it points at, by @apidevtools/json-schema-ref-parser; keys beside a `$ref` (a `description`)
 * are kept over the target's. `document` is left as it is; a non-local `$ref` is not followed.
 * @throws Error on a reference to nothing, or a cycle (a `ReferenceError`)
 */
export async function dereference<T>(document: T): Promise<T> {
  const options = { resolve: { external: false }, dereference: { circular: false } } as const;
  return (await $RefParser.dereference(structuredClone(document) as JsonSchema, options)) as T;
}

/** One operation of the document. */
export interface DocOperation {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** The path template, e.g. `/v1/client/{client_id}`. */
  path: string;
  operationId: string;
  /** Names of the path parameters, in order. */
  pathParams: string[];
  /** The query parameters with their schemas. */
  query: { name: string; schema: JsonSchema }[];
  /** The `application/json` request body schema, when the operation takes a body. */
  requestSchema?: JsonSchema;
  /** The request body example, when documented. */
  requestExample?: unknown;
  /** Response schemas by status code (`undefined` for a response without JSON content, such as 204). */
  responses: Record<string, JsonSchema | undefined>;
  /** Statuses whose documented content is not JSON (a file's bytes): their bodies are not checked. */
  nonJson: Set<string>;
  /** Whether the operation is marked deprecated. */
  deprecated: boolean;
  /** Whether the operation needs the API key (false for public routes). */
  secured: boolean;
  /** Whether its 200 answer is a `text/event-stream` that does not end (docs/api.md#following-the-feed-live). */
  eventStream: boolean;
  /** Matches a concrete path (no query) of this operation; groups are the path parameters. */
  matcher: RegExp;
}

/** The parsed document. */
export interface Document {
  /** The document as served (with `$ref`s). */
  raw: JsonSchema;
  /** The same with every `$ref` resolved. */
  resolved: JsonSchema;
  operations: DocOperation[];
}

const METHODS = ['get', 'post', 'patch', 'put', 'delete'] as const;
const cache = new WeakMap<FastifyInstance, Document>();

/** Reads `/openapi.json` from `app` once (cached per app) and lists its operations. */
export async function loadDocument(app: FastifyInstance): Promise<Document> {
  const cached = cache.get(app);
  if (cached) return cached;
  const res = await app.inject({ method: 'GET', url: '/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`/openapi.json answered ${res.statusCode}`);
  const raw = res.json() as JsonSchema;
  const resolved = await dereference(raw);
  const operations: DocOperation[] = [];
  for (const [path, item] of Object.entries(resolved.paths as Record<string, JsonSchema>)) {
    for (const m of METHODS) {
      const op = item[m] as JsonSchema | undefined;
      if (!op) continue;
      const params = (op.parameters ?? []) as { name: string; in: string; schema: JsonSchema }[];
      const responses: Record<string, JsonSchema | undefined> = {};
      const nonJson = new Set<string>();
      let eventStream = false;
      for (const [status, r] of Object.entries((op.responses ?? {}) as Record<string, JsonSchema>)) {
        responses[status] = (r.content?.['application/json']?.schema as JsonSchema | undefined) ?? undefined;
        if (r.content && !r.content['application/json']) nonJson.add(status);
        if (status === '200' && r.content?.['text/event-stream'] !== undefined) eventStream = true;
      }
      const json = op.requestBody?.content?.['application/json'];
      const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map((x) => x[1]!);
      operations.push({
        method: m.toUpperCase() as DocOperation['method'],
        path,
        operationId: op.operationId as string,
        pathParams,
        query: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema })),
        requestSchema: json?.schema as JsonSchema | undefined,
        requestExample: json?.example ?? (json?.schema?.examples as unknown[] | undefined)?.[0],
        responses,
        nonJson,
        deprecated: op.deprecated === true,
        secured: !(Array.isArray(op.security) && op.security.length === 0),
        eventStream,
        matcher: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '([^/]+)')}/?$`),
      });
    }
  }
  const doc = { raw, resolved, operations };
  cache.set(app, doc);
  return doc;
}

/**
 * The operation a concrete request belongs to. Literal segments win over parameters
 * (`/v1/inquiry/work` is not `/v1/inquiry/{inquiry_id}`), as the router decides.
 */
export function findOperation(doc: Document, method: string, url: string): DocOperation | undefined {
  const pathname = url.split('?')[0]!;
  const candidates = doc.operations.filter((o) => o.method === method.toUpperCase() && o.matcher.test(pathname));
  return candidates.sort((a, b) => a.pathParams.length - b.pathParams.length)[0];
}

/** Deep copy of a schema in which every object with declared properties is closed (no undeclared ones). */
export function closeObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closeObjects);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(schema)) {
    out[k] =
      k === 'properties'
        ? Object.fromEntries(Object.entries(v as JsonSchema).map(([p, s]) => [p, closeObjects(s)]))
        : closeObjects(v);
  }
  if (out.properties && out.additionalProperties === undefined && out.patternProperties === undefined)
    out.additionalProperties = false;
  return out;
}

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
addFormats.default(ajv);
const validators = new Map<string, ValidateFunction>();

/**
 * Checks one response against the document: the status must be documented for the operation, and the body
 * must validate against that status's schema with every object closed (no undeclared property, no missing
 * required one). A status whose documented content is not JSON (a file download's bytes) is checked for
 * being documented, not for its body. Responses of routes outside the document (the docs UI, `/metrics`) are
 * not checked.
 *
 * @returns the problems found, one line each; empty when the response conforms
 */
export function checkResponse(doc: Document, method: string, url: string, status: number, body: string): string[] {
  const op = findOperation(doc, method, url);
  if (!op) return [];
  const where = `${method} ${url} → ${status} (${op.operationId})`;
  if (status === 405 || status === 413 || status === 415 || status === 429 || status === 503) return []; // server-wide answers
  if (status === 500) return [`${where}: a 500 is never an acceptable answer`];
  if (!(String(status) in op.responses)) return [`${where}: status ${status} is not documented`];
  if (op.nonJson.has(String(status))) return []; // bytes, as documented (a file download)
  const schema = op.responses[String(status)];
  if (schema === undefined) return body === '' ? [] : [`${where}: the document declares no body, but one was sent`];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [`${where}: the body is not JSON`];
  }
  const key = `${op.method} ${op.path} ${status}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(closeObjects(schema) as JsonSchema);
    validators.set(key, validate);
  }
  if (validate(parsed)) return [];
  return (validate.errors ?? []).map(
    (e) =>
      `${where}: ${e.instancePath || '(body)'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`,
  );
}
