/**
 * SQL for inquiries and their nested data (responsible members, tasks, custom field values, file links),
 * the number counter, status / folder history rows written on create and update, and the task list.
 * Soft-deleted inquiries are never read; a soft-deleted client nested in an inquiry reads as none.
 */
import { type Expression, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { recordWrites } from '../../db/record-writes.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import {
  advanceIdSequence,
  forUpdateOf,
  jsonArrayOf,
  rowAsSelect,
  searchAll,
  type RowLock,
} from '../../db/sql-helpers.ts';
import { canKeepId } from '../../db/ids.ts';
import { defaultInquiryStatusId } from '../catalog/catalog.service.ts';
import { fieldValuesJson } from '../field/field.service.ts';
import { inquiryFilesJson } from '../file/file.service.ts';
import type { Timestamp } from '../../db/columns.ts';
import {
  type CursorPosition,
  fetchPage,
  newestFirst,
  noFilters,
  type Page,
  preparedPage,
} from '../../shared/pagination.ts';
import type { NewInquiryRow } from '../../db/tables/inquiry.table.ts';
import { NESTED_CONTRACT_COLUMNS } from '../../db/tables/contract.table.ts';
import { NESTED_CLIENT_COLUMNS } from '../../db/tables/client.table.ts';
import { MEMBER_COLUMNS } from '../../db/tables/catalog.table.ts';
import { NESTED_INQUIRY_COLUMNS, type NestedInquiryColumns } from '../../db/tables/inquiry.table.ts';
import { selectColumns } from '../../shared/property-map.ts';
import { INQUIRY_PROPERTIES } from './inquiry.properties.ts';

/**
 * The create and list shapes' columns: the inquiry's own (inquiry.properties.ts), its status with the
 * status's folder, and its client's and contract's summaries.
 */
const summaryColumns = [
  ...selectColumns(INQUIRY_PROPERTIES, 'inquiry', 'list'),
  'inquiry.status_id',
  'inquiry_status.title as status_title',
  'folder.id as folder_id',
  'folder.name as folder_name',
  ...NESTED_CLIENT_COLUMNS,
  ...NESTED_CONTRACT_COLUMNS,
] as const;

/** The full shape's columns: the list's, the inquiry's other columns and the funnel's seven. */
const detailColumns = [
  ...summaryColumns,
  ...selectColumns(INQUIRY_PROPERTIES, 'inquiry', 'detail'),
  'inquiry.utm_campaign',
  'inquiry.utm_source',
  'inquiry.utm_medium',
  'inquiry.utm_content',
  'inquiry.utm_term',
  'inquiry.guest_uid',
  'inquiry.gclid',
] as const;

/** Live inquiries of a business with their status, folder, live client and linked contract (1:1). */
function selectLive(db: Db, businessId: number) {
  return db
    .selectFrom('inquiry')
    .leftJoin('inquiry_status', (join) =>
      join
        .onRef('inquiry_status.id', '=', 'inquiry.status_id')
        .onRef('inquiry_status.business_id', '=', 'inquiry.business_id'),
    )
    .leftJoin('folder', (join) =>
      join
        .onRef('folder.id', '=', 'inquiry_status.folder_id')
        .onRef('folder.business_id', '=', 'inquiry_status.business_id'),
    )
    .leftJoin('client', (join) =>
      join
        .onRef('client.id', '=', 'inquiry.client_id')
        .onRef('client.business_id', '=', 'inquiry.business_id')
        .on('client.deleted_at', 'is', null),
    )
    .leftJoin('client_status', (join) =>
      join
        .onRef('client_status.id', '=', 'client.status_id')
        .onRef('client_status.business_id', '=', 'client.business_id'),
    )
    .leftJoin('contract', (join) =>
      join.onRef('contract.inquiry_id', '=', 'inquiry.id').onRef('contract.business_id', '=', 'inquiry.business_id'),
    )
    .where('inquiry.business_id', '=', businessId)
    .where('inquiry.deleted_at', 'is', null);
}

function findSummaryQuery(db: Db, businessId: number) {
  return selectLive(db, businessId).select(summaryColumns);
}
/** An inquiry row in the create / list shape, with status, folder and client columns. */
export type InquirySummaryRow = Awaited<ReturnType<ReturnType<typeof findSummaryQuery>['executeTakeFirstOrThrow']>>;

