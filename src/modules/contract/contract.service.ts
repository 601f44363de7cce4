/**
 * Contracts (docs/api.md#contracts, docs/api.md#filters, docs/api.md#extensions, docs/api.md#events): list,
 * create, retrieve, partialUpdate, destroy, and the contract summary other resources nest.
 *
 * Rules enforced here:
 * - `title` 1..128, `amount` an integer ≥ 0 and `type` (I, S, G) are required on create; `status` (extension)
 *   defaults to P, `vatType` to E.
 * - The recurring fields `settlementFrequency` (≥ 1), `settlementCycle` (W, M) and `settlementDay` are only
 *   accepted on type S contracts; the day is 0..6 on a weekly cycle and 1..30 on a monthly one. Changing
 *   `type` away from S clears them.
 * - `endDate` may not fall before `startDate`.
 * - `client` must be a live client of the business, `categorySet` categories of the business (the set is
 *   replaced as a whole on PATCH), `fieldSet` fields of kind CO.
 * - `inquiry` links a live inquiry 1:1 (docs/api.md#contracts): an inquiry already
 *   linked to another contract is a 400 on `inquiry.id`; changing it releases the previous inquiry. The link
 *   is `contract.inquiry_id` under a unique index, so of two requests racing for one inquiry exactly one
 *   succeeds, and the inquiry's `contract` (read through the same column) always agrees. The link's code, both
 *   sides, is contract-inquiry-link.ts; the inquiry side writes it through `checkInquiryContract`,
 *   `setInquiryContract` and `releaseInquiryContract`, re-exported here.
 */
import type { Db } from '../../db/database.ts';
import { changedColumns, fromJsonColumn, inTransaction, nowTimestamp } from '../../db/sql-helpers.ts';
import {
  changedFieldValues,
  checkFieldSet,
  type CheckedFieldValue,
  replaceFieldValues,
  setFieldValues,
  toFieldSet,
} from '../field/field.service.ts';
import { ErrorCollector, NotFound, messages } from '../../shared/errors.ts';
import { type CursorPosition, type Page, pageSizeOf } from '../../shared/pagination.ts';
import { parseQueryBoolean } from '../../shared/schemas.ts';
import { dayRangeUtc, instantRangeUtc } from '../../shared/time.ts';
import type { AuthContext } from '../../shared/auth-context.ts';
import { findContractCategoryIds } from '../catalog/catalog.service.ts';
import { exists as clientExists, toNestedClient } from '../client/client.service.ts';
import { recordCreated, recordDeleted, recordUpdatedMany, updateRecord } from '../event/event.service.ts';
import type { Cascade, DeleteCascade } from '../../shared/cascade.ts';
import type { FileContext } from '../file/file.service.ts';
import { restoreHistory as restoreNote } from '../note/note.service.ts';
import type { NoteFull } from '../note/note.schemas.ts';
import type { RestoreOptions, RestoreResult } from '../../shared/restore.ts';
import { restoredTimes, restoreRecord, checkRestore } from '../../shared/restore-record.ts';
import * as repo from './contract.repository.ts';
import {
  insertColumns,
  listShape,
  patchColumns,
  readShape,
  restoreBody,
  storedColumns,
} from '../../shared/property-map.ts';
import { CONTRACT_PROPERTIES } from './contract.properties.ts';
import {
  bindInquiryLink,
  checkInquiryLink,
  type InquiryLink,
  type InquiryShapes,
  linkingInquiry,
  lockForPatch,
  lockInquiries,
  lockMovedInquiry,
  recordInquiryChanges,
} from './contract-inquiry-link.ts';
import type {
  Contract,
  ContractCreateBody,
  ContractInquiry,
  ContractListItem,
  ContractListQuery,
  ContractSummary,
  ContractUpdateBody,
} from './contract.schemas.ts';
import { ContractCreateBody as ContractCreateBodySchema } from './contract.schemas.ts';
import type {
  ContractRowUpdate,
  NestedContractColumns,
  NewContractRow,
  PresentContractColumns,
} from '../../db/tables/contract.table.ts';

export {
  checkInquiryContract,
  type InquiryLink,
  releaseInquiryContract,
  setInquiryContract,
} from './contract-inquiry-link.ts';

