/** Row types of the contract tables (migration 2026_11_22_0005). */
import type { Generated, Insertable, Updateable } from 'kysely';
import type { Bool, DateString, Timestamp } from '../columns.ts';

/**
 * A contract (spec: Resources › Contract). `amount` in the business's currency unit (an integer);
 * `type` I | S | G; `status` P | I | C | T; `vat_type` E | I | N. The recurring columns
 * (`settlement_frequency`, `settlement_cycle` W | M, `settlement_day`) are only set on type S contracts.
 * Contracts are deleted for good; their settlements, notes, categories and field values go with them.
 */
export interface ContractTable {
  id: Generated<number>;
  business_id: number;
  title: string;
  amount: number;
  type: string;
  status: string;
  contract_number: string | null;
  start_date: DateString | null;
  end_date: DateString | null;
  vat_type: string;
  settlement_frequency: number | null;
  settlement_cycle: string | null;
  settlement_day: number | null;
  client_id: number | null;
  /** The linked inquiry (1:1, unique per business); the inquiry's `contract` is read through it. */
  inquiry_id: number | null;
  is_hidden: Bool;
  created: Timestamp;
}
export type NewContractRow = Insertable<ContractTable>;
export type ContractRowUpdate = Updateable<ContractTable>;

/** One category of a contract (`categorySet`, many-to-many with `contract_category`). */
export interface ContractCategoryLinkTable {
  business_id: number;
  contract_id: number;
  category_id: number;
}

/** The value of one custom field (category CO) on one contract. */
export interface ContractFieldValueTable {
  business_id: number;
  contract_id: number;
  field_id: number;
  value: string;
}
