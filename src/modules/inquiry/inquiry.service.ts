/**
 * Inquiries (docs/api.md#inquiries, docs/api.md#filters, docs/api.md#events; the hidden flag:
 * docs/api.md#extensions; notifications: README.md#notifications): list, create, retrieve, partialUpdate,
 * destroy (soft), and the task list `GET /v1/inquiry/work`.
 *
 * Every write that touches more than one row runs in one transaction, and the notification events
 * (README.md#notifications) are written in that same transaction.
 */
import { type Expression, expressionBuilder, type SqlBool, type Transaction } from 'kysely';
import type { Database, Db } from '../../db/database.ts';
import {
  changedColumns,
  fromJsonColumn,
  inTransaction,
  jsonTimestamp,
  nowTimestamp,
  toBool,
} from '../../db/sql-helpers.ts';
import type { Timestamp } from '../../db/columns.ts';
import {
  changedFieldValues,
  checkFieldSet,
  type CheckedFieldValue,
  replaceFieldValues,
  setFieldValues,
  toFieldSet,
} from '../field/field.service.ts';
import { ErrorCollector, NotFound, messages } from '../../shared/errors.ts';
import { type CursorPosition, mapPage, type Page, pageSizeOf } from '../../shared/pagination.ts';
import { type Member, parseQueryBoolean } from '../../shared/schemas.ts';
import { dayRangeUtc, instantRangeUtc, todayIn } from '../../shared/time.ts';
import type { AuthContext } from '../../shared/auth-context.ts';
import { checkMemberSet, findInquiryStatus, toMember } from '../catalog/catalog.service.ts';
import { enqueueEvent, type NotificationEvent } from '../notification/notification.service.ts';
import { exists as clientExists, toNestedClient } from '../client/client.service.ts';
import {
  attachFiles,
  type CheckedFile,
  checkFileSet,
  detachInquiryFile,
  type FileContext,
  removeDetachedObjects,
  signFileSet,
  type StoredFile,
  toStoredFiles,
} from '../file/file.service.ts';
import {
  recordCreated,
  recordDeleted,
  recordDeletedMany,
  recordUpdated,
  recordUpdatedMany,
  updateRecord,
} from '../event/event.service.ts';
import {
  checkInquiryContract,
  type InquiryLink,
  recordInquiryNested,
  releaseInquiryContract,
  setInquiryContract,
  toNestedContract,
  touchByInquiry,
} from '../contract/contract.service.ts';
import type { Cascade } from '../../shared/cascade.ts';
import { findTextHistoryIds } from './inquiry-history.repository.ts';
import type { RestoreOptions, RestoreResult } from '../../shared/restore.ts';
import { restoredTimes, restoredTimestamp, restoreRecord, checkRestore } from '../../shared/restore-record.ts';
import * as repo from './inquiry.repository.ts';
import { INQUIRY_PROPERTIES } from './inquiry.properties.ts';
import {
  listShape,
  patchColumns,
  readShape,
  restoreBody,
  type ShapeOf,
  storedColumns as storedOf,
} from '../../shared/property-map.ts';
import {
  FUNNEL_KEYS,
  type Funnel,
  type FunnelKey,
  type Inquiry,
  type InquiryCreateBody,
  type InquiryCreated,
  type InquiryListItem,
  type InquiryListQuery,
  type InquirySummary,
  InquiryUpdateBody,
  type InquiryWork,
} from './inquiry.schemas.ts';
import type { InquiryRowUpdate, InquiryTable } from '../../db/tables/inquiry.table.ts';
import type { NestedInquiryColumns } from '../../db/tables/inquiry.table.ts';

type Auth = Pick<AuthContext, 'businessId' | 'timezone'>;

/** The name an inquiry gets when none is sent (docs/api.md#inquiries). */
export const DEFAULT_INQUIRY_NAME = '의뢰 제목';

// ── Notification events (README.md#notifications) ──

/**
 * One of the four inquiry notification events (docs/api.md#extensions, `GET /v1/notification`; `memberIds`:
 * the intended recipients before filtering).
 */
export type InquiryEvent = NotificationEvent;

/**
 * Writes an inquiry event into the notification outbox inside the change's transaction `trx`, so nothing
 * is sent for a change that rolls back (README.md#notifications). Events without recipients are skipped.
 */
export async function emitInquiryEvent(
  trx: Transaction<Database>,
  businessId: number,
  event: InquiryEvent,
): Promise<void> {
  if (event.memberIds.length === 0) return;
  await enqueueEvent(trx, businessId, event);
}

