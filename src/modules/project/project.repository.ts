/** SQL for projects. Soft-deleted projects are never read. */
import type { Db } from '../../db/database.ts';
import { recordWrites } from '../../db/record-writes.ts';
import { forUpdateOf } from '../../db/sql-helpers.ts';
import type { Timestamp } from '../../db/columns.ts';
import { type CursorPosition, fetchPage, newestFirst, type Page } from '../../shared/pagination.ts';
import { NESTED_CONTRACT_COLUMNS } from '../../db/tables/contract.table.ts';
import { selectColumns } from '../../shared/property-map.ts';
import { PROJECT_PROPERTIES } from './project.properties.ts';

/** The project's columns (its property map, ./project.properties.ts) and its contract's summary columns. */
const columns = [...selectColumns(PROJECT_PROPERTIES, 'project'), ...NESTED_CONTRACT_COLUMNS] as const;

function selectLive(db: Db, businessId: number) {
  return db.selectFrom('project').where('project.business_id', '=', businessId).where('project.deleted_at', 'is', null);
}

function findQuery(db: Db, businessId: number) {
  return selectLive(db, businessId)
    .leftJoin('contract', (join) =>
      join.onRef('contract.id', '=', 'project.contract_id').on('contract.business_id', '=', businessId),
    )
    .select(columns);
}

/** A live project row with its contract's summary columns (all null when it has none). */
export type ProjectRow = Awaited<ReturnType<ReturnType<typeof findQuery>['executeTakeFirstOrThrow']>>;

/** List filters (docs/api.md#projects-and-workers, docs/api.md#filters): every date range is inclusive, `YYYY-MM-DD`, either end optional. */
export interface ProjectFilter {
  status?: string;
  isHidden?: boolean;
  startDateFrom?: string;
  startDateTo?: string;
  endDateFrom?: string;
  endDateTo?: string;
  contractId?: number;
  /** `updated_start` / `updated_end` as a half-open UTC range (docs/api.md#events). */
  updatedFrom?: string;
  updatedTo?: string;
}

/** One page of live projects, newest first. */
export async function findPage(
  db: Db,
  businessId: number,
  filter: ProjectFilter,
  size: number,
  cursor: CursorPosition | undefined,
): Promise<Page<ProjectRow>> {
  let q = findQuery(db, businessId);
  if (filter.status !== undefined) q = q.where('project.status', '=', filter.status);
  if (filter.isHidden !== undefined) q = q.where('project.is_hidden', '=', filter.isHidden ? 1 : 0);
  if (filter.startDateFrom !== undefined) q = q.where('project.start_date', '>=', filter.startDateFrom);
  if (filter.startDateTo !== undefined) q = q.where('project.start_date', '<=', filter.startDateTo);
  if (filter.endDateFrom !== undefined) q = q.where('project.end_date', '>=', filter.endDateFrom);
  if (filter.endDateTo !== undefined) q = q.where('project.end_date', '<=', filter.endDateTo);
  if (filter.contractId !== undefined) q = q.where('project.contract_id', '=', filter.contractId);
  if (filter.updatedFrom !== undefined) q = q.where('project.updated', '>=', filter.updatedFrom);
  if (filter.updatedTo !== undefined) q = q.where('project.updated', '<', filter.updatedTo);
  return fetchPage(q, newestFirst<ProjectRow>('project'), size, cursor);
}

/**
 * A live project with its contract's summary, or `undefined`, in one statement. With `lock` the read is also
 * the row's lock until the end of the caller's transaction (`FOR UPDATE OF project` on PostgreSQL; SQLite's
 * `BEGIN IMMEDIATE` holds the write lock already): the lean write path's read (docs/api.md#events).
 */
export async function findById(db: Db, businessId: number, id: number, lock = false): Promise<ProjectRow | undefined> {
  const q = findQuery(db, businessId).where('project.id', '=', id);
  return (lock ? forUpdateOf(db, q, 'project') : q).executeTakeFirst();
}

/**
 * The writes and the existence check of the table (src/db/record-writes.ts, shared by every soft-deleted
 * record table): `insert` (returns the id), `existsById` (live only), `updateById`, `softDeleteById`, `restoreById`.
 */
export const { insert, existsById, updateById, softDeleteById, restoreById } = recordWrites('project', {
  softDelete: true,
});

/**
 * Stamps `updated` with `at` on the projects of contract `contractId` in one statement, and with `release`
 * unlinks them too (the contract's delete; docs/api.md#cascades); answers the ids of the live ones, ascending.
 */
export async function stampByContractId(
  db: Db,
  businessId: number,
  contractId: number,
  at: Timestamp,
  release: boolean,
): Promise<number[]> {
  const rows = await db
    .updateTable('project')
    .set({ updated: at, ...(release && { contract_id: null }) })
    .where('business_id', '=', businessId)
    .where('contract_id', '=', contractId)
    .returning(['id', 'deleted_at'])
    .execute();
  return rows
    .filter((r) => r.deleted_at === null)
    .map((r) => r.id)
    .sort((a, b) => a - b);
}

/** The live projects `ids` with their contract's summary, in one statement, by id. */
export async function findByIds(db: Db, businessId: number, ids: readonly number[]): Promise<ProjectRow[]> {
  if (ids.length === 0) return [];
  return findQuery(db, businessId)
    .where('project.id', 'in', [...ids])
    .orderBy('project.id')
    .execute();
}
