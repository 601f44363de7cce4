/**
 * An inquiry's histories (docs/api.md#inquiries; notifications: README.md#notifications): the status,
 * folder, e-mail, e-mail reply and submit pages (read-only), and text notes (list, create, retrieve,
 * partialUpdate, destroy). Every operation answers 404 when the inquiry is missing, soft-deleted or another business's,
 * and a note of another inquiry is "Not found." too.
 */
import type { Db } from '../../db/database.ts';
import { changedColumns, inTransaction, nowTimestamp } from '../../db/sql-helpers.ts';
import { ErrorCollector, NotFound, messages } from '../../shared/errors.ts';
import { type CursorPosition, mapPage, type Page, pageSizeOf } from '../../shared/pagination.ts';
import type { AuthContext } from '../../shared/auth-context.ts';
import { isMember, toNestedMember } from '../catalog/catalog.service.ts';
import { recordCreated, recordDeleted, updateRecord } from '../event/event.service.ts';
import { instantRangeUtc } from '../../shared/time.ts';
import type { RestoreOptions, RestoreResult } from '../../shared/restore.ts';
import { restoredTimestamp, restoreRecord, checkRestore } from '../../shared/restore-record.ts';
import * as repo from './inquiry-history.repository.ts';
import type {
  EmailHistory,
  EmailReplyHistory,
  FolderHistory,
  HistoryListQuery,
  StatusHistory,
  SubmitHistory,
  TextHistory,
  TextHistoryCreateBody,
  TextHistoryFull,
  TextHistoryListQuery,
  TextHistoryUpdateBody,
} from './inquiry-history.schemas.ts';
import { TextHistoryUpdateBody as TextHistoryUpdateBodySchema } from './inquiry-history.schemas.ts';
import { existsById as inquiryExistsById } from './inquiry.repository.ts';
import { emitInquiryEvent } from './inquiry.service.ts';

type Auth = Pick<AuthContext, 'businessId'>;
/** What the text-note list needs: `updated_start` / `updated_end` are read in the business time zone. */
type ListAuth = Pick<AuthContext, 'businessId' | 'timezone'>;

/** @throws NotFound unless the inquiry is live in the business */
async function requireInquiry(db: Db, auth: Auth, inquiryId: number): Promise<void> {
  if (!(await inquiryExistsById(db, auth.businessId, inquiryId))) throw new NotFound();
}

/** Whether the inquiry is live and `historyId` is one of its text notes (one statement). */
export async function textHistoryExists(db: Db, auth: Auth, inquiryId: number, historyId: number): Promise<boolean> {
  return (await repo.findTextHistoryById(db, auth.businessId, inquiryId, historyId)) !== undefined;
}

/** Parses a JSON column written by this server; a damaged value reads as `fallback`. */
function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

