/**
 * Row types of the read-only catalogs (migration 2026_11_22_0001): grades, members, folders, inquiry
 * statuses, client statuses, custom fields with their options and members, contract categories,
 * settlement types and worker positions. Catalogs are written only by `bizapi catalog import`.
 */
import type { Generated } from 'kysely';
import type { Bool, Timestamp } from '../columns.ts';

/** A member grade (`{id, title}` inside a member). */
export interface GradeTable {
  id: Generated<number>;
  business_id: number;
  title: string;
  created: Timestamp;
}

/** A member of the business; `notifications_enabled` decides who is notified (README.md#notifications). */
export interface MemberTable {
  id: Generated<number>;
  business_id: number;
  nickname: string | null;
  email: string;
  is_active: Bool;
  grade_id: number;
  notifications_enabled: Bool;
  created: Timestamp;
}

/** A folder of inquiry statuses; exactly one per business is the default. */
export interface FolderTable {
  id: Generated<number>;
  business_id: number;
  name: string;
  is_default: Bool;
  created: Timestamp;
}

/** `position` orders statuses across the business (folder order, then status order of the catalog file). */
export interface InquiryStatusTable {
  id: Generated<number>;
  business_id: number;
  folder_id: number;
  title: string;
  is_default: Bool;
  position: number;
  created: Timestamp;
}

/** A client status; at most one per business is the default given to new clients. */
export interface ClientStatusTable {
  id: Generated<number>;
  business_id: number;
  title: string;
  is_default: Bool;
  position: number;
  created: Timestamp;
}

/** A custom field. `category` is the record kind: I (inquiry), C (client), CO (contract). */
export interface FieldTable {
  id: Generated<number>;
  business_id: number;
  name: string;
  category: string;
  data_type: string;
  created: Timestamp;
}

/** An option of an SL / ML field; `option_id` is the string id a field value carries. */
export interface FieldOptionTable {
  id: Generated<number>;
  business_id: number;
  field_id: number;
  option_id: string;
  title: string;
  position: number;
}

/** A member of an M (member-type) field's `memberSet`. */
export interface FieldMemberTable {
  business_id: number;
  field_id: number;
  member_id: number;
  position: number;
}

/** A contract category (`categorySet` entries). */
export interface ContractCategoryTable {
  id: Generated<number>;
  business_id: number;
  title: string;
  created: Timestamp;
}

/** A settlement type (the settlement "form"), ordered by `position`. */
export interface SettlementTypeTable {
  id: Generated<number>;
  business_id: number;
  base_type: string;
  category: string;
  title: string;
  allows_multiple_rounds: Bool;
  position: number;
  created: Timestamp;
}

/** A worker position `{id, title, symbolColor}`. */
export interface WorkerPositionTable {
  id: Generated<number>;
  business_id: number;
  title: string;
  symbol_color: string;
  created: Timestamp;
}

/**
 * The columns of a member as the API shows it (`Member`, five keys; docs/api.md#responses-and-status-codes),
 * selected through an inner join of `member` with `grade`; `created` orders member pages. The one column set
 * of that shape (members, field members, responsible members of inquiries and settlements);
 * `catalog.service` `toMember` maps it.
 */
export const MEMBER_COLUMNS = [
  'member.id',
  'member.nickname',
  'member.email',
  'member.is_active',
  'member.created',
  'grade.id as grade_id',
  'grade.title as grade_title',
] as const;

/** What {@link MEMBER_COLUMNS} select. */
export interface MemberColumns {
  id: number;
  nickname: string | null;
  email: string;
  is_active: Bool;
  grade_id: number;
  grade_title: string;
}

/**
 * The member a record optionally names (a note's, a history entry's `member`), through left joins on
 * `member` and `grade`, prefixed `member_` (the grade `grade_`); `catalog.service` `toNestedMember` maps it.
 */
export const NESTED_MEMBER_COLUMNS = [
  'member.id as member_id',
  'member.nickname as member_nickname',
  'member.email as member_email',
  'member.is_active as member_is_active',
  'grade.id as grade_id',
  'grade.title as grade_title',
] as const;

/** What {@link NESTED_MEMBER_COLUMNS} select; all `null` when the record names no member. */
export interface NestedMemberColumns {
  member_id: number | null;
  member_nickname: string | null;
  member_email: string | null;
  member_is_active: Bool | null;
  grade_id: number | null;
  grade_title: string | null;
}
