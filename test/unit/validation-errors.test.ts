/**
 * Request validation and DRF-shaped field errors (decisions §2): messages in DRF's wording, references
 * nested, list properties as arrays of strings, strict JSON bodies, coerced form bodies and query strings.
 */
import type { ErrorObject } from 'ajv';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { parseUrlEncoded } from '../../src/shared/form-body.ts';
import { IdParam, IdRef, Nullable, QueryBoolean, QueryId, QuerySearch, StringEnum } from '../../src/shared/schemas.ts';
import { ajvErrorsToFields, compileValidator, messageFor } from '../../src/shared/validation-errors.ts';

const Body = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 5 }),
  amount: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
  rate: Type.Optional(Type.Number()),
  flag: Type.Optional(Type.Boolean()),
  kind: Type.Optional(StringEnum(['A', 'B'])),
  day: Type.Optional(Type.String({ format: 'date' })),
  email: Type.Optional(Nullable(Type.String({ format: 'email' }))),
  client: Type.Optional(IdRef),
  inChargeSet: Type.Optional(Type.Array(IdRef, { maxItems: 3 })),
  tags: Type.Optional(Type.Array(Type.String())),
});

const validateBody = compileValidator(Body, 'body');

/** Validates `data` against {@link Body}; returns the DRF field map (`undefined` when valid). */
function fieldsOf(data: unknown) {
  const ok = validateBody(data);
  if (ok) {
    expect(validateBody.errors).toBeNull();
    return undefined;
  }
  expect(validateBody.errors).not.toBeNull();
  return ajvErrorsToFields(validateBody.errors!);
}

