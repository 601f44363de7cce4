/**
 * Routes of `/v1/estimate/item` (docs/api.md#estimate-items for the operations, their ids and statuses;
 * docs/api.md#responses-and-status-codes). No plan restriction. `/estimate/item/classification` is a literal path: the router matches
 * it before the `{item_id}` parameter, so it is never read as an item id.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { readCursor, toPageBody } from '../../shared/pagination.ts';
import { notFoundBeforeValidation } from '../../shared/route-hooks.ts';
import { commonErrorResponses } from '../../shared/schemas.ts';
import * as schemas from './estimate.schemas.ts';
import * as service from './estimate.service.ts';

const tags = ['estimate'];

const estimateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/estimate/item',
    {
      schema: {
        tags,
        operationId: 'estimate_item_list',
        summary: 'List estimate items',
        description:
          'Estimate item templates, newest first. `search` (repeatable, all terms must match) is a case-insensitive substring of the title or the description. `updated_start` / `updated_end` (extension) select by the last change, inclusive: a date in the business time zone or a date-time with an offset.',
        querystring: schemas.EstimateItemListQuery,
        response: { 200: schemas.EstimateItemPage, ...commonErrorResponses },
      },
    },
    async (request) => {
      const page = await service.list(app.db, request.auth, request.query, readCursor(request, request.query.cursor));
      return toPageBody(request, page);
    },
  );

  app.post(
    '/estimate/item',
    {
      schema: {
        tags,
        operationId: 'estimate_item_create',
        'x-events': ['estimate.item.created'],
        summary: 'Create an estimate item',
        description:
          '`title` (1..256), `unitCost` (a decimal string, up to 28 integer digits and 2 decimals, negative for a discount) and `unit` (1..8) are required. `description` is null or 1..2048 characters; `classification` a classification `{id}` or null.',
        body: schemas.EstimateItemCreateBody,
        response: { 201: schemas.EstimateItemCreated, ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      const item = await service.create(app.db, request.auth, request.body);
      return reply.code(201).send(item);
    },
  );

  app.get(
    '/estimate/item/classification',
    {
      schema: {
        tags,
        operationId: 'estimate_item_classification_list',
        summary: 'List estimate item classifications',
        description:
          "Classifications `{id, title}` in their configured order (the catalog file's `estimateItemClassifications`). `search` (repeatable, all terms must match) is a case-insensitive substring of the title.",
        querystring: schemas.EstimateItemClassificationListQuery,
        response: { 200: schemas.EstimateItemClassificationPage, ...commonErrorResponses },
      },
    },
    async (request) => {
      const page = await service.listClassifications(
        app.db,
        request.auth,
        request.query,
        readCursor(request, request.query.cursor),
      );
      return toPageBody(request, page);
    },
  );

  app.get(
    '/estimate/item/:item_id',
    {
      schema: {
        tags,
        operationId: 'estimate_item_retrieve',
        summary: 'Retrieve an estimate item',
        params: schemas.EstimateItemIdParams,
        response: { 200: schemas.EstimateItemDetail, ...commonErrorResponses },
      },
    },
    async (request) => service.retrieve(app.db, request.auth, request.params.item_id),
  );

  app.patch(
    '/estimate/item/:item_id',
    {
      ...notFoundBeforeValidation('item_id', (auth, id) => service.exists(app.db, auth, id)),
      schema: {
        tags,
        operationId: 'estimate_item_partial_update',
        'x-events': ['estimate.item.updated'],
        summary: 'Update an estimate item',
        description:
          'Partial update: only the properties sent change. `description: null` and `classification: null` clear them.',
        params: schemas.EstimateItemIdParams,
        body: schemas.EstimateItemUpdateBody,
        response: { 200: schemas.EstimateItemDetail, ...commonErrorResponses },
      },
    },
    async (request) => service.partialUpdate(app.db, request.auth, request.params.item_id, request.body),
  );

  app.delete(
    '/estimate/item/:item_id',
    {
      schema: {
        tags,
        operationId: 'estimate_item_destroy',
        'x-events': ['estimate.item.deleted'],
        summary: 'Delete an estimate item',
        description: 'Permanent delete: the item is removed, and its id answers 404 from then on.',
        params: schemas.EstimateItemIdParams,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      await service.destroy(app.db, request.auth, request.params.item_id);
      return reply.code(204).send(null);
    },
  );
};

export default estimateRoutes;