type Auth = Pick<AuthContext, 'businessId' | 'timezone'>;
type IdTitle = { id: number; title: string };

/**
 * Maps the joined {@link NESTED_CONTRACT_COLUMNS} of an inquiry, settlement or project row to the nested
 * contract summary (docs/api.md#contracts), or `null` when the row has no contract.
 */
export function toNestedContract(row: PresentContractColumns): ContractSummary;
export function toNestedContract(row: NestedContractColumns): ContractSummary | null;
export function toNestedContract(row: NestedContractColumns): ContractSummary | null {
  if (
    row.contract_id === null ||
    row.contract_title === null ||
    row.contract_amount === null ||
    row.contract_type === null ||
    row.contract_status === null
  ) {
    return null;
  }
  return {
    id: row.contract_id,
    title: row.contract_title,
    amount: row.contract_amount,
    type: row.contract_type as ContractSummary['type'],
    status: row.contract_status as ContractSummary['status'],
    startDate: row.contract_start_date,
    endDate: row.contract_end_date,
  };
}

function toContractInquiry(row: repo.ContractListRow): ContractInquiry | null {
  if (
    row.inquiry_id === null ||
    row.inquiry_name === null ||
    row.inquiry_estimate === null ||
    row.inquiry_inquiry_date === null
  )
    return null;
  return {
    id: row.inquiry_id,
    uniqueId: row.inquiry_unique_id,
    status:
      row.inquiry_status_id === null ||
      row.inquiry_status_title === null ||
      row.inquiry_folder_id === null ||
      row.inquiry_folder_name === null
        ? null
        : {
            id: row.inquiry_status_id,
            title: row.inquiry_status_title,
            folder: { id: row.inquiry_folder_id, name: row.inquiry_folder_name },
          },
    name: row.inquiry_name,
    estimate: row.inquiry_estimate,
    inquiryDate: row.inquiry_inquiry_date,
  };
}

/** Maps a row and its categories to the list shape (create response, list item; contract.properties.ts). */
export function toContractListItem(row: repo.ContractListRow, categorySet: IdTitle[]): ContractListItem {
  return readShape(
    CONTRACT_PROPERTIES,
    row,
    { inquiry: toContractInquiry(row), client: toNestedClient(row), categorySet },
    true,
  );
}

/** Maps the one-statement read of a contract ({@link repo.findShapeById}) to the full shape (retrieve, update; contract.properties.ts). */
export function toContract(row: repo.ContractShapeRow): Contract {
  const categorySet = fromJsonColumn<IdTitle[]>(row.category_set).map((c) => ({ id: c.id, title: c.title }));
  return readShape(CONTRACT_PROPERTIES, row, {
    inquiry: toContractInquiry(row),
    client: toNestedClient(row),
    categorySet,
    fieldSet: toFieldSet(row.field_set),
  });
}

/** `{contract_id → categories}` for the given contracts. */
async function categoriesOf(db: Db, businessId: number, ids: readonly number[]): Promise<Map<number, IdTitle[]>> {
  const map = new Map<number, IdTitle[]>(ids.map((id) => [id, []]));
  for (const r of await repo.findCategories(db, businessId, ids))
    map.get(r.contract_id)?.push({ id: r.id, title: r.title });
  return map;
}

const RECURRING = ['settlementFrequency', 'settlementCycle', 'settlementDay'] as const;

/** What a checked body writes besides its plain columns. */
interface CheckedBody {
  fieldValues: CheckedFieldValue[];
  /** Category ids to set, or `undefined` to keep the set. */
  categoryIds: number[] | undefined;
  /** Whether the recurring columns must be cleared (the type moved away from S). */
  clearRecurring: boolean;
}

/** The stored state a PATCH is merged with (undefined on create). */
interface Stored {
  type: string;
  start_date: string | null;
  end_date: string | null;
  settlement_cycle: string | null;
  settlement_day: number | null;
}

/**
 * Checks a body against the rules above that depend on the stored contract (`stored`, undefined on create):
 * recurring fields on type S only, the day's range, the dates' order. Problems go to `errors`; answers
 * whether the recurring columns must be cleared.
 */
