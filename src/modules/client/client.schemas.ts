/**
 * Client shapes (docs/api.md#clients; `isHidden`: docs/api.md#extensions; `updated`: docs/api.md#events).
 * Create and list items carry the short shape; retrieve and update the full one.
 */
import Type, { type Static } from 'typebox';
import { FieldSetInput, FieldValue } from '../field/field.schemas.ts';
import { PageQueryProperties } from '../../shared/pagination.ts';
import {
  EXAMPLES,
  IdParam,
  IdTitle,
  Nullable,
  Page,
  QueryBoolean,
  QueryDate,
  QueryId,
  QuerySearch,
  Timestamp,
  UpdatedProperty,
  UpdatedQueryProperties,
  withExample,
  Named,
} from '../../shared/schemas.ts';

/**
 * The client summary inquiries and contracts nest (docs/api.md#inquiries, docs/api.md#contracts; null when
 * none or deleted): one shape, named as each nesting resource's document names it (`InquiryClient`,
 * `ContractClient`). client.service `toNestedClient` maps it.
 */
export function NestedClientSchema(name: 'InquiryClient' | 'ContractClient') {
  const nullableText = Nullable(Type.String());
  return Named(
    name,
    Type.Object({
      id: Type.Integer(),
      status: Nullable(IdTitle),
      companyName: Type.String(),
      inCharge: nullableText,
      position: nullableText,
      contact: nullableText,
      email: nullableText,
    }),
  );
}
/** The client summary inquiries and contracts nest ({@link NestedClientSchema}). */
export type NestedClient = Static<ReturnType<typeof NestedClientSchema>>;

const text = (maxLength: number, description?: string) =>
  Type.Optional(Nullable(Type.String({ maxLength, ...(description ? { description } : {}) })));

/** Writable properties shared by create and update (all optional here). */
const writable = {
  status: Type.Optional(
    Nullable(
      Type.Object(
        { id: IdParam },
        { description: 'Client status `{id}`; omitted on create → the default client status.' },
      ),
    ),
  ),
  inCharge: text(64, 'Contact person name.'),
  position: text(64),
  contact: text(128, 'Phone number or other contact.'),
  email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 254 }))),
  content: text(10000, 'Memo.'),
  businessRegistrationNumber: text(16),
  ceoName: text(64),
  companyAddress: text(256),
  companyDetailAddress: text(256),
  businessType: text(64),
  businessClass: text(64),
  branchNumber: text(4),
  taxInvoiceEmail: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 254 }))),
  fieldSet: Type.Optional(FieldSetInput),
  isHidden: Type.Optional(Type.Boolean({ 'x-extension': true, description: 'Hidden flag (extension).' })),
};

const companyName = Type.String({ minLength: 1, maxLength: 128 });

/** `POST /v1/client` body: only `companyName` is required. */
export const ClientCreateBody = Named(
  'ClientRequest',
  Type.Object(
    { companyName, ...writable },
    { examples: [{ companyName: 'Acme Corp.', inCharge: 'Jane Doe', email: 'jane@acme.example', status: { id: 1 } }] },
  ),
);
export type ClientCreateBody = Static<typeof ClientCreateBody>;

/** `PATCH /v1/client/{client_id}` body: any create property. */
export const ClientUpdateBody = Named(
  'PatchedClientRequest',
  Type.Object(
    { companyName: Type.Optional(companyName), ...writable },
    { examples: [{ contact: '+82-2-555-0100', fieldSet: [{ field: { id: 3 }, value: 'web' }] }] },
  ),
);
export type ClientUpdateBody = Static<typeof ClientUpdateBody>;

const nullableText = Nullable(Type.String());

const summaryExample = {
  id: 42,
  companyName: 'Acme Corp.',
  created: EXAMPLES.created,
  status: { id: 1, title: 'Lead' },
  inCharge: 'Jane Doe',
  position: 'CTO',
  contact: '+82-2-555-0100',
  email: 'jane@acme.example',
};

/** Properties of the short shape (docs/api.md#clients: create answers and list items carry only these). */
const summaryProperties = {
  id: Type.Integer(),
  companyName: Type.String(),
  created: Timestamp,
  status: Nullable(IdTitle),
  inCharge: nullableText,
  position: nullableText,
  contact: nullableText,
  email: nullableText,
};

/** The short shape: create response and list items. */
export const ClientSummary = Named('ClientListItem', Type.Object(summaryProperties));
export type ClientSummary = Static<typeof ClientSummary>;

/** The full shape: retrieve and update responses. */
export const Client = Named(
  'Client',
  Type.Object({
    ...summaryProperties,
    content: nullableText,
    businessRegistrationNumber: nullableText,
    ceoName: nullableText,
    companyAddress: nullableText,
    companyDetailAddress: nullableText,
    businessType: nullableText,
    businessClass: nullableText,
    branchNumber: nullableText,
    taxInvoiceEmail: nullableText,
    fieldSet: Type.Array(FieldValue),
    isHidden: Type.Boolean({ 'x-extension': true }),
    updated: UpdatedProperty,
  }),
);
export type Client = Static<typeof Client>;

/** `GET /v1/client` response. */
export const ClientPage = withExample(Page(ClientSummary), {
  next: EXAMPLES.pageLink,
  previous: null,
  results: [summaryExample],
});

/** The create response, with its example. */
export const ClientCreated = withExample(ClientSummary, summaryExample);

/** The retrieve / update response, with its example. */
export const ClientDetail = withExample(Client, {
  ...summaryExample,
  content: 'Met at the trade fair.',
  businessRegistrationNumber: '123-45-67890',
  ceoName: 'John Roe',
  companyAddress: '1 Main Street, Seoul',
  companyDetailAddress: '5th floor',
  businessType: 'Service',
  businessClass: 'Software',
  branchNumber: '0001',
  taxInvoiceEmail: 'billing@acme.example',
  fieldSet: [
    {
      field: { id: 2, name: 'Channel', dataType: 'SL', optionSet: [{ id: 'web', title: 'Web' }], memberSet: [] },
      value: 'web',
    },
  ],
  isHidden: false,
  updated: EXAMPLES.created,
});

/** `GET /v1/client` query (docs/api.md#clients, docs/api.md#filters). */
export const ClientListQuery = Type.Object({
  ...PageQueryProperties,
  created_start: Type.Optional(QueryDate),
  created_end: Type.Optional(QueryDate),
  is_hidden: Type.Optional(QueryBoolean),
  search: Type.Optional(QuerySearch),
  status_id: Type.Optional(QueryId),
  ...UpdatedQueryProperties,
});
export type ClientListQuery = Static<typeof ClientListQuery>;

/** Path parameters of `/v1/client/{client_id}`. */
export const ClientIdParams = Type.Object({ client_id: IdParam });
