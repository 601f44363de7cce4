/**
 * Custom field values (`fieldSet`) on inquiries, clients and contracts, a resource of their own
 * (docs/api.md#custom-field-values): request entries `{field: {id}, value}` are checked against the
 * business's fields — the field must exist in this business and belong to the record kind, and the value
 * must fit its `dataType`. An empty `value` clears the field. The client, inquiry and contract services call
 * this module to check, store and show their records' values; the field definitions are the catalog's.
 */
import type { Expression, RawBuilder } from 'kysely';
import type { Db } from '../../db/database.ts';
import { fromJsonColumn, jsonArrayOf, toBool } from '../../db/sql-helpers.ts';
import { type ErrorCollector, messages } from '../../shared/errors.ts';
import type { Field } from '../catalog/catalog.schemas.ts';
import { loadFields, toMember } from '../catalog/catalog.service.ts';
import * as repo from './field.repository.ts';
import type { FieldKind } from './field.schemas.ts';

const KIND_NAMES: Record<FieldKind, string> = { I: 'an inquiry', C: 'a client', CO: 'a contract' };

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

/** Why `value` does not fit `field`, or `undefined` when it does (docs/api.md#custom-field-values). */
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
      return field.optionSet.some((o) => o.id === value) ? undefined : `${name}: "${value}" is not a valid choice.`;
    case 'ML': {
      const bad = value
        .split(',')
        .map((v) => v.trim())
        .filter((v) => !field.optionSet.some((o) => o.id === v));
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
 * (a list property: an array of strings, docs/api.md#errors). Returns the values to store, with ML values
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
  const fields = await loadFields(
    db,
    businessId,
    entries.map((e) => e.field.id),
  );
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
    else
      out.push({
        fieldId: id,
        value:
          field.dataType === 'ML'
            ? value
                .split(',')
                .map((v) => v.trim())
                .join(',')
            : value,
      });
  }
  return out;
}

/**
 * Stores checked values ({@link checkFieldSet}) of one record of `kind`, in order: an empty value deletes the
 * field's value, any other inserts it or replaces the stored one. Runs in the caller's transaction when `db`
 * is one.
 */
export async function setFieldValues(
  db: Db,
  businessId: number,
  kind: FieldKind,
  recordId: number,
  values: readonly CheckedFieldValue[],
): Promise<void> {
  await repo.upsertValueRows(db, kind, businessId, recordId, values);
}

/**
 * Makes the stored values of one record of `kind` exactly `values` (checked by {@link checkFieldSet}): the
 * given ones are written, every other stored value is removed. The write of a restore, which brings a record
 * to a whole shape (src/shared/restore.ts); PATCH keeps unnamed values and uses {@link setFieldValues}.
 */
export async function replaceFieldValues(
  db: Db,
  businessId: number,
  kind: FieldKind,
  recordId: number,
  values: readonly CheckedFieldValue[],
): Promise<void> {
  const kept = new Set(values.map((v) => v.fieldId));
  const stale = (await repo.findValueRows(db, kind, businessId, recordId)).filter((r) => !kept.has(r.field_id));
  await repo.upsertValueRows(db, kind, businessId, recordId, [
    ...stale.map((r) => ({ fieldId: r.field_id, value: '' })),
    ...values,
  ]);
}

/**
 * A record's stored field values with their fields, as the JSON column of {@link fieldValuesJson} holds
 * them (opaque to callers: map it with {@link toFieldSet}).
 */
export type FieldValuesJson = { readonly fieldValuesJson: unique symbol };

/**
 * The `fieldSet` of the record `recordId` of `kind` (an expression of the caller's query, such as
 * `sql.ref('inquiry.id')`) as one JSON column, so a record's full shape stays one statement (the lean write
 * path, docs/api.md#events): `select …, fieldValuesJson(db, businessId, 'I', sql.ref('inquiry.id')).as('field_set')`.
 * Map the column with {@link toFieldSet}. Values of fields that no longer exist are left out.
 */
export function fieldValuesJson(
  db: Db,
  businessId: number,
  kind: FieldKind,
  recordId: Expression<number>,
): RawBuilder<FieldValuesJson> {
  return jsonArrayOf(
    db,
    repo.valuesWithFieldsQuery(db, kind, businessId, recordId),
  ) as unknown as RawBuilder<FieldValuesJson>;
}

/** One entry of the JSON array {@link fieldValuesJson} reads. */
interface StoredValueJson {
  field_id: number;
  value: string;
  name: string;
  data_type: string;
  option_set: unknown;
  member_set: unknown;
}

/**
 * Maps the column of {@link fieldValuesJson} to the response `fieldSet` (docs/api.md#custom-field-values):
 * `[{field: {id, name, dataType, optionSet, memberSet}, value}]` in field order (options and members in
 * catalog order), each field as `GET /v1/field` shows it.
 */
export function toFieldSet(column: FieldValuesJson): { field: Field; value: string }[] {
  return fromJsonColumn<StoredValueJson[]>(column as unknown).map((v) => ({
    field: {
      id: v.field_id,
      name: v.name,
      dataType: v.data_type as Field['dataType'],
      optionSet: fromJsonColumn<{ option_id: string; title: string }[]>(v.option_set).map((o) => ({
        id: o.option_id,
        title: o.title,
      })),
      memberSet: fromJsonColumn<Parameters<typeof toMember>[0][]>(v.member_set).map((m) =>
        toMember({ ...m, is_active: toBool(Boolean(m.is_active)) }),
      ),
    },
    value: v.value,
  }));
}

/**
 * The checked values ({@link checkFieldSet}) that would change the record whose current `fieldSet` is
 * `current` (as {@link toFieldSet} maps it): a value that differs from the stored one, or a clear of a field
 * that has a value. What a PATCH writes (docs/api.md#events: a PATCH that changes nothing writes nothing).
 */
export function changedFieldValues(
  current: readonly { field: { id: number }; value: string }[],
  values: readonly CheckedFieldValue[],
): CheckedFieldValue[] {
  const stored = new Map(current.map((v) => [v.field.id, v.value]));
  return values.filter((v) => (v.value === '' ? stored.has(v.fieldId) : stored.get(v.fieldId) !== v.value));
}
