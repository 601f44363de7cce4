/**
 * Security suite of the attachment routes (architecture rule 10): `POST /v1/presigned` and
 * `DELETE /v1/inquiry/{inquiry_id}/file/{file_id}` run the shared authentication tests; an upload URL of one
 * business is useless to another.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommonRouteTests } from '../../setup/common-route-tests.ts';
import { newBusiness } from '../../setup/factories.ts';
import { buildFileTestApp, type FileTestApp, presign } from './file-test-app.ts';

let t: FileTestApp;
beforeAll(async () => {
  t = await buildFileTestApp();
});
afterAll(async () => {
  await t.close();
});
const ctx = () => t;

describe('attachment routes', () => {
  runCommonRouteTests(ctx, {
    name: 'POST /v1/presigned',
    okStatus: 201,
    request: () => ({ method: 'POST', url: '/v1/presigned', body: { name: 'signed.pdf' } }),
  });

  it('issues paths in the caller’s own business only', async () => {
    const a = await newBusiness(t);
    const b = await newBusiness(t);
    expect((await presign(t.app, a)).path.startsWith(`${a.businessId}/`)).toBe(true);
    expect((await presign(t.app, b)).path.startsWith(`${b.businessId}/`)).toBe(true);
  });
});
