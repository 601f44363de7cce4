/** Row types of the contract tables (migration 2026_11_22_0005). */
import type { Generated, Insertable, Updateable } from 'kysely';
import type { Bool, DateString, Timestamp } from '../columns.ts';

/**
 * A contract (docs/api.md#contracts). `amount` in the business's currency unit (an integer);
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
  /** The last change of the record or of one of its sets (docs/api.md#events; migration 2026_11_26_0038). */
  updated: Timestamp;
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

/**
 * The columns of a contract as other resources nest it (`ContractSummary`: inquiries, settlements,
 * projects; docs/api.md#contracts), selected through a join on `contract`, each prefixed `contract_`.
 * The one column set of that shape; `contract.service` `toNestedContract` maps it.
 */
export const NESTED_CONTRACT_COLUMNS = [
  'contract.id as contract_id',
  'contract.title as contract_title',
  'contract.amount as contract_amount',
  'contract.type as contract_type',
  'contract.status as contract_status',
  'contract.start_date as contract_start_date',
  'contract.end_date as contract_end_date',
] as const;

/** What {@link NESTED_CONTRACT_COLUMNS} select; every key is `null` when a left join finds no contract. */
export interface NestedContractColumns {
  contract_id: number | null;
  contract_title: string | null;
  contract_amount: number | null;
  contract_type: string | null;
  contract_status: string | null;
  contract_start_date: DateString | null;
  contract_end_date: DateString | null;
}

/** {@link NestedContractColumns} of an inner join: the contract is always there. */
export type PresentContractColumns = {
  [K in keyof NestedContractColumns]: K extends 'contract_start_date' | 'contract_end_date'
    ? DateString | null
    : NonNullable<NestedContractColumns[K]>;
};
