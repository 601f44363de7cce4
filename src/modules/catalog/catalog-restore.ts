/**
 * Restore entry points of the catalogs (src/shared/restore.ts, docs/deployment.md#11-moving-a-business-in-and-out):
 * grades, members, folders, inquiry statuses, client statuses, custom fields with their options and member
 * sets, contract categories, settlement types, worker positions and estimate item classifications, each
 * written from the shape the API answers for it, under the source's id where that id is free here.
 * Re-exported by catalog.service.ts, the module's public face.
 *
 * Rules beyond the contract of src/shared/restore.ts, for what the catalog shapes do not carry:
 *
 * - `created`: the API's catalog shapes have none. When the shape carries one it is kept; otherwise an
 *   inserted row gets {@link RESTORED_CREATED} and an existing row keeps its own. Lists ordered newest first
 *   (members, fields, contract categories, folders after the default one) then order restored rows by id,
 *   as the source does when its ids follow its creation order; a caller that must give new ids restores the
 *   entries oldest first (the reverse of the list) so that the new ids keep that order.
 * - Order of the ordered catalogs (inquiry and client statuses, settlement types, classifications): an
 *   inserted entry goes after the business's last one; an existing entry keeps its place. Restoring a list
 *   in its order therefore reproduces it.
 * - Defaults the API does not show: an inquiry status becomes its folder's default when the shape says
 *   `isDefault: true`, or, without `isDefault`, when it is inserted into a folder that has no default yet
 *   (the first status of each folder); a client status likewise for the business. A folder restored with
 *   `isDefault: true` takes the default from any other folder of the business (one default per business).
 * - A member's `notificationsEnabled` (not in the API's member) is kept when given; otherwise true for an
 *   inserted member and unchanged for an existing one.
 * - A member's grade exists only nested in members: {@link restoreMember} finds or restores it itself.
 * - References (a status's `folder.id`, a field's `memberSet` ids) must already be this server's ids in
 *   this business.
 *
 * Each entry point runs in one transaction (the caller's when `db` already is one) and writes no event,
 * notification or outbox row.
 */
import type { Db } from '../../db/database.ts';
import { advanceIdSequence, inTransaction, toBool } from '../../db/sql-helpers.ts';
import { canKeepId } from '../../db/ids.ts';
import { messages, ValidationError } from '../../shared/errors.ts';
import type { RestoreOptions, RestoreResult } from '../../shared/restore.ts';
import type { Member } from '../../shared/schemas.ts';
import * as repo from './catalog.repository.ts';
import type { CatalogColumns, RestorableCatalogTable } from './catalog.repository.ts';
import type { Field, Folder, InquiryStatus, SettlementType } from './catalog.schemas.ts';
import { FIELD_CATEGORIES } from './catalog.schemas.ts';

/** An optional creation instant (ISO 8601 date-time) a catalog shape may carry beyond the API's. */
interface MaybeCreated {
  created?: string | undefined;
}

/** A member grade as nested in the API's member: `{id, title}`. */
export type GradeRestoreShape = { id: number; title: string } & MaybeCreated;
/** A member as `GET /v1/member` answers it, `notificationsEnabled` optional (the API does not show it). */
export type MemberRestoreShape = Member & MaybeCreated & { notificationsEnabled?: boolean | undefined };
/** A folder as `GET /v1/folder` answers it. */
export type FolderRestoreShape = Folder & MaybeCreated;
/** An inquiry status as `GET /v1/inquiry/status` answers it (`folder.name` is ignored), `isDefault` optional. */
export type InquiryStatusRestoreShape = InquiryStatus & MaybeCreated & { isDefault?: boolean | undefined };
/** A client status as `GET /v1/client/status` answers it, `isDefault` optional. */
export type ClientStatusRestoreShape = { id: number; title: string } & MaybeCreated & {
    isDefault?: boolean | undefined;
  };
/**
 * A custom field as `GET /v1/field` answers it, plus its record kind `category` (I, C, CO), which the API
 * tells only through the list's `category` filter. `memberSet` entries are members of this business (only
 * their `id` is read).
 */
export type FieldRestoreShape = Field & MaybeCreated & { category: (typeof FIELD_CATEGORIES)[number] };
/** A contract category `{id, title}` (`GET /v1/contract/category`, a contract's `categorySet`). */
export type ContractCategoryRestoreShape = { id: number; title: string } & MaybeCreated;
/** A settlement type as `GET /v1/settlement/type` answers it. */
export type SettlementTypeRestoreShape = SettlementType & MaybeCreated;
/** A worker position as nested in a worker: `{id, title, symbolColor}`. */
export type WorkerPositionRestoreShape = { id: number; title: string; symbolColor: string } & MaybeCreated;
/** An estimate item classification `{id, title}` (`GET /v1/estimate/item/classification`). */
export type ClassificationRestoreShape = { id: number; title: string } & MaybeCreated;

