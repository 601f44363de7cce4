/** Row types of the `client` and `client_field_value` tables (migration 2026_11_22_0001). */
import type { Generated, Insertable, Updateable } from 'kysely';
import type { Bool, Timestamp } from '../columns.ts';

/** A client (docs/api.md#clients). Soft-deleted rows have `deleted_at` set and are never read. */
export interface ClientTable {
  id: Generated<number>;
  business_id: number;
  company_name: string;
  status_id: number | null;
  in_charge: string | null;
  position: string | null;
  contact: string | null;
  email: string | null;
  content: string | null;
  business_registration_number: string | null;
  ceo_name: string | null;
  company_address: string | null;
  company_detail_address: string | null;
  business_type: string | null;
  business_class: string | null;
  branch_number: string | null;
  tax_invoice_email: string | null;
  is_hidden: Bool;
  created: Timestamp;
  /** The last change of the record or of one of its sets (docs/api.md#events; migration 2026_11_26_0038). */
  updated: Timestamp;
  deleted_at: Timestamp | null;
}
export type NewClientRow = Insertable<ClientTable>;
export type ClientRowUpdate = Updateable<ClientTable>;

/** The value of one custom field (category C) on one client. */
export interface ClientFieldValueTable {
  business_id: number;
  client_id: number;
  field_id: number;
  value: string;
}

/**
 * The columns of a client as inquiries and contracts nest it (the nested client summary,
 * docs/api.md#inquiries), selected through left joins on `client` (live clients only) and `client_status`,
 * each prefixed `client_`. The one column set of that shape; `client.service` `toNestedClient` maps it.
 */
export const NESTED_CLIENT_COLUMNS = [
  'client.id as client_id',
  'client.company_name as client_company_name',
  'client.in_charge as client_in_charge',
  'client.position as client_position',
  'client.contact as client_contact',
  'client.email as client_email',
  'client_status.id as client_status_id',
  'client_status.title as client_status_title',
] as const;

/** What {@link NESTED_CLIENT_COLUMNS} select; `null` when the joins find no (live) client or no status. */
export interface NestedClientColumns {
  client_id: number | null;
  client_company_name: string | null;
  client_in_charge: string | null;
  client_position: string | null;
  client_contact: string | null;
  client_email: string | null;
  client_status_id: number | null;
  client_status_title: string | null;
}
