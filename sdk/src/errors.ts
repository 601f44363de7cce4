/**
 * Typed errors. Every non-2xx answer becomes a {@link BizapiError} carrying the server's error body (DRF's
 * shape: `{detail, code, requestId}`, or a 400 field map `{property: [messages], requestId}`).
 */

/** A validation field map: property → messages, nested for references (`{client: {id: ['…']}}`). */
export interface FieldErrors {
  [property: string]: string[] | FieldErrors;
}

/** The body without its `requestId` (the rest of a 400 body is the field map). */
function omitRequestId(body: Record<string, unknown>): Record<string, unknown> {
  const { requestId: _omit, ...rest } = body;
  return rest;
}

/**
 * Flattens a field map into `path: messages` lines, nested references joined with dots
 * (`companyName: This field is required.`, `client.id: Invalid pk "9" - object does not exist.`).
 */
function fieldMessages(body: unknown, prefix = ''): string[] {
  const line = (text: string) => (prefix === '' ? text : `${prefix}: ${text}`);
  if (typeof body === 'string') return [line(body)];
  if (Array.isArray(body)) {
    if (body.every((m) => typeof m === 'string')) return body.length === 0 ? [] : [line(body.join(' '))];
    return body.flatMap((item, i) => fieldMessages(item, prefix === '' ? String(i) : `${prefix}.${i}`));
  }
  if (body !== null && typeof body === 'object') {
    return Object.entries(body).flatMap(([key, value]) =>
      fieldMessages(value, prefix === '' ? key : `${prefix}.${key}`),
    );
  }
  return [];
}

/**
 * An error answer of the API. Its `message` is `METHOD URL: STATUS detail`, and for a 400 field map the field
 * messages instead of the detail (`POST …/v1/client: 400 companyName: This field is required.`).
 */
export class BizapiError extends Error {
  /** HTTP status. */
  readonly status: number;
  /** The message (`detail`), or `"Invalid input."` for a validation field map. */
  readonly detail: string;
  /**
   * Machine code: the body's `code` (`not_found`, `parse_error`, `throttled`, `signature_invalid`, …); `invalid`
   * for a 400 field map; `http_<status>` when the body is not the API's.
   */
  readonly code: string;
  /** The field map of a 400 validation error (without `requestId`), else `undefined`. */
  readonly fields: FieldErrors | undefined;
  /** The request id (`requestId` of the body, else the `X-Request-Id` header). */
  readonly requestId: string | undefined;
  /** The raw body (parsed JSON, or text). */
  readonly body: unknown;
  /** The method and URL of the request. */
  readonly request: { method: string; url: string };

  constructor(
    status: number,
    body: unknown,
    request: { method: string; url: string },
    requestIdHeader?: string | null,
  ) {
    const b =
      body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
    const detail =
      typeof b?.detail === 'string'
        ? b.detail
        : b !== undefined && status === 400
          ? 'Invalid input.'
          : `HTTP ${status}`;
    const fieldLines =
      b !== undefined && typeof b.detail !== 'string' && status === 400 ? fieldMessages(omitRequestId(b)) : [];
    super(`${request.method} ${request.url}: ${status} ${fieldLines.length > 0 ? fieldLines.join('; ') : detail}`);
    this.name = 'BizapiError';
    this.status = status;
    this.detail = detail;
    this.body = body;
    this.request = request;
    this.requestId = typeof b?.requestId === 'string' ? b.requestId : (requestIdHeader ?? undefined);
    if (b !== undefined && typeof b.detail !== 'string' && status === 400) {
      this.fields = omitRequestId(b) as FieldErrors;
      this.code = 'invalid';
    } else {
      this.fields = undefined;
      this.code = typeof b?.code === 'string' ? b.code : `http_${status}`;
    }
  }

  /** Builds the error from a response (reads its body). */
  static async fromResponse(response: Response, method: string): Promise<BizapiError> {
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return new BizapiError(response.status, body, { method, url: response.url }, response.headers.get('x-request-id'));
  }
}

/** The server could not be reached (after the retries): DNS, refused or reset connections, timeouts. */
export class BizapiNetworkError extends Error {
  constructor(
    message: string,
    override readonly cause: unknown,
  ) {
    super(message);
    this.name = 'BizapiNetworkError';
  }
}