function addresses(text: string): string[] {
  const value = parseJson<unknown>(text, []);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * `GET /v1/inquiry/{inquiry_id}/status_history`: one row for the initial status and one per change, newest
 * first; each status carries its folder.
 * @throws NotFound for a missing inquiry
 */
export async function listStatusHistory(
  db: Db,
  auth: Auth,
  inquiryId: number,
  query: HistoryListQuery,
  cursor: CursorPosition | undefined,
): Promise<Page<StatusHistory>> {
  await requireInquiry(db, auth, inquiryId);
  const page = await repo.findStatusHistoryPage(db, auth.businessId, inquiryId, pageSizeOf(query), cursor);
  return mapPage(page, (r) => ({
    id: r.id,
    status: { id: r.status_id, title: r.status_title, folder: { id: r.folder_id, name: r.folder_name } },
    previousStatus:
      r.previous_status_id === null ||
      r.previous_status_title === null ||
      r.previous_folder_id === null ||
      r.previous_folder_name === null
        ? null
        : {
            id: r.previous_status_id,
            title: r.previous_status_title,
            folder: { id: r.previous_folder_id, name: r.previous_folder_name },
          },
    member: toNestedMember(r),
    created: r.created,
  }));
}

/**
 * `GET /v1/inquiry/{inquiry_id}/folder_history`: one row per status change that moved the inquiry to
 * another folder, newest first.
 * @throws NotFound for a missing inquiry
 */
export async function listFolderHistory(
  db: Db,
  auth: Auth,
  inquiryId: number,
  query: HistoryListQuery,
  cursor: CursorPosition | undefined,
): Promise<Page<FolderHistory>> {
  await requireInquiry(db, auth, inquiryId);
  const page = await repo.findFolderHistoryPage(db, auth.businessId, inquiryId, pageSizeOf(query), cursor);
  return mapPage(page, (r) => ({
    id: r.id,
    folder: { id: r.folder_id, name: r.folder_name },
    previousFolder:
      r.previous_folder_id === null || r.previous_folder_name === null
        ? null
        : { id: r.previous_folder_id, name: r.previous_folder_name },
    member: toNestedMember(r),
    created: r.created,
  }));
}

/**
 * `GET /v1/inquiry/{inquiry_id}/email_history`: e-mails sent from the inquiry, newest first (rows come
 * from outside the API).
 * @throws NotFound for a missing inquiry
 */
export async function listEmailHistory(
  db: Db,
  auth: Auth,
  inquiryId: number,
  query: HistoryListQuery,
  cursor: CursorPosition | undefined,
): Promise<Page<EmailHistory>> {
  await requireInquiry(db, auth, inquiryId);
  const page = await repo.findEmailHistoryPage(db, auth.businessId, inquiryId, pageSizeOf(query), cursor);
  return mapPage(page, (r) => ({
    id: r.id,
    title: r.title,
    fromEmail: r.from_email,
    toSet: addresses(r.to_emails).map((toEmail) => ({ toEmail })),
    ccSet: addresses(r.cc_emails).map((ccEmail) => ({ ccEmail })),
    status: r.status as EmailHistory['status'],
    sentAt: r.sent_at,
    created: r.created,
  }));
}

/**
 * `GET /v1/inquiry/{inquiry_id}/email_reply_history`: replies received, newest first (rows come from
 * outside the API).
 * @throws NotFound for a missing inquiry
 */
export async function listEmailReplyHistory(
  db: Db,
  auth: Auth,
  inquiryId: number,
  query: HistoryListQuery,
  cursor: CursorPosition | undefined,
): Promise<Page<EmailReplyHistory>> {
  await requireInquiry(db, auth, inquiryId);
  const page = await repo.findEmailReplyHistoryPage(db, auth.businessId, inquiryId, pageSizeOf(query), cursor);
  return mapPage(page, (r) => ({
    id: r.id,
    title: r.title,
    fromEmail: r.from_email,
    toSet: addresses(r.to_emails).map((toEmail) => ({ toEmail })),
    ccSet: addresses(r.cc_emails).map((ccEmail) => ({ ccEmail })),
    isUnread: r.is_unread === 1,
    receivedAt: r.received_at,
    created: r.created,
  }));
}

/**
 * `GET /v1/inquiry/{inquiry_id}/submit_history`: web-form submissions, newest first (rows come from
 * outside the API).
 * @throws NotFound for a missing inquiry
 */
export async function listSubmitHistory(
  db: Db,
  auth: Auth,
  inquiryId: number,
  query: HistoryListQuery,
  cursor: CursorPosition | undefined,
): Promise<Page<SubmitHistory>> {
  await requireInquiry(db, auth, inquiryId);
  const page = await repo.findSubmitHistoryPage(db, auth.businessId, inquiryId, pageSizeOf(query), cursor);
  return mapPage(page, (r) => ({
    id: r.id,
    form: { id: r.form_id, title: r.form_title },
    answers: parseJson<unknown>(r.answers, null),
    created: r.created,
  }));
}

// ── Text notes ──

/** A note row → the full shape (retrieve, update; the data of its events). */
function toTextHistory(row: repo.TextHistoryRow): TextHistoryFull {
  return { id: row.id, content: row.content, created: row.created, member: toNestedMember(row), updated: row.updated };
}

/** A note row → the list item shape: no `updated` (docs/api.md#updated). */
function toTextHistoryItem(row: repo.TextHistoryRow): TextHistory {
  return { id: row.id, content: row.content, created: row.created, member: toNestedMember(row) };
}

/** An RFC 3339 input with any offset → UTC with milliseconds (docs/api.md#responses-and-status-codes). */
function toTimestamp(input: string): string {
  return new Date(input).toISOString();
}

/**
 * `GET /v1/inquiry/{inquiry_id}/text_history`: the inquiry's notes, newest first by `created`;
 * `updated_start` / `updated_end` select them by their last change (inclusive; a date is the whole day in
 * the business time zone; docs/api.md#events).
 * @throws NotFound for a missing inquiry; ValidationError for a date that names no day
 */
export async function listTextHistory(
  db: Db,
  auth: ListAuth,
  inquiryId: number,
  query: TextHistoryListQuery,
  cursor: CursorPosition | undefined,
): Promise<Page<TextHistory>> {
  const updated = instantRangeUtc(auth.timezone, query.updated_start, query.updated_end);
  await requireInquiry(db, auth, inquiryId);
  const page = await repo.findTextHistoryPage(
    db,
    auth.businessId,
    inquiryId,
    { updatedFrom: updated.from, updatedTo: updated.to },
    pageSizeOf(query),
    cursor,
  );
  return mapPage(page, toTextHistoryItem);
}

/**
 * `POST /v1/inquiry/{inquiry_id}/text_history` (docs/api.md#inquiries): `content` 1..5000; `created` defaults
 * to now; `member {id}` must be a member of the business. Writes an `inquiry.text_history_created` event
 * to the inquiry's responsible members in the same transaction (README.md#notifications), and an
 * `inquiry.text_history.created` change event with the note as `GET` answers it and the inquiry as its
 * `parent` (docs/api.md#events). The note's `updated` is the time of the write, also when `created` dates
 * it in the past; the answer leaves `updated` out (docs/api.md#updated).
 * @throws NotFound for a missing inquiry; ValidationError for an unknown member
 */
export async function createTextHistory(
  db: Db,
  auth: Auth,
  inquiryId: number,
  body: TextHistoryCreateBody,
): Promise<TextHistory> {
  // The route answered 404 for a missing inquiry before validation; the transaction checks it again.
  const memberId = body.member?.id ?? null;
  if (memberId !== null && !(await isMember(db, auth.businessId, memberId))) {
    const errors = new ErrorCollector();
    errors.add(['member', 'id'], messages.invalidPk(memberId));
    errors.throwIfAny();
  }
  return inTransaction(db, async (trx) => {
    // One statement: the inquiry is live, and who is responsible for it (the notification's recipients).
    const memberIds = await repo.findLiveInquiryInCharge(trx, auth.businessId, inquiryId);
    if (!memberIds) throw new NotFound();
    const now = nowTimestamp();
    const newId = await repo.insertTextHistory(trx, auth.businessId, {
      inquiry_id: inquiryId,
      content: body.content,
      member_id: memberId,
      created: body.created === undefined ? now : toTimestamp(body.created),
      updated: now,
    });
    await emitInquiryEvent(trx, auth.businessId, {
      type: 'inquiry.text_history_created',
      inquiryId,
      memberIds,
      textHistoryId: newId,
    });
    // Read inside the transaction: the answer and the event's data are the same shape.
    const note = toTextHistory((await repo.findTextHistoryById(trx, auth.businessId, inquiryId, newId))!);
    await recordCreated(trx, auth.businessId, 'inquiry.text_history', note, {
      parent: { type: 'inquiry', id: inquiryId },
    });
    // the create answer keeps the keys the spec gives it: no `updated` (docs/api.md#updated)
    const { updated: _updated, ...created } = note;
    return created;
  });
}

/**
 * `GET /v1/inquiry/{inquiry_id}/text_history/{history_id}`.
 * @throws NotFound for a missing inquiry, a missing note, or a note of another inquiry
 */
export async function retrieveTextHistory(
  db: Db,
  auth: Auth,
  inquiryId: number,
  historyId: number,
): Promise<TextHistoryFull> {
  // One statement: the note of this live inquiry.
  const row = await repo.findTextHistoryById(db, auth.businessId, inquiryId, historyId);
  if (!row) throw new NotFound();
  return toTextHistory(row);
}

/**
 * `PATCH /v1/inquiry/{inquiry_id}/text_history/{history_id}`: `content` and `created` may change; the
 * member is not writable. A change stamps `updated` and writes an `inquiry.text_history.updated` event
 * naming the changed properties; a PATCH that changes nothing writes none (docs/api.md#events).
 * @throws NotFound for a missing inquiry or note
 */
export async function partialUpdateTextHistory(
  db: Db,
  auth: Auth,
  inquiryId: number,
  historyId: number,
  body: TextHistoryUpdateBody,
): Promise<TextHistoryFull> {
  const patch: { content?: string; created?: string } = {};
  if (body.content !== undefined) patch.content = body.content;
  if (body.created !== undefined) patch.created = toTimestamp(body.created);
  return inTransaction(db, async (trx) => {
    // The lean write path: the read of the current shape is the lock, and proves the note is this live inquiry's.
    const { before, answer } = await updateRecord(
      trx,
      auth.businessId,
      'inquiry.text_history',
      {
        lock: () => repo.findTextHistoryById(trx, auth.businessId, inquiryId, historyId, true),
        shape: toTextHistory,
        diff: (row) => ({ columns: changedColumns({ ...row }, patch) }),
        update: (columns, at) => repo.updateTextHistoryById(trx, auth.businessId, inquiryId, historyId, columns, at),
        read: async () => toTextHistory((await repo.findTextHistoryById(trx, auth.businessId, inquiryId, historyId))!),
      },
      { parent: { type: 'inquiry', id: inquiryId } },
    );
    return answer ?? before;
  });
}

/**
 * `DELETE /v1/inquiry/{inquiry_id}/text_history/{history_id}`: removes the note for good, and writes an
 * `inquiry.text_history.deleted` event `{id}` (docs/api.md#events).
 * @throws NotFound for a missing inquiry or note
 */
export async function destroyTextHistory(db: Db, auth: Auth, inquiryId: number, historyId: number): Promise<void> {
  // The DELETE (of a note of this live inquiry) is the existence check.
  await inTransaction(db, async (trx) => {
    if ((await repo.deleteTextHistoryById(trx, auth.businessId, inquiryId, historyId)) === 0) throw new NotFound();
    await recordDeleted(trx, auth.businessId, 'inquiry.text_history', historyId, {
      parent: { type: 'inquiry', id: inquiryId },
    });
  });
}

// ── Restore (src/shared/restore.ts, docs/deployment.md#11-moving-a-business-in-and-out) ──

type MemberRef = { id: number } | null | undefined;
const timeOrNull = (value: string | null | undefined) =>
  value === null || value === undefined ? null : restoredTimestamp(value);

/**
 * Restores one history row of inquiry `inquiryId` (this server's id) from the stored `columns` a shape
 * becomes: `unchanged` when the row already holds exactly those columns, else written; id kept where free.
 * @throws ValidationError on `member.id` for a member this business does not have
 */
async function restoreHistoryRow(
  db: Db,
  auth: Auth,
  table: repo.HistoryTable,
  inquiryId: number,
  shape: { id: number },
  member: MemberRef,
  columns: Record<string, unknown>,
  options: RestoreOptions,
): Promise<RestoreResult> {
  const { businessId } = auth;
  const check = async (t: Db) => {
    if (member && !(await isMember(t, businessId, member.id))) {
      const errors = new ErrorCollector();
      errors.add(['member', 'id'], messages.invalidPk(member.id));
      errors.throwIfAny();
    }
  };
  const withMember =
    table === 'inquiry_email_history' || table === 'inquiry_email_reply_history' || table === 'inquiry_submit_history'
      ? columns
      : { ...columns, member_id: member?.id ?? null };
  return restoreRecord(db, businessId, { ...withMember, id: shape.id }, options, {
    table,
    // Only text notes have an `updated` column.
    ignore: table === 'inquiry_text_history' ? [] : ['updated'],
    current: async (t, id) => {
      const row = await repo.findHistoryColumns(t, table, businessId, inquiryId, id);
      return row && { ...row, id };
    },
    insert: async (t, id) => {
      await check(t);
      return repo.insertHistoryRow(t, table, businessId, inquiryId, id, withMember);
    },
    update: async (t, id) => {
      await check(t);
      await repo.updateHistoryRow(t, table, businessId, inquiryId, id, withMember);
    },
  });
}

/** A text note as {@link restoreTextHistory} takes it (`GET …/text_history` item; `updated` optional). */
export type RestoredTextHistory = TextHistory & { updated?: string | undefined };

/**
 * Restores one text note of inquiry `inquiryId` (this server's id) from its shape: `content`, `member`,
 * `created` and `updated` (default `created`) as given. No event.
 * @throws ValidationError on `member.id` for a member this business does not have
 *
 * @public reached through the composition root (src/services.ts) by the transfer module.
 */
export async function restoreTextHistory(
  db: Db,
  auth: Auth,
  inquiryId: number,
  shape: RestoredTextHistory,
  options: RestoreOptions,
): Promise<RestoreResult> {
  const only = checkRestore(TextHistoryUpdateBodySchema, { content: shape.content }, shape, options);
  if (only) return only;
  const created = restoredTimestamp(shape.created);
  return restoreHistoryRow(
    db,
    auth,
    'inquiry_text_history',
    inquiryId,
    shape,
    shape.member,
    {
      content: shape.content,
      created,
      updated: shape.updated === undefined ? created : restoredTimestamp(shape.updated),
    },
    options,
  );
}

/**
 * Restores one status-history row of inquiry `inquiryId` from its shape (`status`, `previousStatus`,
 * `member`, `created`).
 * @throws ValidationError on `member.id`; a status this business lacks fails its foreign key
 *
 * @public reached through the composition root (src/services.ts) by the transfer module.
 */
export async function restoreStatusHistory(
  db: Db,
  auth: Auth,
  inquiryId: number,
  shape: StatusHistory,
  options: RestoreOptions,
): Promise<RestoreResult> {
  return restoreHistoryRow(
    db,
    auth,
    'inquiry_status_history',
    inquiryId,
    shape,
    shape.member,
    {
      status_id: shape.status.id,
      previous_status_id: shape.previousStatus?.id ?? null,
      created: restoredTimestamp(shape.created),
    },
    options,
  );
}

/**
 * Restores one folder-history row of inquiry `inquiryId` from its shape (`folder`, `previousFolder`,
 * `member`, `created`).
 * @throws ValidationError on `member.id`; a folder this business lacks fails its foreign key
 *
 * @public reached through the composition root (src/services.ts) by the transfer module.
 */
export async function restoreFolderHistory(
  db: Db,
  auth: Auth,
  inquiryId: number,
  shape: FolderHistory,
  options: RestoreOptions,
): Promise<RestoreResult> {
  return restoreHistoryRow(
    db,
    auth,
    'inquiry_folder_history',
    inquiryId,
    shape,
    shape.member,
    {
      folder_id: shape.folder.id,
      previous_folder_id: shape.previousFolder?.id ?? null,
      created: restoredTimestamp(shape.created),
    },
    options,
  );
}

/** Restores one sent e-mail of inquiry `inquiryId` from its shape (every property as given). */
export async function restoreEmailHistory(
  db: Db,
  auth: Auth,
  inquiryId: number,
  shape: EmailHistory,
  options: RestoreOptions,
): Promise<RestoreResult> {
  return restoreHistoryRow(
    db,
    auth,
    'inquiry_email_history',
    inquiryId,
    shape,
    null,
    {
      title: shape.title,
      from_email: shape.fromEmail,
      to_emails: JSON.stringify(shape.toSet.map((t) => t.toEmail)),
      cc_emails: JSON.stringify(shape.ccSet.map((c) => c.ccEmail)),
      status: shape.status,
      sent_at: timeOrNull(shape.sentAt),
      created: restoredTimestamp(shape.created),
    },
    options,
  );
}

/** Restores one received reply of inquiry `inquiryId` from its shape (every property as given). */
export async function restoreEmailReplyHistory(
  db: Db,
  auth: Auth,
  inquiryId: number,
  shape: EmailReplyHistory,
  options: RestoreOptions,
): Promise<RestoreResult> {
  return restoreHistoryRow(
    db,
    auth,
    'inquiry_email_reply_history',
    inquiryId,
    shape,
    null,
    {
      title: shape.title,
      from_email: shape.fromEmail,
      to_emails: JSON.stringify(shape.toSet.map((t) => t.toEmail)),
      cc_emails: JSON.stringify(shape.ccSet.map((c) => c.ccEmail)),
      is_unread: shape.isUnread ? 1 : 0,
      received_at: timeOrNull(shape.receivedAt),
      created: restoredTimestamp(shape.created),
    },
    options,
  );
}

/** Restores one web-form submission of inquiry `inquiryId` from its shape (every property as given). */
export async function restoreSubmitHistory(
  db: Db,
  auth: Auth,
  inquiryId: number,
  shape: SubmitHistory,
  options: RestoreOptions,
): Promise<RestoreResult> {
  return restoreHistoryRow(
    db,
    auth,
    'inquiry_submit_history',
    inquiryId,
    shape,
    null,
    {
      form_id: shape.form.id,
      form_title: shape.form.title,
      answers: JSON.stringify(shape.answers ?? null),
      created: restoredTimestamp(shape.created),
    },
    options,
  );
}
