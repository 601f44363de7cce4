/** Routes of `/v1/webhook` (docs/webhooks.md; extension): endpoints, secret rotation, test pings, deliveries. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { readCursor, toPageBody } from '../../shared/pagination.ts';
import { notFoundBeforeValidation } from '../../shared/route-hooks.ts';
import { commonErrorResponses } from '../../shared/schemas.ts';
import * as schemas from './webhook.schemas.ts';
import * as service from './webhook.service.ts';

const tags = ['webhook'];

/** Options of the plugin: what the service needs besides the database. */
export type WebhookRoutesOptions = service.WebhookSettings;

const webhookRoutes: FastifyPluginAsyncTypebox<WebhookRoutesOptions> = async (app, opts) => {
  const settings: service.WebhookSettings = {
    masterKey: opts.masterKey,
    allowPrivate: opts.allowPrivate,
    ...(opts.lookup && { lookup: opts.lookup }),
    ...(opts.maxEndpoints !== undefined && { maxEndpoints: opts.maxEndpoints }),
  };

  app.get(
    '/webhook',
    {
      schema: {
        tags,
        operationId: 'webhook_list',
        summary: 'List webhook endpoints',
        description: 'Extension. The business’s webhook endpoints, newest first; secrets are never shown.',
        'x-extension': true,
        querystring: schemas.WebhookListQuery,
        response: { 200: schemas.WebhookPage, ...commonErrorResponses },
      },
    },
    async (request) => {
      const cursor = readCursor(request, request.query.cursor);
      return toPageBody(request, await service.list(app.db, request.auth, request.query, cursor));
    },
  );

  app.post(
    '/webhook',
    {
      schema: {
        tags,
        operationId: 'webhook_create',
        'x-events': [],
        'x-extension': true,
        summary: 'Create a webhook endpoint',
        description:
          'Extension. Events of the listed types (or every type, `["*"]`) are POSTed to `url`, signed as Standard Webhooks sign them. The answer carries the signing `secret`, shown only here and after a rotation. The URL must be `http` or `https` and name a public host. A business has at most 20 endpoints (`BIZAPI_WEBHOOK_MAX_ENDPOINTS`): one more is a 400 with `code: webhook_limit`.',
        body: schemas.WebhookCreateBody,
        response: { 201: schemas.WebhookCreated, ...commonErrorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(app.db, settings, request.auth, request.body)),
  );

  app.get(
    '/webhook/:webhook_id',
    {
      schema: {
        tags,
        operationId: 'webhook_retrieve',
        summary: 'Retrieve a webhook endpoint',
        description: 'Extension. The endpoint without its secret.',
        'x-extension': true,
        params: schemas.WebhookIdParams,
        response: { 200: schemas.WebhookDetail, ...commonErrorResponses },
      },
    },
    async (request) => service.retrieve(app.db, request.auth, request.params.webhook_id),
  );

  app.patch(
    '/webhook/:webhook_id',
    {
      ...notFoundBeforeValidation('webhook_id', (auth, id) => service.exists(app.db, auth, id)),
      schema: {
        tags,
        operationId: 'webhook_partial_update',
        'x-events': [],
        'x-extension': true,
        summary: 'Update a webhook endpoint',
        description:
          'Extension. Partial update: only the properties sent change; a new `url` is checked as on create. Setting `isActive` back to `true` re-enables an endpoint the server disabled after 5 days of failures.',
        params: schemas.WebhookIdParams,
        body: schemas.WebhookUpdateBody,
        response: { 200: schemas.WebhookDetail, ...commonErrorResponses },
      },
    },
    async (request) => service.partialUpdate(app.db, settings, request.auth, request.params.webhook_id, request.body),
  );

  app.delete(
    '/webhook/:webhook_id',
    {
      schema: {
        tags,
        operationId: 'webhook_destroy',
        'x-events': [],
        'x-extension': true,
        summary: 'Delete a webhook endpoint',
        description: 'Extension. The endpoint and its delivery history are deleted; nothing more is sent to it.',
        params: schemas.WebhookIdParams,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      await service.destroy(app.db, request.auth, request.params.webhook_id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/webhook/:webhook_id/rotate_secret',
    {
      schema: {
        tags,
        operationId: 'webhook_rotate_secret',
        'x-events': [],
        'x-extension': true,
        summary: 'Rotate the signing secret of a webhook endpoint',
        description:
          'Extension. Answers a new secret, shown only here. For 24 hours every delivery carries two signatures, one with the new secret and one with the old, so the receiver can switch without losing a delivery.',
        params: schemas.WebhookIdParams,
        response: { 200: schemas.WebhookSecret, ...commonErrorResponses },
      },
    },
    async (request) => service.rotateSecret(app.db, settings, request.auth, request.params.webhook_id),
  );

  app.post(
    '/webhook/:webhook_id/resume',
    {
      schema: {
        tags,
        operationId: 'webhook_resume',
        'x-events': [],
        'x-extension': true,
        summary: 'Resume a parked webhook endpoint',
        description:
          'Extension. Queues the events a parked endpoint (`isParked`) is owed, a chunk at a time as its queue drains, and clears its streak of unanswered attempts; it is parked again if the receiver still does not answer. 202 with the endpoint.',
        params: schemas.WebhookIdParams,
        response: { 202: schemas.WebhookDetail, ...commonErrorResponses },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await service.resume(app.db, request.auth, request.params.webhook_id)),
  );

  app.post(
    '/webhook/:webhook_id/test',
    {
      schema: {
        tags,
        operationId: 'webhook_test',
        'x-events': ['webhook.test'],
        'x-extension': true,
        summary: 'Send a test event to a webhook endpoint',
        description:
          'Extension. Writes a `webhook.test` event (`data: {id, url}` of the endpoint) and queues its delivery to this endpoint alone, even an inactive one. Answers 202 with the pending delivery; follow it in the endpoint’s delivery list. At most 5 pings a minute per endpoint and 20 per business (deleting and re-creating an endpoint does not reset it): beyond, 429 with `Retry-After` and nothing is sent.',
        params: schemas.WebhookIdParams,
        response: { 202: schemas.WebhookDelivery, ...commonErrorResponses },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await service.test(app.db, request.auth, request.params.webhook_id, app.windowCounter)),
  );

  app.post(
    '/webhook/:webhook_id/recover',
    {
      ...notFoundBeforeValidation('webhook_id', (auth, id) => service.exists(app.db, auth, id)),
      schema: {
        tags,
        operationId: 'webhook_recover_create',
        'x-events': [],
        'x-extension': true,
        summary: 'Resend the failed deliveries of a webhook endpoint since a time',
        description:
          'Extension. Every delivery to this endpoint created at or after `since` that failed — ended `failed` after its retries, or waiting for a retry after a failed attempt — is queued again, due now (its attempt count kept), and sent in the background within the delivery caps. Deliveries that succeeded, older ones and other endpoints’ are not touched; events owed to a parked endpoint follow its resumption. `since` in the future or more than 30 days ago (the deliveries’ retention) is a 400; a disabled endpoint is a 400 with `code: webhook_inactive`. At most 5 a minute per endpoint: beyond, 429 with `Retry-After`. 202 `{count, since}` (docs/webhooks.md#recover).',
        params: schemas.WebhookIdParams,
        body: schemas.WebhookRecoverBody,
        response: { 202: schemas.WebhookRecovered, ...commonErrorResponses },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(await service.recover(app.db, request.auth, request.params.webhook_id, request.body, app.windowCounter)),
  );

  app.post(
    '/webhook/:webhook_id/replay',
    {
      ...notFoundBeforeValidation('webhook_id', (auth, id) => service.exists(app.db, auth, id)),
      schema: {
        tags,
        operationId: 'webhook_replay_create',
        'x-events': [],
        'x-extension': true,
        summary: 'Send a webhook endpoint the events after a sequence again',
        description: `Extension. Queues, due now, one delivery to this endpoint of every event with a \`sequence\` above \`after_sequence\` that it would have received (its \`eventTypes\` and format, narrowed by \`types\`) — never an event committed before the endpoint was created, never another business’s. Each is the event as recorded, with its id as \`webhook-id\` and its \`sequence\`: receivers drop repeats as usual. At most \`limit\` (default and maximum ${schemas.REPLAY_MAX_EVENTS}) events are read per call; \`next_after_sequence\` then says where the next call goes on. Sent in the background within the delivery caps. A disabled endpoint is a 400 with \`code: webhook_inactive\`. At most 5 a minute per endpoint: beyond, 429 with \`Retry-After\`. 202 \`{count, next_after_sequence}\` (docs/webhooks.md#replay).`,
        params: schemas.WebhookIdParams,
        body: schemas.WebhookReplayBody,
        response: { 202: schemas.WebhookReplayed, ...commonErrorResponses },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(await service.replay(app.db, request.auth, request.params.webhook_id, request.body, app.windowCounter)),
  );

  app.get(
    '/webhook/:webhook_id/delivery',
    {
      schema: {
        tags,
        operationId: 'webhook_delivery_list',
        summary: 'List the deliveries of a webhook endpoint',
        description:
          'Extension. One item per event sent (or to be sent) to the endpoint, newest first, with the outcome of its last attempt; kept 30 days. `status` keeps one state.',
        'x-extension': true,
        params: schemas.WebhookIdParams,
        querystring: schemas.WebhookDeliveryListQuery,
        response: { 200: schemas.WebhookDeliveryPage, ...commonErrorResponses },
      },
    },
    async (request) => {
      // The cursor first: a bad cursor is 404 "Invalid cursor" on every list, whatever the endpoint.
      const cursor = readCursor(request, request.query.cursor);
      const page = await service.listDeliveries(app.db, request.auth, request.params.webhook_id, request.query, cursor);
      return toPageBody(request, page);
    },
  );

  app.post(
    '/webhook/:webhook_id/delivery/:delivery_id/retry',
    {
      schema: {
        tags,
        operationId: 'webhook_delivery_retry',
        'x-events': [],
        'x-extension': true,
        summary: 'Retry a webhook delivery',
        description:
          'Extension. Sends the delivery again as soon as possible: a succeeded or failed delivery becomes `pending`, due now, its attempt count kept. A pending one is made due now (unless it is being sent at this moment). Answers 202 with the delivery.',
        params: schemas.WebhookDeliveryIdParams,
        response: { 202: schemas.WebhookDelivery, ...commonErrorResponses },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(await service.retryDelivery(app.db, request.auth, request.params.webhook_id, request.params.delivery_id)),
  );
};

export default webhookRoutes;