function checkRules(body: ContractUpdateBody, stored: Stored | undefined, errors: ErrorCollector): boolean {
  const type = body.type ?? stored?.type;

  // Recurring fields: type S only (docs/api.md#contracts); the day's range follows the cycle.
  for (const property of RECURRING) {
    const value = body[property];
    if (value !== undefined && value !== null && type !== 'S') {
      errors.add([property], 'Only recurring contracts (type "S") take this property.');
    }
  }
  const clearRecurring = stored !== undefined && stored.type === 'S' && type !== 'S';
  if (type === 'S') {
    const cycle = body.settlementCycle !== undefined ? body.settlementCycle : (stored?.settlement_cycle ?? null);
    const day = body.settlementDay !== undefined ? body.settlementDay : (stored?.settlement_day ?? null);
    if (day !== null && cycle === 'W' && day > 6) {
      errors.add(['settlementDay'], 'On a weekly cycle the settlement day is 0 (Sunday) to 6 (Saturday).');
    }
    if (day !== null && cycle === 'M' && day < 1) {
      errors.add(['settlementDay'], 'On a monthly cycle the settlement day is 1 to 30.');
    }
  }

  const start = body.startDate !== undefined ? body.startDate : (stored?.start_date ?? null);
  const end = body.endDate !== undefined ? body.endDate : (stored?.end_date ?? null);
  if (start !== null && end !== null && end < start && (body.startDate !== undefined || body.endDate !== undefined)) {
    errors.add(['endDate'], 'The end date may not be before the start date.');
  }
  return clearRecurring;
}

/** An {@link ErrorCollector} that keeps its problems to be replayed into another one later (after the rules). */
class HeldErrors extends ErrorCollector {
  readonly held: [readonly string[], string][] = [];
  override add(path: readonly string[], message: string): void {
    this.held.push([path, message]);
  }
  /** Adds the held problems to `errors`. */
  replayInto(errors: ErrorCollector): void {
    for (const [path, message] of this.held) errors.add(path, message);
  }
}

/**
 * Checks the references of a body against the business's records (client, inquiry, categories, custom
 * fields), adding problems to `errors`. `contractId` is the contract a PATCH changes (undefined on create).
 */
async function checkReferences(
  db: Db,
  businessId: number,
  body: ContractUpdateBody,
  errors: ErrorCollector,
  inquiries: InquiryShapes,
  contractId?: number,
): Promise<Omit<CheckedBody, 'clearRecurring'>> {
  if (body.client) {
    if (!(await clientExists(db, { businessId }, body.client.id))) {
      errors.add(['client', 'id'], messages.invalidPk(body.client.id));
    }
  }
  if (body.inquiry) await checkInquiryLink(db, businessId, body.inquiry.id, contractId, errors, inquiries);

  let categoryIds: number[] | undefined;
  if (body.categorySet !== undefined) {
    const wanted = [...new Set((body.categorySet ?? []).map((c) => c.id))];
    const found = new Set(await findContractCategoryIds(db, businessId, wanted));
    for (const id of wanted) if (!found.has(id)) errors.add(['categorySet'], messages.invalidPk(id));
    categoryIds = wanted;
  }

  const fieldValues = body.fieldSet ? await checkFieldSet(db, businessId, 'CO', body.fieldSet, errors) : [];
  return { fieldValues, categoryIds };
}

/**
 * Checks a create body against the rules above and the business's records, collecting every problem.
 * @throws ValidationError listing all of them
 */
async function checkBody(
  db: Db,
  businessId: number,
  body: ContractUpdateBody,
  inquiries: InquiryShapes,
): Promise<CheckedBody> {
  const errors = new ErrorCollector();
  const clearRecurring = checkRules(body, undefined, errors);
  const references = await checkReferences(db, businessId, body, errors, inquiries);
  errors.throwIfAny();
  return { ...references, clearRecurring };
}

/** The plain columns a body sets: only the properties it sends (PATCH is partial; contract.properties.ts). */
function columnsFrom(body: ContractUpdateBody): ContractRowUpdate {
  return patchColumns(CONTRACT_PROPERTIES, body);
}

/**
 * Everything a contract write changes in other modules' records (docs/api.md#cascades), given to
 * {@link createContractService} by the composition root (src/services.ts): the inquiry it links or releases
 * (or whose nested `contract` changes), and the projects and settlements that nest its summary.
 */
