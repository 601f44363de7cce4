/**
 * The local storage's signed URLs (docs/api.md#attachments), served by this server outside `/v1` (the URL
 * itself is the credential; no API key):
 *
 * - `PUT /files/{business_id}/{object}?expires&signature`: the single upload of an object issued by
 *   `POST /v1/presigned`. Streamed to disk, at most `BIZAPI_UPLOAD_MAX_BYTES` (413 beyond). A tampered,
 *   expired or already used URL: 403 in the DRF shape.
 * - `GET /files/{business_id}/{object}?expires&name&signature`: the bytes of an attached file, with the media
 *   type of its extension and `Content-Disposition: attachment` naming the file. Tampered or expired: 403;
 *   a deleted file: 404.
 *
 * Registered only when the storage is local; with S3 the URLs point at the store.
 */
import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import Type from 'typebox';
import type { FilesConfig } from '../../config.ts';
import { NotFound, PayloadTooLarge, PermissionDenied } from '../../shared/errors.ts';
import { ErrorDetail } from '../../shared/schemas.ts';
import { compileValidator, type HttpPart } from '../../shared/validation-errors.ts';
import { contentDisposition } from './content-disposition.ts';
import { ALLOWED_EXTENSIONS, mediaTypeOf } from './file-types.ts';
import * as service from './file.service.ts';
import { LOCAL_FILES_PREFIX, type LocalStorage, type UrlCheck } from './local-storage.ts';
import { parseObjectPath } from './object-path.ts';

/** Options of {@link storageRoutes}. */
export interface StorageRoutesOptions {
  storage: LocalStorage;
  files: FilesConfig;
}

const Params = Type.Object({
  business_id: Type.String({ pattern: '^[1-9][0-9]{0,9}$', description: 'The business part of the object path.' }),
  object: Type.String({
    pattern: `^[0-9a-f]{32}\\.(${ALLOWED_EXTENSIONS.join('|')})$`,
    description: 'The rest of the object path: 32 hex digits and the extension.',
  }),
});

const SignedQuery = Type.Object({
  expires: Type.Optional(Type.String({ description: 'Expiry of the URL, in Unix seconds.' })),
  signature: Type.Optional(Type.String({ description: 'The URL’s signature (HMAC-SHA256, base64url).' })),
});

const DownloadQuery = Type.Object({
  ...SignedQuery.properties,
  name: Type.Optional(Type.String({ description: 'File name offered in `Content-Disposition`.' })),
});

const errors = {
  403: { ...ErrorDetail, description: 'The URL is tampered with, expired, or (upload) already used.' },
  404: { ...ErrorDetail, description: 'No such object (for example a deleted attachment).' },
};

/** The 403 for a URL that did not check out. */
function refuse(check: Exclude<UrlCheck, 'valid'>, what: 'upload' | 'download'): PermissionDenied {
  return check === 'expired'
    ? new PermissionDenied(`This ${what} URL has expired.`, 'url_expired')
    : new PermissionDenied(`This ${what} URL is not valid (its signature does not match).`, 'url_invalid');
}

