/**
 * The read-only catalogs (docs/api.md#catalogs): members, custom fields, inquiry statuses, folders,
 * client statuses, contract categories and settlement types. Also the mappers other modules use to nest a
 * member or a field in their own responses.
 */
import type { Expression } from 'kysely';
import type { Db } from '../../db/database.ts';
import { type CursorPosition, mapPage, type Page, pageSizeOf } from '../../shared/pagination.ts';
import { type Member, parseQueryBoolean } from '../../shared/schemas.ts';
import type { AuthContext } from '../../shared/auth-context.ts';
import { type ErrorCollector, messages } from '../../shared/errors.ts';
import * as repo from './catalog.repository.ts';
import type {
  Field,
  FieldListQuery,
  Folder,
  FolderListQuery,
  InquiryStatus,
  InquiryStatusListQuery,
  MemberListQuery,
  PlainPageQuery,
  SearchPageQuery,
  SettlementType,
} from './catalog.schemas.ts';
import type { MemberColumns, NestedMemberColumns } from '../../db/tables/catalog.table.ts';

type Auth = Pick<AuthContext, 'businessId'>;

/** Maps a member row ({@link MEMBER_COLUMNS}: the member joined with its grade) to the API's five-key member. */
export function toMember(row: MemberColumns): Member {
  return {
    id: row.id,
    nickname: row.nickname,
    email: row.email,
    isActive: row.is_active === 1,
    grade: { id: row.grade_id, title: row.grade_title },
  };
}

/**
 * The members of the business among `ids`, as the API's {@link Member}, keyed by id (one query; unknown and
 * other businesses' ids are simply absent). For resources that nest members (todo, settlement, inquiry).
 */
export async function findMembers(db: Db, businessId: number, ids: Iterable<number>): Promise<Map<number, Member>> {
  const rows = await repo.findMembersByIds(db, businessId, [...new Set(ids)]);
  return new Map(rows.map((r) => [r.id, toMember(r)]));
}

/** Whether `id` is a member of the business (a `member {id}` reference of a note or history entry). */
export async function isMember(db: Db, businessId: number, id: number): Promise<boolean> {
  return (await repo.findMembersByIds(db, businessId, [id])).length > 0;
}

/**
 * The one check of a member list reference (`inChargeSet` of inquiries and settlements, docs/api.md#errors):
 * repeated ids collapse, and every id that is not a member of the business adds
 * `Invalid pk "…" - object does not exist.` to `errors` under `property` (a list property: an array of
 * strings). Returns the distinct member ids to store, in request order.
 */
export async function checkMemberSet(
  db: Db,
  businessId: number,
  entries: readonly { id: number }[],
  errors: ErrorCollector,
  property = 'inChargeSet',
): Promise<number[]> {
  const ids = [...new Set(entries.map((e) => e.id))];
  const found = await findMembers(db, businessId, ids);
  for (const id of ids) if (!found.has(id)) errors.add([property], messages.invalidPk(id));
  return ids;
}

/**
 * The ids among `memberIds` of the business's members who are active and have notifications on
 * (README.md#notifications), ascending; unknown and other businesses' ids are left out. One query (none
 * for an empty list).
 */
export async function findNotifiableMemberIds(
  db: Db,
  businessId: number,
  memberIds: readonly number[],
): Promise<number[]> {
  return repo.findNotifiableMemberIds(db, businessId, memberIds);
}

/** A member's contact (`nickname`, `email`) and settings (`is_active`, `notifications_enabled`: 0 / 1). */
export type MemberContact = repo.MemberContactRow;

/** A member of the business with its contact and notification settings, or `undefined` (the notification dispatcher's recipient). */
export async function findMemberContact(
  db: Db,
  businessId: number,
  memberId: number,
): Promise<MemberContact | undefined> {
  return repo.findMemberContact(db, businessId, memberId);
}

/** The title of an inquiry status of the business, or `undefined` (also for another business's). */
export async function findInquiryStatusTitle(
  db: Db,
  businessId: number,
  statusId: number,
): Promise<string | undefined> {
  return repo.findInquiryStatusTitle(db, businessId, statusId);
}

/** A client status of the business by id (`{id, title}`), or `undefined` (also for another business's). */
export async function findClientStatus(
  db: Db,
  businessId: number,
  id: number,
): Promise<{ id: number; title: string } | undefined> {
  return repo.findClientStatusById(db, businessId, id);
}

