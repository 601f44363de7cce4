/**
 * Clients (docs/api.md#clients, docs/api.md#filters, docs/api.md#events): list, create, retrieve,
 * partialUpdate, destroy (soft).
 */
import type { Db } from '../../db/database.ts';
import { changedColumns, inTransaction, nowTimestamp } from '../../db/sql-helpers.ts';
import {
  changedFieldValues,
  checkFieldSet,
  type CheckedFieldValue,
  replaceFieldValues,
  setFieldValues,
  toFieldSet,
} from '../field/field.service.ts';
import { ErrorCollector, NotFound, ValidationError, messages } from '../../shared/errors.ts';
import { type CursorPosition, mapPage, type Page, pageSizeOf } from '../../shared/pagination.ts';
import { parseQueryBoolean } from '../../shared/schemas.ts';
import { dayRangeUtc, instantRangeUtc } from '../../shared/time.ts';
import type { AuthContext } from '../../shared/auth-context.ts';
import { findClientStatus } from '../catalog/catalog.service.ts';
import { recordCreated, recordDeleted, updateRecord } from '../event/event.service.ts';
import type { Cascade } from '../../shared/cascade.ts';
import type { FileContext } from '../file/file.service.ts';
import type { RestoreOptions, RestoreResult } from '../../shared/restore.ts';
import { restoredTimes, restoreRecord, checkRestore } from '../../shared/restore-record.ts';
import * as repo from './client.repository.ts';
import { CLIENT_PROPERTIES } from './client.properties.ts';
import {
  insertColumns,
  listShape,
  patchColumns,
  readShape,
  restoreBody,
  storedColumns,
} from '../../shared/property-map.ts';
import type {
  Client,
  ClientCreateBody,
  ClientListQuery,
  ClientSummary,
  ClientUpdateBody,
  NestedClient,
} from './client.schemas.ts';
import { ClientUpdateBody as ClientUpdateBodySchema } from './client.schemas.ts';
import type {
  ClientRowUpdate,
  NestedClientColumns,
  NewClientRow as NewClientInsert,
} from '../../db/tables/client.table.ts';

type Auth = Pick<AuthContext, 'businessId' | 'timezone'>;

/**
 * Maps the joined {@link NESTED_CLIENT_COLUMNS} of an inquiry or contract row to the nested client summary,
 * or `null` when the row has no live client.
 */
export function toNestedClient(row: NestedClientColumns): NestedClient | null {
  if (row.client_id === null || row.client_company_name === null) return null;
  return {
    id: row.client_id,
    status:
      row.client_status_id === null || row.client_status_title === null
        ? null
        : { id: row.client_status_id, title: row.client_status_title },
    companyName: row.client_company_name,
    inCharge: row.client_in_charge,
    position: row.client_position,
    contact: row.client_contact,
    email: row.client_email,
  };
}

/**
 * The records that nest a client (docs/api.md#cascades), given to {@link createClientService} by the composition
 * root (src/services.ts): its inquiries and its contracts, whose `client` changes with its nested properties
 * and becomes null on its delete.
 */
export interface ClientNesting {
  inquiries: Cascade<FileContext>;
  contracts: Cascade<FileContext>;
}

/** The properties of a client that inquiries and contracts nest ({@link NestedClient}). */
const NESTED_PROPERTIES = ['status', 'companyName', 'inCharge', 'position', 'contact', 'email'] as const;

/** The properties of a client that inquiries and contracts nest ({@link NESTED_PROPERTIES}), as JSON. */
function nestedKey(client: Client): string {
  return JSON.stringify(NESTED_PROPERTIES.map((p) => client[p]));
}

/** A row's status as the client answers it: `{id, title}`, or `null` when it has none (or the status is gone). */
function statusOf(row: { status_id: number | null; status_title: string | null }): Client['status'] {
  return row.status_id === null || row.status_title === null ? null : { id: row.status_id, title: row.status_title };
}

/** Maps a row to the short shape (create response, list item; client.properties.ts). */
export function toClientSummary(row: repo.ClientSummaryRow): ClientSummary {
  return readShape(CLIENT_PROPERTIES, row, { status: statusOf(row) }, true);
}

/** Maps the one-statement read of a client ({@link repo.findShapeById}) to the full shape (retrieve, update; client.properties.ts). */
export function toClient(row: repo.ClientShapeRow): Client {
  return readShape(CLIENT_PROPERTIES, row, { status: statusOf(row), fieldSet: toFieldSet(row.field_set) });
}

/** The columns a body sets: only the properties it sends (PATCH is partial; client.properties.ts). */
function columnsFrom(body: ClientUpdateBody): ClientRowUpdate {
  return patchColumns(CLIENT_PROPERTIES, body);
}

/**
 * Checks the references of a body (status, fieldSet), collecting every problem.
 * @throws ValidationError listing all of them
 */
