/** Request and response shapes of custom field values, `fieldSet` (docs/api.md#custom-field-values). */
import Type from 'typebox';
import { IdRef, Named } from '../../shared/schemas.ts';
import { Field } from '../catalog/catalog.schemas.ts';

/** Record kinds that carry custom fields: I inquiry, C client, CO contract (a field's `category`). */
export type FieldKind = 'I' | 'C' | 'CO';

/** A `fieldSet` entry in a request. Numbers and booleans are accepted and stored as their text. */
export const FieldValueInput = Named(
  'FieldValueRequest',
  Type.Object({
    field: IdRef,
    value: Type.Unsafe<string | number | boolean>({ type: ['string', 'number', 'boolean'], maxLength: 10000 }),
  }),
);

/** A request's `fieldSet`: at most 100 entries, or null (no change). */
export const FieldSetInput = Type.Unsafe<{ field: { id: number }; value: string | number | boolean }[] | null>({
  type: ['array', 'null'],
  items: FieldValueInput,
  maxItems: 100,
  description: 'Custom field values `{field: {id}, value}`; an empty value clears the field.',
});

/** A `fieldSet` entry in a response. */
export const FieldValue = Named(
  'FieldValue',
  Type.Object({
    field: Field,
    value: Type.String(),
  }),
);
