/**
 * SQL for the read-only catalogs: grades, members, folders, inquiry statuses, client statuses, custom fields
 * (with their options and members), contract categories, settlement types, worker positions and (written
 * here, read by the estimate module) estimate item classifications.
 *
 * Every function takes `(db | trx, businessId, …)` and always writes or filters by that business.
 */
import { type Insertable, type Kysely, sql } from 'kysely';
import type { Database, Db } from '../../db/database.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import { searchAll } from '../../db/sql-helpers.ts';
import { type CursorPosition, fetchPage, newestFirst, type OrderColumn, type Page } from '../../shared/pagination.ts';
import type { FieldMemberTable, FieldOptionTable } from '../../db/tables/catalog.table.ts';
import { MEMBER_COLUMNS } from '../../db/tables/catalog.table.ts';

// ── Catalog import (writes) ──
//
// Used by `importCatalog` (catalog-import.ts) inside one transaction. Each single-row insert returns the
// new id; rows are inserted one at a time because neither SQLite nor PostgreSQL promises that a multi-row
// `INSERT … RETURNING` hands the ids back in input order, and the import must map every file key to its id.

/** A row to insert, without `id` (generated) and `business_id` (taken from the `businessId` argument). */
type NewRow<T> = Omit<Insertable<T>, 'id' | 'business_id'>;

/**
 * Inserts one row of catalog `table` into the business (`grade`, `member` with a `grade_id` of the same
 * business, `folder` — at most one per business has `is_default = 1`, a unique partial index enforces it —,
 * `inquiry_status` in a folder of the same business, `client_status`, `field` with `category` I | C | CO and
 * `data_type` S | N | M | D | T | B | SL | ML, `contract_category`, `settlement_type`, `worker_position`,
 * `estimate_item_classification` with its configured `position`, docs/api.md#estimate-items); returns its id.
 */
export async function insertCatalog<T extends RestorableCatalogTable>(
  db: Db,
  table: T,
  businessId: number,
  row: NewRow<Database[T]>,
): Promise<number> {
  return insertRow(db, table, { ...row, business_id: businessId });
}

/** Inserts the options of SL / ML fields (batch; no ids needed). Does nothing for an empty list. */
export async function insertFieldOptions(
  db: Db,
  businessId: number,
  rows: readonly NewRow<FieldOptionTable>[],
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('field_option')
    .values(
      rows.map((r) => ({
        business_id: businessId,
        field_id: r.field_id,
        option_id: r.option_id,
        title: r.title,
        position: r.position,
      })),
    )
    .execute();
}

/** Inserts the `memberSet` entries of M fields (batch). Does nothing for an empty list. */
export async function insertFieldMembers(
  db: Db,
  businessId: number,
  rows: readonly Omit<Insertable<FieldMemberTable>, 'business_id'>[],
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('field_member')
    .values(
      rows.map((r) => ({
        business_id: businessId,
        field_id: r.field_id,
        member_id: r.member_id,
        position: r.position,
      })),
    )
    .execute();
}

/** The id of the business's default folder, or `undefined` when it has none yet. */
export async function findDefaultFolderId(db: Db, businessId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('folder')
    .select('id')
    .where('business_id', '=', businessId)
    .where('is_default', '=', 1)
    .executeTakeFirst();
  return row?.id;
}

/**
 * The highest `position` in use for the business's ordered catalogs (0 when a catalog is empty), so that a
 * second import appends after the first: `{inquiryStatus, clientStatus, settlementType, estimateItemClassification}`.
 */
export async function findMaxCatalogPositions(
  db: Db,
  businessId: number,
): Promise<{
  inquiryStatus: number;
  clientStatus: number;
  settlementType: number;
  estimateItemClassification: number;
}> {
  const max = async (
    table: 'inquiry_status' | 'client_status' | 'settlement_type' | 'estimate_item_classification',
  ): Promise<number> => {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.max<number | null>('position').as('max'))
      .where('business_id', '=', businessId)
      .executeTakeFirst();
    return Number(row?.max ?? 0);
  };
  return {
    inquiryStatus: await max('inquiry_status'),
    clientStatus: await max('client_status'),
    settlementType: await max('settlement_type'),
    estimateItemClassification: await max('estimate_item_classification'),
  };
}

