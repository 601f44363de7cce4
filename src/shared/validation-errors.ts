/**
 * Request validation with Ajv, and the translation of Ajv errors into Django REST framework field maps with
 * DRF's wording (decisions §2).
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
import { type FieldErrors, mergeFieldErrors, nestMessage } from './errors.ts';
import { isFormBody } from './form-body.ts';

/** Non-standard keywords our schemas carry (documentation only, or read by this module). */
const ANNOTATIONS = ['x-extension', 'x-pattern-message', 'example'];

function createAjv(coerceTypes: boolean | 'array'): Ajv {
  const ajv = new Ajv({ allErrors: true, verbose: true, coerceTypes, strict: false, useDefaults: false });
  addFormats.default(ajv, ['date', 'time', 'date-time', 'email', 'uri']);
  for (const keyword of ANNOTATIONS) ajv.addKeyword({ keyword, schemaType: ['boolean', 'string', 'number', 'object', 'array'] });
  return ajv;
}

const ajvJson = createAjv(false);
const ajvForm = createAjv(true);
const ajvQuery = createAjv('array');

/** The HTTP parts Fastify validates. */
export type HttpPart = 'body' | 'querystring' | 'params' | 'headers';

/**
 * One error per string in `data` (at any depth) that contains a NUL character, which no database column
 * can hold (PostgreSQL rejects it outright): DRF's CharField refuses them the same way
 * ("Null characters are not allowed.").
 */
export function nullCharacterErrors(data: unknown, instancePath = ''): ErrorObject[] {
  if (typeof data === 'string') {
    return data.includes('\u0000') ? [{ keyword: 'nullCharacter', instancePath, schemaPath: '#', params: {}, data }] : [];
  }
  if (Array.isArray(data)) return data.flatMap((v, i) => nullCharacterErrors(v, `${instancePath}/${i}`));
  if (data !== null && typeof data === 'object') {
    return Object.entries(data).flatMap(([k, v]) => nullCharacterErrors(v, `${instancePath}/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`));
  }
  return [];
}

/** Ajv's verdict plus the NUL-character check, as one result with `errors`. */
function finish(validate: { errors: ErrorObject[] | null }, fn: ValidateFunction, ok: boolean, data: unknown): boolean {
  const extra = nullCharacterErrors(data);
  validate.errors = [...(fn.errors ?? []), ...extra];
  if (validate.errors.length === 0) validate.errors = null;
  return ok && extra.length === 0;
}

/**
 * Fastify validator compiler: returns a function with Ajv's contract (`true`, or `false` with `.errors`)
 * that picks the strict or the coercing Ajv per request as described above.
 */
export function compileValidator(schema: object, httpPart: HttpPart | undefined) {
  if (httpPart === 'body') {
    const strict = ajvJson.compile(schema);
    let coercing: ValidateFunction | undefined;
    const validate = (data: unknown): boolean => {
      let fn: ValidateFunction = strict;
      if (isFormBody(data)) fn = coercing ??= ajvForm.compile(schema);
      return finish(validate, fn, fn(data) as boolean, data);
    };
    validate.errors = null as ErrorObject[] | null;
    return validate;
  }
  const fn = ajvQuery.compile(schema);
  const validate = (data: unknown): boolean => {
    if (data !== null && typeof data === 'object') {
      for (const [k, v] of Object.entries(data)) if (v === '') delete (data as Record<string, unknown>)[k];
    }
    return finish(validate, fn, fn(data) as boolean, data);
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
  time: 'Time has wrong format. Use one of these formats instead: hh:mm[:ss[.uuuuuu]].',
  'date-time': 'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
  email: 'Enter a valid email address.',
  uri: 'Enter a valid URL.',
};

/** DRF's message for one Ajv error. */
export function messageFor(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'This field is required.';
    case 'type': {
      if (error.data === null) return 'This field may not be null.';
      const types = String(p.type).split(',').filter((t) => t !== 'null');
      const t = types[0];
      if (t === 'integer') return 'A valid integer is required.';
      if (t === 'number') return 'A valid number is required.';
      if (t === 'string') return 'Not a valid string.';
      if (t === 'boolean') return 'Must be a valid boolean.';
      if (t === 'array') return `Expected a list of items but got type "${pyType(error.data)}".`;
      if (t === 'object') return `Invalid data. Expected a dictionary, but got ${pyType(error.data)}.`;
      return 'Invalid value.';
    }
    case 'minLength':
      return p.limit === 1 ? 'This field may not be blank.' : `Ensure this field has at least ${String(p.limit)} characters.`;
    case 'maxLength':
      return `Ensure this field has no more than ${String(p.limit)} characters.`;
    case 'minimum':
      return `Ensure this value is greater than or equal to ${String(p.limit)}.`;
    case 'maximum':
      return `Ensure this value is less than or equal to ${String(p.limit)}.`;
    case 'minItems':
      return p.limit === 1 ? 'This list may not be empty.' : `Ensure this field has at least ${String(p.limit)} elements.`;
    case 'maxItems':
      return `Ensure this field has no more than ${String(p.limit)} elements.`;
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
    default:
      return 'Invalid value.';
  }
}

/**
 * Turns Ajv errors into a DRF field map.
 *
 * - `/client/id` → `{"client": {"id": [msg]}}`; a missing property is reported under its own name.
 * - Inside a list (`/inChargeSet/0/id`) the message goes to the list property itself, as the spec asks
 *   ("for list properties an array of str"), prefixed with the entry's position.
 * - Errors on the whole body (not an object at all) go to `nonField`.
 * - `anyOf` / `oneOf` summaries are dropped: their branch errors say more.
 */
export function ajvErrorsToFields(errors: readonly ErrorObject[]): FieldErrors {
  const out: FieldErrors = {};
  // A value of the wrong type for an enum gets DRF's single "not a valid choice" message, not two.
  const enumPaths = new Set(errors.filter((e) => e.keyword === 'enum' || e.keyword === 'const').map((e) => e.instancePath));
  // A null for a non-nullable enum is "This field may not be null." alone, as DRF says it.
  const nullTypePaths = new Set(errors.filter((e) => e.keyword === 'type' && e.data === null).map((e) => e.instancePath));
  for (const error of errors) {
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'if') continue;
    if (error.keyword === 'type' && error.data !== null && enumPaths.has(error.instancePath)) continue;
    if ((error.keyword === 'enum' || error.keyword === 'const') && error.data === null && nullTypePaths.has(error.instancePath)) continue;
    const segments = error.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (error.keyword === 'required') segments.push(String((error.params as { missingProperty: string }).missingProperty));
    let message = messageFor(error);
    const listAt = segments.findIndex((s) => /^\d+$/.test(s));
    let path = segments;
    if (listAt > 0) {
      const inner = segments.slice(listAt + 1);
      message = `Item ${Number(segments[listAt]) + 1}${inner.length ? ` (${inner.join('.')})` : ''}: ${message}`;
      path = segments.slice(0, listAt);
    }
    if (path.length === 0 && error.keyword === 'type') {
      message = `Invalid data. Expected a dictionary, but got ${pyType(error.data)}.`;
    }
    mergeFieldErrors(out, nestMessage(path, message));
  }
  return out;
}
