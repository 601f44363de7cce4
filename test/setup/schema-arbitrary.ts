/**
 * fast-check arbitraries derived from the OpenAPI document's JSON Schemas (issue 8): values that satisfy a
 * schema, and hostile variants of them (wrong types, missing required properties, over-long strings, huge
 * arrays, deep nesting, unicode edge cases, injection strings, impossible dates).
 */
import fc from 'fast-check';
import type { JsonSchema } from './openapi-document.ts';

/** Strings that have broken servers before: injection, traversal, unicode edge cases. */
export const HOSTILE_STRINGS: readonly string[] = [
  "' OR '1'='1",
  "'; DROP TABLE client; --",
  '" OR ""="',
  '1; SELECT pg_sleep(5)',
  '%',
  '_',
  '\\',
  '%00',
  '\u0000',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '/etc/passwd',
  '%2e%2e%2f%2e%2e%2f',
  '\ud800',
  '\udfff',
  '😀'.repeat(40),
  'e\u0301\u0301\u0301',
  '\u202eevil',
  '\ufeff',
  '<script>alert(1)</script>',
  '{{7*7}}',
  '${jndi:ldap://x}',
  '한국어 텍스트',
  ' ',
  '',
  'null',
  'true',
  '0',
  '-1',
  '9'.repeat(40),
  '1e309',
  'NaN',
  '2026-02-30',
  '2026-13-01',
  '0000-00-00',
  '2026-11-22T25:61:61Z',
];

