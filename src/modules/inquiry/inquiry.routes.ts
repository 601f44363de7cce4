/**
 * Routes of `/v1/inquiry` and `/v1/inquiry/work` (docs/api.md#inquiries; status codes:
 * docs/api.md#responses-and-status-codes).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { PlainPageQuery } from '../catalog/catalog.schemas.ts';
import { readCursor, toPageBody } from '../../shared/pagination.ts';
import { notFoundBeforeValidation } from '../../shared/route-hooks.ts';
import { commonErrorResponses } from '../../shared/schemas.ts';
import * as schemas from './inquiry.schemas.ts';
import type { InquiryService } from './inquiry.service.ts';

const tags = ['inquiry'];

/** `service`: the inquiry service the composition root built (src/services.ts). */
const inquiryRoutes: FastifyPluginAsyncTypebox<{ service: InquiryService }> = async (app, { service }) => {
  app.get(
    '/inquiry',
    {
      schema: {
        tags,
        operationId: 'inquiry_list',
        summary: 'List inquiries',
        description:
          'Inquiries, newest first; each item is the create shape plus `inChargeSet`. `search` (repeatable, all terms must match) is a case-insensitive substring of the name, the inquiry number (`uniqueId`) or the client company name. `created_start` / `created_end` compare the creation date in the business time zone, `inquiry_date_start` / `inquiry_date_end` the inquiry date (both inclusive). `folder_id` is the folder of the status. `is_hidden`: true only hidden, false only visible, omitted all. Extension: the hidden flag `isHidden` on inquiries.',
        querystring: schemas.InquiryListQuery,
        response: { 200: schemas.InquiryPage, ...commonErrorResponses },
      },
    },
    async (request) => {
      const page = await service.list(app.db, request.auth, request.query, readCursor(request, request.query.cursor));
      return toPageBody(request, page);
    },
  );

  app.post(
    '/inquiry',
    {
      schema: {
        tags,
        operationId: 'inquiry_create',
        'x-events': ['inquiry.created', 'contract.updated'],
        summary: 'Create an inquiry',
        description:
          'Every property is optional. Defaults: `status` → the default status of the default folder, `name` → `의뢰 제목`, `inquiryDate` → today in the business time zone, `estimate` → 0. `uniqueId` is assigned (the next number of the business, never reused). Writes one status-history row, and notifies the members of `inChargeSet` who have notifications on. `fileSet` attaches files uploaded through `POST /v1/presigned` (at most 30). The response is the short create shape (no `inChargeSet`). Extension: `isHidden`.',
        body: schemas.InquiryCreateBody,
        response: { 201: schemas.InquiryCreatedResponse, ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      const inquiry = await service.create(app.db, request.auth, request.body, request.fileContext);
      return reply.code(201).send(inquiry);
    },
  );

  app.get(
    '/inquiry/work',
    {
      schema: {
        tags,
        operationId: 'inquiry_work_list',
        summary: 'List inquiry tasks',
        description:
          'The tasks (`workSet` entries) of every inquiry of the business, newest first, each with its inquiry.',
        querystring: PlainPageQuery,
        response: { 200: schemas.InquiryWorkPage, ...commonErrorResponses },
      },
    },
    async (request) => {
      const page = await service.listWork(
        app.db,
        request.auth,
        request.query,
        readCursor(request, request.query.cursor),
      );
      return toPageBody(request, page);
    },
  );

  app.get(
    '/inquiry/:inquiry_id',
    {
      schema: {
        tags,
        operationId: 'inquiry_retrieve',
        summary: 'Retrieve an inquiry',
        description: 'The full shape, with `fileSet` download URLs. Extension: `isHidden`.',
        params: schemas.InquiryIdParams,
        response: { 200: schemas.InquiryDetail, ...commonErrorResponses },
      },
    },
    async (request) => service.retrieve(app.db, request.auth, request.params.inquiry_id, request.fileContext),
  );

  app.patch(
    '/inquiry/:inquiry_id',
    {
      // 404 before 400, looked up only for an invalid request: the service's row lock is the happy path's check.
      ...notFoundBeforeValidation('inquiry_id', (auth, id) => service.exists(app.db, auth, id), {
        onlyWhenInvalid: true,
      }),
      schema: {
        tags,
        operationId: 'inquiry_partial_update',
        'x-events': ['inquiry.updated', 'contract.updated', 'todo.updated'],
        summary: 'Update an inquiry',
        description:
          'Partial update: only the properties sent change. `workSet`, `inChargeSet` and `fileLinkSet` replace the whole set; `fieldSet` sets the fields it names and keeps the others (an empty value clears one); `funnel` sets the keys it names. A status change writes a status-history row (and a folder-history row when the folder changes) and notifies the responsible members; members added to `inChargeSet` are notified. `fileSet` appends files uploaded through `POST /v1/presigned` (at most 30 per inquiry, existing plus new); `DELETE /v1/inquiry/{inquiry_id}/file/{file_id}` removes one. Extension: `isHidden`.',
        params: schemas.InquiryIdParams,
        body: schemas.InquiryUpdateBody,
        response: { 200: schemas.InquiryDetail, ...commonErrorResponses },
      },
    },
    async (request) =>
      service.partialUpdate(app.db, request.auth, request.params.inquiry_id, request.body, request.fileContext),
  );

  app.delete(
    '/inquiry/:inquiry_id',
    {
      schema: {
        tags,
        operationId: 'inquiry_destroy',
        'x-events': ['inquiry.text_history.deleted', 'todo.deleted', 'inquiry.deleted', 'contract.updated'],
        summary: 'Delete an inquiry',
        description:
          'Soft delete: the inquiry disappears from lists, reads and nested summaries, and its id answers 404 from then on. Its histories are kept.',
        params: schemas.InquiryIdParams,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      await service.destroy(app.db, request.auth, request.params.inquiry_id);
      return reply.code(204).send(null);
    },
  );
};

export default inquiryRoutes;
