/**
 * Settlements (docs/api.md#settlements, docs/api.md#filters, docs/api.md#extensions, docs/api.md#events): list,
 * create, retrieve, partialUpdate, destroy, and the status history (extension).
 *
 * Creation rules (docs/api.md#settlements), each a 400 (docs/api.md#errors):
 * 1. `contract.id` and `type.id` are required and must be records of the business (`contract.id`, `type.id`);
 *    the OUTSTANDING_PAYMENT type (`OUT`) is refused (`type.id`).
 * 3. The contract must have both a start date and an end date (`nonField`).
 * 4. No settlement on a suspended contract, status `T` (`nonField`).
 * 5. A type that does not allow multiple rounds is used at most once per contract, except `ADD` (and `OUT`,
 *    refused anyway) (`type.id`). A unique index enforces it, so two racing requests end with one success.
 * `settlementRound` defaults to one more than the settlements of that type on the contract; `typeAlias` is the
 * type's title, followed by the round for multi-round types.
 */
import type { Db } from '../../db/database.ts';
import {
  changedColumns,
  inTransaction,
  isForeignKeyViolation,
  isUniqueViolation,
  nowTimestamp,
} from '../../db/sql-helpers.ts';
import { ErrorCollector, ValidationError, NotFound, messages } from '../../shared/errors.ts';
import { type CursorPosition, mapPage, type Page, pageSizeOf } from '../../shared/pagination.ts';
import { type Member, parseQueryBoolean } from '../../shared/schemas.ts';
import { dayRangeUtc, instantRangeUtc } from '../../shared/time.ts';
import type { AuthContext } from '../../shared/auth-context.ts';
import type { SettlementType } from '../catalog/catalog.schemas.ts';
import { checkMemberSet, findSettlementType, toMember } from '../catalog/catalog.service.ts';
import {
  findSummary as findContractSummary,
  lockForSettlement as lockContractForSettlement,
  toNestedContract,
} from '../contract/contract.service.ts';
import { recordCreated, recordDeleted, recordUpdatedMany, updateRecord } from '../event/event.service.ts';
import type { Cascade, DeleteCascade } from '../../shared/cascade.ts';
import { restoreHistory as restoreNote } from '../note/note.service.ts';
import type { NoteFull } from '../note/note.schemas.ts';
import type { RestoreOptions, RestoreResult } from '../../shared/restore.ts';
import { restoredTimes, restoreRecord, checkRestore } from '../../shared/restore-record.ts';
import * as repo from './settlement.repository.ts';
import { SETTLEMENT_PROPERTIES } from './settlement.properties.ts';
import { insertColumns, patchColumns, readShape, restoreBody } from '../../shared/property-map.ts';
import type {
  Settlement,
  SettlementCreateBody,
  SettlementListItem,
  SettlementListQuery,
  SettlementStatus,
  SettlementStatusChange,
  SettlementStatusQuery,
  SettlementUpdateBody,
} from './settlement.schemas.ts';
import { SettlementUpdateBody as SettlementUpdateBodySchema } from './settlement.schemas.ts';
import type { NewSettlementRow, SettlementRowUpdate } from '../../db/tables/settlement.table.ts';

type Auth = Pick<AuthContext, 'businessId' | 'timezone'>;

/** Base types exempt from "once per contract" (docs/api.md#settlements). */
const MULTI_ROUND_EXEMPT = new Set(['ADD', 'OUT']);

/** The unique index that makes a single-round type usable once per contract, as each dialect reports it. */
const SINGLE_ROUND_UQ = {
  name: 'settlement_single_round_uq',
  columns: ['settlement.business_id', 'settlement.contract_id', 'settlement.single_type_id'],
} as const;

/** Maps a row to the list shape (create response, list item; ./settlement.properties.ts). */
export function toSettlementListItem(row: repo.SettlementListRow): SettlementListItem {
  return readShape(SETTLEMENT_PROPERTIES, row, { contract: toNestedContract(row) }, true);
}

