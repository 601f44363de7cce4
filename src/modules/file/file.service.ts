/**
 * Attachments (docs/api.md#attachments):
 * issuing pre-signed upload URLs, receiving the single upload of the local storage, checking, sealing (S3:
 * copying to a key no URL can write) and attaching `fileSet` entries, listing an inquiry's files with expiring
 * download URLs, and deleting one.
 */
import type { Readable } from 'node:stream';
import type { Expression, RawBuilder } from 'kysely';
import type { FilesConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import {
  advanceIdSequence,
  fromJsonColumn,
  isUniqueViolation,
  jsonArrayOf,
  jsonTimestamp,
  nowTimestamp,
} from '../../db/sql-helpers.ts';
import { canKeepId } from '../../db/ids.ts';
import { restoredTimestamp } from '../../shared/restore-record.ts';
import { type ErrorCollector, NotFound, PermissionDenied, ValidationError, messages } from '../../shared/errors.ts';
import type { AuthContext } from '../../shared/auth-context.ts';
import { ALLOWED_EXTENSIONS, extensionOf, mediaTypeOf, rawExtensionOf } from './file-types.ts';
import * as repo from './file.repository.ts';
import {
  type FileSetEntryInput,
  type InquiryFile,
  MAX_FILES_PER_INQUIRY,
  type Presigned,
  type PresignedBody,
} from './file.schemas.ts';
import { newObjectPath, parseObjectPath } from './object-path.ts';
import type { Storage } from './storage.ts';

type Auth = Pick<AuthContext, 'businessId'>;

/** What the file operations need besides the database: the storage, its limits, and where URLs point. */
export interface FileContext {
  storage: Storage;
  files: FilesConfig;
  /** `protocol://host[:port]` of the API as the client reached it (local storage URLs point there). */
  origin: string;
  /** Where problems that must not fail the request are reported (a storage object left behind). */
  log?: { warn(details: object, message: string): void };
}

/** A checked `fileSet` entry: the uploaded object to attach, under its display name. */
export interface CheckedFile {
  fileId: number;
  name: string;
}

/**
 * `POST /v1/presigned`: records a new object of the business and returns a URL that accepts one `PUT` of
 * its bytes for `files.uploadUrlTtlSeconds` (60 s by default), and the `path` to attach afterwards.
 * @throws ValidationError on `name` when its extension is not one of the 13 allowed (any letter case)
 */
export async function createPresigned(db: Db, ctx: FileContext, auth: Auth, body: PresignedBody): Promise<Presigned> {
  const extension = extensionOf(body.name);
  if (!extension) {
    // Django's FileExtensionValidator wording.
    throw ValidationError.at(
      ['name'],
      `File extension “${rawExtensionOf(body.name)}” is not allowed. Allowed extensions are: ${ALLOWED_EXTENSIONS.join(', ')}.`,
    );
  }
  const ttl = ctx.files.uploadUrlTtlSeconds;
  const now = Date.now();
  const path = newObjectPath(auth.businessId, extension);
  await repo.insert(db, auth.businessId, {
    path,
    name: body.name,
    content_type: mediaTypeOf(extension),
    size: null,
    created: new Date(now).toISOString(),
    expires_at: new Date(now + ttl * 1000).toISOString(),
    upload_started_at: null,
    uploaded_at: null,
  });
  const url = await ctx.storage.presignUpload(path, { expiresInSeconds: ttl, origin: ctx.origin });
  return { url, path };
}

/**
 * The single upload of an object through a local pre-signed URL (the URL's signature and expiry are checked
 * by the route). Claims the upload atomically, streams the bytes into the storage and records size and
 * time; a failed upload (too large, aborted) gives the claim back, so the URL may be retried until it
 * expires.
 *
 * @param objectPath the path from the URL (any text: it is checked here)
 * @returns the stored size in bytes and the MD5 of the bytes (hex)
 * @throws NotFound for a path that is not an object path; PermissionDenied (`upload_url_used`) when the
 *   object was uploaded already or an upload to it is in progress; PayloadTooLarge beyond `maxBytes`
 */
export async function receiveUpload(
  db: Db,
  storage: Storage,
  maxBytes: number,
  objectPath: string,
  body: Readable | Buffer,
): Promise<{ size: number; md5: string }> {
  const parsed = parseObjectPath(objectPath);
  if (!parsed) throw new NotFound();
  const row = await repo.findByPath(db, parsed.businessId, objectPath);
  if (!row) throw new PermissionDenied('This upload URL is not valid.', 'url_invalid');
  if (!(await repo.claimUpload(db, parsed.businessId, objectPath, nowTimestamp()))) {
    throw new PermissionDenied('This upload URL has already been used.', 'url_used');
  }
  try {
    const stored = await storage.put(objectPath, body, { maxBytes });
    await repo.markUploaded(db, parsed.businessId, objectPath, stored.size, nowTimestamp());
    return stored;
  } catch (err) {
    await repo.releaseUpload(db, parsed.businessId, objectPath);
    throw err;
  }
}

/**
 * Checks a request's `fileSet` (docs/api.md#attachments): every `file` must be the
 * path of an object this business uploaded and that is not attached yet. Problems are added to `errors`
 * under `property` as item-level messages (`Item 2 (file): …`, the shape of the other list errors):
 * - not an object path at all (traversal, absolute, backslashes, NUL, percent-encoding, …): not valid;
 * - a path of another business, or one never issued: `Invalid path "…" - object does not exist.`, the same
 *   words for both;
 * - issued but the bytes never arrived: not uploaded yet; beyond the size limit: too large;
 * - attached already (also after a `PUT` to its upload URL following the attach), or given twice.
 * The first time a path the server has not seen uploaded is named (an S3 upload, which goes to the store
 * directly), its bytes are sealed ({@link sealUpload}): from then on the path stands for exactly those bytes.
 * The count limit of 30 is checked when attaching ({@link attachFiles}).
 *
 * @returns the entries to attach, in request order (only meaningful when nothing was added to `errors`)
 */
export async function checkFileSet(
  db: Db,
  ctx: FileContext,
  businessId: number,
  entries: readonly FileSetEntryInput[],
  errors: ErrorCollector,
  property = 'fileSet',
): Promise<CheckedFile[]> {
  const own = entries.map((e) => {
    const parsed = parseObjectPath(e.file);
    return parsed && parsed.businessId === businessId ? e.file : undefined;
  });
  const rows = new Map(
    (
      await repo.findByPaths(
        db,
        businessId,
        own.filter((p) => p !== undefined),
      )
    ).map((r) => [r.path, r]),
  );
  const attached = await repo.findAttachedFileIds(
    db,
    businessId,
    [...rows.values()].map((r) => r.id),
  );
  const seen = new Set<string>();
  const out: CheckedFile[] = [];
  for (const [i, entry] of entries.entries()) {
    const problem = (message: string) => errors.add([property], `Item ${i + 1} (file): ${message}`);
    if (parseObjectPath(entry.file) === undefined) {
      problem('Not a valid file path. Use the `path` returned by POST /v1/presigned.');
      continue;
    }
    const row = own[i] === undefined ? undefined : rows.get(entry.file);
    if (!row) {
      problem(messages.invalidPath(entry.file));
      continue;
    }
    if (seen.has(row.path)) {
      problem('The same file is given more than once.');
      continue;
    }
    seen.add(row.path);
    if (attached.has(row.id)) {
      problem('This file is attached already.');
      continue;
    }
    if (row.uploaded_at === null) {
      const message = await sealUpload(db, ctx, businessId, row.path);
      if (message) {
        problem(message);
        continue;
      }
    }
    out.push({ fileId: row.id, name: entry.name });
  }
  return out;
}

/**
 * Seals an upload the server has not recorded yet (`Storage.seal`): checks that its bytes arrived and fit
 * the size limit, fixes them (S3: a copy under `attached/` that no URL can write) and records size, time
 * and the key they are served from. Of two requests sealing one upload at once, the first record wins and
 * the other's copy is removed (and one that finds the upload object gone because the other removed it takes
 * the file as sealed). Once recorded, the upload object itself is removed when the bytes are served
 * from elsewhere, so the upload path counts as consumed: a later `PUT` to its URL is an orphan the server
 * never reads. Storage failures while removing are logged, not answered.
 * @returns the problem of the entry (not uploaded, too large, kept changing), or `undefined` when sealed
 */
async function sealUpload(db: Db, ctx: FileContext, businessId: number, path: string): Promise<string | undefined> {
  const sealed = await ctx.storage.seal(path, { maxBytes: ctx.files.maxUploadBytes });
  if (sealed.status === 'missing') {
    // A request that sealed the upload at the same time removes the upload object once its copy is
    // recorded: then the file is sealed, not missing (the attach decides which request gets it).
    const [row] = await repo.findByPaths(db, businessId, [path]);
    return row?.uploaded_at != null ? undefined : `The file at "${path}" has not been uploaded yet.`;
  }
  if (sealed.status === 'too_large') return `The file is larger than ${ctx.files.maxUploadBytes} bytes.`;
  if (sealed.status === 'changed')
    return `The file at "${path}" kept changing while it was being attached. Attach it again.`;
  const storedPath = sealed.path === path ? null : sealed.path;
  const won = await repo.recordSeal(db, businessId, path, { size: sealed.size, storedPath }, nowTimestamp());
  if (storedPath !== null) {
    if (!won) await deleteQuietly(ctx, storedPath, 'could not remove the copy of an upload sealed by another request');
    await deleteQuietly(ctx, path, 'could not remove a sealed upload');
  }
  return undefined;
}

/** Removes an object, logging (not throwing) a storage failure. */
async function deleteQuietly(ctx: Pick<FileContext, 'storage' | 'log'>, path: string, message: string): Promise<void> {
  try {
    await ctx.storage.delete(path);
  } catch (err) {
    ctx.log?.warn({ err, path }, message);
  }
}

/**
 * Attaches checked files to an inquiry, after the ones it holds (POST sets, PATCH appends;
 * docs/api.md#attachments). Call inside the transaction that writes the inquiry, after locking it; `held` is
 * how many files the inquiry holds, when the caller read that under the lock already (else it is counted).
 * @throws ValidationError on `fileSet` when the inquiry would hold more than 30 files (docs/api.md#attachments), or
 *   when another request attached one of the files since it was checked (each file is attached at most once)
 */
export async function attachFiles(
  db: Db,
  businessId: number,
  inquiryId: number,
  files: readonly CheckedFile[],
  held?: number,
): Promise<void> {
  if (files.length === 0) return;
  const existing = held ?? (await repo.countInquiryFiles(db, businessId, inquiryId));
  if (existing + files.length > MAX_FILES_PER_INQUIRY) {
    throw ValidationError.at(
      ['fileSet'],
      `An inquiry holds at most ${MAX_FILES_PER_INQUIRY} files: this one has ${existing}, and ${files.length} more were sent.`,
    );
  }
  try {
    await repo.insertInquiryFiles(db, businessId, inquiryId, files, nowTimestamp());
  } catch (err) {
    // Another request attached one of these files after this one checked them: the same answer as when the
    // check sees it (a file is attached at most once), not a 500.
    if (isUniqueViolation(err, 'inquiry_file_business_file_uq', ['inquiry_file.business_id', 'inquiry_file.file_id'])) {
      throw ValidationError.at(
        ['fileSet'],
        'A file of this request is attached already (by another request at the same time).',
      );
    }
    throw err;
  }
}

/** Download URLs are signed per window of this many seconds (or of the lifetime, when that is shorter). */
export const DOWNLOAD_URL_WINDOW_SECONDS = 60;

/**
 * When a download URL asked for at `nowMs` is signed, and for how long: at the start of the current window,
 * for the lifetime plus one window. So every read within one window returns the same URL (responses stay
 * identical and cacheable), and each URL is valid at least `ttlSeconds` after it was handed out and at most
 * one window longer (never beyond 7 days, the S3 maximum).
 */
export function downloadUrlWindow(
  ttlSeconds: number,
  nowMs = Date.now(),
): { signedAt: number; expiresInSeconds: number } {
  const window = Math.min(DOWNLOAD_URL_WINDOW_SECONDS, ttlSeconds);
  const now = Math.floor(nowMs / 1000);
  return { signedAt: now - (now % window), expiresInSeconds: Math.min(ttlSeconds + window, 604800) };
}

/**
 * An inquiry's attached files as one JSON column of the caller's query, `inquiryId` an expression of it
 * (`sql.ref('inquiry.id')`): the rows of the `fileSet` before their download URLs are signed, so the
 * inquiry's full shape is one statement and no URL is signed inside a write transaction (the lean write
 * path, docs/api.md#events). Map the column with {@link toStoredFiles}, sign with {@link signFileSet}.
 */
export function inquiryFilesJson(
  db: Db,
  businessId: number,
  inquiryId: Expression<number>,
): RawBuilder<StoredFilesJson> {
  return jsonArrayOf(db, repo.inquiryFilesQuery(db, businessId, inquiryId)) as unknown as RawBuilder<StoredFilesJson>;
}

/** The column of {@link inquiryFilesJson} (opaque: map it with {@link toStoredFiles}). */
export type StoredFilesJson = { readonly storedFilesJson: unique symbol };

/** An attached file before its download URL is signed: `fileSet`'s `{id, name, created}` and the object to sign. */
export interface StoredFile {
  id: number;
  name: string;
  created: string;
  path: string;
  storedPath: string | null;
  contentType: string;
}

/** Maps the column of {@link inquiryFilesJson} (text on SQLite, parsed JSON on PostgreSQL) to its files, in the order attached. */
export function toStoredFiles(column: StoredFilesJson): StoredFile[] {
  const rows =
    fromJsonColumn<
      { id: number; name: string; created: string; path: string; stored_path: string | null; content_type: string }[]
    >(column);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    created: jsonTimestamp(r.created),
    path: r.path,
    storedPath: r.stored_path,
    contentType: r.content_type,
  }));
}

