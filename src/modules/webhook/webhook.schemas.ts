/**
 * Webhook shapes (docs/webhooks.md): endpoints (`Webhook`; with its secret once, `WebhookCreated`), the
 * secret of a rotation (`WebhookSecret`), and the deliveries of events to an endpoint (`WebhookDelivery`).
 */
import Type, { type Static } from 'typebox';
import { PageQueryProperties } from '../../shared/pagination.ts';
import { EXAMPLES, IdParam, Named, Nullable, Page, StringEnum, Timestamp, withExample } from '../../shared/schemas.ts';
import { EVENT_TYPES } from '../event/event.service.ts';

/** The event types an endpoint can subscribe to: every type but `webhook.test` (sent to one endpoint on request). */
export const SUBSCRIBABLE_EVENT_TYPES = EVENT_TYPES.filter((type) => type !== 'webhook.test');

/** The subscription to every event type, now and in future versions. */
export const ALL_EVENT_TYPES = '*';

/** Body formats: `standard` (the event object) or `pluuug` (the reference service's envelope). */
export const WEBHOOK_FORMATS = ['standard', 'pluuug'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/** Delivery states. */
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

const url = Type.String({
  minLength: 1,
  maxLength: 2000,
  description:
    'Where events are POSTed: `http` or `https`, no user name or password. A host that is or resolves to a loopback, private, link-local, multicast or other non-public address is refused (unless the server sets `BIZAPI_WEBHOOK_ALLOW_PRIVATE=true`).',
});

const eventTypes = Type.Array(StringEnum([...SUBSCRIBABLE_EVENT_TYPES, ALL_EVENT_TYPES]), {
  minItems: 1,
  maxItems: 100,
  description: 'The event types to deliver (`<resource>.<created|updated|deleted>`), or `["*"]` alone for every type.',
});

const description = Nullable(Type.String({ maxLength: 500, description: 'A note for people; not sent.' }));

const isActive = Type.Boolean({
  description:
    'Whether events are delivered. Turned off by the server after 5 days without a successful delivery; setting it back to `true` starts afresh.',
});

const format = StringEnum(WEBHOOK_FORMATS, {
  description:
    '`standard`: the event object (`{id, type, created, changedFields, data}`). `pluuug`: the reference service’s envelope, for `inquiry.updated` events only (docs/webhooks.md#body-formats).',
});

const secret = Type.String({
  pattern: '^whsec_[A-Za-z0-9+/]{32}$',
  description:
    'The signing secret (`whsec_` + base64 of 24 random bytes): verify `webhook-signature` with it. Shown only in this answer; store it now.',
});

/** `POST /v1/webhook` body. */
export const WebhookCreateBody = Named(
  'WebhookRequest',
  Type.Object(
    {
      url,
      eventTypes,
      description: Type.Optional(description),
      isActive: Type.Optional(isActive),
      format: Type.Optional(format),
    },
    {
      'x-extension': true,
      examples: [
        {
          url: 'https://hooks.example.com/bizapi',
          eventTypes: ['inquiry.created', 'inquiry.updated'],
          description: 'CRM sync',
        },
      ],
    },
  ),
);
export type WebhookCreateBody = Static<typeof WebhookCreateBody>;

/** `PATCH /v1/webhook/{webhook_id}` body: any create property. */
export const WebhookUpdateBody = Named(
  'PatchedWebhookRequest',
  Type.Object(
    {
      url: Type.Optional(url),
      eventTypes: Type.Optional(eventTypes),
      description: Type.Optional(description),
      isActive: Type.Optional(isActive),
      format: Type.Optional(format),
    },
    { 'x-extension': true, examples: [{ isActive: true }] },
  ),
);
export type WebhookUpdateBody = Static<typeof WebhookUpdateBody>;

const webhookProperties = {
  id: Type.Integer(),
  url: Type.String(),
  eventTypes: Type.Array(Type.String(), { description: 'Event types delivered, or `["*"]` for every type.' }),
  description: Nullable(Type.String()),
  isActive: Type.Boolean({
    description: 'Whether events are delivered (false once the server disabled a failing endpoint).',
  }),
  format: StringEnum(WEBHOOK_FORMATS),
  isParked: Type.Boolean({
    description:
      'Whether the endpoint is parked: its receiver stopped answering, so new events are owed, not queued (docs/webhooks.md#parking).',
  }),
  created: Timestamp,
};

/** An endpoint, without its secret: list items, retrieve and update answers. */
export const Webhook = Named(
  'Webhook',
  Type.Object(webhookProperties, {
    'x-extension': true,
    description: 'A URL that receives the business’s events by HTTP POST, signed as Standard Webhooks sign them.',
  }),
);
export type Webhook = Static<typeof Webhook>;

/** The create answer: the endpoint and, this once, its secret. */
export const WebhookCreatedShape = Named(
  'WebhookCreated',
  Type.Object(
    { ...webhookProperties, secret },
    { 'x-extension': true, description: 'A new endpoint, with its signing secret (shown only here).' },
  ),
);
export type WebhookCreated = Static<typeof WebhookCreatedShape>;

const webhookExample = {
  id: 7,
  url: 'https://hooks.example.com/bizapi',
  eventTypes: ['inquiry.created', 'inquiry.updated'],
  description: 'CRM sync',
  isActive: true,
  format: 'standard',
  isParked: false,
  created: EXAMPLES.created,
};
const secretExample = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** The retrieve / update answer, with its example. */
export const WebhookDetail = withExample(Webhook, webhookExample);

/** The create answer, with its example. */
export const WebhookCreated = withExample(WebhookCreatedShape, { ...webhookExample, secret: secretExample });

/** `GET /v1/webhook` answer. */
export const WebhookPage = withExample(Page(Webhook), {
  next: null,
  previous: null,
  results: [webhookExample],
});

/** `POST /v1/webhook/{webhook_id}/rotate_secret` answer. */
export const WebhookSecret = withExample(
  Named(
    'WebhookSecret',
    Type.Object(
      {
        secret: Type.String({
          pattern: '^whsec_[A-Za-z0-9+/]{32}$',
          description: 'The new signing secret, shown only here. The old one keeps signing beside it for 24 hours.',
        }),
      },
      { 'x-extension': true },
    ),
  ),
  { secret: secretExample },
);
export type WebhookSecret = Static<typeof WebhookSecret>;

/** One delivery of one event to one endpoint, with its attempts so far. */
export const WebhookDeliveryShape = Named(
  'WebhookDelivery',
  Type.Object(
    {
      id: Type.Integer(),
      event: Type.Object(
        { id: Type.Integer(), type: Type.String({ description: 'The event type (`webhook.test` for a test ping).' }) },
        {
          description:
            'The event delivered (`GET /v1/event/{event_id}`); its id is the `webhook-id` header of every attempt.',
        },
      ),
      status: StringEnum(DELIVERY_STATUSES, {
        description:
          '`pending` (due at `nextAttemptAt`, or being sent), `succeeded` (a 2xx answer), `failed` (every retry failed).',
      }),
      attempts: Type.Integer({ minimum: 0, description: 'Attempts made so far.' }),
      lastStatusCode: Nullable(
        Type.Integer({
          description: 'The HTTP status of the last attempt; null before the first or when no answer came.',
        }),
      ),
      lastError: Nullable(
        Type.String({
          description:
            'Why the last attempt failed (timeout, connection refused, refused address, status); null after a success.',
        }),
      ),
      lastAttemptAt: Nullable(Timestamp),
      nextAttemptAt: Nullable({
        ...Timestamp,
        description: 'When the next attempt is due; null once succeeded or failed.',
      }),
      created: Timestamp,
    },
    { 'x-extension': true },
  ),
);
export type WebhookDelivery = Static<typeof WebhookDeliveryShape>;

const deliveryExample = {
  id: 311,
  event: { id: 9001, type: 'inquiry.updated' },
  status: 'pending',
  attempts: 2,
  lastStatusCode: 503,
  lastError: 'HTTP 503',
  lastAttemptAt: '2026-11-22T05:37:01.120Z',
  nextAttemptAt: '2026-11-22T06:07:01.120Z',
  created: EXAMPLES.created,
};

/** A delivery with its example (the test ping and retry answers). */
export const WebhookDelivery = withExample(WebhookDeliveryShape, {
  ...deliveryExample,
  event: { id: 9002, type: 'webhook.test' },
  attempts: 0,
  lastStatusCode: null,
  lastError: null,
  lastAttemptAt: null,
  nextAttemptAt: EXAMPLES.created,
});

/** `GET /v1/webhook/{webhook_id}/delivery` answer. */
export const WebhookDeliveryPage = withExample(Page(WebhookDeliveryShape), {
  next: null,
  previous: null,
  results: [deliveryExample],
});

/** `GET /v1/webhook` query. */
export const WebhookListQuery = Type.Object({ ...PageQueryProperties });
export type WebhookListQuery = Static<typeof WebhookListQuery>;

/** `GET /v1/webhook/{webhook_id}/delivery` query: `status` keeps the deliveries in that state. */
export const WebhookDeliveryListQuery = Type.Object({
  ...PageQueryProperties,
  status: Type.Optional(StringEnum(DELIVERY_STATUSES, { description: 'Only deliveries in this state.' })),
});
export type WebhookDeliveryListQuery = Static<typeof WebhookDeliveryListQuery>;

/** Path parameters of `/v1/webhook/{webhook_id}…`. */
export const WebhookIdParams = Type.Object({ webhook_id: IdParam });

/** Path parameters of `/v1/webhook/{webhook_id}/delivery/{delivery_id}/retry`. */
export const WebhookDeliveryIdParams = Type.Object({ webhook_id: IdParam, delivery_id: IdParam });

/** Most events one replay call sends (docs/webhooks.md#replay): a larger replay goes on from `next_after_sequence`. */
export const REPLAY_MAX_EVENTS = 5000;

/** `POST /v1/webhook/{webhook_id}/recover` body (docs/webhooks.md#recover). */
export const WebhookRecoverBody = Named(
  'WebhookRecoverRequest',
  Type.Object(
    {
      since: Type.String({
        format: 'date-time',
        description:
          'Resend the deliveries created at or after this time that failed (ended `failed`, or waiting for a retry after a failed attempt). Any offset; not in the future, and within the 30 days deliveries are kept.',
      }),
    },
    { 'x-extension': true, examples: [{ since: '2026-11-22T00:00:00Z' }] },
  ),
);
export type WebhookRecoverBody = Static<typeof WebhookRecoverBody>;

/** `POST /v1/webhook/{webhook_id}/recover` answer. */
export const WebhookRecovered = withExample(
  Named(
    'WebhookRecovered',
    Type.Object(
      {
        count: Type.Integer({ minimum: 0, description: 'Deliveries queued again, due now.' }),
        since: { ...Timestamp, description: 'The `since` of the request, in UTC.' },
      },
      { 'x-extension': true },
    ),
  ),
  { count: 12, since: '2026-11-22T00:00:00.000Z' },
);
export type WebhookRecovered = Static<typeof WebhookRecovered>;

/** `POST /v1/webhook/{webhook_id}/replay` body (docs/webhooks.md#replay). */
export const WebhookReplayBody = Named(
  'WebhookReplayRequest',
  Type.Object(
    {
      after_sequence: Type.Integer({
        minimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
        description:
          'Send the events with a greater `sequence` (0: from the endpoint’s creation) that the endpoint would have received.',
      }),
      types: Type.Optional({
        ...eventTypes,
        description: 'Only these of the endpoint’s event types (`["*"]` alone: all of them, the default).',
      }),
      limit: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: REPLAY_MAX_EVENTS,
          description: `Most events to read in this call (default and maximum ${REPLAY_MAX_EVENTS}); continue from \`next_after_sequence\`.`,
        }),
      ),
    },
    { 'x-extension': true, examples: [{ after_sequence: 8120, types: ['inquiry.updated'] }] },
  ),
);
export type WebhookReplayBody = Static<typeof WebhookReplayBody>;

/** `POST /v1/webhook/{webhook_id}/replay` answer. */
export const WebhookReplayed = withExample(
  Named(
    'WebhookReplayed',
    Type.Object(
      {
        count: Type.Integer({ minimum: 0, description: 'Events queued for the endpoint, due now.' }),
        next_after_sequence: Nullable(
          Type.Integer({
            description:
              'When the replay stopped at `limit` events read: the `after_sequence` of the next call; `null` when every event was sent.',
          }),
        ),
      },
      { 'x-extension': true },
    ),
  ),
  { count: 240, next_after_sequence: null },
);
export type WebhookReplayed = Static<typeof WebhookReplayed>;