/** Maps a row and its responsible members to the full shape (retrieve, update; ./settlement.properties.ts). */
export function toSettlement(row: repo.SettlementDetailRow, inChargeSet: Member[]): Settlement {
  const type: SettlementType = {
    id: row.type_id,
    baseType: row.type_base_type as SettlementType['baseType'],
    category: row.type_category as SettlementType['category'],
    title: row.type_title,
    allowsMultipleRounds: row.type_allows_multiple_rounds === 1,
  };
  return readShape(SETTLEMENT_PROPERTIES, row, { contract: toNestedContract(row), type, inChargeSet });
}

/** Maps a status-history row. */
export function toStatusChange(row: repo.StatusChangeRow): SettlementStatusChange {
  return {
    id: row.id,
    status: row.status as SettlementStatus,
    previousStatus: row.previous_status as SettlementStatus | null,
    member:
      row.member_id === null || row.member_email === null || row.grade_id === null || row.grade_title === null
        ? null
        : {
            id: row.member_id,
            nickname: row.member_nickname,
            email: row.member_email,
            isActive: row.member_is_active === 1,
            grade: { id: row.grade_id, title: row.grade_title },
          },
    created: row.created,
  };
}

function alreadyUsed(typeTitle: string): string {
  return `A settlement of type "${typeTitle}" already exists for this contract, and the type does not allow multiple rounds.`;
}

/**
 * Checks `inChargeSet` (members of the business; repeated ids collapse). Problems go to `errors` under
 * `inChargeSet` (a list property: an array of strings). Returns the member ids to store, or `undefined` when
 * the body does not send the property.
 */
async function checkInChargeSet(
  db: Db,
  businessId: number,
  entries: readonly { id: number }[] | null | undefined,
  errors: ErrorCollector,
): Promise<number[] | undefined> {
  if (entries === undefined) return undefined;
  return checkMemberSet(db, businessId, entries ?? [], errors);
}

/** The plain columns a body sets: only the properties it sends (PATCH is partial; ./settlement.properties.ts). */
function columnsFrom(body: SettlementUpdateBody): SettlementRowUpdate {
  return patchColumns(SETTLEMENT_PROPERTIES, body);
}

/** The full shape of a row read by `findFullById` (one statement: the row and its responsible members). */
function fullOf(row: repo.SettlementFullRow): Settlement {
  return toSettlement(row, row.in_charge.map(toMember));
}

/**
 * The settlements of a contract (docs/api.md#cascades), for the contract service (wired by src/services.ts).
 * `updated`: the contract's summary changed: stamps `updated` on its settlements and writes
 * `settlement.updated` with `["contract"]` for each. `deleted`: the contract is deleted: deletes its
 * settlements with their notes (two statements) and answers the writer of `settlement.history.deleted` for
 * each note, then `settlement.deleted` for each settlement.
 */
export const contractCascades: { updated: Cascade; deleted: DeleteCascade } = {
  updated: async (trx, { businessId }, contractId) => {
    const ids = await repo.stampByContractId(trx, businessId, contractId, nowTimestamp());
    if (ids.length === 0) return;
    const shapes = (await repo.findFullByIds(trx, businessId, ids)).map(fullOf);
    await recordUpdatedMany(trx, businessId, 'settlement', ['contract'], shapes);
  },
  deleted: async (trx, { businessId }, contractId) => {
    const deleted = await repo.deleteByContractId(trx, businessId, contractId);
    return async () => {
      for (const note of deleted.notes) {
        await recordDeleted(trx, businessId, 'settlement.history', note.id, {
          parent: { type: 'settlement', id: note.settlementId },
        });
      }
      for (const id of deleted.ids) await recordDeleted(trx, businessId, 'settlement', id);
    };
  },
};