const typesOf = (s: JsonSchema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

function stringFor(s: JsonSchema): fc.Arbitrary<string> {
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as string[]));
  const min = (s.minLength as number | undefined) ?? 0;
  const max = Math.min((s.maxLength as number | undefined) ?? 40, Math.max(min, 40));
  switch (s.format) {
    case 'date':
      return fc
        .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'date-time':
      return fc
        .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString());
    case 'email':
      return fc.emailAddress().filter((e) => e.length <= ((s.maxLength as number | undefined) ?? 254));
    case 'uri':
      return fc.webUrl().filter((u) => u.length <= ((s.maxLength as number | undefined) ?? 2048));
    case 'time':
      return fc
        .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
        .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:00`);
  }
  if (typeof s.pattern === 'string') {
    return fc
      .stringMatching(new RegExp(s.pattern))
      .filter((x) => x.length >= min && x.length <= ((s.maxLength as number | undefined) ?? Infinity));
  }
  return fc
    .string({ unit: 'grapheme', minLength: min, maxLength: max })
    .filter((x) => x.length <= ((s.maxLength as number | undefined) ?? Infinity));
}

/** An arbitrary of values valid for `schema` (within the keywords the document uses). */
export function valid(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.type === undefined) return fc.constantFrom(...(schema.enum as unknown[]));
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (alternatives) return fc.oneof(...alternatives.map((a) => valid(a, depth)));
  const types = typesOf(schema);
  if (types.length > 1) return fc.oneof(...types.map((t) => valid({ ...schema, type: t }, depth)));
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({
        min: (schema.minimum as number | undefined) ?? -1000,
        max: Math.min((schema.maximum as number | undefined) ?? 1_000_000, 2_147_483_647),
      });
    case 'number':
      return fc.double({
        min: (schema.minimum as number | undefined) ?? -1e6,
        max: (schema.maximum as number | undefined) ?? 1e6,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'string':
      return stringFor(schema);
    case 'array': {
      const min = (schema.minItems as number | undefined) ?? 0;
      const max = Math.min((schema.maxItems as number | undefined) ?? 3, Math.max(min, 3));
      if (depth > 4) return fc.constant([]);
      return fc.array(valid((schema.items as JsonSchema | undefined) ?? {}, depth + 1), {
        minLength: min,
        maxLength: max,
      });
    }
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((schema.required ?? []) as string[]);
      if (depth > 4) return fc.constant({});
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, s] of Object.entries(props)) model[k] = valid(s, depth + 1);
      return fc.record(model, { requiredKeys: [...required].filter((k) => k in model) });
    }
    default:
      return fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null));
  }
}

/** A value of the wrong JSON type for `schema`. */
function wrongType(schema: JsonSchema): fc.Arbitrary<unknown> {
  const types = new Set(typesOf(schema));
  const options: fc.Arbitrary<unknown>[] = [];
  if (!types.has('string')) options.push(fc.constantFrom(...HOSTILE_STRINGS));
  if (!types.has('integer') && !types.has('number'))
    options.push(fc.constantFrom(0, -1, 1.5, 2 ** 53, -(2 ** 63), 1e308));
  if (!types.has('boolean')) options.push(fc.boolean());
  if (!types.has('null')) options.push(fc.constant(null));
  if (!types.has('array')) options.push(fc.constant([1, 'a', null]));
  if (!types.has('object')) options.push(fc.constant({ id: 'x', nested: { deeper: [] } }));
  return options.length ? fc.oneof(...options) : fc.constant(Symbol.for('undefined'));
}

/** Every `[path, schema]` in `schema` reachable through object properties and array items. */
function locations(schema: JsonSchema, path: (string | number)[] = [], depth = 0): [(string | number)[], JsonSchema][] {
  const out: [(string | number)[], JsonSchema][] = [[path, schema]];
  if (depth > 4) return out;
  for (const [k, s] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>))
    out.push(...locations(s, [...path, k], depth + 1));
  if (schema.items) out.push(...locations(schema.items as JsonSchema, [...path, 0], depth + 1));
  return out;
}

function setAt(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (typeof head === 'number') {
    const arr = Array.isArray(value) ? [...(value as unknown[])] : [];
    arr[0] = setAt(arr[0], rest, replacement);
    return arr;
  }
  const obj =
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? { ...(value as Record<string, unknown>) }
      : {};
  obj[head!] = setAt(obj[head!], rest, replacement);
  return obj;
}

function deleteAt(value: unknown, path: (string | number)[], key: string): unknown {
  if (path.length === 0) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const { [key]: _removed, ...rest } = value as Record<string, unknown>;
    return rest;
  }
  const [head, ...rest] = path;
  if (value === null || typeof value !== 'object') return value;
  if (typeof head === 'number')
    return Array.isArray(value) ? [deleteAt(value[0], rest, key), ...value.slice(1)] : value;
  return {
    ...(value as Record<string, unknown>),
    [head!]: deleteAt((value as Record<string, unknown>)[head!], rest, key),
  };
}

/** Nested objects `depth` levels deep. */
export function deepNesting(depth: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

/**
 * An arbitrary of bodies that break `schema` in one way: a property of the wrong type, a required property
 * missing, a string one past its limit or enormous, an enormous array, deep nesting, a hostile string where a
 * string goes, or an impossible date.
 */
export function invalid(schema: JsonSchema): fc.Arbitrary<unknown> {
  const base = valid(schema);
  const locs = locations(schema);
  return fc.tuple(base, fc.nat(), fc.nat()).chain(([value, pick, kind]) => {
    const [path, s] = locs[pick % locs.length]!;
    const types = typesOf(s);
    const mutations: fc.Arbitrary<unknown>[] = [wrongType(s).map((w) => setAt(value, path, w))];
    const required = (s.required ?? []) as string[];
    if (required.length > 0) mutations.push(fc.constant(deleteAt(value, path, required[kind % required.length]!)));
    if (types.includes('string')) {
      const max = (s.maxLength as number | undefined) ?? 10_000;
      mutations.push(fc.constant(setAt(value, path, 'x'.repeat(max + 1))));
      mutations.push(fc.constant(setAt(value, path, 'y'.repeat(200_000))));
      mutations.push(fc.constantFrom(...HOSTILE_STRINGS).map((h) => setAt(value, path, h)));
      if (s.format === 'date')
        mutations.push(
          fc.constantFrom('2026-02-30', '2026-13-01', '20261122', '2026-1-1').map((d) => setAt(value, path, d)),
        );
    }
    if (types.includes('array'))
      mutations.push(
        fc.constant(
          setAt(
            value,
            path,
            Array.from({ length: 5000 }, () => ({ id: 1 })),
          ),
        ),
      );
    mutations.push(fc.constant(setAt(value, path, deepNesting(500))));
    return fc.oneof(...mutations);
  });
}
