/**
 * Typed errors. Every non-2xx answer becomes a {@link BizapiError} carrying the server's error body (DRF's
 * shape: `{detail, code, requestId}`, or a 400 field map `{property: [messages], requestId}`).
 */
/** A validation field map: property → messages, nested for references (`{client: {id: ['…']}}`). */
export interface FieldErrors {
    [property: string]: string[] | FieldErrors;
}
/**
 * An error answer of the API. Its `message` is `METHOD URL: STATUS detail`, and for a 400 field map the field
 * messages instead of the detail (`POST …/v1/client: 400 companyName: This field is required.`).
 */
export declare class BizapiError extends Error {
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
    readonly request: {
        method: string;
        url: string;
    };
    constructor(status: number, body: unknown, request: {
        method: string;
        url: string;
    }, requestIdHeader?: string | null);
    /** Builds the error from a response (reads its body). */
    static fromResponse(response: Response, method: string): Promise<BizapiError>;
}
/** The server could not be reached (after the retries): DNS, refused or reset connections, timeouts. */
export declare class BizapiNetworkError extends Error {
    readonly cause: unknown;
    constructor(message: string, cause: unknown);
}
