/** SQL for estimate items and their classifications. Every function filters by the business. */
import type { Db } from '../../db/database.ts';
import { recordWrites } from '../../db/record-writes.ts';
import { forUpdateOf, searchAll } from '../../db/sql-helpers.ts';
import { type CursorPosition, fetchPage, newestFirst, type OrderColumn, type Page } from '../../shared/pagination.ts';
import { selectColumns } from '../../shared/property-map.ts';
import { ESTIMATE_ITEM_PROPERTIES } from './estimate.properties.ts';

/** The estimate item's columns (its property map, ./estimate.properties.ts), its classification's id and title. */
const columns = [
  ...selectColumns(ESTIMATE_ITEM_PROPERTIES, 'estimate_item'),
  'estimate_item.classification_id',
  'estimate_item_classification.title as classification_title',
] as const;

function findQuery(db: Db, businessId: number) {
  return db
    .selectFrom('estimate_item')
    .leftJoin('estimate_item_classification', (join) =>
      join
        .onRef('estimate_item_classification.id', '=', 'estimate_item.classification_id')
        .on('estimate_item_classification.business_id', '=', businessId),
    )
    .where('estimate_item.business_id', '=', businessId)
    .select(columns);
}

/** An estimate item row with its classification's title (null when it has none). */
export type EstimateItemRow = Awaited<ReturnType<ReturnType<typeof findQuery>['executeTakeFirstOrThrow']>>;

/** List filter (docs/api.md#estimate-items, docs/api.md#filters). */
export interface EstimateItemFilter {
  /** Every term must be a case-insensitive substring of the title or the description. */
  search: readonly string[];
  /** `updated_start` / `updated_end` as a half-open UTC range (docs/api.md#events). */
  updatedFrom?: string;
  updatedTo?: string;
}

/** One page of estimate items, newest first. */
export async function findPage(
  db: Db,
  businessId: number,
  filter: EstimateItemFilter,
  size: number,
  cursor: CursorPosition | undefined,
): Promise<Page<EstimateItemRow>> {
  let q = findQuery(db, businessId);
  if (filter.updatedFrom !== undefined) q = q.where('estimate_item.updated', '>=', filter.updatedFrom);
  if (filter.updatedTo !== undefined) q = q.where('estimate_item.updated', '<', filter.updatedTo);
  const search = filter.search;
  if (search.length > 0) {
    q = q.where((eb) => searchAll(eb, search, [eb.ref('estimate_item.title'), eb.ref('estimate_item.description')])!);
  }
  return fetchPage(q, newestFirst<EstimateItemRow>('estimate_item'), size, cursor);
}

/**
 * An estimate item of the business with its classification, or `undefined`, in one statement. With `lock`
 * the read is also the row's lock until the end of the caller's transaction (`FOR UPDATE OF estimate_item`
 * on PostgreSQL; SQLite's `BEGIN IMMEDIATE` holds the write lock already): the lean write path's read.
 */
export async function findById(
  db: Db,
  businessId: number,
  id: number,
  lock = false,
): Promise<EstimateItemRow | undefined> {
  const q = findQuery(db, businessId).where('estimate_item.id', '=', id);
  return (lock ? forUpdateOf(db, q, 'estimate_item') : q).executeTakeFirst();
}

/** Whether an estimate item with this id exists in the business. */
export async function existsById(db: Db, businessId: number, id: number): Promise<boolean> {
  const row = await db
    .selectFrom('estimate_item')
    .select('id')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

/** The writes of the table (src/db/record-writes.ts): `insert` (returns the id) and `updateById`. */
export const { insert, updateById } = recordWrites('estimate_item');

/** Deletes an estimate item for good; returns the number of rows removed (0 when missing). */
export async function deleteById(db: Db, businessId: number, id: number): Promise<number> {
  const result = await db
    .deleteFrom('estimate_item')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

// ── Classifications ──

/** A classification as the list shows it. */
export interface ClassificationRow {
  id: number;
  title: string;
  position: number;
}

const classificationOrder: OrderColumn<ClassificationRow>[] = [
  { ref: 'position', key: 'position', direction: 'asc' },
  { ref: 'id', key: 'id', direction: 'asc' },
];

/** One page of the business's classifications in their configured order, filtered by `search` on the title. */
export async function findClassificationPage(
  db: Db,
  businessId: number,
  search: readonly string[],
  size: number,
  cursor: CursorPosition | undefined,
): Promise<Page<ClassificationRow>> {
  let q = db
    .selectFrom('estimate_item_classification')
    .select(['id', 'title', 'position'])
    .where('business_id', '=', businessId);
  if (search.length > 0) q = q.where((eb) => searchAll(eb, search, [eb.ref('title')])!);
  return fetchPage(q, classificationOrder, size, cursor);
}

/** A classification of the business by id, or `undefined`. */
export async function findClassificationById(db: Db, businessId: number, id: number) {
  return db
    .selectFrom('estimate_item_classification')
    .select(['id', 'title'])
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
}
