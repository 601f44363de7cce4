/** Row types of `notification_outbox` and `notification` (migration 2026_11_22_0004; README.md#notifications). */
import type { Generated, Insertable, Selectable } from 'kysely';
import type { Timestamp } from '../columns.ts';

/**
 * One event for one recipient member, written in the transaction of the change that caused it
 * (transactional outbox). `payload` is JSON text ({@link OutboxPayload}). The dispatcher claims a due row
 * (`next_attempt_at <= now`, no live lease) by setting `lease_owner` / `lease_until`; each channel's
 * column (`in_app_at`, `email_at`, `push_at`) is set once that channel is done (delivered, or off), so a
 * retry repeats only the channels that failed; `delivered_at` ends the row, and so does `failed_at` once the
 * attempts are exhausted. No foreign key to the inquiry tables.
 */
export interface NotificationOutboxTable {
  id: Generated<number>;
  business_id: number;
  member_id: number;
  event_type: string;
  inquiry_id: number;
  payload: string;
  created: Timestamp;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  lease_owner: string | null;
  lease_until: Timestamp | null;
  in_app_at: Timestamp | null;
  email_at: Timestamp | null;
  push_at: Timestamp | null;
  delivered_at: Timestamp | null;
  failed_at: Timestamp | null;
  last_error: string | null;
}
export type NewOutboxRow = Insertable<NotificationOutboxTable>;
export type OutboxRow = Selectable<NotificationOutboxTable>;

/** An in-app notification of one member (`GET /v1/notification`); at most one per outbox row. */
export interface NotificationTable {
  id: Generated<number>;
  business_id: number;
  member_id: number;
  outbox_id: number;
  event_type: string;
  inquiry_id: number | null;
  title: string;
  content: string;
  /** When the event happened (the outbox row's `created`), not when it was delivered. */
  created: Timestamp;
}
