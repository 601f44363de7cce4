/**
 * SQL for settlements, their responsible members and their status history. Every read joins the
 * settlement's contract and type (both of the same business).
 */
import { SqliteAdapter } from 'kysely';
import type { Db } from '../../db/database.ts';
import { searchAll } from '../../db/sql-helpers.ts';
import type { Timestamp } from '../../db/columns.ts';
import { type CursorPosition, fetchPage, newestFirst, noFilters, type Page, preparedPage } from '../../shared/pagination.ts';
import type { NewSettlementRow, SettlementRowUpdate } from '../../db/tables/settlement.table.ts';
import { NESTED_CONTRACT_COLUMNS } from '../../db/tables/contract.table.ts';
import { MEMBER_COLUMNS } from '../../db/tables/catalog.table.ts';

const listColumns = [
  'settlement.id',
  'settlement.title',
  'settlement.status',
  'settlement.amount',
  'settlement.additional_amount',
  'settlement.vat',
  'settlement.type_alias',
  'settlement.created',
  'settlement.due_date',
  'settlement.settled_date',
  ...NESTED_CONTRACT_COLUMNS,
] as const;

const detailColumns = [
  ...listColumns,
  'settlement.settlement_round',
  'settlement.is_tax_invoice_issued',
  'settlement.is_tax_invoice_needed',
  'settlement.tax_invoice_issued_date',
  'settlement.tax_invoice_issue_due_date',
  'settlement.is_hidden',
  'settlement.updated',
  'settlement_type.id as type_id',
  'settlement_type.base_type as type_base_type',
  'settlement_type.category as type_category',
  'settlement_type.title as type_title',
  'settlement_type.allows_multiple_rounds as type_allows_multiple_rounds',
] as const;

function selectSettlements(db: Db, businessId: number) {
  return db
    .selectFrom('settlement')
    .innerJoin('contract', (join) =>
      join.onRef('contract.id', '=', 'settlement.contract_id').onRef('contract.business_id', '=', 'settlement.business_id'),
    )
    .innerJoin('settlement_type', 'settlement_type.id', 'settlement.type_id')
    .where('settlement.business_id', '=', businessId);
}

function listQuery(db: Db, businessId: number) {
  return selectSettlements(db, businessId).select(listColumns);
}

function detailQuery(db: Db, businessId: number) {
  return selectSettlements(db, businessId).select(detailColumns);
}

/** A settlement row in the list shape, with its contract's summary columns. */
export type SettlementListRow = Awaited<ReturnType<ReturnType<typeof listQuery>['executeTakeFirstOrThrow']>>;
/** A settlement row in the full shape, with its contract and type. */
export type SettlementDetailRow = Awaited<ReturnType<ReturnType<typeof detailQuery>['executeTakeFirstOrThrow']>>;

/**
 * List filters (docs/api.md#settlements, docs/api.md#filters). `createdFrom` / `createdTo` are a half-open UTC
 * range; the date ranges are inclusive `YYYY-MM-DD`.
 */
export interface SettlementFilter {
  contractId?: number;
  createdFrom?: string;
  createdTo?: string;
  dueDateFrom?: string;
  dueDateTo?: string;
  settledDateFrom?: string;
  settledDateTo?: string;
  isHidden?: boolean;
  search: readonly string[];
  /** `updated_start` / `updated_end` as a half-open UTC range (docs/api.md#events). */
  updatedFrom?: string;
  updatedTo?: string;
}

/** The pages without filters, prepared (see preparedPage). */
const pages = preparedPage(listQuery, newestFirst<SettlementListRow>('settlement'));

