/**
 * SQL for todos. A todo is read only while its inquiry is live: the todos of a soft-deleted inquiry
 * disappear with it (docs/api.md#todos, docs/api.md#inquiries: soft delete). Deletion of a todo is permanent.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { recordWrites } from '../../db/record-writes.ts';
import type { Timestamp } from '../../db/columns.ts';
import { forUpdateOf } from '../../db/sql-helpers.ts';
import { type CursorPosition, fetchPage, newestFirst, type Page } from '../../shared/pagination.ts';
import type { NewTodoRow } from '../../db/tables/todo.table.ts';
import { NESTED_INQUIRY_COLUMNS } from '../../db/tables/inquiry.table.ts';
import { isLiveInquiry } from '../inquiry/inquiry.service.ts';
import { selectColumns } from '../../shared/property-map.ts';
import { TODO_PROPERTIES } from './todo.properties.ts';

/** The todo's columns (its property map, ./todo.properties.ts), its inquiry's summary and its members' ids. */
const columns = [
  ...selectColumns(TODO_PROPERTIES, 'todo'),
  ...NESTED_INQUIRY_COLUMNS,
  'todo.in_charge_id',
  'todo.completed_in_charge_id',
] as const;

/** The todo's inquiry is live (for updates and deletes, which cannot join): inquiry.service `isLiveInquiry`. */
function inquiryIsLive(db: Db, businessId: number) {
  return isLiveInquiry(db, businessId, sql.ref<number>('todo.inquiry_id'));
}

/** Todos of the business whose inquiry is live. */
function selectLive(db: Db, businessId: number) {
  return db
    .selectFrom('todo')
    .innerJoin('inquiry', (join) =>
      join
        .onRef('inquiry.id', '=', 'todo.inquiry_id')
        .on('inquiry.business_id', '=', businessId)
        .on('inquiry.deleted_at', 'is', null),
    )
    .where('todo.business_id', '=', businessId);
}

function findQuery(db: Db, businessId: number) {
  return selectLive(db, businessId).select(columns);
}

/** A live todo row with its inquiry's number and name; members are read separately by id. */
export type TodoRow = Awaited<ReturnType<ReturnType<typeof findQuery>['executeTakeFirstOrThrow']>>;

/** List filters (docs/api.md#todos, docs/api.md#filters): the due-date range is inclusive, either end optional. */
export interface TodoFilter {
  dueDateFrom?: string;
  dueDateTo?: string;
  inquiryId?: number;
  isComplete?: boolean;
  /** `updated_start` / `updated_end` as a half-open UTC range (docs/api.md#events). */
  updatedFrom?: string;
  updatedTo?: string;
}

/** One page of live todos, newest first. */
export async function findPage(
  db: Db,
  businessId: number,
  filter: TodoFilter,
  size: number,
  cursor: CursorPosition | undefined,
): Promise<Page<TodoRow>> {
  let q = findQuery(db, businessId);
  if (filter.dueDateFrom !== undefined) q = q.where('todo.due_date', '>=', filter.dueDateFrom);
  if (filter.dueDateTo !== undefined) q = q.where('todo.due_date', '<=', filter.dueDateTo);
  if (filter.inquiryId !== undefined) q = q.where('todo.inquiry_id', '=', filter.inquiryId);
  if (filter.isComplete !== undefined) q = q.where('todo.is_complete', '=', filter.isComplete ? 1 : 0);
  if (filter.updatedFrom !== undefined) q = q.where('todo.updated', '>=', filter.updatedFrom);
  if (filter.updatedTo !== undefined) q = q.where('todo.updated', '<', filter.updatedTo);
  return fetchPage(q, newestFirst<TodoRow>('todo'), size, cursor);
}

/**
 * The full shape's one statement (the lean write path, docs/api.md#events): the todo, its inquiry, and its
 * responsible member (`ic_…`) and completing member (`cc_…`), each with its grade, left-joined.
 */
