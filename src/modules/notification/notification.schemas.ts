/** Shapes of the in-app notifications (`GET /v1/notification`, an extension; docs/api.md#extensions). */
import Type, { type Static } from 'typebox';
import { PageQueryProperties } from '../../shared/pagination.ts';
import {
  EXAMPLES,
  Member,
  Nullable,
  Page,
  QueryId,
  StringEnum,
  Timestamp,
  withExample,
  Named,
} from '../../shared/schemas.ts';

const EVENT_TYPES = [
  'inquiry.created',
  'inquiry.status_changed',
  'inquiry.in_charge_added',
  'inquiry.text_history_created',
] as const;

/** An in-app notification. */
export const Notification = Named(
  'Notification',
  Type.Object({
    id: Type.Integer(),
    type: StringEnum(EVENT_TYPES, {
      description:
        '`inquiry.created` (assigned on create), `inquiry.status_changed`, `inquiry.in_charge_added` (newly assigned), `inquiry.text_history_created` (a note was added).',
    }),
    title: Type.String({ description: 'One-line summary (also the e-mail subject).' }),
    content: Type.String({ description: 'The message text (also the e-mail body).' }),
    inquiry: Nullable(
      Type.Object(
        { id: Type.Integer() },
        { description: 'The inquiry the event is about; `null` once it is deleted (a soft delete).' },
      ),
    ),
    member: Member,
    created: { ...Timestamp, description: 'When the event happened.' },
  }),
);
export type Notification = Static<typeof Notification>;

const notificationExample = {
  id: 7,
  type: 'inquiry.status_changed',
  title: 'Inquiry status changed: Website renewal',
  content: 'Inquiry #1 "Website renewal" is now "Proposal sent".',
  inquiry: { id: 12 },
  member: EXAMPLES.member,
  created: EXAMPLES.created,
};

/** `GET /v1/notification` response. */
export const NotificationPage = withExample(Page(Notification), {
  next: null,
  previous: null,
  results: [notificationExample],
});

/** `GET /v1/notification` query. */
export const NotificationListQuery = Type.Object({
  ...PageQueryProperties,
  member_id: Type.Optional({ ...QueryId, description: 'Only the notifications of this member.' }),
});
export type NotificationListQuery = Static<typeof NotificationListQuery>;
