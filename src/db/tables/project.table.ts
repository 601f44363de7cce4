/** Row type of the `project` table (migration 2026_11_22_0006; `contract_id` from 2026_11_22_0021). */
import type { Generated, Insertable, Updateable } from 'kysely';
import type { Bool, DateString, Timestamp } from '../columns.ts';

/**
 * A project (docs/api.md#projects-and-workers). `status` is one of `U I A E`; dates are `YYYY-MM-DD` or null.
 * Soft-deleted rows have `deleted_at` set and are never read.
 */
export interface ProjectTable {
  id: Generated<number>;
  business_id: number;
  title: string;
  /** The linked contract, or null (set null when the contract is deleted). */
  contract_id: number | null;
  status: string;
  symbol_color: string | null;
  start_date: DateString | null;
  end_date: DateString | null;
  actual_end_date: DateString | null;
  is_hidden: Bool;
  created: Timestamp;
  /** The last change of the record or of one of its sets (docs/api.md#events; migration 2026_11_26_0038). */
  updated: Timestamp;
  deleted_at: Timestamp | null;
}
export type NewProjectRow = Insertable<ProjectTable>;
export type ProjectRowUpdate = Updateable<ProjectTable>;