/** One page of settlements, newest first. */
export async function findPage(
  db: Db,
  businessId: number,
  filter: SettlementFilter,
  size: number,
  cursor: CursorPosition | undefined,
): Promise<Page<SettlementListRow>> {
  if (noFilters(filter)) return pages(db, businessId, size, cursor);
  let q = listQuery(db, businessId);
  if (filter.contractId !== undefined) q = q.where('settlement.contract_id', '=', filter.contractId);
  if (filter.createdFrom !== undefined) q = q.where('settlement.created', '>=', filter.createdFrom);
  if (filter.createdTo !== undefined) q = q.where('settlement.created', '<', filter.createdTo);
  if (filter.dueDateFrom !== undefined) q = q.where('settlement.due_date', '>=', filter.dueDateFrom);
  if (filter.dueDateTo !== undefined) q = q.where('settlement.due_date', '<=', filter.dueDateTo);
  if (filter.settledDateFrom !== undefined) q = q.where('settlement.settled_date', '>=', filter.settledDateFrom);
  if (filter.settledDateTo !== undefined) q = q.where('settlement.settled_date', '<=', filter.settledDateTo);
  if (filter.isHidden !== undefined) q = q.where('settlement.is_hidden', '=', filter.isHidden ? 1 : 0);
  if (filter.updatedFrom !== undefined) q = q.where('settlement.updated', '>=', filter.updatedFrom);
  if (filter.updatedTo !== undefined) q = q.where('settlement.updated', '<', filter.updatedTo);
  const search = filter.search;
  if (search.length > 0) {
    q = q.where((eb) =>
      searchAll(eb, search, [eb.ref('settlement.title'), eb.ref('settlement.type_alias'), eb.ref('contract.title')])!,
    );
  }
  return fetchPage(q, newestFirst<SettlementListRow>('settlement'), size, cursor);
}

/** A settlement in the list shape, or `undefined`. */
export async function findListRowById(db: Db, businessId: number, id: number): Promise<SettlementListRow | undefined> {
  return listQuery(db, businessId).where('settlement.id', '=', id).executeTakeFirst();
}

/** A settlement in the full shape, or `undefined`. */
export async function findById(db: Db, businessId: number, id: number): Promise<SettlementDetailRow | undefined> {
  return detailQuery(db, businessId).where('settlement.id', '=', id).executeTakeFirst();
}

