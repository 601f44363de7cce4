/** Event shapes (docs/api.md#events): the change feed of `GET /v1/event`, and the webhooks' `standard` body. */
import Type, { type Static } from 'typebox';
import { PageQueryProperties } from '../../shared/pagination.ts';
import {
  EXAMPLES,
  IdParam,
  Named,
  Nullable,
  Page,
  QueryDateOrDateTime,
  StringEnum,
  Timestamp,
  withExample,
} from '../../shared/schemas.ts';
import { EVENT_TYPES } from './event.types.ts';

/** One event: what changed, when, and the record's full shape after the change. */
export const Event = Named(
  'Event',
  Type.Object(
    {
      id: Type.Integer(),
      sequence: Type.Integer({
        minimum: 1,
        description:
          'Strictly increasing per business in the order events become visible, given once the change has committed; follow the feed with `after_sequence`.',
      }),
      type: Type.String({
        enum: [...EVENT_TYPES],
        description: '`<resource>.<created|updated|deleted>`, `catalog.updated`, or `webhook.test`.',
      }),
      created: Timestamp,
      changedFields: Type.Array(Type.String(), {
        description: 'The camelCase properties an update changed (`[]` for created and deleted).',
      }),
      parent: Nullable(
        Type.Object(
          { type: StringEnum(['inquiry', 'contract', 'settlement'] as const), id: Type.Integer() },
          {
            description:
              'The record a note belongs to (`inquiry.text_history`, `contract.history`, `settlement.history` events); null for other events.',
          },
        ),
      ),
      data: Type.Object(
        {},
        {
          additionalProperties: true,
          description:
            'The record’s full shape after the change, as `GET` on it answers; `{id}` for a delete; `{section, ids}` for `catalog.updated` (the catalog section that received entries and their new ids).',
        },
      ),
    },
    { 'x-extension': true },
  ),
);
export type Event = Static<typeof Event>;

/**
 * `GET /v1/event` query: `type` any of (repeatable), `created_start` / `created_end` inclusive;
 * `after_sequence`: only events with a greater sequence, oldest first (docs/api.md#events).
 */
export const EventListQuery = Type.Object({
  ...PageQueryProperties,
  after_sequence: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      'x-extension': true,
      description:
        'Only the events with a greater `sequence`, **oldest first**: the last sequence a consumer processed (0 to start). The way to keep a copy in sync; polling by `created` can miss a change that commits late.',
    }),
  ),
  type: Type.Optional(
    Type.Array(Type.String({ maxLength: 100 }), {
      maxItems: 50,
      description:
        'Event types; repeat for any of several. Extension: prefixes `inquiry.*`, `*` all (docs/api.md#filtering-by-type).',
    }),
  ),
  created_start: Type.Optional(QueryDateOrDateTime),
  created_end: Type.Optional(QueryDateOrDateTime),
  wait: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: 60,
      'x-extension': true,
      description: 'Long-poll, with `after_sequence`: seconds to wait for a matching event (docs/api.md#long-poll).',
    }),
  ),
});
export type EventListQuery = Static<typeof EventListQuery>;

/**
 * `GET /v1/event/stream` query (docs/api.md#stream): where to start (`after_sequence`; without it the
 * `Last-Event-ID` header, else 0) and the type patterns to keep.
 */
export const EventStreamQuery = Type.Object({
  after_sequence: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'Start after this sequence; wins over `Last-Event-ID` (default: it, else 0).',
    }),
  ),
  type: EventListQuery.properties.type,
});
export type EventStreamQuery = Static<typeof EventStreamQuery>;

/** Path parameters of `/v1/event/{event_id}`. */
export const EventIdParams = Type.Object({ event_id: IdParam });

const eventExample = {
  id: 9001,
  sequence: 120,
  type: 'client.updated',
  created: EXAMPLES.created,
  changedFields: ['email'],
  parent: null,
  data: { id: 42, companyName: 'Acme Corp.', email: 'ap@acme.example', updated: EXAMPLES.created },
};

/** A page of events. */
export const EventPage = withExample(Page(Event), {
  next: EXAMPLES.pageLink.replace('/v1/client', '/v1/event'),
  previous: null,
  results: [eventExample],
});

/** One event, with its example (`GET /v1/event/{event_id}`). */
export const EventDetail = withExample(Event, eventExample);
