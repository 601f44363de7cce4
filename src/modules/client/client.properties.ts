/**
 * The client's one property ↔ column map (src/shared/property-map.ts; docs/api.md#clients): every property of
 * the full shape in its order (`inList`: the short shape's too: create answers, list items), the `client`
 * column that stores it and its create default. The row mappers, the repository's column lists, the create
 * insert and answer, the PATCH columns, the stored values a PATCH compares and the restore body derive from
 * it; adding a stored property to clients is a migration, a column of `ClientTable`, an entry here and its
 * schemas. `status` is a reference answered as `{id, title}` through the `client_status` join; a create that
 * leaves it out takes the business's default client status, chosen by the insert (`insertDefaulted`;
 * client.repository `insert`), a restore without one stores none.
 */
import type { Selectable } from 'kysely';
import type { ClientTable } from '../../db/tables/client.table.ts';
import { inList, insertDefaulted, propertiesOf } from '../../shared/property-map.ts';
import type { Client } from './client.schemas.ts';

const p = propertiesOf<Selectable<ClientTable>>();

/** The client's properties in the order of its full shape; `inList` marks the short shape's (create answers, list items). */
export const CLIENT_PROPERTIES = {
  id: inList(p.column('id', { readOnly: true })),
  companyName: inList(p.column('company_name')),
  created: inList(p.column('created', { readOnly: true })),
  status: inList(insertDefaulted(p.reference<'status_id', Client['status']>('status_id', 'status_id'))),
  inCharge: inList(p.column('in_charge', { default: null })),
  position: inList(p.column('position', { default: null })),
  contact: inList(p.column('contact', { default: null })),
  email: inList(p.column('email', { default: null })),
  content: p.column('content', { default: null }),
  businessRegistrationNumber: p.column('business_registration_number', { default: null }),
  ceoName: p.column('ceo_name', { default: null }),
  companyAddress: p.column('company_address', { default: null }),
  companyDetailAddress: p.column('company_detail_address', { default: null }),
  businessType: p.column('business_type', { default: null }),
  businessClass: p.column('business_class', { default: null }),
  branchNumber: p.column('branch_number', { default: null }),
  taxInvoiceEmail: p.column('tax_invoice_email', { default: null }),
  fieldSet: p.derived<Client['fieldSet']>(),
  isHidden: p.flag('is_hidden'),
  updated: p.column('updated', { readOnly: true }),
};