/**
 * The id of the business's default client status, as an expression for the caller's INSERT (a subquery:
 * the lowest id among defaults, `null` when the business has none), so a client created without `status`
 * takes it in its one INSERT statement (docs/api.md#clients; the lean write path, docs/api.md#events):
 * `values({ …, status_id: defaultClientStatusId(db, businessId) })`. Adds no statement of its own.
 */
export function defaultClientStatusId(db: Db, businessId: number): Expression<number | null> {
  return repo.defaultClientStatusIdQuery(db, businessId).$asScalar();
}

/**
 * The id of the default status of the business's default folder, as an expression for the caller's INSERT
 * (a subquery: the first such status in catalog order, `null` when the business has no catalog), so an
 * inquiry created without `status` takes it in its one INSERT statement (docs/api.md#inquiries; the lean
 * write path, docs/api.md#events). Adds no statement of its own.
 */
export function defaultInquiryStatusId(db: Db, businessId: number): Expression<number | null> {
  return repo.defaultInquiryStatusIdQuery(db, businessId).$asScalar();
}

/**
 * An inquiry status of the business by id with its folder (`{id, folderId}`), or `undefined` (also for
 * another business's): the check of an inquiry body's `status {id}` (docs/api.md#inquiries). One statement.
 */
export async function findInquiryStatus(
  db: Db,
  businessId: number,
  id: number,
): Promise<{ id: number; folderId: number } | undefined> {
  const row = await repo.findInquiryStatusById(db, businessId, id);
  return row && { id: row.id, folderId: row.folder_id };
}

/**
 * A settlement type of the business by id, as `GET /v1/settlement/type` shows it, or `undefined` (also for
 * another business's): the check of a settlement's `type {id}` and its round rule (docs/api.md#settlements).
 * One statement.
 */
export async function findSettlementType(db: Db, businessId: number, id: number): Promise<SettlementType | undefined> {
  const row = await repo.findSettlementTypeById(db, businessId, id);
  return row && toSettlementType(row);
}

/**
 * The ids among `ids` of the business's contract categories, in no particular order (unknown and other
 * businesses' ids are absent): the check of a contract's `categorySet` (docs/api.md#contracts). One
 * statement, none for an empty list.
 */
export async function findContractCategoryIds(db: Db, businessId: number, ids: readonly number[]): Promise<number[]> {
  return repo.findContractCategoryIds(db, businessId, ids);
}

/**
 * Whether the business has a worker position with this id (also false for another business's): the check
 * of a worker's `position {id}` (docs/api.md#projects-and-workers). One statement.
 */
export async function workerPositionExists(db: Db, businessId: number, id: number): Promise<boolean> {
  return repo.workerPositionExists(db, businessId, id);
}

/**
 * Maps the optional member of a note or history entry ({@link NESTED_MEMBER_COLUMNS}) to the API's member,
 * or `null` when the record names none.
 */
export function toNestedMember(row: NestedMemberColumns): Member | null {
  if (row.member_id === null || row.member_email === null || row.grade_id === null || row.grade_title === null)
    return null;
  return {
    id: row.member_id,
    nickname: row.member_nickname,
    email: row.member_email,
    isActive: row.member_is_active === 1,
    grade: { id: row.grade_id, title: row.grade_title },
  };
}

/** A field as the API shows it, plus its record kind (`category`: I, C, CO), which only the server reads. */
export type FieldWithKind = Field & { category: string };

/** Completes field rows with their options and members (two queries for any number of fields). */
async function completeFields(db: Db, businessId: number, rows: readonly repo.FieldRow[]): Promise<FieldWithKind[]> {
  const ids = rows.map((r) => r.id);
  const [options, members] = await Promise.all([
    repo.findFieldOptions(db, businessId, ids),
    repo.findFieldMembers(db, businessId, ids),
  ]);
  return rows.map((f) => ({
    id: f.id,
    name: f.name,
    dataType: f.data_type as Field['dataType'],
    category: f.category,
    optionSet: options.filter((o) => o.field_id === f.id).map((o) => ({ id: o.option_id, title: o.title })),
    memberSet: members.filter((m) => m.field_id === f.id).map(toMember),
  }));
}

/** Drops the server-only `category` from a field. */
export function toField({ category: _category, ...field }: FieldWithKind): Field {
  return field;
}

/**
 * Loads fields with their options and members, keyed by id. Fields of other businesses are absent.
 */
