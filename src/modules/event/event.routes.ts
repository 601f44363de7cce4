/** Routes of `/v1/event` (docs/api.md#events; extension). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readCursor, toPageBody } from '../../shared/pagination.ts';
import { commonErrorResponses } from '../../shared/schemas.ts';
import * as schemas from './event.schemas.ts';
import * as service from './event.service.ts';

const tags = ['event'];

const eventRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/event',
    {
      schema: {
        tags,
        operationId: 'event_list',
        summary: 'List events',
        description:
          'Extension. Every create, change and delete of the business’s records, newest first, kept 30 days. `type` (repeatable) keeps any of the given types; `created_start` / `created_end` are inclusive: a date in the business time zone or a date-time with an offset. With `after_sequence=N`: only the events whose `sequence` is greater than N, **oldest first** — store the last `sequence` processed and ask for the events after it to follow the feed without missing or reordering a committed change (polling by `created` or `updated` can miss a change that commits late).',
        'x-extension': true,
        querystring: schemas.EventListQuery,
        response: { 200: schemas.EventPage, ...commonErrorResponses },
      },
    },
    async (request) => {
      const page = await service.list(app.db, request.auth, request.query, readCursor(request, request.query.cursor));
      return toPageBody(request, page);
    },
  );

  app.get(
    '/event/:event_id',
    {
      schema: {
        tags,
        operationId: 'event_retrieve',
        summary: 'Retrieve an event',
        'x-extension': true,
        params: schemas.EventIdParams,
        response: { 200: schemas.EventDetail, ...commonErrorResponses },
      },
    },
    async (request) => service.retrieve(app.db, request.auth, request.params.event_id),
  );
};

export default eventRoutes;
