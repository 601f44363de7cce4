/**
 * Request validation with Ajv, and the translation of Ajv errors into Django REST framework field maps with
 * DRF's wording (docs/api.md#errors).
 *
 * Three validators exist per schema, chosen by HTTP part:
 * - JSON bodies: strict types (no coercion), every error reported (`allErrors`).
 * - Form bodies (urlencoded / multipart, marked by `form-body.ts`): scalar strings coerced to the schema's
 *   types, so `amount=5` and `isHidden=true` mean what they mean in JSON.
 * - Query strings and path params: coerced, a single value wrapped into an array where an array is
 *   expected (repeatable `search`), and empty values dropped (`?status_id=` means "no filter").
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { type FieldErrors, mergeFieldErrors, messages, nestMessage } from './errors.ts';
import { isFormBody } from './form-body.ts';

/** Non-standard keywords our schemas carry (documentation only, or read by this module). */
const ANNOTATIONS = ['x-extension', 'x-pattern-message', 'example'];

function createAjv(coerceTypes: boolean | 'array'): Ajv {
  const ajv = new Ajv({ allErrors: true, verbose: true, coerceTypes, strict: false, useDefaults: false });
  addFormats.default(ajv, ['date', 'time', 'date-time', 'email', 'uri']);
  for (const keyword of ANNOTATIONS)
    ajv.addKeyword({ keyword, schemaType: ['boolean', 'string', 'number', 'object', 'array'] });
  return ajv;
}

const ajvJson = createAjv(false);
const ajvForm = createAjv(true);
const ajvQuery = createAjv('array');

/** The HTTP parts Fastify validates. */
export type HttpPart = 'body' | 'querystring' | 'params' | 'headers';

/** Most entries any list in a request may hold, whatever its schema says (docs/api.md#limits). */
export const MAX_LIST_ITEMS = 1000;
/** Most properties any object in a request may hold (docs/api.md#limits). */
export const MAX_OBJECT_PROPERTIES = 1000;
/** Most messages one 400 reports; DRF reports the first error of each list entry (docs/api.md#limits). */
export const MAX_REPORTED_ERRORS = 100;

const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** `/a/b` JSON-pointer segment for a property name. */
function pointer(key: string): string {
  return key.includes('~') || key.includes('/') ? key.replaceAll('~', '~0').replaceAll('/', '~1') : key;
}

/** What {@link shapeErrors} found: the errors, and whether any is structural (a list or object too large). */
export interface ShapeCheck {
  errors: ErrorObject[];
  /** A list or an object over its limit: validation stops here, the schema is not even looked at. */
  tooLarge: boolean;
}

/**
 * The checks every request value gets before (and besides) its schema, in one iterative walk (no recursion,
 * so any nesting depth is safe) that costs one visit per value (docs/api.md#limits):
 *
 * - a list longer than {@link MAX_LIST_ITEMS} or an object with more than {@link MAX_OBJECT_PROPERTIES}
 *   properties, anywhere (known property or not): `maxItems` / `maxProperties` at its path, and its content is
 *   not walked;
 * - a string holding a NUL character, which no database column can hold: DRF's CharField refuses them
 *   ("Null characters are not allowed.");
 * - a string holding a lone UTF-16 surrogate (`"\ud800"` is valid JSON, but not text any database stores):
 *   DRF's CharField refuses them ("Surrogate characters are not allowed: U+D800.").
 *
 * At most {@link MAX_REPORTED_ERRORS} errors are collected.
 */
