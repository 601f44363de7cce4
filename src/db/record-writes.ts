/**
 * The by-id writes every business-owned record table shares (issue 42, as DRF's `CreateModelMixin` /
 * `UpdateModelMixin` / `DestroyModelMixin` are shared): `insert` (a create's one INSERT), `updateById` (the
 * lean write path's one UPDATE, docs/api.md#events) and, for tables with a `deleted_at`, `softDeleteById` and
 * `existsById` (live records only); and `restoreById` (an import's write of a record as given). A repository binds them to its table once
 * (`export const { updateById, softDeleteById, restoreById } = recordWrites('client', { softDelete: true })`); each
 * is one statement, filtered by `business_id` and `id` (the table's key, docs/deployment.md#10-beyond-one-postgresql-server-citus-distributed-by-business_id), as the hand-written copies were.
 */
import type { Expression, Insertable, Kysely, SqlBool, Updateable } from 'kysely';
import type { Database, Db } from './database.ts';
import type { Timestamp } from './columns.ts';

/** The tables keyed `(business_id, id)` whose rows carry `updated` (the records the event list follows). */
export type StampedTable = {
  [T in keyof Database]: Database[T] extends { business_id: number; id: unknown; updated: Timestamp } ? T : never;
}[keyof Database];

/** The {@link StampedTable}s that are soft-deleted (a `deleted_at` column, filtered in every read). */
export type SoftDeletedTable = {
  [T in StampedTable]: Database[T] extends { deleted_at: Timestamp | null } ? T : never;
}[StampedTable];

/**
 * An extra condition every by-id write of a table adds (todo: only while its inquiry is live), over the
 * table's columns; it may read other tables of the business through subqueries.
 */
export type RowCondition = (db: Db, businessId: number) => Expression<SqlBool>;

/** A row of table `T` to insert, without `business_id` (taken from the `businessId` argument). */
export type NewRecord<T extends StampedTable> = Omit<Insertable<Database[T]>, 'business_id'>;

/** What {@link recordWrites} binds to one table. */
export interface RecordWrites<T extends StampedTable> {
  /** Inserts `row` into the business in one statement; returns the new row's id. */
  insert(db: Db, businessId: number, row: NewRecord<T>): Promise<number>;
  /**
   * Sets the columns of `patch` and `updated` to `at` on record `id` of the business, in one statement (an
   * empty `patch` stamps `updated` only: the event's stamp, docs/api.md#events). A soft-deleted record (when
   * the table has `deleted_at`) is not changed. Returns the number of rows changed (0 when missing).
   */
  updateById(db: Db, businessId: number, id: number, patch: Updateable<Database[T]>, at: Timestamp): Promise<number>;
  /**
   * Writes the columns of `patch` as given (`created`, `updated` among them) on record `id` of the business
   * whatever its state — a restore (src/shared/restore.ts), which {@link updateById} cannot reach: a soft-deleted
   * record is revived (`deleted_at` set to null), the table's extra condition is not applied. Returns the rows changed.
   */
  restoreById(db: Db, businessId: number, id: number, patch: Updateable<Database[T]>): Promise<number>;
}

/** {@link RecordWrites} of a soft-deleted table. */
export interface SoftDeleteWrites<T extends StampedTable> extends RecordWrites<T> {
  /** Sets `deleted_at` to `at` on live record `id` of the business; returns the rows changed (0: missing or already deleted). */
  softDeleteById(db: Db, businessId: number, id: number, at: Timestamp): Promise<number>;
  /** Whether the business has a live (not soft-deleted) record `id`, in one statement. */
  existsById(db: Db, businessId: number, id: number): Promise<boolean>;
}

/**
 * The by-id writes of `table`. `softDelete: true` (only for tables with `deleted_at`) leaves deleted rows
 * alone and adds `softDeleteById`; `where` adds a condition of the table's own (see {@link RowCondition}).
 */
export function recordWrites<T extends SoftDeletedTable>(
  table: T,
  options: { softDelete: true; where?: RowCondition },
): SoftDeleteWrites<T>;
export function recordWrites<T extends StampedTable>(
  table: T,
  options?: { softDelete?: false; where?: RowCondition },
): RecordWrites<T>;
export function recordWrites<T extends StampedTable>(
  table: T,
  options: { softDelete?: boolean; where?: RowCondition } = {},
): RecordWrites<T> & Partial<SoftDeleteWrites<T>> {
  // The generic table name defeats Kysely's column inference inside; the signatures above keep callers typed.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
  const untyped = (db: Db) => db as unknown as Kysely<any>;
  const byId = (
    db: Db,
    businessId: number,
    id: number,
    set: Record<string, unknown>,
    filtered = true,
  ): Promise<{ numUpdatedRows: bigint }> => {
    let q = untyped(db)
      .updateTable(table as string)
      .set(set)
      .where('business_id', '=', businessId)
      .where('id', '=', id);
    if (filtered && options.softDelete) q = q.where('deleted_at', 'is', null);
    if (filtered && options.where) q = q.where(options.where(db, businessId));
    return q.executeTakeFirst();
  };
  const writes: RecordWrites<T> & Partial<SoftDeleteWrites<T>> = {
    async insert(db, businessId, row) {
      const { id } = await untyped(db)
        .insertInto(table as string)
        .values({ ...row, business_id: businessId })
        .returning('id')
        .executeTakeFirstOrThrow();
      return id as number;
    },
    async updateById(db, businessId, id, patch, at) {
      return Number((await byId(db, businessId, id, { ...patch, updated: at })).numUpdatedRows);
    },
    async restoreById(db, businessId, id, patch) {
      const set = options.softDelete ? { ...patch, deleted_at: null } : patch;
      return Number((await byId(db, businessId, id, set, false)).numUpdatedRows);
    },
  };
  if (options.softDelete) {
    writes.softDeleteById = async (db, businessId, id, at) =>
      Number((await byId(db, businessId, id, { deleted_at: at })).numUpdatedRows);
    writes.existsById = async (db, businessId, id) => {
      const row = await untyped(db)
        .selectFrom(table as string)
        .select('id')
        .where('business_id', '=', businessId)
        .where('deleted_at', 'is', null)
        .where('id', '=', id)
        .executeTakeFirst();
      return row !== undefined;
    };
  }
  return writes;
}
