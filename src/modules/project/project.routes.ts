/**
 * Routes of `/v1/project` (docs/api.md#projects-and-workers, docs/api.md#plans; status codes:
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
import * as schemas from './project.schemas.ts';
import * as service from './project.service.ts';

const tags = ['project'];
const config = { plans: PROJECT_WORKER_PLANS };

const projectRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/project',
    {
      config,
      schema: {
        tags,
        operationId: 'project_list',
        summary: 'List projects',
        description:
          'Projects, newest first. `status` narrows to one status; `contract_id` to the projects of one contract; `is_hidden`: true only hidden, false only visible, omitted all. `start_date_start` / `start_date_end` and `end_date_start` / `end_date_end` are inclusive date ranges on `startDate` and `endDate` (a project without that date never matches). `updated_start` / `updated_end` (extension) select by the last change, inclusive: a date in the business time zone or a date-time with an offset.',
        querystring: schemas.ProjectListQuery,
        response: { 200: schemas.ProjectPage, ...commonErrorResponses },
      },
    },
    async (request) => {
      const page = await service.list(app.db, request.auth, request.query, readCursor(request, request.query.cursor));
      return toPageBody(request, page);
    },
  );

  app.post(
    '/project',
    {
      config,
      schema: {
        tags,
        operationId: 'project_create',
        'x-events': ['project.created'],
        summary: 'Create a project',
        description:
          'Only `title` is required. `contract` links a contract of the business `{id}` (answered as its summary). `status` defaults to `U` (scheduled), `isHidden` to false. `actualEndDate` cannot be set on create (it is ignored); set it with PATCH.',
        body: schemas.ProjectCreateBody,
        response: { 201: schemas.ProjectCreated, ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      const project = await service.create(app.db, request.auth, request.body);
      return reply.code(201).send(project);
    },
  );

  app.get(
    '/project/:project_id',
    {
      config,
      schema: {
        tags,
        operationId: 'project_retrieve',
        summary: 'Retrieve a project',
        params: schemas.ProjectIdParams,
        response: { 200: schemas.ProjectDetail, ...commonErrorResponses },
      },
    },
    async (request) => service.retrieve(app.db, request.auth, request.params.project_id),
  );

  app.patch(
    '/project/:project_id',
    {
      config,
      ...notFoundBeforeValidation('project_id', (auth, id) => service.exists(app.db, auth, id)),
      schema: {
        tags,
        operationId: 'project_partial_update',
        'x-events': ['project.updated'],
        summary: 'Update a project',
        description:
          'Partial update: only the properties sent change; `null` clears a nullable one (`contract: null` unlinks the contract). `actualEndDate` is settable only here.',
        params: schemas.ProjectIdParams,
        body: schemas.ProjectUpdateBody,
        response: { 200: schemas.ProjectDetail, ...commonErrorResponses },
      },
    },
    async (request) => service.partialUpdate(app.db, request.auth, request.params.project_id, request.body),
  );

  app.delete(
    '/project/:project_id',
    {
      config,
      schema: {
        tags,
        operationId: 'project_destroy',
        'x-events': ['project.deleted'],
        summary: 'Delete a project',
        description: 'Soft delete: the project disappears from lists and reads, and its id answers 404 from then on.',
        params: schemas.ProjectIdParams,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      await service.destroy(app.db, request.auth, request.params.project_id);
      return reply.code(204).send(null);
    },
  );
};

export default projectRoutes;
