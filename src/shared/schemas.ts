/**
 * Shared TypeBox pieces: references, nullable scalars, dates, the member shape, page envelopes, error bodies
 * and query-parameter types (docs/api.md#requests, docs/api.md#responses-and-status-codes,
 * docs/api.md#errors, docs/api.md#pagination, docs/api.md#filters).
 */
import Type, { type Static, type TSchema } from 'typebox';
import { messages } from './errors.ts';

/** Descriptions of the {@link Named} schemas, by name: what each component shows as its own description. */
export const COMPONENT_DESCRIPTIONS = new Map<string, string | undefined>();

/** The pattern of a boolean query parameter ({@link QueryBoolean}); the document types those `boolean`. */
export const BOOLEAN_PATTERN = '^(true|false|1|0)$';

/**
 * Names a shape for the OpenAPI document: the schema gets `title: name` (an annotation Ajv and
 * fast-json-stringify ignore), and the document lists it once under `components.schemas.<name>`, referenced
 * with `$ref` wherever it (or a copy of it with another description or example) appears. Its own
 * `description` is the component's. See plugins/openapi-components.ts.
 */
export function Named<T extends TSchema>(name: string, schema: T): T {
  if (!COMPONENT_DESCRIPTIONS.has(name))
    COMPONENT_DESCRIPTIONS.set(name, (schema as { description?: string }).description);
  return { ...schema, title: name };
}

/**
 * `T | null` as a JSON Schema type array (`{"type": ["string", "null"], …}`), so Ajv reports
 * "This field may not be null." cleanly and OpenAPI 3.1 shows one schema. `schema` must have a `type`;
 * an `enum` (a {@link StringEnum}) gets `null` among its values too.
 */
export function Nullable<T extends TSchema>(schema: T) {
  const s = schema as unknown as { type?: unknown; enum?: unknown[] };
  if (typeof s.type !== 'string') throw new Error('Nullable() needs a schema with a single "type"');
  return Type.Unsafe<Static<T> | null>({
    ...schema,
    type: [s.type, 'null'],
    ...(s.enum ? { enum: [...s.enum, null] } : {}),
  });
}

/** A string enum (`{"type": "string", "enum": […]}`), typed as the union of its values. */
export function StringEnum<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/**
 * The largest id the API takes or gives: 2^53 − 1, the largest integer a JSON number holds exactly in
 * JavaScript (ids are 64-bit in the database; docs/api.md#ids).
 */
export const MAX_ID = Number.MAX_SAFE_INTEGER;

/**
 * The one id schema: a positive integer up to {@link MAX_ID}, for path ids, query filters and `{id}`
 * references in bodies. A path id that is not an integer answers 404 like an unknown id; one above
 * {@link MAX_ID} (which JSON cannot carry exactly) a 400 (docs/api.md#ids).
 */
export const IdParam = Type.Integer({ minimum: 1, maximum: MAX_ID });

/** `YYYY-MM-DD`. */
export const DateString = Type.String({ format: 'date', examples: ['2026-11-22'] });

/** RFC 3339 date-time in UTC with milliseconds (docs/api.md#responses-and-status-codes). */
export const Timestamp = Type.String({ format: 'date-time', examples: ['2026-11-22T05:31:56.123Z'] });

/** A reference to another record in a request body: `{ "id": <int> }`. */
export const IdRef = Type.Object({ id: IdParam }, { examples: [{ id: 1 }] });
export type IdRef = Static<typeof IdRef>;

/** `{id, title}`: client status, contract category, member grade. */
export const IdTitle = Named('IdTitle', Type.Object({ id: Type.Integer(), title: Type.String() }));

/** A member as every response shows it (always all five keys; docs/api.md#responses-and-status-codes). */
export const Member = Named(
  'Member',
  Type.Object({
    id: Type.Integer(),
    nickname: Nullable(Type.String()),
    email: Type.String(),
    isActive: Type.Boolean(),
    grade: IdTitle,
  }),
);
export type Member = Static<typeof Member>;

/**
 * The paged list envelope (docs/api.md#pagination). When `item` is {@link Named}, the page is too:
 * `Paginated<Name>List`, as drf-spectacular names it.
 */
export function Page<T extends TSchema>(item: T, options: Record<string, unknown> = {}) {
  const itemName = (item as { title?: unknown }).title;
  const page = Type.Object(
    {
      next: Nullable(Type.String({ format: 'uri', description: 'Link to the next page, or null on the last page.' })),
      previous: Nullable(
        Type.String({ format: 'uri', description: 'Link to the previous page, or null on the first page.' }),
      ),
      results: Type.Array(item),
    },
    options,
  );
  return typeof itemName === 'string' ? Named(`Paginated${itemName}List`, page) : page;
}

