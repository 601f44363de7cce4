/**
 * Projects (docs/api.md#projects-and-workers, docs/api.md#plans, docs/api.md#filters):
 * list, create, retrieve, partialUpdate, destroy (soft). The plan gate (FREE or AGENCY) is the routes'
 * `config.plans`, checked before any of these runs.
 */
import type { Db } from '../../db/database.ts';
import { changedColumns, inTransaction, isForeignKeyViolation, nowTimestamp } from '../../db/sql-helpers.ts';
import { ErrorCollector, NotFound, ValidationError, messages } from '../../shared/errors.ts';
import { type CursorPosition, mapPage, type Page, pageSizeOf } from '../../shared/pagination.ts';
import { parseQueryBoolean } from '../../shared/schemas.ts';
import { instantRangeUtc } from '../../shared/time.ts';
import type { AuthContext } from '../../shared/auth-context.ts';
import { recordCreated, recordDeleted, recordUpdatedMany, updateRecord } from '../event/event.service.ts';
import type { Cascade } from '../../shared/cascade.ts';
import {
  findSummary as findContractSummary,
  lockForProject as lockContractForProject,
  toNestedContract,
} from '../contract/contract.service.ts';
import type { RestoreOptions, RestoreResult } from '../../shared/restore.ts';
import { restoredTimes, restoreRecord, checkRestore } from '../../shared/restore-record.ts';
import * as repo from './project.repository.ts';
import { PROJECT_PROPERTIES } from './project.properties.ts';
import { insertColumns, listShape, patchColumns, readShape, restoreBody } from '../../shared/property-map.ts';
import type {
  Project,
  ProjectCreateBody,
  ProjectListItem,
  ProjectListQuery,
  ProjectUpdateBody,
} from './project.schemas.ts';
import { ProjectUpdateBody as ProjectUpdateBodySchema } from './project.schemas.ts';
import type { NewProjectRow, ProjectRowUpdate } from '../../db/tables/project.table.ts';

type Auth = Pick<AuthContext, 'businessId' | 'timezone'>;

/** Maps a row to the list item / create response shape (./project.properties.ts). */
export function toProjectListItem(row: repo.ProjectRow): ProjectListItem {
  return readShape(PROJECT_PROPERTIES, row, { contract: toNestedContract(row) }, true);
}

/** Maps a row to the full shape (retrieve, update, event `data`; docs/api.md#events; ./project.properties.ts). */
export function toProject(row: repo.ProjectRow): Project {
  return readShape(PROJECT_PROPERTIES, row, { contract: toNestedContract(row) });
}

/**
 * The projects that nest a contract's summary (docs/api.md#cascades), for the contract service (wired by
 * src/services.ts): `updated` stamps `updated` on the live projects of the contract and writes
 * `project.updated` with `["contract"]` for each (its summary changed); `released` does the same for a
 * contract being deleted, unlinking them first (their `contract` becomes null).
 */
export const contractCascades: { updated: Cascade; released: Cascade } = (() => {
  const cascade =
    (release: boolean): Cascade =>
    async (trx, auth, contractId) => {
      const ids = await repo.stampByContractId(trx, auth.businessId, contractId, nowTimestamp(), release);
      if (ids.length === 0) return;
      const shapes = (await repo.findByIds(trx, auth.businessId, ids)).map(toProject);
      await recordUpdatedMany(trx, auth.businessId, 'project', ['contract'], shapes);
    };
  return { updated: cascade(false), released: cascade(true) };
})();

/** The list item of a full shape: the full shape without `updated`. */
function listItemOf(project: Project): ProjectListItem {
  return listShape(PROJECT_PROPERTIES, project);
}

/** The columns a body sets: only the properties it sends (PATCH is partial). */
function columnsFrom(body: ProjectUpdateBody): ProjectRowUpdate {
  return patchColumns(PROJECT_PROPERTIES, body);
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
async function referencingContract<T>(
  db: Db,
  businessId: number,
  body: ProjectUpdateBody,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isForeignKeyViolation(err)) await checkReferences(db, businessId, body);
    throw err;
  }
}

/**
 * `GET /v1/project`: live projects, newest first; `status`, `is_hidden`, `contract_id`, the inclusive
 * date ranges `start_date_start..start_date_end` (on `startDate`) and `end_date_start..end_date_end` (on
 * `endDate`), and `updated_start..updated_end` (inclusive, a date or a date-time; docs/api.md#events).
 * @throws ValidationError for an `updated_start` / `updated_end` that names no day
 */
export async function list(
  db: Db,
  auth: Auth,
  query: ProjectListQuery,
  cursor: CursorPosition | undefined,
): Promise<Page<ProjectListItem>> {
  const updated = instantRangeUtc(auth.timezone, query.updated_start, query.updated_end);
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
      updatedFrom: updated.from,
      updatedTo: updated.to,
    },
    pageSizeOf(query),
    cursor,
  );
  return mapPage(page, toProjectListItem);
}