/** Whether two member id lists name the same set. */
function sameIds(a: readonly number[], b: readonly number[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((id) => set.has(id));
}

/**
 * `GET /v1/settlement`: newest first, with the filters of docs/api.md#settlements (`updated_start` /
 * `updated_end`: docs/api.md#events).
 * @throws ValidationError for a date that names no day
 */
export async function list(
  db: Db,
  auth: Auth,
  query: SettlementListQuery,
  cursor: CursorPosition | undefined,
): Promise<Page<SettlementListItem>> {
  const range = dayRangeUtc(auth.timezone, query.created_start, query.created_end);
  const updated = instantRangeUtc(auth.timezone, query.updated_start, query.updated_end);
  const page = await repo.findPage(
    db,
    auth.businessId,
    {
      contractId: query.contract_id,
      createdFrom: range.from,
      createdTo: range.to,
      dueDateFrom: query.due_date_start,
      dueDateTo: query.due_date_end,
      settledDateFrom: query.settled_date_start,
      settledDateTo: query.settled_date_end,
      isHidden: parseQueryBoolean(query.is_hidden),
      search: query.search ?? [],
      updatedFrom: updated.from,
      updatedTo: updated.to,
    },
    pageSizeOf(query),
    cursor,
  );
  return mapPage(page, toSettlementListItem);
}

/**
 * `POST /v1/settlement`: the creation rules above; answers the list shape. Status starts at `C` (scheduled).
 * Writes `settlement.created` with the full shape (docs/api.md#events).
 * @throws ValidationError for any rule, also when a concurrent request took a single-round type first or
 *   deleted the contract
 */
export async function create(db: Db, auth: Auth, body: SettlementCreateBody): Promise<SettlementListItem> {
  const errors = new ErrorCollector();
  const [contract, type] = await Promise.all([
    findContractSummary(db, auth.businessId, body.contract.id),
    findSettlementType(db, auth.businessId, body.type.id),
  ]);
  if (!contract) errors.add(['contract', 'id'], messages.invalidPk(body.contract.id));
  if (!type) errors.add(['type', 'id'], messages.invalidPk(body.type.id));
  else if (type.baseType === 'OUT') {
    errors.add(['type', 'id'], 'The outstanding payment type (OUT) cannot be used to create a settlement.');
  }
  if (contract) {
    if (contract.startDate === null || contract.endDate === null) {
      errors.add([], 'The contract needs both a start date and an end date before a settlement can be created.');
    }
    if (contract.status === 'T') errors.add([], 'No settlement can be created for a suspended contract.');
  }
  const singleRound = type !== undefined && !type.allowsMultipleRounds && !MULTI_ROUND_EXEMPT.has(type.baseType);
  if (contract && type && singleRound) {
    if ((await repo.countOfType(db, auth.businessId, contract.id, type.id)) > 0)
      errors.add(['type', 'id'], alreadyUsed(type.title));
  }
  const memberIds = await checkInChargeSet(db, auth.businessId, body.inChargeSet, errors);
  errors.throwIfAny();
  const t = type!;

  // The row is read inside the transaction: a contract deleted right after the commit takes the new
  // settlement with it, and the answer must still describe what was created.
  let row: repo.SettlementFullRow | undefined;
  try {
    row = await inTransaction(db, async (trx) => {
      // The next round is counted under a lock of the contract, so concurrent creates get distinct rounds.
      await lockContractForSettlement(trx, auth.businessId, body.contract.id);
      const round = body.settlementRound ?? (await repo.countOfType(trx, auth.businessId, body.contract.id, t.id)) + 1;
      const now = nowTimestamp();
      const newId = await repo.insert(trx, auth.businessId, {
        ...insertColumns(SETTLEMENT_PROPERTIES, body),
        contract_id: body.contract.id,
        type_id: t.id,
        single_type_id: singleRound ? t.id : null,
        status: 'C',
        settlement_round: round,
        type_alias: t.allowsMultipleRounds ? `${t.title} ${round}` : t.title,
        created: now,
        updated: now,
      });
      if (memberIds) await repo.insertInCharge(trx, auth.businessId, newId, memberIds);
      // One read of the full shape serves the event and the answer (its list shape).
      const full = await repo.findFullById(trx, auth.businessId, newId);
      await recordCreated(trx, auth.businessId, 'settlement', fullOf(full!));
      return full;
    });
  } catch (err) {
    if (isUniqueViolation(err, SINGLE_ROUND_UQ.name, SINGLE_ROUND_UQ.columns))
      throw ValidationError.at(['type', 'id'], alreadyUsed(t.title));
    // The contract was deleted by a concurrent request after the check above: the same 400 as the check.
    if (isForeignKeyViolation(err) && !(await findContractSummary(db, auth.businessId, body.contract.id))) {
      throw ValidationError.at(['contract', 'id'], messages.invalidPk(body.contract.id));
    }
    throw err;
  }
  return toSettlementListItem(row!);
}

/** Whether a settlement with this id exists in the business. */
export async function exists(db: Db, auth: Pick<Auth, 'businessId'>, id: number): Promise<boolean> {
  return repo.existsById(db, auth.businessId, id);
}

/**
 * `GET /v1/settlement/{settlement_id}`: the full shape.
 * @throws NotFound for a missing or other business's settlement
 */
export async function retrieve(db: Db, auth: Auth, id: number): Promise<Settlement> {
  const row = await repo.findFullById(db, auth.businessId, id);
  if (!row) throw new NotFound();
  return fullOf(row);
}

/**
 * `PATCH /v1/settlement/{settlement_id}`: only the properties sent change; `inChargeSet` replaces the set;
 * `status` (extension) records a status-history row when it changes (docs/api.md#extensions). `contract`,
 * `type` and `settlementRound` are not writable (docs/api.md#settlements) and are ignored. A change stamps
 * `updated` and writes `settlement.updated` naming the changed properties (a status change among them); a
 * PATCH that changes nothing writes nothing and keeps `updated` (docs/api.md#events).
 *
 * The lean write path: the full shape is read once under the row's lock (`FOR UPDATE` on PostgreSQL), the
 * changed columns and `updated` are written in one UPDATE, the responsible members only when the set
 * changes, and the shape is read once more for the answer and the event.
 * @throws NotFound for a missing settlement; ValidationError for unknown members
 */
export async function partialUpdate(db: Db, auth: Auth, id: number, body: SettlementUpdateBody): Promise<Settlement> {
  const errors = new ErrorCollector();
  const memberIds = await checkInChargeSet(db, auth.businessId, body.inChargeSet, errors);
  errors.throwIfAny();
  const patch = columnsFrom(body);
  if (body.status !== undefined) patch.status = body.status;
  return inTransaction(db, async (trx) => {
    const { before, answer } = await updateRecord(trx, auth.businessId, 'settlement', {
      lock: () => repo.findFullById(trx, auth.businessId, id, true),
      shape: fullOf,
      diff: (row, before) => {
        const columns = changedColumns(row, patch);
        const membersChange =
          memberIds !== undefined &&
          !sameIds(
            memberIds,
            before.inChargeSet.map((m) => m.id),
          );
        return {
          columns,
          others: membersChange,
          write: async (at) => {
            if (columns.status !== undefined) {
              // Under the row's lock `row.status` is the status this change replaces.
              await repo.insertStatusChange(trx, auth.businessId, {
                settlement_id: id,
                status: columns.status,
                previous_status: row.status,
                member_id: null,
                created: at,
              });
            }
            if (membersChange) await repo.replaceInCharge(trx, auth.businessId, id, memberIds);
          },
        };
      },
      update: (columns, at) => repo.updateById(trx, auth.businessId, id, columns, at),
      read: async () => fullOf((await repo.findFullById(trx, auth.businessId, id))!),
    });
    return answer ?? before;
  });
}

/**
 * `DELETE /v1/settlement/{settlement_id}`: deletes the settlement for good, with its status history and notes.
 * Writes `settlement.history.deleted` for each of its notes, then `settlement.deleted` (docs/api.md#events).
 * @throws NotFound for a missing settlement
 */
export async function destroy(db: Db, auth: Pick<Auth, 'businessId'>, id: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    // The DELETE's row count is the existence check (the notes' DELETE finds none of a missing settlement).
    const noteIds = await repo.deleteNotes(trx, auth.businessId, id);
    if ((await repo.deleteById(trx, auth.businessId, id)) === 0) throw new NotFound();
    for (const noteId of noteIds)
      await recordDeleted(trx, auth.businessId, 'settlement.history', noteId, { parent: { type: 'settlement', id } });
    await recordDeleted(trx, auth.businessId, 'settlement', id);
  });
}