export async function loadFields(
  db: Db,
  businessId: number,
  ids: readonly number[],
): Promise<Map<number, FieldWithKind>> {
  const rows = await repo.findFieldsByIds(db, businessId, [...new Set(ids)]);
  return new Map((await completeFields(db, businessId, rows)).map((f) => [f.id, f]));
}

/** `GET /v1/member`: newest first; `search` on nickname and email; `is_active`. Plan-gated by the route. */
export async function listMembers(
  db: Db,
  auth: Auth,
  query: MemberListQuery,
  cursor: CursorPosition | undefined,
): Promise<Page<Member>> {
  const page = await repo.findMemberPage(
    db,
    auth.businessId,
    { search: query.search ?? [], isActive: parseQueryBoolean(query.is_active) },
    pageSizeOf(query),
    cursor,
  );
  return mapPage(page, toMember);
}

/** `GET /v1/field`: newest first, optionally of one record kind. */
export async function listFields(
  db: Db,
  auth: Auth,
  query: FieldListQuery,
  cursor: CursorPosition | undefined,
): Promise<Page<Field>> {
  const page = await repo.findFieldPage(db, auth.businessId, { category: query.category }, pageSizeOf(query), cursor);
  const fields = await completeFields(db, auth.businessId, page.rows);
  return { rows: fields.map(toField), next: page.next, previous: page.previous };
}

/** `GET /v1/inquiry/status`: in configured order (folder order, then status order), optionally of one folder. */
export async function listInquiryStatuses(
  db: Db,
  auth: Auth,
  query: InquiryStatusListQuery,
  cursor: CursorPosition | undefined,
): Promise<Page<InquiryStatus>> {
  const page = await repo.findInquiryStatusPage(
    db,
    auth.businessId,
    { folderId: query.folder_id },
    pageSizeOf(query),
    cursor,
  );
  return mapPage(page, (r) => ({ id: r.id, title: r.title, folder: { id: r.folder_id, name: r.folder_name } }));
}

/** `GET /v1/folder`: a plain array, the default folder first, then newest first. */
export async function listFolders(db: Db, auth: Auth, query: FolderListQuery): Promise<Folder[]> {
  const rows = await repo.findFolders(db, auth.businessId, query.search ?? []);
  return rows.map((r) => ({ id: r.id, name: r.name, isDefault: r.is_default === 1 }));
}

/** `GET /v1/client/status`: in configured order. */
export async function listClientStatuses(
  db: Db,
  auth: Auth,
  query: PlainPageQuery,
  cursor: CursorPosition | undefined,
) {
  const page = await repo.findClientStatusPage(db, auth.businessId, pageSizeOf(query), cursor);
  return mapPage(page, (r) => ({ id: r.id, title: r.title }));
}

/** `GET /v1/contract/category`: newest first; `search` on the title. */
export async function listContractCategories(
  db: Db,
  auth: Auth,
  query: SearchPageQuery,
  cursor: CursorPosition | undefined,
) {
  const page = await repo.findContractCategoryPage(db, auth.businessId, query.search ?? [], pageSizeOf(query), cursor);
  return mapPage(page, (r) => ({ id: r.id, title: r.title }));
}

/** `GET /v1/settlement/type`: a plain array in catalog order. */
export async function listSettlementTypes(db: Db, auth: Auth): Promise<SettlementType[]> {
  const rows = await repo.findSettlementTypes(db, auth.businessId);
  return rows.map(toSettlementType);
}

/** Maps a settlement type row to the API's settlement type. */
function toSettlementType(r: {
  id: number;
  base_type: string;
  category: string;
  title: string;
  allows_multiple_rounds: number;
}): SettlementType {
  return {
    id: r.id,
    baseType: r.base_type as SettlementType['baseType'],
    category: r.category as SettlementType['category'],
    title: r.title,
    allowsMultipleRounds: r.allows_multiple_rounds === 1,
  };
}

// Restore entry points of the catalogs (src/shared/restore.ts, docs/deployment.md#11-moving-a-business-in-and-out).
export {
  restoreClientStatus,
  restoreContractCategory,
  restoreEstimateItemClassification,
  restoreField,
  restoreFolder,
  restoreGrade,
  restoreInquiryStatus,
  restoreMember,
  restoreSettlementType,
  restoreWorkerPosition,
} from './catalog-restore.ts';
