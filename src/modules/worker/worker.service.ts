/**
 * Workers (docs/api.md#projects-and-workers, docs/api.md#plans, docs/api.md#filters):
 * list, create, retrieve, partialUpdate, destroy (soft). The plan gate (FREE or AGENCY) is the routes'
 * `config.plans`, checked before any of these runs.
 */
import type { Db } from '../../db/database.ts';
import { changedColumns, inTransaction, nowTimestamp } from '../../db/sql-helpers.ts';
import { ErrorCollector, NotFound, messages } from '../../shared/errors.ts';
import { type CursorPosition, mapPage, type Page, pageSizeOf } from '../../shared/pagination.ts';
import { parseQueryBoolean } from '../../shared/schemas.ts';
import { instantRangeUtc } from '../../shared/time.ts';
import type { AuthContext } from '../../shared/auth-context.ts';
import { workerPositionExists } from '../catalog/catalog.service.ts';
import { recordCreated, recordDeleted, updateRecord } from '../event/event.service.ts';
import type { RestoreOptions, RestoreResult } from '../../shared/restore.ts';
import { restoredTimes, restoreRecord, checkRestore } from '../../shared/restore-record.ts';
import * as repo from './worker.repository.ts';
import { WORKER_PROPERTIES } from './worker.properties.ts';
import { insertColumns, listShape, patchColumns, readShape, restoreBody } from '../../shared/property-map.ts';
import type { Worker, WorkerCreateBody, WorkerListItem, WorkerListQuery, WorkerUpdateBody } from './worker.schemas.ts';
import { WorkerUpdateBody as WorkerUpdateBodySchema } from './worker.schemas.ts';
import type { NewWorkerRow, WorkerRowUpdate } from '../../db/tables/worker.table.ts';

type Auth = Pick<AuthContext, 'businessId'>;

/** Maps a row to the list item / create response shape. */
export function toWorkerListItem(row: repo.WorkerRow): WorkerListItem {
  return readShape(WORKER_PROPERTIES, row, { position: positionOf(row) }, true);
}

/** The nested position of a read row (`null` when it has none). */
function positionOf(row: repo.WorkerRow): Worker['position'] {
  return row.position_id === null || row.position_title === null || row.position_symbol_color === null
    ? null
    : { id: row.position_id, title: row.position_title, symbolColor: row.position_symbol_color };
}

/** Maps a row to the full shape (retrieve, update, event `data`; docs/api.md#events). */
export function toWorker(row: repo.WorkerRow): Worker {
  return readShape(WORKER_PROPERTIES, row, { position: positionOf(row) });
}

function listItemOf(worker: Worker): WorkerListItem {
  return listShape(WORKER_PROPERTIES, worker);
}

/** The columns a body sets: only the properties it sends (PATCH is partial). */
function columnsFrom(body: WorkerUpdateBody): WorkerRowUpdate {
  return patchColumns(WORKER_PROPERTIES, body);
}

/**
 * Checks the `position` reference of a body: it must name a worker position of the business.
 * @throws ValidationError `{"position": {"id": ["Invalid pk \"9\" - object does not exist."]}}`
 */
async function checkReferences(db: Db, businessId: number, body: WorkerUpdateBody): Promise<void> {
  const errors = new ErrorCollector();
  if (body.position) {
    if (!(await workerPositionExists(db, businessId, body.position.id)))
      errors.add(['position', 'id'], messages.invalidPk(body.position.id));
  }
  errors.throwIfAny();
}

/**
 * `GET /v1/worker`: live workers, newest first; `is_hidden`, `position_id`, `search` (name), and
 * `updated_start..updated_end` (inclusive, a date in the business time zone or a date-time;
 * docs/api.md#events).
 * @throws ValidationError for an `updated_start` / `updated_end` that names no day
 */
export async function list(
  db: Db,
  auth: Pick<AuthContext, 'businessId' | 'timezone'>,
  query: WorkerListQuery,
  cursor: CursorPosition | undefined,
): Promise<Page<WorkerListItem>> {
  const updated = instantRangeUtc(auth.timezone, query.updated_start, query.updated_end);
  const page = await repo.findPage(
    db,
    auth.businessId,
    {
      isHidden: parseQueryBoolean(query.is_hidden),
      positionId: query.position_id,
      search: query.search ?? [],
      updatedFrom: updated.from,
      updatedTo: updated.to,
    },
    pageSizeOf(query),
    cursor,
  );
  return mapPage(page, toWorkerListItem);
}

