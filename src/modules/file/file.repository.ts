/** SQL for issued and uploaded objects (`file`). Every function filters by business. */
import type { Expression } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Timestamp } from '../../db/columns.ts';
import type { FileRow, NewFileRow } from '../../db/tables/file.table.ts';

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
  'file.stored_path',
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
  return db
    .selectFrom('file')
    .select(fileColumns)
    .where('business_id', '=', businessId)
    .where('path', 'in', paths)
    .execute();
}

/** The object of the business at `path`, or `undefined`. */
export async function findByPath(db: Db, businessId: number, path: string): Promise<FileRow | undefined> {
  return db
    .selectFrom('file')
    .select(fileColumns)
    .where('business_id', '=', businessId)
    .where('path', '=', path)
    .executeTakeFirst();
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
export async function markUploaded(
  db: Db,
  businessId: number,
  path: string,
  size: number,
  at: Timestamp,
): Promise<void> {
  await db
    .updateTable('file')
    .set({ size, uploaded_at: at })
    .where('business_id', '=', businessId)
    .where('path', '=', path)
    .execute();
}

/**
 * Records the sealed bytes of an upload (`Storage.seal`): size, time and, when it differs from `path`, the
 * key they are served from. Only the first seal counts (compare-and-set on `uploaded_at is null`), so two
 * requests attaching the same upload at once agree on one copy.
 * @returns whether this call recorded its seal (false: the object was uploaded or sealed already)
 */
export async function recordSeal(
  db: Db,
  businessId: number,
  path: string,
  seal: { size: number; storedPath: string | null },
  at: Timestamp,
): Promise<boolean> {
  const result = await db
    .updateTable('file')
    .set({ size: seal.size, uploaded_at: at, stored_path: seal.storedPath })
    .where('business_id', '=', businessId)
    .where('path', '=', path)
    .where('uploaded_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Deletes an object's record; returns the number of rows deleted. */
export async function deleteById(db: Db, businessId: number, id: number): Promise<number> {
  const result = await db
    .deleteFrom('file')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The ids among `fileIds` that are attached to an inquiry already. */
export async function findAttachedFileIds(
  db: Db,
  businessId: number,
  fileIds: readonly number[],
): Promise<Set<number>> {
  if (fileIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('inquiry_file')
    .select('file_id')
    .where('business_id', '=', businessId)
    .where('file_id', 'in', fileIds)
    .execute();
  return new Set(rows.map((r) => r.file_id));
}

/** How many files an inquiry holds. */
export async function countInquiryFiles(db: Db, businessId: number, inquiryId: number): Promise<number> {
  const row = await db
    .selectFrom('inquiry_file')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('business_id', '=', businessId)
    .where('inquiry_id', '=', inquiryId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Attaches objects to an inquiry, in the order given. */
export async function insertInquiryFiles(
  db: Db,
  businessId: number,
  inquiryId: number,
  files: readonly { fileId: number; name: string }[],
  at: Timestamp,
): Promise<void> {
  if (files.length === 0) return;
  await db
    .insertInto('inquiry_file')
    .values(
      files.map((f) => ({
        business_id: businessId,
        inquiry_id: inquiryId,
        file_id: f.fileId,
        name: f.name,
        created: at,
      })),
    )
    .execute();
}

/**
 * The files of the inquiry `inquiryId` (an expression of the outer query, such as `inquiry.id`) with their
 * objects, in the order they were attached (`stored_path`: the key the bytes are served from when it is not
 * `path`): a subquery, for a JSON column of the inquiry's full shape.
 */
export function inquiryFilesQuery(db: Db, businessId: number, inquiryId: Expression<number>) {
  return db
    .selectFrom('inquiry_file')
    .innerJoin('file', (join) =>
      join.onRef('file.id', '=', 'inquiry_file.file_id').onRef('file.business_id', '=', 'inquiry_file.business_id'),
    )
    .select([
      'inquiry_file.id',
      'inquiry_file.name',
      'inquiry_file.created',
      'file.path',
      'file.stored_path',
      'file.content_type',
    ])
    .where('inquiry_file.business_id', '=', businessId)
    .where('inquiry_file.inquiry_id', '=', inquiryId)
    .orderBy('inquiry_file.created')
    .orderBy('inquiry_file.id');
}

/**
 * One file of a live inquiry with its object, or `undefined` (also for a file of another inquiry, and for any
 * file of a missing or soft-deleted inquiry).
 */
export async function findInquiryFileById(db: Db, businessId: number, inquiryId: number, id: number) {
  return db
    .selectFrom('inquiry_file')
    .innerJoin('file', (join) =>
      join.onRef('file.id', '=', 'inquiry_file.file_id').onRef('file.business_id', '=', 'inquiry_file.business_id'),
    )
    .innerJoin('inquiry', (join) =>
      join
        .onRef('inquiry.id', '=', 'inquiry_file.inquiry_id')
        .onRef('inquiry.business_id', '=', 'inquiry_file.business_id'),
    )
    .where('inquiry.deleted_at', 'is', null)
    .select(['inquiry_file.id', 'inquiry_file.file_id', 'file.path', 'file.stored_path'])
    .where('inquiry_file.business_id', '=', businessId)
    .where('inquiry_file.inquiry_id', '=', inquiryId)
    .where('inquiry_file.id', '=', id)
    .executeTakeFirst();
}

/** Detaches one file of an inquiry; returns the number of rows deleted. */
export async function deleteInquiryFileById(
  db: Db,
  businessId: number,
  inquiryId: number,
  id: number,
): Promise<number> {
  const result = await db
    .deleteFrom('inquiry_file')
    .where('business_id', '=', businessId)
    .where('inquiry_id', '=', inquiryId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Ids of the files attached to an inquiry (`inquiry_file.id`). */
export async function findInquiryFileIds(db: Db, businessId: number, inquiryId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('inquiry_file')
    .select('id')
    .where('business_id', '=', businessId)
    .where('inquiry_id', '=', inquiryId)
    .execute();
  return rows.map((r) => r.id);
}

/** Attaches one object to an inquiry under `id` (or a new id when `id` is undefined) and `created`; returns its id. */
export async function insertInquiryFileWithId(
  db: Db,
  businessId: number,
  inquiryId: number,
  row: { id: number | undefined; fileId: number; name: string; created: Timestamp },
): Promise<number> {
  const { id } = await db
    .insertInto('inquiry_file')
    .values({
      ...(row.id !== undefined && { id: row.id }),
      business_id: businessId,
      inquiry_id: inquiryId,
      file_id: row.fileId,
      name: row.name,
      created: row.created,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}