/** A boolean query parameter: `true` / `false`, also `1` / `0` (docs/api.md#filters). */
export const QueryBoolean = Type.String({
  pattern: BOOLEAN_PATTERN,
  'x-pattern-message': messages.invalidBoolean,
  description: '`true` or `false` (`1` / `0` also accepted).',
});

/** Reads a {@link QueryBoolean} value. */
export function parseQueryBoolean(value: string | undefined): boolean | undefined {
  return value === undefined ? undefined : value === 'true' || value === '1';
}

/**
 * An id filter in a query string: a positive integer (docs/api.md#filters).
 * @alias of IdParam (knip: a second name on purpose)
 */
export const QueryId = IdParam;

/** A date filter in a query string: `YYYY-MM-DD`, inclusive (docs/api.md#filters). */
export const QueryDate = Type.String({ format: 'date', description: 'YYYY-MM-DD, inclusive.' });

/**
 * `updated_start` / `updated_end` and the event list's `created_start` / `created_end` (docs/api.md#events):
 * a date (`YYYY-MM-DD`, the whole day in the business time zone) or a date-time with an offset
 * (`2026-11-26T09:30:00+09:00`, that instant); both ends inclusive.
 */
export const QueryDateOrDateTime = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,6})?)?(Z|[+-]\\d{2}:\\d{2}))?$',
  description: 'YYYY-MM-DD (the whole day in the business time zone) or a date-time with an offset; inclusive.',
  examples: ['2026-11-26', '2026-11-26T09:30:00+09:00'],
});

/** `updated` in the full shapes (docs/api.md#events): the last change of the record or of one of its sets. */
export const UpdatedProperty = Type.String({
  format: 'date-time',
  'x-extension': true,
  description: 'Extension: when the record or one of its sets last changed.',
  examples: ['2026-11-22T05:31:56.123Z'],
});

/** The `updated_start` / `updated_end` query properties of every list of a writable resource (docs/api.md#events). */
export const UpdatedQueryProperties = {
  updated_start: Type.Optional({ ...QueryDateOrDateTime, 'x-extension': true }),
  updated_end: Type.Optional({ ...QueryDateOrDateTime, 'x-extension': true }),
};

/** Repeatable `search` (every term must match). */
export const QuerySearch = Type.Array(Type.String({ maxLength: 200 }), {
  description: 'Case-insensitive substring; repeat the parameter to require several terms (AND).',
  maxItems: 10,
});

/** `{detail}` error body (401, 403, 404, 405, 413, 415, 429, 500). */
export const ErrorDetail = Named(
  'ErrorDetail',
  Type.Object(
    {
      detail: Type.String(),
      code: Type.Optional(Type.String()),
      requestId: Type.Optional(Type.String()),
    },
    {
      description:
        'Error: a message and a machine code (`not_found`, `parse_error`, `throttled`, `signature_invalid`, …; docs/api.md#errors).',
    },
  ),
);

/** 400 body: a map of property → messages (nested for references), plus `nonField`. */
export const ValidationErrorBody = Named(
  'ValidationError',
  Type.Object(
    { nonField: Type.Optional(Type.Array(Type.String())), requestId: Type.Optional(Type.String()) },
    {
      additionalProperties: true,
      description: 'Property → list of messages; references nest (`{"client": {"id": ["…"]}}`).',
      examples: [{ companyName: ['This field is required.'], requestId: '8f14e45f-ceea-467f-a0e6-1b3c5d2e9f00' }],
    },
  ),
);

/** The error responses every authenticated operation can give, for `response` schemas. */
export const commonErrorResponses = {
  400: ValidationErrorBody,
  401: { ...ErrorDetail, description: 'Missing, unknown or revoked API key.' },
  403: { ...ErrorDetail, description: 'Bad or missing signature, or the plan does not allow the operation.' },
  404: { ...ErrorDetail, description: 'Not found (also for another business’s id).' },
};

/** Attaches an example to a schema; the OpenAPI document shows it as the media type's example. */
export function withExample<T extends TSchema>(schema: T, example: unknown): T {
  return { ...schema, examples: [example] };
}

/** Example values shared by the OpenAPI examples of several operations. */
export const EXAMPLES = {
  member: { id: 1, nickname: 'Kim', email: 'kim@example.com', isActive: true, grade: { id: 1, title: 'Owner' } },
  created: '2026-11-22T05:31:56.123Z',
  pageLink:
    'https://api.example.com/v1/client?page_size=20&cursor=WzAsIjIwMjYtMTEtMjJUMDU6MzE6NTYuMTIzWiIsNDJd.c2lnbmF0dXJl',
  error404: { detail: 'Not found.', requestId: '8f14e45f-ceea-467f-a0e6-1b3c5d2e9f00' },
} as const;