/**
 * The creation time of a restored catalog entry whose shape carries none: the Unix epoch, the same for every
 * one, so that restored entries sort among themselves by id (newest-first lists: highest id first), behind
 * entries this server creates later, and a re-run compares equal.
 */
export const RESTORED_CREATED = '1970-01-01T00:00:00.000Z';

/** `created` normalised to the stored form (UTC, milliseconds), or undefined. */
function createdOf(shape: MaybeCreated): string | undefined {
  if (shape.created === undefined) return undefined;
  const t = new Date(shape.created);
  if (Number.isNaN(t.getTime())) throw ValidationError.at(['created'], `"${shape.created}" is not a date-time.`);
  return t.toISOString();
}

/** What a restore of one row needs beyond the table and the compared columns. */
interface RowPlan {
  /** Columns written on insert only (e.g. `position`), beside `created`. */
  insertOnly?: CatalogColumns;
}

/**
 * The one write path of every catalog restore: finds the target row (`targetId`), compares `values` with it
 * and updates it, or inserts a row under the shape's id when free (else a new id), then moves PostgreSQL's
 * identity past it. Runs inside the caller's transaction.
 */
async function restoreRow(
  trx: Db,
  table: RestorableCatalogTable,
  businessId: number,
  shapeId: number,
  options: RestoreOptions,
  values: CatalogColumns,
  created: string | undefined,
  plan: RowPlan = {},
): Promise<RestoreResult> {
  const compared = created === undefined ? values : { ...values, created };
  if (options.targetId !== undefined) {
    const current = await repo.findCatalogColumns(trx, table, businessId, options.targetId, Object.keys(compared));
    if (current !== undefined) {
      const changed = Object.fromEntries(Object.entries(compared).filter(([c, v]) => !sameValue(current[c], v)));
      if (Object.keys(changed).length === 0) return { id: options.targetId, outcome: 'unchanged' };
      await repo.updateCatalogRow(trx, table, businessId, options.targetId, changed);
      return { id: options.targetId, outcome: 'updated' };
    }
  }
  const wanted = options.targetId ?? shapeId;
  const id = (await canKeepId(trx, table, wanted)) ? wanted : undefined;
  const newId = await repo.insertCatalogRow(trx, table, businessId, id, {
    ...values,
    ...plan.insertOnly,
    created: created ?? RESTORED_CREATED,
  });
  if (id !== undefined) await advanceIdSequence(trx, table);
  return { id: newId, outcome: 'created' };
}

/** Stored values compare equal: numbers by value (PostgreSQL may hand back numeric text), the rest strictly. */
function sameValue(stored: unknown, wanted: string | number | null): boolean {
  if (typeof wanted === 'number' && stored !== null && stored !== undefined) return Number(stored) === wanted;
  return stored === wanted;
}

/**
 * Restores a member grade `{id, title}` (nested in the API's members; the transfer module restores each
 * grade once, before the members that name it).
 */
export async function restoreGrade(
  db: Db,
  businessId: number,
  shape: GradeRestoreShape,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  return inTransaction(db, (trx) =>
    restoreRow(trx, 'grade', businessId, shape.id, options, { title: shape.title }, createdOf(shape)),
  );
}

/**
 * Restores a member (`GET /v1/member`'s shape) with its nested grade, which the API shows nowhere else and
 * which several members share. The grade is, in this order: the business's grade with id `grade.id` (its
 * title brought to the shape's: a grade restored under its source id, or one the caller restored with
 * {@link restoreGrade} and whose id it rewrote); else the business's grade with that title (one restored
 * earlier under a new id); else a new grade, under `grade.id` when free.
 */
export async function restoreMember(
  db: Db,
  businessId: number,
  shape: MemberRestoreShape,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  return inTransaction(db, async (trx) => {
    const grade = shape.grade;
    let gradeId: number;
    if (await repo.gradeExists(trx, businessId, grade.id))
      gradeId = (
        await restoreRow(trx, 'grade', businessId, grade.id, { targetId: grade.id }, { title: grade.title }, undefined)
      ).id;
    else
      gradeId =
        (await repo.findGradeIdByTitle(trx, businessId, grade.title)) ??
        (await restoreRow(trx, 'grade', businessId, grade.id, {}, { title: grade.title }, undefined)).id;
    const values: CatalogColumns = {
      nickname: shape.nickname,
      email: shape.email,
      is_active: toBool(shape.isActive),
      grade_id: gradeId,
    };
    if (shape.notificationsEnabled !== undefined) values.notifications_enabled = toBool(shape.notificationsEnabled);
    const plan: RowPlan = { insertOnly: shape.notificationsEnabled === undefined ? { notifications_enabled: 1 } : {} };
    return restoreRow(trx, 'member', businessId, shape.id, options, values, createdOf(shape), plan);
  });
}

