/**
 * Custom field values (`fieldSet`) on inquiries, clients and contracts (spec: Custom field value;
 * decisions §7): request entries `{field: {id}, value}` are checked against the business's fields — the
 * field must exist in this business and belong to the record kind, and the value must fit its `dataType`.
 * An empty `value` clears the field.
 */
import Type from 'typebox';
import type { Db } from '../db/database.ts';
import { IdRef, Named } from './schemas.ts';
import { Field } from '../modules/catalog/catalog.schemas.ts';
import { loadFields, toField } from '../modules/catalog/catalog.service.ts';
import { type ErrorCollector, messages } from './errors.ts';

/** Record kinds that carry custom fields: I inquiry, C client, CO contract. */
export type FieldKind = 'I' | 'C' | 'CO';

const KIND_NAMES: Record<FieldKind, string> = { I: 'an inquiry', C: 'a client', CO: 'a contract' };

/** A `fieldSet` entry in a request. Numbers and booleans are accepted and stored as their text. */
export const FieldValueInput = Named('FieldValueRequest', Type.Object({
  field: IdRef,
  value: Type.Unsafe<string | number | boolean>({ type: ['string', 'number', 'boolean'], maxLength: 10000 }),
}));

/** A request's `fieldSet`: at most 100 entries, or null (no change). */
export const FieldSetInput = Type.Unsafe<{ field: { id: number }; value: string | number | boolean }[] | null>({
  type: ['array', 'null'],
  items: FieldValueInput,
  maxItems: 100,
  description: 'Custom field values `{field: {id}, value}`; an empty value clears the field.',
});

/** A `fieldSet` entry in a response. */
export const FieldValue = Named('FieldValue', Type.Object({
  field: Field,
  value: Type.String(),
}));

/** A checked value, ready to store (`value === ''` means "clear"). */
export interface CheckedFieldValue {
  fieldId: number;
  value: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function isValidDate(text: string): boolean {
  if (!DATE.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

/** Why `value` does not fit `field`, or `undefined` when it does (decisions §7). */
function valueProblem(field: Field, value: string): string | undefined {
  const name = `Field "${field.name}" (${field.id})`;
  switch (field.dataType) {
    case 'N':
      return /^-?\d+(\.\d+)?$/.test(value) ? undefined : `${name} expects a number.`;
    case 'D':
      return isValidDate(value) ? undefined : `${name} expects a date in the format YYYY-MM-DD.`;
    case 'B':
      return value === 'true' || value === 'false' ? undefined : `${name} expects true or false.`;
    case 'SL':
      return field.optionSet.some((o) => o.id === value)
        ? undefined
        : `${name}: "${value}" is not a valid choice.`;
    case 'ML': {
      const bad = value.split(',').map((v) => v.trim()).filter((v) => !field.optionSet.some((o) => o.id === v));
      return bad.length === 0 ? undefined : `${name}: "${bad.join(', ')}" is not a valid choice.`;
    }
    case 'M':
      return field.memberSet.some((m) => String(m.id) === value)
        ? undefined
        : `${name}: "${value}" is not one of the field's members.`;
    default:
      return undefined;
  }
}

/**
 * Checks a request's `fieldSet` for a record of `kind`. Problems are added to `errors` under `property`
 * (a list property: an array of strings, spec: Errors 1). Returns the values to store, with ML values
 * normalised (`a, b` → `a,b`).
 */
export async function checkFieldSet(
  db: Db,
  businessId: number,
  kind: FieldKind,
  entries: readonly { field: { id: number }; value: string | number | boolean }[],
  errors: ErrorCollector,
  property = 'fieldSet',
): Promise<CheckedFieldValue[]> {
  const fields = await loadFields(db, businessId, entries.map((e) => e.field.id));
  const seen = new Set<number>();
  const out: CheckedFieldValue[] = [];
  for (const entry of entries) {
    const id = entry.field.id;
    const value = String(entry.value);
    const field = fields.get(id);
    if (seen.has(id)) {
      errors.add([property], `Field ${id} is given more than once.`);
      continue;
    }
    seen.add(id);
    if (!field) {
      errors.add([property], messages.invalidPk(id));
      continue;
    }
    if (field.category !== kind) {
      errors.add([property], `Field "${field.name}" (${id}) is not a field of ${KIND_NAMES[kind]}.`);
      continue;
    }
    if (value === '') {
      out.push({ fieldId: id, value: '' });
      continue;
    }
    const problem = valueProblem(field, value);
    if (problem) errors.add([property], problem);
    else out.push({ fieldId: id, value: field.dataType === 'ML' ? value.split(',').map((v) => v.trim()).join(',') : value });
  }
  return out;
}

/**
 * Builds a response `fieldSet` from stored values (`[{field_id, value}]`), each with its full field.
 * Values of fields that no longer exist are left out.
 */
export async function toFieldValues(
  db: Db,
  businessId: number,
  stored: readonly { field_id: number; value: string }[],
): Promise<{ field: Field; value: string }[]> {
  const fields = await loadFields(db, businessId, stored.map((s) => s.field_id));
  const out: { field: Field; value: string }[] = [];
  for (const s of stored) {
    const f = fields.get(s.field_id);
    if (!f) continue;
    out.push({ field: toField(f), value: s.value });
  }
  return out;
}