// ── Catalog reads ──

// ── Members ──

function selectMembers(db: Db, businessId: number) {
  return db
    .selectFrom('member')
    .innerJoin('grade', (join) =>
      join.onRef('grade.id', '=', 'member.grade_id').onRef('grade.business_id', '=', 'member.business_id'),
    )
    .select(MEMBER_COLUMNS)
    .where('member.business_id', '=', businessId);
}

/** A member joined with its grade: what {@link toMember} maps. */
export type MemberWithGradeRow = Awaited<ReturnType<ReturnType<typeof selectMembers>['executeTakeFirstOrThrow']>>;

/** One page of members, newest first, filtered by `search` terms (nickname, email) and `is_active`. */
export async function findMemberPage(
  db: Db,
  businessId: number,
  filter: { search: readonly string[]; isActive: boolean | undefined },
  size: number,
  cursor: CursorPosition | undefined,
): Promise<Page<MemberWithGradeRow>> {
  let q = selectMembers(db, businessId);
  if (filter.isActive !== undefined) q = q.where('member.is_active', '=', filter.isActive ? 1 : 0);
  const search = filter.search;
  if (search.length > 0)
    q = q.where((eb) => searchAll(eb, search, [eb.ref('member.nickname'), eb.ref('member.email')])!);
  return fetchPage(q, newestFirst<MemberWithGradeRow>('member'), size, cursor);
}

/** Members of the business among `ids` (unknown and foreign ids are simply absent). */
export async function findMembersByIds(
  db: Db,
  businessId: number,
  ids: readonly number[],
): Promise<MemberWithGradeRow[]> {
  if (ids.length === 0) return [];
  return selectMembers(db, businessId).where('member.id', 'in', ids).execute();
}

/**
 * The ids among `memberIds` of the business's members who are active and have notifications on
 * (README.md#notifications), ascending. Unknown ids and other businesses' members are left out.
 */
export async function findNotifiableMemberIds(
  db: Db,
  businessId: number,
  memberIds: readonly number[],
): Promise<number[]> {
  if (memberIds.length === 0) return [];
  const rows = await db
    .selectFrom('member')
    .select('id')
    .where('business_id', '=', businessId)
    .where('id', 'in', memberIds)
    .where('is_active', '=', 1)
    .where('notifications_enabled', '=', 1)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/** A member's contact and notification settings (the notification dispatcher's recipient). */
export interface MemberContactRow {
  id: number;
  nickname: string | null;
  email: string;
  is_active: number;
  notifications_enabled: number;
}

/** A member of the business with its contact and notification settings, or `undefined`. */
export async function findMemberContact(
  db: Db,
  businessId: number,
  memberId: number,
): Promise<MemberContactRow | undefined> {
  return db
    .selectFrom('member')
    .select(['id', 'nickname', 'email', 'is_active', 'notifications_enabled'])
    .where('business_id', '=', businessId)
    .where('id', '=', memberId)
    .executeTakeFirst();
}

// ── Custom fields ──

const fieldColumns = ['field.id', 'field.name', 'field.category', 'field.data_type', 'field.created'] as const;

/** A custom field row. */
export interface FieldRow {
  id: number;
  name: string;
  category: string;
  data_type: string;
  created: string;
}

/** One page of custom fields, newest first, optionally of one record kind (`category`: I, C, CO). */
export async function findFieldPage(
  db: Db,
  businessId: number,
  filter: { category: string | undefined },
  size: number,
  cursor: CursorPosition | undefined,
): Promise<Page<FieldRow>> {
  let q = db.selectFrom('field').select(fieldColumns).where('field.business_id', '=', businessId);
  if (filter.category !== undefined) q = q.where('field.category', '=', filter.category);
  return fetchPage(q, newestFirst<FieldRow>('field'), size, cursor);
}

/** Fields of the business among `ids`. */
export async function findFieldsByIds(db: Db, businessId: number, ids: readonly number[]): Promise<FieldRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('field')
    .select(fieldColumns)
    .where('business_id', '=', businessId)
    .where('id', 'in', ids)
    .execute();
}

