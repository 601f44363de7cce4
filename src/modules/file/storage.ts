/**
 * Object storage behind one small interface (decisions §7 "Files"): the local file system under the data
 * directory by default (the server itself serves the signed URLs, see `storage.routes.ts`), or any
 * S3-compatible store when `BIZAPI_STORAGE=s3`.
 *
 * Paths are the strict object paths of `object-path.ts`.
 */
import type { Readable } from 'node:stream';
import type { Config } from '../../config.ts';
import { LocalStorage } from './local-storage.ts';

/** What the storage knows about a stored object. */
export interface StoredObject {
  /** Size in bytes. */
  size: number;
}

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
  /** The stored object, or `undefined` when nothing is stored at `path`. */
  exists(path: string): Promise<StoredObject | undefined>;
  /** Removes the object; removing a missing object is not an error. */
  delete(path: string): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Where attachment bytes live (decisions §7 "Files"). */
    storage: Storage;
  }
}

/**
 * The storage the configuration names: an `S3Storage` when `BIZAPI_STORAGE=s3` (the AWS SDK is loaded only
 * then), else a {@link LocalStorage} rooted at `<BIZAPI_DATA_DIR>/files` whose URLs are signed with a key
 * derived from the master key (so every process sharing the master key and the directory accepts them).
 */
export async function createStorage(config: Pick<Config, 'storage' | 's3' | 'dataDir'>, masterKey: Buffer): Promise<Storage> {
  if (config.storage === 's3' && config.s3) {
    const { S3Storage } = await import('./s3-storage.ts');
    return new S3Storage(config.s3);
  }
  return new LocalStorage(`${config.dataDir}/files`, masterKey);
}
