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
import { ESTIMATE_ITEM_PROPERTIES } from './estimate.properties.ts';
import {
  type BodyShapeOf,
  insertColumns,
  listShape,
  patchColumns,
  readShape,
  restoreBody,
} from '../../shared/property-map.ts';

/** A checked body: `unitCost` in its stored decimal form (see `checkedBody`). */
type StoredBody = BodyShapeOf<typeof ESTIMATE_ITEM_PROPERTIES>;

type Auth = Pick<AuthContext, 'businessId'>;

/** The nested classification of a read row (`null` when it has none). */
function classificationOf(row: repo.EstimateItemRow): EstimateItem['classification'] {
  return row.classification_id === null || row.classification_title === null
    ? null
    : { id: row.classification_id, title: row.classification_title };
}

/** Maps a row to the list item / create response shape; `image` is `""` (no picture can be set). */
export function toEstimateItemListItem(row: repo.EstimateItemRow): EstimateItemListItem {
  return readShape(ESTIMATE_ITEM_PROPERTIES, row, { image: '', classification: classificationOf(row) }, true);
}

/** Maps a row to the full shape (retrieve, update, event `data`; docs/api.md#events). */
export function toEstimateItem(row: repo.EstimateItemRow): EstimateItem {
  return readShape(ESTIMATE_ITEM_PROPERTIES, row, { image: '', classification: classificationOf(row) });
}

/**
 * Checks what the schema cannot: `unitCost` as a decimal (docs/api.md#estimate-items) and the
 * `classification` reference, all errors at once; returns the body with `unitCost` in the decimal form it is
 * stored in, for the property map's {@link insertColumns} / {@link patchColumns}.
 * @throws ValidationError `{"unitCost": ["A valid number is required."]}`,
 *   `{"classification": {"id": ["Invalid pk \"9\" - object does not exist."]}}` (also for another business's)
 */
async function checkedBody(db: Db, businessId: number, body: EstimateItemUpdateBody): Promise<StoredBody> {
  const errors = new ErrorCollector();
  let unitCost: string | undefined;
  if (body.unitCost !== undefined) {
    const parsed = parseEstimate(body.unitCost);
    if (typeof parsed === 'string') unitCost = parsed;
    else errors.add(['unitCost'], parsed.error);
  }
  const classification = body.classification;
  if (classification && !(await repo.findClassificationById(db, businessId, classification.id))) {
    errors.add(['classification', 'id'], messages.invalidPk(classification.id));
  }
  errors.throwIfAny();
  return { ...body, unitCost };
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
  const columns = insertColumns(ESTIMATE_ITEM_PROPERTIES, await checkedBody(db, auth.businessId, body));
  return inTransaction(db, async (trx) => {
    const at = nowTimestamp();
    const id = await repo.insert(trx, auth.businessId, { ...columns, created: at, updated: at });
    const item = await retrieve(trx, auth, id);
    await recordCreated(trx, auth.businessId, 'estimate.item', item);
    return listShape(ESTIMATE_ITEM_PROPERTIES, item);
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
  const patch = patchColumns(ESTIMATE_ITEM_PROPERTIES, await checkedBody(db, auth.businessId, body));
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
  const body: EstimateItemUpdateBody = restoreBody(ESTIMATE_ITEM_PROPERTIES, shape);
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
      const columns = insertColumns(ESTIMATE_ITEM_PROPERTIES, await checkedBody(trx, auth.businessId, body));
      return repo.insert(trx, auth.businessId, { ...(id !== undefined && { id }), ...columns, ...times });
    },
    update: async (trx, id) => {
      const columns = insertColumns(ESTIMATE_ITEM_PROPERTIES, await checkedBody(trx, auth.businessId, body));
      await repo.updateById(trx, auth.businessId, id, { ...columns, ...times }, times.updated);
    },
  });
}