export interface ContractNesting {
  /** The linked inquiry's side of the 1:1 link (inquiry.service `contractLink`). */
  inquiries: InquiryLink<FileContext>;
  /** `updated`: writes `project.updated` for the projects of the contract; `released`: unlinks them (a delete) and writes it. */
  projects: { updated: Cascade<FileContext>; released: Cascade<FileContext> };
  /** `updated`: writes `settlement.updated` for the settlements of the contract; `deleted`: deletes them with their notes (the contract's delete). */
  settlements: { updated: Cascade<FileContext>; deleted: DeleteCascade };
}

/** The properties of the contract summary other records nest (docs/api.md#contracts). */
const SUMMARY_PROPERTIES = ['title', 'amount', 'type', 'status', 'startDate', 'endDate'] as const;

/** The contract summary of a full shape, as JSON: what inquiries, projects and settlements nest of it. */
function summaryKey(contract: Contract): string {
  return JSON.stringify(SUMMARY_PROPERTIES.map((p) => contract[p]));
}

/**
 * `GET /v1/contract`: newest first, with the filters of docs/api.md#contracts (`status`, `category_id`:
 * docs/api.md#extensions; `updated_start` / `updated_end`: docs/api.md#events).
 * @throws ValidationError for an `updated_start` / `updated_end` that names no day
 */
export async function list(
  db: Db,
  auth: Auth,
  query: ContractListQuery,
  cursor: CursorPosition | undefined,
): Promise<Page<ContractListItem>> {
  const range = dayRangeUtc(auth.timezone, query.created_start, query.created_end);
  const updated = instantRangeUtc(auth.timezone, query.updated_start, query.updated_end);
  const page = await repo.findPage(
    db,
    auth.businessId,
    {
      createdFrom: range.from,
      createdTo: range.to,
      startDateFrom: query.start_date_from,
      startDateTo: query.start_date_to,
      endDateFrom: query.end_date_from,
      endDateTo: query.end_date_to,
      clientId: query.client_id,
      inquiryId: query.inquiry_id,
      isHidden: parseQueryBoolean(query.is_hidden),
      status: query.status,
      categoryId: query.category_id,
      search: query.search ?? [],
      updatedFrom: updated.from,
      updatedTo: updated.to,
    },
    pageSizeOf(query),
    cursor,
  );
  const categories = await categoriesOf(
    db,
    auth.businessId,
    page.rows.map((r) => r.id),
  );
  return {
    rows: page.rows.map((r) => toContractListItem(r, categories.get(r.id) ?? [])),
    next: page.next,
    previous: page.previous,
  };
}

/**
 * `POST /v1/contract`: answers the list shape (taken from the full shape the event carries). Writes
 * `contract.created`, then, when `inquiry` links one, `inquiry.updated` for that inquiry (its `contract`
 * changes; docs/api.md#events). `inquiries` locks and finishes the inquiry.
 * @throws ValidationError for any rule above
 */
async function create(
  db: Db,
  auth: Auth,
  body: ContractCreateBody,
  inquiries: InquiryShapes,
): Promise<ContractListItem> {
  const checked = await checkBody(db, auth.businessId, body, inquiries);
  const inquiryId = body.inquiry?.id;
  const shape = await linkingInquiry(db, async (trx) => {
    const touched = await lockInquiries(trx, [inquiryId], inquiryId, inquiries);
    const now = nowTimestamp();
    const newId = await repo.insert(trx, auth.businessId, {
      ...insertColumns(CONTRACT_PROPERTIES, body),
      created: now,
      updated: now,
    });
    if (checked.categoryIds) await repo.insertCategories(trx, auth.businessId, newId, checked.categoryIds);
    await setFieldValues(trx, auth.businessId, 'CO', newId, checked.fieldValues);
    // Read inside the transaction, so that a delete right after the commit cannot empty the answer.
    const created = toContract((await repo.findShapeById(trx, auth.businessId, newId))!);
    await recordCreated(trx, auth.businessId, 'contract', created);
    await recordInquiryChanges(trx, touched, inquiries);
    return created;
  });
  return listShape(CONTRACT_PROPERTIES, shape);
}

/** Whether a contract with this id exists in the business. */
export async function exists(db: Db, auth: Pick<Auth, 'businessId'>, id: number): Promise<boolean> {
  return repo.existsById(db, auth.businessId, id);
}

