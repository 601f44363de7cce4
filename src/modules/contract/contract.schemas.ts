/**
 * Contract shapes (docs/api.md#contracts; `status`, `isHidden`: docs/api.md#extensions).
 * Create responses and list items carry the list shape (no `vatType`, recurring fields or `fieldSet`);
 * retrieve and update carry the full shape. {@link ContractSummary} is the contract as settlements, projects
 * and inquiries nest it.
 */
import { NestedClientSchema } from '../client/client.schemas.ts';
import Type, { type Static } from 'typebox';
import { FieldSetInput, FieldValue } from '../field/field.schemas.ts';
import { PageQueryProperties } from '../../shared/pagination.ts';
import {
  DateString,
  EXAMPLES,
  IdParam,
  IdTitle,
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

/** Contract types: I installment (round-based) settlement, S recurring payment, G single settlement. */
export const CONTRACT_TYPES = ['I', 'S', 'G'] as const;
/** Contract statuses: P in preparation, I settlement in progress, C ended, T suspended. */
export const CONTRACT_STATUSES = ['P', 'I', 'C', 'T'] as const;
/** VAT types: E VAT excluded (the default), I VAT included, N no VAT. */
export const VAT_TYPES = ['E', 'I', 'N'] as const;
/** Recurring settlement cycles: W weekly, M monthly. */
export const SETTLEMENT_CYCLES = ['W', 'M'] as const;

/**
 * An amount of money: a JSON integer ≥ 0 in the currency's unit (docs/api.md#contracts), at most 2^53 − 1 so that
 * every client reads it exactly.
 */
export const Money = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

const ref = (description: string) => Nullable(Type.Object({ id: IdParam }, { description }));

/** Writable properties shared by create and update (all optional here). */
const writable = {
  status: Type.Optional(
    StringEnum(CONTRACT_STATUSES, {
      'x-extension': true,
      description:
        'P in preparation (default), I settlement in progress, C ended, T suspended. Writable here (extension).',
    }),
  ),
  contractNumber: Type.Optional(Nullable(Type.String({ maxLength: 128 }))),
  startDate: Type.Optional(Nullable(DateString)),
  endDate: Type.Optional(Nullable(DateString)),
  vatType: Type.Optional(StringEnum(VAT_TYPES, { description: 'E VAT excluded (default), I VAT included, N no VAT.' })),
  settlementFrequency: Type.Optional(
    Nullable(
      Type.Integer({
        minimum: 1,
        maximum: 1000,
        description: 'Every how many cycles a payment falls due; type S only.',
      }),
    ),
  ),
  settlementCycle: Type.Optional(
    Nullable(StringEnum(SETTLEMENT_CYCLES, { description: 'W week, M month; type S only.' })),
  ),
  settlementDay: Type.Optional(
    Nullable(
      Type.Integer({
        minimum: 0,
        maximum: 30,
        description: 'Type S only. Weekly: 0 Sunday … 6 Saturday. Monthly: day of month 1..30 (31 is not allowed).',
      }),
    ),
  ),
  inquiry: Type.Optional(ref('The inquiry `{id}` this contract comes from (1:1); null unlinks it.')),
  client: Type.Optional(ref('The client `{id}`; null unlinks it.')),
  categorySet: Type.Optional(
    Type.Unsafe<{ id: number }[] | null>({
      type: ['array', 'null'],
      items: Type.Object({ id: IdParam }),
      maxItems: 100,
      description: 'Contract categories `[{id}]`; replaces the whole set (null or [] clears it).',
    }),
  ),
  fieldSet: Type.Optional(FieldSetInput),
  isHidden: Type.Optional(Type.Boolean({ 'x-extension': true, description: 'Hidden flag (extension).' })),
};

const title = Type.String({ minLength: 1, maxLength: 128 });
const type = StringEnum(CONTRACT_TYPES, {
  description: 'I installment settlement, S recurring payment, G single settlement.',
});

/** `POST /v1/contract` body: `title`, `amount` and `type` are required (docs/api.md#contracts). */
export const ContractCreateBody = Named(
  'ContractRequest',
  Type.Object(
    { title, amount: Money, type, ...writable },
    {
      examples: [
        {
          title: 'Website renewal',
          amount: 12000000,
          type: 'I',
          contractNumber: 'C-2026-001',
          startDate: '2026-12-01',
          endDate: '2027-03-31',
          vatType: 'E',
        },
      ],
    },
  ),
);
export type ContractCreateBody = Static<typeof ContractCreateBody>;

/** `PATCH /v1/contract/{contract_id}` body: any create property. */
export const ContractUpdateBody = Named(
  'PatchedContractRequest',
  Type.Object(
    { title: Type.Optional(title), amount: Type.Optional(Money), type: Type.Optional(type), ...writable },
    {
      examples: [
        { status: 'I', categorySet: [{ id: 1 }, { id: 2 }], fieldSet: [{ field: { id: 9 }, value: 'PO-1234' }] },
      ],
    },
  ),
);
export type ContractUpdateBody = Static<typeof ContractUpdateBody>;

const nullableText = Nullable(Type.String());

/**
 * The client summary nested in a contract (docs/api.md#contracts; null when none or deleted): the client
 * module's one shape, `NestedClient`, named `ContractClient` in the document.
 */
export const ContractClient = NestedClientSchema('ContractClient');

/** The inquiry summary nested in a contract (docs/api.md#contracts); null when none or deleted. */
export const ContractInquiry = Named(
  'ContractInquiry',
  Type.Object({
    id: Type.Integer(),
    uniqueId: Nullable(Type.String()),
    status: Nullable(
      Type.Object({
        id: Type.Integer(),
        title: Type.String(),
        folder: Type.Object({ id: Type.Integer(), name: Type.String() }),
      }),
    ),
    name: Type.String(),
    estimate: Type.String({ description: 'Decimal with exactly two decimals.' }),
    inquiryDate: DateString,
  }),
);
export type ContractInquiry = Static<typeof ContractInquiry>;

/**
 * The contract as settlements, projects and inquiries nest it (docs/api.md#contracts):
 * `{id, title, amount, type, status, startDate, endDate}`.
 */
export const ContractSummary = Named(
  'ContractSummary',
  Type.Object({
    id: Type.Integer(),
    title: Type.String(),
    amount: Type.Integer(),
    type: StringEnum(CONTRACT_TYPES),
    status: StringEnum(CONTRACT_STATUSES),
    startDate: Nullable(DateString),
    endDate: Nullable(DateString),
  }),
);
export type ContractSummary = Static<typeof ContractSummary>;

/** Properties of the list shape (docs/api.md#contracts: create answers and list items carry only these). */
const listProperties = {
  id: Type.Integer(),
  title: Type.String(),
  amount: Type.Integer(),
  type: StringEnum(CONTRACT_TYPES),
  status: StringEnum(CONTRACT_STATUSES),
  created: Timestamp,
  contractNumber: nullableText,
  startDate: Nullable(DateString),
  endDate: Nullable(DateString),
  inquiry: Nullable(ContractInquiry),
  client: Nullable(ContractClient),
  categorySet: Type.Array(IdTitle),
};

/** The list shape: create response and list items. */
export const ContractListItem = Named('ContractListItem', Type.Object(listProperties));
export type ContractListItem = Static<typeof ContractListItem>;

/** The full shape: retrieve and update responses. */
export const Contract = Named(
  'Contract',
  Type.Object({
    ...listProperties,
    vatType: StringEnum(VAT_TYPES),
    settlementFrequency: Nullable(Type.Integer()),
    settlementCycle: Nullable(StringEnum(SETTLEMENT_CYCLES)),
    settlementDay: Nullable(Type.Integer()),
    fieldSet: Type.Array(FieldValue),
    isHidden: Type.Boolean({ 'x-extension': true }),
    updated: UpdatedProperty,
  }),
);
export type Contract = Static<typeof Contract>;

const listExample = {
  id: 12,
  title: 'Website renewal',
  amount: 12000000,
  type: 'I',
  status: 'P',
  created: EXAMPLES.created,
  contractNumber: 'C-2026-001',
  startDate: '2026-12-01',
  endDate: '2027-03-31',
  inquiry: {
    id: 5,
    uniqueId: 'INQ-0005',
    status: { id: 2, title: 'Won', folder: { id: 1, name: 'Sales' } },
    name: 'Website renewal',
    estimate: '12000000.00',
    inquiryDate: '2026-11-02',
  },
  client: {
    id: 42,
    status: { id: 1, title: 'Lead' },
    companyName: 'Acme Corp.',
    inCharge: 'Jane Doe',
    position: 'CTO',
    contact: '+82-2-555-0100',
    email: 'jane@acme.example',
  },
  categorySet: [{ id: 1, title: 'Web development' }],
};

/** `GET /v1/contract` response. */
export const ContractPage = withExample(Page(ContractListItem), {
  next: EXAMPLES.pageLink,
  previous: null,
  results: [listExample],
});

/** The create response, with its example. */
export const ContractCreated = withExample(ContractListItem, listExample);

/** The retrieve / update response, with its example. */
export const ContractDetail = withExample(Contract, {
  ...listExample,
  vatType: 'E',
  settlementFrequency: null,
  settlementCycle: null,
  settlementDay: null,
  fieldSet: [{ field: { id: 9, name: 'Project code', dataType: 'S', optionSet: [], memberSet: [] }, value: 'PRJ-77' }],
  isHidden: false,
  updated: EXAMPLES.created,
});

/**
 * `GET /v1/contract` query (docs/api.md#contracts, docs/api.md#filters). `status` and `category_id` are
 * extensions (docs/api.md#extensions).
 */
export const ContractListQuery = Type.Object({
  ...PageQueryProperties,
  search: Type.Optional(QuerySearch),
  client_id: Type.Optional(QueryId),
  inquiry_id: Type.Optional(QueryId),
  created_start: Type.Optional(QueryDate),
  created_end: Type.Optional(QueryDate),
  start_date_from: Type.Optional(QueryDate),
  start_date_to: Type.Optional(QueryDate),
  end_date_from: Type.Optional(QueryDate),
  end_date_to: Type.Optional(QueryDate),
  is_hidden: Type.Optional(QueryBoolean),
  status: Type.Optional(
    StringEnum(CONTRACT_STATUSES, { 'x-extension': true, description: 'Only contracts in this status (extension).' }),
  ),
  category_id: Type.Optional({
    ...QueryId,
    'x-extension': true,
    description: 'Only contracts in this category (extension).',
  }),
  ...UpdatedQueryProperties,
});
export type ContractListQuery = Static<typeof ContractListQuery>;

/** Path parameters of `/v1/contract/{contract_id}`. */
export const ContractIdParams = Type.Object({ contract_id: IdParam });