/**
 * `GET /v1/settlement/{settlement_id}/status_history` (extension): the status changes, newest first.
 * @throws NotFound for a missing settlement
 */
export async function listStatusHistory(
  db: Db,
  auth: Auth,
  id: number,
  query: SettlementStatusQuery,
  cursor: CursorPosition | undefined,
): Promise<Page<SettlementStatusChange>> {
  if (!(await repo.existsById(db, auth.businessId, id))) throw new NotFound();
  const page = await repo.findStatusPage(db, auth.businessId, id, pageSizeOf(query), cursor);
  return mapPage(page, toStatusChange);
}

// ── Restore (bizapi import / export: src/shared/restore.ts, docs/deployment.md#11-moving-a-business-in-and-out) ──

/** The request body that writes a restored shape's plain columns (every writable property, create defaults). */
function bodyOf(shape: Settlement): SettlementUpdateBody {
  return restoreBody(SETTLEMENT_PROPERTIES, shape);
}

/**
 * Restores one settlement from its full shape (`GET /v1/settlement/{id}` of the source, references already
 * rewritten to this server's ids) under the rules of src/shared/restore.ts: its columns with `status`,
 * `settlementRound` and `typeAlias` as given, `created` and `updated` as given, its contract, type and
 * `inChargeSet`. The creation rules of a request (contract dates, suspended contracts, the OUT type) are
 * not applied: the source's record is stored as it is; a single-round type is still used at most once per
 * contract. Writes no status-history row and no event; notes are restored on their own ({@link restoreHistory}).
 * @returns the settlement's id here and `created`, `updated` or `unchanged`
 * @throws ValidationError naming `contract.id`, `type.id` (missing, or a single-round type the contract
 *   already has) or `inChargeSet` when the shape refers to something this business does not have
 */
