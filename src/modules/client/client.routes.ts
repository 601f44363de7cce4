/** Routes of `/v1/client` (docs/api.md#clients; status codes: docs/api.md#responses-and-status-codes). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { readCursor, toPageBody } from '../../shared/pagination.ts';
import { notFoundBeforeValidation } from '../../shared/route-hooks.ts';
import { commonErrorResponses } from '../../shared/schemas.ts';
import * as schemas from './client.schemas.ts';
import type { ClientService } from './client.service.ts';

const tags = ['client'];

/** `service`: the client service the composition root built (src/services.ts). */
const clientRoutes: FastifyPluginAsyncTypebox<{ service: ClientService }> = async (app, { service }) => {
  app.get(
    '/client',
    {
      schema: {
        tags,
        operationId: 'client_list',
        summary: 'List clients',
        description:
          'Clients, newest first. `search` (repeatable, all terms must match) is a case-insensitive substring of company name, contact person, contact or e-mail. `created_start` / `created_end` are inclusive dates in the business time zone. `is_hidden`: true only hidden, false only visible, omitted all.',
        querystring: schemas.ClientListQuery,
        response: { 200: schemas.ClientPage, ...commonErrorResponses },
      },
    },
    async (request) => {
      const page = await service.list(app.db, request.auth, request.query, readCursor(request, request.query.cursor));
      return toPageBody(request, page);
    },
  );

  app.post(
    '/client',
    {
      schema: {
        tags,
        operationId: 'client_create',
        'x-events': ['client.created'],
        summary: 'Create a client',
        description:
          'Only `companyName` is required. Without `status` the business default client status is assigned. No notification is sent.',
        body: schemas.ClientCreateBody,
        response: { 201: schemas.ClientCreated, ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      const client = await service.create(app.db, request.auth, request.body);
      return reply.code(201).send(client);
    },
  );

  app.get(
    '/client/:client_id',
    {
      schema: {
        tags,
        operationId: 'client_retrieve',
        summary: 'Retrieve a client',
        params: schemas.ClientIdParams,
        response: { 200: schemas.ClientDetail, ...commonErrorResponses },
      },
    },
    async (request) => service.retrieve(app.db, request.auth, request.params.client_id),
  );

  app.patch(
    '/client/:client_id',
    {
      // 404 before 400, looked up only for an invalid request: the service's locking read is the happy path's check.
      ...notFoundBeforeValidation('client_id', (auth, id) => service.exists(app.db, auth, id), {
        onlyWhenInvalid: true,
      }),
      schema: {
        tags,
        operationId: 'client_partial_update',
        'x-events': ['client.updated', 'inquiry.updated', 'contract.updated'],
        summary: 'Update a client',
        description:
          'Partial update: only the properties sent change. `fieldSet` sets the fields it names and keeps the others; an empty value clears one. A status change records no history.',
        params: schemas.ClientIdParams,
        body: schemas.ClientUpdateBody,
        response: { 200: schemas.ClientDetail, ...commonErrorResponses },
      },
    },
    async (request) =>
      service.partialUpdate(app.db, request.auth, request.params.client_id, request.body, request.fileContext),
  );

  app.delete(
    '/client/:client_id',
    {
      schema: {
        tags,
        operationId: 'client_destroy',
        'x-events': ['client.deleted', 'inquiry.updated', 'contract.updated'],
        summary: 'Delete a client',
        description: 'Soft delete: the client disappears from lists and reads, and its id answers 404 from then on.',
        params: schemas.ClientIdParams,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      await service.destroy(app.db, request.auth, request.params.client_id, request.fileContext);
      return reply.code(204).send(null);
    },
  );
};

export default clientRoutes;
