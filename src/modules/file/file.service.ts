/**
 * Attachments (decisions §7 "Files"; reference: Presigned upload, Inquiry `fileSet`, file delete):
 * issuing pre-signed upload URLs, receiving the single upload of the local storage, checking and attaching
 * `fileSet` entries, listing an inquiry's files with expiring download URLs, and deleting one.
 */
import type { Readable } from 'node:stream';
import type { FilesConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { nowTimestamp } from '../../db/sql-helpers.ts';
import { NotFound, PermissionDenied, ValidationError } from '../../shared/errors.ts';
import type { AuthContext } from '../auth/auth.service.ts';
import { ALLOWED_EXTENSIONS, extensionOf, mediaTypeOf, rawExtensionOf } from './file-types.ts';
import * as repo from './file.repository.ts';
import type { Presigned, PresignedBody } from './file.schemas.ts';
import { newObjectPath, parseObjectPath } from './object-path.ts';
import type { Storage } from './storage.ts';

type Auth = Pick<AuthContext, 'businessId'>;

/** What the file operations need besides the database: the storage, its limits, and where URLs point. */
export interface FileContext {
  storage: Storage;
  files: FilesConfig;
  /** `protocol://host[:port]` of the API as the client reached it (local storage URLs point there). */
  origin: string;
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
