/**
 * SQL for notes. Contract and settlement notes live in two tables with the same columns apart from the
 * parent column (`contract_note.contract_id`, `settlement_note.settlement_id`); a {@link NoteTarget} names
 * one of them. Every function filters by business and by parent.
 */
import type { Db } from '../../db/database.ts';
import { forUpdateOf } from '../../db/sql-helpers.ts';
import type { Timestamp } from '../../db/columns.ts';
import { type CursorPosition, fetchPage, newestFirst, type Page } from '../../shared/pagination.ts';
import { NESTED_MEMBER_COLUMNS } from '../../db/tables/catalog.table.ts';

/** Which note table, and the column that points at the parent record. */
export type NoteTarget =
  { table: 'contract_note'; parent: 'contract_id' } | { table: 'settlement_note'; parent: 'settlement_id' };

/** Contract notes. */
export const CONTRACT_NOTES: NoteTarget = { table: 'contract_note', parent: 'contract_id' };
/** Settlement notes. */
export const SETTLEMENT_NOTES: NoteTarget = { table: 'settlement_note', parent: 'settlement_id' };

// Both tables have the same columns (only the parent column's name differs), so the queries are typed
// against `contract_note` and run against whichever table the target names.
function names(target: NoteTarget) {
  return { table: target.table as 'contract_note', parent: target.parent as 'contract_id' };
}

function selectNotes(db: Db, businessId: number, target: NoteTarget, parentId: number) {
  const { table, parent } = names(target);
  return db
    .selectFrom(`${table} as note` as 'contract_note as note')
    .leftJoin('member', (join) =>
      join.onRef('member.id', '=', 'note.member_id').onRef('member.business_id', '=', 'note.business_id'),
    )
    .leftJoin('grade', (join) =>
      join.onRef('grade.id', '=', 'member.grade_id').onRef('grade.business_id', '=', 'member.business_id'),
    )
    .select(['note.id', 'note.content', 'note.created', 'note.updated', ...NESTED_MEMBER_COLUMNS])
    .where('note.business_id', '=', businessId)
    .where(`note.${parent}` as 'note.contract_id', '=', parentId);
}

/** A note joined with its member and the member's grade. */
export type NoteRow = Awaited<ReturnType<ReturnType<typeof selectNotes>['executeTakeFirstOrThrow']>>;

/** List filters: `updated_start` / `updated_end` as a half-open UTC range (docs/api.md#events). */
export interface NoteFilter {
  updatedFrom?: string;
  updatedTo?: string;
}

/** One page of a parent's notes, newest first by `created`. */
export async function findPage(
  db: Db,
  businessId: number,
  target: NoteTarget,
  parentId: number,
  filter: NoteFilter,
  size: number,
  cursor: CursorPosition | undefined,
): Promise<Page<NoteRow>> {
  let q = selectNotes(db, businessId, target, parentId);
  if (filter.updatedFrom !== undefined) q = q.where('note.updated', '>=', filter.updatedFrom);
  if (filter.updatedTo !== undefined) q = q.where('note.updated', '<', filter.updatedTo);
  return fetchPage(q, newestFirst<NoteRow>('note'), size, cursor);
}

/**
 * One note of a parent with its member, or `undefined`, in one statement. With `lock` the read is also the
 * note's lock until the end of the caller's transaction (`FOR UPDATE OF note` on PostgreSQL; SQLite's
 * `BEGIN IMMEDIATE` holds the write lock already): the lean write path's read of the current shape.
 */
export async function findById(
  db: Db,
  businessId: number,
  target: NoteTarget,
  parentId: number,
  id: number,
  lock = false,
): Promise<NoteRow | undefined> {
  const q = selectNotes(db, businessId, target, parentId).where('note.id', '=', id);
  return (lock ? forUpdateOf(db, q, 'note') : q).executeTakeFirst();
}

/**
 * Inserts a note; returns its id. `updated` is the time of the insert, `created` may be any time the caller names;
 * `id` is given only by a restore (src/shared/restore.ts).
 */
export async function insert(
  db: Db,
  businessId: number,
  target: NoteTarget,
  parentId: number,
  row: { id?: number; content: string; member_id: number | null; created: Timestamp; updated: Timestamp },
): Promise<number> {
  const { table, parent } = names(target);
  const { id } = await db
    .insertInto(table)
    .values({
      ...(row.id !== undefined && { id: row.id }),
      business_id: businessId,
      [parent]: parentId,
      content: row.content,
      member_id: row.member_id,
      created: row.created,
      updated: row.updated,
    } as {
      id?: number;
      business_id: number;
      contract_id: number;
      content: string;
      member_id: number | null;
      created: Timestamp;
      updated: Timestamp;
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/**
 * Writes the columns of `patch` and `updated` of a note of a parent in one statement (the UPDATE stamps
 * `updated` itself, docs/api.md#events); returns the number of rows changed (0 when missing).
 */
export async function updateById(
  db: Db,
  businessId: number,
  target: NoteTarget,
  parentId: number,
  id: number,
  patch: { content?: string; created?: Timestamp },
  updated: Timestamp,
): Promise<number> {
  const { table, parent } = names(target);
  const result = await db
    .updateTable(table)
    .set({ ...patch, updated })
    .where('business_id', '=', businessId)
    .where(parent, '=', parentId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deletes a note of a parent; returns the number of rows deleted (0 when missing). */
export async function deleteById(
  db: Db,
  businessId: number,
  target: NoteTarget,
  parentId: number,
  id: number,
): Promise<number> {
  const { table, parent } = names(target);
  const result = await db
    .deleteFrom(table)
    .where('business_id', '=', businessId)
    .where(parent, '=', parentId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Writes every column of note `id` of the business (a restore, src/shared/restore.ts): its parent, content,
 * member and both times.
 */
export async function restoreById(
  db: Db,
  businessId: number,
  target: NoteTarget,
  parentId: number,
  id: number,
  row: { content: string; member_id: number | null; created: Timestamp; updated: Timestamp },
): Promise<void> {
  const { table, parent } = names(target);
  await db
    .updateTable(table)
    .set({ [parent]: parentId, ...row } as { contract_id: number })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .execute();
}

/** Whether the parent record (a contract or a settlement) `parentId` is the business's. */
export async function parentExists(db: Db, businessId: number, target: NoteTarget, parentId: number): Promise<boolean> {
  const table = target.table === 'contract_note' ? 'contract' : 'settlement';
  const row = await db
    .selectFrom(table)
    .select('id')
    .where('business_id', '=', businessId)
    .where('id', '=', parentId)
    .executeTakeFirst();
  return row !== undefined;
}