/** Options of the given fields, in catalog order. */
export async function findFieldOptions(db: Db, businessId: number, fieldIds: readonly number[]) {
  if (fieldIds.length === 0) return [];
  return db
    .selectFrom('field_option')
    .select(['field_id', 'option_id', 'title'])
    .where('business_id', '=', businessId)
    .where('field_id', 'in', fieldIds)
    .orderBy('field_id')
    .orderBy('position')
    .execute();
}

/** Members (with grade) of the given member-type fields, in catalog order. */
export async function findFieldMembers(db: Db, businessId: number, fieldIds: readonly number[]) {
  if (fieldIds.length === 0) return [];
  return db
    .selectFrom('field_member')
    .innerJoin('member', (join) =>
      join
        .onRef('member.id', '=', 'field_member.member_id')
        .onRef('member.business_id', '=', 'field_member.business_id'),
    )
    .innerJoin('grade', (join) =>
      join.onRef('grade.id', '=', 'member.grade_id').onRef('grade.business_id', '=', 'member.business_id'),
    )
    .select(['field_member.field_id', ...MEMBER_COLUMNS])
    .where('field_member.business_id', '=', businessId)
    .where('field_member.field_id', 'in', fieldIds)
    .orderBy('field_member.field_id')
    .orderBy('field_member.position')
    .execute();
}

// ── Inquiry statuses and folders ──

const statusColumns = [
  'inquiry_status.id',
  'inquiry_status.title',
  'inquiry_status.position',
  'folder.id as folder_id',
  'folder.name as folder_name',
] as const;

/** An inquiry status with its folder. */
export interface InquiryStatusRow {
  id: number;
  title: string;
  position: number;
  folder_id: number;
  folder_name: string;
}

const statusOrder: OrderColumn<InquiryStatusRow>[] = [
  { ref: 'inquiry_status.position', key: 'position', direction: 'asc' },
  { ref: 'inquiry_status.id', key: 'id', direction: 'asc' },
];

/** The title of an inquiry status of the business, or `undefined`. */
export async function findInquiryStatusTitle(
  db: Db,
  businessId: number,
  statusId: number,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('inquiry_status')
    .select('title')
    .where('business_id', '=', businessId)
    .where('id', '=', statusId)
    .executeTakeFirst();
  return row?.title;
}

/**
 * The id of the default status of the business's default folder as a subquery of the caller's statement
 * (the first in catalog order; `null` when there is none): the body of catalog.service `defaultInquiryStatusId`.
 */
export function defaultInquiryStatusIdQuery(db: Db, businessId: number) {
  return db
    .selectFrom('inquiry_status')
    .innerJoin('folder', (join) =>
      join
        .onRef('folder.id', '=', 'inquiry_status.folder_id')
        .onRef('folder.business_id', '=', 'inquiry_status.business_id'),
    )
    .select('inquiry_status.id')
    .where('inquiry_status.business_id', '=', businessId)
    .where('folder.is_default', '=', 1)
    .where('inquiry_status.is_default', '=', 1)
    .orderBy('inquiry_status.position')
    .orderBy('inquiry_status.id')
    .limit(1);
}

/** An inquiry status of the business (`{id, folder_id}`) by id, or `undefined`; compiled once (every inquiry status change runs it). */
export async function findInquiryStatusById(
  db: Db,
  businessId: number,
  id: number,
): Promise<{ id: number; folder_id: number } | undefined> {
  return (await inquiryStatusById(db, businessId, id))[0];
}
const inquiryStatusById = preparedQuery(2, (db: Db, businessId: number, id: number) =>
  db
    .selectFrom('inquiry_status')
    .select(['id', 'folder_id'])
    .where('business_id', '=', businessId)
    .where('id', '=', id),
);

