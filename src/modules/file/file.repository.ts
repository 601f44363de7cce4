/** SQL for issued and uploaded objects (`file`). Every function filters by business. */
import type { Db } from '../../db/database.ts';
import type { Timestamp } from '../../db/sql-helpers.ts';
import type { FileRow, NewFileRow } from './file.table.ts';

const fileColumns = [
  'file.id',
  'file.business_id',
  'file.path',
  'file.name',
  'file.content_type',
  'file.size',
  'file.created',
  'file.expires_at',
  'file.upload_started_at',
  'file.uploaded_at',
] as const;

/** Records an issued object; returns its id. */
export async function insert(db: Db, businessId: number, row: Omit<NewFileRow, 'business_id'>): Promise<number> {
  const { id } = await db
    .insertInto('file')
    .values({ ...row, business_id: businessId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** The objects of the business at these paths (missing paths are simply absent from the result). */
export async function findByPaths(db: Db, businessId: number, paths: readonly string[]): Promise<FileRow[]> {
  if (paths.length === 0) return [];
  return db.selectFrom('file').select(fileColumns).where('business_id', '=', businessId).where('path', 'in', paths).execute();
}

/** The object of the business at `path`, or `undefined`. */
export async function findByPath(db: Db, businessId: number, path: string): Promise<FileRow | undefined> {
  return db.selectFrom('file').select(fileColumns).where('business_id', '=', businessId).where('path', '=', path).executeTakeFirst();
}

/**
 * Claims the single upload of an object: sets `upload_started_at` when no upload has started or finished.
 * Atomic, so of two concurrent uploads to one URL exactly one wins.
 * @returns whether this call won the claim
 */
export async function claimUpload(db: Db, businessId: number, path: string, at: Timestamp): Promise<boolean> {
  const result = await db
    .updateTable('file')
    .set({ upload_started_at: at })
    .where('business_id', '=', businessId)
    .where('path', '=', path)
    .where('upload_started_at', 'is', null)
    .where('uploaded_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives a claim back after a failed upload (the URL may be used again until it expires). */
export async function releaseUpload(db: Db, businessId: number, path: string): Promise<void> {
  await db
    .updateTable('file')
    .set({ upload_started_at: null })
    .where('business_id', '=', businessId)
    .where('path', '=', path)
    .where('uploaded_at', 'is', null)
    .execute();
}

/** Records that the bytes of an object are stored. */
export async function markUploaded(db: Db, businessId: number, path: string, size: number, at: Timestamp): Promise<void> {
  await db
    .updateTable('file')
    .set({ size, uploaded_at: at })
    .where('business_id', '=', businessId)
    .where('path', '=', path)
    .execute();
}

/** Deletes an object's record; returns the number of rows deleted. */
export async function deleteById(db: Db, businessId: number, id: number): Promise<number> {
  const result = await db.deleteFrom('file').where('business_id', '=', businessId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}
