/**
 * Webhook signatures of the bizapi server (docs/webhooks.md#signatures in the server's repository), as the
 * Standard Webhooks specification defines them:
 * - headers `webhook-id` (the event id, the same on every retry), `webhook-timestamp` (Unix seconds) and
 *   `webhook-signature`: one or more `v1,<base64 HMAC-SHA256>` separated by spaces (two during a secret
 *   rotation);
 * - the HMAC is over `"{webhook-id}.{webhook-timestamp}.{raw body}"`, keyed with the base64-decoded part of the
 *   endpoint's secret after `whsec_`.
 * Web Crypto only (`globalThis.crypto.subtle`): runs unchanged in Node.js 20+, browsers, Deno, Bun and edge
 * runtimes, with no dependency.
 */
/** Headers as a `Headers` object or a record (Node's `IncomingHttpHeaders`, a plain object). */
export type HeaderSource = Headers | Record<string, string | string[] | undefined>;
/** The exact body bytes received: a string (decoded as UTF-8 by your framework), bytes, or an `ArrayBuffer`. */
export type WebhookBody = string | Uint8Array | ArrayBuffer;
/** The body of a `format: standard` delivery: the event, as `GET /v1/event/{event_id}` answers it. */
export interface WebhookEvent<D = Record<string, unknown>> {
    id: number;
    /** `<resource>.<created|updated|deleted>` or `webhook.test` (docs/webhooks.md#event-catalogue). */
    type: string;
    /** RFC 3339 UTC. */
    created: string;
    /** camelCase properties an update changed; `[]` for created and deleted. */
    changedFields: string[];
    /** The record's full shape after the change; `{id}` for a delete. */
    data: D;
}
/** The body of a `format: pluuug` delivery (the reference service's envelope, docs/webhooks.md#formats). */
export interface PluuugWebhookEnvelope<D = Record<string, unknown>> {
    event_type: 'inquiry';
    /** The event time in the business's time zone, no offset, microseconds: `2026-01-15T10:30:45.123456`. */
    timestamp: string;
    /** snake_case names of the changed properties. */
    changed_fields: string[];
    /** The inquiry's full shape, keys in snake_case. */
    data: D;
}
/** Options of {@link verifyWebhook}. */
export interface VerifyWebhookOptions {
    /** Largest accepted distance between `webhook-timestamp` and now, in seconds (default 300). */
    toleranceSeconds?: number;
    /** The clock (default `new Date()`), for tests. */
    now?: Date;
}
/** A delivery that does not verify: missing headers, a timestamp out of tolerance, no matching signature. */
export declare class WebhookVerificationError extends Error {
    constructor(message: string);
}
/**
 * Verifies one webhook delivery over the exact body bytes received and answers its parsed JSON body
 * (docs/webhooks.md#signatures): the three headers must be present, `webhook-timestamp` within
 * `toleranceSeconds` (300) of now, and one of the `v1,…` signatures in `webhook-signature` (two during a
 * rotation, docs/webhooks.md#rotation) must be the HMAC-SHA256 of `"{id}.{timestamp}.{body}"` under the
 * secret. The comparison is Web Crypto's `verify` (constant time). Drop repeats by `webhook-id`: delivery is
 * at least once (docs/webhooks.md#delivery).
 * @param secret the endpoint's secret, `whsec_…` (shown once by `POST /v1/webhook` and by `rotate_secret`)
 * @param headers the request's headers (any letter case)
 * @param body the exact body bytes received: never a re-serialised parsed object
 * @returns the parsed body: a {@link WebhookEvent} (`format: standard`) or a {@link PluuugWebhookEnvelope}
 * @throws WebhookVerificationError when the delivery does not verify; Error for a malformed secret
 */
export declare function verifyWebhook<T = WebhookEvent>(secret: string, headers: HeaderSource, body: WebhookBody, options?: VerifyWebhookOptions): Promise<T>;
/**
 * Signs a body as the server does (for tests and local tools; docs/webhooks.md#signatures): the three
 * Standard Webhooks headers, `webhook-signature` one `v1,…` per secret (two secrets: a rotation).
 * @param secrets one `whsec_…` secret, or several
 * @throws Error for a malformed secret
 */
export declare function signWebhook(secrets: string | string[], body: WebhookBody, options?: {
    id?: string;
    timestamp?: Date;
}): Promise<Record<string, string>>;
