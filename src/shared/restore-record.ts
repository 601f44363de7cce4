/**
 * The common steps of a module's `restore…` entry point (the contract is src/shared/restore.ts;
 * docs/deployment.md#11-moving-a-business-in-and-out): which id the record gets, when it is `unchanged`, and
 * the one transaction it is written in. A module hands {@link restoreRecord} its own reads and writes; this
 * file decides between them.
 */
import { isDeepStrictEqual } from 'node:util';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { advanceIdSequence, inTransaction, nowTimestamp } from '../db/sql-helpers.ts';
import { canKeepId } from '../db/ids.ts';
import type { Timestamp } from '../db/columns.ts';
import { ValidationError } from './errors.ts';
import { ajvErrorsToFields, compileValidator } from './validation-errors.ts';
import type { RestoreOptions, RestoreResult } from './restore.ts';

/**
 * A date-time of a restored shape as stored: any offset → UTC with milliseconds (`2026-11-22T05:31:56.123Z`).
 * A value that is missing or not a date-time (a source that leaves it out, docs/deployment.md#tolerant-reading)
 * becomes `fallback`, by default the current instant; the transfer module warns about it before the restore.
 */
export function restoredTimestamp(value: string | null | undefined, fallback?: Timestamp): Timestamp {
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isNaN(ms) ? (fallback ?? nowTimestamp()) : new Date(ms).toISOString();
}

/**
 * `created` and `updated` of a restored shape as stored: both as given, `updated` defaulting to `created`
 * when the source does not send it, `created` defaulting to the current instant (an estimate item of the
 * reference service has none: docs/deployment.md#tolerant-reading).
 */
export function restoredTimes(shape: { created?: string | undefined; updated?: string | undefined }): {
  created: Timestamp;
  updated: Timestamp;
} {
  const created = restoredTimestamp(shape.created);
  return { created, updated: shape.updated === undefined ? created : restoredTimestamp(shape.updated, created) };
}

const restoreValidators = new WeakMap<object, ReturnType<typeof compileValidator>>();

/**
 * Checks the body a restore derived from a source shape against the API's own body schema of that resource
 * (the `PATCH` body: field limits, types, formats, docs/deployment.md#what-an-import-refuses), so that an
 * import stores nothing the API would refuse.
 * @throws ValidationError with DRF's field map (`{"companyName": ["Ensure this field has no more than 128
 *   characters."]}`) when the body does not pass
 */
export function checkRestoredBody(schema: object, body: unknown): void {
  let validate = restoreValidators.get(schema);
  if (validate === undefined) restoreValidators.set(schema, (validate = compileValidator(schema, 'body')));
  if (!validate(body)) throw new ValidationError(ajvErrorsToFields(validate.errors ?? []));
}

/** Keys of nested date-times (a file link's `created`, …), compared as instants: any offset, milliseconds. */
const TIME_KEYS = new Set(['created', 'updated', 'sentAt', 'receivedAt', 'completedAt']);

/** Keys whose values are file download URLs, which point at each server and are never compared. */
const DOWNLOAD_URL_KEYS = new Set(['url', 'downloadUrl', 'fileUrl']);

/**
 * `value` in a canonical form for comparison: download URLs left out, nested date-times as instants, and the elements of every set (a
 * property named `…Set`: `categorySet`, `inChargeSet`, `fieldSet`, `memberSet`, …) in one order, since a
 * set's order here follows this server's ids, which may differ from the source's where ids moved.
 */
function canonical(value: unknown, isSet = false): unknown {
  if (Array.isArray(value)) {
    const items = value.map((v) => canonical(v));
    return isSet
      ? items
          .map((v) => [JSON.stringify(v), v] as const)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([, v]) => v)
      : items;
  }
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) {
    const v = (value as Record<string, unknown>)[k];
    if (DOWNLOAD_URL_KEYS.has(k)) continue;
    out[k] = TIME_KEYS.has(k) ? normalTime(v) : canonical(v, k.endsWith('Set'));
  }
  return out;
}

/**
 * Whether the record's current full shape `current` already equals the shape `given` a restore was asked to
 * write: every property `given` sends compares deeply equal (key order and the order of a set's elements
 * aside), download URLs and the properties named in `ignore` (derived ones, such as a todo's `dDay`) left
 * out; the record's own `id` is not compared (the source's id and this server's may differ), nor a property
 * this server does not answer (another server's extension, which a restore cannot store); `updated` absent
 * from `given` stands for its `created`.
 */
export function sameShape(
  current: Record<string, unknown>,
  given: Record<string, unknown>,
  ignore: readonly string[] = [],
): boolean {
  const wanted: Record<string, unknown> = { ...given };
  if (wanted.updated === undefined && typeof wanted.created === 'string') wanted.updated = wanted.created;
  for (const [key, value] of Object.entries(wanted)) {
    if (key === 'id' || ignore.includes(key) || value === undefined || !(key in current)) continue;
    const isSet = key.endsWith('Set');
    const a =
      key === 'created' || key === 'updated'
        ? normalTime(current[key])
        : canonical(onlySent(current[key], value), isSet);
    const b = key === 'created' || key === 'updated' ? normalTime(value) : canonical(value, isSet);
    if (!isDeepStrictEqual(a, b)) return false;
  }
  return true;
}