export async function restore(db: Db, auth: Auth, shape: Settlement, options: RestoreOptions): Promise<RestoreResult> {
  const { businessId } = auth;
  const only = checkRestore(SettlementUpdateBodySchema, bodyOf(shape), shape, options);
  if (only) return only;
  const contractId = shape.contract.id;
  const typeId = shape.type.id;
  const write = async (trx: Db, id: number | undefined, insert: boolean): Promise<number> => {
    const errors = new ErrorCollector();
    const [contract, type] = await Promise.all([
      findContractSummary(trx, businessId, contractId),
      findSettlementType(trx, businessId, typeId),
    ]);
    if (!contract) errors.add(['contract', 'id'], messages.invalidPk(contractId));
    if (!type) errors.add(['type', 'id'], messages.invalidPk(typeId));
    const memberIds = await checkMemberSet(trx, businessId, shape.inChargeSet ?? [], errors);
    errors.throwIfAny();
    const singleRound = !type!.allowsMultipleRounds && !MULTI_ROUND_EXEMPT.has(type!.baseType);
    const columns = {
      ...columnsFrom(bodyOf(shape)),
      contract_id: contractId,
      type_id: typeId,
      single_type_id: singleRound ? typeId : null,
      status: shape.status,
      settlement_round: shape.settlementRound,
      type_alias: shape.typeAlias,
      ...restoredTimes(shape),
    };
    let settlementId: number;
    if (insert)
      settlementId = await repo.insert(trx, businessId, {
        ...(id !== undefined && { id }),
        ...(columns as Omit<NewSettlementRow, 'business_id'>),
      });
    else await repo.updateById(trx, businessId, (settlementId = id!), columns, columns.updated);
    await repo.replaceInCharge(trx, businessId, settlementId, memberIds);
    return settlementId;
  };
  try {
    return await restoreRecord(db, businessId, shape, options, {
      table: 'settlement',
      current: async (trx, id) => {
        const row = await repo.findFullById(trx, businessId, id);
        return row && fullOf(row);
      },
      insert: (trx, id) => write(trx, id, true),
      update: async (trx, id) => {
        await write(trx, id, false);
      },
    });
  } catch (err) {
    if (isUniqueViolation(err, SINGLE_ROUND_UQ.name, SINGLE_ROUND_UQ.columns))
      throw ValidationError.at(['type', 'id'], alreadyUsed(shape.type.title));
    throw err;
  }
}

/**
 * Restores one note of settlement `settlementId` (this server's id) from its full shape
 * (`GET /v1/settlement/{settlement_id}/history/{history_id}` of the source) under the rules of
 * src/shared/restore.ts: `content`, `member`, `created` and `updated` as given; no event.
 * @throws ValidationError on `settlement.id` when the settlement is not the business's, on `member.id` for a
 *   member this business does not have
 */
export async function restoreHistory(
  db: Db,
  auth: Auth,
  settlementId: number,
  shape: NoteFull,
  options: RestoreOptions,
): Promise<RestoreResult> {
  return restoreNote(db, auth, 'settlement', settlementId, shape, options);
}