/**
 * `POST /v1/worker`: `order` and `manMonthAmount` default to 0, `isHidden` to false, `position` to none.
 * Writes a `worker.created` event with the full shape, in the transaction of the insert (docs/api.md#events).
 * @returns the list item shape (docs/api.md#projects-and-workers: the create answer has no `updated`)
 * @throws ValidationError for a position that is not the business's
 */
export async function create(db: Db, auth: Auth, body: WorkerCreateBody): Promise<WorkerListItem> {
  await checkReferences(db, auth.businessId, body);
  return inTransaction(db, async (trx) => {
    const at = nowTimestamp();
    const id = await repo.insert(trx, auth.businessId, {
      ...insertColumns(WORKER_PROPERTIES, body),
      created: at,
      updated: at,
    });
    // One read of the full shape serves the event and the answer (its list shape).
    const worker = await retrieve(trx, auth, id);
    await recordCreated(trx, auth.businessId, 'worker', worker);
    return listItemOf(worker);
  });
}

/** Whether a live worker with this id exists in the business. */
export async function exists(db: Db, auth: Auth, id: number): Promise<boolean> {
  return repo.existsById(db, auth.businessId, id);
}

/**
 * `GET /v1/worker/{worker_id}`.
 * @throws NotFound for a missing, soft-deleted or other business's worker
 */
export async function retrieve(db: Db, auth: Auth, id: number): Promise<Worker> {
  const row = await repo.findById(db, auth.businessId, id);
  if (!row) throw new NotFound();
  return toWorker(row);
}

/**
 * `PATCH /v1/worker/{worker_id}`: only the properties sent change; a new `position.id` reassigns the
 * position and `position: null` clears it (docs/api.md#projects-and-workers). A change stamps `updated` and
 * writes a `worker.updated` event naming the changed properties; a PATCH that changes nothing writes none
 * and keeps `updated` (docs/api.md#events).
 * @returns the full shape
 * @throws NotFound for a missing worker; ValidationError for a position that is not the business's
 */
export async function partialUpdate(db: Db, auth: Auth, id: number, body: WorkerUpdateBody): Promise<Worker> {
  // The route answered 404 for a missing worker before validation.
  await checkReferences(db, auth.businessId, body);
  return inTransaction(db, async (trx) => {
    // The lean write path: the read of the current shape is the lock and proves the worker still exists.
    const { before, answer } = await updateRecord(trx, auth.businessId, 'worker', {
      lock: () => repo.findById(trx, auth.businessId, id, true),
      shape: toWorker,
      diff: (row) => ({ columns: changedColumns(row, columnsFrom(body)) }),
      update: (columns, at) => repo.updateById(trx, auth.businessId, id, columns, at),
      read: () => retrieve(trx, auth, id),
    });
    return answer ?? before;
  });
}

/**
 * `DELETE /v1/worker/{worker_id}`: soft delete; the worker disappears from every read
 * (docs/api.md#projects-and-workers). Writes a `worker.deleted` event `{id}` (docs/api.md#events).
 * @throws NotFound for a missing worker
 */
export async function destroy(db: Db, auth: Auth, id: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    if ((await repo.softDeleteById(trx, auth.businessId, id, nowTimestamp())) === 0) throw new NotFound();
    await recordDeleted(trx, auth.businessId, 'worker', id);
  });
}

/**
 * Restores one worker from its full shape (`GET /v1/worker/{id}` of the source, the position id already
 * rewritten to this server's) under the rules of src/shared/restore.ts: every property, `created` and
 * `updated` as given; a soft-deleted target row is made live again. No event.
 * @returns the worker's id here and `created`, `updated` or `unchanged`
 * @throws ValidationError on `position.id` for a worker position this business does not have
 */
export async function restore(db: Db, auth: Auth, shape: Worker, options: RestoreOptions): Promise<RestoreResult> {
  const body: WorkerUpdateBody = restoreBody(WORKER_PROPERTIES, shape);
  const only = checkRestore(WorkerUpdateBodySchema, body, shape, options);
  if (only) return only;
  const columns = { ...columnsFrom(body), ...restoredTimes(shape), deleted_at: null };
  return restoreRecord(db, auth.businessId, shape, options, {
    table: 'worker',
    current: async (trx, id) => {
      const row = await repo.findById(trx, auth.businessId, id);
      return row && toWorker(row);
    },
    insert: async (trx, id) => {
      await checkReferences(trx, auth.businessId, body);
      return repo.insert(trx, auth.businessId, {
        ...(id !== undefined && { id }),
        ...(columns as Omit<NewWorkerRow, 'business_id'>),
      });
    },
    update: async (trx, id) => {
      await checkReferences(trx, auth.businessId, body);
      await repo.restoreById(trx, auth.businessId, id, columns);
    },
  });
}
