/**
 * Typed errors. Every non-2xx answer becomes a {@link BizapiError} carrying the server's error body (DRF's
 * shape: `{detail, code, requestId}`, or a 400 field map `{property: [messages], requestId}`).
 */
/** The body without its `requestId` (the rest of a 400 body is the field map). */
function omitRequestId(body) {
    const { requestId: _omit, ...rest } = body;
    return rest;
}
/**
 * Flattens a field map into `path: messages` lines, nested references joined with dots
 * (`companyName: This field is required.`, `client.id: Invalid pk "9" - object does not exist.`).
 */
function fieldMessages(body, prefix = '') {
    const line = (text) => (prefix === '' ? text : `${prefix}: ${text}`);
    if (typeof body === 'string')
        return [line(body)];
    if (Array.isArray(body)) {
        if (body.every((m) => typeof m === 'string'))
            return body.length === 0 ? [] : [line(body.join(' '))];
        return body.flatMap((item, i) => fieldMessages(item, prefix === '' ? String(i) : `${prefix}.${i}`));
    }
    if (body !== null && typeof body === 'object') {
        return Object.entries(body).flatMap(([key, value]) => fieldMessages(value, prefix === '' ? key : `${prefix}.${key}`));
    }
    return [];
}
/**
 * An error answer of the API. Its `message` is `METHOD URL: STATUS detail`, and for a 400 field map the field
 * messages instead of the detail (`POST …/v1/client: 400 companyName: This field is required.`).
 */
export class BizapiError extends Error {
    /** HTTP status. */
    status;
    /** The message (`detail`), or `"Invalid input."` for a validation field map. */
    detail;
    /**
     * Machine code: the body's `code` (`not_found`, `parse_error`, `throttled`, `signature_invalid`, …); `invalid`
     * for a 400 field map; `http_<status>` when the body is not the API's.
     */
    code;
    /** The field map of a 400 validation error (without `requestId`), else `undefined`. */
    fields;
    /** The request id (`requestId` of the body, else the `X-Request-Id` header). */
    requestId;
    /** The raw body (parsed JSON, or text). */
    body;
    /** The method and URL of the request. */
    request;
    constructor(status, body, request, requestIdHeader) {
        const b = body !== null && typeof body === 'object' && !Array.isArray(body) ? body : undefined;
        const detail = typeof b?.detail === 'string'
            ? b.detail
            : b !== undefined && status === 400
                ? 'Invalid input.'
                : `HTTP ${status}`;
        const fieldLines = b !== undefined && typeof b.detail !== 'string' && status === 400 ? fieldMessages(omitRequestId(b)) : [];
        super(`${request.method} ${request.url}: ${status} ${fieldLines.length > 0 ? fieldLines.join('; ') : detail}`);
        this.name = 'BizapiError';
        this.status = status;
        this.detail = detail;
        this.body = body;
        this.request = request;
        this.requestId = typeof b?.requestId === 'string' ? b.requestId : (requestIdHeader ?? undefined);
        if (b !== undefined && typeof b.detail !== 'string' && status === 400) {
            this.fields = omitRequestId(b);
            this.code = 'invalid';
        }
        else {
            this.fields = undefined;
            this.code = typeof b?.code === 'string' ? b.code : `http_${status}`;
        }
    }
    /** Builds the error from a response (reads its body). */
    static async fromResponse(response, method) {
        const text = await response.text();
        let body = text;
        try {
            body = JSON.parse(text);
        }
        catch {
            // not JSON: keep the text
        }
        return new BizapiError(response.status, body, { method, url: response.url }, response.headers.get('x-request-id'));
    }
}
/** The server could not be reached (after the retries): DNS, refused or reset connections, timeouts. */
export class BizapiNetworkError extends Error {
    cause;
    constructor(message, cause) {
        super(message);
        this.cause = cause;
        this.name = 'BizapiNetworkError';
    }
}
