/**
 * Estimate item templates (reference: "Estimate item templates"; decisions §11): list, create, retrieve,
 * partialUpdate, destroy (permanent), and the list of classifications. No plan restriction.
 */
import type { Db } from '../../db/database.ts';
import { nowTimestamp } from '../../db/sql-helpers.ts';
import { ErrorCollector, NotFound, messages } from '../../shared/errors.ts';
import { type CursorPosition, mapPage, type Page, pageSizeOf } from '../../shared/pagination.ts';
import type { AuthContext } from '../../shared/auth-context.ts';
import { parseEstimate } from '../inquiry/inquiry.service.ts';
import * as repo from './estimate.repository.ts';
import type {
  EstimateItem,
  EstimateItemClassification,
  EstimateItemCreateBody,
  EstimateItemListQuery,
  EstimateItemUpdateBody,
} from './estimate.schemas.ts';
import type { EstimateItemRowUpdate } from '../../db/tables/estimate.table.ts';

type Auth = Pick<AuthContext, 'businessId'>;

/** Maps a row to the estimate item shape of every response; `image` is `""` (no picture can be set). */
export function toEstimateItem(row: repo.EstimateItemRow): EstimateItem {
  return {
    id: row.id,
    title: row.title,
    unitCost: row.unit_cost,
    unit: row.unit,
    description: row.description,
    image: '',
    classification:
      row.classification_id === null || row.classification_title === null ? null : { id: row.classification_id, title: row.classification_title },
    created: row.created,
  };
}

/**
 * Checks what the schema cannot: `unitCost` as a decimal (docs/api.md#estimate-items) and the
 * `classification` reference, all errors at once; returns the columns the body sets (PATCH is partial).
 * @throws ValidationError `{"unitCost": ["A valid number is required."]}`,
 *   `{"classification": {"id": ["Invalid pk \"9\" - object does not exist."]}}` (also for another business's)
 */
async function checkedColumns(db: Db, businessId: number, body: EstimateItemUpdateBody): Promise<EstimateItemRowUpdate> {
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
    else if (await repo.findClassificationById(db, businessId, body.classification.id)) patch.classification_id = body.classification.id;
    else errors.add(['classification', 'id'], messages.invalidPk(body.classification.id));
  }
  errors.throwIfAny();
  return patch;
}

/** `GET /v1/estimate/item`: newest first; `search` terms (all must match) over title and description. */
export async function list(db: Db, auth: Auth, query: EstimateItemListQuery, cursor: CursorPosition | undefined): Promise<Page<EstimateItem>> {
  const page = await repo.findPage(db, auth.businessId, { search: query.search ?? [] }, pageSizeOf(query), cursor);
  return mapPage(page, toEstimateItem);
}

/**
 * `POST /v1/estimate/item`: `description` and `classification` default to null.
 * @throws ValidationError for a malformed `unitCost` or a classification that is not the business's
 */
export async function create(db: Db, auth: Auth, body: EstimateItemCreateBody): Promise<EstimateItem> {
  const columns = await checkedColumns(db, auth.businessId, body);
  const id = await repo.insert(db, auth.businessId, {
    title: body.title,
    unit: body.unit,
    unit_cost: columns.unit_cost as string,
    description: body.description ?? null,
    classification_id: columns.classification_id ?? null,
    created: nowTimestamp(),
    updated: nowTimestamp(),
  });
  return retrieve(db, auth, id);
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
 * `description: null` clear them.
 * @throws NotFound for a missing item; ValidationError as {@link create}
 */
export async function partialUpdate(db: Db, auth: Auth, id: number, body: EstimateItemUpdateBody): Promise<EstimateItem> {
  if (!(await repo.existsById(db, auth.businessId, id))) throw new NotFound();
  const columns = await checkedColumns(db, auth.businessId, body);
  if ((await repo.updateById(db, auth.businessId, id, columns)) === 0) throw new NotFound();
  return retrieve(db, auth, id);
}

/**
 * `DELETE /v1/estimate/item/{item_id}`: removes the item for good; its id answers 404 from then on.
 * @throws NotFound for a missing item
 */
export async function destroy(db: Db, auth: Auth, id: number): Promise<void> {
  if ((await repo.deleteById(db, auth.businessId, id)) === 0) throw new NotFound();
}

/** `GET /v1/estimate/item/classification`: `{id, title}` in the configured order; `search` over the title. */
export async function listClassifications(
  db: Db,
  auth: Auth,
  query: EstimateItemListQuery,
  cursor: CursorPosition | undefined,
): Promise<Page<EstimateItemClassification>> {
  const page = await repo.findClassificationPage(db, auth.businessId, query.search ?? [], pageSizeOf(query), cursor);
  return mapPage(page, (row) => ({ id: row.id, title: row.title }));
}
