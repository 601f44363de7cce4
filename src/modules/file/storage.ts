/**
 * Object storage behind one small interface (docs/api.md#attachments): the local file system under the data
 * directory by default (the server itself serves the signed URLs, see `storage.routes.ts`), or any
 * S3-compatible store when `BIZAPI_STORAGE=s3`.
 *
 * Paths are the strict object paths of `object-path.ts`.
 *
 * One `PUT` per upload URL, also once attached: the local storage's URL accepts a single `PUT` (the server
 * receives it and refuses a second one), so its uploaded object never changes. An S3 pre-signed `PUT` URL
 * can be used again until it expires; so when a `fileSet` entry first names an uploaded path,
 * {@link Storage.seal} copies the S3 object to a new key under `attached/` that no URL can write, the file
 * is served from that copy, and the upload key is removed. A later `PUT` to the upload URL then only makes
 * an orphan that is never read, listed or attached (the path counts as consumed).
 *
 * This file is the interface only; `create-storage.ts` is the factory, `local-storage.ts` and
 * `s3-storage.ts` the backends.
 */
import type { Readable } from 'node:stream';

/** What the storage knows about a stored object. */
export interface StoredObject {
  /** Size in bytes. */
  size: number;
}

/**
 * What {@link Storage.seal} found at an upload path: nothing (`missing`), an object over the size limit
 * (`too_large`, nothing copied), an object replaced again and again while being copied (`changed`), or the
 * sealed bytes (`sealed`): their size and the key they are served from (`path`; the upload path itself
 * when the storage needs no copy).
 */
export type SealResult =
  | { status: 'missing' }
  | { status: 'too_large'; size: number }
  | { status: 'changed' }
  | { status: 'sealed'; size: number; path: string };

/** Options of {@link Storage.presignUpload}. */
export interface PresignUploadOptions {
  /** Seconds the URL stays valid. */
  expiresInSeconds: number;
  /** `protocol://host[:port]` the client reached the API at; the local storage's URLs point there. */
  origin: string;
}

/** Options of {@link Storage.presignDownload}. */
export interface PresignDownloadOptions extends PresignUploadOptions {
  /**
   * The instant the URL is signed at, in Unix seconds (default: now); it expires `expiresInSeconds` later.
   * Signing at the start of a time window makes every URL of the window identical.
   */
  signedAt?: number;
  /** File name offered to the browser (`Content-Disposition: attachment`). */
  name: string;
  /** Media type the download is served with. */
  contentType: string;
}

/** The storage every file operation goes through. */
export interface Storage {
  readonly kind: 'local' | 's3';
  /**
   * Stores bytes at `path`, replacing nothing half-written: the object appears complete or not at all.
   * @returns the stored size and the hex MD5 of the bytes
   * @throws PayloadTooLarge when the bytes exceed `maxBytes` (nothing is stored)
   */
  put(path: string, body: Readable | Buffer, options: { maxBytes: number }): Promise<{ size: number; md5: string }>;
  /** An absolute URL that accepts one `PUT` of the bytes until it expires. */
  presignUpload(path: string, options: PresignUploadOptions): Promise<string>;
  /** An absolute URL that serves the bytes (`GET`) until it expires. */
  presignDownload(path: string, options: PresignDownloadOptions): Promise<string>;
  /**
   * Fixes the bytes uploaded at `uploadPath` for good, before they are attached, and says where they are
   * served from: the local storage returns the path itself (its upload URL takes one `PUT`); S3 copies the
   * object, exactly the bytes it measured (`CopySourceIfMatch` on the ETag), to a new key under `attached/`.
   * Objects over `maxBytes` are not copied. The upload object is left in place (the caller removes it once
   * the seal is recorded).
   */
  seal(uploadPath: string, options: { maxBytes: number }): Promise<SealResult>;
  /** The stored object, or `undefined` when nothing is stored at `path`. */
  exists(path: string): Promise<StoredObject | undefined>;
  /** Removes the object; removing a missing object is not an error. */
  delete(path: string): Promise<void>;
}
