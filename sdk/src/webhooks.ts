/**
 * Webhook signature verification (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`
 * headers, `v1,<base64 HMAC-SHA256>` over `{id}.{timestamp}.{body}`, a 5-minute tolerance), via the
 * `standardwebhooks` package.
 */
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

export { WebhookVerificationError };

/** Headers as a record or a `Headers` object. */
export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function toRecord(headers: HeaderSource): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof (headers as Headers).forEach === 'function' && typeof (headers as Headers).get === 'function') {
    (headers as Headers).forEach((value, name) => (out[name.toLowerCase()] = value));
    return out;
  }
  for (const [name, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * Verifies a webhook delivery and returns its parsed JSON payload.
 * @param secret the endpoint's signing secret (`whsec_…`, base64)
 * @param rawBody the exact body bytes received (do not re-serialize parsed JSON)
 * @param headers the request's headers
 * @throws WebhookVerificationError for a missing or wrong signature, or a timestamp outside 5 minutes
 */
export function verifyWebhook<T = unknown>(secret: string, rawBody: string | Buffer, headers: HeaderSource): T {
  return new Webhook(secret).verify(rawBody, toRecord(headers)) as T;
}

/**
 * Signs a payload as a server does (for tests and local tools): the three Standard Webhooks headers.
 */
export function signWebhook(secret: string, rawBody: string, options: { id?: string; timestamp?: Date } = {}): Record<string, string> {
  const id = options.id ?? `msg_${Math.random().toString(36).slice(2)}`;
  const timestamp = options.timestamp ?? new Date();
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, timestamp, rawBody),
  };
}