/**
 * Restores a folder (`GET /v1/folder`'s shape). With `isDefault: true` it becomes the business's one
 * default folder (any other loses the flag, in the same transaction).
 */
export async function restoreFolder(
  db: Db,
  businessId: number,
  shape: FolderRestoreShape,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  return inTransaction(db, async (trx) => {
    if (!shape.isDefault)
      return restoreRow(
        trx,
        'folder',
        businessId,
        shape.id,
        options,
        { name: shape.name, is_default: 0 },
        createdOf(shape),
      );
    // One default folder per business (a unique partial index): write the folder as not default, then move the flag.
    const result = await restoreRow(
      trx,
      'folder',
      businessId,
      shape.id,
      options,
      { name: shape.name },
      createdOf(shape),
      { insertOnly: { is_default: 0 } },
    );
    const current = await repo.findCatalogColumns(trx, 'folder', businessId, result.id, ['is_default']);
    if (Number(current?.is_default) === 1) return result;
    await repo.clearDefaultFolder(trx, businessId, result.id);
    await repo.updateCatalogRow(trx, 'folder', businessId, result.id, { is_default: 1 });
    return { id: result.id, outcome: result.outcome === 'unchanged' ? 'updated' : result.outcome };
  });
}

/**
 * Restores an inquiry status (`GET /v1/inquiry/status`'s shape) into `folder.id`, a folder of this business
 * (restored first). Inserted after the business's last status; default as the module docstring says.
 * @throws ValidationError `{folder: {id: ["Invalid pk …"]}}` when the folder is not the business's
 */
export async function restoreInquiryStatus(
  db: Db,
  businessId: number,
  shape: InquiryStatusRestoreShape,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  return inTransaction(db, async (trx) => {
    const folderId = shape.folder.id;
    if (!(await repo.folderExists(trx, businessId, folderId)))
      throw ValidationError.at(['folder', 'id'], messages.invalidPk(folderId));
    const values: CatalogColumns = { title: shape.title, folder_id: folderId };
    let becomesDefault = shape.isDefault === true;
    if (shape.isDefault === false) values.is_default = 0;
    const insertOnly: CatalogColumns = {
      position: (await repo.findMaxPosition(trx, 'inquiry_status', businessId)) + 1,
      is_default: 0,
    };
    if (shape.isDefault === undefined && !(await repo.folderHasDefaultStatus(trx, businessId, folderId))) {
      const existing =
        options.targetId === undefined
          ? undefined
          : await repo.findCatalogColumns(trx, 'inquiry_status', businessId, options.targetId, ['id']);
      becomesDefault = existing === undefined;
    }
    const result = await restoreRow(trx, 'inquiry_status', businessId, shape.id, options, values, createdOf(shape), {
      insertOnly,
    });
    if (!becomesDefault) return result;
    const current = await repo.findCatalogColumns(trx, 'inquiry_status', businessId, result.id, ['is_default']);
    if (Number(current?.is_default) === 1) return result;
    await repo.clearDefaultInquiryStatus(trx, businessId, folderId, result.id);
    await repo.updateCatalogRow(trx, 'inquiry_status', businessId, result.id, { is_default: 1 });
    return { id: result.id, outcome: result.outcome === 'unchanged' ? 'updated' : result.outcome };
  });
}

/**
 * Restores a client status `{id, title}` (`GET /v1/client/status`), inserted after the business's last one;
 * default as the module docstring says (the default status is what a new client gets).
 */
export async function restoreClientStatus(
  db: Db,
  businessId: number,
  shape: ClientStatusRestoreShape,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  return inTransaction(db, async (trx) => {
    const values: CatalogColumns = { title: shape.title };
    if (shape.isDefault === false) values.is_default = 0;
    let becomesDefault = shape.isDefault === true;
    if (shape.isDefault === undefined && !(await repo.hasDefaultClientStatus(trx, businessId))) {
      const existing =
        options.targetId === undefined
          ? undefined
          : await repo.findCatalogColumns(trx, 'client_status', businessId, options.targetId, ['id']);
      becomesDefault = existing === undefined;
    }
    const insertOnly: CatalogColumns = {
      position: (await repo.findMaxPosition(trx, 'client_status', businessId)) + 1,
      is_default: 0,
    };
    const result = await restoreRow(trx, 'client_status', businessId, shape.id, options, values, createdOf(shape), {
      insertOnly,
    });
    if (!becomesDefault) return result;
    const current = await repo.findCatalogColumns(trx, 'client_status', businessId, result.id, ['is_default']);
    if (Number(current?.is_default) === 1) return result;
    await repo.clearDefaultClientStatus(trx, businessId, result.id);
    await repo.updateCatalogRow(trx, 'client_status', businessId, result.id, { is_default: 1 });
    return { id: result.id, outcome: result.outcome === 'unchanged' ? 'updated' : result.outcome };
  });
}

