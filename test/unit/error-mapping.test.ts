/**
 * Error rendering (decisions §2): how thrown values map to the API's DRF-shaped errors, and the helpers of
 * the exception tree.
 */
import type { ErrorObject } from 'ajv';
import { errorCodes } from 'fastify';
import { describe, expect, it } from 'vitest';
import { toApiError } from '../../src/plugins/error-handler.ts';
import {
  ApiError,
  AuthenticationFailed,
  ErrorCollector,
  type FieldErrors,
  MethodNotAllowed,
  NotAuthenticated,
  NotFound,
  ParseError,
  PayloadTooLarge,
  PermissionDenied,
  Throttled,
  UnsupportedMediaType,
  ValidationError,
  mergeFieldErrors,
  nestMessage,
} from '../../src/shared/errors.ts';
import { InvalidCursor } from '../../src/shared/pagination.ts';

const BODY_LIMIT = 1048576;

/** An Ajv error as Fastify attaches it to `error.validation`. */
function ajvError(instancePath: string, keyword: string, params: Record<string, unknown>, data?: unknown): ErrorObject {
  return { instancePath, keyword, params, data, schemaPath: `#/${keyword}` } as ErrorObject;
}

/** A Fastify validation error for `context`. */
function validationError(context: string, validation: ErrorObject[]) {
  return Object.assign(new Error(`${context} must be valid`), {
    statusCode: 400,
    code: 'FST_ERR_VALIDATION',
    validation,
    validationContext: context,
  });
}

describe('toApiError', () => {
  it('passes an ApiError through unchanged', () => {
    for (const err of [
      new NotFound(),
      new ParseError('x'),
      new Throttled(3),
      new InvalidCursor(),
      ValidationError.at(['a'], 'm'),
    ]) {
      expect(toApiError(err, BODY_LIMIT)).toBe(err);
    }
  });

  it('maps a params validation error to 404 Not found.', () => {
    const err = toApiError(
      validationError('params', [ajvError('/id', 'type', { type: 'integer' }, 'abc')]),
      BODY_LIMIT,
    );
    expect(err).toBeInstanceOf(NotFound);
    expect(err!.statusCode).toBe(404);
    expect(err!.toBody()).toEqual({ detail: 'Not found.' });
  });

  it('maps a body validation error to a 400 field map', () => {
    const err = toApiError(
      validationError('body', [
        ajvError('', 'required', { missingProperty: 'companyName' }),
        ajvError('/client/id', 'type', { type: 'integer' }, 'x'),
      ]),
      BODY_LIMIT,
    );
    expect(err).toBeInstanceOf(ValidationError);
    expect(err!.statusCode).toBe(400);
    expect(err!.toBody()).toEqual({
      companyName: ['This field is required.'],
      client: { id: ['A valid integer is required.'] },
    });
  });

  it('maps a querystring validation error to a 400 keyed by the parameter name', () => {
    const err = toApiError(
      validationError('querystring', [ajvError('/page_size', 'minimum', { limit: 1 }, 0)]),
      BODY_LIMIT,
    );
    expect(err).toBeInstanceOf(ValidationError);
    expect(err!.toBody()).toEqual({ page_size: ['Ensure this value is greater than or equal to 1.'] });
  });

  it('maps malformed JSON to a ParseError "JSON parse error - …"', () => {
    const err = toApiError(new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY(), BODY_LIMIT, 'application/json');
    expect(err).toBeInstanceOf(ParseError);
    expect(err!.statusCode).toBe(400);
    expect(err!.detail.startsWith('JSON parse error')).toBe(true);
    expect(err!.toBody()).toEqual({ detail: err!.detail });
  });

  it('maps an empty JSON body to a ParseError "JSON parse error - …"', () => {
    const err = toApiError(new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY(), BODY_LIMIT, 'application/json');
    expect(err).toBeInstanceOf(ParseError);
    expect(err!.statusCode).toBe(400);
    expect(err!.detail).toMatch(/^JSON parse error - /);
  });

  it('maps a SyntaxError with status 400 (a parser failure) to a ParseError', () => {
    const syntax = Object.assign(new SyntaxError('Unexpected token } in JSON at position 9'), { statusCode: 400 });
    const err = toApiError(syntax, BODY_LIMIT);
    expect(err).toBeInstanceOf(ParseError);
    expect(err!.detail).toBe('JSON parse error - Unexpected token } in JSON at position 9');
  });

  it('maps a too large body to 413', () => {
    const err = toApiError(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE(), 2048);
    expect(err).toBeInstanceOf(PayloadTooLarge);
    expect(err!.statusCode).toBe(413);
    expect(err!.toBody()).toEqual({ detail: expect.stringContaining('2048') });
  });

  it('maps an unsupported content type to 415 naming the media type', () => {
    const err = toApiError(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(), BODY_LIMIT, 'text/csv; charset=utf-8');
    expect(err).toBeInstanceOf(UnsupportedMediaType);
    expect(err!.statusCode).toBe(415);
    expect(err!.detail).toBe('Unsupported media type "text/csv" in request.');
    expect(err!.detail).not.toContain('charset');
  });

  it('maps a Content-Length mismatch to a 400 ParseError', () => {
    const err = toApiError(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH(), BODY_LIMIT);
    expect(err).toBeInstanceOf(ParseError);
    expect(err!.statusCode).toBe(400);
  });

  it('returns undefined for anything unexpected (the 500 path)', () => {
    expect(toApiError(new Error('database exploded'), BODY_LIMIT)).toBeUndefined();
    expect(toApiError(new TypeError('x is undefined'), BODY_LIMIT)).toBeUndefined();
    expect(toApiError(new SyntaxError('no status code'), BODY_LIMIT)).toBeUndefined();
    expect(toApiError('a string', BODY_LIMIT)).toBeUndefined();
    expect(toApiError({}, BODY_LIMIT)).toBeUndefined();
  });
});