/**
 * Locks contract `id` of the business for a settlement create, until the end of the caller's transaction:
 * `FOR UPDATE` on PostgreSQL, so that concurrent creates on one contract count its rounds one after the other
 * (docs/api.md#settlements); nothing on SQLite, which runs one write transaction at a time (BEGIN IMMEDIATE).
 * The count must be a statement of its own after this one: in the locking statement it would read the
 * snapshot taken before the lock wait (READ COMMITTED) and miss the rounds of the creates it waited for.
 */
export async function lockForSettlement(trx: Db, businessId: number, id: number): Promise<void> {
  await repo.lockForUpdate(trx, businessId, id);
}

/**
 * Whether contract `id` of the business exists, holding a key-share lock on its row until the end of the
 * caller's transaction on PostgreSQL (SQLite serialises writes anyway): a project write that sets the
 * contract takes it before it locks the project, in the order a contract delete takes them (the contract,
 * then its projects through `ON DELETE SET NULL`), so the two never deadlock.
 */
export async function lockForProject(trx: Db, businessId: number, id: number): Promise<boolean> {
  return repo.lockKeyById(trx, businessId, id);
}

/**
 * `GET /v1/contract/{contract_id}`: the full shape, read in one statement.
 * @throws NotFound for a missing or other business's contract
 */
export async function retrieve(db: Db, auth: Auth, id: number): Promise<Contract> {
  const row = await repo.findShapeById(db, auth.businessId, id);
  if (!row) throw new NotFound();
  return toContract(row);
}

/**
 * `PATCH /v1/contract/{contract_id}`: only the properties sent change; `categorySet` replaces the whole set;
 * `fieldSet` sets the fields it names and keeps the others (an empty value clears one). A change stamps
 * `updated` and writes `contract.updated` naming the changed properties, then `inquiry.updated` for the
 * inquiry it releases and the one it links, if `inquiry` changes the link, or for the linked inquiry when
 * the summary it nests changes; then, when the summary changes, `project.updated` and `settlement.updated`
 * for the projects and settlements that nest it (docs/api.md#cascades). A PATCH that changes nothing
 * writes none (docs/api.md#events). `nesting` reaches those records, `files` signs the download URLs of the
 * inquiries' shapes in their events.
 *
 * The lean write path (docs/api.md#events): references are checked before the transaction; in it, the
 * inquiries whose link changes are locked first (the order of an inquiry PATCH that changes its contract),
 * then one statement reads the contract's full shape and locks it (the existence check: a missing contract
 * is 404 before any 400, as in DRF); the rules that depend on the stored contract are checked on that read;
 * nothing is written when nothing changes; otherwise one UPDATE writes the changed columns with `updated`,
 * only the sets that change are written, and the shape is read once more for the event.
 * @throws NotFound for a missing contract; ValidationError for any rule above
 */