/**
 * `current` cut down to what `given` sends, at every depth: an object keeps only the properties `given`'s
 * object has (a nested `inquiry.uniqueId` the source leaves out is not compared); a list's objects keep the
 * properties any of `given`'s objects has. Values are compared after this, so a property the source sends
 * with another value still differs.
 */
function onlySent(current: unknown, given: unknown): unknown {
  if (Array.isArray(current) && Array.isArray(given)) {
    let template: Record<string, unknown> | undefined;
    for (const g of given) {
      if (g !== null && typeof g === 'object' && !Array.isArray(g)) {
        template = { ...template, ...(g as Record<string, unknown>) };
      }
    }
    if (template === undefined) return current;
    return current.map((c) => onlySent(c, template));
  }
  if (
    current === null ||
    given === null ||
    typeof current !== 'object' ||
    typeof given !== 'object' ||
    Array.isArray(current) ||
    Array.isArray(given)
  )
    return current;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(current as Record<string, unknown>)) {
    if (k in (given as Record<string, unknown>)) out[k] = onlySent(v, (given as Record<string, unknown>)[k]);
  }
  return out;
}

function normalTime(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : new Date(ms).toISOString();
}

/** Whether row `id` of `table` belongs to the business (soft-deleted or otherwise unreadable rows included). */
async function ownsRow(db: Db, table: string, businessId: number, id: number): Promise<boolean> {
  const { rows } = await sql<{
    id: number;
  }>`select id from ${sql.table(table)} where id = ${id} and business_id = ${businessId}`.execute(db);
  return rows.length > 0;
}

/** A module's own reads and writes of one record, which {@link restoreRecord} chooses between. */
export interface RestoreSteps<S> {
  /** The record's table (for the id tests and PostgreSQL's identity sequence). */
  table: string;
  /** The record's full API shape as `GET` answers it now, or `undefined` when it is not readable. */
  current(trx: Db, id: number): Promise<S | undefined>;
  /** Inserts the shape; `id` is the id to insert it under, or `undefined` for a new one. Returns its id. */
  insert(trx: Db, id: number | undefined): Promise<number>;
  /**
   * Brings the business's row `id` to the shape: every column and set, a soft-deleted row made live
   * again. Runs only on a row {@link current} answered, or one of the business that it could not read.
   */
  update(trx: Db, id: number): Promise<void>;
  /** Properties left out of the comparison (see {@link sameShape}). */
  ignore?: readonly string[];
}

/**
 * Restores one record in one transaction (src/shared/restore.ts):
 * - with `options.targetId` and that row readable: `unchanged` when its shape already equals `shape`
 *   ({@link sameShape}), else `update` → `updated`;
 * - with `options.targetId` and that row the business's but not readable (soft-deleted): `update`, which
 *   revives it → `created`;
 * - otherwise `insert` → `created`, under `options.targetId ?? shape.id` when it is at most `maxKeptId`
 *   (src/db/ids.ts) and no row of the table (any business) has that id, else under a new id; after an explicit id, PostgreSQL's identity sequence is
 *   moved past it.
 * The module's steps check the shape's references before writing and throw `ValidationError` naming the
 * property; that rolls the whole record back.
 */
export async function restoreRecord<S extends Record<string, unknown>>(
  db: Db,
  businessId: number,
  shape: { id: number } & Record<string, unknown>,
  options: RestoreOptions,
  steps: RestoreSteps<S>,
): Promise<RestoreResult> {
  if (options.checkOnly) return { id: shape.id, outcome: 'created' };
  return inTransaction(db, async (trx) => {
    const targetId = options.targetId;
    if (targetId !== undefined) {
      const current = await steps.current(trx, targetId);
      if (current !== undefined) {
        if (sameShape(current, shape, steps.ignore)) return { id: targetId, outcome: 'unchanged' };
        await steps.update(trx, targetId);
        return { id: targetId, outcome: 'updated' };
      }
      if (await ownsRow(trx, steps.table, businessId, targetId)) {
        await steps.update(trx, targetId);
        return { id: targetId, outcome: 'created' };
      }
    }
    const wanted = targetId ?? shape.id;
    // An id above the bound is never kept: it would move the table's id sequence out of what this server can serve.
    const explicit = (await canKeepId(trx, steps.table, wanted)) ? wanted : undefined;
    const id = await steps.insert(trx, explicit);
    if (explicit !== undefined) await advanceIdSequence(trx, steps.table);
    return { id, outcome: 'created' };
  });
}

/**
 * The first step of a module's restore: {@link checkRestoredBody} on the body the restore derived from the
 * shape; then, for a check-only call (`options.checkOnly`, `bizapi import --dry-run`), the result to answer
 * at once, without touching the database; else `undefined` (go on and write).
 * @throws ValidationError as {@link checkRestoredBody}
 */
export function checkRestore(
  schema: object,
  body: unknown,
  shape: { id?: unknown },
  options: RestoreOptions,
): RestoreResult | undefined {
  checkRestoredBody(schema, body);
  return options.checkOnly ? { id: typeof shape.id === 'number' ? shape.id : 0, outcome: 'created' } : undefined;
}
