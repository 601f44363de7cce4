/**
 * Routes of `/v1/settlement` and its status history (docs/api.md#settlements; the status history:
 * docs/api.md#extensions; status codes: docs/api.md#responses-and-status-codes). Its notes, `/v1/settlement/{settlement_id}/history`, are the note
 * module's (`note.routes.ts`).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { readCursor, toPageBody } from '../../shared/pagination.ts';
import { notFoundBeforeValidation } from '../../shared/route-hooks.ts';
import { commonErrorResponses } from '../../shared/schemas.ts';
import * as schemas from './settlement.schemas.ts';
import * as service from './settlement.service.ts';

const tags = ['settlement'];

const settlementRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/settlement',
    {
      schema: {
        tags,
        operationId: 'settlement_list',
        summary: 'List settlements',
        description:
          'Settlements, newest first, in the list shape. `search` (repeatable, all terms must match) is a case-insensitive substring of the title, the type alias or the contract’s title. `contract_id` keeps one contract’s settlements. `created_start` / `created_end` compare the creation date in the business time zone; `due_date_start` / `due_date_end` and `settled_date_start` / `settled_date_end` the settlement dates; all inclusive. `is_hidden`: true only hidden, false only visible, omitted all.',
        querystring: schemas.SettlementListQuery,
        response: { 200: schemas.SettlementPage, ...commonErrorResponses },
      },
    },
    async (request) => {
      const page = await service.list(app.db, request.auth, request.query, readCursor(request, request.query.cursor));
      return toPageBody(request, page);
    },
  );

  app.post(
    '/settlement',
    {
      schema: {
        tags,
        operationId: 'settlement_create',
        'x-events': ['settlement.created'],
        summary: 'Create a settlement',
        description:
          '`title` (1..128), `amount`, `additionalAmount`, `vat` (integers ≥ 0), `contract` and `type` are required. Refused with 400: the OUTSTANDING_PAYMENT type (`OUT`) and a type that does not allow multiple rounds when the contract already has a settlement of it (except `ADD`), on `type.id`; a contract without both a start and an end date, or a suspended contract (`T`), on `nonField`. `settlementRound` defaults to one more than the settlements of the type on the contract; `typeAlias` is the type’s title, followed by the round for multi-round types. The status starts at `C` (scheduled). Answers the list shape.',
        body: schemas.SettlementCreateBody,
        response: { 201: schemas.SettlementCreated, ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      const settlement = await service.create(app.db, request.auth, request.body);
      return reply.code(201).send(settlement);
    },
  );

  app.get(
    '/settlement/:settlement_id',
    {
      schema: {
        tags,
        operationId: 'settlement_retrieve',
        summary: 'Retrieve a settlement',
        description:
          'The full shape, with the round, the tax invoice properties, the type, `inChargeSet` and `isHidden` (extension).',
        params: schemas.SettlementIdParams,
        response: { 200: schemas.SettlementDetail, ...commonErrorResponses },
      },
    },
    async (request) => service.retrieve(app.db, request.auth, request.params.settlement_id),
  );

  app.patch(
    '/settlement/:settlement_id',
    {
      ...notFoundBeforeValidation('settlement_id', (auth, id) => service.exists(app.db, auth, id)),
      schema: {
        tags,
        operationId: 'settlement_partial_update',
        'x-events': ['settlement.updated'],
        summary: 'Update a settlement',
        description:
          'Partial update: only the properties sent change; `inChargeSet` replaces the whole set. `contract`, `type` and `settlementRound` cannot be changed. `status` is writable (extension): every change writes a row to the status history (`GET /v1/settlement/{settlement_id}/status_history`).',
        params: schemas.SettlementIdParams,
        body: schemas.SettlementUpdateBody,
        response: { 200: schemas.SettlementDetail, ...commonErrorResponses },
      },
    },
    async (request) => service.partialUpdate(app.db, request.auth, request.params.settlement_id, request.body),
  );

  app.delete(
    '/settlement/:settlement_id',
    {
      schema: {
        tags,
        operationId: 'settlement_destroy',
        'x-events': ['settlement.history.deleted', 'settlement.deleted'],
        summary: 'Delete a settlement',
        description: 'Deletes the settlement for good, together with its status history and notes.',
        params: schemas.SettlementIdParams,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      await service.destroy(app.db, request.auth, request.params.settlement_id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/settlement/:settlement_id/status_history',
    {
      schema: {
        tags,
        'x-extension': true,
        operationId: 'settlement_status_history_list',
        summary: 'List the status changes of a settlement',
        description:
          'Extension: every change of the settlement’s `status`, newest first, as `{id, status, previousStatus, member, created}`; `member` is null for changes made through the API.',
        params: schemas.SettlementIdParams,
        querystring: schemas.SettlementStatusQuery,
        response: { 200: schemas.SettlementStatusPage, ...commonErrorResponses },
      },
    },
    async (request) => {
      const page = await service.listStatusHistory(
        app.db,
        request.auth,
        request.params.settlement_id,
        request.query,
        readCursor(request, request.query.cursor),
      );
      return toPageBody(request, page);
    },
  );
};

export default settlementRoutes;
