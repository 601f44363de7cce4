/** Row types of the settlement tables (migration 2026_11_22_0005). */
import type { Generated, Insertable, Updateable } from 'kysely';
import type { Bool, DateString, Timestamp } from '../columns.ts';

/**
 * A settlement: a payment due under a contract (docs/api.md#settlements). Amounts are integers in the
 * business's currency unit; `status` C | D | S | P. `single_type_id` is `type_id` when the type allows a
 * single round (and is not ADD or OUT), else NULL: a unique index over `(business_id, contract_id,
 * single_type_id)` makes such a type usable once per contract. `type_alias` is computed at creation.
 */
export interface SettlementTable {
  id: Generated<number>;
  business_id: number;
  contract_id: number;
  type_id: number;
  single_type_id: number | null;
  title: string;
  status: string;
  amount: number;
  additional_amount: number;
  vat: number;
  settlement_round: number;
  type_alias: string;
  is_tax_invoice_issued: Bool;
  is_tax_invoice_needed: Bool;
  due_date: DateString | null;
  settled_date: DateString | null;
  tax_invoice_issued_date: DateString | null;
  tax_invoice_issue_due_date: DateString | null;
  is_hidden: Bool;
  created: Timestamp;
  /** The last change of the record or of one of its sets (docs/api.md#events; migration 2026_11_26_0038). */
  updated: Timestamp;
}
export type NewSettlementRow = Insertable<SettlementTable>;
export type SettlementRowUpdate = Updateable<SettlementTable>;

/** A responsible member of a settlement (`inChargeSet`). */
export interface SettlementInChargeTable {
  business_id: number;
  settlement_id: number;
  member_id: number;
}

/**
 * One change of a settlement's `status` (docs/api.md#extensions, settlements). `member_id` is NULL for
 * changes made through the API.
 */
export interface SettlementStatusHistoryTable {
  id: Generated<number>;
  business_id: number;
  settlement_id: number;
  status: string;
  previous_status: string | null;
  member_id: number | null;
  created: Timestamp;
}
