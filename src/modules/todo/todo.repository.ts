/**
 * SQL for todos. A todo is read only while its inquiry is live: the todos of a soft-deleted inquiry
 * disappear with it (docs/api.md#todos, docs/api.md#inquiries: soft delete). Deletion of a todo is permanent.
 */
import { type ExpressionBuilder, SqliteAdapter } from 'kysely';
import type { Database, Db } from '../../db/database.ts';
import { type CursorPosition, fetchPage, newestFirst, type Page } from '../../shared/pagination.ts';
import type { NewTodoRow, TodoRowUpdate } from '../../db/tables/todo.table.ts';
import { NESTED_INQUIRY_COLUMNS } from '../../db/tables/inquiry.table.ts';

const columns = [
  'todo.id',
  ...NESTED_INQUIRY_COLUMNS,
  'todo.in_charge_id',
  'todo.completed_in_charge_id',
  'todo.type',
  'todo.due_date',
  'todo.due_time',
  'todo.action',
  'todo.action_history',
  'todo.is_complete',
  'todo.completed_at',
  'todo.created',
  'todo.updated',
] as const;

/** The todo's inquiry is live (for updates and deletes, which cannot join). */
function inquiryIsLive(eb: ExpressionBuilder<Database, 'todo'>) {
  return eb.exists(
    eb
      .selectFrom('inquiry')
      .select('inquiry.id')
      .whereRef('inquiry.id', '=', 'todo.inquiry_id')
      .where('inquiry.deleted_at', 'is', null),
  );
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

/** A live todo, or `undefined`. */
export async function findById(db: Db, businessId: number, id: number): Promise<TodoRow | undefined> {
  return findQuery(db, businessId).where('todo.id', '=', id).executeTakeFirst();
}

/**
 * Locks todo `id` of the business until the end of the caller's transaction on PostgreSQL (`FOR UPDATE`),
 * so that concurrent updates read and change it one after the other. SQLite runs one write transaction at
 * a time (BEGIN IMMEDIATE), so nothing is needed there.
 */
export async function lockById(db: Db, businessId: number, id: number): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await db.selectFrom('todo').select('id').where('business_id', '=', businessId).where('id', '=', id).forUpdate().execute();
}

/** Whether a live todo with this id exists in the business. */
export async function existsById(db: Db, businessId: number, id: number): Promise<boolean> {
  const row = await selectLive(db, businessId).select('todo.id').where('todo.id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/** Whether a live (not soft-deleted) inquiry with this id exists in the business. */
export async function liveInquiryExists(db: Db, businessId: number, inquiryId: number): Promise<boolean> {
  const row = await db
    .selectFrom('inquiry')
    .select('id')
    .where('business_id', '=', businessId)
    .where('id', '=', inquiryId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
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

/** Updates a live todo of the business; returns the number of rows changed (0 when missing). */
export async function updateById(db: Db, businessId: number, id: number, patch: TodoRowUpdate): Promise<number> {
  if (Object.keys(patch).length === 0) return (await existsById(db, businessId, id)) ? 1 : 0;
  const result = await db
    .updateTable('todo')
    .set(patch)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where(inquiryIsLive)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deletes a live todo of the business for good; returns the number of rows deleted (0 when missing). */
export async function deleteById(db: Db, businessId: number, id: number): Promise<number> {
  const result = await db
    .deleteFrom('todo')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where(inquiryIsLive)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Writes the given columns of todo `id` of the business whatever the state of its inquiry (a restore,
 * src/shared/restore.ts: a todo hidden with its deleted inquiry moves to the shape's live one, which
 * {@link updateById} cannot reach).
 */
export async function restoreById(db: Db, businessId: number, id: number, row: TodoRowUpdate): Promise<void> {
  await db.updateTable('todo').set(row).where('business_id', '=', businessId).where('id', '=', id).execute();
}
