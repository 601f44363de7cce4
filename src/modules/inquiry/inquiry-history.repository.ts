/**
 * SQL for the history pages of one inquiry (status, folder, text, e-mail, e-mail reply, submit) and the
 * text-note writes. Every function takes `(db, businessId, inquiryId, …)` and filters by both; the caller
 * checks that the inquiry itself is live.
 */
import type { Db } from '../../db/database.ts';
import { forUpdateOf, fromJsonColumn, jsonArrayOf } from '../../db/sql-helpers.ts';
import type { Timestamp } from '../../db/columns.ts';
import { type CursorPosition, fetchPage, newestFirst, type Page } from '../../shared/pagination.ts';
import type { NestedMemberColumns } from '../../db/tables/catalog.table.ts';

/** Member columns of a history row (all null when the row names no member). */
export type HistoryMemberColumns = NestedMemberColumns;

/** A `status_history` row with its statuses and their folders. */
export interface StatusHistoryRow extends HistoryMemberColumns {
  id: number;
  created: string;
  status_id: number;
  status_title: string;
  folder_id: number;
  folder_name: string;
  previous_status_id: number | null;
  previous_status_title: string | null;
  previous_folder_id: number | null;
  previous_folder_name: string | null;
}

/** The columns of {@link HistoryMemberColumns}, from `member as m` and `grade as g` left-joined on the history row. */
const memberColumns = [
  'm.id as member_id',
  'm.nickname as member_nickname',
  'm.email as member_email',
  'm.is_active as member_is_active',
  'g.id as grade_id',
  'g.title as grade_title',
] as const;

/** One page of an inquiry's status history, newest first. */
export async function findStatusHistoryPage(
  db: Db,
  businessId: number,
  inquiryId: number,
  size: number,
  cursor: CursorPosition | undefined,
): Promise<Page<StatusHistoryRow>> {
  const q = db
    .selectFrom('inquiry_status_history as h')
    .innerJoin('inquiry_status as s', (join) =>
      join.onRef('s.id', '=', 'h.status_id').onRef('s.business_id', '=', 'h.business_id'),
    )
    .innerJoin('folder as f', (join) =>
      join.onRef('f.id', '=', 's.folder_id').onRef('f.business_id', '=', 's.business_id'),
    )
    .leftJoin('inquiry_status as ps', (join) =>
      join.onRef('ps.id', '=', 'h.previous_status_id').onRef('ps.business_id', '=', 'h.business_id'),
    )
    .leftJoin('folder as pf', (join) =>
      join.onRef('pf.id', '=', 'ps.folder_id').onRef('pf.business_id', '=', 'ps.business_id'),
    )
    .leftJoin('member as m', (join) =>
      join.onRef('m.id', '=', 'h.member_id').onRef('m.business_id', '=', 'h.business_id'),
    )
    .leftJoin('grade as g', (join) =>
      join.onRef('g.id', '=', 'm.grade_id').onRef('g.business_id', '=', 'm.business_id'),
    )
    .select([
      'h.id',
      'h.created',
      's.id as status_id',
      's.title as status_title',
      'f.id as folder_id',
      'f.name as folder_name',
      'ps.id as previous_status_id',
      'ps.title as previous_status_title',
      'pf.id as previous_folder_id',
      'pf.name as previous_folder_name',
      ...memberColumns,
    ])
    .where('h.business_id', '=', businessId)
    .where('h.inquiry_id', '=', inquiryId);
  return fetchPage(q, newestFirst<StatusHistoryRow>('h'), size, cursor);
}

/** A `folder_history` row with its folders. */
export interface FolderHistoryRow extends HistoryMemberColumns {
  id: number;
  created: string;
  folder_id: number;
  folder_name: string;
  previous_folder_id: number | null;
  previous_folder_name: string | null;
}

