/**
 * Security suite of the attachment routes (architecture rule 10): `POST /v1/presigned` and
 * `DELETE /v1/inquiry/{inquiry_id}/file/{file_id}` run the shared authentication tests; an upload URL of one
 * business is useless to another.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  runCommonRouteTests,
  runOtherBusinessIdTest,
  runOtherBusinessReferenceTest,
} from '../../setup/common-route-tests.ts';
import { newBusiness } from '../../setup/factories.ts';
import { buildFileTestApp, createInquiry, type FileTestApp, inquiryWithFile, presign, upload } from './file-helpers.ts';

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

  runCommonRouteTests(ctx, {
    name: 'DELETE /v1/inquiry/{inquiry_id}/file/{file_id}',
    okStatus: 204,
    request: async (_t, b) => {
      const { inquiryId, fileId } = await inquiryWithFile(t.app, b);
      return { method: 'DELETE', url: `/v1/inquiry/${inquiryId}/file/${fileId}` };
    },
  });

  runOtherBusinessIdTest(ctx, 'DELETE /v1/inquiry/{inquiry_id}/file/{file_id}', async (_t, owner) => {
    const { inquiryId, fileId } = await inquiryWithFile(t.app, owner);
    return { method: 'DELETE', url: `/v1/inquiry/${inquiryId}/file/${fileId}` };
  });

  runOtherBusinessReferenceTest(ctx, 'POST /v1/inquiry fileSet', ['fileSet'], async (_t, _caller, foreign) => ({
    method: 'POST',
    url: '/v1/inquiry',
    body: { fileSet: [{ name: 'theirs.pdf', file: await upload(t.app, foreign) }] },
  }));

  runOtherBusinessReferenceTest(
    ctx,
    'PATCH /v1/inquiry/{inquiry_id} fileSet',
    ['fileSet'],
    async (_t, caller, foreign) => ({
      method: 'PATCH',
      url: `/v1/inquiry/${await createInquiry(t.app, caller)}`,
      body: { fileSet: [{ name: 'theirs.pdf', file: await upload(t.app, foreign) }] },
    }),
  );

  it('issues paths in the caller’s own business only', async () => {
    const a = await newBusiness(t);
    const b = await newBusiness(t);
    expect((await presign(t.app, a)).path.startsWith(`${a.businessId}/`)).toBe(true);
    expect((await presign(t.app, b)).path.startsWith(`${b.businessId}/`)).toBe(true);
  });
});
