/**
 * Estimate item templates (docs/api.md#estimate-items, docs/api.md#events): list, create, retrieve,
 * partialUpdate, destroy (permanent), and the list of classifications. No plan restriction.
 */
import type { Db } from '../../db/database.ts';
import { changedColumns, inTransaction, nowTimestamp } from '../../db/sql-helpers.ts';
import { ErrorCollector, NotFound, messages } from '../../shared/errors.ts';
import { type CursorPosition, mapPage, type Page, pageSizeOf } from '../../shared/pagination.ts';
import { instantRangeUtc } from '../../shared/time.ts';
import type { AuthContext } from '../../shared/auth-context.ts';
import { recordCreated, recordDeleted, updateRecord } from '../event/event.service.ts';
import { parseEstimate } from '../inquiry/inquiry.service.ts';
import type { RestoreOptions, RestoreResult } from '../../shared/restore.ts';
import { restoredTimes, restoreRecord, checkRestore } from '../../shared/restore-record.ts';
import * as repo from './estimate.repository.ts';
import type {
  EstimateItem,
  EstimateItemClassification,
  EstimateItemClassificationListQuery,
  EstimateItemCreateBody,
  EstimateItemListItem,
  EstimateItemListQuery,
  EstimateItemUpdateBody,
} from './estimate.schemas.ts';
import { EstimateItemUpdateBody as EstimateItemUpdateBodySchema } from './estimate.schemas.ts';
import type { EstimateItemRowUpdate, NewEstimateItemRow } from '../../db/tables/estimate.table.ts';

type Auth = Pick<AuthContext, 'businessId'>;

/** Maps a row to the list item / create response shape; `image` is `""` (no picture can be set). */
export function toEstimateItemListItem(row: repo.EstimateItemRow): EstimateItemListItem {
  return {
    id: row.id,
    title: row.title,
    unitCost: row.unit_cost,
    unit: row.unit,
    description: row.description,
    image: '',
    classification:
      row.classification_id === null || row.classification_title === null
        ? null
        : { id: row.classification_id, title: row.classification_title },
    created: row.created,
  };
}

/** Maps a row to the full shape (retrieve, update, event `data`; docs/api.md#events). */
export function toEstimateItem(row: repo.EstimateItemRow): EstimateItem {
  return { ...toEstimateItemListItem(row), updated: row.updated };
}

/** The list item of a full shape: the full shape without `updated`. */
function listItemOf(item: EstimateItem): EstimateItemListItem {
  const { updated: _updated, ...rest } = item;
  return rest;
}

/**
 * Checks what the schema cannot: `unitCost` as a decimal (docs/api.md#estimate-items) and the
 * `classification` reference, all errors at once; returns the columns the body sets (PATCH is partial).
 * @throws ValidationError `{"unitCost": ["A valid number is required."]}`,
 *   `{"classification": {"id": ["Invalid pk \"9\" - object does not exist."]}}` (also for another business's)
 */
async function checkedColumns(
  db: Db,
  businessId: number,
  body: EstimateItemUpdateBody,
): Promise<EstimateItemRowUpdate> {
  const errors = new ErrorCollector();
  const patch: EstimateItemRowUpdate = {};
  if (body.title !== undefined) patch.title = body.title;
  if (body.unit !== undefined) patch.unit = body.unit;
  if (body.description !== undefined) patch.description = body.description;
  if (body.unitCost !== undefined) {
    const unitCost = parseEstimate(body.unitCost);
    if (typeof unitCost === 'string') patch.unit_cost = unitCost;
    else errors.add(['unitCost'], unitCost.error);
  }
  if (body.classification !== undefined) {
    if (body.classification === null) patch.classification_id = null;
    else if (await repo.findClassificationById(db, businessId, body.classification.id))
      patch.classification_id = body.classification.id;
    else errors.add(['classification', 'id'], messages.invalidPk(body.classification.id));
  }
  errors.throwIfAny();
  return patch;
}

/**
 * `GET /v1/estimate/item`: newest first; `search` terms (all must match) over title and description;
 * `updated_start..updated_end` (inclusive, a date in the business time zone or a date-time;
 * docs/api.md#events).
 * @throws ValidationError for an `updated_start` / `updated_end` that names no day
 */
export async function list(
  db: Db,
  auth: Pick<AuthContext, 'businessId' | 'timezone'>,
  query: EstimateItemListQuery,
  cursor: CursorPosition | undefined,
): Promise<Page<EstimateItemListItem>> {
  const updated = instantRangeUtc(auth.timezone, query.updated_start, query.updated_end);
  const page = await repo.findPage(
    db,
    auth.businessId,
    { search: query.search ?? [], updatedFrom: updated.from, updatedTo: updated.to },
    pageSizeOf(query),
    cursor,
  );
  return mapPage(page, toEstimateItemListItem);
}

/**
 * `POST /v1/estimate/item`: `description` and `classification` default to null. Writes an
 * `estimate.item.created` event with the full shape, in the transaction of the insert (docs/api.md#events).
 * @returns the list item shape (the create response keeps the reference's keys)
 * @throws ValidationError for a malformed `unitCost` or a classification that is not the business's
 */
