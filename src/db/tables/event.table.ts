/** Row types of the `event` table (migrations 2026_11_26_0037, 0045), its sequence counter (0045) and its live followers (2026_11_28_0120). */
import type { Generated, Insertable } from 'kysely';
import type { Timestamp } from '../columns.ts';

/** One change event (docs/api.md#events). `changed_fields` and `data` hold JSON text. */
export interface EventTable {
  id: Generated<number>;
  business_id: number;
  type: string;
  created: Timestamp;
  changed_fields: string;
  data: string;
  published_at: Timestamp | null;
  /** The note's parent record (`inquiry`, `contract`, `settlement`), or null (with `parent_id`) for other events. */
  parent_type: string | null;
  parent_id: number | null;
  /** Given after commit (docs/api.md#events); null until then. */
  sequence: number | null;
}
export type NewEventRow = Insertable<EventTable>;

/** The one row (`id` 1) holding the last event sequence given (docs/api.md#events). */
export interface EventSequenceTable {
  id: number;
  last_value: number;
}

/**
 * One server process following one business's feed live (docs/api.md#following-the-feed-live): it holds a
 * long-poll or a stream of the business until `expires_at`, which it refreshes while it does.
 */
export interface EventFollowerTable {
  id: Generated<number>;
  business_id: number;
  /** The process: `<host>:<pid>:<random>`. */
  owner: string;
  expires_at: Timestamp;
}