/** Whether a settlement with this id exists in the business. */
export async function existsById(db: Db, businessId: number, id: number): Promise<boolean> {
  const row = await db
    .selectFrom('settlement')
    .select('id')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

/** The status of a settlement (to record a change), or `undefined`. */
export async function findStatusById(db: Db, businessId: number, id: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('settlement')
    .select('status')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.status;
}

/** A settlement type of the business, or `undefined`. */
export async function findTypeById(db: Db, businessId: number, id: number) {
  return db
    .selectFrom('settlement_type')
    .select(['id', 'base_type', 'category', 'title', 'allows_multiple_rounds'])
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** How many settlements of a type a contract has. */
export async function countOfType(db: Db, businessId: number, contractId: number, typeId: number): Promise<number> {
  const row = await db
    .selectFrom('settlement')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('business_id', '=', businessId)
    .where('contract_id', '=', contractId)
    .where('type_id', '=', typeId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Locks contract `contractId` of the business until the end of the caller's transaction on PostgreSQL
 * (`FOR UPDATE`), so that concurrent creates on one contract count its rounds one after the other. SQLite
 * runs one write transaction at a time (BEGIN IMMEDIATE), so nothing is needed there.
 */
export async function lockContract(db: Db, businessId: number, contractId: number): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await db.selectFrom('contract').select('id').where('business_id', '=', businessId).where('id', '=', contractId).forUpdate().execute();
}

/** Inserts a settlement; returns its id. A second single-round settlement of a type violates `settlement_single_round_uq`. */
export async function insert(db: Db, businessId: number, row: Omit<NewSettlementRow, 'business_id'>): Promise<number> {
  const { id } = await db
    .insertInto('settlement')
    .values({ ...row, business_id: businessId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Updates a settlement; returns the number of rows changed (0 when missing). */
export async function updateById(db: Db, businessId: number, id: number, patch: SettlementRowUpdate): Promise<number> {
  if (Object.keys(patch).length === 0) return (await existsById(db, businessId, id)) ? 1 : 0;
  const result = await db
    .updateTable('settlement')
    .set(patch)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Sets a settlement's status when it differs from `from` (compare-and-set, so two concurrent changes both
 * see the status they replace). Returns the number of rows changed.
 */
export async function updateStatus(db: Db, businessId: number, id: number, from: string, to: string): Promise<number> {
  const result = await db
    .updateTable('settlement')
    .set({ status: to })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Deletes a settlement's notes (what deleting the settlement would cascade to) and answers their ids, so that
 * the delete can write an event for each (docs/api.md#events).
 */
export async function deleteNotes(db: Db, businessId: number, settlementId: number): Promise<number[]> {
  const rows = await db
    .deleteFrom('settlement_note')
    .where('business_id', '=', businessId)
    .where('settlement_id', '=', settlementId)
    .returning('id')
    .execute();
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

/** Deletes a settlement for good (its responsible members, status history and notes cascade). */
export async function deleteById(db: Db, businessId: number, id: number): Promise<number> {
  const result = await db.deleteFrom('settlement').where('business_id', '=', businessId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The responsible members (with grade) of the given settlements, in member id order. */
export async function findInCharge(db: Db, businessId: number, settlementIds: readonly number[]) {
  if (settlementIds.length === 0) return [];
  return db
    .selectFrom('settlement_in_charge')
    .innerJoin('member', 'member.id', 'settlement_in_charge.member_id')
    .innerJoin('grade', 'grade.id', 'member.grade_id')
    .select(['settlement_in_charge.settlement_id', ...MEMBER_COLUMNS])
    .where('settlement_in_charge.business_id', '=', businessId)
    .where('settlement_in_charge.settlement_id', 'in', settlementIds)
    .orderBy('member.id')
    .execute();
}

/** Replaces the responsible members of a settlement. */
export async function replaceInCharge(db: Db, businessId: number, settlementId: number, memberIds: readonly number[]): Promise<void> {
  await db
    .deleteFrom('settlement_in_charge')
    .where('business_id', '=', businessId)
    .where('settlement_id', '=', settlementId)
    .execute();
  if (memberIds.length === 0) return;
  await db
    .insertInto('settlement_in_charge')
    .values(memberIds.map((memberId) => ({ business_id: businessId, settlement_id: settlementId, member_id: memberId })))
    .execute();
}

/** Records one status change. */
export async function insertStatusChange(
  db: Db,
  businessId: number,
  row: { settlement_id: number; status: string; previous_status: string | null; member_id: number | null; created: Timestamp },
): Promise<void> {
  await db
    .insertInto('settlement_status_history')
    .values({ ...row, business_id: businessId })
    .execute();
}

function statusQuery(db: Db, businessId: number, settlementId: number) {
  return db
    .selectFrom('settlement_status_history as change')
    .leftJoin('member', 'member.id', 'change.member_id')
    .leftJoin('grade', 'grade.id', 'member.grade_id')
    .select([
      'change.id',
      'change.status',
      'change.previous_status',
      'change.created',
      'member.id as member_id',
      'member.nickname as member_nickname',
      'member.email as member_email',
      'member.is_active as member_is_active',
      'grade.id as grade_id',
      'grade.title as grade_title',
    ])
    .where('change.business_id', '=', businessId)
    .where('change.settlement_id', '=', settlementId);
}

/** A status-history row with its member. */
export type StatusChangeRow = Awaited<ReturnType<ReturnType<typeof statusQuery>['executeTakeFirstOrThrow']>>;

/** One page of a settlement's status history, newest first. */
export async function findStatusPage(
  db: Db,
  businessId: number,
  settlementId: number,
  size: number,
  cursor: CursorPosition | undefined,
): Promise<Page<StatusChangeRow>> {
  return fetchPage(statusQuery(db, businessId, settlementId), newestFirst<StatusChangeRow>('change'), size, cursor);
}