describe('ApiError classes', () => {
  it('have the status, detail and code of DRF', () => {
    const cases: [ApiError, number, Record<string, unknown>][] = [
      [new ParseError(), 400, { detail: 'Malformed request.' }],
      [
        new NotAuthenticated(),
        401,
        { detail: 'Authentication credentials were not provided.', code: 'not_authenticated' },
      ],
      [
        new AuthenticationFailed(),
        401,
        { detail: 'Incorrect authentication credentials.', code: 'authentication_failed' },
      ],
      [
        new PermissionDenied(),
        403,
        { detail: 'You do not have permission to perform this action.', code: 'permission_denied' },
      ],
      [
        new PermissionDenied('Plan.', 'PLAN_PERMISSION_DENIED'),
        403,
        { detail: 'Plan.', code: 'PLAN_PERMISSION_DENIED' },
      ],
      [new NotFound(), 404, { detail: 'Not found.' }],
      [new MethodNotAllowed('PUT', ['GET', 'PATCH']), 405, { detail: 'Method "PUT" not allowed.' }],
      [new PayloadTooLarge(10), 413, { detail: 'Request body is larger than 10 bytes.' }],
      [new UnsupportedMediaType('text/xml'), 415, { detail: 'Unsupported media type "text/xml" in request.' }],
      [new Throttled(12), 429, { detail: 'Request was throttled. Expected available in 12 seconds.' }],
      [new ApiError('Boom.'), 500, { detail: 'Boom.' }],
    ];
    for (const [err, status, body] of cases) {
      expect(err).toBeInstanceOf(Error);
      expect(err).toBeInstanceOf(ApiError);
      expect(err.statusCode).toBe(status);
      expect(err.toBody()).toEqual(body);
    }
  });

  it('carry their headers (Allow, Retry-After)', () => {
    expect(new MethodNotAllowed('PUT', ['GET', 'PATCH', 'DELETE']).headers).toEqual({ Allow: 'GET, PATCH, DELETE' });
    expect(new Throttled(7).headers).toEqual({ 'Retry-After': '7' });
    expect(new NotFound().headers).toEqual({});
  });

  it('name themselves after their class', () => {
    expect(new NotFound().name).toBe('NotFound');
    expect(new ValidationError({}).name).toBe('ValidationError');
  });

  it('ValidationError renders its field map as the body', () => {
    const err = new ValidationError({
      name: ['This field is required.'],
      client: { id: ['Invalid pk "9" - object does not exist.'] },
    });
    expect(err.statusCode).toBe(400);
    expect(err.toBody()).toEqual({
      name: ['This field is required.'],
      client: { id: ['Invalid pk "9" - object does not exist.'] },
    });
  });

  it('ValidationError.at puts one message at a path', () => {
    expect(ValidationError.at(['client', 'id'], 'Invalid pk "9" - object does not exist.').toBody()).toEqual({
      client: { id: ['Invalid pk "9" - object does not exist.'] },
    });
    expect(ValidationError.at(['title'], 'm').toBody()).toEqual({ title: ['m'] });
    expect(ValidationError.at([], 'Contract dates.').toBody()).toEqual({ nonField: ['Contract dates.'] });
  });
});