/**
 * The `fileSet` of an inquiry's full shape from its stored files: `{id, name, file, created}`, `file` a
 * pre-signed download URL valid for `files.downloadUrlTtlSeconds` (1 hour by default; see
 * {@link downloadUrlWindow}). Sign outside write transactions where the shape allows, once per answer.
 */
export async function signFileSet(ctx: FileContext, files: readonly StoredFile[]): Promise<InquiryFile[]> {
  if (files.length === 0) return [];
  const window = downloadUrlWindow(ctx.files.downloadUrlTtlSeconds);
  return Promise.all(
    files.map(async (f) => ({
      id: f.id,
      name: f.name,
      file: await ctx.storage.presignDownload(f.storedPath ?? f.path, {
        ...window,
        origin: ctx.origin,
        name: f.name,
        contentType: f.contentType,
      }),
      created: f.created,
    })),
  );
}

/** A file {@link detachInquiryFile} took off an inquiry: the objects to remove once that is committed. */
export interface DetachedFile {
  path: string;
  storedPath: string | null;
}

/**
 * Detaches file `fileId` (an id of the inquiry's `fileSet`) from the inquiry and forgets the upload, in the
 * caller's transaction, which has locked the inquiry (`DELETE /v1/inquiry/{inquiry_id}/file/{file_id}`; the
 * inquiry module writes its `inquiry.updated` event, docs/api.md#events). Remove the objects with
 * {@link removeDetachedObjects} after the commit.
 * @returns the detached file, or `undefined` when the id is not one of this inquiry's files (another
 *   inquiry's, another business's, or already deleted)
 */
