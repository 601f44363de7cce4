/**
 * Routes of an inquiry's histories (docs/api.md#inquiries): `…/status_history`, `…/folder_history`,
 * `…/email_history`, `…/email_reply_history`, `…/submit_history` (read-only pages) and
 * `…/text_history[/{history_id}]` (notes).
 *
 * The change of 2026-03-03 replaced the old `/v1/inquiry/{inquiry_id}/history[/{history_id}]` operations with
 * `/text_history` (docs/api.md#deprecated-operations). They are still served, as aliases of text history, so
 * older clients keep working: marked `deprecated: true` in the OpenAPI document and answered with RFC 9745's
 * `Deprecation` header (the date of that change) and a `Link` to the successor (`rel="successor-version"`).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import Type, { type TSchema } from 'typebox';
import { type Page, readCursor, toPageBody } from '../../shared/pagination.ts';
import { notFoundBeforeValidation } from '../../shared/route-hooks.ts';
import { commonErrorResponses } from '../../shared/schemas.ts';
import { exists as inquiryExists } from './inquiry.service.ts';
import * as schemas from './inquiry-history.schemas.ts';
import * as service from './inquiry-history.service.ts';

const tags = ['inquiry'];

/** When `/history` was deprecated (2026-03-03, docs/api.md#deprecated-operations), as RFC 9745 writes it: `@<unix seconds>`. */
export const HISTORY_DEPRECATION = `@${Date.UTC(2026, 2, 3) / 1000}`;

/**
 * An `onSend` hook for the deprecated `/history` aliases: `Deprecation: @1772496000` and
 * `Link: <…/text_history…>; rel="successor-version"` on every response, errors included.
 */
async function markDeprecated(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  // `publicOrigin` is empty only when the request was refused for its Host: the link is then relative.
  const url = new URL(request.url, request.publicOrigin || 'http://host.invalid');
  url.pathname = url.pathname.replace(/\/history(?=\/|$)/, '/text_history');
  url.search = '';
  reply.header('Deprecation', HISTORY_DEPRECATION);
  reply.header('Link', `<${request.publicOrigin ? url.toString() : url.pathname}>; rel="successor-version"`);
  return payload;
}

const inquiryHistoryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const readOnly = [
    {
      path: 'status_history',
      operationId: 'inquiry_status_history_list',
      summary: 'List the status history of an inquiry',
      description:
        'One row for the status given at create and one per status change, newest first. Each status carries its folder; `member` is null for changes made through the API.',
      response: schemas.StatusHistoryPage,
      list: service.listStatusHistory,
    },
    {
      path: 'folder_history',
      operationId: 'inquiry_folder_history_list',
      summary: 'List the folder history of an inquiry',
      description: 'One row per status change that moved the inquiry into another folder, newest first.',
      response: schemas.FolderHistoryPage,
      list: service.listFolderHistory,
    },
    {
      path: 'email_history',
      operationId: 'inquiry_email_history_list',
      summary: 'List the e-mails sent from an inquiry',
      description:
        'E-mails sent from the inquiry, newest first. `status`: S sent, D draft, C scheduled, F failed. Read-only: the rows come from the mail integration.',
      response: schemas.EmailHistoryPage,
      list: service.listEmailHistory,
    },
    {
      path: 'email_reply_history',
      operationId: 'inquiry_email_reply_history_list',
      summary: 'List the e-mail replies of an inquiry',
      description:
        'Replies received to the inquiry e-mails, newest first. Read-only: the rows come from the mail integration.',
      response: schemas.EmailReplyHistoryPage,
      list: service.listEmailReplyHistory,
    },
    {
      path: 'submit_history',
      operationId: 'inquiry_submit_history_list',
      summary: 'List the web-form submissions of an inquiry',
      description:
        'Web-form submissions attached to the inquiry, newest first; `answers` is the submitted JSON. Read-only.',
      response: schemas.SubmitHistoryPage,
      list: service.listSubmitHistory,
    },
  ] as const;

  for (const r of readOnly) {
    app.get(
      `/inquiry/:inquiry_id/${r.path}`,
      {
        schema: {
          tags,
          operationId: r.operationId,
          summary: r.summary,
          description: r.description,
          params: schemas.HistoryListParams,
          querystring: schemas.HistoryListQuery,
          response: { 200: r.response as TSchema, ...commonErrorResponses },
        },
      },
      async (request) => {
        const { inquiry_id } = request.params;
        const page: Page<unknown> = await r.list(
          app.db,
          request.auth,
          inquiry_id,
          request.query,
          readCursor(request, request.query.cursor),
        );
        return toPageBody(request, page);
      },
    );
  }

  /** Registers the five text-history operations under `segment` (`text_history`, or the deprecated `history`). */
  function textHistory(segment: 'text_history' | 'history'): void {
    const deprecated = segment === 'history';
    const name = `inquiry_${segment}`;
    const note = deprecated
      ? ' **Deprecated** (2026-03-03): an alias of `…/text_history`, kept for older clients; answers carry `Deprecation` and a `Link` to the successor.'
      : '';
    const extra = deprecated ? { deprecated: true } : {};
    const hooks = deprecated ? { onSend: markDeprecated } : {};

    app.get(
      `/inquiry/:inquiry_id/${segment}`,
      {
        ...hooks,
        schema: {
          ...extra,
          tags,
          operationId: `${name}_list`,
          summary: deprecated ? 'List the notes of an inquiry (deprecated)' : 'List the text notes of an inquiry',
          description: `The inquiry's text notes, newest first by \`created\`. Extension: \`updated_start\` / \`updated_end\` select notes by their last change (inclusive).${note}`,
          params: schemas.HistoryListParams,
          querystring: schemas.TextHistoryListQuery,
          response: { 200: schemas.TextHistoryPage, ...commonErrorResponses },
        },
      },
      async (request) => {
        const page = await service.listTextHistory(
          app.db,
          request.auth,
          request.params.inquiry_id,
          request.query,
          readCursor(request, request.query.cursor),
        );
        return toPageBody(request, page);
      },
    );

    app.post(
      `/inquiry/:inquiry_id/${segment}`,
      {
        ...hooks,
        ...notFoundBeforeValidation('inquiry_id', (auth, id) => inquiryExists(app.db, auth, id)),
        schema: {
          ...extra,
          tags,
          operationId: `${name}_create`,
          'x-events': ['inquiry.text_history.created'],
          summary: deprecated ? 'Add a note to an inquiry (deprecated)' : 'Add a text note to an inquiry',
          description: `\`content\` (1 to 5000 characters) is required; \`created\` (default now) and \`member {id}\` are optional. The inquiry's responsible members with notifications on are notified.${note}`,
          params: schemas.HistoryListParams,
          body: schemas.TextHistoryCreateBody,
          response: { 201: schemas.TextHistoryCreated, ...commonErrorResponses },
        },
      },
      async (request, reply) => {
        const created = await service.createTextHistory(app.db, request.auth, request.params.inquiry_id, request.body);
        return reply.code(201).send(created);
      },
    );

    app.get(
      `/inquiry/:inquiry_id/${segment}/:history_id`,
      {
        ...hooks,
        schema: {
          ...extra,
          tags,
          operationId: `${name}_retrieve`,
          summary: deprecated ? 'Retrieve a note of an inquiry (deprecated)' : 'Retrieve a text note of an inquiry',
          description: `A note of another inquiry answers 404.${note}`,
          params: schemas.HistoryItemParams,
          response: { 200: schemas.TextHistoryDetail, ...commonErrorResponses },
        },
      },
      async (request) =>
        service.retrieveTextHistory(app.db, request.auth, request.params.inquiry_id, request.params.history_id),
    );

    app.patch(
      `/inquiry/:inquiry_id/${segment}/:history_id`,
      {
        ...hooks,
        ...notFoundBeforeValidation(['inquiry_id', 'history_id'], (auth, inquiryId, historyId) =>
          service.textHistoryExists(app.db, auth, inquiryId!, historyId!),
        ),
        schema: {
          ...extra,
          tags,
          operationId: `${name}_partial_update`,
          'x-events': ['inquiry.text_history.updated'],
          summary: deprecated ? 'Update a note of an inquiry (deprecated)' : 'Update a text note of an inquiry',
          description: `\`content\` and \`created\` may change; the member may not.${note}`,
          params: schemas.HistoryItemParams,
          body: schemas.TextHistoryUpdateBody,
          response: { 200: schemas.TextHistoryDetail, ...commonErrorResponses },
        },
      },
      async (request) =>
        service.partialUpdateTextHistory(
          app.db,
          request.auth,
          request.params.inquiry_id,
          request.params.history_id,
          request.body,
        ),
    );

    app.delete(
      `/inquiry/:inquiry_id/${segment}/:history_id`,
      {
        ...hooks,
        schema: {
          ...extra,
          tags,
          operationId: `${name}_destroy`,
          'x-events': ['inquiry.text_history.deleted'],
          summary: deprecated ? 'Delete a note of an inquiry (deprecated)' : 'Delete a text note of an inquiry',
          description: `Removes the note for good.${note}`,
          params: schemas.HistoryItemParams,
          response: { 204: Type.Null({ description: 'Deleted.' }), ...commonErrorResponses },
        },
      },
      async (request, reply) => {
        await service.destroyTextHistory(app.db, request.auth, request.params.inquiry_id, request.params.history_id);
        return reply.code(204).send(null);
      },
    );
  }

  textHistory('text_history');
  textHistory('history');
};

export default inquiryHistoryRoutes;
