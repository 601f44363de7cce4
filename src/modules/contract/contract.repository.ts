/**
 * SQL for contracts, their categories and custom field values. Every read joins the client only while it
 * is live (a soft-deleted client shows as null).
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { recordWrites } from '../../db/record-writes.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import { forUpdateOf, isPostgres, jsonArrayOf, searchAll, type RowLock } from '../../db/sql-helpers.ts';
import type { Timestamp } from '../../db/columns.ts';
import { fieldValuesJson } from '../field/field.service.ts';
import {
  type CursorPosition,
  fetchPage,
  newestFirst,
  noFilters,
  type Page,
  preparedPage,
} from '../../shared/pagination.ts';
import { NESTED_CONTRACT_COLUMNS, type NewContractRow } from '../../db/tables/contract.table.ts';
import { NESTED_CLIENT_COLUMNS } from '../../db/tables/client.table.ts';
import { selectColumns } from '../../shared/property-map.ts';
import { CONTRACT_PROPERTIES } from './contract.properties.ts';

/** The list shape's columns: the contract's own (contract.properties.ts), its client's and its inquiry's summaries. */
const listColumns = [
  ...selectColumns(CONTRACT_PROPERTIES, 'contract', 'list'),
  ...NESTED_CLIENT_COLUMNS,
  'inquiry.id as inquiry_id',
  'inquiry.unique_id as inquiry_unique_id',
  'inquiry.name as inquiry_name',
  'inquiry.estimate as inquiry_estimate',
  'inquiry.inquiry_date as inquiry_inquiry_date',
  'inquiry_status.id as inquiry_status_id',
  'inquiry_status.title as inquiry_status_title',
  'folder.id as inquiry_folder_id',
  'folder.name as inquiry_folder_name',
] as const;

/** The full shape's columns: the list's and the contract's other columns. */
const detailColumns = [...listColumns, ...selectColumns(CONTRACT_PROPERTIES, 'contract', 'detail')] as const;

function selectContracts(db: Db, businessId: number) {
  return db
    .selectFrom('contract')
    .leftJoin('client', (join) =>
      join
        .onRef('client.id', '=', 'contract.client_id')
        .onRef('client.business_id', '=', 'contract.business_id')
        .on('client.deleted_at', 'is', null),
    )
    .leftJoin('client_status', (join) =>
      join
        .onRef('client_status.id', '=', 'client.status_id')
        .onRef('client_status.business_id', '=', 'client.business_id'),
    )
    .leftJoin('inquiry', (join) =>
      join
        .onRef('inquiry.id', '=', 'contract.inquiry_id')
        .onRef('inquiry.business_id', '=', 'contract.business_id')
        .on('inquiry.deleted_at', 'is', null),
    )
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
    .where('contract.business_id', '=', businessId);
}

function listQuery(db: Db, businessId: number) {
  return selectContracts(db, businessId).select(listColumns);
}

function detailQuery(db: Db, businessId: number) {
  return selectContracts(db, businessId).select(detailColumns);
}

/** A contract row in the list shape, with its client and the client's status. */
export type ContractListRow = Awaited<ReturnType<ReturnType<typeof listQuery>['executeTakeFirstOrThrow']>>;

/**
 * List filters (docs/api.md#contracts, docs/api.md#filters); `inquiryId` keeps the contract linked to that
 * inquiry. `createdFrom` / `createdTo` are a half-open UTC
 * range; the date ranges are inclusive `YYYY-MM-DD`.
 */
export interface ContractFilter {
  createdFrom?: string;
  createdTo?: string;
  startDateFrom?: string;
  startDateTo?: string;
  endDateFrom?: string;
  endDateTo?: string;
  clientId?: number;
  inquiryId?: number;
  isHidden?: boolean;
  status?: string;
  categoryId?: number;
  search: readonly string[];
  /** `updated_start` / `updated_end` as a half-open UTC range (docs/api.md#events). */
  updatedFrom?: string;
  updatedTo?: string;
}

