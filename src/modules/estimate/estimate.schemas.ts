/**
 * Estimate item shapes (docs/api.md#estimate-items, which also states the decimal `unitCost`). The list
 * items and the create response show {@link EstimateItemListItem}; retrieve and update the full shape
 * {@link EstimateItem}, which adds `updated` (docs/api.md#events). Classifications list as `{id, title}`.
 */
import Type, { type Static } from 'typebox';
import { PageQueryProperties } from '../../shared/pagination.ts';
import {
  EXAMPLES,
  IdParam,
  IdTitle,
  Nullable,
  Page,
  QuerySearch,
  UpdatedProperty,
  UpdatedQueryProperties,
  withExample,
  Named,
} from '../../shared/schemas.ts';

/** Longest `title`: 256 (docs/api.md#estimate-items). */
export const TITLE_MAX_LENGTH = 256;
/** Longest `unit`: 8 (docs/api.md#estimate-items). */
export const UNIT_MAX_LENGTH = 8;
/** Longest `description`: 2048 (docs/api.md#estimate-items). */
export const DESCRIPTION_MAX_LENGTH = 2048;

const title = Type.String({ minLength: 1, maxLength: TITLE_MAX_LENGTH, description: 'Item name, 1..256 characters.' });

/** `unitCost` in a request: a decimal string (or JSON number), up to 28 integer digits and 2 decimals, negative allowed. */
export const UnitCostInput = Type.Unsafe<string | number>({
  type: ['number', 'string'],
  description:
    'Unit price: a decimal with up to 28 integer digits and 2 decimals (`"150000"`, `"-50000.50"`); negative for a discount line. A JSON number is accepted too.',
  examples: ['150000.00'],
});

const unit = Type.String({
  minLength: 1,
  maxLength: UNIT_MAX_LENGTH,
  description: 'Unit, 1..8 characters (`식`, `EA`, `M/M`).',
});

/** Properties writable by create and update other than the three required ones (all optional here). */
const writable = {
  description: Type.Optional(
    Nullable(
      Type.String({
        minLength: 1,
        maxLength: DESCRIPTION_MAX_LENGTH,
        description: 'Free text, 1..2048 characters, or null.',
      }),
    ),
  ),
  classification: Type.Optional(
    Nullable(
      Type.Object(
        { id: IdParam },
        {
          description:
            'Classification `{id}` (from `GET /v1/estimate/item/classification`); `null` clears it. Other keys are ignored.',
        },
      ),
    ),
  ),
};

/** `POST /v1/estimate/item` body: `title`, `unitCost` and `unit` are required. */
export const EstimateItemCreateBody = Named(
  'EstimateItemRequest',
  Type.Object(
    { title, unitCost: UnitCostInput, unit, ...writable },
    {
      examples: [
        {
          title: 'UI design',
          unitCost: '4500000',
          unit: 'M/M',
          description: 'Screens, components and a style guide.',
          classification: { id: 1 },
        },
      ],
    },
  ),
);
export type EstimateItemCreateBody = Static<typeof EstimateItemCreateBody>;

/** `PATCH /v1/estimate/item/{item_id}` body: any create property. */
export const EstimateItemUpdateBody = Named(
  'PatchedEstimateItemRequest',
  Type.Object(
    { title: Type.Optional(title), unitCost: Type.Optional(UnitCostInput), unit: Type.Optional(unit), ...writable },
    { examples: [{ unitCost: '5000000.00', classification: null }] },
  ),
);
export type EstimateItemUpdateBody = Static<typeof EstimateItemUpdateBody>;

/** A classification: `{id, title}`. */
export const EstimateItemClassification = IdTitle;
export type EstimateItemClassification = Static<typeof EstimateItemClassification>;

const itemExample = {
  id: 7,
  title: 'UI design',
  unitCost: '4500000.00',
  unit: 'M/M',
  description: 'Screens, components and a style guide.',
  image: '',
  classification: { id: 1, title: 'Design' },
  created: EXAMPLES.created,
};

const listItemProperties = {
  id: Type.Integer(),
  title: Type.String(),
  unitCost: Type.String({
    description: 'Decimal with exactly two decimals; negative for a discount line.',
    examples: ['4500000.00'],
  }),
  unit: Type.String(),
  description: Nullable(Type.String()),
  image: Type.String({ description: 'URL of the item picture; `""` when it has none (the API cannot set one).' }),
  classification: Nullable(EstimateItemClassification),
  created: Type.String({
    format: 'date-time',
    examples: [EXAMPLES.created],
    'x-extension': true,
    description: 'When the item was created (extension: the reference does not show it).',
  }),
};

/** An estimate item as the list items and the create response show it. */
export const EstimateItemListItem = Named('EstimateItemListItem', Type.Object(listItemProperties));
export type EstimateItemListItem = Static<typeof EstimateItemListItem>;

/** The full shape (retrieve, update, event `data`): the list item plus `updated` (docs/api.md#events). */
export const EstimateItem = Named('EstimateItem', Type.Object({ ...listItemProperties, updated: UpdatedProperty }));
export type EstimateItem = Static<typeof EstimateItem>;

/** The create response, with its example. */
export const EstimateItemCreated = withExample(EstimateItemListItem, itemExample);

/** The retrieve / update response, with its example. */
export const EstimateItemDetail = withExample(EstimateItem, { ...itemExample, updated: EXAMPLES.created });

/** `GET /v1/estimate/item` response. */
export const EstimateItemPage = withExample(Page(EstimateItemListItem), {
  next: EXAMPLES.pageLink.replace('/client?', '/estimate/item?'),
  previous: null,
  results: [itemExample],
});

/** `GET /v1/estimate/item/classification` response. */
export const EstimateItemClassificationPage = withExample(Page(EstimateItemClassification), {
  next: null,
  previous: null,
  results: [
    { id: 1, title: 'Design' },
    { id: 2, title: 'Development' },
  ],
});

/** `GET /v1/estimate/item/classification` query: `cursor`, `page_size`, `search` (docs/api.md#estimate-items). */
export const EstimateItemClassificationListQuery = Type.Object({
  ...PageQueryProperties,
  search: Type.Optional(QuerySearch),
});
export type EstimateItemClassificationListQuery = Static<typeof EstimateItemClassificationListQuery>;

/**
 * `GET /v1/estimate/item` query: `cursor`, `page_size`, `search` (docs/api.md#estimate-items), plus
 * `updated_start` / `updated_end` (docs/api.md#updated).
 */
export const EstimateItemListQuery = Type.Object({
  ...EstimateItemClassificationListQuery.properties,
  ...UpdatedQueryProperties,
});
export type EstimateItemListQuery = Static<typeof EstimateItemListQuery>;

/** Path parameters of `/v1/estimate/item/{item_id}`. */
export const EstimateItemIdParams = Type.Object({ item_id: IdParam });