function findDetailQuery(db: Db, businessId: number) {
  return selectLive(db, businessId).select(detailColumns);
}
/** An inquiry row in the full shape. */
export type InquiryDetailRow = Awaited<ReturnType<ReturnType<typeof findDetailQuery>['executeTakeFirstOrThrow']>>;

/**
 * List filters (docs/api.md#inquiries, docs/api.md#filters): `createdFrom` / `createdTo` a half-open UTC range; `inquiryDateFrom` /
 * `inquiryDateTo` inclusive dates; `search` terms on name, number and client company name.
 */
export interface InquiryFilter {
  createdFrom?: string;
  createdTo?: string;
  inquiryDateFrom?: string;
  inquiryDateTo?: string;
  folderId?: number;
  statusId?: number;
  isHidden?: boolean;
  search: readonly string[];
  /** `updated_start` / `updated_end` as a half-open UTC range (docs/api.md#events). */
  updatedFrom?: string;
  updatedTo?: string;
}

/** The pages without filters, prepared (see preparedPage). */
const pages = preparedPage(findSummaryQuery, newestFirst<InquirySummaryRow>('inquiry'));

/** One page of live inquiries, newest first. */
export async function findPage(
  db: Db,
  businessId: number,
  filter: InquiryFilter,
  size: number,
  cursor: CursorPosition | undefined,
): Promise<Page<InquirySummaryRow>> {
  if (noFilters(filter)) return pages(db, businessId, size, cursor);
  let q = findSummaryQuery(db, businessId);
  if (filter.createdFrom !== undefined) q = q.where('inquiry.created', '>=', filter.createdFrom);
  if (filter.createdTo !== undefined) q = q.where('inquiry.created', '<', filter.createdTo);
  if (filter.inquiryDateFrom !== undefined) q = q.where('inquiry.inquiry_date', '>=', filter.inquiryDateFrom);
  if (filter.inquiryDateTo !== undefined) q = q.where('inquiry.inquiry_date', '<=', filter.inquiryDateTo);
  if (filter.folderId !== undefined) q = q.where('inquiry_status.folder_id', '=', filter.folderId);
  if (filter.statusId !== undefined) q = q.where('inquiry.status_id', '=', filter.statusId);
  if (filter.isHidden !== undefined) q = q.where('inquiry.is_hidden', '=', filter.isHidden ? 1 : 0);
  if (filter.updatedFrom !== undefined) q = q.where('inquiry.updated', '>=', filter.updatedFrom);
  if (filter.updatedTo !== undefined) q = q.where('inquiry.updated', '<', filter.updatedTo);
  const search = filter.search;
  if (search.length > 0) {
    q = q.where((eb) =>
      searchAll(eb, search, [eb.ref('inquiry.name'), eb.ref('inquiry.unique_id'), eb.ref('client.company_name')])!,
    );
  }
  return fetchPage(q, newestFirst<InquirySummaryRow>('inquiry'), size, cursor);
}

/**
 * The full shape of a live inquiry in one statement (the lean write path, docs/api.md#events): the detail
 * columns, the stored `client_id` (also when that client is soft-deleted) and each nested set as a JSON
 * column — `work_set` `[{name}]`, `in_charge_set` (member columns), `field_set` (field.service
 * `fieldValuesJson`), `file_link_set` `[{id, text, link, created}]`, `file_set` (file.service
 * `inquiryFilesJson`, URLs not signed). A JSON column is text on SQLite and parsed on PostgreSQL, whose
 * timestamps in it have the offset form (see `jsonArrayOf`).
 */
function fullShapeQuery(db: Db, businessId: number, id: number) {
  return shapesQuery(db, businessId).where('inquiry.id', '=', id);
}

