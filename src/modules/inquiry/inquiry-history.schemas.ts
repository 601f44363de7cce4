/**
 * Shapes of an inquiry's histories (docs/api.md#inquiries): status, folder, text notes, e-mails sent, e-mail
 * replies and web-form submissions.
 */
import Type, { type Static } from 'typebox';
import { PageQueryProperties } from '../../shared/pagination.ts';
import {
  EXAMPLES,
  IdParam,
  Member,
  Nullable,
  Page,
  StringEnum,
  Timestamp,
  UpdatedProperty,
  UpdatedQueryProperties,
  withExample,
  Named,
} from '../../shared/schemas.ts';
import { InquiryStatus } from '../catalog/catalog.schemas.ts';

/** Most characters of a text note (docs/api.md#inquiries). */
export const TEXT_HISTORY_MAX_LENGTH = 5000;

const page = <T>(results: T[]) => ({ next: null, previous: null, results });

/** Query of every history list: `cursor` and the page size. */
export const HistoryListQuery = Type.Object({ ...PageQueryProperties });
export type HistoryListQuery = Static<typeof HistoryListQuery>;

/** Query of the text-note list: the page, and `updated_start` / `updated_end` (docs/api.md#events). */
export const TextHistoryListQuery = Type.Object({ ...PageQueryProperties, ...UpdatedQueryProperties });
export type TextHistoryListQuery = Static<typeof TextHistoryListQuery>;

/** Path parameters of `/v1/inquiry/{inquiry_id}/…_history`. */
export const HistoryListParams = Type.Object({ inquiry_id: IdParam });
/** Path parameters of `/v1/inquiry/{inquiry_id}/text_history/{history_id}`. */
export const HistoryItemParams = Type.Object({ inquiry_id: IdParam, history_id: IdParam });

const FolderRef = Type.Object({ id: Type.Integer(), name: Type.String() });

/** A `status_history` item (docs/api.md#inquiries). `member` is null for changes made through the API. */
export const StatusHistory = Named(
  'InquiryStatusHistory',
  Type.Object({
    id: Type.Integer(),
    status: InquiryStatus,
    previousStatus: Nullable(InquiryStatus),
    member: Nullable(Member),
    created: Timestamp,
  }),
);
export type StatusHistory = Static<typeof StatusHistory>;
/** `GET /v1/inquiry/{inquiry_id}/status_history` response. */
export const StatusHistoryPage = withExample(
  Page(StatusHistory),
  page([
    {
      id: 12,
      status: { id: 2, title: 'Won', folder: { id: 2, name: 'Closed' } },
      previousStatus: { id: 1, title: 'New', folder: { id: 1, name: 'Sales' } },
      member: null,
      created: EXAMPLES.created,
    },
  ]),
);

/** A `folder_history` item (docs/api.md#inquiries). */
export const FolderHistory = Named(
  'InquiryFolderHistory',
  Type.Object({
    id: Type.Integer(),
    folder: FolderRef,
    previousFolder: Nullable(FolderRef),
    member: Nullable(Member),
    created: Timestamp,
  }),
);
export type FolderHistory = Static<typeof FolderHistory>;
/** `GET /v1/inquiry/{inquiry_id}/folder_history` response. */
export const FolderHistoryPage = withExample(
  Page(FolderHistory),
  page([
    {
      id: 4,
      folder: { id: 2, name: 'Closed' },
      previousFolder: { id: 1, name: 'Sales' },
      member: null,
      created: EXAMPLES.created,
    },
  ]),
);

const textHistoryProperties = {
  id: Type.Integer(),
  content: Type.String({ maxLength: TEXT_HISTORY_MAX_LENGTH }),
  created: Timestamp,
  member: Nullable(Member),
};
/**
 * A text note as the create answer and the list items show it (docs/api.md#inquiries): no `updated`
 * (docs/api.md#updated). `member` is null when the note names no member.
 */
export const TextHistory = Named('InquiryTextHistory', Type.Object(textHistoryProperties));
export type TextHistory = Static<typeof TextHistory>;
/** The full shape of a text note (retrieve, update; the data of its events): the note with `updated` (docs/api.md#events). */
export const TextHistoryFull = Named(
  'InquiryTextHistoryDetail',
  Type.Object({ ...textHistoryProperties, updated: UpdatedProperty }),
);
export type TextHistoryFull = Static<typeof TextHistoryFull>;
const textExample = {
  id: 31,
  content: 'Called the client; they want a quote by Friday.',
  created: EXAMPLES.created,
  member: EXAMPLES.member,
};
/** The create answer, with its example. */
export const TextHistoryCreated = withExample(TextHistory, textExample);
/** The retrieve / update answer, with its example. */
export const TextHistoryDetail = withExample(TextHistoryFull, { ...textExample, updated: EXAMPLES.created });
/** `GET /v1/inquiry/{inquiry_id}/text_history` response. */
export const TextHistoryPage = withExample(Page(TextHistory), page([textExample]));

