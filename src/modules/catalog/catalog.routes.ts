/**
 * Routes of the read-only catalogs: `GET /v1/member`, `/v1/field`, `/v1/inquiry/status`, `/v1/folder`,
 * `/v1/client/status`, `/v1/contract/category`, `/v1/settlement/type`.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readCursor, toPageBody } from '../../shared/pagination.ts';
import { commonErrorResponses } from '../../shared/schemas.ts';
import * as schemas from './catalog.schemas.ts';
import * as service from './catalog.service.ts';

const tags = ['catalog'];

const catalogRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/member',
    {
      config: { plans: ['FREE', 'TEAM', 'AGENCY'] },
      schema: {
        tags,
        operationId: 'member_list',
        summary: 'List members',
        description:
          'Members of the business, newest first. `search` matches nickname or e-mail (repeat it to require several terms). Only on the FREE, TEAM and AGENCY plans; otherwise 403 `PLAN_PERMISSION_DENIED`.',
        querystring: schemas.MemberListQuery,
        response: { 200: schemas.MemberPage, ...commonErrorResponses },
      },
    },
    async (request) => {
      const page = await service.listMembers(
        app.db,
        request.auth,
        request.query,
        readCursor(request, request.query.cursor),
      );
      return toPageBody(request, page);
    },
  );

  app.get(
    '/field',
    {
      schema: {
        tags,
        operationId: 'field_list',
        summary: 'List custom fields',
        description:
          'Custom fields, newest first; `category` narrows to one record kind (I inquiry, C client, CO contract).',
        querystring: schemas.FieldListQuery,
        response: { 200: schemas.FieldPage, ...commonErrorResponses },
      },
    },
    async (request) => {
      const page = await service.listFields(
        app.db,
        request.auth,
        request.query,
        readCursor(request, request.query.cursor),
      );
      return toPageBody(request, page);
    },
  );

  app.get(
    '/inquiry/status',
    {
      schema: {
        tags,
        operationId: 'inquiry_status_list',
        summary: 'List inquiry statuses',
        description:
          'Inquiry statuses with their folder, in their configured order; `folder_id` narrows to one folder.',
        querystring: schemas.InquiryStatusListQuery,
        response: { 200: schemas.InquiryStatusPage, ...commonErrorResponses },
      },
    },
    async (request) => {
      const page = await service.listInquiryStatuses(
        app.db,
        request.auth,
        request.query,
        readCursor(request, request.query.cursor),
      );
      return toPageBody(request, page);
    },
  );

  app.get(
    '/folder',
    {
      schema: {
        tags,
        operationId: 'folder_list',
        summary: 'List folders',
        description:
          'A plain array (not paged): the default folder first, then newest first. `search` matches the name.',
        querystring: schemas.FolderListQuery,
        response: { 200: schemas.FolderList, ...commonErrorResponses },
      },
    },
    async (request) => service.listFolders(app.db, request.auth, request.query),
  );

  app.get(
    '/client/status',
    {
      schema: {
        tags,
        operationId: 'client_status_list',
        summary: 'List client statuses',
        description: 'Client statuses `{id, title}` in their configured order.',
        querystring: schemas.PlainPageQuery,
        response: { 200: schemas.ClientStatusPage, ...commonErrorResponses },
      },
    },
    async (request) => {
      const page = await service.listClientStatuses(
        app.db,
        request.auth,
        request.query,
        readCursor(request, request.query.cursor),
      );
      return toPageBody(request, page);
    },
  );

  app.get(
    '/contract/category',
    {
      schema: {
        tags,
        operationId: 'contract_category_list',
        summary: 'List contract categories',
        description: 'Contract categories `{id, title}`, newest first; `search` matches the title.',
        querystring: schemas.SearchPageQuery,
        response: { 200: schemas.ContractCategoryPage, ...commonErrorResponses },
      },
    },
    async (request) => {
      const page = await service.listContractCategories(
        app.db,
        request.auth,
        request.query,
        readCursor(request, request.query.cursor),
      );
      return toPageBody(request, page);
    },
  );

  app.get(
    '/settlement/type',
    {
      schema: {
        tags,
        operationId: 'settlement_type_list',
        summary: 'List settlement types',
        description: 'The settlement forms as a plain array (not paged), in catalog order.',
        response: { 200: schemas.SettlementTypeList, ...commonErrorResponses },
      },
    },
    async (request) => service.listSettlementTypes(app.db, request.auth),
  );
};

export default catalogRoutes;
