/** Response and query shapes of the read-only catalogs (docs/api.md#catalogs). */
import Type, { type Static } from 'typebox';
import { PageQueryProperties } from '../../shared/pagination.ts';
import {
  EXAMPLES,
  IdTitle,
  Member,
  Page,
  QueryBoolean,
  QueryId,
  QuerySearch,
  StringEnum,
  withExample,
  Named,
} from '../../shared/schemas.ts';

const page = (results: unknown[]) => ({ next: null, previous: null, results });

/** Custom field data types (docs/api.md#catalogs). */
export const FIELD_DATA_TYPES = ['S', 'N', 'M', 'D', 'T', 'B', 'SL', 'ML'] as const;
/** Record kinds a custom field belongs to: inquiry, client, contract. */
export const FIELD_CATEGORIES = ['I', 'C', 'CO'] as const;

/** An option of a single- or multi-select field; a field value carries its `id`. */
export const FieldOption = Named('FieldOption', Type.Object({ id: Type.String(), title: Type.String() }));

/** A custom field (docs/api.md#catalogs, docs/api.md#custom-field-values). */
export const Field = Named(
  'Field',
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    dataType: StringEnum(FIELD_DATA_TYPES, {
      description:
        'S short text, T long text, N number, D date, B boolean, SL single select, ML multi select, M member.',
    }),
    optionSet: Type.Array(FieldOption, { description: 'Options of SL / ML fields; a value carries the option `id`.' }),
    memberSet: Type.Array(Member, { description: 'Members an M field may hold; a value carries the member id.' }),
  }),
);
export type Field = Static<typeof Field>;

/** `GET /v1/field` response. */
export const FieldPage = withExample(
  Page(Field),
  page([
    {
      id: 2,
      name: 'Channel',
      dataType: 'SL',
      optionSet: [
        { id: 'web', title: 'Web' },
        { id: 'phone', title: 'Phone' },
      ],
      memberSet: [],
    },
    { id: 1, name: 'Account owner', dataType: 'M', optionSet: [], memberSet: [EXAMPLES.member] },
  ]),
);
/** `GET /v1/field` query: `category`, `cursor`, `page_size` (docs/api.md#catalogs). */
export const FieldListQuery = Type.Object({
  ...PageQueryProperties,
  category: Type.Optional(
    StringEnum(FIELD_CATEGORIES, { description: 'Record kind: I inquiry, C client, CO contract.' }),
  ),
});
export type FieldListQuery = Static<typeof FieldListQuery>;

/** `GET /v1/member` response. */
export const MemberPage = withExample(Page(Member), page([EXAMPLES.member]));
/** `GET /v1/member` query: `cursor`, `is_active`, `page_size`, `search` (docs/api.md#catalogs). */
export const MemberListQuery = Type.Object({
  ...PageQueryProperties,
  search: Type.Optional(QuerySearch),
  is_active: Type.Optional(QueryBoolean),
});
export type MemberListQuery = Static<typeof MemberListQuery>;

/** An inquiry status with its folder. */
export const InquiryStatus = Named(
  'InquiryStatus',
  Type.Object({
    id: Type.Integer(),
    title: Type.String(),
    folder: Type.Object({ id: Type.Integer(), name: Type.String() }),
  }),
);
export type InquiryStatus = Static<typeof InquiryStatus>;
/** `GET /v1/inquiry/status` response. */
export const InquiryStatusPage = withExample(
  Page(InquiryStatus),
  page([
    { id: 1, title: 'New', folder: { id: 1, name: 'Sales' } },
    { id: 2, title: 'Won', folder: { id: 1, name: 'Sales' } },
  ]),
);
/** `GET /v1/inquiry/status` query: `cursor`, `folder_id`, `page_size` (docs/api.md#catalogs). */
export const InquiryStatusListQuery = Type.Object({
  ...PageQueryProperties,
  folder_id: Type.Optional(QueryId),
});
export type InquiryStatusListQuery = Static<typeof InquiryStatusListQuery>;

/** A folder of inquiry statuses. */
export const Folder = Named(
  'Folder',
  Type.Object({ id: Type.Integer(), name: Type.String(), isDefault: Type.Boolean() }),
);
export type Folder = Static<typeof Folder>;
/** `GET /v1/folder` response: a plain array, the default folder first. */
export const FolderList = withExample(Type.Array(Folder), [
  { id: 1, name: 'Sales', isDefault: true },
  { id: 2, name: 'Archive', isDefault: false },
]);
/** `GET /v1/folder` query: `search` (docs/api.md#catalogs). */
export const FolderListQuery = Type.Object({ search: Type.Optional(QuerySearch) });
export type FolderListQuery = Static<typeof FolderListQuery>;

/** A client status. */
export const ClientStatus = IdTitle;
/** `GET /v1/client/status` response. */
export const ClientStatusPage = withExample(
  Page(ClientStatus),
  page([
    { id: 1, title: 'Lead' },
    { id: 2, title: 'Customer' },
  ]),
);
/** A query of only `cursor` and the page size. */
export const PlainPageQuery = Type.Object({ ...PageQueryProperties });
export type PlainPageQuery = Static<typeof PlainPageQuery>;

/** A contract category. */
export const ContractCategory = IdTitle;
/** `GET /v1/contract/category` response. */
export const ContractCategoryPage = withExample(Page(ContractCategory), page([{ id: 1, title: 'Web development' }]));
/** A query of `cursor`, the page size and `search`. */
export const SearchPageQuery = Type.Object({ ...PageQueryProperties, search: Type.Optional(QuerySearch) });
export type SearchPageQuery = Static<typeof SearchPageQuery>;

/** Settlement type base types (docs/api.md#catalogs). */
export const SETTLEMENT_BASE_TYPES = ['INI', 'INS', 'BAL', 'COM', 'SUB', 'SIN', 'ADD', 'OUT'] as const;
/** Settlement type categories: I round-based, S recurring, E other (docs/api.md#catalogs). */
export const SETTLEMENT_TYPE_CATEGORIES = ['I', 'S', 'E'] as const;

/** A settlement type (the settlement "form"). */
export const SettlementType = Named(
  'SettlementType',
  Type.Object({
    id: Type.Integer(),
    baseType: StringEnum(SETTLEMENT_BASE_TYPES),
    category: StringEnum(SETTLEMENT_TYPE_CATEGORIES),
    title: Type.String(),
    allowsMultipleRounds: Type.Boolean(),
  }),
);
export type SettlementType = Static<typeof SettlementType>;
/** `GET /v1/settlement/type` response: a plain array in catalog order. */
export const SettlementTypeList = withExample(Type.Array(SettlementType), [
  { id: 1, baseType: 'INI', category: 'I', title: 'Down payment', allowsMultipleRounds: false },
  { id: 2, baseType: 'SUB', category: 'I', title: 'Interim payment', allowsMultipleRounds: true },
]);
