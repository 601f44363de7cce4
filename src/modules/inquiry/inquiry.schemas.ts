/**
 * Inquiry shapes (docs/api.md#inquiries, with the decimal `estimate`; the hidden flag:
 * docs/api.md#extensions). Three response shapes: the create shape (201) and the list item, both the
 * shared summary plus `inChargeSet`, and the full shape (retrieve, update).
 */
import { NestedClientSchema } from '../client/client.schemas.ts';
import Type, { type Static } from 'typebox';
import { FieldSetInput, FieldValue } from '../field/field.schemas.ts';
import { PageQueryProperties } from '../../shared/pagination.ts';
import {
  DateString,
  EXAMPLES,
  IdParam,
  IdRef,
  Member,
  Nullable,
  Page,
  QueryBoolean,
  QueryDate,
  QueryId,
  QuerySearch,
  StringEnum,
  Timestamp,
  UpdatedProperty,
  UpdatedQueryProperties,
  withExample,
  Named,
} from '../../shared/schemas.ts';
import { InquiryStatus } from '../catalog/catalog.schemas.ts';
import { FileSetInput, INQUIRY_FILE_EXAMPLE, InquiryFile } from '../file/file.schemas.ts';

/** Most entries of `workSet`, `inChargeSet` and `fileLinkSet` in one request. */
export const MAX_SET_ITEMS = 100;

/** The funnel properties (docs/api.md#inquiries): UTM parameters, guest id and Google click id. */
export const FUNNEL_KEYS = [
  'utmCampaign',
  'utmSource',
  'utmMedium',
  'utmContent',
  'utmTerm',
  'guestUid',
  'gclid',
] as const;
export type FunnelKey = (typeof FUNNEL_KEYS)[number];

const funnelText = Type.Optional(Nullable(Type.String({ maxLength: 256 })));

/** `funnel` in a request: any of the seven keys; a key sent as null clears it. */
export const FunnelInput = Named(
  'FunnelRequest',
  Type.Object(Object.fromEntries(FUNNEL_KEYS.map((k) => [k, funnelText])) as Record<FunnelKey, typeof funnelText>, {
    description:
      'Marketing funnel. In a PATCH the keys sent change and the others are kept; `funnel: null` clears all seven.',
  }),
);

/** `estimate` in a request: a decimal string (or JSON number), up to 28 integer digits and 2 decimals. */
export const EstimateInput = Type.Unsafe<string | number | null>({
  type: ['number', 'string', 'null'],
  description:
    'Decimal, up to 28 integer digits and 2 decimals (`"1500000"`, `"-12.5"`); a JSON number is accepted too. null → 0.',
  examples: ['1500000.00'],
});

/** A member reference in a request (docs/api.md#inquiries: `{id}`; other keys ignored). */
const MemberRef = Type.Object({ id: IdParam }, { description: 'A member `{id}`; other member keys are ignored.' });

const WorkInput = Type.Object({ name: Type.String({ minLength: 1, maxLength: 256 }) });
const FileLinkInput = Type.Object({
  text: Type.String({ minLength: 1, maxLength: 256 }),
  link: Type.String({ minLength: 1, maxLength: 2048 }),
});

const nullableList = <T extends Parameters<typeof Type.Array>[0]>(item: T, description: string) =>
  Type.Optional(Nullable(Type.Array(item, { maxItems: MAX_SET_ITEMS, description })));

/** Writable properties of create and update other than `status`, `name` and `inquiryDate`. */
const writable = {
  client: Type.Optional(Nullable(Type.Object({ id: IdParam }, { description: 'Client `{id}`; null unlinks.' }))),
  content: Type.Optional(Nullable(Type.String({ maxLength: 20000 }))),
  estimate: Type.Optional(EstimateInput),
  funnel: Type.Optional(Nullable(FunnelInput)),
  workSet: nullableList(WorkInput, 'Tasks `{name}`. In a PATCH the list replaces the tasks; null changes nothing.'),
  inChargeSet: nullableList(
    MemberRef,
    'Responsible members `[{id}]`. In a PATCH the list replaces the set; null changes nothing.',
  ),
  fieldSet: Type.Optional(FieldSetInput),
  fileLinkSet: nullableList(
    FileLinkInput,
    'Links `{text, link}`. In a PATCH the list replaces the links; null changes nothing.',
  ),
  isHidden: Type.Optional(Type.Boolean({ 'x-extension': true, description: 'Hidden flag (extension).' })),
  fileSet: Type.Optional(FileSetInput),
  contract: Type.Optional(
    Nullable(
      Type.Object(
        { id: IdParam },
        {
          description: 'Contract `{id}` (1:1): a contract already linked to another inquiry is refused; null unlinks.',
        },
      ),
    ),
  ),
};