/** {@link fullShapeQuery} of every live inquiry of the business (narrowed by the caller). */
function shapesQuery(db: Db, businessId: number) {
  return findDetailQuery(db, businessId)
    .select('inquiry.client_id as stored_client_id')
    .select((eb) => [
      jsonArrayOf(
        db,
        eb
          .selectFrom('inquiry_work')
          .select('inquiry_work.name')
          .where('inquiry_work.business_id', '=', businessId)
          .whereRef('inquiry_work.inquiry_id', '=', 'inquiry.id')
          .orderBy('inquiry_work.position'),
      ).as('work_set'),
      jsonArrayOf(
        db,
        eb
          .selectFrom('inquiry_in_charge')
          .innerJoin('member', (join) =>
            join
              .onRef('member.id', '=', 'inquiry_in_charge.member_id')
              .onRef('member.business_id', '=', 'inquiry_in_charge.business_id'),
          )
          .innerJoin('grade', (join) =>
            join.onRef('grade.id', '=', 'member.grade_id').onRef('grade.business_id', '=', 'member.business_id'),
          )
          .select(MEMBER_COLUMNS)
          .where('inquiry_in_charge.business_id', '=', businessId)
          .whereRef('inquiry_in_charge.inquiry_id', '=', 'inquiry.id')
          .orderBy('inquiry_in_charge.position'),
      ).as('in_charge_set'),
      fieldValuesJson(db, businessId, 'I', sql.ref('inquiry.id')).as('field_set'),
      jsonArrayOf(
        db,
        eb
          .selectFrom('inquiry_file_link')
          .select([
            'inquiry_file_link.id',
            'inquiry_file_link.text',
            'inquiry_file_link.link',
            'inquiry_file_link.created',
          ])
          .where('inquiry_file_link.business_id', '=', businessId)
          .whereRef('inquiry_file_link.inquiry_id', '=', 'inquiry.id')
          .orderBy('inquiry_file_link.position'),
      ).as('file_link_set'),
      inquiryFilesJson(db, businessId, sql.ref('inquiry.id')).as('file_set'),
    ]);
}
/** A live inquiry's full shape as {@link fullShapeQuery} reads it. */
export type InquiryShapeRow = Awaited<ReturnType<ReturnType<typeof fullShapeQuery>['executeTakeFirstOrThrow']>>;

/** A live inquiry's full shape in one statement ({@link fullShapeQuery}), or `undefined` (GET of an inquiry). */
export async function findShapeById(db: Db, businessId: number, id: number): Promise<InquiryShapeRow | undefined> {
  return (await shapeById(db, businessId, id))[0];
}
const shapeById = preparedQuery(2, (db: Db, businessId: number, id: number) => fullShapeQuery(db, businessId, id));

/**
 * {@link findShapeById} that is also the row's lock until the end of the caller's transaction, the read a write
 * path starts with, so that its "before" is the state its change applies to (docs/api.md#events). PostgreSQL:
 * `FOR NO KEY UPDATE OF inquiry`, or `FOR UPDATE OF inquiry` with `lock: 'update'`, for a change that records
 * created meanwhile would nest (docs/api.md#cascades; sql-helpers `forUpdateOf`). SQLite: the transaction's
 * `BEGIN IMMEDIATE` holds the write lock already.
 */
export async function lockShapeById(
  db: Db,
  businessId: number,
  id: number,
  lock: RowLock = 'no key update',
): Promise<InquiryShapeRow | undefined> {
  return (await (lock === 'update' ? shapeForCascade : shapeForUpdate)(db, businessId, id))[0];
}
const shapeForUpdate = preparedQuery(2, (db: Db, businessId: number, id: number) =>
  forUpdateOf(db, fullShapeQuery(db, businessId, id), 'inquiry'),
);
const shapeForCascade = preparedQuery(2, (db: Db, businessId: number, id: number) =>
  forUpdateOf(db, fullShapeQuery(db, businessId, id), 'inquiry', 'update'),
);

/** The full shapes of the live inquiries `ids` in one statement ({@link fullShapeQuery}), by id. */
export async function findShapesByIds(db: Db, businessId: number, ids: readonly number[]): Promise<InquiryShapeRow[]> {
  if (ids.length === 0) return [];
  return shapesQuery(db, businessId)
    .where('inquiry.id', 'in', [...ids])
    .orderBy('inquiry.id')
    .execute();
}

/**
 * Stamps `updated` with `at` on the live inquiries of client `clientId`, in one statement (a cascade,
 * docs/api.md#cascades); answers their ids, ascending.
 */
