/**
 * Routes of a record's notes, `…/{parent_id}/history` and `…/{parent_id}/history/{history_id}`
 * (docs/api.md#contracts, docs/api.md#settlements). {@link noteRoutes} builds the five operations for one parent
 * resource; {@link contractNoteRoutes} and {@link settlementNoteRoutes} are the two the application registers,
 * each right after its parent's routes.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import { readCursor, toPageBody } from '../../shared/pagination.ts';
import { notFoundBeforeValidation } from '../../shared/route-hooks.ts';
import { commonErrorResponses, IdParam } from '../../shared/schemas.ts';
import * as schemas from './note.schemas.ts';
import * as service from './note.service.ts';
import { CONTRACT_NOTES, SETTLEMENT_NOTES } from './note.repository.ts';
import type { Db } from '../../db/database.ts';

/** Where a parent's notes live and how the operations are named. */
export interface NoteRoutesOptions {
  /** Path of the parent record, e.g. `/contract/:contract_id`. */
  parentPath: string;
  /** Its id parameter, e.g. `contract_id`. */
  param: string;
  /** Resource name in summaries, e.g. `Contract`; lower-cased, it begins the operation ids (`contract_history_list`). */
  resource: string;
  /** OpenAPI tag. */
  tag: string;
  /** Where its notes are stored and what their events are named. */
  parent: Omit<service.NoteParent, 'exists'>;
}

/**
 * What the note plugin of a parent resource is registered with (app.ts, from src/services.ts): whether parent
 * record `id` of the business exists (the parent's service `exists`).
 */
export interface NoteParentOptions {
  parentExists: (db: Db, auth: { businessId: number }, id: number) => Promise<boolean>;
}

/** Builds the plugin with the five note operations of one parent resource. */
export function noteRoutes(options: NoteRoutesOptions): FastifyPluginAsyncTypebox<NoteParentOptions> {
  const { parentPath, param, resource, tag } = options;
  const tags = [tag];
  const lower = resource.toLowerCase();
  const ParentParams = Type.Object({ [param]: IdParam });
  const NoteParams = Type.Object({ [param]: IdParam, history_id: IdParam });
  const parentIdOf = (request: FastifyRequest) => (request.params as Record<string, number>)[param]!;
  const noteIdOf = (request: FastifyRequest) => (request.params as Record<string, number>).history_id!;

  return async (app, { parentExists }) => {
    const parent: service.NoteParent = {
      ...options.parent,
      exists: (db, businessId, id) => parentExists(db, { businessId }, id),
    };
    // 404 before 400 (docs/api.md#estimate-items): the parent missing (create), or the parent or its note (update).
    const parentFirst = notFoundBeforeValidation(param, (auth, parentId) =>
      parent.exists(app.db, auth.businessId, parentId!),
    );
    const noteFirst = notFoundBeforeValidation([param, 'history_id'], (auth, parentId, noteId) =>
      service.exists(app.db, auth, parent, parentId!, noteId!),
    );
    app.get(
      `${parentPath}/history`,
      {
        schema: {
          tags,
          operationId: `${lower}_history_list`,
          summary: `List the notes of a ${lower}`,
          description: `Text notes on the ${lower}, newest first by \`created\`. A ${lower} that does not exist answers 404.`,
          params: ParentParams,
          querystring: schemas.NoteListQuery,
          response: { 200: schemas.NotePage, ...commonErrorResponses },
        },
      },
      async (request) => {
        const page = await service.list(
          app.db,
          request.auth,
          parent,
          parentIdOf(request),
          request.query,
          readCursor(request, request.query.cursor),
        );
        return toPageBody(request, page);
      },
    );

    app.post(
      `${parentPath}/history`,
      {
        ...parentFirst,
        schema: {
          tags,
          operationId: `${lower}_history_create`,
          'x-events': [`${parent.resource}.created`],
          summary: `Add a note to a ${lower}`,
          description:
            '`content` (1..5000 characters) is required. `created` defaults to now (any offset is accepted; it is stored in UTC); `member` `{id}` names the member who wrote it.',
          params: ParentParams,
          body: schemas.NoteCreateBody,
          response: { 201: schemas.NoteCreated, ...commonErrorResponses },
        },
      },
      async (request, reply) => {
        const note = await service.create(app.db, request.auth, parent, parentIdOf(request), request.body);
        return reply.code(201).send(note);
      },
    );

    app.get(
      `${parentPath}/history/:history_id`,
      {
        schema: {
          tags,
          operationId: `${lower}_history_retrieve`,
          summary: `Retrieve a note of a ${lower}`,
          params: NoteParams,
          response: { 200: schemas.NoteDetail, ...commonErrorResponses },
        },
      },
      async (request) => service.retrieve(app.db, request.auth, parent, parentIdOf(request), noteIdOf(request)),
    );

    app.patch(
      `${parentPath}/history/:history_id`,
      {
        ...noteFirst,
        schema: {
          tags,
          operationId: `${lower}_history_partial_update`,
          'x-events': [`${parent.resource}.updated`],
          summary: `Update a note of a ${lower}`,
          description: 'Partial update of `content` and `created`; the member is not writable.',
          params: NoteParams,
          body: schemas.NoteUpdateBody,
          response: { 200: schemas.NoteDetail, ...commonErrorResponses },
        },
      },
      async (request) =>
        service.partialUpdate(app.db, request.auth, parent, parentIdOf(request), noteIdOf(request), request.body),
    );

    app.delete(
      `${parentPath}/history/:history_id`,
      {
        schema: {
          tags,
          operationId: `${lower}_history_destroy`,
          'x-events': [`${parent.resource}.deleted`],
          summary: `Delete a note of a ${lower}`,
          description: 'Removes the note for good.',
          params: NoteParams,
          response: { 204: Type.Null({ description: 'Deleted.' }), ...commonErrorResponses },
        },
      },
      async (request, reply) => {
        await service.destroy(app.db, request.auth, parent, parentIdOf(request), noteIdOf(request));
        return reply.code(204).send(null);
      },
    );
  };
}

/** The notes of contracts: `/v1/contract/{contract_id}/history[/{history_id}]` (docs/api.md#contracts). */
export const contractNoteRoutes = noteRoutes({
  parentPath: '/contract/:contract_id',
  param: 'contract_id',
  resource: 'Contract',
  tag: 'contract',
  parent: { target: CONTRACT_NOTES, resource: 'contract.history' },
});

/** The notes of settlements: `/v1/settlement/{settlement_id}/history[/{history_id}]` (docs/api.md#settlements). */
export const settlementNoteRoutes = noteRoutes({
  parentPath: '/settlement/:settlement_id',
  param: 'settlement_id',
  resource: 'Settlement',
  tag: 'settlement',
  parent: { target: SETTLEMENT_NOTES, resource: 'settlement.history' },
});