/** The pages without filters, prepared (see preparedPage). */
const pages = preparedPage(listQuery, newestFirst<ContractListRow>('contract'));

/** One page of contracts, newest first. */
export async function findPage(
  db: Db,
  businessId: number,
  filter: ContractFilter,
  size: number,
  cursor: CursorPosition | undefined,
): Promise<Page<ContractListRow>> {
  if (noFilters(filter)) return pages(db, businessId, size, cursor);
  let q = listQuery(db, businessId);
  if (filter.createdFrom !== undefined) q = q.where('contract.created', '>=', filter.createdFrom);
  if (filter.createdTo !== undefined) q = q.where('contract.created', '<', filter.createdTo);
  if (filter.startDateFrom !== undefined) q = q.where('contract.start_date', '>=', filter.startDateFrom);
  if (filter.startDateTo !== undefined) q = q.where('contract.start_date', '<=', filter.startDateTo);
  if (filter.endDateFrom !== undefined) q = q.where('contract.end_date', '>=', filter.endDateFrom);
  if (filter.endDateTo !== undefined) q = q.where('contract.end_date', '<=', filter.endDateTo);
  if (filter.clientId !== undefined) q = q.where('client.id', '=', filter.clientId);
  if (filter.inquiryId !== undefined) q = q.where('inquiry.id', '=', filter.inquiryId);
  if (filter.isHidden !== undefined) q = q.where('contract.is_hidden', '=', filter.isHidden ? 1 : 0);
  if (filter.status !== undefined) q = q.where('contract.status', '=', filter.status);
  if (filter.updatedFrom !== undefined) q = q.where('contract.updated', '>=', filter.updatedFrom);
  if (filter.updatedTo !== undefined) q = q.where('contract.updated', '<', filter.updatedTo);
  if (filter.categoryId !== undefined) {
    const categoryId = filter.categoryId;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('contract_category_link')
          .select('contract_category_link.contract_id')
          .where('contract_category_link.business_id', '=', businessId)
          .whereRef('contract_category_link.contract_id', '=', 'contract.id')
          .where('contract_category_link.category_id', '=', categoryId),
      ),
    );
  }
  const search = filter.search;
  if (search.length > 0) {
    q = q.where((eb) =>
      searchAll(eb, search, [
        eb.ref('contract.title'),
        eb.ref('contract.contract_number'),
        eb.ref('client.company_name'),
      ])!,
    );
  }
  return fetchPage(q, newestFirst<ContractListRow>('contract'), size, cursor);
}

/**
 * The full shape of a contract in one statement (the lean write path, docs/api.md#events): the detail
 * columns, the stored `inquiry_id` and `client_id` (also when that client is soft-deleted), the recurring columns a PATCH merges with its body, `category_set`
 * `[{id, title}]` in category order and `field_set` (field.service `fieldValuesJson`) as JSON columns (text
 * on SQLite, parsed on PostgreSQL).
 */
function fullShapeQuery(db: Db, businessId: number, id: number) {
  return shapesQuery(db, businessId).where('contract.id', '=', id);
}

/** {@link fullShapeQuery} of every contract of the business (narrowed by the caller). */
function shapesQuery(db: Db, businessId: number) {
  return detailQuery(db, businessId)
    .select(['contract.inquiry_id as stored_inquiry_id', 'contract.client_id as stored_client_id'])
    .select((eb) => [
      jsonArrayOf(
        db,
        eb
          .selectFrom('contract_category_link')
          .innerJoin('contract_category', (join) =>
            join
              .onRef('contract_category.id', '=', 'contract_category_link.category_id')
              .onRef('contract_category.business_id', '=', 'contract_category_link.business_id'),
          )
          .select(['contract_category.id', 'contract_category.title'])
          .where('contract_category_link.business_id', '=', businessId)
          .whereRef('contract_category_link.contract_id', '=', 'contract.id')
          .orderBy('contract_category.id'),
      ).as('category_set'),
      fieldValuesJson(db, businessId, 'CO', sql.ref('contract.id')).as('field_set'),
    ]);
}
/** A contract's full shape as {@link fullShapeQuery} reads it. */
export type ContractShapeRow = Awaited<ReturnType<ReturnType<typeof fullShapeQuery>['executeTakeFirstOrThrow']>>;

