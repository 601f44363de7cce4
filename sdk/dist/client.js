/**
 * The bizapi client: an `openapi-fetch` client typed by the server's document, whose every request is signed
 * (v1, or v2 where the server asks for it), carries an `Idempotency-Key` for `POST`/`PATCH`/`DELETE` (one per logical request, kept across
 * retries), and is retried with back-off on 429, 503 and network errors, honouring `Retry-After`.
 */
import createClient, {} from 'openapi-fetch';
import { BizapiError, BizapiNetworkError } from './errors.js';
import { operations } from './generated/operations.js';
import { signRequest } from './signing.js';
const IDEMPOTENT_UNSAFE = new Set(['POST', 'PATCH', 'DELETE']);
const sleep = (ms, signal) => new Promise((resolve, reject) => {
    if (signal?.aborted)
        return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason);
    }, { once: true });
});
/** `Retry-After` in milliseconds (seconds or an HTTP date), `undefined` when absent or unreadable. */
export function retryAfterMs(value, now = Date.now()) {
    if (value === null || value.trim() === '')
        return undefined;
    if (/^\d+$/.test(value.trim()))
        return Number(value.trim()) * 1000;
    const date = Date.parse(value);
    return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
/**
 * v2 signatures sent by every client of this process, with their timestamps in Unix seconds: a server
 * accepts each signature once (docs/api.md, replay-proof signatures), and two clients with one key may send
 * the same request in the same second. Entries older than the server's 300-second window are dropped.
 */
const sentV2 = new Map();
/** How many times one request is signed again after `403 signature_replayed` (a later second each time). */
const MAX_RESIGN = 30;
/** Creates a client. See the SDK's README for examples. */
export function createBizapi(options) {
    const baseFetch = options.fetch ?? globalThis.fetch;
    const retries = options.retry?.retries ?? 3;
    const baseDelay = options.retry?.baseDelayMs ?? 250;
    const maxDelay = options.retry?.maxDelayMs ?? 8000;
    const maxRetryAfter = options.retry?.maxRetryAfterMs ?? 60_000;
    const backoff = (attempt) => Math.min(maxDelay, baseDelay * 2 ** attempt) * (0.5 + Math.random() / 2);
    const auto = (options.signatureVersion ?? 'auto') === 'auto';
    /** The version this client signs with now: `auto` starts with v1 and moves to v2 when the server asks for it. */
    let version = options.signatureVersion === 'v2' ? 'v2' : 'v1';
    /**
     * The signature headers of one attempt. A v2 signature is unique per request: when the same method, target
     * and body were already signed with this second's timestamp by any client of this process (a retry, a
     * repeated GET, two clients with one key), the timestamp moves on by one second (still within the server's
     * 300-second window), so no attempt of this process is a "replay".
     */
    async function sign(method, pathAndQuery, body) {
        const base = { secretKey: options.secretKey, version, hmac: options.hmac };
        if (version === 'v1')
            return signRequest({ method, pathAndQuery, body }, base);
        const now = Math.floor(Date.now() / 1000);
        for (const [sig, ts] of sentV2)
            if (ts < now - 300)
                sentV2.delete(sig);
        for (let ts = now;; ts++) {
            const headers = await signRequest({ method, pathAndQuery, body }, { ...base, timestamp: ts });
            const sig = headers['X-Signature'];
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
    async function signedFetch(input, init, maxRetries = retries) {
        const request = new Request(input, init);
        const method = request.method.toUpperCase();
        const body = request.body === null ? new Uint8Array(0) : new Uint8Array(await request.arrayBuffer());
        const idempotencyKey = request.headers.get('idempotency-key') ??
            (IDEMPOTENT_UNSAFE.has(method) ? globalThis.crypto.randomUUID() : undefined);
        let resigned = 0;
        for (let attempt = 0;; attempt++) {
            const url = new URL(request.url);
            const headers = new Headers(request.headers);
            for (const [k, v] of Object.entries(options.headers ?? {}))
                headers.set(k, v);
            headers.set('X-API-Key', options.apiKey);
            const signature = await sign(method, `${url.pathname}${url.search}`, body);
            for (const [k, v] of Object.entries(signature))
                headers.set(k, v);
            if (idempotencyKey !== undefined)
                headers.set('Idempotency-Key', idempotencyKey);
            let response;
            try {
                response = await baseFetch(url, {
                    method,
                    headers,
                    body: body.length > 0 ? body : null,
                    signal: request.signal,
                });
            }
            catch (err) {
                if (request.signal.aborted)
                    throw err;
                if (attempt >= maxRetries)
                    throw new BizapiNetworkError(`${method} ${url.href}: ${err.message}`, err);
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
                    .then((b) => b?.code, () => undefined);
                if ((resignV2 && code === 'signature_replayed') || (upgrade && code === 'signature_required')) {
                    await response.body?.cancel();
                    if (upgrade)
                        version = 'v2';
                    else
                        resigned++;
                    attempt--;
                    continue;
                }
            }
            const retryable = response.status === 429 ||
                response.status === 503 ||
                (response.status === 409 && response.headers.has('retry-after'));
            if (!retryable || attempt >= maxRetries)
                return response;
            const wait = retryAfterMs(response.headers.get('retry-after'));
            if (wait !== undefined && wait > maxRetryAfter)
                return response;
            await response.body?.cancel();
            await sleep(wait ?? backoff(attempt), request.signal);
        }
    }
    const api = createClient({
        baseUrl: options.baseUrl.replace(/\/+$/, ''),
        fetch: (request) => signedFetch(request),
    });
    async function call(operationId, init) {
        const op = operations[operationId];
        if (op === undefined)
            throw new TypeError(`unknown operationId "${String(operationId)}"`);
        const request = api.request;
        const { data, error, response } = await request(op.method, op.path, init);
        if (!response.ok) {
            throw new BizapiError(response.status, error, { method: op.method.toUpperCase(), url: response.url }, response.headers.get('x-request-id'));
        }
        return data;
    }
    async function* paginate(operationId, init) {
        let page = (await call(operationId, init));
        for (;;) {
            yield* page.results;
            if (typeof page.next !== 'string' || page.next === '')
                return;
            const response = await signedFetch(page.next, {
                headers: { Accept: 'application/json' },
                signal: init?.signal ?? null,
            });
            if (!response.ok)
                throw await BizapiError.fromResponse(response, 'GET');
            page = (await response.json());
        }
    }
    async function* follow(o) {
        const { signal } = o;
        let after = o.afterSequence;
        const wait = o.wait ?? 30;
        const types = (o.types ?? []).map((t) => `&type=${encodeURIComponent(t)}`).join('');
        let failures = 0;
        /** Waits before the next request; false when `signal` aborted meanwhile. */
        const pause = (ms) => sleep(ms, signal).then(() => true, () => false);
        const root = options.baseUrl.replace(/\/+$/, '');
        while (!signal?.aborted) {
            const url = `${root}/v1/event?after_sequence=${after}&wait=${wait}${types}`;
            let page;
            try {
                // one attempt: the retries are this loop's, without end
                const response = await signedFetch(url, { headers: { Accept: 'application/json' }, signal: signal ?? null }, 0);
                if (response.status === 429 || response.status >= 500) {
                    const retryAfter = retryAfterMs(response.headers.get('retry-after'));
                    await response.body?.cancel();
                    if (!(await pause(retryAfter ?? backoff(failures++))))
                        return;
                    continue;
                }
                if (!response.ok)
                    throw await BizapiError.fromResponse(response, 'GET');
                page = (await response.json());
            }
            catch (err) {
                if (signal?.aborted)
                    return;
                if (err instanceof BizapiError)
                    throw err;
                // a network error, or an answer cut off mid-body: ask again from the same sequence
                if (!(await pause(backoff(failures++))))
                    return;
                continue;
            }
            failures = 0;
            for (const event of page.results) {
                if (event.sequence <= after)
                    continue;
                after = event.sequence;
                yield event;
                if (signal?.aborted)
                    return;
            }
        }
    }
    return { api, call, paginate, fetch: signedFetch, events: { follow } };
}