describe('compileValidator (JSON body) + ajvErrorsToFields', () => {
  it('accepts a valid body', () => {
    expect(
      fieldsOf({ name: 'abc', amount: 0, flag: false, client: { id: 1 }, inChargeSet: [{ id: 2 }], email: null }),
    ).toBeUndefined();
  });

  it('ignores unknown properties', () => {
    expect(fieldsOf({ name: 'abc', somethingElse: 1, id: 99 })).toBeUndefined();
  });

  it('required', () => {
    expect(fieldsOf({})).toEqual({ name: ['This field is required.'] });
  });

  it('null on a non-nullable property', () => {
    expect(fieldsOf({ name: null })).toEqual({ name: ['This field may not be null.'] });
    expect(fieldsOf({ name: 'a', amount: null })).toEqual({ amount: ['This field may not be null.'] });
    expect(fieldsOf({ name: 'a', client: null })).toEqual({ client: ['This field may not be null.'] });
  });

  it('null on a nullable property is accepted', () => {
    expect(fieldsOf({ name: 'a', email: null })).toBeUndefined();
  });

  it('blank', () => {
    expect(fieldsOf({ name: '' })).toEqual({ name: ['This field may not be blank.'] });
  });

  it('maxLength', () => {
    expect(fieldsOf({ name: 'abcdef' })).toEqual({ name: ['Ensure this field has no more than 5 characters.'] });
  });

  it('minimum and maximum', () => {
    expect(fieldsOf({ name: 'a', amount: -1 })).toEqual({
      amount: ['Ensure this value is greater than or equal to 0.'],
    });
    expect(fieldsOf({ name: 'a', amount: 1001 })).toEqual({
      amount: ['Ensure this value is less than or equal to 1000.'],
    });
  });

  it('enum', () => {
    expect(fieldsOf({ name: 'a', kind: 'X' })).toEqual({ kind: ['"X" is not a valid choice.'] });
    expect(fieldsOf({ name: 'a', kind: null })).toEqual({ kind: ['This field may not be null.'] });
    const nullable = compileValidator(Type.Object({ kind: Nullable(StringEnum(['A', 'B'])) }), 'body');
    expect(nullable({ kind: null })).toBe(true);
    expect(nullable({ kind: 'A' })).toBe(true);
    expect(nullable({ kind: 'C' })).toBe(false);
    expect(ajvErrorsToFields(nullable.errors!)).toEqual({ kind: ['"C" is not a valid choice.'] });
  });

  it('format date and email', () => {
    expect(fieldsOf({ name: 'a', day: '2026-13-01' })).toEqual({
      day: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'],
    });
    expect(fieldsOf({ name: 'a', day: '22.11.2026' })).toEqual({
      day: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'],
    });
    expect(fieldsOf({ name: 'a', email: 'not-an-email' })).toEqual({ email: ['Enter a valid email address.'] });
    expect(fieldsOf({ name: 'a', day: '2028-02-29', email: 'kim@example.com' })).toBeUndefined();
  });

  it('type messages for integer, number, string and boolean', () => {
    expect(fieldsOf({ name: 5, amount: 'x', rate: 'x', flag: 'yes' })).toEqual({
      name: ['Not a valid string.'],
      amount: ['A valid integer is required.'],
      rate: ['A valid number is required.'],
      flag: ['Must be a valid boolean.'],
    });
    expect(fieldsOf({ name: 'a', amount: 1.5 })).toEqual({ amount: ['A valid integer is required.'] });
  });

  it('a JSON body is strict: numbers and booleans sent as strings fail', () => {
    expect(fieldsOf({ name: 'a', amount: '5', flag: 'true' })).toEqual({
      amount: ['A valid integer is required.'],
      flag: ['Must be a valid boolean.'],
    });
  });

  it('nests errors of a reference', () => {
    expect(fieldsOf({ name: 'a', client: { id: 'x' } })).toEqual({ client: { id: ['A valid integer is required.'] } });
    expect(fieldsOf({ name: 'a', client: {} })).toEqual({ client: { id: ['This field is required.'] } });
    expect(fieldsOf({ name: 'a', client: { id: 0 } })).toEqual({
      client: { id: ['Ensure this value is greater than or equal to 1.'] },
    });
  });

  it('a reference that is not an object', () => {
    expect(fieldsOf({ name: 'a', client: 5 })).toEqual({
      client: ['Invalid data. Expected a dictionary, but got int.'],
    });
  });

  it('collapses list item errors into the list property as an array of strings', () => {
    const fields = fieldsOf({ name: 'a', inChargeSet: [{ id: 1 }, { id: 'x' }, {}] });
    expect(Object.keys(fields!)).toEqual(['inChargeSet']);
    const messages = fields!.inChargeSet;
    expect(Array.isArray(messages)).toBe(true);
    expect(messages).toHaveLength(2);
    for (const m of messages as string[]) expect(typeof m).toBe('string');
    expect((messages as string[])[0]).toContain('A valid integer is required.');
    expect((messages as string[])[1]).toContain('This field is required.');
    expect(fieldsOf({ name: 'a', tags: [1, 'x'] })).toEqual({ tags: [expect.stringContaining('Not a valid string.')] });
  });

  it('list-level errors: not a list, too many items', () => {
    expect(fieldsOf({ name: 'a', inChargeSet: 5 })).toEqual({
      inChargeSet: ['Expected a list of items but got type "int".'],
    });
    expect(fieldsOf({ name: 'a', inChargeSet: { id: 1 } })).toEqual({
      inChargeSet: ['Expected a list of items but got type "dict".'],
    });
    expect(fieldsOf({ name: 'a', inChargeSet: [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }] })).toEqual({
      inChargeSet: ['Ensure this field has no more than 3 elements.'],
    });
  });

  it('reports several errors at once', () => {
    expect(fieldsOf({ amount: -1, kind: 'Z', client: { id: 'x' }, email: 'nope' })).toEqual({
      name: ['This field is required.'],
      amount: ['Ensure this value is greater than or equal to 0.'],
      kind: ['"Z" is not a valid choice.'],
      client: { id: ['A valid integer is required.'] },
      email: ['Enter a valid email address.'],
    });
  });

  it('a body that is not an object goes to nonField', () => {
    expect(fieldsOf([])).toEqual({ nonField: ['Invalid data. Expected a dictionary, but got list.'] });
    expect(fieldsOf('text')).toEqual({ nonField: ['Invalid data. Expected a dictionary, but got str.'] });
    expect(fieldsOf(5)).toEqual({ nonField: ['Invalid data. Expected a dictionary, but got int.'] });
    expect(fieldsOf(true)).toEqual({ nonField: ['Invalid data. Expected a dictionary, but got bool.'] });
    expect(fieldsOf(null)).toEqual({ nonField: ['Invalid data. Expected a dictionary, but got NoneType.'] });
  });

  it('drops anyOf summaries and keeps the branch messages', () => {
    const validate = compileValidator(
      Type.Object({ estimate: Type.Union([Type.String({ pattern: '^\\d+$' }), Type.Number()]) }),
      'body',
    );
    expect(validate({ estimate: true })).toBe(false);
    const fields = ajvErrorsToFields(validate.errors!);
    expect(Object.keys(fields)).toEqual(['estimate']);
    expect(fields.estimate).toEqual(expect.arrayContaining(['Not a valid string.', 'A valid number is required.']));
    expect(JSON.stringify(fields)).not.toMatch(/anyOf|must match/);
  });

  it('unescapes JSON-pointer segments of property names', () => {
    const validate = compileValidator(Type.Object({ 'a/b': Type.Integer(), 'c~d': Type.Integer() }), 'body');
    expect(validate({ 'a/b': 'x', 'c~d': 'y' })).toBe(false);
    expect(ajvErrorsToFields(validate.errors!)).toEqual({
      'a/b': ['A valid integer is required.'],
      'c~d': ['A valid integer is required.'],
    });
  });
});

