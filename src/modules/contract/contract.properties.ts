/**
 * The contract's one property ↔ column map (src/shared/property-map.ts; docs/api.md#contracts): every property
 * of the full shape in its order (`inList`: the list shape's too), the `contract` column that stores it and its create default. The row
 * mappers, the repository's column lists, the create insert, the PATCH columns and the restore derive from it;
 * adding a stored property to contracts is a migration, a column of `ContractTable`, an entry here and its
 * schemas. Keyed `(business_id, id)` with a 64-bit `id` (migration 2026_11_28_0060; docs/deployment.md#10-beyond-one-postgresql-server-citus-distributed-by-business_id).
 */
import type { Selectable } from 'kysely';
import type { ContractTable } from '../../db/tables/contract.table.ts';
import { inList, propertiesOf } from '../../shared/property-map.ts';
import type { NestedClient } from '../client/client.schemas.ts';
import {
  type Contract,
  type ContractInquiry,
  CONTRACT_STATUSES,
  CONTRACT_TYPES,
  SETTLEMENT_CYCLES,
  VAT_TYPES,
} from './contract.schemas.ts';

const p = propertiesOf<Selectable<ContractTable>>();

/** The contract's properties in the order of its full shape; `inList` marks the list shape's (create answers, list items). */
export const CONTRACT_PROPERTIES = {
  id: inList(p.column('id', { readOnly: true })),
  title: inList(p.column('title')),
  amount: inList(p.column('amount')),
  type: inList(p.oneOf('type', CONTRACT_TYPES)),
  status: inList(p.oneOf('status', CONTRACT_STATUSES, { default: 'P' })),
  created: inList(p.column('created', { readOnly: true })),
  contractNumber: inList(p.column('contract_number', { default: null })),
  startDate: inList(p.column('start_date', { default: null })),
  endDate: inList(p.column('end_date', { default: null })),
  inquiry: inList(p.reference<'inquiry_id', ContractInquiry | null>('inquiry_id', 'stored_inquiry_id')),
  client: inList(p.reference<'client_id', NestedClient | null>('client_id', 'stored_client_id')),
  categorySet: inList(p.derived<Contract['categorySet']>()),
  vatType: p.oneOf('vat_type', VAT_TYPES, { default: 'E' }),
  settlementFrequency: p.column('settlement_frequency', { default: null }),
  settlementCycle: p.oneOf('settlement_cycle', SETTLEMENT_CYCLES, { default: null }),
  settlementDay: p.column('settlement_day', { default: null }),
  fieldSet: p.derived<Contract['fieldSet']>(),
  isHidden: p.flag('is_hidden'),
  updated: p.column('updated', { readOnly: true }),
};