/** One page of an inquiry's folder history, newest first. */
export async function findFolderHistoryPage(
  db: Db,
  businessId: number,
  inquiryId: number,
  size: number,
  cursor: CursorPosition | undefined,
): Promise<Page<FolderHistoryRow>> {
  const q = db
    .selectFrom('inquiry_folder_history as h')
    .innerJoin('folder as f', (join) =>
      join.onRef('f.id', '=', 'h.folder_id').onRef('f.business_id', '=', 'h.business_id'),
    )
    .leftJoin('folder as pf', (join) =>
      join.onRef('pf.id', '=', 'h.previous_folder_id').onRef('pf.business_id', '=', 'h.business_id'),
    )
    .leftJoin('member as m', (join) =>
      join.onRef('m.id', '=', 'h.member_id').onRef('m.business_id', '=', 'h.business_id'),
    )
    .leftJoin('grade as g', (join) =>
      join.onRef('g.id', '=', 'm.grade_id').onRef('g.business_id', '=', 'm.business_id'),
    )
    .select([
      'h.id',
      'h.created',
      'f.id as folder_id',
      'f.name as folder_name',
      'pf.id as previous_folder_id',
      'pf.name as previous_folder_name',
      ...memberColumns,
    ])
    .where('h.business_id', '=', businessId)
    .where('h.inquiry_id', '=', inquiryId);
  return fetchPage(q, newestFirst<FolderHistoryRow>('h'), size, cursor);
}

/** A text note with its member. */
export interface TextHistoryRow extends HistoryMemberColumns {
  id: number;
  content: string;
  created: string;
  updated: string;
}

function selectText(db: Db, businessId: number, inquiryId: number) {
  return db
    .selectFrom('inquiry_text_history as h')
    .leftJoin('member as m', (join) =>
      join.onRef('m.id', '=', 'h.member_id').onRef('m.business_id', '=', 'h.business_id'),
    )
    .leftJoin('grade as g', (join) =>
      join.onRef('g.id', '=', 'm.grade_id').onRef('g.business_id', '=', 'm.business_id'),
    )
    .select(['h.id', 'h.content', 'h.created', 'h.updated', ...memberColumns])
    .where('h.business_id', '=', businessId)
    .where('h.inquiry_id', '=', inquiryId);
}

/** `updated_start` / `updated_end` of the text-note list as a half-open UTC range (docs/api.md#events). */
export interface TextHistoryFilter {
  updatedFrom?: string;
  updatedTo?: string;
}

/** One page of an inquiry's text notes, newest first (by their `created`). */
export async function findTextHistoryPage(
  db: Db,
  businessId: number,
  inquiryId: number,
  filter: TextHistoryFilter,
  size: number,
  cursor: CursorPosition | undefined,
): Promise<Page<TextHistoryRow>> {
  let q = selectText(db, businessId, inquiryId);
  if (filter.updatedFrom !== undefined) q = q.where('h.updated', '>=', filter.updatedFrom);
  if (filter.updatedTo !== undefined) q = q.where('h.updated', '<', filter.updatedTo);
  return fetchPage(q, newestFirst<TextHistoryRow>('h'), size, cursor);
}

/**
 * A text note of the live inquiry, or `undefined` (also for a note of another inquiry, or of a soft-deleted
 * one), in one statement that proves both. With `lock` the read is also the note's lock until the end of
 * the caller's transaction (`FOR UPDATE OF h` on PostgreSQL; SQLite's `BEGIN IMMEDIATE` holds the write
 * lock already): the lean write path's read of the current shape (docs/api.md#events).
 */
export async function findTextHistoryById(
  db: Db,
  businessId: number,
  inquiryId: number,
  id: number,
  lock = false,
): Promise<TextHistoryRow | undefined> {
  const q = selectText(db, businessId, inquiryId)
    .innerJoin('inquiry as i', (join) =>
      join
        .onRef('i.id', '=', 'h.inquiry_id')
        .onRef('i.business_id', '=', 'h.business_id')
        .on('i.deleted_at', 'is', null),
    )
    .where('h.id', '=', id);
  return (lock ? forUpdateOf(db, q, 'h') : q).executeTakeFirst();
}

