/**
 * Routes of attachments under `/v1` (reference: Presigned upload, Inquiry file delete; decisions §7
 * "Files"): `POST /v1/presigned`. The signed upload and download URLs of the local storage are served
 * outside `/v1` by `storage.routes.ts`.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FilesConfig } from '../../config.ts';
import { commonErrorResponses } from '../../shared/schemas.ts';
import * as schemas from './file.schemas.ts';
import * as service from './file.service.ts';
import { ALLOWED_EXTENSIONS } from './file-types.ts';

/** Options of {@link fileRoutes}. */
export interface FileRoutesOptions {
  files: FilesConfig;
}

/**
 * The {@link service.FileContext} of a request: the app's storage, the limits, and the origin the client
 * reached the API at (so local storage URLs point back to this server).
 */
export function fileContextOf(app: FastifyInstance, files: FilesConfig, request: FastifyRequest): service.FileContext {
  return { storage: app.storage, files, origin: `${request.protocol}://${request.host}` };
}

const fileRoutes: FastifyPluginAsyncTypebox<FileRoutesOptions> = async (app, opts) => {
  app.post(
    '/presigned',
    {
      schema: {
        tags: ['file'],
        operationId: 'createPresigned',
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
      const presigned = await service.createPresigned(app.db, fileContextOf(app, opts.files, request), request.auth, request.body);
      return reply.code(201).send(presigned);
    },
  );
};

export default fileRoutes;