export async function detachInquiryFile(
  trx: Db,
  businessId: number,
  inquiryId: number,
  fileId: number,
): Promise<DetachedFile | undefined> {
  const row = await repo.findInquiryFileById(trx, businessId, inquiryId, fileId);
  if (!row) return undefined;
  if ((await repo.deleteInquiryFileById(trx, businessId, inquiryId, fileId)) === 0) return undefined;
  await repo.deleteById(trx, businessId, row.file_id);
  return { path: row.path, storedPath: row.stored_path };
}

/**
 * Removes the objects of a detached file: the sealed copy it was served from, and the upload key, where an
 * orphan of a late `PUT` may sit. Call after the detach is committed; a storage failure is logged, not
 * thrown (the file is gone from the API either way).
 */
export async function removeDetachedObjects(
  ctx: Pick<FileContext, 'storage' | 'log'>,
  file: DetachedFile,
): Promise<void> {
  await deleteQuietly(ctx, file.storedPath ?? file.path, 'could not remove the object of a deleted attachment');
  if (file.storedPath !== null)
    await deleteQuietly(ctx, file.path, 'could not remove the upload key of a deleted attachment');
}

/**
 * Ids of the files attached to an inquiry (the `fileSet` ids), in no particular order.
 *
 * @public reached through the composition root (src/services.ts) by the transfer module.
 */