export async function stampByClientId(db: Db, businessId: number, clientId: number, at: Timestamp): Promise<number[]> {
  const rows = await db
    .updateTable('inquiry')
    .set({ updated: at })
    .where('business_id', '=', businessId)
    .where('client_id', '=', clientId)
    .where('deleted_at', 'is', null)
    .returning('id')
    .execute();
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

/** Whether a live inquiry with this id exists in the business. */
export async function existsById(db: Db, businessId: number, id: number): Promise<boolean> {
  return (await liveId(db, businessId, id)).length > 0;
}
const liveId = preparedQuery(2, (db: Db, businessId: number, id: number) => liveIdQuery(db, businessId, id));

/**
 * The id of the live inquiry `id` of the business (one row, or none when it is missing, soft-deleted or
 * another business's), as a query: `id` a number, or an expression of the caller's statement (such as
 * `sql.ref('todo.inquiry_id')`), which makes it a correlated subquery. The body of {@link existsById} and of
 * inquiry.service `isLiveInquiry`.
 */
export function liveIdQuery(db: Db, businessId: number, id: number | Expression<number>) {
  return db
    .selectFrom('inquiry')
    .select('inquiry.id')
    .where('inquiry.business_id', '=', businessId)
    .where('inquiry.id', '=', id)
    .where('inquiry.deleted_at', 'is', null);
}

/**
 * Hands out the business's next inquiry number (1, 2, …): increments its counter row, creating it on first
 * use. The number of a deleted inquiry is never handed out again (docs/api.md#inquiries). The counter row stays
 * locked until the caller's transaction ends, so concurrent creates get distinct numbers; a create that
 * rolls back gives its number back (no one ever saw it).
 */
export async function nextUniqueNumber(db: Db, businessId: number): Promise<number> {
  const row = await db
    .insertInto('inquiry_counter')
    .values({ business_id: businessId, last_value: 1 })
    .onConflict((oc) => oc.column('business_id').doUpdateSet({ last_value: sql`inquiry_counter.last_value + 1` }))
    .returning('last_value')
    .executeTakeFirstOrThrow();
  return row.last_value;
}

/**
 * Inserts an inquiry; returns its id and status. `status_id` left `undefined` takes the default status of
 * the business's default folder (none when it has no catalog; docs/api.md#inquiries), chosen in the insert
 * itself (catalog.service `defaultInquiryStatusId`).
 */
export async function insert(
  db: Db,
  businessId: number,
  row: Omit<NewInquiryRow, 'business_id'>,
): Promise<{ id: number; status_id: number | null }> {
  // INSERT … SELECT: one statement that Citus takes (sql-helpers rowAsSelect)
  const insert = rowAsSelect(db, {
    ...row,
    business_id: businessId,
    status_id: row.status_id === undefined ? defaultInquiryStatusId(db, businessId) : row.status_id,
  });
  return db
    .insertInto('inquiry')
    .columns(insert.columns as never)
    .expression(insert.select as never)
    .returning(['id', 'status_id'])
    .executeTakeFirstOrThrow();
}

/** The by-id writes of the table (src/db/record-writes.ts): `updateById`, `softDeleteById`, `restoreById`. */
export const { updateById, softDeleteById, restoreById } = recordWrites('inquiry', { softDelete: true });

// ── Responsible members ──

/** Responsible members (with grade) of the given inquiries, in set order. */
export async function findInChargeMembers(db: Db, businessId: number, inquiryIds: readonly number[]) {
  if (inquiryIds.length === 0) return [];
  if (inquiryIds.length === 1) return inChargeMembersOf(db, businessId, inquiryIds[0]!);
  return inChargeMembersQuery(db, businessId).where('inquiry_in_charge.inquiry_id', 'in', inquiryIds).execute();
}
/** {@link findInChargeMembers} of one inquiry (GET of an inquiry), compiled once. */
const inChargeMembersOf = preparedQuery(2, (db: Db, businessId: number, inquiryId: number) =>
  inChargeMembersQuery(db, businessId).where('inquiry_in_charge.inquiry_id', '=', inquiryId),
);
function inChargeMembersQuery(db: Db, businessId: number) {
  return db
    .selectFrom('inquiry_in_charge')
    .innerJoin('member', (join) =>
      join
        .onRef('member.id', '=', 'inquiry_in_charge.member_id')
        .onRef('member.business_id', '=', 'inquiry_in_charge.business_id'),
    )
    .innerJoin('grade', (join) =>
      join.onRef('grade.id', '=', 'member.grade_id').onRef('grade.business_id', '=', 'member.business_id'),
    )
    .select(['inquiry_in_charge.inquiry_id', ...MEMBER_COLUMNS])
    .where('inquiry_in_charge.business_id', '=', businessId)
    .orderBy('inquiry_in_charge.inquiry_id')
    .orderBy('inquiry_in_charge.position');
}

/** Replaces the responsible members of an inquiry with `memberIds` (in that order). */
export async function replaceInCharge(
  db: Db,
  businessId: number,
  inquiryId: number,
  memberIds: readonly number[],
): Promise<void> {
  await db
    .deleteFrom('inquiry_in_charge')
    .where('business_id', '=', businessId)
    .where('inquiry_id', '=', inquiryId)
    .execute();
  await insertInCharge(db, businessId, inquiryId, memberIds);
}

/** Adds responsible members to an inquiry that has none (a create), in that order. */
export async function insertInCharge(
  db: Db,
  businessId: number,
  inquiryId: number,
  memberIds: readonly number[],
): Promise<void> {
  if (memberIds.length === 0) return;
  await db
    .insertInto('inquiry_in_charge')
    .values(
      memberIds.map((memberId, position) => ({
        business_id: businessId,
        inquiry_id: inquiryId,
        member_id: memberId,
        position,
      })),
    )
    .execute();
}

// ── Tasks ──

/** Replaces the tasks of an inquiry with `names` (in that order), all created at `at`. */
export async function replaceWorks(
  db: Db,
  businessId: number,
  inquiryId: number,
  names: readonly string[],
  at: Timestamp,
): Promise<void> {
  await db
    .deleteFrom('inquiry_work')
    .where('business_id', '=', businessId)
    .where('inquiry_id', '=', inquiryId)
    .execute();
  await insertWorks(db, businessId, inquiryId, names, at);
}

/** Adds tasks to an inquiry that has none (a create), in that order, all created at `at`. */
export async function insertWorks(
  db: Db,
  businessId: number,
  inquiryId: number,
  names: readonly string[],
  at: Timestamp,
): Promise<void> {
  if (names.length === 0) return;
  await db
    .insertInto('inquiry_work')
    .values(
      names.map((name, position) => ({ business_id: businessId, inquiry_id: inquiryId, name, position, created: at })),
    )
    .execute();
}

/** A `GET /v1/inquiry/work` row: a task with its live inquiry. */
export interface WorkRow extends NestedInquiryColumns {
  id: number;
  name: string;
  created: string;
}

/** One page of the tasks of live inquiries, newest first. */
export async function findWorkPage(
  db: Db,
  businessId: number,
  size: number,
  cursor: CursorPosition | undefined,
): Promise<Page<WorkRow>> {
  const q = db
    .selectFrom('inquiry_work')
    .innerJoin('inquiry', (join) =>
      join
        .onRef('inquiry.id', '=', 'inquiry_work.inquiry_id')
        .onRef('inquiry.business_id', '=', 'inquiry_work.business_id'),
    )
    .select(['inquiry_work.id', 'inquiry_work.name', 'inquiry_work.created', ...NESTED_INQUIRY_COLUMNS])
    .where('inquiry_work.business_id', '=', businessId)
    .where('inquiry.deleted_at', 'is', null);
  return fetchPage(q, newestFirst<WorkRow>('inquiry_work'), size, cursor);
}

// ── Custom field values ──

// ── File links ──

/** Replaces the file links of an inquiry with `links` (in that order), all created at `at`. */
export async function replaceFileLinks(
  db: Db,
  businessId: number,
  inquiryId: number,
  links: readonly { text: string; link: string }[],
  at: Timestamp,
): Promise<void> {
  await db
    .deleteFrom('inquiry_file_link')
    .where('business_id', '=', businessId)
    .where('inquiry_id', '=', inquiryId)
    .execute();
  await insertFileLinks(db, businessId, inquiryId, links, at);
}

/** Adds file links to an inquiry that has none (a create), in that order, all created at `at`. */
export async function insertFileLinks(
  db: Db,
  businessId: number,
  inquiryId: number,
  links: readonly { text: string; link: string }[],
  at: Timestamp,
): Promise<void> {
  if (links.length === 0) return;
  await db
    .insertInto('inquiry_file_link')
    .values(
      links.map((l, position) => ({
        business_id: businessId,
        inquiry_id: inquiryId,
        text: l.text,
        link: l.link,
        position,
        created: at,
      })),
    )
    .execute();
}

// ── History rows written by inquiry changes ──

/** Records a status change (or the initial status); `member_id` null for API changes. */
export async function insertStatusHistory(
  db: Db,
  businessId: number,
  row: {
    inquiry_id: number;
    status_id: number;
    previous_status_id: number | null;
    member_id: number | null;
    created: Timestamp;
  },
): Promise<void> {
  await statusHistoryInsert(
    db,
    businessId,
    row.inquiry_id,
    row.status_id,
    row.previous_status_id,
    row.member_id,
    row.created,
  );
}
const statusHistoryInsert = preparedQuery(
  6,
  (
    db: Db,
    businessId: number,
    inquiryId: number,
    statusId: number,
    previousStatusId: number | null,
    memberId: number | null,
    created: Timestamp,
  ) =>
    db.insertInto('inquiry_status_history').values({
      business_id: businessId,
      inquiry_id: inquiryId,
      status_id: statusId,
      previous_status_id: previousStatusId,
      member_id: memberId,
      created,
    }),
);

/** Records a folder change; `member_id` null for API changes. */
export async function insertFolderHistory(
  db: Db,
  businessId: number,
  row: {
    inquiry_id: number;
    folder_id: number;
    previous_folder_id: number | null;
    member_id: number | null;
    created: Timestamp;
  },
): Promise<void> {
  await db
    .insertInto('inquiry_folder_history')
    .values({ ...row, business_id: businessId })
    .execute();
}

/**
 * The name and number (`unique_id`) of an inquiry of the business, or `undefined` when the business has no
 * such inquiry. A soft-deleted inquiry is still found.
 */
export async function findLabel(
  db: Db,
  businessId: number,
  id: number,
): Promise<{ name: string; unique_id: string } | undefined> {
  return db
    .selectFrom('inquiry')
    .select(['name', 'unique_id'])
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
}

// ── Restore (src/shared/restore.ts) ──

/** Raises the business's inquiry counter to at least `value`, so no later create hands out a restored number. */
export async function raiseUniqueNumber(db: Db, businessId: number, value: number): Promise<void> {
  await db
    .insertInto('inquiry_counter')
    .values({ business_id: businessId, last_value: value })
    .onConflict((oc) =>
      oc.column('business_id').doUpdateSet({
        last_value: sql`case when inquiry_counter.last_value < ${value} then ${value} else inquiry_counter.last_value end`,
      }),
    )
    .execute();
}

/**
 * Replaces the rows of a set table (`inquiry_work` or `inquiry_file_link`) of an inquiry with `rows`, in that
 * order: each under its `id` where no row of the table has it once the old rows are gone, else a new id.
 */
export async function replaceSetRows<T extends 'inquiry_work' | 'inquiry_file_link'>(
  db: Db,
  table: T,
  businessId: number,
  inquiryId: number,
  rows: readonly ({ id?: number | undefined; created: Timestamp } & (T extends 'inquiry_work'
    ? { name: string }
    : { text: string; link: string }))[],
): Promise<void> {
  await db
    .deleteFrom(table as 'inquiry_work')
    .where('business_id', '=', businessId)
    .where('inquiry_id', '=', inquiryId)
    .execute();
  let explicit = false;
  for (const [position, row] of rows.entries()) {
    const { id, ...rest } = row;
    const keep = await canKeepId(db, table, id);
    explicit ||= keep;
    await (db as Db)
      .insertInto(table as 'inquiry_work')
      .values({
        ...(keep && { id }),
        ...(rest as unknown as { name: string; created: Timestamp }),
        business_id: businessId,
        inquiry_id: inquiryId,
        position,
      })
      .execute();
  }
  if (explicit) await advanceIdSequence(db, table);
}