async function partialUpdate(
  db: Db,
  auth: Auth,
  id: number,
  body: ContractUpdateBody,
  nesting: ContractNesting,
  files: FileContext | undefined,
): Promise<Contract> {
  const { businessId } = auth;
  const inquiries = bindInquiryLink(nesting.inquiries, auth, files);
  const references = new HeldErrors();
  const checked = await checkReferences(db, businessId, body, references, inquiries, id);
  const newInquiryId = body.inquiry === undefined ? undefined : (body.inquiry?.id ?? null);
  // A body that sends a property of the summary may change what the linked inquiry nests: that inquiry is
  // locked first too (the order of every write that touches both).
  const sendsSummary = SUMMARY_PROPERTIES.some((p) => body[p] !== undefined);
  return linkingInquiry(db, async (trx) => {
    const touched =
      references.held.length === 0
        ? await lockForPatch(trx, businessId, id, newInquiryId, sendsSummary, inquiries)
        : [];
    // The locking read proves the contract still exists and makes `before` the state this change applies to.
    // A body that may change the summary locks the row against new references too: a project or settlement
    // created meanwhile then reads the new summary, after this commits (docs/api.md#cascades).
    const { before, answer } = await updateRecord(trx, businessId, 'contract', {
      lock: () => repo.lockShapeById(trx, businessId, id, sendsSummary ? 'update' : 'no key update'),
      shape: toContract,
      diff: async (row, before) => {
        const errors = new ErrorCollector();
        const clearRecurring = checkRules(body, row, errors);
        references.replayInto(errors);
        errors.throwIfAny();
        await lockMovedInquiry(trx, row.stored_inquiry_id, newInquiryId, sendsSummary, touched, inquiries);
        const patch = columnsFrom(body);
        if (clearRecurring) {
          patch.settlement_frequency = null;
          patch.settlement_cycle = null;
          patch.settlement_day = null;
        }
        const categoryIds = checked.categoryIds;
        const categoriesChange =
          categoryIds !== undefined &&
          JSON.stringify([...categoryIds].sort((a, b) => a - b)) !==
            JSON.stringify(before.categorySet.map((c) => c.id));
        const values = changedFieldValues(before.fieldSet, checked.fieldValues);
        return {
          columns: changedColumns(storedColumns(CONTRACT_PROPERTIES, row), patch),
          others: categoriesChange || values.length > 0,
          write: async () => {
            if (categoriesChange) await repo.replaceCategories(trx, businessId, id, categoryIds);
            await setFieldValues(trx, businessId, 'CO', id, values);
          },
        };
      },
      update: (columns, at) => repo.updateById(trx, businessId, id, columns, at),
      read: async () => toContract((await repo.findShapeById(trx, businessId, id))!),
    });
    if (!answer) return before;
    const summaryChanged = summaryKey(before) !== summaryKey(answer);
    // The inquiries locked above whose `contract` changed: by the link, or by the summary they nest.
    if (summaryChanged || (before.inquiry?.id ?? null) !== (answer.inquiry?.id ?? null))
      await recordInquiryChanges(trx, touched, inquiries);
    if (summaryChanged) {
      await nesting.projects.updated(trx, auth, id, files);
      await nesting.settlements.updated(trx, auth, id, files);
    }
    return answer;
  });
}

/**
 * `DELETE /v1/contract/{contract_id}`: deletes the contract for good, with its settlements, notes,
 * categories and field values. Writes a delete event for every record it takes with it —
 * `settlement.history.deleted` for each settlement note, `settlement.deleted` for each settlement,
 * `contract.history.deleted` for each note — then `project.updated` for each project it leaves without a
 * contract, then `contract.deleted`, then `inquiry.updated` for the inquiry it was linked to (its `contract`
 * becomes null; docs/api.md#cascades). `nesting` reaches the inquiry, the settlements and the projects.
 * @throws NotFound for a missing contract
 */
async function destroy(
  db: Db,
  auth: Auth,
  id: number,
  nesting: ContractNesting,
  files: FileContext | undefined,
): Promise<void> {
  const inquiries = bindInquiryLink(nesting.inquiries, auth, files);
  await inTransaction(db, async (trx) => {
    const previous = await repo.findInquiryIdById(trx, auth.businessId, id);
    if (previous === undefined) throw new NotFound();
    const touched = await lockInquiries(trx, [previous], undefined, inquiries);
    // The lock holds off new settlements (their create locks the contract) until the delete commits.
    if (!(await repo.lockById(trx, auth.businessId, id))) throw new NotFound();
    // Its settlements and their notes, then its notes: every DELETE before the events (the lock order of before).
    const recordSettlementsDeleted = await nesting.settlements.deleted(trx, auth, id);
    const noteIds = await repo.deleteNotes(trx, auth.businessId, id);
    await recordSettlementsDeleted();
    for (const noteId of noteIds) {
      await recordDeleted(trx, auth.businessId, 'contract.history', noteId, { parent: { type: 'contract', id } });
    }
    // Its projects are released before the delete (the foreign key would null them without an event).
    await nesting.projects.released(trx, auth, id, files);
    if ((await repo.deleteById(trx, auth.businessId, id)) === 0) throw new NotFound();
    await recordDeleted(trx, auth.businessId, 'contract', id);
    await recordInquiryChanges(trx, touched, inquiries);
  });
}

/** One contract's nested summary, or `undefined` when it is not a contract of the business. */
export async function findSummary(db: Db, businessId: number, id: number): Promise<ContractSummary | undefined> {
  const row = await repo.findSummaryById(db, businessId, id);
  return row && toNestedContract(row);
}