// ── estimate (docs/api.md#inquiries) ──

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** Most integer digits of `estimate` (docs/api.md#inquiries). */
export const ESTIMATE_WHOLE_DIGITS = 28;
/** Most decimals of `estimate` (docs/api.md#inquiries). */
export const ESTIMATE_DECIMALS = 2;

/**
 * Parses an `estimate` input (a decimal string or a JSON number; null → 0) into its stored form with
 * exactly two decimals (`"1500000"` → `"1500000.00"`, `"-0"` → `"0.00"`).
 * @returns the normalised text, or `{error}` with DRF's DecimalField message
 */
export function parseEstimate(input: string | number | null): string | { error: string } {
  if (input === null) return '0.00';
  const text = typeof input === 'number' ? (Number.isFinite(input) ? String(input) : '') : input;
  const m = DECIMAL.exec(text);
  if (!m) return { error: messages.invalidNumber };
  const [, sign, whole = '', fraction = ''] = m;
  if (whole.length > ESTIMATE_WHOLE_DIGITS) {
    return { error: `Ensure that there are no more than ${ESTIMATE_WHOLE_DIGITS} digits before the decimal point.` };
  }
  if (fraction.length > ESTIMATE_DECIMALS) {
    return { error: `Ensure that there are no more than ${ESTIMATE_DECIMALS} decimal places.` };
  }
  const digits = whole.replace(/^0+(?=\d)/, '');
  const cents = fraction.padEnd(ESTIMATE_DECIMALS, '0');
  const zero = /^0+$/.test(digits + cents);
  return `${sign && !zero ? '-' : ''}${digits}.${cents}`;
}

// ── Mappers ──

/** Maps the joined {@link NESTED_INQUIRY_COLUMNS} of a todo or task row to the inquiry they nest (`{id, uniqueId, name}`). */
export function toNestedInquiry(row: NestedInquiryColumns): { id: number; uniqueId: string; name: string } {
  return { id: row.inquiry_id, uniqueId: row.inquiry_unique_id, name: row.inquiry_name };
}

/**
 * A full shape as the map types it (inquiry.properties.ts): `fileSet` as stored files (emptied: neither the
 * create shape nor a restore's body has it), `uniqueId` never null (the schema's is nullable, as the
 * reference's; the column is not).
 */
function asMapped(shape: Omit<Inquiry, 'updated' | 'workSet'> & Partial<Inquiry>): ShapeOf<typeof INQUIRY_PROPERTIES> {
  return { ...shape, fileSet: [] } as unknown as ShapeOf<typeof INQUIRY_PROPERTIES>;
}

/** A row's status with its folder, or `null` when it has none (or the status is gone). */
function statusOf(row: repo.InquirySummaryRow): InquirySummary['status'] {
  return row.status_id === null || row.status_title === null || row.folder_id === null || row.folder_name === null
    ? null
    : { id: row.status_id, title: row.status_title, folder: { id: row.folder_id, name: row.folder_name } };
}

/** Maps a row and its responsible members to the create and list shape (inquiry.properties.ts). */
function toInquiryListItem(row: repo.InquirySummaryRow, inChargeSet: Member[]): InquiryListItem {
  return readShape(
    INQUIRY_PROPERTIES,
    row,
    { status: statusOf(row), client: toNestedClient(row), contract: toNestedContract(row), inChargeSet },
    true,
  );
}

/** The responsible members of each inquiry among `ids`, keyed by inquiry id. */
async function inChargeByInquiry(db: Db, businessId: number, ids: readonly number[]): Promise<Map<number, Member[]>> {
  const rows = await repo.findInChargeMembers(db, businessId, ids);
  const out = new Map<number, Member[]>(ids.map((id) => [id, []]));
  for (const r of rows) out.get(r.inquiry_id)?.push(toMember(r));
  return out;
}

function toFunnel(row: repo.InquiryDetailRow): Funnel {
  return {
    utmCampaign: row.utm_campaign,
    utmSource: row.utm_source,
    utmMedium: row.utm_medium,
    utmContent: row.utm_content,
    utmTerm: row.utm_term,
    guestUid: row.guest_uid,
    gclid: row.gclid,
  };
}

/** Funnel property → column. */
const FUNNEL_COLUMNS = {
  utmCampaign: 'utm_campaign',
  utmSource: 'utm_source',
  utmMedium: 'utm_medium',
  utmContent: 'utm_content',
  utmTerm: 'utm_term',
  guestUid: 'guest_uid',
  gclid: 'gclid',
} as const satisfies Record<FunnelKey, keyof InquiryTable>;

// ── Checks ──

/** What a body's references resolve to, ready to store. */
interface CheckedBody {
  /** The status to set with its folder, when `status` was sent (non-null). */
  status?: { id: number; folderId: number };
  estimate?: string;
  inChargeIds?: number[];
  fieldValues: CheckedFieldValue[];
  /** Uploaded objects to attach (`fileSet`). */
  files?: CheckedFile[];
}

/**
 * Checks the references and values of a body (status, client, contract, estimate, inChargeSet, fieldSet),
 * collecting every problem; a reference to another business's record reads like a missing one (docs/api.md#requests).
 * `inquiryId` is the inquiry a PATCH changes (a contract already linked to it is fine).
 * @throws ValidationError listing all of them
 */
async function checkBody(
  db: Db,
  businessId: number,
  body: InquiryUpdateBody | InquiryCreateBody,
  files?: FileContext,
  inquiryId?: number,
): Promise<CheckedBody> {
  const errors = new ErrorCollector();
  const out: CheckedBody = { fieldValues: [] };
  if (body.status) {
    const status = await findInquiryStatus(db, businessId, body.status.id);
    if (!status) errors.add(['status', 'id'], messages.invalidPk(body.status.id));
    else out.status = status;
  }
  if (body.client && !(await clientExists(db, { businessId }, body.client.id))) {
    errors.add(['client', 'id'], messages.invalidPk(body.client.id));
  }
  if (body.contract) await checkInquiryContract(db, businessId, body.contract.id, inquiryId, errors);
  if (body.estimate !== undefined) {
    const estimate = parseEstimate(body.estimate);
    if (typeof estimate === 'string') out.estimate = estimate;
    else errors.add(['estimate'], estimate.error);
  }
  if (body.inChargeSet) out.inChargeIds = await checkMemberSet(db, businessId, body.inChargeSet, errors);
  if (body.fieldSet) out.fieldValues = await checkFieldSet(db, businessId, 'I', body.fieldSet, errors);
  if (body.fileSet && body.fileSet.length > 0) {
    if (!files) throw new Error('fileSet needs a FileContext');
    out.files = await checkFileSet(db, files, businessId, body.fileSet, errors);
  }
  errors.throwIfAny();
  return out;
}

/**
 * The plain columns a body sets: only the properties it sends (PATCH is partial): the map's
 * (inquiry.properties.ts), then those written apart from it (`name` and `inquiryDate`: null keeps them;
 * `estimate` parsed and `status` checked by {@link checkBody}; the funnel's seven columns).
 */
function columnsFrom(body: InquiryUpdateBody | InquiryCreateBody, checked: CheckedBody): InquiryRowUpdate {
  const patch: InquiryRowUpdate = patchColumns(INQUIRY_PROPERTIES, body);
  if (body.name !== undefined && body.name !== null) patch.name = body.name;
  if (body.inquiryDate !== undefined && body.inquiryDate !== null) patch.inquiry_date = body.inquiryDate;
  if (checked.estimate !== undefined) patch.estimate = checked.estimate;
  if (checked.status) patch.status_id = checked.status.id;
  if (body.funnel === null) {
    for (const column of Object.values(FUNNEL_COLUMNS)) patch[column] = null;
  } else if (body.funnel) {
    for (const key of FUNNEL_KEYS) {
      const value = body.funnel[key];
      if (value !== undefined) patch[FUNNEL_COLUMNS[key]] = value;
    }
  }
  return patch;
}

// ── Operations ──

/** `GET /v1/inquiry`: live inquiries, newest first, with the list filters (docs/api.md#inquiries, docs/api.md#filters). */
export async function list(
  db: Db,
  auth: Auth,
  query: InquiryListQuery,
  cursor: CursorPosition | undefined,
): Promise<Page<InquiryListItem>> {
  const range = dayRangeUtc(auth.timezone, query.created_start, query.created_end);
  const updated = instantRangeUtc(auth.timezone, query.updated_start, query.updated_end);
  const page = await repo.findPage(
    db,
    auth.businessId,
    {
      createdFrom: range.from,
      createdTo: range.to,
      inquiryDateFrom: query.inquiry_date_start,
      inquiryDateTo: query.inquiry_date_end,
      folderId: query.folder_id,
      statusId: query.status_id,
      isHidden: parseQueryBoolean(query.is_hidden),
      search: query.search ?? [],
      updatedFrom: updated.from,
      updatedTo: updated.to,
    },
    pageSizeOf(query),
    cursor,
  );
  const inCharge = await inChargeByInquiry(
    db,
    auth.businessId,
    page.rows.map((r) => r.id),
  );
  return mapPage(page, (row) => toInquiryListItem(row, inCharge.get(row.id) ?? []));
}

/**
 * `POST /v1/inquiry` (docs/api.md#inquiries): `status` omitted → the default status of the
 * default folder (none when the business has no catalog); `name` → `의뢰 제목`; `inquiryDate` → today in the
 * business's time zone; `estimate` → 0; `uniqueId` → the business's next number. Answers the create shape
 * (with `inChargeSet`, docs/api.md#inquiries). One status-history row
 * for the initial status; an `inquiry.created` notification to the responsible members, and an
 * `inquiry.created` change event with the full shape `GET` answers, read in the transaction
 * (docs/api.md#events), then `contract.updated` for the contract it links (docs/api.md#cascades). `fileSet` attaches uploaded files (checked with `files`, which is needed only when
 * `fileSet` is not empty).
 * @throws ValidationError for bad references or values
 */
export async function create(
  db: Db,
  auth: Auth,
  body: InquiryCreateBody,
  files?: FileContext,
): Promise<InquiryCreated> {
  let linked: number[] = [];
  const checked = await checkBody(db, auth.businessId, body, files);
  const shape = await inTransaction(db, async (trx) => {
    const now = nowTimestamp();
    const number = await repo.nextUniqueNumber(trx, auth.businessId);
    const { id: newId, status_id: statusId } = await repo.insert(trx, auth.businessId, {
      unique_id: String(number),
      name: DEFAULT_INQUIRY_NAME,
      inquiry_date: todayIn(auth.timezone),
      estimate: '0.00',
      is_hidden: 0,
      ...columnsFrom(body, checked),
      // Undefined: the default status, chosen by the insert.
      status_id: checked.status?.id,
      created: now,
      updated: now,
    });
    const inChargeIds = checked.inChargeIds ?? [];
    await repo.insertInCharge(trx, auth.businessId, newId, inChargeIds);
    await repo.insertWorks(
      trx,
      auth.businessId,
      newId,
      (body.workSet ?? []).map((w) => w.name),
      now,
    );
    await setFieldValues(trx, auth.businessId, 'I', newId, checked.fieldValues);
    await repo.insertFileLinks(trx, auth.businessId, newId, body.fileLinkSet ?? [], now);
    await attachFiles(trx, auth.businessId, newId, checked.files ?? [], 0);
    if (body.contract) linked = await setInquiryContract(trx, auth.businessId, newId, body.contract.id);
    if (statusId !== null) {
      await repo.insertStatusHistory(trx, auth.businessId, {
        inquiry_id: newId,
        status_id: statusId,
        previous_status_id: null,
        member_id: null,
        created: now,
      });
    }
    await emitInquiryEvent(trx, auth.businessId, { type: 'inquiry.created', inquiryId: newId, memberIds: inChargeIds });
    // Read inside the transaction, so that a delete right after the commit cannot empty the answer; the
    // event carries the full shape, so its download URLs are signed here (only when files were attached).
    const created = await signed(files, toState((await repo.findShapeById(trx, auth.businessId, newId))!));
    await recordCreated(trx, auth.businessId, 'inquiry', created);
    await recordInquiryNested(trx, auth.businessId, linked);
    return created;
  });
  return listShape(INQUIRY_PROPERTIES, asMapped(shape));
}

/**
 * Whether a live inquiry with this id exists in the business (false for a soft-deleted one and another
 * business's): the check of a body's `inquiry {id}` (docs/api.md#todos, docs/api.md#contracts). One statement.
 */
export async function exists(db: Db, auth: Pick<Auth, 'businessId'>, id: number): Promise<boolean> {
  return repo.existsById(db, auth.businessId, id);
}

/**
 * The condition "inquiry `inquiryId` is a live inquiry of the business", `inquiryId` an expression of the
 * caller's statement (such as `sql.ref('todo.inquiry_id')`), for its WHERE: an `EXISTS` subquery, so a
 * write that must not reach the records of a soft-deleted inquiry stays one statement (a todo's UPDATE and
 * DELETE, which cannot join; docs/api.md#todos, docs/api.md#inquiries; the lean write path,
 * docs/api.md#events). Adds no statement of its own.
 */
export function isLiveInquiry(db: Db, businessId: number, inquiryId: Expression<number>): Expression<SqlBool> {
  return expressionBuilder<Database>().exists(repo.liveIdQuery(db, businessId, inquiryId));
}

/**
 * An inquiry's full shape before its download URLs are signed: `fileSet` holds the stored files
 * (the lean write path compares and writes with it, and signs once, outside the transaction where it can;
 * docs/api.md#events).
 */
type InquiryState = Omit<Inquiry, 'fileSet'> & { fileSet: StoredFile[] };

/** Maps the one-statement read of an inquiry ({@link repo.findShapeById}) to its {@link InquiryState}. */
function toState(row: repo.InquiryShapeRow): InquiryState {
  return readShape(INQUIRY_PROPERTIES, row, {
    status: statusOf(row),
    client: toNestedClient(row),
    contract: toNestedContract(row),
    funnel: toFunnel(row),
    workSet: fromJsonColumn<{ name: string }[]>(row.work_set).map((w) => ({ name: w.name })),
    inChargeSet: fromJsonColumn<Parameters<typeof toMember>[0][]>(row.in_charge_set).map((m) =>
      toMember({ ...m, is_active: toBool(Boolean(m.is_active)) }),
    ),
    fieldSet: toFieldSet(row.field_set),
    fileLinkSet: fromJsonColumn<{ id: number; text: string; link: string; created: string }[]>(row.file_link_set).map(
      (l) => ({
        id: l.id,
        text: l.text,
        link: l.link,
        created: jsonTimestamp(l.created),
      }),
    ),
    fileSet: toStoredFiles(row.file_set),
  });
}

/**
 * The full shape of a state, its download URLs signed with `files`. Without `files` (code that has no
 * storage at hand: a create without `fileSet`, a restore) the state must hold no file.
 */
async function signed(files: FileContext | undefined, state: InquiryState): Promise<Inquiry> {
  if (state.fileSet.length > 0 && !files) throw new Error('signing fileSet needs a FileContext');
  return { ...state, fileSet: files ? await signFileSet(files, state.fileSet) : [] };
}

/** The stored columns of a read that {@link columnsFrom} may write, to compare a patch with (`changedColumns`). */
function storedColumns(row: repo.InquiryShapeRow): Record<string, unknown> {
  return {
    ...storedOf(INQUIRY_PROPERTIES, row),
    name: row.name,
    inquiry_date: row.inquiry_date,
    estimate: row.estimate,
    status_id: row.status_id,
    ...Object.fromEntries(Object.values(FUNNEL_COLUMNS).map((c) => [c, row[c]])),
  };
}

/**
 * `GET /v1/inquiry/{inquiry_id}`: the full shape, read in one statement. `files` (storage, limits, origin)
 * signs the download URLs of `fileSet`.
 * @throws NotFound for a missing, soft-deleted or other business's inquiry
 */
export async function retrieve(db: Db, auth: Auth, id: number, files: FileContext): Promise<Inquiry> {
  const row = await repo.findShapeById(db, auth.businessId, id);
  if (!row) throw new NotFound();
  return signed(files, toState(row));
}

/**
 * What an `inquiry.updated` event compares of two full shapes (docs/api.md#events): `fileSet` without its
 * download URLs (`{id, name, created}` of each file), which are signed anew as time passes and are no change
 * of the inquiry; so a state with stored files compares with a signed shape.
 */
function comparable(key: string, value: unknown): unknown {
  if (key !== 'fileSet' || !Array.isArray(value)) return value;
  return (value as { id: number; name: string; created: string }[]).map((f) => ({
    id: f.id,
    name: f.name,
    created: f.created,
  }));
}

/**
 * Ends a change of an inquiry inside its transaction, once its writes are done and `updated` is stamped
 * (docs/api.md#events): reads the full shape after, signs its download URLs (once: the answer and the
 * event carry them) and hands both shapes to `recordUpdated`, which writes one `inquiry.updated` event
 * naming the changed properties, or puts `updated` back when nothing changed. Answers the full shape.
 */
async function finishUpdate(
  trx: Db,
  auth: Auth,
  id: number,
  before: InquiryState,
  files: FileContext | undefined,
): Promise<Inquiry> {
  const after = await signed(files, toState((await repo.findShapeById(trx, auth.businessId, id))!));
  return recordUpdated(
    trx,
    auth.businessId,
    'inquiry',
    before,
    after,
    (at) => repo.updateById(trx, auth.businessId, id, {}, at),
    {
      comparable,
    },
  );
}

/** Whether two lists hold the same strings in the same order. */
function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** A file link as compared by {@link sameList}. */
function linkKey(l: { text: string; link: string }): string {
  return JSON.stringify([l.text, l.link]);
}

/**
 * What a PATCH of inquiry `id` changes, decided under its lock from the stored `row` and its shape `before`
 * ({@link partialUpdate}'s `diff` step): the changed columns; the sets, field values, contract link and
 * status history that change are written here already, stamped `now` (so `others` says whether any was);
 * `linked` is the contracts whose link changed.
 */
async function changeSets(
  trx: Transaction<Database>,
  businessId: number,
  id: number,
  body: InquiryUpdateBody,
  checked: CheckedBody,
  row: repo.InquiryShapeRow,
  before: InquiryState,
  now: Timestamp,
): Promise<{ columns: InquiryRowUpdate; others: boolean; linked: number[] }> {
  const columns = changedColumns(storedColumns(row), columnsFrom(body, checked));
  let changed = false;
  const inChargeBefore = before.inChargeSet.map((m) => m.id);
  const inCharge = checked.inChargeIds ?? inChargeBefore;
  if (!sameList(inCharge.map(String), inChargeBefore.map(String))) {
    await repo.replaceInCharge(trx, businessId, id, inCharge);
    const added = inCharge.filter((m) => !inChargeBefore.includes(m));
    await emitInquiryEvent(trx, businessId, { type: 'inquiry.in_charge_added', inquiryId: id, memberIds: added });
    changed = true;
  }
  // A set sent as it is stored is kept as it is (its entries keep their ids): no change, no event.
  if (
    body.workSet &&
    !sameList(
      body.workSet.map((w) => w.name),
      before.workSet.map((w) => w.name),
    )
  ) {
    await repo.replaceWorks(
      trx,
      businessId,
      id,
      body.workSet.map((w) => w.name),
      now,
    );
    changed = true;
  }
  if (body.fileLinkSet && !sameList(body.fileLinkSet.map(linkKey), before.fileLinkSet.map(linkKey))) {
    await repo.replaceFileLinks(trx, businessId, id, body.fileLinkSet, now);
    changed = true;
  }
  if (checked.files && checked.files.length > 0) {
    await attachFiles(trx, businessId, id, checked.files, before.fileSet.length);
    changed = true;
  }
  const values = changedFieldValues(before.fieldSet, checked.fieldValues);
  if (values.length > 0) {
    await setFieldValues(trx, businessId, 'I', id, values);
    changed = true;
  }
  let linked: number[] = [];
  if (body.contract !== undefined && (body.contract?.id ?? null) !== (before.contract?.id ?? null)) {
    linked = await setInquiryContract(trx, businessId, id, body.contract?.id ?? null);
    changed = true;
  }
  if (checked.status && checked.status.id !== row.status_id) {
    await repo.insertStatusHistory(trx, businessId, {
      inquiry_id: id,
      status_id: checked.status.id,
      previous_status_id: row.status_id,
      member_id: null,
      created: now,
    });
    if (checked.status.folderId !== row.folder_id) {
      await repo.insertFolderHistory(trx, businessId, {
        inquiry_id: id,
        folder_id: checked.status.folderId,
        previous_folder_id: row.folder_id,
        member_id: null,
        created: now,
      });
    }
    await emitInquiryEvent(trx, businessId, {
      type: 'inquiry.status_changed',
      inquiryId: id,
      memberIds: inCharge,
      statusId: checked.status.id,
      ...(row.status_id !== null && { previousStatusId: row.status_id }),
    });
  }
  return { columns, others: changed, linked };
}

/**
 * `PATCH /v1/inquiry/{inquiry_id}` (docs/api.md#inquiries): only the
 * properties sent change. `workSet`, `inChargeSet`, `fileLinkSet` replace their whole set (`workSet` and
 * `fileLinkSet` sent exactly as stored are kept, with their ids); `fieldSet` sets
 * the fields it names (an empty value clears one); `funnel` sets the keys it names. A status change writes
 * a status-history row, plus a folder-history row when the folder changes, and an `inquiry.status_changed`
 * event to the responsible members; members added to `inChargeSet` get an `inquiry.in_charge_added` event.
 * `fileSet` appends uploaded files (docs/api.md#attachments: at most 30, existing plus new).
 * A change stamps `updated` and writes an `inquiry.updated` event naming the changed properties (a set
 * counts as one; `fileSet` compared without its download URLs); a PATCH that changes nothing writes none
 * and keeps `updated` (docs/api.md#events). Then the records that nest the inquiry get theirs
 * (docs/api.md#cascades): `contract.updated` for the contracts a link change releases or links, or for the
 * linked contract when its `inquiry` summary changes; `todo.updated` for its todos when `name` changes
 * (`nesting` reaches them).
 *
 * The lean write path (docs/api.md#events): the references are checked before the transaction; in it, one
 * statement reads the full shape and locks the row (the one existence check); what changes is decided from
 * that shape and the body, and when nothing does, nothing is written; otherwise one UPDATE writes the
 * changed columns with `updated`, only the sets that change are written, the shape is read once more and
 * the event written. Download URLs are signed once, after that read (for a no-op, after the commit).
 * (DRF's 404 before 400, for an invalid body to an inquiry that does not exist, is answered by the route
 * before calling this.)
 * @throws NotFound for a missing inquiry; ValidationError for bad references or values, or past 30 files
 */
async function partialUpdate(
  db: Db,
  auth: Auth,
  id: number,
  body: InquiryUpdateBody,
  files: FileContext,
  nesting: InquiryNesting,
): Promise<Inquiry> {
  const { businessId } = auth;
  const checked = await checkBody(db, businessId, body, files, id);
  // A body that may change what contracts and todos nest locks the row against new references too: one created
  // meanwhile then reads the new summary, after this commits (docs/api.md#cascades).
  const lock = NESTED_PROPERTIES.some((p) => body[p] !== undefined) ? 'update' : 'no key update';
  const result = await inTransaction(db, async (trx): Promise<{ answer: Inquiry } | { unchanged: InquiryState }> => {
    let linked: number[] = [];
    const { before, answer } = await updateRecord(
      trx,
      businessId,
      'inquiry',
      {
        lock: () => repo.lockShapeById(trx, businessId, id, lock),
        shape: toState,
        diff: async (row, before, now) => {
          const change = await changeSets(trx, businessId, id, body, checked, row, before, now);
          linked = change.linked;
          return change;
        },
        update: (columns, at) => repo.updateById(trx, businessId, id, columns, at),
        read: async () => signed(files, toState((await repo.findShapeById(trx, businessId, id))!)),
      },
      { comparable },
    );
    if (!answer) return { unchanged: before };
    // The records that nest this inquiry (docs/api.md#cascades): the contracts whose link changed, else the
    // linked one when what it nests changed; the todos when the name changed.
    if (linked.length > 0) await recordInquiryNested(trx, businessId, linked);
    else if (contractSummaryKey(before) !== contractSummaryKey(answer) && answer.contract)
      await touchByInquiry(trx, businessId, id);
    if (before.name !== answer.name) await nesting.todos.updated(trx, auth, id, files);
    return { answer };
  });
  return 'answer' in result ? result.answer : signed(files, result.unchanged);
}

/**
 * `DELETE /v1/inquiry/{inquiry_id}/file/{file_id}`: detaches one file of the inquiry and writes an
 * `inquiry.updated` event with `["fileSet"]` in the same transaction (docs/api.md#events); the stored
 * objects are removed after the commit (a storage failure then is logged, not answered).
 * @throws NotFound for a missing or soft-deleted inquiry, or a file id that is not one of its files
 */
export async function destroyFile(
  db: Db,
  auth: Auth,
  inquiryId: number,
  fileId: number,
  files: FileContext,
): Promise<void> {
  const detached = await inTransaction(db, async (trx) => {
    let file: Awaited<ReturnType<typeof detachInquiryFile>>;
    await updateRecord(
      trx,
      auth.businessId,
      'inquiry',
      {
        lock: () => repo.lockShapeById(trx, auth.businessId, inquiryId),
        shape: toState,
        diff: async () => {
          file = await detachInquiryFile(trx, auth.businessId, inquiryId, fileId);
          if (!file) throw new NotFound();
          return { columns: {}, others: true };
        },
        update: (columns, at) => repo.updateById(trx, auth.businessId, inquiryId, columns, at),
        read: async () => signed(files, toState((await repo.findShapeById(trx, auth.businessId, inquiryId))!)),
      },
      { comparable },
    );
    return file!;
  });
  await removeDetachedObjects(files, detached);
}

// ── The contract side of the inquiry ↔ contract link (docs/api.md#contracts) ──

/**
 * What a contract write that links or releases an inquiry needs of this module (contract.service
 * `InquiryLink`, wired by src/services.ts): {@link exists}, {@link lockForContractLink} and
 * {@link finishContractLink}, signing download URLs with the caller's `files` (none needed when the inquiry
 * has no files).
 */
export const contractLink: InquiryLink<FileContext> = {
  exists: (db, auth, id) => exists(db, auth, id),
  lock: (trx, auth, id) => lockForContractLink(trx, auth, id),
  finish: (trx, auth, locked, files) => finishContractLink(trx, auth, locked as LinkedInquiry, files),
};

/** An inquiry a contract write links or releases, read under its lock by {@link lockForContractLink}. */
export interface LinkedInquiry {
  id: number;
  /** Its full shape before the write (download URLs not signed). */
  before: InquiryState;
}

/**
 * Reads the live inquiry `id` in one statement that is also its lock (the lean write path,
 * docs/api.md#events), for a contract write that links or releases it; `undefined` when it is not live.
 * Finish with {@link finishContractLink} after the contract's writes.
 */
export async function lockForContractLink(
  trx: Db,
  auth: Pick<Auth, 'businessId'>,
  id: number,
): Promise<LinkedInquiry | undefined> {
  const row = await repo.lockShapeById(trx, auth.businessId, id);
  return row && { id, before: toState(row) };
}

/**
 * Ends a contract write's change of inquiry `linked` (its `contract` changed; docs/api.md#events): stamps its
 * `updated`, reads its full shape after, signs the download URLs with `files` and writes `inquiry.updated`
 * naming the changed properties (none, and `updated` put back, if the link did not change after all).
 */
export async function finishContractLink(
  trx: Db,
  auth: Auth,
  linked: LinkedInquiry,
  files: FileContext | undefined,
): Promise<void> {
  await repo.updateById(trx, auth.businessId, linked.id, {}, nowTimestamp());
  await finishUpdate(trx, auth, linked.id, linked.before, files);
}

/**
 * `DELETE /v1/inquiry/{inquiry_id}`: soft delete; the inquiry disappears from every read (lists, gets,
 * nested summaries, the task list, its history pages) and stays in the database with its histories
 * (docs/api.md#inquiries). It releases its contract link. Events (docs/api.md#cascades), in this order:
 * `inquiry.text_history.deleted` for each of its text notes and `todo.deleted` for each of its todos (they
 * answer 404 from then on), `inquiry.deleted` `{id}`, then `contract.updated` for the contract it released.
 * `nesting` reaches the todos.
 * @throws NotFound for a missing inquiry
 */
async function destroy(db: Db, auth: Auth, id: number, nesting: InquiryNesting): Promise<void> {
  await inTransaction(db, async (trx) => {
    if ((await repo.softDeleteById(trx, auth.businessId, id, nowTimestamp())) === 0) throw new NotFound();
    const released = await releaseInquiryContract(trx, auth.businessId, id);
    await recordDeletedMany(
      trx,
      auth.businessId,
      'inquiry.text_history',
      await findTextHistoryIds(trx, auth.businessId, id),
      {
        parent: { type: 'inquiry', id },
      },
    );
    await nesting.todos.deleted(trx, auth, id, undefined);
    await recordDeleted(trx, auth.businessId, 'inquiry', id);
    await recordInquiryNested(trx, auth.businessId, released);
  });
}

/**
 * What an inquiry write changes in other modules' records (docs/api.md#cascades), given to
 * {@link createInquiryService} by the composition root (src/services.ts): its todos, which nest
 * `{id, uniqueId, name}` of it and disappear with it.
 */
export interface InquiryNesting {
  todos: { updated: Cascade<FileContext>; deleted: Cascade<FileContext> };
}

/** The properties of an inquiry that contracts nest ({@link contractSummaryKey}); todos nest its `name`. */
const NESTED_PROPERTIES = ['status', 'name', 'estimate', 'inquiryDate'] as const;

/** What a contract nests of an inquiry besides its id and number (`ContractInquiry`), as JSON. */
function contractSummaryKey(inquiry: Pick<Inquiry, (typeof NESTED_PROPERTIES)[number]>): string {
  return JSON.stringify(NESTED_PROPERTIES.map((p) => inquiry[p]));
}

/**
 * The inquiries that nest a client (docs/api.md#cascades), for the client service (wired by src/services.ts):
 * stamps `updated` on the client's live inquiries and writes `inquiry.updated` with `["client"]` for each,
 * download URLs signed with the caller's `files`.
 */
export const clientCascade: Cascade<FileContext> = async (trx, auth, clientId, files) => {
  const ids = await repo.stampByClientId(trx, auth.businessId, clientId, nowTimestamp());
  if (ids.length === 0) return;
  const shapes = await Promise.all(
    (await repo.findShapesByIds(trx, auth.businessId, ids)).map((row) => signed(files, toState(row))),
  );
  await recordUpdatedMany(trx, auth.businessId, 'inquiry', ['client'], shapes);
};

/** `GET /v1/inquiry/work`: the tasks of live inquiries, newest first (docs/api.md#inquiries). */
export async function listWork(
  db: Db,
  auth: Auth,
  query: { page_size?: number; limit?: number },
  cursor: CursorPosition | undefined,
): Promise<Page<InquiryWork>> {
  const page = await repo.findWorkPage(db, auth.businessId, pageSizeOf(query), cursor);
  return mapPage(page, (r) => ({
    id: r.id,
    name: r.name,
    inquiry: toNestedInquiry(r),
    created: r.created,
  }));
}

/**
 * The shape {@link restore} takes: an inquiry's full shape as `GET /v1/inquiry/{id}` answers it (`updated`
 * optional). `workSet` entries may carry the task's `id` and `created` (from `GET /v1/inquiry/work`), which
 * are then kept; otherwise a task's `created` is the inquiry's.
 */
export type RestoredInquiry = Omit<Inquiry, 'updated' | 'workSet'> & {
  updated?: string | undefined;
  workSet: { name: string; id?: number | undefined; created?: string | undefined }[];
};

/**
 * Restores one inquiry from its full shape (`GET /v1/inquiry/{id}` of the source, references already
 * rewritten to this server's ids) under the rules of src/shared/restore.ts
 * (docs/deployment.md#11-moving-a-business-in-and-out): every column, `uniqueId` (the business's counter is
 * raised past it), `created` and `updated` as given, the tasks, responsible members, custom field values
 * and file links (their ids and times kept). Not written here: `fileSet` (the transfer module attaches the
 * downloaded files through the file module) and `contract` (the contract's restore links it). No status
 * history row, no notification, no event.
 * @returns the inquiry's id here and `created`, `updated` or `unchanged`
 * @throws ValidationError naming `status.id`, `client.id`, `estimate`, `inChargeSet` or `fieldSet` when the
 *   shape refers to something this business does not have
 */
export async function restore(
  db: Db,
  auth: Auth,
  shape: RestoredInquiry,
  options: RestoreOptions,
): Promise<RestoreResult> {
  const { businessId } = auth;
  // The map's writable properties (inquiry.properties.ts) with their create defaults, then the others.
  const body: InquiryUpdateBody = {
    ...(restoreBody(INQUIRY_PROPERTIES, asMapped(shape)) as InquiryUpdateBody),
    name: shape.name,
    inquiryDate: shape.inquiryDate,
    estimate: shape.estimate,
    inChargeSet: (shape.inChargeSet ?? []).map((m) => ({ id: m.id })),
    fieldSet: (shape.fieldSet ?? []).map((v) => ({ field: { id: v.field.id }, value: v.value })),
    funnel: Object.fromEntries(FUNNEL_KEYS.map((k) => [k, shape.funnel?.[k] ?? null])) as InquiryUpdateBody['funnel'],
    ...(shape.status && { status: { id: shape.status.id } }),
  };
  const only = checkRestore(InquiryUpdateBody, body, shape, options);
  if (only) return only;
  const times = restoredTimes(shape);
  const write = async (trx: Db, id: number): Promise<void> => {
    const checked = await checkBody(trx, businessId, body);
    await repo.restoreById(trx, businessId, id, {
      ...columnsFrom(body, checked),
      status_id: shape.status?.id ?? null,
      unique_id: shape.uniqueId ?? String(id),
      ...times,
    });
    await repo.replaceInCharge(trx, businessId, id, checked.inChargeIds ?? []);
    await replaceFieldValues(trx, businessId, 'I', id, checked.fieldValues);
    await repo.replaceSetRows(
      trx,
      'inquiry_work',
      businessId,
      id,
      (shape.workSet ?? []).map((w) => ({
        id: w.id,
        name: w.name,
        created: w.created ? restoredTimestamp(w.created) : times.created,
      })),
    );
    await repo.replaceSetRows(
      trx,
      'inquiry_file_link',
      businessId,
      id,
      (shape.fileLinkSet ?? []).map((l) => ({
        id: l.id,
        text: l.text,
        link: l.link,
        created: restoredTimestamp(l.created, times.created),
      })),
    );
    if (shape.uniqueId && /^\d{1,9}$/.test(shape.uniqueId))
      await repo.raiseUniqueNumber(trx, businessId, Number(shape.uniqueId));
  };
  // Compared as GET shows them: tasks by name only; files and the contract are not this function's.
  const compared = { ...shape, workSet: (shape.workSet ?? []).map((w) => ({ name: w.name })) };
  return restoreRecord(db, businessId, compared, options, {
    table: 'inquiry',
    ignore: ['fileSet', 'contract'],
    current: async (t, id) => {
      const row = await repo.findShapeById(t, businessId, id);
      // `fileSet` is not compared (ignored below): the files are the transfer module's.
      return row && { ...toState(row), fileSet: [] };
    },
    insert: async (t, id) => {
      await checkBody(t, businessId, body);
      const { id: newId } = await repo.insert(t, businessId, {
        ...(id !== undefined && { id }),
        unique_id: shape.uniqueId ?? '',
        name: shape.name,
        inquiry_date: shape.inquiryDate,
        estimate: '0.00',
        is_hidden: 0,
        status_id: null,
        ...times,
      });
      await write(t, newId);
      return newId;
    },
    update: (t, id) => write(t, id),
  });
}

/**
 * The name and number (`uniqueId`) of an inquiry of the business, for the text of its notifications
 * (README.md#notifications), or `undefined` when the business has no such inquiry. A soft-deleted inquiry
 * is still described: its notifications were caused while it was live.
 */
export async function findLabel(
  db: Db,
  businessId: number,
  id: number,
): Promise<{ name: string; uniqueId: string } | undefined> {
  const row = await repo.findLabel(db, businessId, id);
  return row && { name: row.name, uniqueId: row.unique_id };
}

/**
 * The inquiry service (docs/api.md#inquiries), built once by the composition root (src/services.ts) with the
 * records an inquiry write changes elsewhere (`nesting`).
 */
export function createInquiryService(nesting: InquiryNesting) {
  return {
    list,
    listWork,
    create,
    exists,
    retrieve,
    destroyFile,
    restore,
    findLabel,
    partialUpdate: (db: Db, auth: Auth, id: number, body: InquiryUpdateBody, files: FileContext): Promise<Inquiry> =>
      partialUpdate(db, auth, id, body, files, nesting),
    destroy: (db: Db, auth: Auth, id: number): Promise<void> => destroy(db, auth, id, nesting),
  };
}

/** What {@link createInquiryService} builds. */
export type InquiryService = ReturnType<typeof createInquiryService>;
