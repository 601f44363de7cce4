/** Row type of the `event` table (migration 2026_11_26_0037). */
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
}
export type NewEventRow = Insertable<EventTable>;