/**
 * `POST /v1/project`: `status` defaults to `U`, `isHidden` to false; `actualEndDate` cannot be set here
 * (docs/api.md#projects-and-workers), so the new project has none. Writes a `project.created` event with the full
 * shape, in the transaction of the insert (docs/api.md#events).
 * @returns the list item shape (docs/api.md#projects-and-workers: the create answer has no `updated`)
 * @throws ValidationError for a contract that is not the business's
 */
export async function create(db: Db, auth: Auth, body: ProjectCreateBody): Promise<ProjectListItem> {
  await checkReferences(db, auth.businessId, body);
  return referencingContract(db, auth.businessId, body, () =>
    inTransaction(db, async (trx) => {
      const at = nowTimestamp();
      // `actualEndDate` is not a create property: the new project has none, whatever the body holds.
      const id = await repo.insert(trx, auth.businessId, {
        ...insertColumns(PROJECT_PROPERTIES, body),
        actual_end_date: null,
        created: at,
        updated: at,
      });
      const project = await retrieve(trx, auth, id);
      await recordCreated(trx, auth.businessId, 'project', project);
      return listItemOf(project);
    }),
  );
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
 * (`contract: null` unlinks the contract). A change stamps `updated` and writes a `project.updated` event
 * naming the changed properties; a PATCH that changes nothing writes none and keeps `updated`
 * (docs/api.md#events).
 * @returns the full shape
 * @throws NotFound for a missing project; ValidationError for a contract that is not the business's
 */
export async function partialUpdate(db: Db, auth: Auth, id: number, body: ProjectUpdateBody): Promise<Project> {
  // The route answered 404 for a missing project before validation.
  await checkReferences(db, auth.businessId, body);
  return referencingContract(db, auth.businessId, body, () =>
    inTransaction(db, async (trx) => {
      // The contract first, then the project: the order a contract delete locks them in (no deadlock).
      if (body.contract && !(await lockContractForProject(trx, auth.businessId, body.contract.id))) {
        throw new ValidationError({ contract: { id: [messages.invalidPk(body.contract.id)] } });
      }
      // The lean write path: the read of the current shape is the lock and proves the project still exists.
      const { before, answer } = await updateRecord(trx, auth.businessId, 'project', {
        lock: () => repo.findById(trx, auth.businessId, id, true),
        shape: toProject,
        diff: (row) => ({ columns: changedColumns(row, columnsFrom(body)) }),
        update: (columns, at) => repo.updateById(trx, auth.businessId, id, columns, at),
        read: () => retrieve(trx, auth, id),
      });
      return answer ?? before;
    }),
  );
}

/**
 * `DELETE /v1/project/{project_id}`: soft delete; the project disappears from every read
 * (docs/api.md#projects-and-workers). Writes a `project.deleted` event `{id}` (docs/api.md#events).
 * @throws NotFound for a missing project
 */
export async function destroy(db: Db, auth: Auth, id: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    if ((await repo.softDeleteById(trx, auth.businessId, id, nowTimestamp())) === 0) throw new NotFound();
    await recordDeleted(trx, auth.businessId, 'project', id);
  });
}

/**
 * Restores one project from its full shape (`GET /v1/project/{id}` of the source, the contract id already
 * rewritten to this server's) under the rules of src/shared/restore.ts: every property, `actualEndDate`
 * included, `created` and `updated` as given; a soft-deleted target row is made live again. No event.
 * @returns the project's id here and `created`, `updated` or `unchanged`
 * @throws ValidationError on `contract.id` for a contract this business does not have
 */
export async function restore(db: Db, auth: Auth, shape: Project, options: RestoreOptions): Promise<RestoreResult> {
  const body: ProjectUpdateBody = restoreBody(PROJECT_PROPERTIES, shape);
  const only = checkRestore(ProjectUpdateBodySchema, body, shape, options);
  if (only) return only;
  const columns = { ...columnsFrom(body), ...restoredTimes(shape), deleted_at: null };
  return restoreRecord(db, auth.businessId, shape, options, {
    table: 'project',
    current: async (trx, id) => {
      const row = await repo.findById(trx, auth.businessId, id);
      return row && toProject(row);
    },
    insert: async (trx, id) => {
      await checkReferences(trx, auth.businessId, body);
      return repo.insert(trx, auth.businessId, {
        ...(id !== undefined && { id }),
        ...(columns as Omit<NewProjectRow, 'business_id'>),
      });
    },
    update: async (trx, id) => {
      await checkReferences(trx, auth.businessId, body);
      await repo.restoreById(trx, auth.businessId, id, columns);
    },
  });
}