export function shapeErrors(data: unknown): ShapeCheck {
  const errors: ErrorObject[] = [];
  let tooLarge = false;
  const stack: [unknown, string][] = [[data, '']];
  while (stack.length > 0 && errors.length < MAX_REPORTED_ERRORS) {
    const [value, instancePath] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) {
        errors.push({ keyword: 'nullCharacter', instancePath, schemaPath: '#', params: {}, data: value });
      } else {
        const found = LONE_SURROGATE.exec(value)?.[0];
        if (found !== undefined)
          errors.push({
            keyword: 'surrogate',
            instancePath,
            schemaPath: '#',
            params: { codePoint: found.charCodeAt(0) },
            data: value,
          });
      }
    } else if (Array.isArray(value)) {
      if (value.length > MAX_LIST_ITEMS) {
        tooLarge = true;
        errors.push({
          keyword: 'maxItems',
          instancePath,
          schemaPath: '#',
          params: { limit: MAX_LIST_ITEMS },
          data: value,
        });
        continue;
      }
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], `${instancePath}/${i}`]);
    } else if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value);
      if (keys.length > MAX_OBJECT_PROPERTIES) {
        tooLarge = true;
        errors.push({
          keyword: 'maxProperties',
          instancePath,
          schemaPath: '#',
          params: { limit: MAX_OBJECT_PROPERTIES },
          data: value,
        });
        continue;
      }
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        stack.push([(value as Record<string, unknown>)[key], `${instancePath}/${pointer(key)}`]);
      }
    }
  }
  return { errors, tooLarge };
}

/**
 * Runs the shape checks, then (unless a list or an object is too large) the schema: one result with
 * `errors`. Ajv's errors come first, at most {@link MAX_REPORTED_ERRORS} of them are kept.
 */
function check(validate: { errors: ErrorObject[] | null }, fn: ValidateFunction, data: unknown): boolean {
  const shape = shapeErrors(data);
  if (shape.tooLarge) {
    validate.errors = shape.errors;
    return false;
  }
  const ok = fn(data) as boolean;
  const ajvErrors = fn.errors ?? [];
  validate.errors = [
    ...(ajvErrors.length > MAX_REPORTED_ERRORS ? ajvErrors.slice(0, MAX_REPORTED_ERRORS) : ajvErrors),
    ...shape.errors,
  ];
  if (validate.errors.length === 0) validate.errors = null;
  return ok && shape.errors.length === 0;
}

/** The properties of an object schema whose type is `integer` (query parameters read strictly). */
function integerProperties(schema: object): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  return Object.entries(properties)
    .filter(([, s]) => s.type === 'integer' || (Array.isArray(s.type) && s.type.includes('integer')))
    .map(([name]) => name);
}

/** A query-string integer as DRF's `int()` reads it: optional sign, decimal digits (no `1e2`, `0x1`, `1.0`). */
const DECIMAL_INTEGER = /^[+-]?\d+$/;

/**
 * Fastify validator compiler: returns a function with Ajv's contract (`true`, or `false` with `.errors`)
 * that picks the strict or the coercing Ajv per request as described above. Every part first passes
 * {@link shapeErrors}; integer query parameters must be written in decimal digits (`page_size=1e2` is a
 * 400, docs/api.md#pagination).
 */
export function compileValidator(schema: object, httpPart: HttpPart | undefined) {
  if (httpPart === 'body') {
    const strict = ajvJson.compile(schema);
    let coercing: ValidateFunction | undefined;
    const validate = (data: unknown): boolean => {
      let fn: ValidateFunction = strict;
      if (isFormBody(data)) fn = coercing ??= ajvForm.compile(schema);
      return check(validate, fn, data);
    };
    validate.errors = null as ErrorObject[] | null;
    return validate;
  }
  const fn = ajvQuery.compile(schema);
  const integers = httpPart === 'querystring' ? integerProperties(schema) : [];
  const validate = (data: unknown): boolean => {
    const notDecimal: ErrorObject[] = [];
    if (data !== null && typeof data === 'object') {
      const record = data as Record<string, unknown>;
      for (const [k, v] of Object.entries(record)) if (v === '') delete record[k];
      for (const name of integers) {
        const v = record[name];
        if (typeof v === 'string' && !DECIMAL_INTEGER.test(v)) {
          notDecimal.push({
            keyword: 'type',
            instancePath: `/${pointer(name)}`,
            schemaPath: '#',
            params: { type: 'integer' },
            data: v,
          });
          delete record[name];
        }
      }
    }
    const ok = check(validate, fn, data);
    if (notDecimal.length === 0) return ok;
    validate.errors = [...notDecimal, ...(validate.errors ?? [])];
    return false;
  };
  validate.errors = null as ErrorObject[] | null;
  return validate;
}