describe('nestMessage', () => {
  it('builds nested maps from a path', () => {
    expect(nestMessage([], 'm')).toEqual({ nonField: ['m'] });
    expect(nestMessage(['a'], 'm')).toEqual({ a: ['m'] });
    expect(nestMessage(['a', 'b', 'c'], 'm')).toEqual({ a: { b: { c: ['m'] } } });
  });
});

describe('mergeFieldErrors', () => {
  it('appends messages and merges nested maps', () => {
    const target: FieldErrors = { a: ['one'], client: { id: ['x'] } };
    const result = mergeFieldErrors(target, { a: ['two'], b: ['three'], client: { id: ['y'], name: ['z'] } });
    expect(result).toBe(target);
    expect(target).toEqual({ a: ['one', 'two'], b: ['three'], client: { id: ['x', 'y'], name: ['z'] } });
  });

  it('does not repeat an identical message', () => {
    const target: FieldErrors = { a: ['same'] };
    mergeFieldErrors(target, { a: ['same', 'other'] });
    expect(target).toEqual({ a: ['same', 'other'] });
  });

  it('keeps a message list over a nested map on the same key', () => {
    const listFirst: FieldErrors = { client: ['Invalid data.'] };
    mergeFieldErrors(listFirst, { client: { id: ['x'] } });
    expect(listFirst).toEqual({ client: ['Invalid data.'] });

    const mapFirst: FieldErrors = { client: { id: ['x'] } };
    mergeFieldErrors(mapFirst, { client: ['Invalid data.'] });
    expect(mapFirst).toEqual({ client: ['Invalid data.'] });
  });
});

describe('ErrorCollector', () => {
  it('is empty and does not throw when nothing was added', () => {
    const c = new ErrorCollector();
    expect(c.empty).toBe(true);
    expect(() => c.throwIfAny()).not.toThrow();
  });

  it('collects several messages and throws one ValidationError with all of them', () => {
    const c = new ErrorCollector();
    c.add(['client', 'id'], 'Invalid pk "9" - object does not exist.');
    c.add(['title'], 'This field is required.');
    c.add(['title'], 'This field is required.');
    c.add([], 'Start date must precede end date.');
    c.add(['client', 'name'], 'Other.');
    expect(c.empty).toBe(false);
    let thrown: unknown;
    try {
      c.throwIfAny();
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as ValidationError).toBody()).toEqual({
      client: { id: ['Invalid pk "9" - object does not exist.'], name: ['Other.'] },
      title: ['This field is required.'],
      nonField: ['Start date must precede end date.'],
    });
  });
});
