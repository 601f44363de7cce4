/**
 * The bizapi client: an `openapi-fetch` client typed by the server's document, whose every request is signed
 * (v1, or v2 where the server asks for it), carries an `Idempotency-Key` for `POST`/`PATCH`/`DELETE` (one per logical request, kept across
 * retries), and is retried with back-off on 429, 503 and network errors, honouring `Retry-After`.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { HttpMethod, SuccessResponseJSON } from 'openapi-typescript-helpers';
import { BizapiError, BizapiNetworkError } from './errors.js';
import { type OperationId, operations } from './generated/operations.js';
import type { paths } from './generated/schema.js';
import { type HmacSha256, type SignatureVersion, signRequest } from './signing.js';

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
export type CallInit<I extends OperationId> = (OperationOf<I> extends { parameters: infer P }
  ? { params?: { [K in keyof P as K extends 'path' | 'query' ? K : never]?: P[K] } }
  : { params?: never }) &
  (OperationOf<I> extends { requestBody?: { content: { 'application/json': infer B } } }
    ? { body?: B }
    : { body?: never }) & {
    headers?: Record<string, string>;
    signal?: AbortSignal;
  };
/** The item type of a paged list operation (`results[number]`). */
export type ItemOf<I extends OperationId> = ResultOf<I> extends { results: (infer T)[] } ? T : never;
/** The operationIds whose answer is a page (`{next, previous, results}`). */
export type ListOperationId = {
  [I in OperationId]: ResultOf<I> extends { results: unknown[] } ? I : never;
}[OperationId];

const IDEMPOTENT_UNSAFE = new Set(['POST', 'PATCH', 'DELETE']);

const sleep = (ms: number, signal?: AbortSignal | null) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** `Retry-After` in milliseconds (seconds or an HTTP date), `undefined` when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

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

/**
 * v2 signatures sent by every client of this process, with their timestamps in Unix seconds: a server
 * accepts each signature once (docs/api.md, replay-proof signatures), and two clients with one key may send
 * the same request in the same second. Entries older than the server's 300-second window are dropped.
 */
const sentV2 = new Map<string, number>();

/** How many times one request is signed again after `403 signature_replayed` (a later second each time). */
const MAX_RESIGN = 30;

