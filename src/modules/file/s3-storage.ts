/**
 * Any S3-compatible store (`BIZAPI_STORAGE=s3`): AWS S3, MinIO, Cloudflare R2, Ceph, … through
 * `@aws-sdk/client-s3`, with URLs pre-signed by `@aws-sdk/s3-request-presigner` (Signature V4, query-string
 * form). An upload's object key is its object path; an attached file's bytes live at its sealed copy's key
 * (`attached/…`, recorded as `file.stored_path`).
 *
 * What S3 enforces and what it does not: an upload URL expires (`X-Amz-Expires`), but a pre-signed `PUT`
 * can be repeated until then and carries no size limit. So the server seals an upload when a `fileSet`
 * entry first names it ({@link S3Storage.seal}): it measures the object (HeadObject: size and ETag), refuses
 * it beyond the size limit, and copies exactly those bytes (CopyObject with `CopySourceIfMatch`) to a new key
 * under `attached/` for which no URL is ever signed. The attached file is served from that copy; a later
 * `PUT` to the upload URL cannot change it. Download URLs name the file and its media type
 * (`response-content-disposition`, `response-content-type`), so the store serves them as this API decides.
 */
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Readable } from 'node:stream';
import { createHash } from 'node:crypto';
import type { S3Config } from '../../config.ts';
import { PayloadTooLarge } from '../../shared/errors.ts';
import { contentDisposition } from './content-disposition.ts';
import { newSealedPath } from './object-path.ts';
import type { PresignDownloadOptions, PresignUploadOptions, SealResult, Storage, StoredObject } from './storage.ts';

/** How many times {@link S3Storage.seal} measures and copies an object that keeps being replaced. */
const SEAL_ATTEMPTS = 3;

/** Whether an S3 error means "no such object" (404) or "the object is not the one measured" (412). */
function isGoneOrChanged(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  return e.name === 'NoSuchKey' || e.name === 'PreconditionFailed' || status === 404 || status === 412;
}

/** The S3 client configuration for the settings of `config.ts`. */
export function s3ClientConfig(config: S3Config): S3ClientConfig {
  return {
    region: config.region,
    ...(config.endpoint && { endpoint: config.endpoint }),
    forcePathStyle: config.forcePathStyle,
    ...(config.accessKeyId &&
      config.secretAccessKey && {
        credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
      }),
    // Without these the SDK adds a CRC32 checksum of an empty body to pre-signed PUT URLs, and every real
    // upload to them would fail.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

/** S3-compatible storage; see the module comment. */
export class S3Storage implements Storage {
  readonly kind = 's3';
  readonly client: S3Client;
  private readonly bucket: string;

  /**
   * @param config bucket, endpoint, region, credentials and addressing style
   * @param client a client to use instead of one built from `config` (tests pass one with a stubbed `send`)
   */
  constructor(config: S3Config, client?: S3Client) {
    this.bucket = config.bucket;
    this.client = client ?? new S3Client(s3ClientConfig(config));
  }

  async put(
    objectPath: string,
    body: Readable | Buffer,
    options: { maxBytes: number },
  ): Promise<{ size: number; md5: string }> {
    let bytes: Buffer;
    if (Buffer.isBuffer(body)) bytes = body;
    else {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > options.maxBytes) throw new PayloadTooLarge(options.maxBytes);
        chunks.push(chunk);
      }
      bytes = Buffer.concat(chunks);
    }
    if (bytes.length > options.maxBytes) throw new PayloadTooLarge(options.maxBytes);
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: objectPath, Body: bytes }));
    return { size: bytes.length, md5: createHash('md5').update(bytes).digest('hex') };
  }

  async presignUpload(objectPath: string, options: PresignUploadOptions): Promise<string> {
    return getSignedUrl(this.client, new PutObjectCommand({ Bucket: this.bucket, Key: objectPath }), {
      expiresIn: options.expiresInSeconds,
    });
  }

  async presignDownload(objectPath: string, options: PresignDownloadOptions): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: objectPath,
      ResponseContentDisposition: contentDisposition(options.name),
      ResponseContentType: options.contentType,
    });
    return getSignedUrl(this.client, command, {
      expiresIn: options.expiresInSeconds,
      ...(options.signedAt !== undefined && { signingDate: new Date(options.signedAt * 1000) }),
    });
  }

  async exists(objectPath: string): Promise<StoredObject | undefined> {
    const head = await this.head(objectPath);
    return head && { size: head.size };
  }

  /** HeadObject: size and ETag of the object, or `undefined` on 404. */
  private async head(objectPath: string): Promise<{ size: number; etag: string | undefined } | undefined> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: objectPath }));
      return { size: head.ContentLength ?? 0, etag: head.ETag };
    } catch (err) {
      const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
      if (e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404) return undefined;
      throw err;
    }
  }

  /**
   * Measures the object at `uploadPath` (HeadObject) and copies exactly the measured bytes to a new key
   * under `attached/` (CopyObject with `CopySourceIfMatch` on the measured ETag; no URL is ever signed for
   * that key). When the object is replaced or removed between the two calls (412 / 404), it measures again,
   * up to 3 times in all, and then answers `changed`. The upload object stays (the caller removes it).
   * @throws the store's other errors (access denied, unreachable)
   */
  async seal(uploadPath: string, options: { maxBytes: number }): Promise<SealResult> {
    for (let attempt = 0; attempt < SEAL_ATTEMPTS; attempt++) {
      const head = await this.head(uploadPath);
      if (!head) return { status: 'missing' };
      if (head.size > options.maxBytes) return { status: 'too_large', size: head.size };
      const target = newSealedPath(uploadPath);
      try {
        await this.client.send(
          new CopyObjectCommand({
            Bucket: this.bucket,
            Key: target,
            CopySource: `${this.bucket}/${uploadPath}`,
            ...(head.etag !== undefined && { CopySourceIfMatch: head.etag }),
          }),
        );
      } catch (err) {
        if (isGoneOrChanged(err)) continue;
        throw err;
      }
      return { status: 'sealed', size: head.size, path: target };
    }
    return { status: 'changed' };
  }

  async delete(objectPath: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: objectPath }));
  }
}
