/**
 * One renderer for every error (docs/api.md#errors): the API's own {@link ApiError}s, Ajv validation errors,
 * Fastify's own 4xx errors (malformed JSON, body too large, unsupported media type), unknown routes (404),
 * known paths with the wrong method (405 with `Allow`), the database unavailable (503 with `Retry-After`,
 * see `src/db/unavailable.ts`), and anything unexpected (500, logged, never a stack trace). Every error body carries `requestId`.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import {
  ApiError,
  bodyCutOff,
  isBodyCutOff,
  MethodNotAllowed,
  NotFound,
  ParseError,
  PayloadTooLarge,
  ServiceUnavailable,
  UnsupportedMediaType,
  ValidationError,
} from '../shared/errors.ts';
import { ajvErrorsToFields } from '../shared/validation-errors.ts';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/unavailable.ts';

/** Maps any thrown value to an {@link ApiError}; `undefined` means "unexpected" (a 500). */
export function toApiError(error: unknown, bodyLimit: number, contentType = ''): ApiError | undefined {
  if (error instanceof ApiError) return error;
  const e = error as FastifyError & { validation?: unknown[]; validationContext?: string };
  if (Array.isArray(e.validation)) {
    // A path id that is no integer is an unknown id (404); one above 2^53 − 1 is a 400 (docs/api.md#ids).
    if (e.validationContext === 'params') {
      const tooLarge = (e.validation as { keyword?: string }[]).every((v) => v.keyword === 'maximum');
      return tooLarge ? new ValidationError(ajvErrorsToFields(e.validation as never)) : new NotFound();
    }
    return new ValidationError(ajvErrorsToFields(e.validation as never));
  }
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ParseError(
        `JSON parse error - ${e.message.replace(/^Body is not valid JSON but content-type is set to 'application\/json'$/, 'Invalid JSON.')}`,
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ParseError('JSON parse error - Expecting value: the body is empty.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new PayloadTooLarge(bodyLimit);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? new UnsupportedMediaType(contentType.split(';')[0]?.trim() ?? '')
        : new ParseError('Request body size did not match Content-Length.');
    case 'FST_ERR_HANDLER_TIMEOUT':
      return new ServiceUnavailable('The server took too long to answer this request.');
    default:
      break;
  }
  // A body cut off by the client (Fastify's own reader): the client's fault, not the server's.
  if (isBodyCutOff(error)) return bodyCutOff();
  if (e instanceof SyntaxError && (e as { statusCode?: number }).statusCode === 400) {
    return new ParseError(`JSON parse error - ${e.message}`);
  }
  // The database is unreachable, restarting, terminated the session, or busy beyond the busy timeout:
  // DRF's ServiceUnavailable (its default detail), with `Retry-After` (docs/deployment.md#database-outages).
  if (isDatabaseUnavailable(error)) return new ServiceUnavailable(undefined, DATABASE_RETRY_AFTER_SECONDS);
  // The static files of the docs UI (@fastify/send): a path leaving the static directory (`../`, `%2e%2e`)
  // is its 403, a malformed one (`%00`) its 400; both are paths that name no file, so 404 as any unknown path.
  if (
    (e.statusCode === 403 || e.statusCode === 404 || e.statusCode === 400) &&
    /^(?:Forbidden|Not ?Found|Bad ?Request)Error$/.test(e.name)
  ) {
    return new NotFound();
  }
  return undefined;
}

/**
 * DRF's `default_code` of each status (docs/api.md#errors): the `code` of a `{detail}` body whose error names
 * none. 413 and 503 have no DRF exception; their codes follow the same style.
 */
const DEFAULT_CODES: Readonly<Record<number, string>> = {
  400: 'invalid',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'throttled',
  500: 'error',
  503: 'service_unavailable',
};

/**
 * The machine code of an error (docs/api.md#errors): its own `code` (401/403 and the extensions' codes),
 * else `parse_error` for an unreadable body, else DRF's default code of its status (`error` when none).
 */
export function errorCode(error: ApiError): string {
  if (error.code !== undefined) return error.code;
  if (error instanceof ParseError) return 'parse_error';
  return DEFAULT_CODES[error.statusCode] ?? (error.statusCode >= 500 ? 'error' : 'invalid');
}

/**
 * Sends an {@link ApiError} with its headers and `requestId`. A `{detail}` body always carries `code`
 * ({@link errorCode}); a 400 field map does not (a resource property may be named `code`, and DRF's field map
 * has no top-level code): a 400 without `detail` is a validation error, code `invalid` (docs/api.md#errors).
 */
export function sendApiError(request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  const body = error.toBody();
  if (typeof body.detail === 'string' && body.code === undefined) body.code = errorCode(error);
  return reply
    .code(error.statusCode)
    .type('application/json; charset=utf-8')
    .send({ ...body, requestId: request.id });
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The not-found handler: 405 with `Allow` when the path exists for other methods, else 404 `Not found.`.
     * The `/v1` scope installs it as its own not-found handler too, so that its hooks (authentication, rate
     * limit, API call log) see a call to an unknown path.
     */
    answerNotFound: (request: FastifyRequest, reply: FastifyReply) => FastifyReply;
  }
}

/**
 * Installs the error handler and the not-found handler. The not-found handler answers 405 with `Allow` when
 * the path exists for other methods (routes are recorded as they are added).
 */
export default fp(
  async function errorHandler(app: FastifyInstance) {
    const known = FindMyWay({ ignoreTrailingSlash: true });
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      // An integer path parameter only matches digits, so `/v1/client/status` is not `/v1/client/{id}`.
      const params =
        (route.schema?.params as { properties?: Record<string, { type?: string }> } | undefined)?.properties ?? {};
      const pattern = route.url.replace(/:(\w+)/g, (m, name: string) =>
        params[name]?.type === 'integer' ? `${m}(^\\d+$)` : m,
      );
      for (const method of methods) {
        if (method === 'HEAD') continue;
        try {
          known.on(method as HTTPMethod, pattern, () => undefined);
        } catch {
          // Already recorded (the trailing-slash twin of a route).
        }
      }
    });

    app.setErrorHandler((error, request, reply) => {
      const apiError = toApiError(error, app.initialConfig.bodyLimit ?? 1048576, request.headers['content-type']);
      if (apiError) {
        if (apiError.statusCode >= 500) request.log.error({ err: error }, 'request failed');
        return sendApiError(request, reply, apiError);
      }
      request.log.error({ err: error }, 'unexpected error');
      return reply
        .code(500)
        .type('application/json; charset=utf-8')
        .send({ detail: 'A server error occurred.', code: 'error', requestId: request.id });
    });

    const answerNotFound = (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
      const path = request.url.split('?')[0] ?? '/';
      const allow = (['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const).filter((m) => known.find(m, path) !== null);
      if (allow.length > 0) return sendApiError(request, reply, new MethodNotAllowed(request.method, allow));
      return sendApiError(request, reply, new NotFound());
    };
    app.decorate('answerNotFound', answerNotFound);
    app.setNotFoundHandler(answerNotFound);
  },
  { name: 'error-handler' },
);