/** Creates a client. See the SDK's README for examples. */
export function createBizapi(options: BizapiOptions): Bizapi {
  const baseFetch = options.fetch ?? globalThis.fetch;
  const retries = options.retry?.retries ?? 3;
  const baseDelay = options.retry?.baseDelayMs ?? 250;
  const maxDelay = options.retry?.maxDelayMs ?? 8000;
  const maxRetryAfter = options.retry?.maxRetryAfterMs ?? 60_000;
  const backoff = (attempt: number) => Math.min(maxDelay, baseDelay * 2 ** attempt) * (0.5 + Math.random() / 2);

  const auto = (options.signatureVersion ?? 'auto') === 'auto';
  /** The version this client signs with now: `auto` starts with v1 and moves to v2 when the server asks for it. */
  let version: SignatureVersion = options.signatureVersion === 'v2' ? 'v2' : 'v1';
  /**
   * The signature headers of one attempt. A v2 signature is unique per request: when the same method, target
   * and body were already signed with this second's timestamp by any client of this process (a retry, a
   * repeated GET, two clients with one key), the timestamp moves on by one second (still within the server's
   * 300-second window), so no attempt of this process is a "replay".
   */
  async function sign(method: string, pathAndQuery: string, body: Uint8Array): Promise<Record<string, string>> {
    const base = { secretKey: options.secretKey, version, hmac: options.hmac };
    if (version === 'v1') return signRequest({ method, pathAndQuery, body }, base);
    const now = Math.floor(Date.now() / 1000);
    for (const [sig, ts] of sentV2) if (ts < now - 300) sentV2.delete(sig);
    for (let ts = now; ; ts++) {
      const headers = await signRequest({ method, pathAndQuery, body }, { ...base, timestamp: ts });
      const sig = headers['X-Signature']!;
      if (!sentV2.has(sig)) {
        sentV2.set(sig, ts);
        return headers;
      }
    }
  }

  /**
   * Signs and sends `request`, retrying (at most `maxRetries`, default the client's `retry.retries`); one
   * Idempotency-Key for all attempts of an unsafe method.
   */
  async function signedFetch(
    input: string | URL | Request,
    init?: RequestInit,
    maxRetries = retries,
  ): Promise<Response> {
    const request = new Request(input, init);
    const method = request.method.toUpperCase();
    const body = request.body === null ? new Uint8Array(0) : new Uint8Array(await request.arrayBuffer());
    const idempotencyKey =
      request.headers.get('idempotency-key') ??
      (IDEMPOTENT_UNSAFE.has(method) ? globalThis.crypto.randomUUID() : undefined);
    let resigned = 0;
    for (let attempt = 0; ; attempt++) {
      const url = new URL(request.url);
      const headers = new Headers(request.headers);
      for (const [k, v] of Object.entries(options.headers ?? {})) headers.set(k, v);
      headers.set('X-API-Key', options.apiKey);
      const signature = await sign(method, `${url.pathname}${url.search}`, body);
      for (const [k, v] of Object.entries(signature)) headers.set(k, v);
      if (idempotencyKey !== undefined) headers.set('Idempotency-Key', idempotencyKey);
      let response: Response;
      try {
        response = await baseFetch(url, {
          method,
          headers,
          body: body.length > 0 ? body : null,
          signal: request.signal,
        });
      } catch (err) {
        if (request.signal.aborted) throw err;
        if (attempt >= maxRetries)
          throw new BizapiNetworkError(`${method} ${url.href}: ${(err as Error).message}`, err);
        await sleep(backoff(attempt), request.signal);
        continue;
      }
      // A v2 signature another process sent with the same second, target and body: sign again (a later
      // second). Not a failed attempt, so it does not use up `retries`; bounded by MAX_RESIGN.
      // A v1 signature a server refuses as `signature_required` (it accepts only v2): with `auto`, sign v2 from
      // now on and send again (the server refused the request before running anything).
      const resignV2 = response.status === 403 && version === 'v2' && resigned < MAX_RESIGN;
      const upgrade = response.status === 403 && version === 'v1' && auto;
      if (resignV2 || upgrade) {
        const code = await response
          .clone()
          .json()
          .then(
            (b: { code?: unknown }) => b?.code,
            () => undefined,
          );
        if ((resignV2 && code === 'signature_replayed') || (upgrade && code === 'signature_required')) {
          await response.body?.cancel();
          if (upgrade) version = 'v2';
          else resigned++;
          attempt--;
          continue;
        }
      }
      const retryable =
        response.status === 429 ||
        response.status === 503 ||
        (response.status === 409 && response.headers.has('retry-after'));
      if (!retryable || attempt >= maxRetries) return response;
      const wait = retryAfterMs(response.headers.get('retry-after'));
      if (wait !== undefined && wait > maxRetryAfter) return response;
      await response.body?.cancel();
      await sleep(wait ?? backoff(attempt), request.signal);
    }
  }

  const api = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: (request: Request) => signedFetch(request),
  });

  async function call<I extends OperationId>(operationId: I, init?: CallInit<I>): Promise<ResultOf<I>> {
    const op = operations[operationId];
    if (op === undefined) throw new TypeError(`unknown operationId "${String(operationId)}"`);
    const request = api.request as unknown as (
      m: HttpMethod,
      p: string,
      i?: unknown,
    ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
    const { data, error, response } = await request(op.method, op.path, init);
    if (!response.ok) {
      throw new BizapiError(
        response.status,
        error,
        { method: op.method.toUpperCase(), url: response.url },
        response.headers.get('x-request-id'),
      );
    }
    return data as ResultOf<I>;
  }

  async function* paginate<I extends ListOperationId>(
    operationId: I,
    init?: CallInit<I>,
  ): AsyncGenerator<ItemOf<I>, void, undefined> {
    let page = (await call(operationId, init)) as { next?: string | null; results: ItemOf<I>[] };
    for (;;) {
      yield* page.results;
      if (typeof page.next !== 'string' || page.next === '') return;
      const response = await signedFetch(page.next, {
        headers: { Accept: 'application/json' },
        signal: init?.signal ?? null,
      });
      if (!response.ok) throw await BizapiError.fromResponse(response, 'GET');
      page = (await response.json()) as typeof page;
    }
  }

  async function* follow(o: FollowOptions): AsyncGenerator<FeedEvent, void, undefined> {
    const { signal } = o;
    let after = o.afterSequence;
    const wait = o.wait ?? 30;
    const types = (o.types ?? []).map((t) => `&type=${encodeURIComponent(t)}`).join('');
    let failures = 0;
    /** Waits before the next request; false when `signal` aborted meanwhile. */
    const pause = (ms: number) =>
      sleep(ms, signal).then(
        () => true,
        () => false,
      );
    const root = options.baseUrl.replace(/\/+$/, '');
    while (!signal?.aborted) {
      const url = `${root}/v1/event?after_sequence=${after}&wait=${wait}${types}`;
      let page: { results: FeedEvent[] };
      try {
        // one attempt: the retries are this loop's, without end
        const response = await signedFetch(url, { headers: { Accept: 'application/json' }, signal: signal ?? null }, 0);
        if (response.status === 429 || response.status >= 500) {
          const retryAfter = retryAfterMs(response.headers.get('retry-after'));
          await response.body?.cancel();
          if (!(await pause(retryAfter ?? backoff(failures++)))) return;
          continue;
        }
        if (!response.ok) throw await BizapiError.fromResponse(response, 'GET');
        page = (await response.json()) as typeof page;
      } catch (err) {
        if (signal?.aborted) return;
        if (err instanceof BizapiError) throw err;
        // a network error, or an answer cut off mid-body: ask again from the same sequence
        if (!(await pause(backoff(failures++)))) return;
        continue;
      }
      failures = 0;
      for (const event of page.results) {
        if (event.sequence <= after) continue;
        after = event.sequence;
        yield event;
        if (signal?.aborted) return;
      }
    }
  }

  return { api, call, paginate, fetch: signedFetch, events: { follow } };
}
