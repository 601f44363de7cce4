/**
 * Named component schemas, shared error responses and headers for the OpenAPI document (docs/api.md#openapi-document).
 *
 * The route schemas stay inline, as Ajv validates and fast-json-stringify serializes them; a schema that is a
 * named shape carries its name as its JSON Schema `title` (set by `Named()` in `shared/schemas.ts`, an
 * annotation both libraries ignore). {@link componentize} then rewrites the generated document: every schema
 * with a name becomes `{"$ref": "#/components/schemas/<name>"}` and is stored once under
 * `components.schemas`; a copy that adds only a `description` keeps it beside the `$ref`; a nullable copy
 * (`Nullable(Member)`) becomes `anyOf: [{$ref}, {type: "null"}]`. Two different shapes under one name are a
 * programming error and throw, so the document cannot silently describe the wrong one.
 *
 * Every operation under `/v1` then documents the error responses every call can get (400, 401, 403, 404, 413,
 * 415, 429: `components.responses`) and, on its success response, the `X-Request-Id` and rate-limit headers
 * (`components.headers`).
 */

import { BOOLEAN_PATTERN, COMPONENT_DESCRIPTIONS as descriptions } from '../shared/schemas.ts';

/** A node of the document: JSON of any shape, walked by key. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is untyped JSON, read and rewritten by key
type Json = Record<string, any>;

/** Keywords whose values are schemas, maps of schemas, or lists of schemas. */
const SCHEMA_KEYS = ['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else'];
const SCHEMA_MAP_KEYS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
const SCHEMA_LIST_KEYS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
/** Annotations a copy may change without being another shape. */
const ANNOTATIONS = ['title', 'description', 'examples', 'example'];

/** JSON with object keys sorted, to compare two schemas. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Json)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

function withoutAnnotations(schema: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) if (!ANNOTATIONS.includes(k)) out[k] = v;
  return out;
}

/** The non-null form of a nullable copy (`type: ["object", "null"]` → `type: "object"`), or `undefined`. */
function nonNullForm(core: Json): Json | undefined {
  if (!Array.isArray(core.type) || core.type.length !== 2 || !core.type.includes('null')) return undefined;
  const out: Json = { ...core, type: core.type.find((t: string) => t !== 'null') };
  if (Array.isArray(core.enum)) out.enum = core.enum.filter((v: unknown) => v !== null);
  return out;
}

/** Rewrites one schema (a copy), hoisting every named schema in it into `components`. */
function hoist(schema: unknown, components: Json): unknown {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const out: Json = { ...(schema as Json) };
  for (const key of SCHEMA_KEYS) if (out[key] && typeof out[key] === 'object') out[key] = hoist(out[key], components);
  for (const key of SCHEMA_MAP_KEYS) {
    if (out[key] && typeof out[key] === 'object') {
      out[key] = Object.fromEntries(Object.entries(out[key] as Json).map(([k, v]) => [k, hoist(v, components)]));
    }
  }
  for (const key of SCHEMA_LIST_KEYS)
    if (Array.isArray(out[key])) out[key] = out[key].map((s: unknown) => hoist(s, components));
  const name = out.title;
  if (typeof name !== 'string' || !descriptions.has(name)) return out;

  const core = withoutAnnotations(out);
  const nonNull = nonNullForm(core);
  const existing = components[name] as Json | undefined;
  const own = { ...core, ...(descriptions.get(name) !== undefined && { description: descriptions.get(name) }) };
  let nullable = false;
  if (!existing) {
    components[name] = nonNull
      ? { ...nonNull, ...(own.description !== undefined && { description: own.description }) }
      : own;
    nullable = nonNull !== undefined;
  } else {
    const existingCore = canonical(withoutAnnotations(existing));
    if (existingCore === canonical(core)) nullable = false;
    else if (nonNull && existingCore === canonical(nonNull)) nullable = true;
    else throw new Error(`OpenAPI: two different schemas are named "${name}"`);
  }
  const ref: Json = { $ref: `#/components/schemas/${name}` };
  const description =
    out.description !== undefined && out.description !== descriptions.get(name) ? out.description : undefined;
  const result: Json = nullable ? { anyOf: [ref, { type: 'null' }] } : ref;
  if (description !== undefined) result.description = description;
  if (out.examples !== undefined && nullable) result.examples = out.examples;
  return result;
}

/** The error responses of every `/v1` operation, by status (decisions in docs/api.md#errors). */
const ERROR_RESPONSES: Record<
  string,
  { name: string; description: string; schema: string; example: Json; headers?: string[] }
