/**
 * SQL for settlements, their responsible members and their status history. Every read joins the
 * settlement's contract and type (both of the same business).
 */
import type { Db } from '../../db/database.ts';
import { recordWrites } from '../../db/record-writes.ts';
import { forUpdateOf, fromJsonColumn, jsonArrayOf, searchAll } from '../../db/sql-helpers.ts';
import type { Timestamp } from '../../db/columns.ts';
import {
  type CursorPosition,
  fetchPage,
  newestFirst,
  noFilters,
  type Page,
  preparedPage,
} from '../../shared/pagination.ts';
import type { NewSettlementRow } from '../../db/tables/settlement.table.ts';
import { NESTED_CONTRACT_COLUMNS } from '../../db/tables/contract.table.ts';
import { MEMBER_COLUMNS, type MemberColumns } from '../../db/tables/catalog.table.ts';
import { selectColumns } from '../../shared/property-map.ts';
import { SETTLEMENT_PROPERTIES } from './settlement.properties.ts';

/** The list shape's columns (the property map, ./settlement.properties.ts) and the contract's summary columns. */
const listColumns = [
  ...selectColumns(SETTLEMENT_PROPERTIES, 'settlement', 'list'),
  ...NESTED_CONTRACT_COLUMNS,
] as const;

/** The full shape's: the list's, the map's other columns and the type's. */
const detailColumns = [
  ...listColumns,
  ...selectColumns(SETTLEMENT_PROPERTIES, 'settlement', 'detail'),
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
      join
        .onRef('contract.id', '=', 'settlement.contract_id')
        .onRef('contract.business_id', '=', 'settlement.business_id'),
    )
    .innerJoin('settlement_type', (join) =>
      join
        .onRef('settlement_type.id', '=', 'settlement.type_id')
        .onRef('settlement_type.business_id', '=', 'settlement.business_id'),
    )
    .where('settlement.business_id', '=', businessId);
}

function listQuery(db: Db, businessId: number) {
  return selectSettlements(db, businessId).select(listColumns);
}

function detailQuery(db: Db, businessId: number) {
  return selectSettlements(db, businessId).select(detailColumns);
}

/**
 * The full shape's one statement (docs/api.md#events, the lean write path): the detail columns and the
 * responsible members (with grade, in member id order) as one JSON column `in_charge`.
 */
function fullQuery(db: Db, businessId: number) {
  return detailQuery(db, businessId).select((eb) =>
    jsonArrayOf(
      db,
      eb
        .selectFrom('settlement_in_charge')
        .innerJoin('member', (join) =>
          join
            .onRef('member.id', '=', 'settlement_in_charge.member_id')
            .onRef('member.business_id', '=', 'settlement_in_charge.business_id'),
        )
        .innerJoin('grade', (join) =>
          join.onRef('grade.id', '=', 'member.grade_id').onRef('grade.business_id', '=', 'member.business_id'),
        )
        .select(MEMBER_COLUMNS)
        .whereRef('settlement_in_charge.settlement_id', '=', 'settlement.id')
        .where('settlement_in_charge.business_id', '=', businessId)
        .orderBy('member.id'),
    ).as('in_charge'),
  );
}

/** A settlement in the full shape with its responsible members ({@link findFullById}). */
export type SettlementFullRow = SettlementDetailRow & { in_charge: MemberColumns[] };

/**
 * A settlement's full shape in one statement, or `undefined`: the detail row and its responsible members
 * (`in_charge`, member id order, `is_active` 0 / 1 on both databases). With `lock` the read is also the
 * row's lock until the end of the caller's transaction (`FOR UPDATE OF settlement` on PostgreSQL; SQLite's
 * `BEGIN IMMEDIATE` holds the write lock already).
 */
export async function findFullById(
  db: Db,
  businessId: number,
  id: number,
  lock = false,
): Promise<SettlementFullRow | undefined> {
  const q = fullQuery(db, businessId).where('settlement.id', '=', id);
  const row = await (lock ? forUpdateOf(db, q, 'settlement') : q).executeTakeFirst();
  if (!row) return undefined;
  return {
    ...row,
    in_charge: fromJsonColumn<MemberColumns[]>(row.in_charge).map((m) => ({ ...m, is_active: m.is_active ? 1 : 0 })),
  };
}

/** The full shapes of the settlements `ids` in one statement ({@link findFullById}), by id. */
export async function findFullByIds(db: Db, businessId: number, ids: readonly number[]): Promise<SettlementFullRow[]> {
  if (ids.length === 0) return [];
  const rows = await fullQuery(db, businessId)
    .where('settlement.id', 'in', [...ids])
    .orderBy('settlement.id')
    .execute();
  return rows.map((row) => ({
    ...row,
    in_charge: fromJsonColumn<MemberColumns[]>(row.in_charge).map((m) => ({ ...m, is_active: m.is_active ? 1 : 0 })),
  }));
}