async function checkReferences(
  db: Db,
  businessId: number,
  body: ClientUpdateBody,
): Promise<{ fieldValues: CheckedFieldValue[] }> {
  const errors = new ErrorCollector();
  if (body.status) {
    const status = await findClientStatus(db, businessId, body.status.id);
    if (!status) errors.add(['status', 'id'], messages.invalidPk(body.status.id));
  }
  const fieldValues = body.fieldSet ? await checkFieldSet(db, businessId, 'C', body.fieldSet, errors) : [];
  errors.throwIfAny();
  return { fieldValues };
}

/** `GET /v1/client`: live clients, newest first, with the filters of docs/api.md#filters. */
export async function list(
  db: Db,
  auth: Auth,
  query: ClientListQuery,
  cursor: CursorPosition | undefined,
): Promise<Page<ClientSummary>> {
  const range = dayRangeUtc(auth.timezone, query.created_start, query.created_end);
  const updated = instantRangeUtc(auth.timezone, query.updated_start, query.updated_end);
  const page = await repo.findPage(
    db,
    auth.businessId,
    {
      createdFrom: range.from,
      createdTo: range.to,
      isHidden: parseQueryBoolean(query.is_hidden),
      search: query.search ?? [],
      statusId: query.status_id,
      updatedFrom: updated.from,
      updatedTo: updated.to,
    },
    pageSizeOf(query),
    cursor,
  );
  return mapPage(page, toClientSummary);
}

/**
 * `POST /v1/client`: `status` omitted → the business's default client status (none when it has none);
 * `status: null` → no status. No notification is sent (docs/api.md#clients); a `client.created` event is written
 * (docs/api.md#events). The answer is the short shape, taken from the full shape the event carries (one read).
 * @throws ValidationError for an unknown status or an invalid `fieldSet`
 */
export async function create(db: Db, auth: Auth, body: ClientCreateBody): Promise<ClientSummary> {
  const { fieldValues } = await checkReferences(db, auth.businessId, body);
  const shape = await inTransaction(db, async (trx) => {
    // One instant for both: a create's `updated` is its `created` (docs/api.md#events).
    const now = nowTimestamp();
    // `status` not sent: the default status, chosen by the insert (client.properties.ts).
    const newId = await repo.insert(trx, auth.businessId, {
      ...insertColumns(CLIENT_PROPERTIES, body),
      created: now,
      updated: now,
    });
    await setFieldValues(trx, auth.businessId, 'C', newId, fieldValues);
    // Read inside the transaction, so that a delete right after the commit cannot empty the answer.
    const created = toClient((await repo.findShapeById(trx, auth.businessId, newId))!);
    await recordCreated(trx, auth.businessId, 'client', created);
    return created;
  });
  return listShape(CLIENT_PROPERTIES, shape);
}

/** Whether a live client with this id exists in the business. */
export async function exists(db: Db, auth: Pick<Auth, 'businessId'>, id: number): Promise<boolean> {
  return repo.existsById(db, auth.businessId, id);
}

/**
 * `GET /v1/client/{client_id}`: the full shape, read in one statement.
 * @throws NotFound for a missing, soft-deleted or other business's client
 */
export async function retrieve(db: Db, auth: Auth, id: number): Promise<Client> {
  const row = await repo.findShapeById(db, auth.businessId, id);
  if (!row) throw new NotFound();
  return toClient(row);
}

/**
 * `PATCH /v1/client/{client_id}`: only the properties sent change; `fieldSet` sets the fields it names and
 * keeps the others (an empty value clears one). A status change records no history (docs/api.md#clients). A change
 * stamps `updated` and writes a `client.updated` event naming the changed properties; a PATCH that changes
 * nothing writes none (docs/api.md#events). When a property inquiries and contracts nest changes (`status`,
 * `companyName`, `inCharge`, `position`, `contact`, `email`), each of them gets `inquiry.updated` /
 * `contract.updated` with `["client"]` (docs/api.md#cascades; `nesting` reaches them).
 *
 * The lean write path (docs/api.md#events): references checked before the transaction (a missing client with
 * a bad reference is still 404, as DRF finds the record first); in it, one statement reads the full shape
 * and locks the row; nothing is written when nothing changes; otherwise one UPDATE writes the changed
 * columns with `updated`, the changed field values are written, and the shape is read once more for the event.
 * @throws NotFound for a missing client; ValidationError for bad references
 */
async function partialUpdate(
  db: Db,
  auth: Auth,
  id: number,
  body: ClientUpdateBody,
  nesting: ClientNesting,
  files: FileContext | undefined,
): Promise<Client> {
  const { businessId } = auth;
  let fieldValues: CheckedFieldValue[];
  try {
    ({ fieldValues } = await checkReferences(db, businessId, body));
  } catch (err) {
    if (err instanceof ValidationError && !(await repo.existsById(db, businessId, id))) throw new NotFound();
    throw err;
  }
  const patch = columnsFrom(body);
  return inTransaction(db, async (trx) => {
    // A body that may change what inquiries and contracts nest locks the row against new references too: one
    // created meanwhile then reads the new summary, after this commits (docs/api.md#cascades).
    const { before, answer } = await updateRecord(trx, businessId, 'client', {
      lock: () =>
        repo.lockShapeById(
          trx,
          businessId,
          id,
          NESTED_PROPERTIES.some((p) => body[p] !== undefined) ? 'update' : 'no key update',
        ),
      shape: toClient,
      diff: (row, before) => {
        const values = changedFieldValues(before.fieldSet, fieldValues);
        return {
          columns: changedColumns(storedColumns(CLIENT_PROPERTIES, row), patch),
          others: values.length > 0,
          write: () => setFieldValues(trx, businessId, 'C', id, values),
        };
      },
      update: (columns, at) => repo.updateById(trx, businessId, id, columns, at),
      read: async () => toClient((await repo.findShapeById(trx, businessId, id))!),
    });
    if (!answer) return before;
    if (nestedKey(before) !== nestedKey(answer)) await cascade(trx, auth, id, nesting, files);
    return answer;
  });
}