/**
 * Restores a custom field with its `optionSet` (option ids kept as they are: field values carry them) and
 * its `memberSet` (members of this business, restored first), both in the shape's order.
 * @throws ValidationError `{category: […]}` for a record kind other than I, C, CO; `{memberSet: ["Invalid pk …"]}`
 *   for a member that is not the business's
 */
export async function restoreField(
  db: Db,
  businessId: number,
  shape: FieldRestoreShape,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  if (!(FIELD_CATEGORIES as readonly string[]).includes(shape.category)) {
    throw ValidationError.at(['category'], `"${String(shape.category)}" is not one of ${FIELD_CATEGORIES.join(', ')}.`);
  }
  return inTransaction(db, async (trx) => {
    const memberIds = shape.memberSet.map((m) => m.id);
    const found = await repo.findMembersByIds(trx, businessId, memberIds);
    const missing = memberIds.filter((id) => !found.some((m) => m.id === id));
    if (missing.length > 0) throw new ValidationError({ memberSet: missing.map((id) => messages.invalidPk(id)) });
    const values: CatalogColumns = { name: shape.name, category: shape.category, data_type: shape.dataType };
    const result = await restoreRow(trx, 'field', businessId, shape.id, options, values, createdOf(shape));
    const options_ = shape.optionSet.map((o) => ({ id: o.id, title: o.title }));
    const sets = await repo.findFieldSets(trx, businessId, result.id);
    let setsChanged = false;
    if (JSON.stringify(sets.options) !== JSON.stringify(options_)) {
      await repo.replaceFieldOptions(trx, businessId, result.id, options_);
      setsChanged = true;
    }
    if (JSON.stringify(sets.memberIds) !== JSON.stringify(memberIds)) {
      await repo.replaceFieldMembers(trx, businessId, result.id, memberIds);
      setsChanged = true;
    }
    return setsChanged && result.outcome === 'unchanged' ? { id: result.id, outcome: 'updated' } : result;
  });
}

/** Restores a contract category `{id, title}`. */
export async function restoreContractCategory(
  db: Db,
  businessId: number,
  shape: ContractCategoryRestoreShape,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  return inTransaction(db, (trx) =>
    restoreRow(trx, 'contract_category', businessId, shape.id, options, { title: shape.title }, createdOf(shape)),
  );
}

/** Restores a settlement type (`GET /v1/settlement/type`'s shape), inserted after the business's last one. */
export async function restoreSettlementType(
  db: Db,
  businessId: number,
  shape: SettlementTypeRestoreShape,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  return inTransaction(db, async (trx) => {
    const values: CatalogColumns = {
      base_type: shape.baseType,
      category: shape.category,
      title: shape.title,
      allows_multiple_rounds: toBool(shape.allowsMultipleRounds),
    };
    const insertOnly = { position: (await repo.findMaxPosition(trx, 'settlement_type', businessId)) + 1 };
    return restoreRow(trx, 'settlement_type', businessId, shape.id, options, values, createdOf(shape), { insertOnly });
  });
}

/** Restores a worker position `{id, title, symbolColor}` (nested in the API's workers). */
export async function restoreWorkerPosition(
  db: Db,
  businessId: number,
  shape: WorkerPositionRestoreShape,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  return inTransaction(db, (trx) =>
    restoreRow(
      trx,
      'worker_position',
      businessId,
      shape.id,
      options,
      { title: shape.title, symbol_color: shape.symbolColor },
      createdOf(shape),
    ),
  );
}

/** Restores an estimate item classification `{id, title}`, inserted after the business's last one. */
export async function restoreEstimateItemClassification(
  db: Db,
  businessId: number,
  shape: ClassificationRestoreShape,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  return inTransaction(db, async (trx) => {
    const insertOnly = { position: (await repo.findMaxPosition(trx, 'estimate_item_classification', businessId)) + 1 };
    return restoreRow(
      trx,
      'estimate_item_classification',
      businessId,
      shape.id,
      options,
      { title: shape.title },
      createdOf(shape),
      { insertOnly },
    );
  });
}
