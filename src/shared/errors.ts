/**
 * The API's exception tree, copied from Django REST framework's `exceptions.py` (docs/api.md#errors).
 * Services and plugins throw these; `plugins/error-handler.ts` renders every one of them.
 */

/** A validation detail: property → messages, nested for references (`{client: {id: ["…"]}}`). */
export interface FieldErrors {
  [property: string]: string[] | FieldErrors;
}

/** Base class: an HTTP status, a default message and a machine code, as DRF's `APIException`. */
export class ApiError extends Error {
  readonly statusCode: number = 500;
  /** Extra response headers (for example `Allow`, `Retry-After`). */
  readonly headers: Record<string, string> = {};

  constructor(
    readonly detail: string,
    readonly code?: string,
  ) {
    super(detail);
    this.name = new.target.name;
  }

  /** The response body; the error handler adds `requestId`. */
  toBody(): Record<string, unknown> {
    return this.code === undefined ? { detail: this.detail } : { detail: this.detail, code: this.code };
  }
}

/** 400 with a field map (docs/api.md#errors, "validation"). */
export class ValidationError extends ApiError {
  override readonly statusCode = 400;

  constructor(readonly fields: FieldErrors) {
    super('Invalid input.', 'invalid');
  }

  /** A single message on one property path, e.g. `ValidationError.at(['client', 'id'], 'Invalid pk…')`. */
  static at(path: readonly string[], message: string): ValidationError {
    return new ValidationError(nestMessage(path, message));
  }

  override toBody(): Record<string, unknown> {
    return { ...this.fields };
  }
}

/** 400 for an unreadable body: `{"detail": "JSON parse error - …"}`. */
export class ParseError extends ApiError {
  override readonly statusCode = 400;
  constructor(detail = 'Malformed request.') {
    super(detail);
  }
}

/**
 * The 400 of a request whose body was cut off: the client closed its connection before sending the body it
 * announced (docs/api.md#errors). The client's fault, so a 400 `parse_error` in the API call log, never a
 * 500 logged as a server error (no one receives the answer).
 */
export function bodyCutOff(): ParseError {
  return new ParseError('The request body ended before its announced length: the client closed the connection.');
}

/**
 * Whether `err` is the error of a request stream whose client went away mid-body (Node's `aborted`, code
 * `ECONNRESET`, on the incoming message), as Fastify's body reader or a hook reading the body meets it.
 */
export function isBodyCutOff(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return e !== null && typeof e === 'object' && e.code === 'ECONNRESET' && e.message === 'aborted';
}

/** 401 when `X-API-Key` is missing. */
export class NotAuthenticated extends ApiError {
  override readonly statusCode = 401;
  constructor(detail = 'Authentication credentials were not provided.') {
    super(detail, 'not_authenticated');
  }
}

/** 401 when `X-API-Key` is unknown or revoked. */
export class AuthenticationFailed extends ApiError {
  override readonly statusCode = 401;
  constructor(detail = 'Incorrect authentication credentials.') {
    super(detail, 'authentication_failed');
  }
}

/** 403; `code` tells why (`signature_invalid`, `signature_required`, `PLAN_PERMISSION_DENIED`). */
export class PermissionDenied extends ApiError {
  override readonly statusCode = 403;
  constructor(detail = 'You do not have permission to perform this action.', code = 'permission_denied') {
    super(detail, code);
  }
}

/** 404 "Not found." — also for another business's record (docs/api.md#errors). */
export class NotFound extends ApiError {
  override readonly statusCode = 404;
  constructor(detail = 'Not found.') {
    super(detail);
  }
  override toBody(): Record<string, unknown> {
    return { detail: this.detail };
  }
}

/** 405 with an `Allow` header. */
export class MethodNotAllowed extends ApiError {
  override readonly statusCode = 405;
  constructor(method: string, allow: readonly string[]) {
    super(`Method "${method}" not allowed.`);
    this.headers.Allow = allow.join(', ');
  }
}

/** 413 when the body exceeds the configured limit. */
export class PayloadTooLarge extends ApiError {
  override readonly statusCode = 413;
  constructor(limitBytes: number) {
    super(`Request body is larger than ${limitBytes} bytes.`);
  }
}

/** 415 for a body in another media type than JSON, urlencoded or multipart. */
export class UnsupportedMediaType extends ApiError {
  override readonly statusCode = 415;
  constructor(mediaType: string) {
    super(`Unsupported media type "${mediaType}" in request.`);
  }
}

