/**
 * Routes of `/v1/worker` (docs/api.md#projects-and-workers, docs/api.md#plans; status codes:
 * docs/api.md#responses-and-status-codes).
 * Every operation is plan-gated (`config.plans`: FREE or AGENCY): any other plan answers 403
 * `PLAN_PERMISSION_DENIED` before the request is validated, read or written (plugins/authenticate.ts).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { readCursor, toPageBody } from '../../shared/pagination.ts';
import { notFoundBeforeValidation } from '../../shared/route-hooks.ts';
import { commonErrorResponses } from '../../shared/schemas.ts';
import { PROJECT_WORKER_PLANS } from '../auth/auth.service.ts';
import * as schemas from './worker.schemas.ts';
import * as service from './worker.service.ts';

const tags = ['worker'];
const config = { plans: PROJECT_WORKER_PLANS };

const workerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/worker',
    {
      config,
      schema: {
        tags,
        operationId: 'worker_list',
        summary: 'List workers',
        description:
          'Live workers (deleted ones are excluded), newest first. `search` (repeatable, all terms must match) is a case-insensitive substring of the name; `position_id` narrows to one worker position; `is_hidden`: true only hidden, false only visible, omitted all. `updated_start` / `updated_end` (extension) select by the last change, inclusive: a date in the business time zone or a date-time with an offset.',
        querystring: schemas.WorkerListQuery,
        response: { 200: schemas.WorkerPage, ...commonErrorResponses },
      },
    },
    async (request) => {
      const page = await service.list(app.db, request.auth, request.query, readCursor(request, request.query.cursor));
      return toPageBody(request, page);
    },
  );

  app.post(
    '/worker',
    {
      config,
      schema: {
        tags,
        operationId: 'worker_create',
        'x-events': ['worker.created'],
        summary: 'Create a worker',
        description:
          'Only `name` (1..32 characters) is required. `position` is a worker position `{id}`; `order` and `manMonthAmount` are integers ≥ 0 (default 0); `isHidden` defaults to false.',
        body: schemas.WorkerCreateBody,
        response: { 201: schemas.WorkerCreated, ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      const worker = await service.create(app.db, request.auth, request.body);
      return reply.code(201).send(worker);
    },
  );

  app.get(
    '/worker/:worker_id',
    {
      config,
      schema: {
        tags,
        operationId: 'worker_retrieve',
        summary: 'Retrieve a worker',
        params: schemas.WorkerIdParams,
        response: { 200: schemas.WorkerDetail, ...commonErrorResponses },
      },
    },
    async (request) => service.retrieve(app.db, request.auth, request.params.worker_id),
  );

  app.patch(
    '/worker/:worker_id',
    {
      config,
      ...notFoundBeforeValidation('worker_id', (auth, id) => service.exists(app.db, auth, id)),
      schema: {
        tags,
        operationId: 'worker_partial_update',
        'x-events': ['worker.updated'],
        summary: 'Update a worker',
        description:
          'Partial update: only the properties sent change. A new `position.id` reassigns the position; `position: null` clears it.',
        params: schemas.WorkerIdParams,
        body: schemas.WorkerUpdateBody,
        response: { 200: schemas.WorkerDetail, ...commonErrorResponses },
      },
    },
    async (request) => service.partialUpdate(app.db, request.auth, request.params.worker_id, request.body),
  );

  app.delete(
    '/worker/:worker_id',
    {
      config,
      schema: {
        tags,
        operationId: 'worker_destroy',
        'x-events': ['worker.deleted'],
        summary: 'Delete a worker',
        description: 'Soft delete: the worker disappears from lists and reads, and its id answers 404 from then on.',
        params: schemas.WorkerIdParams,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      await service.destroy(app.db, request.auth, request.params.worker_id);
      return reply.code(204).send(null);
    },
  );
};

export default workerRoutes;
