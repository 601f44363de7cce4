/**
 * Routes of `/v1/contract` (docs/api.md#contracts; status codes: docs/api.md#responses-and-status-codes). Its notes,
 * `/v1/contract/{contract_id}/history`, are the note module's (`note.routes.ts`).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { readCursor, toPageBody } from '../../shared/pagination.ts';
import { notFoundBeforeValidation } from '../../shared/route-hooks.ts';
import { commonErrorResponses } from '../../shared/schemas.ts';
import * as schemas from './contract.schemas.ts';
import type { ContractService } from './contract.service.ts';

const tags = ['contract'];

const RECURRING_RULES =
  'The recurring fields `settlementFrequency` (≥ 1), `settlementCycle` (`W`, `M`) and `settlementDay` are accepted only when `type` is `S`; the day is 0 (Sunday) … 6 (Saturday) on a weekly cycle and 1..30 on a monthly one (31 is not allowed).';

/** `service`: the contract service the composition root built (src/services.ts). */
const contractRoutes: FastifyPluginAsyncTypebox<{ service: ContractService }> = async (app, { service }) => {
  app.get(
    '/contract',
    {
      schema: {
        tags,
        operationId: 'contract_list',
        summary: 'List contracts',
        description:
          'Contracts, newest first, in the list shape (no `vatType`, recurring fields or `fieldSet`). `search` (repeatable, all terms must match) is a case-insensitive substring of the title, the contract number or the client’s company name. `created_start` / `created_end` compare the creation date in the business time zone; `start_date_from` / `start_date_to` and `end_date_from` / `end_date_to` the contract dates; all inclusive. `is_hidden`: true only hidden, false only visible, omitted all. `status` and `category_id` are extensions.',
        querystring: schemas.ContractListQuery,
        response: { 200: schemas.ContractPage, ...commonErrorResponses },
      },
    },
    async (request) => {
      const page = await service.list(app.db, request.auth, request.query, readCursor(request, request.query.cursor));
      return toPageBody(request, page);
    },
  );

  app.post(
    '/contract',
    {
      schema: {
        tags,
        operationId: 'contract_create',
        'x-events': ['contract.created', 'inquiry.updated'],
        summary: 'Create a contract',
        description: `\`title\` (≤ 128), \`amount\` (integer ≥ 0) and \`type\` (\`I\`, \`S\`, \`G\`) are required. \`status\` is writable (extension; default \`P\`); \`vatType\` defaults to \`E\`. ${RECURRING_RULES} \`inquiry\` links an inquiry 1:1 (an inquiry already linked to another contract is refused); \`client\` and \`categorySet\` reference records of the business; \`fieldSet\` takes fields of kind \`CO\`. Answers the list shape.`,
        body: schemas.ContractCreateBody,
        response: { 201: schemas.ContractCreated, ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      const contract = await service.create(app.db, request.auth, request.body, request.fileContext);
      return reply.code(201).send(contract);
    },
  );

  app.get(
    '/contract/:contract_id',
    {
      schema: {
        tags,
        operationId: 'contract_retrieve',
        summary: 'Retrieve a contract',
        description: 'The full shape, with `vatType`, the recurring fields, `fieldSet` and `isHidden` (extension).',
        params: schemas.ContractIdParams,
        response: { 200: schemas.ContractDetail, ...commonErrorResponses },
      },
    },
    async (request) => service.retrieve(app.db, request.auth, request.params.contract_id),
  );

  app.patch(
    '/contract/:contract_id',
    {
      // 404 before 400, looked up only for an invalid request: the service's locking read is the happy path's check.
      ...notFoundBeforeValidation('contract_id', (auth, id) => service.exists(app.db, auth, id), {
        onlyWhenInvalid: true,
      }),
      schema: {
        tags,
        operationId: 'contract_partial_update',
        'x-events': ['contract.updated', 'inquiry.updated', 'project.updated', 'settlement.updated'],
        summary: 'Update a contract',
        description: `Partial update: only the properties sent change. \`categorySet\` replaces the whole set; \`fieldSet\` sets the fields it names and keeps the others (an empty value clears one). Changing \`inquiry\` releases the previously linked inquiry; \`null\` unlinks it. ${RECURRING_RULES} Changing \`type\` away from \`S\` clears the recurring fields. \`status\` is writable (extension).`,
        params: schemas.ContractIdParams,
        body: schemas.ContractUpdateBody,
        response: { 200: schemas.ContractDetail, ...commonErrorResponses },
      },
    },
    async (request) =>
      service.partialUpdate(app.db, request.auth, request.params.contract_id, request.body, request.fileContext),
  );

  app.delete(
    '/contract/:contract_id',
    {
      schema: {
        tags,
        operationId: 'contract_destroy',
        'x-events': [
          'settlement.history.deleted',
          'settlement.deleted',
          'contract.history.deleted',
          'project.updated',
          'contract.deleted',
          'inquiry.updated',
        ],
        summary: 'Delete a contract',
        description:
          'Deletes the contract for good, together with its settlements and notes; a linked inquiry is released, and projects linked to it are left without a contract.',
        params: schemas.ContractIdParams,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      await service.destroy(app.db, request.auth, request.params.contract_id, request.fileContext);
      return reply.code(204).send(null);
    },
  );
};

export default contractRoutes;