const content = Type.String({ minLength: 1, maxLength: TEXT_HISTORY_MAX_LENGTH });
const createdInput = Type.String({
  format: 'date-time',
  description: 'When the note was written (any offset); default now.',
});

/** `POST …/text_history` body: `content` required; `created` and `member {id}` optional. */
export const TextHistoryCreateBody = Named(
  'InquiryTextHistoryRequest',
  Type.Object(
    {
      content,
      created: Type.Optional(createdInput),
      member: Type.Optional(
        Nullable(Type.Object({ id: IdParam }, { description: 'The member who wrote the note `{id}`.' })),
      ),
    },
    { examples: [{ content: 'Called the client; they want a quote by Friday.', member: { id: 1 } }] },
  ),
);
export type TextHistoryCreateBody = Static<typeof TextHistoryCreateBody>;

/** `PATCH …/text_history/{history_id}` body: `content` and `created` (the member is not writable). */
export const TextHistoryUpdateBody = Named(
  'PatchedInquiryTextHistoryRequest',
  Type.Object(
    { content: Type.Optional(content), created: Type.Optional(createdInput) },
    { examples: [{ content: 'Called the client; quote due Monday instead.' }] },
  ),
);
export type TextHistoryUpdateBody = Static<typeof TextHistoryUpdateBody>;

/** E-mail send statuses (docs/api.md#inquiries): S sent, D draft, C scheduled, F failed. */
export const EMAIL_STATUSES = ['S', 'D', 'C', 'F'] as const;

const ToSet = Type.Array(Type.Object({ toEmail: Type.String() }));
const CcSet = Type.Array(Type.Object({ ccEmail: Type.String() }));

/** An `email_history` item (docs/api.md#inquiries). */
export const EmailHistory = Named(
  'InquiryEmailHistory',
  Type.Object({
    id: Type.Integer(),
    title: Type.String(),
    fromEmail: Type.String(),
    toSet: ToSet,
    ccSet: CcSet,
    status: StringEnum(EMAIL_STATUSES, { description: 'S sent, D draft, C scheduled, F failed.' }),
    sentAt: Nullable(Timestamp),
    created: Timestamp,
  }),
);
export type EmailHistory = Static<typeof EmailHistory>;
/** `GET /v1/inquiry/{inquiry_id}/email_history` response. */
export const EmailHistoryPage = withExample(
  Page(EmailHistory),
  page([
    {
      id: 5,
      title: 'Your quote for the website renewal',
      fromEmail: 'kim@example.com',
      toSet: [{ toEmail: 'jane@acme.example' }],
      ccSet: [{ ccEmail: 'sales@example.com' }],
      status: 'S',
      sentAt: EXAMPLES.created,
      created: EXAMPLES.created,
    },
  ]),
);

/** An `email_reply_history` item (docs/api.md#inquiries). */
export const EmailReplyHistory = Named(
  'InquiryEmailReplyHistory',
  Type.Object({
    id: Type.Integer(),
    title: Type.String(),
    fromEmail: Type.String(),
    toSet: ToSet,
    ccSet: CcSet,
    isUnread: Type.Boolean(),
    receivedAt: Nullable(Timestamp),
    created: Timestamp,
  }),
);
export type EmailReplyHistory = Static<typeof EmailReplyHistory>;
/** `GET /v1/inquiry/{inquiry_id}/email_reply_history` response. */
export const EmailReplyHistoryPage = withExample(
  Page(EmailReplyHistory),
  page([
    {
      id: 6,
      title: 'Re: Your quote for the website renewal',
      fromEmail: 'jane@acme.example',
      toSet: [{ toEmail: 'kim@example.com' }],
      ccSet: [],
      isUnread: true,
      receivedAt: EXAMPLES.created,
      created: EXAMPLES.created,
    },
  ]),
);

/** A `submit_history` item (docs/api.md#inquiries): the web form and the submitted answers (any JSON). */
export const SubmitHistory = Named(
  'InquirySubmitHistory',
  Type.Object({
    id: Type.Integer(),
    form: Type.Object({ id: Type.Integer(), title: Type.String() }),
    answers: Type.Unknown({ description: 'The answers as the form submitted them (any JSON value).' }),
    created: Timestamp,
  }),
);
export type SubmitHistory = Static<typeof SubmitHistory>;
/** `GET /v1/inquiry/{inquiry_id}/submit_history` response. */
export const SubmitHistoryPage = withExample(
  Page(SubmitHistory),
  page([
    {
      id: 2,
      form: { id: 1, title: 'Contact us' },
      answers: [
        { question: 'Company', answer: 'Acme Corp.' },
        { question: 'Budget', answer: '10,000,000 KRW' },
      ],
      created: EXAMPLES.created,
    },
  ]),
);
