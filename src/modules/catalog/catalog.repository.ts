/**
 * SQL for the read-only catalogs: grades, members, folders, inquiry statuses, client statuses, custom fields
 * (with their options and members), contract categories, settlement types and worker positions.
 *
 * Every function takes `(db | trx, businessId, …)` and always writes or filters by that business.
 */
import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type {
  ClientStatusTable,
  ContractCategoryTable,
  FieldMemberTable,
  FieldOptionTable,
  FieldTable,
  FolderTable,
  GradeTable,
  InquiryStatusTable,
  MemberTable,
  SettlementTypeTable,
  WorkerPositionTable,
} from './catalog.table.ts';

// ── Catalog import (writes) ──
//
// Used by `importCatalog` (catalog-import.ts) inside one transaction. Each single-row insert returns the
// new id; rows are inserted one at a time because neither SQLite nor PostgreSQL promises that a multi-row
// `INSERT … RETURNING` hands the ids back in input order, and the import must map every file key to its id.

/** A row to insert, without `id` (generated) and `business_id` (taken from the `businessId` argument). */
type NewRow<T> = Omit<Insertable<T>, 'id' | 'business_id'>;

/** Inserts a grade; returns its id. */
export async function insertGrade(db: Db, businessId: number, row: NewRow<GradeTable>): Promise<number> {
  const { id } = await db
    .insertInto('grade')
    .values({ business_id: businessId, title: row.title, created: row.created })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Inserts a member; `grade_id` must be a grade of the same business. Returns its id. */
export async function insertMember(db: Db, businessId: number, row: NewRow<MemberTable>): Promise<number> {
  const { id } = await db
    .insertInto('member')
    .values({
      business_id: businessId,
      nickname: row.nickname,
      email: row.email,
      is_active: row.is_active,
      grade_id: row.grade_id,
      notifications_enabled: row.notifications_enabled,
      created: row.created,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/**
 * Inserts a folder; returns its id. At most one folder per business has `is_default = 1` (a unique partial
 * index enforces it; a second default fails with a constraint error).
 */
export async function insertFolder(db: Db, businessId: number, row: NewRow<FolderTable>): Promise<number> {
  const { id } = await db
    .insertInto('folder')
    .values({ business_id: businessId, name: row.name, is_default: row.is_default, created: row.created })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Inserts an inquiry status into a folder of the same business; returns its id. */
export async function insertInquiryStatus(
  db: Db,
  businessId: number,
  row: NewRow<InquiryStatusTable>,
): Promise<number> {
  const { id } = await db
    .insertInto('inquiry_status')
    .values({
      business_id: businessId,
      folder_id: row.folder_id,
      title: row.title,
      is_default: row.is_default,
      position: row.position,
      created: row.created,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Inserts a client status; returns its id. */
export async function insertClientStatus(db: Db, businessId: number, row: NewRow<ClientStatusTable>): Promise<number> {
  const { id } = await db
    .insertInto('client_status')
    .values({
      business_id: businessId,
      title: row.title,
      is_default: row.is_default,
      position: row.position,
      created: row.created,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Inserts a custom field (`category` I | C | CO, `data_type` S | N | M | D | T | B | SL | ML); returns its id. */
export async function insertField(db: Db, businessId: number, row: NewRow<FieldTable>): Promise<number> {
  const { id } = await db
    .insertInto('field')
    .values({
      business_id: businessId,
      name: row.name,
      category: row.category,
      data_type: row.data_type,
      created: row.created,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Inserts the options of SL / ML fields (batch; no ids needed). Does nothing for an empty list. */
export async function insertFieldOptions(
  db: Db,
  businessId: number,
  rows: readonly NewRow<FieldOptionTable>[],
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('field_option')
    .values(
      rows.map((r) => ({
        business_id: businessId,
        field_id: r.field_id,
        option_id: r.option_id,
        title: r.title,
        position: r.position,
      })),
    )
    .execute();
}

/** Inserts the `memberSet` entries of M fields (batch). Does nothing for an empty list. */
export async function insertFieldMembers(
  db: Db,
  businessId: number,
  rows: readonly Omit<Insertable<FieldMemberTable>, 'business_id'>[],
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('field_member')
    .values(
      rows.map((r) => ({ business_id: businessId, field_id: r.field_id, member_id: r.member_id, position: r.position })),
    )
    .execute();
}

/** Inserts a contract category; returns its id. */
export async function insertContractCategory(
  db: Db,
  businessId: number,
  row: NewRow<ContractCategoryTable>,
): Promise<number> {
  const { id } = await db
    .insertInto('contract_category')
    .values({ business_id: businessId, title: row.title, created: row.created })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Inserts a settlement type; returns its id. */
export async function insertSettlementType(
  db: Db,
  businessId: number,
  row: NewRow<SettlementTypeTable>,
): Promise<number> {
  const { id } = await db
    .insertInto('settlement_type')
    .values({
      business_id: businessId,
      base_type: row.base_type,
      category: row.category,
      title: row.title,
      allows_multiple_rounds: row.allows_multiple_rounds,
      position: row.position,
      created: row.created,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Inserts a worker position; returns its id. */
export async function insertWorkerPosition(
  db: Db,
  businessId: number,
  row: NewRow<WorkerPositionTable>,
): Promise<number> {
  const { id } = await db
    .insertInto('worker_position')
    .values({ business_id: businessId, title: row.title, symbol_color: row.symbol_color, created: row.created })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** The id of the business's default folder, or `undefined` when it has none yet. */
export async function findDefaultFolderId(db: Db, businessId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('folder')
    .select('id')
    .where('business_id', '=', businessId)
    .where('is_default', '=', 1)
    .executeTakeFirst();
  return row?.id;
}

/** The id of the business's default client status, or `undefined` when it has none. */
export async function findDefaultClientStatusId(db: Db, businessId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('client_status')
    .select('id')
    .where('business_id', '=', businessId)
    .where('is_default', '=', 1)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

/**
 * The highest `position` in use for the business's ordered catalogs (0 when a catalog is empty), so that a
 * second import appends after the first: `{inquiryStatus, clientStatus, settlementType}`.
 */
export async function findMaxCatalogPositions(
  db: Db,
  businessId: number,
): Promise<{ inquiryStatus: number; clientStatus: number; settlementType: number }> {
  const max = async (table: 'inquiry_status' | 'client_status' | 'settlement_type'): Promise<number> => {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.max<number | null>('position').as('max'))
      .where('business_id', '=', businessId)
      .executeTakeFirst();
    return Number(row?.max ?? 0);
  };
  return {
    inquiryStatus: await max('inquiry_status'),
    clientStatus: await max('client_status'),
    settlementType: await max('settlement_type'),
  };
}
