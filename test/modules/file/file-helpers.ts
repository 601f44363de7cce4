/**
 * Helpers of the attachment tests: a test app whose data directory (and so its local storage) is a fresh
 * temporary directory, and the steps of the upload flow through HTTP.
 */
import { createHash } from 'node:crypto';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { S3Storage, s3ClientConfig } from '../../../src/modules/file/s3-storage.ts';
import { buildTestApp, TEST_MASTER_KEY_HEX, type TestApp } from '../../setup/build-test-app.ts';
import { openTestDb } from '../../setup/test-db.ts';
import type { TestBusiness } from '../../setup/factories.ts';
import { apiClient } from '../../setup/api-client.ts';

/** A test app and its data directory (a temporary one, see `buildTestApp`), where the local storage lives. */
export interface FileTestApp extends TestApp {
  dataDir: string;
}

/** Builds the test app (plus `env`), on the local storage under its temporary data directory. */
export async function buildFileTestApp(env: Record<string, string> = {}): Promise<FileTestApp> {
  const t = await buildTestApp(env);
  return { ...t, dataDir: t.config.dataDir };
}

/** `POST /v1/presigned {name}` for `b`; fails the test unless it answers 201. */
export async function presign(
  app: FastifyInstance,
  b: TestBusiness,
  name = 'proposal.pdf',
): Promise<{ url: string; path: string }> {
  const res = await apiClient(app).call(b, { method: 'POST', url: '/v1/presigned', body: { name } });
  if (res.status !== 201) throw new Error(`presign answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as { url: string; path: string };
}

/** The path and query of an absolute URL, for `app.inject`. */
export function local(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}

/** `PUT`s bytes to a pre-signed URL (no API key, as a browser or curl would). */
export async function put(
  app: FastifyInstance,
  url: string,
  bytes: Buffer | string,
  headers: Record<string, string> = { 'content-type': 'application/pdf' },
): Promise<LightMyRequestResponse> {
  return apiClient(app).raw(undefined, { method: 'PUT', url: local(url), raw: { payload: bytes }, headers });
}

/** `GET`s a pre-signed download URL. */
export async function get(app: FastifyInstance, url: string): Promise<LightMyRequestResponse> {
  return apiClient(app).raw(undefined, { method: 'GET', url: local(url) });
}

/** Presigns and uploads `bytes` for `b`; returns the path. */
export async function upload(
  app: FastifyInstance,
  b: TestBusiness,
  name = 'proposal.pdf',
  bytes: Buffer | string = '%PDF-1.7 test',
): Promise<string> {
  const { url, path: p } = await presign(app, b, name);
  const res = await put(app, url, bytes);
  if (res.statusCode !== 200) throw new Error(`upload answered ${res.statusCode}: ${res.body}`);
  return p;
}

/** Creates an inquiry (asserting 201) and returns its id. */
export async function createInquiry(
  app: FastifyInstance,
  b: TestBusiness,
  body: Record<string, unknown> = {},
): Promise<number> {
  const res = await apiClient(app).call(b, { method: 'POST', url: '/v1/inquiry', body });
  if (res.status !== 201) throw new Error(`POST /v1/inquiry answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id as number;
}

/** `GET /v1/inquiry/{id}` (asserting 200) and returns its `fileSet`. */
export async function fileSetOf(
  app: FastifyInstance,
  b: TestBusiness,
  inquiryId: number,
): Promise<{ id: number; name: string; file: string; created: string }[]> {
  const res = await apiClient(app).call(b, { method: 'GET', url: `/v1/inquiry/${inquiryId}` });
  if (res.status !== 200)
    throw new Error(`GET /v1/inquiry/${inquiryId} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.fileSet;
}

/** An inquiry of `b` holding one uploaded file; returns both ids and the path. */
export async function inquiryWithFile(
  app: FastifyInstance,
  b: TestBusiness,
  bytes = '%PDF-1.7 owned',
): Promise<{ inquiryId: number; fileId: number; path: string }> {
  const p = await upload(app, b, 'owned.pdf', bytes);
  const inquiryId = await createInquiry(app, b, { fileSet: [{ name: 'owned.pdf', file: p }] });
  const [file] = await fileSetOf(app, b, inquiryId);
  return { inquiryId, fileId: file!.id, path: p };
}

/** A test app on `BIZAPI_STORAGE=s3` whose S3 client answers from `objects` instead of the network. */
export interface S3TestApp extends TestApp {
  /** The store's content: object key → bytes. Tests add keys to simulate uploads (or use {@link s3Put}). */
  objects: Map<string, Buffer>;
  /** The commands the client was asked to send, in order. */
  sent: object[];
  /** Called with each command before the stub answers it (a test can change the store in between). */
  beforeSend?: (command: object) => void;
}

/** The stub store's ETag of some bytes: the quoted hex MD5, as S3 gives for a single-part upload. */
function etagOf(bytes: Buffer): string {
  return `"${createHash('md5').update(bytes).digest('hex')}"`;
}

function s3Error(name: string, httpStatusCode: number): Error {
  return Object.assign(new Error(name), { name, $metadata: { httpStatusCode } });
}

/**
 * Builds the app with S3 storage (bucket `bizapi-test` at `https://s3.example.com`, path style). No
 * S3-compatible store is reachable from the tests, so the SDK client's `send` is replaced by a small
 * in-memory store, {@link S3TestApp.objects}: HeadObject answers size and ETag (404 for a missing key),
 * CopyObject copies (404 for a missing source, 412 when `CopySourceIfMatch` does not match), DeleteObject
 * and PutObject change it. Pre-signing stays the real SDK presigner (it needs no network).
 */
export async function buildS3TestApp(env: Record<string, string> = {}): Promise<S3TestApp> {
  const testDb = await openTestDb();
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    BIZAPI_MASTER_KEY: TEST_MASTER_KEY_HEX,
    BIZAPI_STORAGE: 's3',
    S3_BUCKET: 'bizapi-test',
    S3_ENDPOINT: 'https://s3.example.com',
    S3_FORCE_PATH_STYLE: 'true',
    S3_ACCESS_KEY_ID: 'AKIATEST',
    S3_SECRET_ACCESS_KEY: 'test-secret',
    ...env,
    DATABASE_URL: testDb.url,
  });
  const objects = new Map<string, Buffer>();
  const sent: object[] = [];
  const built: { app?: S3TestApp } = {}; // the app being built, for its beforeSend hook
  const client = new S3Client(s3ClientConfig(config.s3!));
  const send = async (command: object): Promise<unknown> => {
    sent.push(command);
    built.app?.beforeSend?.(command);
    if (command instanceof HeadObjectCommand) {
      const bytes = objects.get(command.input.Key!);
      if (bytes === undefined) throw s3Error('NotFound', 404);
      return { ContentLength: bytes.length, ETag: etagOf(bytes) };
    }
    if (command instanceof CopyObjectCommand) {
      const source = command.input.CopySource!;
      if (!source.startsWith('bizapi-test/')) throw s3Error('NoSuchBucket', 404);
      const bytes = objects.get(source.slice('bizapi-test/'.length));
      if (bytes === undefined) throw s3Error('NoSuchKey', 404);
      if (command.input.CopySourceIfMatch !== undefined && command.input.CopySourceIfMatch !== etagOf(bytes)) {
        throw s3Error('PreconditionFailed', 412);
      }
      objects.set(command.input.Key!, bytes);
      return { CopyObjectResult: { ETag: etagOf(bytes) } };
    }
    if (command instanceof DeleteObjectCommand) objects.delete(command.input.Key!);
    if (command instanceof PutObjectCommand) objects.set(command.input.Key!, command.input.Body as Buffer);
    return {};
  };
  Object.assign(client, { send });
  const masterKey = config.masterKey!;
  const app = await buildApp(config, { db: testDb.db, masterKey, storage: new S3Storage(config.s3!, client) });
  await app.ready();
  const result: S3TestApp = {
    app,
    testDb,
    config,
    masterKey,
    objects,
    sent,
    close: async () => {
      await app.close();
      await testDb.close();
    },
  };
  built.app = result;
  return result;
}

/**
 * The object key a pre-signed URL of the stub store points at, or `undefined` when it is not a URL of the
 * test bucket or has expired (`X-Amz-Date` + `X-Amz-Expires`), which S3 would refuse with 403.
 */
function keyOfS3Url(url: string): string | undefined {
  const u = new URL(url);
  if (u.origin !== 'https://s3.example.com' || !u.pathname.startsWith('/bizapi-test/')) return undefined;
  const date = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(u.searchParams.get('X-Amz-Date') ?? '');
  const expires = Number(u.searchParams.get('X-Amz-Expires'));
  if (!date || !u.searchParams.get('X-Amz-Signature')) return undefined;
  const signedAt = Date.UTC(+date[1]!, +date[2]! - 1, +date[3]!, +date[4]!, +date[5]!, +date[6]!);
  if (Date.now() > signedAt + expires * 1000) return undefined;
  return decodeURIComponent(u.pathname.slice('/bizapi-test/'.length));
}

/**
 * The client's `PUT` of `bytes` to a pre-signed S3 upload URL, which the store receives directly (the API
 * server never sees it): like S3, the stub stores the bytes at the URL's key, replacing what is there, as
 * often as asked until the URL expires.
 * @returns 200, or 403 for a URL S3 would refuse (see {@link keyOfS3Url})
 */
export function s3Put(s3: S3TestApp, url: string, bytes: Buffer | string): number {
  const key = keyOfS3Url(url);
  if (key === undefined) return 403;
  s3.objects.set(key, Buffer.from(bytes));
  return 200;
}

/** The store's answer to a `GET` of a pre-signed download URL: the bytes, or `undefined` (404 or 403). */
export function s3Get(s3: S3TestApp, url: string): Buffer | undefined {
  const key = keyOfS3Url(url);
  return key === undefined ? undefined : s3.objects.get(key);
}