/** A contract's full shape in one statement, or `undefined` (GET of a contract). */
export async function findShapeById(db: Db, businessId: number, id: number): Promise<ContractShapeRow | undefined> {
  return (await shapeById(db, businessId, id))[0];
}
const shapeById = preparedQuery(2, (db: Db, businessId: number, id: number) => fullShapeQuery(db, businessId, id));

/** The full shapes of the contracts `ids` in one statement ({@link fullShapeQuery}), by id. */
export async function findShapesByIds(db: Db, businessId: number, ids: readonly number[]): Promise<ContractShapeRow[]> {
  if (ids.length === 0) return [];
  return shapesQuery(db, businessId)
    .where('contract.id', 'in', [...ids])
    .orderBy('contract.id')
    .execute();
}

/**
 * {@link findShapeById} that is also the row's lock until the end of the caller's transaction, the read a write
 * path starts with, so that its "before" is the state its change applies to (docs/api.md#events). PostgreSQL:
 * `FOR NO KEY UPDATE OF contract`, or `FOR UPDATE OF contract` with `lock: 'update'`, for a change that records
 * created meanwhile would nest (docs/api.md#cascades; sql-helpers `forUpdateOf`). SQLite: the transaction's
 * `BEGIN IMMEDIATE` holds the write lock already.
 */
export async function lockShapeById(
  db: Db,
  businessId: number,
  id: number,
  lock: RowLock = 'no key update',
): Promise<ContractShapeRow | undefined> {
  return (await (lock === 'update' ? shapeForCascade : shapeForUpdate)(db, businessId, id))[0];
}
const shapeForUpdate = preparedQuery(2, (db: Db, businessId: number, id: number) =>
  forUpdateOf(db, fullShapeQuery(db, businessId, id), 'contract'),
);
const shapeForCascade = preparedQuery(2, (db: Db, businessId: number, id: number) =>
  forUpdateOf(db, fullShapeQuery(db, businessId, id), 'contract', 'update'),
);

/**
 * Locks a contract until the end of the caller's transaction and tells whether it exists (PostgreSQL:
 * `SELECT … FOR UPDATE`; SQLite: `BEGIN IMMEDIATE` holds the write lock already): a delete's first lock. The
 * full `FOR UPDATE` (not `NO KEY`) also holds off the key-share lock a project write takes on its contract
 * (contract.service `lockForProject`) until the delete commits; a weaker one let such a write lock its project
 * while the delete released the projects, and the two deadlocked at the delete's `DELETE`.
 */
export async function lockById(db: Db, businessId: number, id: number): Promise<boolean> {
  return (await contractForUpdate(db, businessId, id)).length > 0;
}
const contractForUpdate = preparedQuery(2, (db: Db, businessId: number, id: number) =>
  forUpdateOf(
    db,
    db
      .selectFrom('contract')
      .select('contract.id')
      .where('contract.business_id', '=', businessId)
      .where('contract.id', '=', id),
    'contract',
    'update',
  ),
);

/**
 * Locks contract `id` of the business until the end of the caller's transaction on PostgreSQL (`FOR UPDATE`);
 * on SQLite, which runs one write transaction at a time (BEGIN IMMEDIATE), runs nothing.
 */
export async function lockForUpdate(db: Db, businessId: number, id: number): Promise<void> {
  if (!isPostgres(db)) return;
  await db
    .selectFrom('contract')
    .select('id')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .forUpdate()
    .execute();
}

