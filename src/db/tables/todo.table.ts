/** Row type of the `todo` table (migration 2026_11_22_0007). */
import type { Generated, Insertable, Updateable } from 'kysely';
import type { Bool, DateString, Timestamp } from '../columns.ts';

/**
 * A todo attached to an inquiry (docs/api.md#todos). `type` is one of `M CA MS E`; `due_time` is
 * `HH:MM:SS` or null; `completed_at` is set exactly when `is_complete` is 1. Deletion is permanent.
 */
export interface TodoTable {
  id: Generated<number>;
  business_id: number;
  inquiry_id: number;
  in_charge_id: number | null;
  completed_in_charge_id: number | null;
  type: string;
  due_date: DateString;
  due_time: string | null;
  action: string;
  action_history: string | null;
  is_complete: Bool;
  completed_at: Timestamp | null;
  created: Timestamp;
  /** The last change of the record or of one of its sets (docs/api.md#events; migration 2026_11_26_0038). */
  updated: Timestamp;
}
export type NewTodoRow = Insertable<TodoTable>;
export type TodoRowUpdate = Updateable<TodoTable>;