describe('compileValidator (form body)', () => {
  it('coerces the strings of a parsed form body to the schema types', () => {
    const form = parseUrlEncoded('name=abc&amount=5&flag=true&rate=1.5&client.id=3&inChargeSet[0][id]=4');
    expect(validateBody(form)).toBe(true);
    expect(form).toEqual({
      name: 'abc',
      amount: 5,
      flag: true,
      rate: 1.5,
      client: { id: 3 },
      inChargeSet: [{ id: 4 }],
    });
  });

  it('the same values as strings in a plain (JSON) object fail', () => {
    const json = { name: 'abc', amount: '5', flag: 'true' };
    expect(validateBody(json)).toBe(false);
    expect(ajvErrorsToFields(validateBody.errors!)).toEqual({
      amount: ['A valid integer is required.'],
      flag: ['Must be a valid boolean.'],
    });
    expect(json.amount).toBe('5');
  });

  it('still reports values that cannot be coerced, in DRF wording', () => {
    const form = parseUrlEncoded('name=abc&amount=x&flag=yes&client[id]=abc');
    expect(validateBody(form)).toBe(false);
    expect(ajvErrorsToFields(validateBody.errors!)).toEqual({
      amount: ['A valid integer is required.'],
      flag: ['Must be a valid boolean.'],
      client: { id: ['A valid integer is required.'] },
    });
  });

  it('one compiled validator serves JSON and form bodies alternately', () => {
    expect(validateBody(parseUrlEncoded('name=a&amount=5'))).toBe(true);
    expect(validateBody({ name: 'a', amount: '5' })).toBe(false);
    expect(validateBody(parseUrlEncoded('name=a&amount=6'))).toBe(true);
    expect(validateBody.errors).toBeNull();
  });

  it('requires the same properties in a form body', () => {
    expect(validateBody(parseUrlEncoded('amount=5'))).toBe(false);
    expect(ajvErrorsToFields(validateBody.errors!)).toEqual({ name: ['This field is required.'] });
  });
});