const name = Type.String({ minLength: 1, maxLength: 64 });

/** `POST /v1/inquiry` body: everything optional (docs/api.md#inquiries). */
export const InquiryCreateBody = Named(
  'InquiryRequest',
  Type.Object(
    {
      status: Type.Optional(
        Nullable(
          Type.Object(
            { id: IdParam },
            { description: 'Status `{id}`; omitted or null → the default status of the default folder.' },
          ),
        ),
      ),
      name: Type.Optional(Nullable({ ...name, description: 'Omitted or null → `의뢰 제목`.' })),
      inquiryDate: Type.Optional(
        Nullable({ ...DateString, description: "Omitted or null → today in the business's time zone." }),
      ),
      ...writable,
    },
    {
      examples: [
        {
          name: 'Website renewal',
          client: { id: 42 },
          estimate: '1500000',
          inChargeSet: [{ id: 1 }],
          workSet: [{ name: 'Send a quote' }],
          funnel: { utmSource: 'google', utmMedium: 'cpc' },
          fieldSet: [{ field: { id: 2 }, value: 'web' }],
          fileLinkSet: [{ text: 'Brief', link: 'https://docs.example.com/brief' }],
        },
      ],
    },
  ),
);
export type InquiryCreateBody = Static<typeof InquiryCreateBody>;

/** `PATCH /v1/inquiry/{inquiry_id}` body: any create property; `status`, `name`, `inquiryDate` not null. */
export const InquiryUpdateBody = Named(
  'PatchedInquiryRequest',
  Type.Object(
    {
      status: Type.Optional(IdRef),
      name: Type.Optional(name),
      inquiryDate: Type.Optional(DateString),
      ...writable,
    },
    {
      examples: [
        { status: { id: 2 }, inChargeSet: [{ id: 1 }, { id: 3 }], fieldSet: [{ field: { id: 2 }, value: '' }] },
      ],
    },
  ),
);
export type InquiryUpdateBody = Static<typeof InquiryUpdateBody>;

const nullableText = Nullable(Type.String());

/** The client summary nested in an inquiry (docs/api.md#inquiries; the client module's shape); null when none or deleted. */
export const NestedClient = NestedClientSchema('InquiryClient');

/** The contract summary nested in an inquiry (docs/api.md#contracts), read through the contract's link. */
export const NestedContract = Named(
  'InquiryContract',
  Type.Object({
    id: Type.Integer(),
    title: Type.String(),
    amount: Type.Integer(),
    type: StringEnum(['I', 'S', 'G'] as const),
    status: StringEnum(['P', 'I', 'C', 'T'] as const),
    startDate: Nullable(DateString),
    endDate: Nullable(DateString),
  }),
);

/** `funnel` in a response: the seven keys, each a string or null. */
export const Funnel = Named(
  'Funnel',
  Type.Object(Object.fromEntries(FUNNEL_KEYS.map((k) => [k, nullableText])) as Record<FunnelKey, typeof nullableText>),
);
export type Funnel = Static<typeof Funnel>;

/** A `fileLinkSet` entry in a response. */
export const FileLink = Named(
  'FileLink',
  Type.Object({ id: Type.Integer(), text: Type.String(), link: Type.String(), created: Timestamp }),
);

/** A `fileSet` entry in a response (`src/modules/file`); `file` is a pre-signed download URL. */
export { InquiryFile };

/**
 * The properties every inquiry shape starts with. The create shape adds `inChargeSet` (docs/api.md#inquiries:
 * the create answer is `id, uniqueId, created, status, client, contract, name, estimate, inquiryDate,
 * inChargeSet`; the reference service leaves `inChargeSet` out, and its clients ignore the extra key).
 */
const createdProperties = {
  id: Type.Integer(),
  uniqueId: Nullable(
    Type.String({ description: 'The business-visible inquiry number, assigned at create, never reused.' }),
  ),
  created: Timestamp,
  status: Nullable(InquiryStatus),
  client: Nullable(NestedClient),
  contract: Nullable(NestedContract),
  name: Type.String(),
  estimate: Type.String({ description: 'Decimal with exactly two decimals.', examples: ['1500000.00'] }),
  inquiryDate: DateString,
};

/** The properties shared by every inquiry shape (without `inChargeSet`). */
export const InquirySummary = Type.Object(createdProperties);
export type InquirySummary = Static<typeof InquirySummary>;

/** The create shape (201; docs/api.md#inquiries): the shared properties plus `inChargeSet`. */
export const InquiryCreated = Named(
  'InquiryCreated',
  Type.Object({ ...createdProperties, inChargeSet: Type.Array(Member) }),
);
export type InquiryCreated = Static<typeof InquiryCreated>;