> = {
  400: {
    name: 'ValidationError',
    description: 'Validation failed (property → messages), or the body is malformed JSON or form (`detail`).',
    schema: 'ValidationError',
    example: { companyName: ['This field is required.'], requestId: '8f14e45f-ceea-467f-a0e6-1b3c5d2e9f00' },
  },
  401: {
    name: 'Unauthenticated',
    description: 'Missing, unknown or revoked `X-API-Key` (`code`: `not_authenticated` or `authentication_failed`).',
    schema: 'ErrorDetail',
    example: { detail: 'Authentication credentials were not provided.', code: 'not_authenticated' },
  },
  403: {
    name: 'PermissionDenied',
    description:
      'Wrong `X-Signature`, or none while the server requires signatures (`signature_invalid`, `signature_required`); or the plan does not allow the operation (`PLAN_PERMISSION_DENIED`).',
    schema: 'ErrorDetail',
    example: {
      detail:
        'The X-Signature header does not match the request body: sign it with the secret key of the X-API-Key sent (on /docs: the secret key goes in the X-Signature box).',
      code: 'signature_invalid',
    },
  },
  404: {
    name: 'NotFound',
    description:
      'Unknown id, an id of another business, a deleted record (`Not found.`), or a malformed cursor (`Invalid cursor`).',
    schema: 'ErrorDetail',
    example: { detail: 'Not found.' },
  },
  413: {
    name: 'PayloadTooLarge',
    description: 'The request body is larger than 1 MiB.',
    schema: 'ErrorDetail',
    example: { detail: 'Request body is too large (limit: 1048576 bytes).' },
  },
  415: {
    name: 'UnsupportedMediaType',
    description: 'A body in another content type than JSON, urlencoded or multipart form.',
    schema: 'ErrorDetail',
    example: { detail: 'Unsupported media type "text/plain" in request.' },
  },
  429: {
    name: 'Throttled',
    description:
      'The API key made more requests this minute than the rate limit allows; `Retry-After` says when to retry.',
    schema: 'ErrorDetail',
    example: { detail: 'Request was throttled. Expected available in 42 seconds.' },
    headers: ['Retry-After'],
  },
};

/** Headers of every `/v1` response (docs/api.md#rate-limits). */
const HEADERS: Json = {
  'X-Request-Id': {
    description: 'The request id (a sane incoming `X-Request-Id` is echoed).',
    schema: { type: 'string' },
  },
  RateLimit: {
    description:
      'Requests left in the current window and seconds until it resets (`limit=1000, remaining=999, reset=42`; IETF draft).',
    schema: { type: 'string' },
  },
  'RateLimit-Policy': {
    description: 'The rate-limit policy of the key (`1000;w=60`; IETF draft).',
    schema: { type: 'string' },
  },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } },
};
const SUCCESS_HEADERS = ['X-Request-Id', 'RateLimit', 'RateLimit-Policy'];

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/**
 * Rewrites the generated document in place and returns it: named component schemas with `$ref`, boolean query
 * parameters typed `boolean`, and the error responses and headers of every `/v1` operation.
 * @throws Error when two different shapes carry the same name
 */
export function componentize(document: Json): Json {
  const schemas: Json = {};
  const errorSchemas = new Set<string>();
  for (const [path, item] of Object.entries(document.paths as Json)) {
    for (const method of METHODS) {
      const op = (item as Json)[method] as Json | undefined;
      if (!op) continue;
      for (const parameter of (op.parameters ?? []) as Json[]) {
        // `true` / `false` (also `1` / `0`): a boolean for generated clients (they send true / false).
        if (parameter.schema?.pattern === BOOLEAN_PATTERN) parameter.schema = { type: 'boolean' };
        parameter.schema = hoist(parameter.schema, schemas);
      }
      for (const media of Object.values((op.requestBody?.content ?? {}) as Json))
        media.schema = hoist(media.schema, schemas);
      for (const [status, response] of Object.entries((op.responses ?? {}) as Json)) {
        for (const media of Object.values((response.content ?? {}) as Json))
          media.schema = hoist(media.schema, schemas);
        if (path.startsWith('/v1/') && /^2\d\d$/.test(status)) {
          response.headers = {
            ...Object.fromEntries(SUCCESS_HEADERS.map((h) => [h, { $ref: `#/components/headers/${h}` }])),
            ...response.headers,
          };
        }
      }
      if (path.startsWith('/v1/')) {
        for (const [status, error] of Object.entries(ERROR_RESPONSES)) {
          op.responses[status] = { $ref: `#/components/responses/${error.name}` };
          errorSchemas.add(error.schema);
        }
      }
    }
  }
  const responses: Json = {};
  for (const error of Object.values(ERROR_RESPONSES)) {
    responses[error.name] = {
      description: error.description,
      headers: Object.fromEntries(
        ['X-Request-Id', ...(error.headers ?? [])].map((h) => [h, { $ref: `#/components/headers/${h}` }]),
      ),
      content: {
        'application/json': { schema: { $ref: `#/components/schemas/${error.schema}` }, example: error.example },
      },
    };
  }
  for (const name of errorSchemas) {
    if (!schemas[name]) throw new Error(`OpenAPI: the error schema "${name}" is not used by any route`);
  }
  const sorted = Object.fromEntries(
    Object.keys(schemas)
      .sort()
      .map((k) => [k, schemas[k]]),
  );
  document.components = { ...document.components, schemas: sorted, responses, headers: HEADERS };
  return document;
}
