/**
 * Helpers of the attachment tests: a test app whose data directory (and so its local storage) is a fresh
 * temporary directory, and the steps of the upload flow through HTTP.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import type { TestBusiness } from '../../setup/factories.ts';
import { sendJson } from '../../setup/signed-request.ts';

/** A test app with its own storage directory, removed on close. */
export interface FileTestApp extends TestApp {
  dataDir: string;
}

/** Builds the app with `BIZAPI_DATA_DIR` in a new temporary directory (plus `env`). */
export async function buildFileTestApp(env: Record<string, string> = {}): Promise<FileTestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-files-'));
  const t = await buildTestApp({ BIZAPI_DATA_DIR: dataDir, ...env });
  return {
    ...t,
    dataDir,
    close: async () => {
      await t.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `POST /v1/presigned {name}` for `b`; fails the test unless it answers 201. */
export async function presign(app: FastifyInstance, b: TestBusiness, name = 'proposal.pdf'): Promise<{ url: string; path: string }> {
  const res = await sendJson(app, b, { method: 'POST', url: '/v1/presigned', body: { name } });
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
  return app.inject({ method: 'PUT', url: local(url), payload: bytes, headers });
}

/** `GET`s a pre-signed download URL. */
export async function get(app: FastifyInstance, url: string): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'GET', url: local(url) });
}

/** Presigns and uploads `bytes` for `b`; returns the path. */
export async function upload(app: FastifyInstance, b: TestBusiness, name = 'proposal.pdf', bytes: Buffer | string = '%PDF-1.7 test'): Promise<string> {
  const { url, path: p } = await presign(app, b, name);
  const res = await put(app, url, bytes);
  if (res.statusCode !== 200) throw new Error(`upload answered ${res.statusCode}: ${res.body}`);
  return p;
}
