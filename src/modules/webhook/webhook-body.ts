/**
 * What a webhook delivery sends (docs/webhooks.md#formats, docs/webhooks.md#signatures): the body in the
 * endpoint's format (`standard` or `pluuug`), the Standard Webhooks headers and the secrets they are signed
 * with. Pure functions: webhook-delivery.service.ts reads the event and the endpoint and calls them.
 */
import { Webhook } from 'standardwebhooks';
import type { Timestamp } from '../../db/columns.ts';
import type { WebhookEndpointRow } from '../../db/tables/webhook.table.ts';
import { packageVersion } from '../../shared/package-version.ts';
import { localParts } from '../../shared/time.ts';
import { decryptSecret } from '../auth/auth.service.ts';
import type { Event } from '../event/event.schemas.ts';

/** `someKey` → `some_key` (an upper-case letter becomes `_` and its lower case). */
export function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** `value` with every object key in snake_case, recursively (arrays kept, values untouched). */
export function snakeCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCaseKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [snakeCase(k), snakeCaseKeys(v)]),
    );
  }
  return value;
}

/**
 * An instant (`2026-01-15T01:30:45.123Z`) as the local time of `timeZone` with microseconds and no offset
 * (`2026-01-15T10:30:45.123000` in Asia/Seoul), as the reference service's webhook writes it.
 */
export function localMicros(instant: Timestamp, timeZone: string): string {
  const date = new Date(instant);
  const p = localParts(date.getTime(), timeZone);
  const ms = String(date.getUTCMilliseconds()).padStart(3, '0');
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}.${ms}000`;
}

/**
 * The body of a delivery (docs/webhooks.md#payloads). `standard`: the event exactly as
 * `GET /v1/event/{event_id}` answers it (`{id, sequence, type, created, changedFields, parent, data}`). `pluuug`: the
 * reference service's envelope `{"event_type", "timestamp", "changed_fields", "data"}` in that order:
 * `event_type` the resource (`inquiry`), `timestamp` the event's time in the business's `timeZone`
 * ({@link localMicros}), `changed_fields` the event's changed properties in snake_case, `data` the full
 * shape with snake_case keys at every depth.
 */
export function deliveryBody(format: string, event: Event, timeZone: string): string {
  if (format !== 'pluuug') {
    return JSON.stringify({
      id: event.id,
      sequence: event.sequence,
      type: event.type,
      created: event.created,
      changedFields: event.changedFields,
      parent: event.parent,
      data: event.data,
    });
  }
  return JSON.stringify({
    event_type: event.type.slice(0, event.type.lastIndexOf('.')),
    timestamp: localMicros(event.created, timeZone),
    changed_fields: event.changedFields.map(snakeCase),
    data: snakeCaseKeys(event.data),
  });
}

/** `User-Agent` of every delivery: `bizapi-webhooks/<version>`. */
export const USER_AGENT = `bizapi-webhooks/${packageVersion()}`;

/**
 * The request headers of a delivery (docs/webhooks.md#signatures, Standard Webhooks): `webhook-id` (the
 * event id, the same on every retry), `webhook-timestamp` (Unix seconds of `at`), `webhook-signature`
 * (`v1,<base64 HMAC-SHA256>` with each of `secrets` — the current one, then the previous one during a
 * rotation — space separated), `content-type`, `user-agent`.
 * @param secrets `whsec_…` secrets, at least one
 */
export function deliveryHeaders(
  eventId: number,
  body: string,
  secrets: readonly string[],
  at: Date,
): Record<string, string> {
  const id = String(eventId);
  const timestamp = new Date(Math.floor(at.getTime() / 1000) * 1000);
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(id, timestamp, body)).join(' '),
  };
}

/**
 * The plain secrets a delivery to `row` is signed with (docs/webhooks.md#rotation): the current one,
 * then the previous one while its rotation window lasts (`previous_secret_expires_at` after `now`).
 * @throws when a secret cannot be decrypted with `masterKey` (another server's key)
 */
export function signingSecrets(
  masterKey: Buffer,
  row: Pick<WebhookEndpointRow, 'secret' | 'previous_secret' | 'previous_secret_expires_at'>,
  now: Timestamp,
): string[] {
  const secrets = [decryptSecret(masterKey, row.secret)];
  if (row.previous_secret !== null && row.previous_secret_expires_at !== null && row.previous_secret_expires_at > now) {
    secrets.push(decryptSecret(masterKey, row.previous_secret));
  }
  return secrets;
}