/** One page of inquiry statuses in their configured order, optionally of one folder. */
export async function findInquiryStatusPage(
  db: Db,
  businessId: number,
  filter: { folderId: number | undefined },
  size: number,
  cursor: CursorPosition | undefined,
): Promise<Page<InquiryStatusRow>> {
  let q = db
    .selectFrom('inquiry_status')
    .innerJoin('folder', (join) =>
      join
        .onRef('folder.id', '=', 'inquiry_status.folder_id')
        .onRef('folder.business_id', '=', 'inquiry_status.business_id'),
    )
    .select(statusColumns)
    .where('inquiry_status.business_id', '=', businessId);
  if (filter.folderId !== undefined) q = q.where('inquiry_status.folder_id', '=', filter.folderId);
  return fetchPage(q, statusOrder, size, cursor);
}

/** Folders of the business: the default folder first, then newest first; filtered by `search` on the name. */
export async function findFolders(db: Db, businessId: number, search: readonly string[]) {
  let q = db.selectFrom('folder').select(['id', 'name', 'is_default', 'created']).where('business_id', '=', businessId);
  if (search.length > 0) q = q.where((eb) => searchAll(eb, search, [eb.ref('name')])!);
  return q.orderBy('is_default', 'desc').orderBy('created', 'desc').orderBy('id', 'desc').execute();
}

// ── Client statuses ──

/** A client status row. */
export interface ClientStatusRow {
  id: number;
  title: string;
  is_default: 0 | 1;
  position: number;
}

const clientStatusOrder: OrderColumn<ClientStatusRow>[] = [
  { ref: 'position', key: 'position', direction: 'asc' },
  { ref: 'id', key: 'id', direction: 'asc' },
];

/** One page of client statuses in their configured order. */
export async function findClientStatusPage(
  db: Db,
  businessId: number,
  size: number,
  cursor: CursorPosition | undefined,
): Promise<Page<ClientStatusRow>> {
  const q = db
    .selectFrom('client_status')
    .select(['id', 'title', 'is_default', 'position'])
    .where('business_id', '=', businessId);
  return fetchPage(q, clientStatusOrder, size, cursor);
}