/**
 * Stamps `updated` on the contracts `ids`, whose `inquiry` an inquiry write changed (linked or released;
 * docs/api.md#cascades), and writes `contract.updated` with `["inquiry"]` for each, after the inquiry's own
 * event: one UPDATE, one read of their full shapes, one insert of the events.
 */
export async function recordInquiryNested(trx: Db, businessId: number, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await recordNested(trx, businessId, await repo.stampWhere(trx, businessId, { ids }, nowTimestamp()), ['inquiry']);
}

/**
 * Stamps `updated` on the contract linked to inquiry `inquiryId` and writes its `contract.updated` with
 * `["inquiry"]`: the inquiry's name, status, estimate or date changed (docs/api.md#cascades).
 */
export async function touchByInquiry(trx: Db, businessId: number, inquiryId: number): Promise<void> {
  await recordNested(trx, businessId, await repo.stampWhere(trx, businessId, { inquiryId }, nowTimestamp()), [
    'inquiry',
  ]);
}

/**
 * The contracts that nest a client (docs/api.md#cascades), for the client service (wired by src/services.ts):
 * stamps `updated` on the contracts of the client and writes `contract.updated` with `["client"]` for each.
 */
export const clientCascade: Cascade = async (trx, { businessId }, clientId) => {
  await recordNested(trx, businessId, await repo.stampWhere(trx, businessId, { clientId }, nowTimestamp()), ['client']);
};

/** Reads the full shapes of the stamped contracts `ids` in one statement and writes their events in one. */
async function recordNested(
  trx: Db,
  businessId: number,
  ids: readonly number[],
  changedFields: readonly string[],
): Promise<void> {
  if (ids.length === 0) return;
  const shapes = (await repo.findShapesByIds(trx, businessId, ids)).map(toContract);
  await recordUpdatedMany(trx, businessId, 'contract', changedFields, shapes);
}

// ── Restore (bizapi import / export: src/shared/restore.ts, docs/deployment.md#11-moving-a-business-in-and-out) ──

/**
 * The request body that writes a restored shape: every writable property of the full shape, references
 * reduced to `{id}`; properties the source did not send keep the create defaults (contract.properties.ts).
 */
function bodyOf(shape: Contract): ContractCreateBody {
  return {
    ...(restoreBody(CONTRACT_PROPERTIES, shape) as ContractCreateBody),
    categorySet: (shape.categorySet ?? []).map((c) => ({ id: c.id })),
    fieldSet: (shape.fieldSet ?? []).map((v) => ({ field: { id: v.field.id }, value: v.value })),
  };
}

/**
 * Checks the references of a restored shape: the client and the inquiry (live), the categories and the
 * custom fields of kind CO with values that fit them. The contract rules of a request (recurring fields on
 * type S only, dates in order) are not applied: the source's record is stored as it is.
 * @throws ValidationError naming each property that refers to nothing here
 */
async function checkRestored(
  db: Db,
  businessId: number,
  body: ContractCreateBody,
  inquiries: Pick<InquiryShapes, 'exists'>,
): Promise<{ categoryIds: number[]; fieldValues: CheckedFieldValue[] }> {
  const errors = new ErrorCollector();
  if (body.client && !(await clientExists(db, { businessId }, body.client.id)))
    errors.add(['client', 'id'], messages.invalidPk(body.client.id));
  if (body.inquiry && !(await inquiries.exists(db, body.inquiry.id))) {
    errors.add(['inquiry', 'id'], messages.invalidPk(body.inquiry.id));
  }
  const categoryIds = [...new Set((body.categorySet ?? []).map((c) => c.id))];
  const found = new Set(await findContractCategoryIds(db, businessId, categoryIds));
  for (const id of categoryIds) if (!found.has(id)) errors.add(['categorySet'], messages.invalidPk(id));
  const fieldValues = await checkFieldSet(db, businessId, 'CO', body.fieldSet ?? [], errors);
  errors.throwIfAny();
  return { categoryIds, fieldValues };
}

