/**
 * Settlement shapes (docs/api.md#settlements; `status` on `PATCH`, `isHidden`: docs/api.md#extensions).
 * Create responses and list items carry the list shape; retrieve and update carry the full shape.
 */
import Type, { type Static } from 'typebox';
import { PageQueryProperties } from '../../shared/pagination.ts';
import {
  DateString,
  EXAMPLES,
  IdParam,
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
import { SettlementType } from '../catalog/catalog.schemas.ts';
import { ContractSummary, Money } from '../contract/contract.schemas.ts';

/** Settlement statuses: C scheduled, D delayed, S completed, P suspended. */
export const SETTLEMENT_STATUSES = ['C', 'D', 'S', 'P'] as const;
export type SettlementStatus = (typeof SETTLEMENT_STATUSES)[number];

const title = Type.String({ minLength: 1, maxLength: 128 });
const optionalDate = Type.Optional(Nullable(DateString));
const inChargeSet = Type.Optional(
  Type.Unsafe<{ id: number }[] | null>({
    type: ['array', 'null'],
    items: Type.Object({ id: IdParam }),
    maxItems: 100,
    description: 'Responsible members `[{id}]`; replaces the whole set (null or [] clears it).',
  }),
);

/** Writable on create and update (all optional here). */
const writable = {
  dueDate: optionalDate,
  settledDate: optionalDate,
  isTaxInvoiceIssued: Type.Optional(Type.Boolean()),
  isTaxInvoiceNeeded: Type.Optional(Type.Boolean()),
  taxInvoiceIssuedDate: optionalDate,
  taxInvoiceIssueDueDate: optionalDate,
  inChargeSet,
  isHidden: Type.Optional(Type.Boolean({ 'x-extension': true, description: 'Hidden flag (extension).' })),
};

/**
 * `POST /v1/settlement` body: `title`, `amount`, `additionalAmount`, `vat`, `contract` and `type` are required
 * (docs/api.md#settlements).
 */
export const SettlementCreateBody = Named(
  'SettlementRequest',
  Type.Object(
    {
      title,
      amount: Money,
      additionalAmount: Money,
      vat: Money,
      contract: Type.Object({ id: IdParam }, { description: 'The contract `{id}`.' }),
      type: Type.Object(
        { id: IdParam },
        { description: 'The settlement type (form) `{id}`; OUTSTANDING_PAYMENT (`OUT`) cannot be used.' },
      ),
      settlementRound: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: 10000,
          description: 'Round number; default: one more than the settlements of this type on the contract.',
        }),
      ),
      ...writable,
    },
    {
      examples: [
        {
          title: 'Down payment',
          amount: 3000000,
          additionalAmount: 0,
          vat: 300000,
          contract: { id: 12 },
          type: { id: 1 },
          dueDate: '2026-12-10',
          isTaxInvoiceNeeded: true,
        },
      ],
    },
  ),
);
export type SettlementCreateBody = Static<typeof SettlementCreateBody>;

/**
 * `PATCH /v1/settlement/{settlement_id}` body (docs/api.md#settlements: no `contract`, `type`, `settlementRound`); `status`
 * is an extension.
 */
export const SettlementUpdateBody = Named(
  'PatchedSettlementRequest',
  Type.Object(
    {
      title: Type.Optional(title),
      amount: Type.Optional(Money),
      additionalAmount: Type.Optional(Money),
      vat: Type.Optional(Money),
      status: Type.Optional(
        StringEnum(SETTLEMENT_STATUSES, {
          'x-extension': true,
          description:
            'C scheduled, D delayed, S completed, P suspended. Writable here (extension); every change is recorded in the status history.',
        }),
      ),
      ...writable,
    },
    {
      examples: [
        { status: 'S', settledDate: '2026-12-09', isTaxInvoiceIssued: true, taxInvoiceIssuedDate: '2026-12-09' },
      ],
    },
  ),
);
export type SettlementUpdateBody = Static<typeof SettlementUpdateBody>;

/** Properties of the list shape (docs/api.md#settlements: create answers and list items carry only these). */
const listProperties = {
  id: Type.Integer(),
  title: Type.String(),
  status: StringEnum(SETTLEMENT_STATUSES),
  amount: Type.Integer(),
  additionalAmount: Type.Integer(),
  vat: Type.Integer(),
  typeAlias: Type.String({ description: 'The type’s title, followed by the round for multi-round types.' }),
  created: Timestamp,
  contract: ContractSummary,
  dueDate: Nullable(DateString),
  settledDate: Nullable(DateString),
};