describe('compileValidator (querystring / params)', () => {
  const Query = Type.Object({
    status_id: Type.Optional(QueryId),
    is_hidden: Type.Optional(QueryBoolean),
    search: Type.Optional(QuerySearch),
    page_size: Type.Optional(Type.Integer({ minimum: 1 })),
    code: Type.Optional(Type.String({ pattern: '^[A-Z]+$' })),
  });
  const validateQuery = compileValidator(Query, 'querystring');

  it('drops empty-string values', () => {
    const q: Record<string, unknown> = { status_id: '', is_hidden: '', page_size: '' };
    expect(validateQuery(q)).toBe(true);
    expect(q).toEqual({});
  });

  it('coerces integers', () => {
    const q: Record<string, unknown> = { status_id: '7', page_size: '25' };
    expect(validateQuery(q)).toBe(true);
    expect(q).toEqual({ status_id: 7, page_size: 25 });
  });

  it('wraps a single search into an array and keeps a repeated one', () => {
    const one: Record<string, unknown> = { search: 'kim' };
    expect(validateQuery(one)).toBe(true);
    expect(one.search).toEqual(['kim']);
    const many: Record<string, unknown> = { search: ['kim', 'lee'] };
    expect(validateQuery(many)).toBe(true);
    expect(many.search).toEqual(['kim', 'lee']);
  });

  it('reports bad values under the parameter names', () => {
    const q: Record<string, unknown> = { status_id: 'x', page_size: '0', is_hidden: 'yes' };
    expect(validateQuery(q)).toBe(false);
    expect(ajvErrorsToFields(validateQuery.errors!)).toEqual({
      status_id: ['A valid integer is required.'],
      page_size: ['Ensure this value is greater than or equal to 1.'],
      is_hidden: ['Must be a valid boolean.'],
    });
    const fractional: Record<string, unknown> = { page_size: '1.5' };
    expect(validateQuery(fractional)).toBe(false);
    expect(ajvErrorsToFields(validateQuery.errors!)).toEqual({ page_size: ['A valid integer is required.'] });
  });

  it('uses x-pattern-message for pattern errors, else a generic message', () => {
    expect(validateQuery({ is_hidden: 'maybe' })).toBe(false);
    expect(ajvErrorsToFields(validateQuery.errors!)).toEqual({ is_hidden: ['Must be a valid boolean.'] });
    expect(validateQuery({ code: 'abc' })).toBe(false);
    expect(ajvErrorsToFields(validateQuery.errors!)).toEqual({ code: ['Enter a valid value.'] });
    for (const ok of ['true', 'false', '1', '0']) expect(validateQuery({ is_hidden: ok })).toBe(true);
  });

  it('coerces path params', () => {
    const validateParams = compileValidator(Type.Object({ id: IdParam }), 'params');
    const p: Record<string, unknown> = { id: '42' };
    expect(validateParams(p)).toBe(true);
    expect(p.id).toBe(42);
    expect(validateParams({ id: 'abc' })).toBe(false);
    expect(validateParams({ id: '0' })).toBe(false);
  });
});

describe('messageFor', () => {
  const err = (
    keyword: string,
    params: Record<string, unknown>,
    data: unknown = undefined,
    parentSchema?: object,
  ): ErrorObject => ({ keyword, params, data, parentSchema, instancePath: '', schemaPath: '' }) as ErrorObject;

  it('covers the remaining keywords in DRF wording', () => {
    expect(messageFor(err('minLength', { limit: 3 }, 'a'))).toBe('Ensure this field has at least 3 characters.');
    expect(messageFor(err('minItems', { limit: 1 }, []))).toBe('This list may not be empty.');
    expect(messageFor(err('minItems', { limit: 2 }, []))).toBe('Ensure this field has at least 2 elements.');
    expect(messageFor(err('const', { allowedValue: 'A' }, 'B'))).toBe('"B" is not a valid choice.');
    expect(messageFor(err('enum', { allowedValues: [1, 2] }, 3))).toBe('"3" is not a valid choice.');
    expect(messageFor(err('format', { format: 'time' }, 'x'))).toBe(
      'Time has wrong format. Use one of these formats instead: hh:mm[:ss[.uuuuuu]].',
    );
    expect(messageFor(err('format', { format: 'date-time' }, 'x'))).toMatch(/^Datetime has wrong format\./);
    expect(messageFor(err('format', { format: 'uri' }, 'x'))).toBe('Enter a valid URL.');
    expect(messageFor(err('format', { format: 'ipv4' }, 'x'))).toBe('Enter a valid value.');
    expect(messageFor(err('pattern', { pattern: 'x' }, 'y', { 'x-pattern-message': 'Custom.' }))).toBe('Custom.');
    expect(messageFor(err('pattern', { pattern: 'x' }, 'y', {}))).toBe('Enter a valid value.');
    expect(messageFor(err('type', { type: 'array' }, 'x'))).toBe('Expected a list of items but got type "str".');
    expect(messageFor(err('type', { type: 'object' }, 1.5))).toBe(
      'Invalid data. Expected a dictionary, but got float.',
    );
    expect(messageFor(err('type', { type: 'integer,null' }, 'x'))).toBe('A valid integer is required.');
    expect(messageFor(err('type', { type: 'integer' }, null))).toBe('This field may not be null.');
    expect(messageFor(err('uniqueItems', {}, []))).toBe('Invalid value.');
  });
});
