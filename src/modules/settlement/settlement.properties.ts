/**
 * The settlement's one property ↔ column map (src/shared/property-map.ts; docs/api.md#settlements): every
 * property of the full shape in its order (`inList`: the list shape's too), the `settlement` column that stores
 * it and its restore default. The row mappers, the repository's list and detail columns, the create insert,
 * the PATCH columns and the restore body derive from it; adding a stored property to settlements is a
 * migration, a column of `SettlementTable`, an entry here and its schemas.
 *
 * The properties written by a rule of ./settlement.service.ts are read-only here: `contract` and `type`
 * (set by create and restore, never by PATCH), `status` (`C` on create; on PATCH an extension with its
 * status history; as given on restore), `settlementRound` and `typeAlias` (computed on create, as given on
 * restore).
 */
import type { Selectable } from 'kysely';
import type { SettlementTable } from '../../db/tables/settlement.table.ts';
import { inList, propertiesOf } from '../../shared/property-map.ts';
import type { Settlement, SettlementStatus } from './settlement.schemas.ts';

const p = propertiesOf<Selectable<SettlementTable>>();

/** The settlement's properties in the order of its full shape; `inList` marks the list shape's (create answers, list items). */
export const SETTLEMENT_PROPERTIES = {
  id: inList(p.column('id', { readOnly: true })),
  title: inList(p.column('title')),
  status: inList(p.column<'status', SettlementStatus, true>('status', { readOnly: true })),
  amount: inList(p.column('amount')),
  additionalAmount: inList(p.column('additional_amount', { default: 0 })),
  vat: inList(p.column('vat', { default: 0 })),
  typeAlias: inList(p.column('type_alias', { readOnly: true })),
  created: inList(p.column('created', { readOnly: true })),
  contract: inList(p.derived<Settlement['contract']>()),
  dueDate: inList(p.column('due_date', { default: null })),
  settledDate: inList(p.column('settled_date', { default: null })),
  settlementRound: p.column('settlement_round', { readOnly: true }),
  isTaxInvoiceIssued: p.flag('is_tax_invoice_issued'),
  isTaxInvoiceNeeded: p.flag('is_tax_invoice_needed'),
  type: p.derived<Settlement['type']>(),
  taxInvoiceIssuedDate: p.column('tax_invoice_issued_date', { default: null }),
  taxInvoiceIssueDueDate: p.column('tax_invoice_issue_due_date', { default: null }),
  inChargeSet: p.derived<Settlement['inChargeSet']>(),
  isHidden: p.flag('is_hidden'),
  updated: p.column('updated', { readOnly: true }),
};