/** The list shape: create response and list items. */
export const SettlementListItem = Named('SettlementListItem', Type.Object(listProperties));
export type SettlementListItem = Static<typeof SettlementListItem>;

/** The full shape: retrieve and update responses. */
export const Settlement = Named(
  'Settlement',
  Type.Object({
    ...listProperties,
    settlementRound: Type.Integer(),
    isTaxInvoiceIssued: Type.Boolean(),
    isTaxInvoiceNeeded: Type.Boolean(),
    type: SettlementType,
    taxInvoiceIssuedDate: Nullable(DateString),
    taxInvoiceIssueDueDate: Nullable(DateString),
    inChargeSet: Type.Array(Member),
    isHidden: Type.Boolean({ 'x-extension': true }),
    updated: UpdatedProperty,
  }),
);
export type Settlement = Static<typeof Settlement>;

/** A status-history entry (docs/api.md#extensions). `member` is null for changes made through the API. */
export const SettlementStatusChange = Named(
  'SettlementStatusHistory',
  Type.Object(
    {
      id: Type.Integer(),
      status: StringEnum(SETTLEMENT_STATUSES),
      previousStatus: Nullable(StringEnum(SETTLEMENT_STATUSES)),
      member: Nullable(Member),
      created: Timestamp,
    },
    { 'x-extension': true },
  ),
);
export type SettlementStatusChange = Static<typeof SettlementStatusChange>;

const listExample = {
  id: 31,
  title: 'Down payment',
  status: 'C',
  amount: 3000000,
  additionalAmount: 0,
  vat: 300000,
  typeAlias: 'Down payment',
  created: EXAMPLES.created,
  contract: {
    id: 12,
    title: 'Website renewal',
    amount: 12000000,
    type: 'I',
    status: 'I',
    startDate: '2026-12-01',
    endDate: '2027-03-31',
  },
  dueDate: '2026-12-10',
  settledDate: null,
};

/** `GET /v1/settlement` response. */
export const SettlementPage = withExample(Page(SettlementListItem), {
  next: null,
  previous: null,
  results: [listExample],
});

/** The create response, with its example. */
export const SettlementCreated = withExample(SettlementListItem, listExample);

/** The retrieve / update response, with its example. */
export const SettlementDetail = withExample(Settlement, {
  ...listExample,
  settlementRound: 1,
  isTaxInvoiceIssued: false,
  isTaxInvoiceNeeded: true,
  type: { id: 1, baseType: 'INI', category: 'I', title: 'Down payment', allowsMultipleRounds: false },
  taxInvoiceIssuedDate: null,
  taxInvoiceIssueDueDate: '2026-12-10',
  inChargeSet: [EXAMPLES.member],
  isHidden: false,
  updated: EXAMPLES.created,
});

/** `GET /v1/settlement/{settlement_id}/status_history` response (extension). */
export const SettlementStatusPage = withExample(Page(SettlementStatusChange), {
  next: null,
  previous: null,
  results: [{ id: 3, status: 'S', previousStatus: 'C', member: null, created: EXAMPLES.created }],
});

/** `GET /v1/settlement` query (docs/api.md#settlements, docs/api.md#filters). */
export const SettlementListQuery = Type.Object({
  ...PageQueryProperties,
  search: Type.Optional(QuerySearch),
  contract_id: Type.Optional(QueryId),
  created_start: Type.Optional(QueryDate),
  created_end: Type.Optional(QueryDate),
  due_date_start: Type.Optional(QueryDate),
  due_date_end: Type.Optional(QueryDate),
  settled_date_start: Type.Optional(QueryDate),
  settled_date_end: Type.Optional(QueryDate),
  is_hidden: Type.Optional(QueryBoolean),
  ...UpdatedQueryProperties,
});
export type SettlementListQuery = Static<typeof SettlementListQuery>;

/** Query of the status history: `cursor`, `page_size` (alias `limit`). */
export const SettlementStatusQuery = Type.Object({ ...PageQueryProperties });
export type SettlementStatusQuery = Static<typeof SettlementStatusQuery>;

/** Path parameters of `/v1/settlement/{settlement_id}`. */
export const SettlementIdParams = Type.Object({ settlement_id: IdParam });
