/** Row types of the note tables (migration 2026_11_22_0005): contract and settlement notes ("history"). */
import type { Generated } from 'kysely';
import type { Timestamp } from '../columns.ts';

/** A note on a contract (`/v1/contract/{contract_id}/history`); `member_id` NULL when none was named. */
export interface ContractNoteTable {
  id: Generated<number>;
  business_id: number;
  contract_id: number;
  content: string;
  member_id: number | null;
  created: Timestamp;
  /** The last change of the record or of one of its sets (docs/api.md#events; migration 2026_11_26_0038). */
  updated: Timestamp;
}

/** A note on a settlement (`/v1/settlement/{settlement_id}/history`); `member_id` NULL when none was named. */
export interface SettlementNoteTable {
  id: Generated<number>;
  business_id: number;
  settlement_id: number;
  content: string;
  member_id: number | null;
  created: Timestamp;
  /** The last change of the record or of one of its sets (docs/api.md#events; migration 2026_11_26_0038). */
  updated: Timestamp;
}