const storageRoutes: FastifyPluginAsyncTypebox<StorageRoutesOptions> = async (app, opts) => {
  const { storage, files } = opts;

  // Bodies are the file bytes, in any media type: the handler streams them to disk itself.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  app.put(
    `${LOCAL_FILES_PREFIX}/:business_id/:object`,
    {
      // The body is a stream, not a document: nothing to validate (the schema only documents it).
      validatorCompiler: ({ schema, httpPart }) =>
        httpPart === 'body' ? () => true : compileValidator(schema, httpPart as HttpPart),
      schema: {
        tags: ['file'],
        operationId: 'files_update',
        summary: 'Upload the bytes of a file (pre-signed URL)',
        description: [
          'Extension (the reference service hands out S3 URLs instead). The `url` returned by `POST /v1/presigned` when the server stores files itself (`BIZAPI_STORAGE=local`, the default). No API key: the URL is the credential.',
          '',
          `Send the raw file bytes as the body, with any \`Content-Type\`. Accepts exactly one successful upload, until the URL expires (${files.uploadUrlTtlSeconds} s). Larger than ${files.maxUploadBytes} bytes: 413. Tampered, expired or already used URL: 403. Answers 200 with an \`ETag\` (the MD5 of the bytes), as S3 does.`,
        ].join('\n'),
        security: [],
        'x-extension': true,
        consumes: ['application/octet-stream'],
        params: Params,
        querystring: SignedQuery,
        body: Type.String({ format: 'binary', description: 'The file bytes.', examples: ['%PDF-1.7 …'] }),
        response: {
          200: { type: 'null', description: 'Stored. `ETag` holds the MD5 of the bytes.' },
          403: errors[403],
          404: errors[404],
          413: { ...ErrorDetail, description: `The file is larger than ${files.maxUploadBytes} bytes.` },
        },
      },
    },
    async (request, reply) => {
      const objectPath = `${request.params.business_id}/${request.params.object}`;
      const check = storage.checkUrl('PUT', objectPath, request.query);
      const raw = request.raw;
      try {
        if (check !== 'valid') throw refuse(check, 'upload');
        const declared = Number(request.headers['content-length'] ?? 0);
        if (declared > files.maxUploadBytes) throw new PayloadTooLarge(files.maxUploadBytes);
        const body = (request.body as unknown as Readable | undefined) ?? Buffer.alloc(0);
        const stored = await service.receiveUpload(app.db, storage, files.maxUploadBytes, objectPath, body);
        // An empty body, as S3 answers (the response schema only documents it).
        return (reply as FastifyReply).code(200).header('ETag', `"${stored.md5}"`).send();
      } catch (err) {
        // Whatever was not read stays unread: close the connection after the error and discard the rest.
        if (!raw.readableEnded) {
          reply.header('Connection', 'close');
          raw.resume();
        }
        throw err;
      }
    },
  );

  app.get(
    `${LOCAL_FILES_PREFIX}/:business_id/:object`,
    {
      schema: {
        tags: ['file'],
        operationId: 'files_retrieve',
        summary: 'Download an attached file (pre-signed URL)',
        description: `Extension (the reference service hands out S3 URLs instead). The \`file\` URL of a \`fileSet\` item when the server stores files itself. No API key: the URL is the credential; it expires ${files.downloadUrlTtlSeconds} s (\`BIZAPI_DOWNLOAD_URL_TTL\`) after the start of the minute it was signed in, plus one minute, so that every read within a minute carries the same URL. Answers the bytes with the media type of the file's extension and \`Content-Disposition: attachment\`. Tampered or expired: 403; a deleted file: 404.`,
        security: [],
        'x-extension': true,
        params: Params,
        querystring: DownloadQuery,
        response: {
          200: {
            description: 'The file bytes.',
            content: {
              'application/octet-stream': { schema: Type.String({ format: 'binary' }), example: '%PDF-1.7 …' },
            },
          },
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const objectPath = `${request.params.business_id}/${request.params.object}`;
      const parsed = parseObjectPath(objectPath);
      if (!parsed) throw new NotFound();
      const check = storage.checkUrl('GET', objectPath, request.query);
      if (check !== 'valid') throw refuse(check, 'download');
      const opened = await storage.open(objectPath);
      if (!opened) throw new NotFound();
      const remaining = Math.max(0, Number(request.query.expires) - Math.floor(Date.now() / 1000));
      return reply
        .code(200)
        .header('Content-Type', mediaTypeOf(parsed.extension))
        .header('Content-Length', String(opened.size))
        .header('Content-Disposition', contentDisposition(request.query.name || objectPath.split('/')[1]!))
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        .header('Cache-Control', `private, max-age=${remaining}`)
        .send(opened.stream as never);
    },
  );
};

export default storageRoutes;
