/** Route of `/v1/log/` (docs/api.md#api-call-log). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readCursor, toPageBody } from '../../shared/pagination.ts';
import { commonErrorResponses } from '../../shared/schemas.ts';
import * as schemas from './log.schemas.ts';
import * as service from './log.service.ts';

const logRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/log/',
    {
      schema: {
        tags: ['log'],
        operationId: 'log_list',
        summary: 'List API calls',
        description:
          'The calls made with this business’s keys in the last 14 days, newest first, whatever their status (a bad signature included). The OpenAPI document and the docs UI are never logged, nor are calls that did not authenticate. No header values are stored; bodies over 64 KiB are stored truncated. Calls appear within about a second (the log is written in batches).',
        querystring: schemas.LogListQuery,
        response: { 200: schemas.LogPage, ...commonErrorResponses },
      },
    },
    async (request) => {
      const page = await service.list(app.db, request.auth, request.query, readCursor(request, request.query.cursor));
      return toPageBody(request, page);
    },
  );
};

export default logRoutes;
