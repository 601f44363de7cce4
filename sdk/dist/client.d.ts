/**
 * The bizapi client: an `openapi-fetch` client typed by the server's document, whose every request is signed
 * (v1, or v2 where the server asks for it), carries an `Idempotency-Key` for `POST`/`PATCH`/`DELETE` (one per logical request, kept across
 * retries), and is retried with back-off on 429, 503 and network errors, honouring `Retry-After`.
 */
import { type Client } from 'openapi-fetch';
import type { SuccessResponseJSON } from 'openapi-typescript-helpers';
import { type OperationId, operations } from './generated/operations.js';
import type { paths } from './generated/schema.js';
import { type HmacSha256, type SignatureVersion } from './signing.js';
/** Retry policy. Delays are in milliseconds. */
export interface RetryOptions {
    /** Retries after the first attempt (default 3; 0 disables retrying). */
    retries?: number;
    /** First back-off delay when the answer names no `Retry-After` (default 250); doubles per retry, with jitter. */
    baseDelayMs?: number;
    /** Largest back-off delay (default 8000). */
    maxDelayMs?: number;
    /** A `Retry-After` longer than this is not waited for: the answer is returned as it is (default 60000). */
    maxRetryAfterMs?: number;
}
/** Options of {@link createBizapi}. */
export interface BizapiOptions {
    /** Server address, e.g. `http://127.0.0.1:8000` (no `/v1`). */
    baseUrl: string;
    /** The API key (`X-API-Key`). */
    apiKey: string;
    /** The key's secret, used only to sign; never sent. */
    secretKey: string;
    /**
     * `auto` (the default): version 1, the reference service's body-only signature, which the reference service
     * and bizapi in its `optional` and `required` modes accept; a server that answers it 403
     * `signature_required` (bizapi with `BIZAPI_SIGNATURE_MODE=v2`) advertises version 2, and from then on this
     * client signs version 2 (the refused request is sent again, signed so: nothing ran). `v1` or `v2`: that
     * version only. docs/authentication.md#signature-version-2
     */
    signatureVersion?: SignatureVersion | 'auto';
    /** HMAC implementation (default: Node's crypto under Node.js, Web Crypto elsewhere). */
    hmac?: HmacSha256;
    retry?: RetryOptions;
    /** The `fetch` to use (default: `globalThis.fetch`). */
    fetch?: typeof globalThis.fetch;
    /** Extra headers sent with every request. */
    headers?: Record<string, string>;
}
type Ops = typeof operations;
/** The OpenAPI operation object of an operationId. */
export type OperationOf<I extends OperationId> = paths[Ops[I]['path']][Ops[I]['method']];
/** The JSON body a successful call of `I` answers. */
export type ResultOf<I extends OperationId> = SuccessResponseJSON<OperationOf<I> & Record<string | number, unknown>>;
/** `path`, `query` parameters and `body` of a call of `I`. */
export type CallInit<I extends OperationId> = (OperationOf<I> extends {
    parameters: infer P;
} ? {
    params?: {
        [K in keyof P as K extends 'path' | 'query' ? K : never]?: P[K];
    };
} : {
    params?: never;
}) & (OperationOf<I> extends {
    requestBody?: {
        content: {
            'application/json': infer B;
        };
    };
} ? {
    body?: B;
} : {
    body?: never;
}) & {
    headers?: Record<string, string>;
    signal?: AbortSignal;
};
/** The item type of a paged list operation (`results[number]`). */
export type ItemOf<I extends OperationId> = ResultOf<I> extends {
    results: (infer T)[];
} ? T : never;
/** The operationIds whose answer is a page (`{next, previous, results}`). */
export type ListOperationId = {
    [I in OperationId]: ResultOf<I> extends {
        results: unknown[];
    } ? I : never;
}[OperationId];
/** `Retry-After` in milliseconds (seconds or an HTTP date), `undefined` when absent or unreadable. */
export declare function retryAfterMs(value: string | null, now?: number): number | undefined;
/** An event of the feed, as `GET /v1/event` lists it (`id`, `sequence`, `type`, `created`, `changedFields`, `parent`, `data`). */
export type FeedEvent = ItemOf<'event_list'>;
/** Options of {@link BizapiEvents.follow}. */
export interface FollowOptions {
    /** The last `sequence` already processed: the events after it are yielded (0: every event kept). */
    afterSequence: number;
    /** Only events of these types or patterns (`client.created`, `inquiry.*`, `*`): the `type` filter of `GET /v1/event`. */
    types?: readonly string[];
    /** Seconds each long-poll request is held by the server while nothing is new (0 to 60, default 30). */
    wait?: number;
    /** Ends the iteration cleanly (the loop finishes; no error) when aborted, also during a held request or a back-off. */
    signal?: AbortSignal;
}
/** The event feed (docs/api.md#following-the-feed-live). */
export interface BizapiEvents {
    /**
     * Follows the business's event feed live: `for await (const event of bizapi.events.follow({afterSequence}))`
     * yields every event after `afterSequence`, oldest first, each exactly once, as it commits — on the long-poll
     * `GET /v1/event?after_sequence=N&wait=S`, advancing N to the `sequence` of each event yielded (so an event
     * is never yielded twice and none is skipped, whatever happens to a connection). Network errors, 5xx and 429
     * answers are retried for as long as it takes, with exponential back-off and jitter (the client's
     * `retry.baseDelayMs` doubling up to `retry.maxDelayMs`), a `Retry-After` honoured. It ends when `signal`
     * aborts (or the loop breaks). Store the `sequence` of the last event you processed to resume after a restart.
     * @throws BizapiError for another 4xx answer (a bad type pattern, a revoked key: retrying would not help)
     */
    follow(options: FollowOptions): AsyncGenerator<FeedEvent, void, undefined>;
}
/** The bizapi client. */
export interface Bizapi {
    /** The typed `openapi-fetch` client (`api.GET('/v1/client', {params: {query}})` → `{data, error, response}`), signed and retried. */
    readonly api: Client<paths>;
    /**
     * Calls an operation by its operationId and returns its JSON answer (`undefined` for 204).
     * @throws BizapiError for a non-2xx answer; BizapiNetworkError when the server cannot be reached
     */
    call<I extends OperationId>(operationId: I, init?: CallInit<I>): Promise<ResultOf<I>>;
    /**
     * Iterates over every item of a paged list, following `next` page after page
     * (`for await (const c of bizapi.paginate('client_list', {params: {query: {search: ['acme']}}}))`).
     * @throws BizapiError / BizapiNetworkError as {@link Bizapi.call}
     */
    paginate<I extends ListOperationId>(operationId: I, init?: CallInit<I>): AsyncGenerator<ItemOf<I>, void, undefined>;
    /** `fetch` with the client's signing, idempotency key and retries, for any URL of the server. */
    fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
    /** The event feed: {@link BizapiEvents.follow}. */
    readonly events: BizapiEvents;
}
/** Creates a client. See the SDK's README for examples. */
export declare function createBizapi(options: BizapiOptions): Bizapi;
export {};
