/**
 * Projects (spec: Resources › Project, Endpoints, Plan constraints; reference: Project; decisions §5, §7):
 * list, create, retrieve, partialUpdate, destroy (soft). The plan gate (FREE or AGENCY) is the routes'
 * `config.plans`, checked before any of these runs.
 */
import type { Db } from '../../db/database.ts';
import { isForeignKeyViolation, nowTimestamp, toBool } from '../../db/sql-helpers.ts';
import { ErrorCollector, NotFound, messages } from '../../shared/errors.ts';
import { type CursorPosition, mapPage, type Page, pageSizeOf } from '../../shared/pagination.ts';
import { parseQueryBoolean } from '../../shared/schemas.ts';
import type { AuthContext } from '../../shared/auth-context.ts';
import { findSummary as findContractSummary, toNestedContract } from '../contract/contract.service.ts';
import * as repo from './project.repository.ts';
import type { Project, ProjectCreateBody, ProjectListQuery, ProjectStatus, ProjectUpdateBody } from './project.schemas.ts';
import type { ProjectRowUpdate } from '../../db/tables/project.table.ts';

type Auth = Pick<AuthContext, 'businessId' | 'timezone'>;

/** Status of a project created without one: `U` (scheduled). */
export const DEFAULT_PROJECT_STATUS: ProjectStatus = 'U';

/** Maps a row to the project shape of every response. */
export function toProject(row: repo.ProjectRow): Project {
  return {
    id: row.id,
    contract: toNestedContract(row),
    title: row.title,
    status: row.status as ProjectStatus,
    symbolColor: row.symbol_color,
    startDate: row.start_date,
    endDate: row.end_date,
    actualEndDate: row.actual_end_date,
    isHidden: row.is_hidden === 1,
    created: row.created,
  };
}

/** The columns a body sets: only the properties it sends (PATCH is partial). */
function columnsFrom(body: ProjectUpdateBody): ProjectRowUpdate {
  const patch: ProjectRowUpdate = {};
  if (body.title !== undefined) patch.title = body.title;
  if (body.contract !== undefined) patch.contract_id = body.contract?.id ?? null;
  if (body.status !== undefined) patch.status = body.status;
  if (body.symbolColor !== undefined) patch.symbol_color = body.symbolColor;
  if (body.startDate !== undefined) patch.start_date = body.startDate;
  if (body.endDate !== undefined) patch.end_date = body.endDate;
  if (body.actualEndDate !== undefined) patch.actual_end_date = body.actualEndDate;
  if (body.isHidden !== undefined) patch.is_hidden = toBool(body.isHidden);
  return patch;
}

/**
 * Checks the `contract` reference of a body: it must name a contract of the business.
 * @throws ValidationError `{"contract": {"id": ["Invalid pk \"9\" - object does not exist."]}}`
 */
async function checkReferences(db: Db, businessId: number, body: ProjectUpdateBody): Promise<void> {
  const errors = new ErrorCollector();
  if (body.contract && !(await findContractSummary(db, businessId, body.contract.id))) {
    errors.add(['contract', 'id'], messages.invalidPk(body.contract.id));
  }
  errors.throwIfAny();
}

/**
 * Runs a write that may set `contract_id`. When a concurrent request deleted the contract after
 * {@link checkReferences} passed, the foreign key refuses the write; the check then runs again and answers the
 * same 400 on `contract.id` instead of a 500.
 * @throws ValidationError for a contract deleted meanwhile
 */
async function referencingContract<T>(db: Db, businessId: number, body: ProjectUpdateBody, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isForeignKeyViolation(err)) await checkReferences(db, businessId, body);
    throw err;
  }
}

/**
 * `GET /v1/project`: live projects, newest first; `status`, `is_hidden`, `contract_id` and the inclusive
 * date ranges `start_date_start..start_date_end` (on `startDate`) and `end_date_start..end_date_end` (on
 * `endDate`).
 */
export async function list(db: Db, auth: Auth, query: ProjectListQuery, cursor: CursorPosition | undefined): Promise<Page<Project>> {
  const page = await repo.findPage(
    db,
    auth.businessId,
    {
      status: query.status,
      isHidden: parseQueryBoolean(query.is_hidden),
      startDateFrom: query.start_date_start,
      startDateTo: query.start_date_end,
      endDateFrom: query.end_date_start,
      endDateTo: query.end_date_end,
      contractId: query.contract_id,
    },
    pageSizeOf(query),
    cursor,
  );
  return mapPage(page, toProject);
}

/**
 * `POST /v1/project`: `status` defaults to `U`, `isHidden` to false; `actualEndDate` cannot be set here
 * (reference: Project create), so the new project has none.
 * @throws ValidationError for a contract that is not the business's
 */
export async function create(db: Db, auth: Auth, body: ProjectCreateBody): Promise<Project> {
  await checkReferences(db, auth.businessId, body);
  const { actual_end_date: _ignored, ...columns } = columnsFrom(body);
  const id = await referencingContract(db, auth.businessId, body, () =>
    repo.insert(db, auth.businessId, {
      ...columns,
      title: body.title,
      status: body.status ?? DEFAULT_PROJECT_STATUS,
      is_hidden: toBool(body.isHidden ?? false),
      actual_end_date: null,
      created: nowTimestamp(),
      updated: nowTimestamp(),
    }),
  );
  return retrieve(db, auth, id);
}

/** Whether a live project with this id exists in the business. */
export async function exists(db: Db, auth: Auth, id: number): Promise<boolean> {
  return repo.existsById(db, auth.businessId, id);
}

/**
 * `GET /v1/project/{project_id}`.
 * @throws NotFound for a missing, soft-deleted or other business's project
 */
export async function retrieve(db: Db, auth: Auth, id: number): Promise<Project> {
  const row = await repo.findById(db, auth.businessId, id);
  if (!row) throw new NotFound();
  return toProject(row);
}

/**
 * `PATCH /v1/project/{project_id}`: only the properties sent change; `null` clears a nullable one
 * (`contract: null` unlinks the contract).
 * @throws NotFound for a missing project; ValidationError for a contract that is not the business's
 */
export async function partialUpdate(db: Db, auth: Auth, id: number, body: ProjectUpdateBody): Promise<Project> {
  if (!(await repo.existsById(db, auth.businessId, id))) throw new NotFound();
  await checkReferences(db, auth.businessId, body);
  const changed = await referencingContract(db, auth.businessId, body, () => repo.updateById(db, auth.businessId, id, columnsFrom(body)));
  if (changed === 0) throw new NotFound();
  return retrieve(db, auth, id);
}

/**
 * `DELETE /v1/project/{project_id}`: soft delete; the project disappears from every read (spec: States,
 * deletion states; decisions §7).
 * @throws NotFound for a missing project
 */
export async function destroy(db: Db, auth: Auth, id: number): Promise<void> {
  if ((await repo.softDeleteById(db, auth.businessId, id, nowTimestamp())) === 0) throw new NotFound();
}
