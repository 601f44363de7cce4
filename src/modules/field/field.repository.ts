/**
 * The custom field value tables (`client_field_value`, `inquiry_field_value`, `contract_field_value`), one per
 * record kind, with the same columns (docs/api.md#custom-field-values).
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import type { FieldKind } from './field.schemas.ts';

/**
 * The tables of custom field values (docs/api.md#custom-field-values), each with the column naming the record a
 * value belongs to. Each has a unique index over `(<record column>, field_id)`.
 */
const FIELD_VALUE_TABLES = {
  client_field_value: 'client_id',
  inquiry_field_value: 'inquiry_id',
  contract_field_value: 'contract_id',
} as const;

/** One of {@link FIELD_VALUE_TABLES}. */
type FieldValueTable = keyof typeof FIELD_VALUE_TABLES;

/** The table holding the values of each record kind. */
const TABLE_OF: Record<FieldKind, FieldValueTable> = { I: 'inquiry_field_value', C: 'client_field_value', CO: 'contract_field_value' };

/** The custom field values of one record of the business, `{field_id, value}` in field order. */
export async function findValueRows(
  db: Db,
  kind: FieldKind,
  businessId: number,
  recordId: number,
): Promise<{ field_id: number; value: string }[]> {
  return fieldValueRows[TABLE_OF[kind]](db, businessId, recordId);
}
/** {@link findValueRows} compiled once per table (every GET of a record runs it). */
const fieldValueRows = Object.fromEntries(
  (Object.keys(FIELD_VALUE_TABLES) as FieldValueTable[]).map((table) => [
    table,
    preparedQuery(2, (db: Db, businessId: number, recordId: number) =>
      db
        .selectFrom(table)
        .select(['field_id', 'value'])
        .where('business_id', '=', businessId)
        .where(sql.ref(FIELD_VALUE_TABLES[table]), '=', recordId)
        .orderBy('field_id'),
    ),
  ]),
) as Record<FieldValueTable, (db: Db, businessId: number, recordId: number) => Promise<{ field_id: number; value: string }[]>>;

/**
 * Sets custom field values of one record, in order: an empty value deletes the field's row, any other
 * inserts it or replaces its value.
 */
export async function upsertValueRows(
  db: Db,
  kind: FieldKind,
  businessId: number,
  recordId: number,
  values: readonly { fieldId: number; value: string }[],
): Promise<void> {
  const table = TABLE_OF[kind];
  const recordColumn = FIELD_VALUE_TABLES[table];
  for (const v of values) {
    if (v.value === '') {
      await db
        .deleteFrom(table)
        .where('business_id', '=', businessId)
        .where(sql.ref(recordColumn), '=', recordId)
        .where('field_id', '=', v.fieldId)
        .execute();
    } else {
      await sql`insert into ${sql.table(table)} (business_id, ${sql.ref(recordColumn)}, field_id, value)
        values (${businessId}, ${recordId}, ${v.fieldId}, ${v.value})
        on conflict (${sql.ref(recordColumn)}, field_id) do update set value = excluded.value`.execute(db);
    }
  }
}
