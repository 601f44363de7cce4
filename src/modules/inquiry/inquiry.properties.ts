/**
 * The inquiry's one property ↔ column map (src/shared/property-map.ts; docs/api.md#inquiries): every property
 * of the full shape in its order (`inList`: the create and list shapes' too, `inChargeSet` last there), the
 * `inquiry` column that stores it and its create default. The row mappers, the repository's column lists,
 * the create answer, the PATCH columns of the plain properties, the stored values a PATCH compares and the
 * restore body derive from it; adding a plain stored property to inquiries is a migration, a column of
 * `InquiryTable`, an entry here and its schemas.
 *
 * Written by inquiry.service itself, not through the map: `status` (checked, with its folder and history
 * rows), `name` and `inquiryDate` (`null` keeps them in a PATCH; create defaults `의뢰 제목` and today in the
 * business's time zone), `estimate` (parsed first), `funnel` (one object in seven columns) and the sets.
 */
import type { Selectable } from 'kysely';
import type { InquiryTable } from '../../db/tables/inquiry.table.ts';
import { inList, propertiesOf } from '../../shared/property-map.ts';
import type { StoredFile } from '../file/file.service.ts';
import type { Inquiry } from './inquiry.schemas.ts';

const p = propertiesOf<Selectable<InquiryTable>>();

/**
 * The inquiry's properties in the order of its full shape; `inList` marks the create and list shapes'.
 * `fileSet` holds the stored files (their download URLs are signed after the read: inquiry.service `signed`).
 */
export const INQUIRY_PROPERTIES = {
  id: inList(p.column('id', { readOnly: true })),
  uniqueId: inList(p.column('unique_id', { readOnly: true })),
  created: inList(p.column('created', { readOnly: true })),
  status: inList(p.derived<Inquiry['status']>()),
  client: inList(p.reference<'client_id', Inquiry['client']>('client_id', 'stored_client_id')),
  contract: inList(p.derived<Inquiry['contract']>()),
  name: inList(p.readColumn('name')),
  estimate: inList(p.readColumn('estimate')),
  inquiryDate: inList(p.readColumn('inquiry_date')),
  content: p.column('content', { default: null }),
  funnel: p.derived<Inquiry['funnel']>(),
  workSet: p.derived<Inquiry['workSet']>(),
  inChargeSet: inList(p.derived<Inquiry['inChargeSet']>()),
  fieldSet: p.derived<Inquiry['fieldSet']>(),
  fileLinkSet: p.derived<Inquiry['fileLinkSet']>(),
  fileSet: p.derived<StoredFile[]>(),
  isHidden: p.flag('is_hidden'),
  updated: p.column('updated', { readOnly: true }),
};