function fullQuery(db: Db, businessId: number) {
  return selectLive(db, businessId)
    .leftJoin('member as icm', (join) =>
      join.onRef('icm.id', '=', 'todo.in_charge_id').on('icm.business_id', '=', businessId),
    )
    .leftJoin('grade as icg', (join) =>
      join.onRef('icg.id', '=', 'icm.grade_id').onRef('icg.business_id', '=', 'icm.business_id'),
    )
    .leftJoin('member as ccm', (join) =>
      join.onRef('ccm.id', '=', 'todo.completed_in_charge_id').on('ccm.business_id', '=', businessId),
    )
    .leftJoin('grade as ccg', (join) =>
      join.onRef('ccg.id', '=', 'ccm.grade_id').onRef('ccg.business_id', '=', 'ccm.business_id'),
    )
    .select(columns)
    .select([
      'icm.id as ic_member_id',
      'icm.nickname as ic_member_nickname',
      'icm.email as ic_member_email',
      'icm.is_active as ic_member_is_active',
      'icg.id as ic_grade_id',
      'icg.title as ic_grade_title',
      'ccm.id as cc_member_id',
      'ccm.nickname as cc_member_nickname',
      'ccm.email as cc_member_email',
      'ccm.is_active as cc_member_is_active',
      'ccg.id as cc_grade_id',
      'ccg.title as cc_grade_title',
    ]);
}

/** A live todo with its inquiry and both members ({@link findFullById}). */
export type TodoFullRow = Awaited<ReturnType<ReturnType<typeof fullQuery>['executeTakeFirstOrThrow']>>;

/**
 * A live todo's full shape in one statement, or `undefined`. With `lock` the read is also the todo's lock
 * until the end of the caller's transaction (`FOR UPDATE OF todo` on PostgreSQL; SQLite's `BEGIN IMMEDIATE`
 * holds the write lock already), so concurrent updates read and change it one after the other.
 */
export async function findFullById(
  db: Db,
  businessId: number,
  id: number,
  lock = false,
): Promise<TodoFullRow | undefined> {
  const q = fullQuery(db, businessId).where('todo.id', '=', id);
  return (lock ? forUpdateOf(db, q, 'todo') : q).executeTakeFirst();
}

/** The full shapes of the live todos `ids` in one statement ({@link findFullById}), by id. */
export async function findFullByIds(db: Db, businessId: number, ids: readonly number[]): Promise<TodoFullRow[]> {
  if (ids.length === 0) return [];
  return fullQuery(db, businessId)
    .where('todo.id', 'in', [...ids])
    .orderBy('todo.id')
    .execute();
}

/**
 * Stamps `updated` with `at` on the todos of inquiry `inquiryId` in one statement (a cascade,
 * docs/api.md#cascades); answers their ids, ascending.
 */
export async function stampByInquiryId(
  db: Db,
  businessId: number,
  inquiryId: number,
  at: Timestamp,
): Promise<number[]> {
  const rows = await db
    .updateTable('todo')
    .set({ updated: at })
    .where('business_id', '=', businessId)
    .where('inquiry_id', '=', inquiryId)
    .returning('id')
    .execute();
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

/** The ids of the todos of inquiry `inquiryId` (live or not), ascending: what its soft delete hides. */
export async function findIdsByInquiryId(db: Db, businessId: number, inquiryId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('todo')
    .select('id')
    .where('business_id', '=', businessId)
    .where('inquiry_id', '=', inquiryId)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Whether a live todo with this id exists in the business. */
export async function existsById(db: Db, businessId: number, id: number): Promise<boolean> {
  const row = await selectLive(db, businessId).select('todo.id').where('todo.id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/** Inserts a todo; returns its id. */
export async function insert(db: Db, businessId: number, row: Omit<NewTodoRow, 'business_id'>): Promise<number> {
  const { id } = await db
    .insertInto('todo')
    .values({ ...row, business_id: businessId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** The by-id writes of the table (src/db/record-writes.ts): `updateById`, `restoreById`. */
export const { updateById, restoreById } = recordWrites('todo', { where: inquiryIsLive });

/** Deletes a live todo of the business for good; returns the number of rows deleted (0 when missing). */
export async function deleteById(db: Db, businessId: number, id: number): Promise<number> {
  const result = await db
    .deleteFrom('todo')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where(inquiryIsLive(db, businessId))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
