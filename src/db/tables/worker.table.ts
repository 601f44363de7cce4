/** Row type of the `worker` table (migration 2026_11_22_0006). */
import type { Generated, Insertable, Updateable } from 'kysely';
import type { Bool, Timestamp } from '../columns.ts';

/**
 * A worker (docs/api.md#projects-and-workers). `position_id` references `worker_position` (null: none);
 * `sort_order` is the API's `order`; `man_month_amount` an integer amount per man-month.
 * Soft-deleted rows have `deleted_at` set and are never read.
 */
export interface WorkerTable {
  id: Generated<number>;
  business_id: number;
  name: string;
  position_id: number | null;
  sort_order: number;
  is_hidden: Bool;
  man_month_amount: number;
  created: Timestamp;
  /** The last change of the record or of one of its sets (docs/api.md#events; migration 2026_11_26_0038). */
  updated: Timestamp;
  deleted_at: Timestamp | null;
}
export type NewWorkerRow = Insertable<WorkerTable>;
export type WorkerRowUpdate = Updateable<WorkerTable>;
