/**
 * Row types of the inquiry tables (migration 2026_11_22_0002): the inquiry, its number counter, responsible
 * members, tasks, custom field values, file links and its six histories.
 */
import type { Generated, Insertable, Updateable } from 'kysely';
import type { Bool, DateString, Timestamp } from '../columns.ts';

/** The last inquiry number (`uniqueId`) handed out in a business; numbers are never reused (docs/api.md#inquiries). */
export interface InquiryCounterTable {
  business_id: number;
  last_value: number;
}

/**
 * An inquiry (docs/api.md#inquiries). `estimate` is an exact decimal rendered with two decimals
 * (`"1500000.00"`); the funnel is stored in the seven `utm_*` / `guest_uid` / `gclid` columns. The folder is
 * the status's folder. Soft-deleted rows have `deleted_at` set and are never read.
 */
export interface InquiryTable {
  id: Generated<number>;
  business_id: number;
  unique_id: string;
  name: string;
  inquiry_date: DateString;
  content: string | null;
  estimate: string;
  status_id: number | null;
  client_id: number | null;
  utm_campaign: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_content: string | null;
  utm_term: string | null;
  guest_uid: string | null;
  gclid: string | null;
  is_hidden: Bool;
  created: Timestamp;
  /** The last change of the record or of one of its sets (docs/api.md#events; migration 2026_11_26_0038). */
  updated: Timestamp;
  deleted_at: Timestamp | null;
}
export type NewInquiryRow = Insertable<InquiryTable>;
export type InquiryRowUpdate = Updateable<InquiryTable>;

/** A responsible member (`inChargeSet` entry) of an inquiry, in request order (`position`). */
export interface InquiryInChargeTable {
  business_id: number;
  inquiry_id: number;
  member_id: number;
  position: number;
}

/** A task (`workSet` entry) of an inquiry; also the items of `GET /v1/inquiry/work`. */
export interface InquiryWorkTable {
  id: Generated<number>;
  business_id: number;
  inquiry_id: number;
  name: string;
  position: number;
  created: Timestamp;
}

/** The value of one custom field (category I) on one inquiry. */
export interface InquiryFieldValueTable {
  business_id: number;
  inquiry_id: number;
  field_id: number;
  value: string;
}

/** A link (`fileLinkSet` entry) of an inquiry. */
export interface InquiryFileLinkTable {
  id: Generated<number>;
  business_id: number;
  inquiry_id: number;
  text: string;
  link: string;
  position: number;
  created: Timestamp;
}

/** A status change (and the initial status at create); `member_id` null for changes made through the API. */
export interface InquiryStatusHistoryTable {
  id: Generated<number>;
  business_id: number;
  inquiry_id: number;
  status_id: number;
  previous_status_id: number | null;
  member_id: number | null;
  created: Timestamp;
}

/** A folder change (a status change into another folder); `member_id` null for API changes. */
export interface InquiryFolderHistoryTable {
  id: Generated<number>;
  business_id: number;
  inquiry_id: number;
  folder_id: number;
  previous_folder_id: number | null;
  member_id: number | null;
  created: Timestamp;
}

/** A text note on an inquiry (`text_history`). */
export interface InquiryTextHistoryTable {
  id: Generated<number>;
  business_id: number;
  inquiry_id: number;
  content: string;
  member_id: number | null;
  created: Timestamp;
  /** The last change of the record or of one of its sets (docs/api.md#events; migration 2026_11_26_0038). */
  updated: Timestamp;
}

/**
 * An e-mail sent from the inquiry (rows come from outside the API). `to_emails` / `cc_emails` are JSON
 * arrays of addresses; `status` S sent, D draft, C scheduled, F failed.
 */
export interface InquiryEmailHistoryTable {
  id: Generated<number>;
  business_id: number;
  inquiry_id: number;
  title: string;
  from_email: string;
  to_emails: string;
  cc_emails: string;
  status: string;
  sent_at: Timestamp | null;
  created: Timestamp;
}

/** A reply received to an inquiry e-mail (rows come from outside the API); addresses as JSON arrays. */
export interface InquiryEmailReplyHistoryTable {
  id: Generated<number>;
  business_id: number;
  inquiry_id: number;
  title: string;
  from_email: string;
  to_emails: string;
  cc_emails: string;
  is_unread: Bool;
  received_at: Timestamp | null;
  created: Timestamp;
}

/** A web-form submission attached to the inquiry (rows come from outside the API); `answers` is JSON text. */
export interface InquirySubmitHistoryTable {
  id: Generated<number>;
  business_id: number;
  inquiry_id: number;
  form_id: number;
  form_title: string;
  answers: string;
  created: Timestamp;
}

/**
 * The columns of an inquiry as todos and tasks nest it (`{id, uniqueId, name}`; docs/api.md#todos), selected
 * through an inner join on the live `inquiry`, each prefixed `inquiry_`. The one column set of that shape;
 * `inquiry.service` `toNestedInquiry` maps it.
 */
export const NESTED_INQUIRY_COLUMNS = [
  'inquiry.id as inquiry_id',
  'inquiry.unique_id as inquiry_unique_id',
  'inquiry.name as inquiry_name',
] as const;

/** What {@link NESTED_INQUIRY_COLUMNS} select. */
export interface NestedInquiryColumns {
  inquiry_id: number;
  inquiry_unique_id: string;
  inquiry_name: string;
}
