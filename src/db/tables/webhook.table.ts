/** Row types of `webhook_endpoint` and `webhook_delivery` (migration 2026_11_26_0039; docs/webhooks.md). */
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { Bool, Timestamp } from '../columns.ts';

/** A webhook endpoint of a business. `secret` / `previous_secret` are sealed with the master key. */
export interface WebhookEndpointTable {
  id: Generated<number>;
  business_id: number;
  url: string;
  /** JSON array of event types, or `["*"]`. */
  event_types: string;
  description: string | null;
  is_active: Bool;
  /** `standard` or `pluuug`. */
  format: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Timestamp | null;
  last_success_at: Timestamp | null;
  /** The first failed attempt since the last success (`null` while the endpoint succeeds). */
  failing_since: Timestamp | null;
  /**
   * Attempts in a row that got no answer (timed out, or failed to connect); 0 after any answer. At the
   * threshold (`BIZAPI_WEBHOOK_SICK_AFTER`, 3) the endpoint is in the sick lane (migration 2026_11_26_0043).
   */
  sick_streak: Generated<number>;
  /**
   * The highest event id committed when the endpoint was created: the fan-out gives it only events with a
   * greater id (docs/webhooks.md#which-events-an-endpoint-receives; migration 2026_11_26_0046_webhook_after_event).
   */
  after_event_id: Generated<number>;
  /**
   * Set while the endpoint is *parked* (docs/webhooks.md#parking; migration 2026_11_28_0050): the fan-out
   * writes no delivery for its events with a greater id; they are owed to it and written once it answers
   * again or is resumed. `null` otherwise.
   */
  parked_after_event_id: Generated<number | null>;
  created: Timestamp;
  updated: Timestamp;
}
export type WebhookEndpointRow = Selectable<WebhookEndpointTable>;
export type NewWebhookEndpointRow = Insertable<WebhookEndpointTable>;
export type WebhookEndpointRowUpdate = Updateable<WebhookEndpointTable>;

/** The delivery of one event to one endpoint, with its attempts. */
export interface WebhookDeliveryTable {
  id: Generated<number>;
  business_id: number;
  webhook_id: number;
  event_id: number;
  /** `pending`, `succeeded` or `failed`. */
  status: string;
  attempts: Generated<number>;
  /** When the next attempt is due (`null` once ended). */
  next_attempt_at: Timestamp | null;
  lease_owner: string | null;
  lease_until: Timestamp | null;
  last_status_code: number | null;
  last_error: string | null;
  /** The first 4 KiB of the last answer's body. */
  last_response: string | null;
  last_duration_ms: number | null;
  last_attempt_at: Timestamp | null;
  created: Timestamp;
}
export type WebhookDeliveryRow = Selectable<WebhookDeliveryTable>;
export type NewWebhookDeliveryRow = Insertable<WebhookDeliveryTable>;