/**
 * Restores one contract from its full shape (`GET /v1/contract/{id}` of the source, references already
 * rewritten to this server's ids) under the rules of src/shared/restore.ts: its columns, `created` and
 * `updated` as given, its category set, its custom field values and its inquiry link (the inquiry's
 * `contract` follows; another contract that holds the inquiry here lets go of it, as the link is 1:1 and the
 * source's is the one kept). Settlements and notes are restored on their own ({@link restoreHistory}).
 * Writes no event, also none for the inquiries whose link it changes. `inquiries` checks that the inquiry
 * it links is live (inquiry.service `contractLink`).
 * @returns the contract's id here and `created`, `updated` or `unchanged`
 * @throws ValidationError naming `client.id`, `inquiry.id`, `categorySet` or `fieldSet` when the shape refers
 *   to something this business does not have
 */
async function restore(
  db: Db,
  auth: Auth,
  shape: Contract,
  options: RestoreOptions,
  inquiries: Pick<InquiryShapes, 'exists'>,
): Promise<RestoreResult> {
  const { businessId } = auth;
  const body = bodyOf(shape);
  const only = checkRestore(ContractCreateBodySchema, body, shape, options);
  if (only) return only;
  const times = restoredTimes(shape);
  const write = async (trx: Db, id: number | undefined, insert: boolean): Promise<number> => {
    const checked = await checkRestored(trx, businessId, body, inquiries);
    // The source links the inquiry to this contract: another contract here that still holds it (the link
    // moved in the source, and that contract comes later in the run) lets go of it.
    if (body.inquiry) await repo.releaseInquiry(trx, businessId, body.inquiry.id, insert ? undefined : id);
    const columns = { ...columnsFrom(body), ...times };
    let contractId: number;
    if (insert) {
      contractId = await repo.insert(trx, businessId, {
        ...(id !== undefined && { id }),
        ...(columns as Omit<NewContractRow, 'business_id'>),
      });
    } else {
      contractId = id!;
      await repo.restoreById(trx, businessId, contractId, columns);
    }
    await repo.replaceCategories(trx, businessId, contractId, checked.categoryIds);
    await replaceFieldValues(trx, businessId, 'CO', contractId, checked.fieldValues);
    return contractId;
  };
  return linkingInquiry(db, (trx) =>
    restoreRecord(trx, businessId, shape, options, {
      table: 'contract',
      current: async (t, id) => {
        const row = await repo.findShapeById(t, businessId, id);
        return row && toContract(row);
      },
      insert: (t, id) => write(t, id, true),
      update: async (t, id) => {
        await write(t, id, false);
      },
    }),
  );
}

/**
 * Restores one note of contract `contractId` (this server's id) from its full shape
 * (`GET /v1/contract/{contract_id}/history/{history_id}` of the source) under the rules of
 * src/shared/restore.ts: `content`, `member`, `created` and `updated` as given; no event.
 * @throws ValidationError on `contract.id` when the contract is not the business's, on `member.id` for a
 *   member this business does not have
 */
export async function restoreHistory(
  db: Db,
  auth: Auth,
  contractId: number,
  shape: NoteFull,
  options: RestoreOptions,
): Promise<RestoreResult> {
  return restoreNote(db, auth, 'contract', contractId, shape, options);
}

/**
 * The contract service (docs/api.md#contracts), built once by the composition root (src/services.ts) with the
 * records a contract write changes elsewhere (`nesting`). The writes take the caller's file context (`files`,
 * the request's): the linked inquiry's event carries its download URLs (docs/api.md#cascades); a restore
 * needs none.
 */
export function createContractService(nesting: ContractNesting) {
  return {
    list,
    exists,
    retrieve,
    restoreHistory,
    create: (db: Db, auth: Auth, body: ContractCreateBody, files?: FileContext): Promise<ContractListItem> =>
      create(db, auth, body, bindInquiryLink(nesting.inquiries, auth, files)),
    partialUpdate: (db: Db, auth: Auth, id: number, body: ContractUpdateBody, files?: FileContext): Promise<Contract> =>
      partialUpdate(db, auth, id, body, nesting, files),
    destroy: (db: Db, auth: Auth, id: number, files?: FileContext): Promise<void> =>
      destroy(db, auth, id, nesting, files),
    restore: (db: Db, auth: Auth, shape: Contract, options: RestoreOptions): Promise<RestoreResult> =>
      restore(db, auth, shape, options, bindInquiryLink(nesting.inquiries, auth, undefined)),
  };
}

/** What {@link createContractService} builds. */
export type ContractService = ReturnType<typeof createContractService>;