/** A list item: the shared properties plus `inChargeSet` (docs/api.md#inquiries), the same keys as the create shape. */
export const InquiryListItem = Named(
  'InquiryListItem',
  Type.Object({ ...createdProperties, inChargeSet: Type.Array(Member) }),
);
export type InquiryListItem = Static<typeof InquiryListItem>;

/** The full shape: retrieve and update (docs/api.md#inquiries). */
export const Inquiry = Named(
  'Inquiry',
  Type.Object({
    ...createdProperties,
    content: nullableText,
    funnel: Funnel,
    workSet: Type.Array(Type.Object({ name: Type.String() })),
    inChargeSet: Type.Array(Member),
    fieldSet: Type.Array(FieldValue),
    fileLinkSet: Type.Array(FileLink),
    fileSet: Type.Array(InquiryFile),
    isHidden: Type.Boolean({ 'x-extension': true }),
    updated: UpdatedProperty,
  }),
);
export type Inquiry = Static<typeof Inquiry>;

const createdExample = {
  id: 7,
  uniqueId: '7',
  created: EXAMPLES.created,
  status: { id: 1, title: 'New', folder: { id: 1, name: 'Sales' } },
  client: {
    id: 42,
    status: { id: 1, title: 'Lead' },
    companyName: 'Acme Corp.',
    inCharge: 'Jane Doe',
    position: 'CTO',
    contact: '+82-2-555-0100',
    email: 'jane@acme.example',
  },
  contract: null,
  name: 'Website renewal',
  estimate: '1500000.00',
  inquiryDate: '2026-11-22',
};

/** The create response, with its example. */
export const InquiryCreatedResponse = withExample(InquiryCreated, {
  ...createdExample,
  inChargeSet: [EXAMPLES.member],
});

/** `GET /v1/inquiry` response. */
export const InquiryPage = withExample(Page(InquiryListItem), {
  next: EXAMPLES.pageLink.replace('/client', '/inquiry'),
  previous: null,
  results: [{ ...createdExample, inChargeSet: [EXAMPLES.member] }],
});

/** The retrieve / update response, with its example. */
export const InquiryDetail = withExample(Inquiry, {
  ...createdExample,
  content: 'Wants a new website before spring.',
  funnel: {
    utmCampaign: 'spring',
    utmSource: 'google',
    utmMedium: 'cpc',
    utmContent: null,
    utmTerm: null,
    guestUid: null,
    gclid: null,
  },
  workSet: [{ name: 'Send a quote' }],
  inChargeSet: [EXAMPLES.member],
  fieldSet: [
    {
      field: { id: 2, name: 'Channel', dataType: 'SL', optionSet: [{ id: 'web', title: 'Web' }], memberSet: [] },
      value: 'web',
    },
  ],
  fileLinkSet: [{ id: 3, text: 'Brief', link: 'https://docs.example.com/brief', created: EXAMPLES.created }],
  fileSet: [INQUIRY_FILE_EXAMPLE],
  isHidden: false,
  updated: EXAMPLES.created,
});

/** `GET /v1/inquiry` query (docs/api.md#inquiries, docs/api.md#filters, docs/api.md#updated). */
export const InquiryListQuery = Type.Object({
  ...PageQueryProperties,
  created_start: Type.Optional(QueryDate),
  created_end: Type.Optional(QueryDate),
  inquiry_date_start: Type.Optional(QueryDate),
  inquiry_date_end: Type.Optional(QueryDate),
  folder_id: Type.Optional(QueryId),
  status_id: Type.Optional(QueryId),
  search: Type.Optional(QuerySearch),
  is_hidden: Type.Optional(QueryBoolean),
  ...UpdatedQueryProperties,
});
export type InquiryListQuery = Static<typeof InquiryListQuery>;

/** Path parameters of `/v1/inquiry/{inquiry_id}`. */
export const InquiryIdParams = Type.Object({ inquiry_id: IdParam });

/** A `GET /v1/inquiry/work` item (docs/api.md#inquiries). */
export const InquiryWork = Named(
  'InquiryWork',
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    inquiry: Type.Object({ id: Type.Integer(), uniqueId: Nullable(Type.String()), name: Type.String() }),
    created: Timestamp,
  }),
);
export type InquiryWork = Static<typeof InquiryWork>;

/** `GET /v1/inquiry/work` response. */
export const InquiryWorkPage = withExample(Page(InquiryWork), {
  next: null,
  previous: null,
  results: [
    {
      id: 11,
      name: 'Send a quote',
      inquiry: { id: 7, uniqueId: '7', name: 'Website renewal' },
      created: EXAMPLES.created,
    },
  ],
});