/** Python's name for a JSON value's type, as DRF prints it ("str", "int", "list", "dict", …). */
function pyType(value: unknown): string {
  if (value === null) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  switch (typeof value) {
    case 'string':
      return 'str';
    case 'number':
      return Number.isInteger(value) ? 'int' : 'float';
    case 'boolean':
      return 'bool';
    default:
      return 'dict';
  }
}

const FORMAT_MESSAGES: Record<string, string> = {
  date: 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.',
  time: messages.invalidTime,
  'date-time':
    'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
  email: 'Enter a valid email address.',
  uri: 'Enter a valid URL.',
};

/** DRF's message for one Ajv error. */
export function messageFor(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return messages.required;
    case 'type': {
      if (error.data === null) return messages.null;
      const types = String(p.type)
        .split(',')
        .filter((t) => t !== 'null');
      const t = types[0];
      if (t === 'integer') return 'A valid integer is required.';
      if (t === 'number') return messages.invalidNumber;
      if (t === 'string') return 'Not a valid string.';
      if (t === 'boolean') return messages.invalidBoolean;
      if (t === 'array') return `Expected a list of items but got type "${pyType(error.data)}".`;
      if (t === 'object') return messages.notADictionary(pyType(error.data));
      return 'Invalid value.';
    }
    case 'minLength':
      return p.limit === 1 ? messages.blank : `Ensure this field has at least ${String(p.limit)} characters.`;
    case 'maxLength':
      return messages.maxLength(Number(p.limit));
    case 'minimum':
      return `Ensure this value is greater than or equal to ${String(p.limit)}.`;
    case 'maximum':
      return `Ensure this value is less than or equal to ${String(p.limit)}.`;
    case 'minItems':
      return p.limit === 1
        ? 'This list may not be empty.'
        : `Ensure this field has at least ${String(p.limit)} elements.`;
    case 'maxItems':
      return `Ensure this field has no more than ${String(p.limit)} elements.`;
    case 'maxProperties':
      return `Ensure this field has no more than ${String(p.limit)} properties.`;
    case 'enum':
    case 'const':
      return `"${typeof error.data === 'string' ? error.data : JSON.stringify(error.data)}" is not a valid choice.`;
    case 'format':
      return FORMAT_MESSAGES[String(p.format)] ?? 'Enter a valid value.';
    case 'pattern': {
      const custom = (error.parentSchema as Record<string, unknown> | undefined)?.['x-pattern-message'];
      return typeof custom === 'string' ? custom : 'Enter a valid value.';
    }
    case 'nullCharacter':
      return 'Null characters are not allowed.';
    case 'surrogate':
      return `Surrogate characters are not allowed: U+${Number(p.codePoint).toString(16).toUpperCase()}.`;
    default:
      return 'Invalid value.';
  }
}

/**
 * The path of the value an Ajv error is about, as property names and list positions (JSON-pointer escapes
 * decoded): `/inChargeSet/0/id` → `['inChargeSet', '0', 'id']`; a `required` error ends with the missing
 * property, as DRF and the catalog's lines report it under its own name.
 */
export function errorPath(error: ErrorObject): string[] {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required')
    segments.push(String((error.params as { missingProperty: string }).missingProperty));
  return segments;
}

/**
 * Turns Ajv errors into a DRF field map.
 *
 * - `/client/id` → `{"client": {"id": [msg]}}`; a missing property is reported under its own name.
 * - Inside a list (`/inChargeSet/0/id`) the message goes to the list property itself, an array of strings
 *   (docs/api.md#errors), prefixed with the entry's position.
 * - Errors on the whole body (not an object at all) go to `nonField`.
 * - `anyOf` / `oneOf` summaries are dropped: their branch errors say more.
 * - Bounded, as DRF's answer is: one message per list entry (the first error found in it, as DRF's
 *   ListSerializer stops at an entry's first failing field), at most {@link MAX_REPORTED_ERRORS} messages in
 *   all; linear in the number of errors (docs/api.md#limits).
 */