/** 429 with `Retry-After` (seconds). */
export class Throttled extends ApiError {
  override readonly statusCode = 429;
  constructor(waitSeconds: number) {
    super(`Request was throttled. Expected available in ${waitSeconds} seconds.`);
    this.headers['Retry-After'] = String(waitSeconds);
  }
}

/** 503 when the server sheds load, is shutting down or took too long; `Retry-After` (seconds) when given. */
export class ServiceUnavailable extends ApiError {
  override readonly statusCode = 503;
  constructor(detail = 'Service temporarily unavailable, try again later.', retryAfterSeconds?: number) {
    super(detail);
    if (retryAfterSeconds !== undefined) this.headers['Retry-After'] = String(retryAfterSeconds);
  }
}

/**
 * DRF's messages that several checks share, built in one place so the wording cannot drift
 * (`docs/api.md#errors`). Each returns the text of one entry of a field's message list.
 */
export const messages = {
  /** DRF `PrimaryKeyRelatedField`: `Invalid pk "9" - object does not exist.` (also for another business's record). */
  invalidPk: (id: number | string): string => `Invalid pk "${id}" - object does not exist.`,
  /** The same for a reference by path (`fileSet[].file`): `Invalid path "…" - object does not exist.` */
  invalidPath: (path: string): string => `Invalid path "${path}" - object does not exist.`,
  /** DRF `Field.default_error_messages['required']`. */
  required: 'This field is required.',
  /** DRF `Field.default_error_messages['null']`. */
  null: 'This field may not be null.',
  /** DRF `CharField.default_error_messages['blank']`. */
  blank: 'This field may not be blank.',
  /** DRF `CharField.default_error_messages['max_length']`; `limit` in characters. */
  maxLength: (limit: number): string => `Ensure this field has no more than ${String(limit)} characters.`,
  /** DRF `FloatField` / `DecimalField` `invalid`. */
  invalidNumber: 'A valid number is required.',
  /** DRF `TimeField.default_error_messages['invalid']` with the default input formats. */
  invalidTime: 'Time has wrong format. Use one of these formats instead: hh:mm[:ss[.uuuuuu]].',
  /** DRF `BooleanField.default_error_messages['invalid']`. */
  invalidBoolean: 'Must be a valid boolean.',
  /** DRF `Serializer`'s `invalid` for a non-object body or nested value; `pyType` is Python's type name. */
  notADictionary: (pyType: string): string => `Invalid data. Expected a dictionary, but got ${pyType}.`,
} as const;

/** Builds `{a: {b: [message]}}` from `['a', 'b']`. */
export function nestMessage(path: readonly string[], message: string): FieldErrors {
  const [head, ...rest] = path;
  if (head === undefined) return { nonField: [message] };
  return { [head]: rest.length === 0 ? [message] : nestMessage(rest, message) };
}

/** The messages already in each list of a field map, so that appending one more costs O(1), not O(n). */
const knownMessages = new WeakMap<string[], Set<string>>();

/** Appends the messages of `value` that `existing` does not hold yet, in constant time per message. */
function appendNew(existing: string[], value: readonly string[]): void {
  let known = knownMessages.get(existing);
  if (known === undefined) knownMessages.set(existing, (known = new Set(existing)));
  for (const m of value) {
    if (known.has(m)) continue;
    known.add(m);
    existing.push(m);
  }
}

/**
 * Merges `source` into `target` (messages appended without duplicates, nested maps merged); returns `target`.
 * Linear in the size of `source`, however many messages `target` holds already.
 */
export function mergeFieldErrors(target: FieldErrors, source: FieldErrors): FieldErrors {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (existing === undefined) target[key] = Array.isArray(value) ? [...value] : mergeFieldErrors({}, value);
    else if (Array.isArray(existing) && Array.isArray(value)) appendNew(existing, value);
    else if (!Array.isArray(existing) && !Array.isArray(value)) mergeFieldErrors(existing, value);
    // A list and a map on the same key: the list (a message about the whole property) wins.
    else if (Array.isArray(value)) target[key] = value;
  }
  return target;
}

/**
 * Collects field errors from several checks so one response reports all of them (DRF reports every field).
 * `throwIfAny()` raises a {@link ValidationError} when anything was added.
 */
export class ErrorCollector {
  readonly fields: FieldErrors = {};

  /** Adds one message at a property path. */
  add(path: readonly string[], message: string): void {
    mergeFieldErrors(this.fields, nestMessage(path, message));
  }

  get empty(): boolean {
    return Object.keys(this.fields).length === 0;
  }

  throwIfAny(): void {
    if (!this.empty) throw new ValidationError(this.fields);
  }
}