export async function inquiryFileIds(db: Db, businessId: number, inquiryId: number): Promise<number[]> {
  return repo.findInquiryFileIds(db, businessId, inquiryId);
}

/** An object {@link storeRestoredObject} stored, to attach with {@link restoreInquiryFile}. */
export interface RestoredObject {
  path: string;
  size: number;
  contentType: string;
}

/**
 * Stores the bytes of an imported attachment (docs/deployment.md#11-moving-a-business-in-and-out) under a
 * new object path of the business. The extension (and so the media type it is served with) comes from
 * `name`, else from `fallbackName` (the source's object path or URL).
 * @throws ValidationError when neither name has one of the allowed extensions; PayloadTooLarge beyond
 *   `files.maxUploadBytes`
 *
 * @public reached through the composition root (src/services.ts) by the transfer module.
 */
export async function storeRestoredObject(
  ctx: FileContext,
  businessId: number,
  name: string,
  bytes: Uint8Array,
  fallbackName = '',
): Promise<RestoredObject> {
  const extension = extensionOf(name) ?? extensionOf(fallbackName.split('?')[0] ?? '');
  if (!extension)
    throw ValidationError.at(
      ['fileSet'],
      `File "${name}": its extension is not one of ${ALLOWED_EXTENSIONS.join(', ')}.`,
    );
  const path = newObjectPath(businessId, extension);
  const stored = await ctx.storage.put(path, Buffer.from(bytes), { maxBytes: ctx.files.maxUploadBytes });
  return { path, size: stored.size, contentType: mediaTypeOf(extension) };
}