export async function create(db: Db, auth: Auth, body: EstimateItemCreateBody): Promise<EstimateItemListItem> {
  const columns = await checkedColumns(db, auth.businessId, body);
  return inTransaction(db, async (trx) => {
    const at = nowTimestamp();
    const id = await repo.insert(trx, auth.businessId, {
      title: body.title,
      unit: body.unit,
      unit_cost: columns.unit_cost as string,
      description: body.description ?? null,
      classification_id: columns.classification_id ?? null,
      created: at,
      updated: at,
    });
    const item = await retrieve(trx, auth, id);
    await recordCreated(trx, auth.businessId, 'estimate.item', item);
    return listItemOf(item);
  });
}

/** Whether an estimate item with this id exists in the business. */
export async function exists(db: Db, auth: Auth, id: number): Promise<boolean> {
  return repo.existsById(db, auth.businessId, id);
}

/**
 * `GET /v1/estimate/item/{item_id}`.
 * @throws NotFound for a missing or deleted item, or another business's
 */
export async function retrieve(db: Db, auth: Auth, id: number): Promise<EstimateItem> {
  const row = await repo.findById(db, auth.businessId, id);
  if (!row) throw new NotFound();
  return toEstimateItem(row);
}

/**
 * `PATCH /v1/estimate/item/{item_id}`: only the properties sent change; `classification: null` and
 * `description: null` clear them. A change stamps `updated` and writes an `estimate.item.updated` event
 * naming the changed properties; a PATCH that changes nothing (`unitCost` compared as the decimal it
 * stores) writes none and keeps `updated` (docs/api.md#events).
 * @returns the full shape
 * @throws NotFound for a missing item; ValidationError as {@link create}
 */
export async function partialUpdate(
  db: Db,
  auth: Auth,
  id: number,
  body: EstimateItemUpdateBody,
): Promise<EstimateItem> {
  // The route answered 404 for a missing item before validation.
  const patch = await checkedColumns(db, auth.businessId, body);
  return inTransaction(db, async (trx) => {
    // The lean write path: the read of the current shape is the lock and proves the item still exists.
    const { before, answer } = await updateRecord(trx, auth.businessId, 'estimate.item', {
      lock: () => repo.findById(trx, auth.businessId, id, true),
      shape: toEstimateItem,
      // A `unitCost` written in another form of the same decimal passes here; the shapes' comparison then
      // finds no change, puts `updated` back and writes no event.
      diff: (row) => ({ columns: changedColumns(row, patch) }),
      update: (columns, at) => repo.updateById(trx, auth.businessId, id, columns, at),
      read: () => retrieve(trx, auth, id),
    });
    return answer ?? before;
  });
}

/**
 * `DELETE /v1/estimate/item/{item_id}`: removes the item for good; its id answers 404 from then on. Writes
 * an `estimate.item.deleted` event `{id}` (docs/api.md#events).
 * @throws NotFound for a missing item
 */
export async function destroy(db: Db, auth: Auth, id: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    if ((await repo.deleteById(trx, auth.businessId, id)) === 0) throw new NotFound();
    await recordDeleted(trx, auth.businessId, 'estimate.item', id);
  });
}

/** `GET /v1/estimate/item/classification`: `{id, title}` in the configured order; `search` over the title. */
export async function listClassifications(
  db: Db,
  auth: Auth,
  query: EstimateItemClassificationListQuery,
  cursor: CursorPosition | undefined,
): Promise<Page<EstimateItemClassification>> {
  const page = await repo.findClassificationPage(db, auth.businessId, query.search ?? [], pageSizeOf(query), cursor);
  return mapPage(page, (row) => ({ id: row.id, title: row.title }));
}

/**
 * Restores one estimate item from its full shape (`GET /v1/estimate/item/{id}` of the source, the
 * classification id already rewritten to this server's) under the rules of src/shared/restore.ts: every
 * property (`image` is not stored: always `""` here), `created` and `updated` as given. No event.
 * @returns the item's id here and `created`, `updated` or `unchanged`
 * @throws ValidationError on `unitCost` for a value that is not a decimal, on `classification.id` for a
 *   classification this business does not have
 */
export async function restore(
  db: Db,
  auth: Auth,
  shape: EstimateItem,
  options: RestoreOptions,
): Promise<RestoreResult> {
  const body: EstimateItemUpdateBody = {
    title: shape.title,
    unit: shape.unit,
    unitCost: shape.unitCost,
    description: shape.description ?? null,
    classification: shape.classification ? { id: shape.classification.id } : null,
  };
  const only = checkRestore(EstimateItemUpdateBodySchema, body, shape, options);
  if (only) return only;
  const times = restoredTimes(shape);
  return restoreRecord(db, auth.businessId, shape, options, {
    table: 'estimate_item',
    // No picture can be set here: a source's `image` is not stored, so it is not compared either.
    ignore: ['image'],
    current: async (trx, id) => {
      const row = await repo.findById(trx, auth.businessId, id);
      return row && toEstimateItem(row);
    },
    insert: async (trx, id) => {
      const columns = { ...(await checkedColumns(trx, auth.businessId, body)), ...times };
      return repo.insert(trx, auth.businessId, {
        ...(id !== undefined && { id }),
        ...(columns as Omit<NewEstimateItemRow, 'business_id'>),
      });
    },
    update: async (trx, id) => {
      await repo.updateById(
        trx,
        auth.businessId,
        id,
        { ...(await checkedColumns(trx, auth.businessId, body)), ...times },
        times.updated,
      );
    },
  });
}
