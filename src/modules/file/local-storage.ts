/**
 * The default storage: files under `<BIZAPI_DATA_DIR>/files`, with pre-signed URLs that this server serves
 * itself (`storage.routes.ts`), in the manner of S3's query-string authentication:
 *
 *   PUT {origin}/files/{path}?expires={unix seconds}&signature={token}
 *   GET {origin}/files/{path}?expires={unix seconds}&name={file name}&signature={token}
 *
 * `token` = base64url HMAC-SHA256 of `METHOD \n path \n expires \n name` under a key derived from the master
 * key, compared in constant time. Paths are checked by `parseObjectPath` and resolved inside the root; a
 * file is written to a temporary file first and renamed into place, so an object is complete or absent.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createWriteStream, type ReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PayloadTooLarge } from '../../shared/errors.ts';
import { parseObjectPath } from './object-path.ts';
import type { PresignDownloadOptions, PresignUploadOptions, SealResult, Storage, StoredObject } from './storage.ts';

/** URL prefix of the local storage's signed routes. */
export const LOCAL_FILES_PREFIX = '/files';

/** The outcome of checking a signed URL. */
export type UrlCheck = 'valid' | 'invalid' | 'expired';

/** The query parameters of a signed URL, as received. */
export interface SignedQuery {
  expires?: unknown;
  signature?: unknown;
  name?: unknown;
}

const SIGNATURE_LENGTH = 43; // base64url of 32 bytes, without padding

/** Local file-system storage; see the module comment. */
export class LocalStorage implements Storage {
  readonly kind = 'local';
  /** Absolute directory every object lives under. */
  readonly root: string;
  private readonly key: Buffer;

  /**
   * @param root directory of the objects (created on first write)
   * @param masterKey the installation's master key; the URL signing key is derived from it
   */
  constructor(root: string, masterKey: Buffer) {
    this.root = path.resolve(root);
    this.key = createHmac('sha256', masterKey).update('bizapi local storage url v1').digest();
  }

  /**
   * The absolute file of an object path.
   * @throws Error when the path is not a valid object path or would leave the root (never for paths the
   *   server issued)
   */
  private fileOf(objectPath: string): string {
    if (!parseObjectPath(objectPath)) throw new Error('Invalid object path');
    const file = path.resolve(this.root, objectPath);
    if (!file.startsWith(this.root + path.sep)) throw new Error('Object path outside the storage root');
    return file;
  }

  /** The signature token of one URL. */
  private token(method: 'GET' | 'PUT', objectPath: string, expires: number, name: string): string {
    return createHmac('sha256', this.key).update(`${method}\n${objectPath}\n${expires}\n${name}`).digest('base64url');
  }

  private expiry(expiresInSeconds: number): number {
    return Math.floor(Date.now() / 1000) + expiresInSeconds;
  }

  async presignUpload(objectPath: string, options: PresignUploadOptions): Promise<string> {
    this.fileOf(objectPath);
    const expires = this.expiry(options.expiresInSeconds);
    const signature = this.token('PUT', objectPath, expires, '');
    return `${options.origin}${LOCAL_FILES_PREFIX}/${objectPath}?expires=${expires}&signature=${signature}`;
  }

  async presignDownload(objectPath: string, options: PresignDownloadOptions): Promise<string> {
    this.fileOf(objectPath);
    const expires = (options.signedAt ?? Math.floor(Date.now() / 1000)) + options.expiresInSeconds;
    const signature = this.token('GET', objectPath, expires, options.name);
    return `${options.origin}${LOCAL_FILES_PREFIX}/${objectPath}?expires=${expires}&name=${encodeURIComponent(options.name)}&signature=${signature}`;
  }

  /**
   * Checks a signed URL: the signature (constant time) first, then the expiry. A URL for a method, path,
   * expiry or name other than the signed ones is `invalid`; a valid one past its expiry is `expired`.
   */
  checkUrl(method: 'GET' | 'PUT', objectPath: string, query: SignedQuery): UrlCheck {
    const expiresText = typeof query.expires === 'string' ? query.expires : '';
    const given = typeof query.signature === 'string' ? query.signature : '';
    const name = method === 'GET' && typeof query.name === 'string' ? query.name : '';
    const expires = /^\d{1,12}$/.test(expiresText) ? Number(expiresText) : -1;
    const expected = Buffer.from(this.token(method, objectPath, expires, name));
    const ok =
      given.length === SIGNATURE_LENGTH
        ? timingSafeEqual(expected, Buffer.from(given))
        : (timingSafeEqual(expected, expected), false);
    if (!ok || expires < 0 || parseObjectPath(objectPath) === undefined) return 'invalid';
    return Math.floor(Date.now() / 1000) > expires ? 'expired' : 'valid';
  }

  async put(
    objectPath: string,
    body: Readable | Buffer,
    options: { maxBytes: number },
  ): Promise<{ size: number; md5: string }> {
    const target = this.fileOf(objectPath);
    const tmpDir = path.join(this.root, '.tmp');
    // Directories 0700, files 0600: only the server's user reads attachments (docs/deployment.md#files-on-disk).
    await fs.mkdir(tmpDir, { recursive: true, mode: 0o700 });
    await fs.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    const tmp = path.join(tmpDir, randomBytes(16).toString('hex'));
    const hash = createHash('md5');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (size > options.maxBytes) {
          callback(new PayloadTooLarge(options.maxBytes));
          return;
        }
        hash.update(chunk);
        callback(null, chunk);
      },
    });
    // The source is piped, not handed to pipeline(): a refused upload must not destroy the request (the
    // 413 still has to be answered); the caller drains or closes it.
    const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
    const onError = (err: Error) => meter.destroy(err);
    const onClose = () => {
      if (!source.readableEnded) meter.destroy(new Error('The upload was aborted.'));
    };
    source.once('error', onError);
    source.once('close', onClose);
    source.pipe(meter);
    const out = createWriteStream(tmp, { flags: 'wx', mode: 0o600 });
    try {
      await pipeline(meter, out);
      await fs.rename(tmp, target);
    } catch (err) {
      source.unpipe(meter);
      // A stream destroyed while its file is still being opened creates the file afterwards: wait for the
      // close, so the temporary file exists (or never will) before it is removed.
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
      await fs.rm(tmp, { force: true });
      throw err;
    } finally {
      source.off('error', onError);
      source.off('close', onClose);
    }
    return { size, md5: hash.digest('hex') };
  }

  /**
   * Opens an object for reading.
   * @returns a stream of the bytes and their size, or `undefined` when nothing is stored there
   */
  async open(objectPath: string): Promise<{ stream: ReadStream; size: number } | undefined> {
    const file = this.fileOf(objectPath);
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(file, 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    const { size } = await handle.stat();
    return { stream: handle.createReadStream(), size };
  }

  async exists(objectPath: string): Promise<StoredObject | undefined> {
    try {
      const stat = await fs.stat(this.fileOf(objectPath));
      return stat.isFile() ? { size: stat.size } : undefined;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  /**
   * Nothing to copy: the upload URL accepted a single `PUT` (`storage.routes.ts` claims it), so the object
   * at the upload path cannot change any more. Reports its size, or `missing` / `too_large`.
   */
  async seal(uploadPath: string, options: { maxBytes: number }): Promise<SealResult> {
    const stored = await this.exists(uploadPath);
    if (!stored) return { status: 'missing' };
    if (stored.size > options.maxBytes) return { status: 'too_large', size: stored.size };
    return { status: 'sealed', size: stored.size, path: uploadPath };
  }

  async delete(objectPath: string): Promise<void> {
    await fs.rm(this.fileOf(objectPath), { force: true });
  }
}