/**
 * The responsible members' ids (in the inquiry's order) of inquiry `inquiryId` when it is live in the
 * business, else `undefined`: the existence check of a note's create and the recipients of its
 * notification (README.md#notifications), in one statement.
 */
export async function findLiveInquiryInCharge(
  db: Db,
  businessId: number,
  inquiryId: number,
): Promise<number[] | undefined> {
  const row = await db
    .selectFrom('inquiry')
    .select((eb) =>
      jsonArrayOf(
        db,
        eb
          .selectFrom('inquiry_in_charge')
          .select('inquiry_in_charge.member_id')
          .whereRef('inquiry_in_charge.inquiry_id', '=', 'inquiry.id')
          .where('inquiry_in_charge.business_id', '=', businessId)
          .orderBy('inquiry_in_charge.position'),
      ).as('in_charge'),
    )
    .where('inquiry.business_id', '=', businessId)
    .where('inquiry.id', '=', inquiryId)
    .where('inquiry.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  const list = fromJsonColumn<{ member_id: number }[]>(row.in_charge);
  return list.map((m) => m.member_id);
}

/**
 * Inserts a text note; returns its id. `updated` is the time of the write (`row.updated`), not the
 * `created` the caller may have given (a note can be dated in the past).
 */
export async function insertTextHistory(
  db: Db,
  businessId: number,
  row: { inquiry_id: number; content: string; member_id: number | null; created: Timestamp; updated: Timestamp },
): Promise<number> {
  const { id } = await db
    .insertInto('inquiry_text_history')
    .values({ ...row, business_id: businessId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/**
 * Writes the columns of `patch` and `updated` of a text note of the inquiry in one statement (the UPDATE
 * stamps `updated` itself, docs/api.md#events); returns the number of rows changed (0 when missing).
 */
export async function updateTextHistoryById(
  db: Db,
  businessId: number,
  inquiryId: number,
  id: number,
  patch: { content?: string; created?: Timestamp },
  updated: Timestamp,
): Promise<number> {
  const result = await db
    .updateTable('inquiry_text_history')
    .set({ ...patch, updated })
    .where('business_id', '=', businessId)
    .where('inquiry_id', '=', inquiryId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Deletes a text note of the live inquiry; returns the number of rows deleted (0 when missing, also for a
 * note of another inquiry or of a soft-deleted one: the one statement is the existence check).
 */
export async function deleteTextHistoryById(
  db: Db,
  businessId: number,
  inquiryId: number,
  id: number,
): Promise<number> {
  const result = await db
    .deleteFrom('inquiry_text_history')
    .where('business_id', '=', businessId)
    .where('inquiry_id', '=', inquiryId)
    .where('id', '=', id)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('inquiry')
          .select('inquiry.id')
          .where('inquiry.business_id', '=', businessId)
          .where('inquiry.id', '=', inquiryId)
          .where('inquiry.deleted_at', 'is', null),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** An `email_history` row; `to_emails` / `cc_emails` are JSON arrays of addresses. */
export interface EmailHistoryRow {
  id: number;
  title: string;
  from_email: string;
  to_emails: string;
  cc_emails: string;
  status: string;
  sent_at: string | null;
  created: string;
}

/** One page of the e-mails sent from an inquiry, newest first. */
export async function findEmailHistoryPage(
  db: Db,
  businessId: number,
  inquiryId: number,
  size: number,
  cursor: CursorPosition | undefined,
): Promise<Page<EmailHistoryRow>> {
  const q = db
    .selectFrom('inquiry_email_history')
    .select(['id', 'title', 'from_email', 'to_emails', 'cc_emails', 'status', 'sent_at', 'created'])
    .where('business_id', '=', businessId)
    .where('inquiry_id', '=', inquiryId);
  return fetchPage(q, newestFirst<EmailHistoryRow>('inquiry_email_history'), size, cursor);
}

/** An `email_reply_history` row; addresses as JSON arrays. */
export interface EmailReplyHistoryRow {
  id: number;
  title: string;
  from_email: string;
  to_emails: string;
  cc_emails: string;
  is_unread: 0 | 1;
  received_at: string | null;
  created: string;
}

/** One page of the replies received to an inquiry's e-mails, newest first. */
export async function findEmailReplyHistoryPage(
  db: Db,
  businessId: number,
  inquiryId: number,
  size: number,
  cursor: CursorPosition | undefined,
): Promise<Page<EmailReplyHistoryRow>> {
  const q = db
    .selectFrom('inquiry_email_reply_history')
    .select(['id', 'title', 'from_email', 'to_emails', 'cc_emails', 'is_unread', 'received_at', 'created'])
    .where('business_id', '=', businessId)
    .where('inquiry_id', '=', inquiryId);
  return fetchPage(q, newestFirst<EmailReplyHistoryRow>('inquiry_email_reply_history'), size, cursor);
}

/** A `submit_history` row; `answers` is JSON text. */
export interface SubmitHistoryRow {
  id: number;
  form_id: number;
  form_title: string;
  answers: string;
  created: string;
}

/** One page of an inquiry's web-form submissions, newest first. */
export async function findSubmitHistoryPage(
  db: Db,
  businessId: number,
  inquiryId: number,
  size: number,
  cursor: CursorPosition | undefined,
): Promise<Page<SubmitHistoryRow>> {
  const q = db
    .selectFrom('inquiry_submit_history')
    .select(['id', 'form_id', 'form_title', 'answers', 'created'])
    .where('business_id', '=', businessId)
    .where('inquiry_id', '=', inquiryId);
  return fetchPage(q, newestFirst<SubmitHistoryRow>('inquiry_submit_history'), size, cursor);
}

// ── Restore (src/shared/restore.ts) ──

/** The history tables of an inquiry. */
export type HistoryTable =
  | 'inquiry_status_history'
  | 'inquiry_folder_history'
  | 'inquiry_text_history'
  | 'inquiry_email_history'
  | 'inquiry_email_reply_history'
  | 'inquiry_submit_history';

/** The stored columns (without `id`, `business_id`, `inquiry_id`) of one history row of the inquiry, or `undefined`. */
export async function findHistoryColumns(
  db: Db,
  table: HistoryTable,
  businessId: number,
  inquiryId: number,
  id: number,
): Promise<Record<string, unknown> | undefined> {
  const row = await db
    .selectFrom(table as 'inquiry_text_history')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('inquiry_id', '=', inquiryId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { business_id: _b, inquiry_id: _i, ...rest } = row as Record<string, unknown>;
  return rest;
}

/** Inserts a history row of the inquiry under `id` (a new id when undefined); returns its id. */
export async function insertHistoryRow(
  db: Db,
  table: HistoryTable,
  businessId: number,
  inquiryId: number,
  id: number | undefined,
  columns: Record<string, unknown>,
): Promise<number> {
  const { id: newId } = await db
    .insertInto(table as 'inquiry_text_history')
    .values({ ...columns, ...(id !== undefined && { id }), business_id: businessId, inquiry_id: inquiryId } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return newId;
}

/** Sets the columns of a history row of the business (moving it to `inquiryId`). */
export async function updateHistoryRow(
  db: Db,
  table: HistoryTable,
  businessId: number,
  inquiryId: number,
  id: number,
  columns: Record<string, unknown>,
): Promise<void> {
  await db
    .updateTable(table as 'inquiry_text_history')
    .set({ ...columns, inquiry_id: inquiryId } as never)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .execute();
}

/** The ids of inquiry `inquiryId`'s text notes, ascending: what its soft delete hides (docs/api.md#cascades). */
export async function findTextHistoryIds(db: Db, businessId: number, inquiryId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('inquiry_text_history')
    .select('id')
    .where('business_id', '=', businessId)
    .where('inquiry_id', '=', inquiryId)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}