/**
 * Whether contract `id` of the business exists, holding a key-share lock on its row until the end of the
 * caller's transaction on PostgreSQL (`FOR KEY SHARE`; SQLite serialises writes anyway).
 */
export async function lockKeyById(db: Db, businessId: number, id: number): Promise<boolean> {
  let q = db.selectFrom('contract').select('id').where('business_id', '=', businessId).where('id', '=', id);
  if (isPostgres(db)) q = q.forKeyShare();
  return (await q.executeTakeFirst()) !== undefined;
}

/** Whether a contract with this id exists in the business. */
export async function existsById(db: Db, businessId: number, id: number): Promise<boolean> {
  const row = await db
    .selectFrom('contract')
    .select('id')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

/** A contract as settlements, projects and inquiries nest it. */
export type ContractSummaryRow = Awaited<ReturnType<ReturnType<typeof summaryQuery>['executeTakeFirstOrThrow']>>;
function summaryQuery(db: Db, businessId: number) {
  // The columns a settlement rule or a nested summary needs (the contract summary: docs/api.md#contracts;
  // the creation rules on the contract's dates and status: docs/api.md#settlements).
  return db.selectFrom('contract').select(NESTED_CONTRACT_COLUMNS).where('contract.business_id', '=', businessId);
}

/** A contract's summary columns, or `undefined`. */
export async function findSummaryById(db: Db, businessId: number, id: number): Promise<ContractSummaryRow | undefined> {
  return summaryQuery(db, businessId).where('contract.id', '=', id).executeTakeFirst();
}

/** Inserts a contract; returns its id. */
export async function insert(db: Db, businessId: number, row: Omit<NewContractRow, 'business_id'>): Promise<number> {
  const { id } = await db
    .insertInto('contract')
    .values({ ...row, business_id: businessId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** The by-id writes of the table (src/db/record-writes.ts): `updateById`, `restoreById`. */
export const { updateById, restoreById } = recordWrites('contract');

/** Deletes a contract for good (its settlements, notes, categories and field values cascade). */
export async function deleteById(db: Db, businessId: number, id: number): Promise<number> {
  const result = await db
    .deleteFrom('contract')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The categories of the given contracts, `{contract_id, id, title}`, in category id order. */
export async function findCategories(db: Db, businessId: number, contractIds: readonly number[]) {
  if (contractIds.length === 0) return [];
  return db
    .selectFrom('contract_category_link')
    .innerJoin('contract_category', (join) =>
      join
        .onRef('contract_category.id', '=', 'contract_category_link.category_id')
        .onRef('contract_category.business_id', '=', 'contract_category_link.business_id'),
    )
    .select(['contract_category_link.contract_id', 'contract_category.id', 'contract_category.title'])
    .where('contract_category_link.business_id', '=', businessId)
    .where('contract_category_link.contract_id', 'in', contractIds)
    .orderBy('contract_category.id')
    .execute();
}

/** Replaces the whole category set of a contract (docs/api.md#contracts: `categorySet` replaces the set). */
export async function replaceCategories(
  db: Db,
  businessId: number,
  contractId: number,
  categoryIds: readonly number[],
): Promise<void> {
  await db
    .deleteFrom('contract_category_link')
    .where('business_id', '=', businessId)
    .where('contract_id', '=', contractId)
    .execute();
  await insertCategories(db, businessId, contractId, categoryIds);
}

/** Adds categories to a contract that has none (a create). */
export async function insertCategories(
  db: Db,
  businessId: number,
  contractId: number,
  categoryIds: readonly number[],
): Promise<void> {
  if (categoryIds.length === 0) return;
  await db
    .insertInto('contract_category_link')
    .values(
      categoryIds.map((categoryId) => ({ business_id: businessId, contract_id: contractId, category_id: categoryId })),
    )
    .execute();
}

// ── The inquiry ↔ contract link (docs/api.md#contracts) ──
//
// `contract.inquiry_id` is the only place the link is stored, and `contract_inquiry_uq` makes it 1:1.

/** The id of the contract an inquiry is linked to, or `undefined`. */
export async function findIdByInquiryId(db: Db, businessId: number, inquiryId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('contract')
    .select('id')
    .where('business_id', '=', businessId)
    .where('inquiry_id', '=', inquiryId)
    .executeTakeFirst();
  return row?.id;
}

/** The inquiry a contract is linked to: `null` for none, `undefined` when the contract does not exist. */
export async function findInquiryIdById(db: Db, businessId: number, id: number): Promise<number | null | undefined> {
  const row = await db
    .selectFrom('contract')
    .select('inquiry_id')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row === undefined ? undefined : row.inquiry_id;
}

/**
 * Links a contract to an inquiry when the contract has no inquiry or already this one — a compare-and-set,
 * so of two requests racing for the same contract only one changes it. Returns the rows changed (0: the
 * contract has another inquiry, or does not exist). Violates `contract_inquiry_uq` when another contract
 * still holds the inquiry.
 */
export async function linkInquiry(
  db: Db,
  businessId: number,
  contractId: number,
  inquiryId: number,
  at?: Timestamp,
): Promise<number> {
  const result = await db
    .updateTable('contract')
    .set({ inquiry_id: inquiryId, ...(at !== undefined && { updated: at }) })
    .where('business_id', '=', businessId)
    .where('id', '=', contractId)
    .where((eb) => eb.or([eb('inquiry_id', 'is', null), eb('inquiry_id', '=', inquiryId)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Unlinks an inquiry from every contract of the business, except `keepContractId` when given, stamping their
 * `updated` with `at` when given (a cascade, docs/api.md#cascades); answers the ids of the contracts released.
 */
export async function releaseInquiry(
  db: Db,
  businessId: number,
  inquiryId: number,
  keepContractId?: number,
  at?: Timestamp,
): Promise<number[]> {
  let q = db
    .updateTable('contract')
    .set({ inquiry_id: null, ...(at !== undefined && { updated: at }) })
    .where('business_id', '=', businessId)
    .where('inquiry_id', '=', inquiryId);
  if (keepContractId !== undefined) q = q.where('id', '!=', keepContractId);
  return (await q.returning('id').execute()).map((r) => r.id);
}

/**
 * Stamps `updated` with `at` on the contracts of the business that `where` names — `clientId`: those of a
 * client; `inquiryId`: the one linked to an inquiry; `ids`: those — in one statement (a cascade, docs/api.md#cascades);
 * answers their ids, ascending.
 */
export async function stampWhere(
  db: Db,
  businessId: number,
  where: { clientId: number } | { inquiryId: number } | { ids: readonly number[] },
  at: Timestamp,
): Promise<number[]> {
  let q = db.updateTable('contract').set({ updated: at }).where('business_id', '=', businessId);
  if ('clientId' in where) q = q.where('client_id', '=', where.clientId);
  else if ('inquiryId' in where) q = q.where('inquiry_id', '=', where.inquiryId);
  else q = q.where('id', 'in', where.ids.length > 0 ? [...where.ids] : [-1]);
  return (await q.returning('id').execute()).map((r) => r.id).sort((a, b) => a - b);
}

/**
 * Deletes a contract's notes (what deleting the contract would cascade to) and answers their ids, ascending,
 * so that the delete can write an event for each (docs/api.md#events). Deleted explicitly rather than read and
 * left to the cascade, so that a note added concurrently cannot disappear without its event. Its settlements
 * and their notes are the settlement module's (settlement.service `contractCascades`).
 */
export async function deleteNotes(db: Db, businessId: number, contractId: number): Promise<number[]> {
  const rows = await db
    .deleteFrom('contract_note')
    .where('business_id', '=', businessId)
    .where('contract_id', '=', contractId)
    .returning('id')
    .execute();
  return rows.map((r) => r.id).sort((a, b) => a - b);
}
