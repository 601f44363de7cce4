/**
 * The custom field value tables (`client_field_value`, `inquiry_field_value`, `contract_field_value`), one per
 * record kind, with the same columns (docs/api.md#custom-field-values).
 */
import { type Expression, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import { isPostgres, jsonArrayOf } from '../../db/sql-helpers.ts';
import { MEMBER_COLUMNS } from '../../db/tables/catalog.table.ts';
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
const TABLE_OF: Record<FieldKind, FieldValueTable> = {
  I: 'inquiry_field_value',
  C: 'client_field_value',
  CO: 'contract_field_value',
};

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
) as Record<
  FieldValueTable,
  (db: Db, businessId: number, recordId: number) => Promise<{ field_id: number; value: string }[]>
>;

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
  // By the primary key's name on PostgreSQL: the same before and after migration 0060 put business_id in it.
  const conflictTarget = isPostgres(db)
    ? sql`on constraint ${sql.id(`${table}_pk`)}`
    : sql`(${sql.ref(recordColumn)}, field_id)`;
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
        on conflict ${conflictTarget} do update set value = excluded.value`.execute(db);
    }
  }
}

/**
 * The custom field values of the record `recordId` (an expression of the outer query, e.g. `inquiry.id`) of
 * the business, each with its field's name, type, options and members, as a subquery in field order: one
 * row per value whose field exists. `option_set` and `member_set` are nested JSON arrays (see
 * `jsonArrayOf`). The body of `field.service` `fieldValuesJson`.
 */
export function valuesWithFieldsQuery(db: Db, kind: FieldKind, businessId: number, recordId: Expression<number>) {
  const table = TABLE_OF[kind];
  return db
    .selectFrom(`${table} as fv` as 'inquiry_field_value as fv')
    .innerJoin('field', (join) =>
      join.onRef('field.id', '=', 'fv.field_id').onRef('field.business_id', '=', 'fv.business_id'),
    )
    .select((eb) => [
      'fv.field_id',
      'fv.value',
      'field.name',
      'field.data_type',
      jsonArrayOf(
        db,
        eb
          .selectFrom('field_option')
          .select(['field_option.option_id', 'field_option.title'])
          .whereRef('field_option.field_id', '=', 'field.id')
          .where('field_option.business_id', '=', businessId)
          .orderBy('field_option.position'),
      ).as('option_set'),
      jsonArrayOf(
        db,
        eb
          .selectFrom('field_member')
          .innerJoin('member', (join) =>
            join
              .onRef('member.id', '=', 'field_member.member_id')
              .onRef('member.business_id', '=', 'field_member.business_id'),
          )
          .innerJoin('grade', (join) =>
            join.onRef('grade.id', '=', 'member.grade_id').onRef('grade.business_id', '=', 'member.business_id'),
          )
          .select(MEMBER_COLUMNS)
          .whereRef('field_member.field_id', '=', 'field.id')
          .where('field_member.business_id', '=', businessId)
          .orderBy('field_member.position'),
      ).as('member_set'),
    ])
    .where('fv.business_id', '=', businessId)
    .where(sql.ref(`fv.${FIELD_VALUE_TABLES[table]}`), '=', recordId)
    .orderBy('fv.field_id');
}
