/** SQL for workers and the worker positions they reference. Soft-deleted workers are never read. */
import type { Db } from '../../db/database.ts';
import { recordWrites } from '../../db/record-writes.ts';
import { forUpdateOf, searchAll } from '../../db/sql-helpers.ts';
import { type CursorPosition, fetchPage, newestFirst, type Page } from '../../shared/pagination.ts';
import { selectColumns } from '../../shared/property-map.ts';
import { WORKER_PROPERTIES } from './worker.properties.ts';

/** The worker's columns (its property map, ./worker.properties.ts), its position's id and the position's title and colour. */
const columns = [
  ...selectColumns(WORKER_PROPERTIES, 'worker'),
  'worker.position_id',
  'worker_position.title as position_title',
  'worker_position.symbol_color as position_symbol_color',
] as const;

function selectLive(db: Db, businessId: number) {
  return db.selectFrom('worker').where('worker.business_id', '=', businessId).where('worker.deleted_at', 'is', null);
}

function findQuery(db: Db, businessId: number) {
  return selectLive(db, businessId)
    .leftJoin('worker_position', (join) =>
      join.onRef('worker_position.id', '=', 'worker.position_id').on('worker_position.business_id', '=', businessId),
    )
    .select(columns);
}

/** A live worker row with its position's title and colour (null when it has none). */
export type WorkerRow = Awaited<ReturnType<ReturnType<typeof findQuery>['executeTakeFirstOrThrow']>>;

/** List filters (docs/api.md#projects-and-workers, docs/api.md#filters). */
export interface WorkerFilter {
  isHidden?: boolean;
  positionId?: number;
  /** Every term must be a case-insensitive substring of the name. */
  search: readonly string[];
  /** `updated_start` / `updated_end` as a half-open UTC range (docs/api.md#events). */
  updatedFrom?: string;
  updatedTo?: string;
}

/** One page of live workers, newest first. */
export async function findPage(
  db: Db,
  businessId: number,
  filter: WorkerFilter,
  size: number,
  cursor: CursorPosition | undefined,
): Promise<Page<WorkerRow>> {
  let q = findQuery(db, businessId);
  if (filter.isHidden !== undefined) q = q.where('worker.is_hidden', '=', filter.isHidden ? 1 : 0);
  if (filter.positionId !== undefined) q = q.where('worker.position_id', '=', filter.positionId);
  if (filter.updatedFrom !== undefined) q = q.where('worker.updated', '>=', filter.updatedFrom);
  if (filter.updatedTo !== undefined) q = q.where('worker.updated', '<', filter.updatedTo);
  const search = filter.search;
  if (search.length > 0) q = q.where((eb) => searchAll(eb, search, [eb.ref('worker.name')])!);
  return fetchPage(q, newestFirst<WorkerRow>('worker'), size, cursor);
}

/**
 * A live worker with its position, or `undefined`, in one statement. With `lock` the read is also the
 * row's lock until the end of the caller's transaction (`FOR UPDATE OF worker` on PostgreSQL; SQLite's
 * `BEGIN IMMEDIATE` holds the write lock already): the lean write path's read (docs/api.md#events).
 */
export async function findById(db: Db, businessId: number, id: number, lock = false): Promise<WorkerRow | undefined> {
  const q = findQuery(db, businessId).where('worker.id', '=', id);
  return (lock ? forUpdateOf(db, q, 'worker') : q).executeTakeFirst();
}

/**
 * The writes and the existence check of the table (src/db/record-writes.ts, shared by every soft-deleted
 * record table): `insert` (returns the id), `existsById` (live only), `updateById`, `softDeleteById`, `restoreById`.
 */
export const { insert, existsById, updateById, softDeleteById, restoreById } = recordWrites('worker', {
  softDelete: true,
});