/**
 * Attaches a stored object ({@link storeRestoredObject}) to an inquiry as a restored `fileSet` entry
 * (src/shared/restore.ts): under the entry's source `id` where no attachment has that id, else a new one;
 * `name` and `created` as given (`created` missing or unreadable: the current instant). Quiet: no event. Call in the transaction that records the id.
 * @returns the attachment's id here
 *
 * @public reached through the composition root (src/services.ts) by the transfer module.
 */
export async function restoreInquiryFile(
  trx: Db,
  businessId: number,
  inquiryId: number,
  entry: { id: number; name: string; created?: string | undefined },
  object: RestoredObject,
): Promise<number> {
  const created = restoredTimestamp(entry.created);
  const fileId = await repo.insert(trx, businessId, {
    path: object.path,
    name: entry.name,
    content_type: object.contentType,
    size: object.size,
    created,
    expires_at: created,
    upload_started_at: created,
    uploaded_at: created,
  });
  const explicit = await canKeepId(trx, 'inquiry_file', entry.id);
  const id = await repo.insertInquiryFileWithId(trx, businessId, inquiryId, {
    id: explicit ? entry.id : undefined,
    fileId,
    name: entry.name,
    created,
  });
  if (explicit) await advanceIdSequence(trx, 'inquiry_file');
  return id;
}
