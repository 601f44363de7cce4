/**
 * Routes of `/v1/todo` (docs/api.md#todos; status codes: docs/api.md#responses-and-status-codes). "Now" comes
 * from the app's clock (`app.clock`), which `dDay` and completion times use.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { readCursor, toPageBody } from '../../shared/pagination.ts';
import { notFoundBeforeValidation } from '../../shared/route-hooks.ts';
import { commonErrorResponses } from '../../shared/schemas.ts';
import * as schemas from './todo.schemas.ts';
import * as service from './todo.service.ts';

const tags = ['todo'];

const DDAY = '`dDay` is `dueDate` minus today in the business time zone, in days (0 today, negative when overdue).';

const todoRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/todo',
    {
      schema: {
        tags,
        operationId: 'todo_list',
        summary: 'List todos',
        description: `Todos, newest first, in the short shape. \`due_date_start\` / \`due_date_end\` are an inclusive range on \`dueDate\`; \`inquiry_id\` narrows to one inquiry; \`is_complete\`: true only complete, false only open. \`updated_start\` / \`updated_end\` (extension) select by the last change, inclusive: a date in the business time zone or a date-time with an offset. Todos of a deleted inquiry are gone with it. ${DDAY}`,
        querystring: schemas.TodoListQuery,
        response: { 200: schemas.TodoPage, ...commonErrorResponses },
      },
    },
    async (request) => {
      const page = await service.list(
        app.db,
        request.auth,
        request.query,
        readCursor(request, request.query.cursor),
        app.clock(),
      );
      return toPageBody(request, page);
    },
  );

  app.post(
    '/todo',
    {
      schema: {
        tags,
        operationId: 'todo_create',
        'x-events': ['todo.created'],
        summary: 'Create a todo',
        description:
          'Required: `inquiry` (a live inquiry of the business), `type` (M meeting, CA call, MS message, E other), `dueDate`, `action` (at most 2048 characters). Optional: `inCharge` (a member `{id}`), `dueTime` (`HH:MM[:SS]`), `actionHistory`. A new todo is open (`isComplete` false). The response is the short shape (no `completedInCharge`, no `actionHistory`).',
        body: schemas.TodoCreateBody,
        response: { 201: schemas.TodoCreated, ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      const todo = await service.create(app.db, request.auth, request.body, app.clock());
      return reply.code(201).send(todo);
    },
  );

  app.get(
    '/todo/:todo_id',
    {
      schema: {
        tags,
        operationId: 'todo_retrieve',
        summary: 'Retrieve a todo',
        description: `The full shape, with \`completedInCharge\` and \`actionHistory\`. ${DDAY}`,
        params: schemas.TodoIdParams,
        response: { 200: schemas.TodoDetail, ...commonErrorResponses },
      },
    },
    async (request) => service.retrieve(app.db, request.auth, request.params.todo_id, app.clock()),
  );

  app.patch(
    '/todo/:todo_id',
    {
      ...notFoundBeforeValidation('todo_id', (auth, id) => service.exists(app.db, auth, id)),
      schema: {
        tags,
        operationId: 'todo_partial_update',
        'x-events': ['todo.updated'],
        summary: 'Update a todo',
        description:
          'Partial update; `inquiry` cannot be changed (it is ignored). `isComplete: true` marks the todo complete and sets `completedAt` to now unless it is given; `isComplete: false` reopens it and clears `completedAt` and `completedInCharge` (sending a non-null one with it is a 400). `completedAt` and `completedInCharge` can be set only on a complete todo.',
        params: schemas.TodoIdParams,
        body: schemas.TodoUpdateBody,
        response: { 200: schemas.TodoDetail, ...commonErrorResponses },
      },
    },
    async (request) => service.partialUpdate(app.db, request.auth, request.params.todo_id, request.body, app.clock()),
  );

  app.delete(
    '/todo/:todo_id',
    {
      schema: {
        tags,
        operationId: 'todo_destroy',
        'x-events': ['todo.deleted'],
        summary: 'Delete a todo',
        description: 'Permanent deletion: the todo is removed from the database.',
        params: schemas.TodoIdParams,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      await service.destroy(app.db, request.auth, request.params.todo_id);
      return reply.code(204).send(null);
    },
  );
};

export default todoRoutes;