/**
 * `DELETE /v1/client/{client_id}`: soft delete; the client disappears from every read (docs/api.md#clients). Writes a
 * `client.deleted` event (docs/api.md#events), then `inquiry.updated` and `contract.updated` with
 * `["client"]` for its inquiries and contracts, which show `client: null` from then on (docs/api.md#cascades).
 * @throws NotFound for a missing client
 */
async function destroy(
  db: Db,
  auth: Auth,
  id: number,
  nesting: ClientNesting,
  files: FileContext | undefined,
): Promise<void> {
  await inTransaction(db, async (trx) => {
    if ((await repo.softDeleteById(trx, auth.businessId, id, nowTimestamp())) === 0) throw new NotFound();
    await recordDeleted(trx, auth.businessId, 'client', id);
    await cascade(trx, auth, id, nesting, files);
  });
}

/** Writes the events of the inquiries, then the contracts, that nest client `id` (docs/api.md#cascades). */
async function cascade(
  trx: Db,
  auth: Auth,
  id: number,
  nesting: ClientNesting,
  files: FileContext | undefined,
): Promise<void> {
  await nesting.inquiries(trx, auth, id, files);
  await nesting.contracts(trx, auth, id, files);
}

/** The shape {@link restore} takes: a client's full shape as `GET /v1/client/{id}` answers it (`updated` optional). */
export type RestoredClient = Omit<Client, 'updated'> & { updated?: string | undefined };

/**
 * Restores one client from its full shape (`GET /v1/client/{id}` of the source, references already rewritten
 * to this server's ids) under the rules of src/shared/restore.ts (docs/deployment.md#11-moving-a-business-in-and-out):
 * every column, `created` and `updated` as given, the hidden flag, and exactly the custom field values of
 * the shape. Writes no event.
 * @returns the client's id here and `created`, `updated` or `unchanged`
 * @throws ValidationError naming `status.id` or `fieldSet` when the shape refers to something this business
 *   does not have
 */
export async function restore(
  db: Db,
  auth: Auth,
  shape: RestoredClient,
  options: RestoreOptions,
): Promise<RestoreResult> {
  const { businessId } = auth;
  // Every writable property, `status` reduced to `{id}`, the create defaults for those not sent (client.properties.ts).
  const body: ClientUpdateBody = {
    ...(restoreBody(CLIENT_PROPERTIES, shape) as ClientUpdateBody),
    fieldSet: (shape.fieldSet ?? []).map((v) => ({ field: { id: v.field.id }, value: v.value })),
  };
  const only = checkRestore(ClientUpdateBodySchema, body, shape, options);
  if (only) return only;
  const columns = (): ClientRowUpdate => ({ ...columnsFrom(body), ...restoredTimes(shape) });
  return restoreRecord(db, businessId, shape, options, {
    table: 'client',
    current: async (t, id) => {
      const row = await repo.findShapeById(t, businessId, id);
      return row && toClient(row);
    },
    insert: async (t, id) => {
      const { fieldValues } = await checkReferences(t, businessId, body);
      const newId = await repo.insert(t, businessId, {
        ...(id !== undefined && { id }),
        ...(columns() as Omit<NewClientInsert, 'business_id'>),
      });
      await replaceFieldValues(t, businessId, 'C', newId, fieldValues);
      return newId;
    },
    update: async (t, id) => {
      const { fieldValues } = await checkReferences(t, businessId, body);
      await repo.restoreById(t, businessId, id, columns());
      await replaceFieldValues(t, businessId, 'C', id, fieldValues);
    },
  });
}

/**
 * The client service (docs/api.md#clients), built once by the composition root (src/services.ts) with the
 * records that nest a client (`nesting`). `partialUpdate` and `destroy` take the caller's file context
 * (`files`, the request's): the inquiries' events carry their download URLs (docs/api.md#cascades).
 */
export function createClientService(nesting: ClientNesting) {
  return {
    list,
    create,
    exists,
    retrieve,
    restore,
    partialUpdate: (db: Db, auth: Auth, id: number, body: ClientUpdateBody, files?: FileContext): Promise<Client> =>
      partialUpdate(db, auth, id, body, nesting, files),
    destroy: (db: Db, auth: Auth, id: number, files?: FileContext): Promise<void> =>
      destroy(db, auth, id, nesting, files),
  };
}

/** What {@link createClientService} builds. */
export type ClientService = ReturnType<typeof createClientService>;