/**
 * Stamps `updated` with `at` on the settlements of contract `contractId` in one statement (a cascade,
 * docs/api.md#cascades); answers their ids, ascending.
 */
export async function stampByContractId(
  db: Db,
  businessId: number,
  contractId: number,
  at: Timestamp,
): Promise<number[]> {
  const rows = await db
    .updateTable('settlement')
    .set({ updated: at })
    .where('business_id', '=', businessId)
    .where('contract_id', '=', contractId)
    .returning('id')
    .execute();
  return rows.map((r) => r.id).sort((a, b) => a - b);
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

/** Inserts a settlement; returns its id. A second single-round settlement of a type violates `settlement_single_round_uq`. */
export async function insert(db: Db, businessId: number, row: Omit<NewSettlementRow, 'business_id'>): Promise<number> {
  const { id } = await db
    .insertInto('settlement')
    .values({ ...row, business_id: businessId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** The by-id writes of the table (src/db/record-writes.ts): `updateById`. */
export const { updateById } = recordWrites('settlement');

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

/** What the delete of a contract takes of its settlements (docs/api.md#events): their notes, each with its settlement, and them. */
export interface ContractSettlements {
  /** The settlement notes, each with its settlement (the `parent` of its event), by note id. */
  notes: { id: number; settlementId: number }[];
  /** The settlements, ascending. */
  ids: number[];
}

/**
 * Deletes the settlements of contract `contractId` with their notes (what deleting the contract would cascade
 * to), in two statements, the notes first, and answers their ids, so that the delete can write an event for
 * each. Deleted explicitly rather than read and left to the cascade, so that a note added concurrently cannot
 * disappear without its event.
 */
export async function deleteByContractId(db: Db, businessId: number, contractId: number): Promise<ContractSettlements> {
  const settlements = db
    .selectFrom('settlement')
    .select('id')
    .where('business_id', '=', businessId)
    .where('contract_id', '=', contractId);
  const notes = await db
    .deleteFrom('settlement_note')
    .where('business_id', '=', businessId)
    .where('settlement_id', 'in', settlements)
    .returning(['id', 'settlement_id'])
    .execute();
  const deleted = await db
    .deleteFrom('settlement')
    .where('business_id', '=', businessId)
    .where('contract_id', '=', contractId)
    .returning('id')
    .execute();
  return {
    notes: notes.map((r) => ({ id: r.id, settlementId: r.settlement_id })).sort((a, b) => a.id - b.id),
    ids: deleted.map((r) => r.id).sort((a, b) => a - b),
  };
}

/** Deletes a settlement for good (its responsible members, status history and notes cascade). */
export async function deleteById(db: Db, businessId: number, id: number): Promise<number> {
  const result = await db
    .deleteFrom('settlement')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Replaces the responsible members of a settlement. */
export async function replaceInCharge(
  db: Db,
  businessId: number,
  settlementId: number,
  memberIds: readonly number[],
): Promise<void> {
  await db
    .deleteFrom('settlement_in_charge')
    .where('business_id', '=', businessId)
    .where('settlement_id', '=', settlementId)
    .execute();
  await insertInCharge(db, businessId, settlementId, memberIds);
}

/** Adds responsible members to a settlement that has none of them (a new settlement's). */
export async function insertInCharge(
  db: Db,
  businessId: number,
  settlementId: number,
  memberIds: readonly number[],
): Promise<void> {
  if (memberIds.length === 0) return;
  await db
    .insertInto('settlement_in_charge')
    .values(
      memberIds.map((memberId) => ({ business_id: businessId, settlement_id: settlementId, member_id: memberId })),
    )
    .execute();
}

/** Records one status change. */
export async function insertStatusChange(
  db: Db,
  businessId: number,
  row: {
    settlement_id: number;
    status: string;
    previous_status: string | null;
    member_id: number | null;
    created: Timestamp;
  },
): Promise<void> {
  await db
    .insertInto('settlement_status_history')
    .values({ ...row, business_id: businessId })
    .execute();
}

function statusQuery(db: Db, businessId: number, settlementId: number) {
  return db
    .selectFrom('settlement_status_history as change')
    .leftJoin('member', (join) =>
      join.onRef('member.id', '=', 'change.member_id').onRef('member.business_id', '=', 'change.business_id'),
    )
    .leftJoin('grade', (join) =>
      join.onRef('grade.id', '=', 'member.grade_id').onRef('grade.business_id', '=', 'member.business_id'),
    )
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