export function ajvErrorsToFields(errors: readonly ErrorObject[]): FieldErrors {
  const out: FieldErrors = {};
  const reportedItems = new Set<string>();
  let reported = 0;
  // A value of the wrong type for an enum gets DRF's single "not a valid choice" message, not two.
  const enumPaths = new Set(
    errors.filter((e) => e.keyword === 'enum' || e.keyword === 'const').map((e) => e.instancePath),
  );
  // A null for a non-nullable enum is "This field may not be null." alone, as DRF says it.
  const nullTypePaths = new Set(
    errors.filter((e) => e.keyword === 'type' && e.data === null).map((e) => e.instancePath),
  );
  for (const error of errors) {
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'if') continue;
    if (error.keyword === 'type' && error.data !== null && enumPaths.has(error.instancePath)) continue;
    if (
      (error.keyword === 'enum' || error.keyword === 'const') &&
      error.data === null &&
      nullTypePaths.has(error.instancePath)
    )
      continue;
    const segments = errorPath(error);
    let message = messageFor(error);
    const listAt = segments.findIndex((s) => /^\d+$/.test(s));
    let path = segments;
    if (listAt > 0) {
      const item = segments.slice(0, listAt + 1).join('/');
      if (reportedItems.has(item)) continue;
      reportedItems.add(item);
      const inner = segments.slice(listAt + 1);
      message = `Item ${Number(segments[listAt]) + 1}${inner.length ? ` (${inner.join('.')})` : ''}: ${message}`;
      path = segments.slice(0, listAt);
    }
    if (path.length === 0 && error.keyword === 'type') {
      message = messages.notADictionary(pyType(error.data));
    }
    if (reported >= MAX_REPORTED_ERRORS) break;
    reported += 1;
    mergeFieldErrors(out, nestMessage(path, message));
  }
  return out;
}

/** `['folders', '0', 'statuses']` → `folders[0].statuses`; no segments → `root`. */
function dottedPath(segments: readonly string[], root: string): string {
  let out = '';
  for (const p of segments) out += /^\d+$/.test(p) ? `[${p}]` : out === '' ? p : `.${p}`;
  return out === '' ? root : out;
}

/**
 * Ajv errors as one line each, `<JSON path>: <what is wrong>`, the wording of a file checked outside HTTP (the
 * catalog file of `bizapi business create --catalog` and `bizapi catalog import`,
 * README.md#provisioning-businesses-keys-and-catalogs): `folders[0].statuses: is required`,
 * `fields[0].dataType: must be one of S, N, … (got "ZZ")`, `catalog: must be object` for the whole document.
 * A `pattern` says the schema's `x-pattern-message` when it has one (`must be a colour like #2f80ed`), else
 * the pattern.
 *
 * @param root the name of the whole document in a line (`catalog`)
 */
export function ajvErrorsToLines(errors: readonly ErrorObject[], root: string): string[] {
  return errors.map((e) => {
    const params = e.params as Record<string, unknown>;
    const segments = errorPath(e);
    if (e.keyword === 'additionalProperties') segments.push(String(params.additionalProperty));
    const at = dottedPath(segments, root);
    switch (e.keyword) {
      case 'required':
        return `${at}: is required`;
      case 'additionalProperties':
        return `${at}: is not a known property`;
      case 'enum':
        return `${at}: must be one of ${(params.allowedValues as unknown[]).join(', ')} (got ${JSON.stringify(e.data)})`;
      case 'type':
        return `${at}: must be ${[params.type].flat().join(' or ')}`;
      case 'format':
        return `${at}: must be a valid ${String(params.format)} (got ${JSON.stringify(e.data)})`;
      case 'pattern': {
        const custom = (e.parentSchema as Record<string, unknown> | undefined)?.['x-pattern-message'];
        return typeof custom === 'string'
          ? `${at}: ${custom} (got ${JSON.stringify(e.data)})`
          : `${at}: must match ${String(params.pattern)}`;
      }
      default:
        return `${at}: ${e.message ?? 'is invalid'}`;
    }
  });
}
