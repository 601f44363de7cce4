/**
 * Routes of attachments under `/v1` (docs/api.md#attachments): `POST /v1/presigned` and
 * `DELETE /v1/inquiry/{inquiry_id}/file/{file_id}`. The signed upload and download URLs of the local storage are
 * served outside `/v1` by `storage.routes.ts`.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { commonErrorResponses } from '../../shared/schemas.ts';
import * as schemas from './file.schemas.ts';
import * as service from './file.service.ts';
import type { FileContext } from './file.service.ts';
import type { AuthContext } from '../../shared/auth-context.ts';
import type { Db } from '../../db/database.ts';
import { ALLOWED_EXTENSIONS } from './file-types.ts';

/**
 * What the file routes are registered with (app.ts, from src/services.ts): the inquiry service's detach of one
 * file (inquiry.service `destroyFile`: the inquiry's `fileSet` and its event are the inquiry module's).
 */
export interface FileRoutesOptions {
  destroyInquiryFile: (
    db: Db,
    auth: Pick<AuthContext, 'businessId' | 'timezone'>,
    inquiryId: number,
    fileId: number,
    files: FileContext,
  ) => Promise<void>;
}

const fileRoutes: FastifyPluginAsyncTypebox<FileRoutesOptions> = async (app, { destroyInquiryFile }) => {
  const opts = { files: app.fileLimits };
  app.post(
    '/presigned',
    {
      schema: {
        tags: ['file'],
        operationId: 'presigned_create',
        'x-events': [],
        summary: 'Issue a pre-signed upload URL',
        description: [
          'Step 1 of attaching a file to an inquiry. Send the file name with its extension; the answer is a `url` and a `path`.',
          '',
          `1. \`PUT\` the file bytes to \`url\` (any \`Content-Type\`, for example the file's media type). The URL accepts exactly one upload and expires after ${opts.files.uploadUrlTtlSeconds} s (\`BIZAPI_UPLOAD_URL_TTL\`); files larger than ${opts.files.maxUploadBytes} bytes (\`BIZAPI_UPLOAD_MAX_BYTES\`) are refused.`,
          '2. Send `{"name": "<display name>", "file": "<path>"}` in `fileSet` when creating (`POST /v1/inquiry`) or updating (`PATCH /v1/inquiry/{inquiry_id}`, appends) an inquiry.',
          '',
          `Allowed extensions (any letter case): ${ALLOWED_EXTENSIONS.join(', ')}. Call once per file.`,
        ].join('\n'),
        body: schemas.PresignedBody,
        response: { 201: schemas.PresignedCreated, ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      const presigned = await service.createPresigned(app.db, request.fileContext, request.auth, request.body);
      return reply.code(201).send(presigned);
    },
  );

  app.delete(
    '/inquiry/:inquiry_id/file/:file_id',
    {
      schema: {
        tags: ['inquiry'],
        operationId: 'inquiry_file_destroy',
        'x-events': ['inquiry.updated'],
        summary: 'Delete a file of an inquiry',
        description:
          'Detaches one file (its id is `fileSet[].id` of the inquiry) and removes the stored object; its download URLs stop working. A file id of another inquiry answers 404. Writes `inquiry.updated` with `changedFields: ["fileSet"]`.',
        params: schemas.InquiryFileParams,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      await destroyInquiryFile(
        app.db,
        request.auth,
        request.params.inquiry_id,
        request.params.file_id,
        request.fileContext,
      );
      return reply.code(204).send(null);
    },
  );
};

export default fileRoutes;