/** A client status of the business by id, or `undefined`. */
export async function findClientStatusById(db: Db, businessId: number, id: number) {
  return db
    .selectFrom('client_status')
    .select(['id', 'title'])
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Whether the business has a default client status ({@link defaultClientStatusIdQuery}). */
export async function hasDefaultClientStatus(db: Db, businessId: number): Promise<boolean> {
  return (await defaultClientStatusIdQuery(db, businessId).executeTakeFirst()) !== undefined;
}

/**
 * The id of the business's default client status as a subquery of the caller's statement (the lowest id
 * among defaults; `null` when the business has none): the body of catalog.service `defaultClientStatusId`.
 */
export function defaultClientStatusIdQuery(db: Db, businessId: number) {
  return db
    .selectFrom('client_status')
    .select('client_status.id')
    .where('client_status.business_id', '=', businessId)
    .where('client_status.is_default', '=', 1)
    .orderBy('client_status.id')
    .limit(1);
}

// ── Contract categories and settlement types ──

/** A contract category row. */
export interface ContractCategoryRow {
  id: number;
  title: string;
  created: string;
}

/** One page of contract categories, newest first, filtered by `search` on the title. */
export async function findContractCategoryPage(
  db: Db,
  businessId: number,
  search: readonly string[],
  size: number,
  cursor: CursorPosition | undefined,
): Promise<Page<ContractCategoryRow>> {
  let q = db
    .selectFrom('contract_category')
    .select(['contract_category.id', 'contract_category.title', 'contract_category.created'])
    .where('contract_category.business_id', '=', businessId);
  if (search.length > 0) q = q.where((eb) => searchAll(eb, search, [eb.ref('contract_category.title')])!);
  return fetchPage(q, newestFirst<ContractCategoryRow>('contract_category'), size, cursor);
}

/** The columns of a settlement type as the API shows it (catalog.service `toSettlementType`). */
const settlementTypeColumns = ['id', 'base_type', 'category', 'title', 'allows_multiple_rounds'] as const;

/** Every settlement type of the business in catalog order. */
export async function findSettlementTypes(db: Db, businessId: number) {
  return db
    .selectFrom('settlement_type')
    .select(settlementTypeColumns)
    .where('business_id', '=', businessId)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/** A settlement type of the business by id, or `undefined` (also for another business's). */
export async function findSettlementTypeById(db: Db, businessId: number, id: number) {
  return db
    .selectFrom('settlement_type')
    .select(settlementTypeColumns)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The ids among `ids` of the business's contract categories (no query for an empty list). */
export async function findContractCategoryIds(db: Db, businessId: number, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('contract_category')
    .select('id')
    .where('business_id', '=', businessId)
    .where('id', 'in', ids)
    .execute();
  return rows.map((r) => r.id);
}

/** Whether the business has a worker position with this id. */
export async function workerPositionExists(db: Db, businessId: number, id: number): Promise<boolean> {
  const row = await db
    .selectFrom('worker_position')
    .select('id')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

// ── Restore (src/shared/restore.ts): one catalog row under a given id ──

/** The catalog tables whose rows a restore writes one by one, each with `id`, `business_id` and `created`. */
export type RestorableCatalogTable =
  | 'grade'
  | 'member'
  | 'folder'
  | 'inquiry_status'
  | 'client_status'
  | 'field'
  | 'contract_category'
  | 'settlement_type'
  | 'worker_position'
  | 'estimate_item_classification';

/** A catalog row's columns as a restore compares and writes them (column → stored value). */
export type CatalogColumns = Record<string, string | number | null>;

/**
 * The named `columns` of row `id` of `table` in the business, or `undefined` when the business has no such
 * row (another business's row is absent too).
 */
export async function findCatalogColumns(
  db: Db,
  table: RestorableCatalogTable,
  businessId: number,
  id: number,
  columns: readonly string[],
): Promise<CatalogColumns | undefined> {
  const { rows } = await sql<CatalogColumns>`select ${sql.join(columns.map((c) => sql.ref(c)))} from ${sql.table(table)}
    where business_id = ${businessId} and id = ${id}`.execute(db);
  return rows[0];
}

/**
 * Inserts a catalog row with the explicit `id` (the caller checked it is free), or with a generated one when
 * `id` is undefined. Returns the row's id.
 */
export async function insertCatalogRow(
  db: Db,
  table: RestorableCatalogTable,
  businessId: number,
  id: number | undefined,
  values: CatalogColumns,
): Promise<number> {
  return insertRow(db, table, { ...values, business_id: businessId, ...(id !== undefined && { id }) });
}

/** The one INSERT of a catalog row (its columns as given, `business_id` among them); returns the row's id. */
async function insertRow(db: Db, table: RestorableCatalogTable, row: Record<string, unknown>): Promise<number> {
  // The table chosen at run time defeats Kysely's column inference; the callers' signatures keep the rows typed.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
  const { id } = await (db as unknown as Kysely<any>)
    .insertInto(table)
    .values(row)
    .returning('id')
    .executeTakeFirstOrThrow();
  return id as number;
}

/** Sets `values` on row `id` of `table` in the business. */
export async function updateCatalogRow(
  db: Db,
  table: RestorableCatalogTable,
  businessId: number,
  id: number,
  values: CatalogColumns,
): Promise<void> {
  const set = Object.entries(values).map(([c, v]) => sql`${sql.ref(c)} = ${v}`);
  if (set.length === 0) return;
  await sql`update ${sql.table(table)} set ${sql.join(set)} where business_id = ${businessId} and id = ${id}`.execute(
    db,
  );
}

/** The highest `position` of an ordered catalog in the business (0 when it is empty). */
export async function findMaxPosition(
  db: Db,
  table: 'inquiry_status' | 'client_status' | 'settlement_type' | 'estimate_item_classification',
  businessId: number,
): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.max<number | null>('position').as('max'))
    .where('business_id', '=', businessId)
    .executeTakeFirst();
  return Number(row?.max ?? 0);
}

/** Clears `is_default` on every folder of the business but `exceptId`. */
export async function clearDefaultFolder(db: Db, businessId: number, exceptId: number): Promise<void> {
  await db
    .updateTable('folder')
    .set({ is_default: 0 })
    .where('business_id', '=', businessId)
    .where('id', '!=', exceptId)
    .where('is_default', '=', 1)
    .execute();
}

/** Clears `is_default` on every inquiry status of the folder but `exceptId`. */
export async function clearDefaultInquiryStatus(
  db: Db,
  businessId: number,
  folderId: number,
  exceptId: number,
): Promise<void> {
  await db
    .updateTable('inquiry_status')
    .set({ is_default: 0 })
    .where('business_id', '=', businessId)
    .where('folder_id', '=', folderId)
    .where('id', '!=', exceptId)
    .where('is_default', '=', 1)
    .execute();
}

/** Whether the folder holds a default inquiry status. */
export async function folderHasDefaultStatus(db: Db, businessId: number, folderId: number): Promise<boolean> {
  const row = await db
    .selectFrom('inquiry_status')
    .select('id')
    .where('business_id', '=', businessId)
    .where('folder_id', '=', folderId)
    .where('is_default', '=', 1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Clears `is_default` on every client status of the business but `exceptId`. */
export async function clearDefaultClientStatus(db: Db, businessId: number, exceptId: number): Promise<void> {
  await db
    .updateTable('client_status')
    .set({ is_default: 0 })
    .where('business_id', '=', businessId)
    .where('id', '!=', exceptId)
    .where('is_default', '=', 1)
    .execute();
}

/** Whether the business has a grade with this id. */
export async function gradeExists(db: Db, businessId: number, id: number): Promise<boolean> {
  const row = await db
    .selectFrom('grade')
    .select('id')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

/** The lowest id of the business's grades titled `title`, or `undefined`. */
export async function findGradeIdByTitle(db: Db, businessId: number, title: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('grade')
    .select('id')
    .where('business_id', '=', businessId)
    .where('title', '=', title)
    .orderBy('id')
    .executeTakeFirst();
  return row?.id;
}

/** Whether the business has a folder with this id. */
export async function folderExists(db: Db, businessId: number, id: number): Promise<boolean> {
  const row = await db
    .selectFrom('folder')
    .select('id')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

/** Replaces the options of a field: deletes them all, then inserts `options` in order (`position` 1…). */
export async function replaceFieldOptions(
  db: Db,
  businessId: number,
  fieldId: number,
  options: readonly { id: string; title: string }[],
): Promise<void> {
  await db.deleteFrom('field_option').where('business_id', '=', businessId).where('field_id', '=', fieldId).execute();
  await insertFieldOptions(
    db,
    businessId,
    options.map((o, i) => ({ field_id: fieldId, option_id: o.id, title: o.title, position: i + 1 })),
  );
}

/** Replaces the `memberSet` of a field: deletes it, then inserts `memberIds` in order (`position` 1…). */
export async function replaceFieldMembers(
  db: Db,
  businessId: number,
  fieldId: number,
  memberIds: readonly number[],
): Promise<void> {
  await db.deleteFrom('field_member').where('business_id', '=', businessId).where('field_id', '=', fieldId).execute();
  await insertFieldMembers(
    db,
    businessId,
    memberIds.map((memberId, i) => ({ field_id: fieldId, member_id: memberId, position: i + 1 })),
  );
}

/** The option `{id, title}`s and member ids of a field, in catalog order. */
export async function findFieldSets(
  db: Db,
  businessId: number,
  fieldId: number,
): Promise<{ options: { id: string; title: string }[]; memberIds: number[] }> {
  const options = await db
    .selectFrom('field_option')
    .select(['option_id', 'title'])
    .where('business_id', '=', businessId)
    .where('field_id', '=', fieldId)
    .orderBy('position')
    .execute();
  const members = await db
    .selectFrom('field_member')
    .select('member_id')
    .where('business_id', '=', businessId)
    .where('field_id', '=', fieldId)
    .orderBy('position')
    .execute();
  return {
    options: options.map((o) => ({ id: o.option_id, title: o.title })),
    memberIds: members.map((m) => m.member_id),
  };
}
