/**
 * Change events (docs/api.md#events): every create, change and delete of a writable resource writes one
 * event in the transaction of the change, so an event exists exactly when its change committed; a PATCH that
 * changes nothing writes none. The webhook module (docs/webhooks.md) delivers them.
 *
 * A write path uses it so (the pattern of every service):
 * - create: after the insert, read the record's full shape in the transaction, then {@link recordCreated};
 * - change: read the full shape (before) in the statement that is the lock, write only what changes with
 *   `updated` in the same UPDATE, read the shape once more (after), then {@link recordUpdated}, which compares
 *   the two and writes the event (see there: the lean write path);
 * - delete: after the delete, {@link recordDeleted}.
 */
import type { Db } from '../../db/database.ts';
import { nowTimestamp } from '../../db/sql-helpers.ts';
import type { Timestamp } from '../../db/columns.ts';
import { NotFound } from '../../shared/errors.ts';
import { type CursorPosition, mapPage, type Page, pageSizeOf } from '../../shared/pagination.ts';
import { instantRangeUtc } from '../../shared/time.ts';
import type { AuthContext } from '../../shared/auth-context.ts';
import * as repo from './event.repository.ts';
import type { Event, EventListQuery } from './event.schemas.ts';
import type { EventResource, EventType } from './event.types.ts';

export { EVENT_RESOURCES, EVENT_TYPES, type EventResource, type EventType } from './event.types.ts';

/** The record of an event: its full shape (docs/api.md#events), or `{id}` for a delete. */
export type EventData = { id: number } & Record<string, unknown>;

/** What {@link record} writes. */
export interface NewEvent {
  type: EventType;
  /** The camelCase properties an update changed; `[]` for created, deleted and `webhook.test`. */
  changedFields: readonly string[];
  data: EventData;
}

/**
 * Writes one event in the caller's transaction `trx` (docs/api.md#events: written with the change, none for
 * a change that rolls back).
 * @param at the event's time (default now); an update passes the `updated` it stamped
 * @returns the event as `GET /v1/event/{event_id}` answers it
 */
export async function record(trx: Db, businessId: number, event: NewEvent, at: Timestamp = nowTimestamp()): Promise<Event> {
  const changedFields = [...event.changedFields];
  const id = await repo.insert(trx, businessId, {
    type: event.type,
    created: at,
    changed_fields: JSON.stringify(changedFields),
    data: JSON.stringify(event.data),
    published_at: null,
  });
  return { id, type: event.type, created: at, changedFields, data: event.data };
}

/**
 * Marks events published (docs/webhooks.md#delivery): the webhook fan-out, which writes the deliveries of
 * every unpublished event, skips them from then on. For events whose deliveries the caller writes itself,
 * in the same transaction (the test ping of one endpoint). Events published already keep their time.
 */
export async function markPublished(trx: Db, ids: readonly number[], at: Timestamp = nowTimestamp()): Promise<void> {
  await repo.markPublished(trx, ids, at);
}

/** `<resource>.created` with the record's full shape `data` (docs/api.md#events), at the record's `updated`. */
export async function recordCreated(trx: Db, businessId: number, resource: EventResource, data: EventData): Promise<Event> {
  // The event's time is the record's `updated` (its creation), so that the two agree.
  const at = typeof data.updated === 'string' ? data.updated : nowTimestamp();
  return record(trx, businessId, { type: `${resource}.created`, changedFields: [], data }, at);
}

/** `<resource>.deleted` with `data: {id}` (docs/api.md#events). */
export async function recordDeleted(trx: Db, businessId: number, resource: EventResource, id: number): Promise<Event> {
  return record(trx, businessId, { type: `${resource}.deleted`, changedFields: [], data: { id } });
}

/**
 * The properties whose values differ between two full shapes of one record (compared as JSON), in the order
 * of `after`'s keys, then `before`'s keys that `after` lacks; `updated` is never one of them.
 *
 * @param comparable maps a property's value to what is compared (default: the value itself); for values
 *   that carry something volatile, such as the expiring signed URLs of `fileSet`
 */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  comparable: (key: string, value: unknown) => unknown = (_, v) => v,
): string[] {
  const keys = [...new Set([...Object.keys(after), ...Object.keys(before)])].filter((k) => k !== 'updated');
  return keys.filter((k) => JSON.stringify(comparable(k, before[k])) !== JSON.stringify(comparable(k, after[k])));
}

/** Options of {@link recordUpdated}. */
export interface RecordUpdateOptions {
  /** See {@link changedFields}. */
  comparable?: (key: string, value: unknown) => unknown;
}

/**
 * Ends a change on the lean write path (docs/api.md#events), in the transaction of the change:
 * 1. the service read the record's full shape `before` in one statement that is also the lock
 *    (`forUpdateOf` in db/sql-helpers.ts; SQLite's `BEGIN IMMEDIATE` holds the lock already);
 * 2. it decided from `before` and the patch what changes (`changedColumns`, set comparisons) and, when
 *    nothing does, answered `before` without writing anything (no event, `updated` kept);
 * 3. otherwise its repository's UPDATE wrote the changed columns **and** `updated` in one statement, the
 *    nested sets that change were written, and `after` was read once, in one statement;
 * 4. this function compares `before` and `after`: when they differ it writes one `<resource>.updated` event
 *    at `after.updated` naming the changed properties and answers `after`; when they do not (the patch named
 *    values the record had already, in a form step 2 could not see through), it puts `updated` back through
 *    `unstamp(before.updated)`, writes no event and answers `after` with the old `updated`.
 */
export async function recordUpdated<T extends { id: number; updated: Timestamp }>(
  trx: Db,
  businessId: number,
  resource: EventResource,
  before: T,
  after: T,
  unstamp: (updated: Timestamp) => Promise<unknown>,
  options: RecordUpdateOptions = {},
): Promise<T> {
  const changed = changedFields(before, after, options.comparable);
  if (changed.length === 0) {
    if (after.updated !== before.updated) await unstamp(before.updated);
    return { ...after, updated: before.updated };
  }
  await record(trx, businessId, { type: `${resource}.updated`, changedFields: changed, data: after }, after.updated);
  return after;
}

/** Maps a row to the API shape. */
function toEvent(row: repo.EventRow): Event {
  return {
    id: row.id,
    type: row.type as EventType,
    created: row.created,
    changedFields: JSON.parse(row.changed_fields) as string[],
    data: JSON.parse(row.data) as EventData,
  };
}

/**
 * `GET /v1/event` (docs/api.md#events): the business's events, newest first; `type` any of, `created_start`
 * / `created_end` inclusive (a date in the business time zone, or a date-time with an offset).
 * @throws ValidationError for a date that names no day
 */
export async function list(
  db: Db,
  auth: Pick<AuthContext, 'businessId' | 'timezone'>,
  query: EventListQuery,
  cursor: CursorPosition | undefined,
): Promise<Page<Event>> {
  const range = instantRangeUtc(auth.timezone, query.created_start, query.created_end, ['created_start', 'created_end']);
  const page = await repo.findPage(
    db,
    auth.businessId,
    { types: query.type ?? [], createdFrom: range.from, createdTo: range.to },
    pageSizeOf(query),
    cursor,
  );
  return mapPage(page, toEvent);
}

/**
 * `GET /v1/event/{event_id}`.
 * @throws NotFound for a missing, purged or other business's event
 */
export async function retrieve(db: Db, auth: Pick<AuthContext, 'businessId'>, id: number): Promise<Event> {
  const row = await repo.findById(db, auth.businessId, id);
  if (!row) throw new NotFound();
  return toEvent(row);
}

/**
 * The events named by `refs` (`{businessId, id}`, any businesses), in one read, by id; an event that is
 * missing, purged, or of another business than its ref says is left out (the webhook dispatcher, which
 * reads the events of a claimed chunk of deliveries at once).
 */
export async function retrieveMany(db: Db, refs: readonly { businessId: number; id: number }[]): Promise<Map<number, Event>> {
  const wanted = new Map(refs.map((r) => [r.id, r.businessId]));
  const rows = await repo.findByIdsAcrossBusinesses(db, [...wanted.keys()]);
  return new Map(rows.filter((r) => wanted.get(r.id) === r.business_id).map((r) => [r.id, toEvent(r)]));
}

/** Events deleted per statement by {@link purge}. */
const PURGE_BATCH = 5000;

/**
 * Deletes the events older than `retentionDays` days (docs/api.md#events: kept 30 days by default,
 * `BIZAPI_EVENT_RETENTION_DAYS`), in batches. Safe to run from several processes at once.
 * @returns the number of events deleted
 */
export async function purge(db: Db, retentionDays: number, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000).toISOString();
  let total = 0;
  for (;;) {
    const deleted = await repo.deleteCreatedBefore(db, cutoff, PURGE_BATCH);
    total += deleted;
    if (deleted < PURGE_BATCH) return total;
  }
}

/** An event waiting for the webhook fan-out, with its business. */
export interface UnpublishedEvent extends Event {
  businessId: number;
}

/**
 * Claims up to `limit` events not yet fanned out to webhooks (docs/webhooks.md#delivery), oldest first,
 * in the caller's transaction `trx`, which must then {@link markPublished} them: concurrent callers
 * (several dispatchers) never claim the same event. `businessIds` restricts the claim to these businesses
 * (`undefined`: all).
 * @returns the events as `GET /v1/event/{event_id}` answers them, with their business
 */
export async function claimUnpublished(trx: Db, limit: number, businessIds?: readonly number[]): Promise<UnpublishedEvent[]> {
  const rows = await repo.claimUnpublished(trx, limit, businessIds);
  return rows.map((r) => ({ ...toEvent(r), businessId: r.business_id }));
}

/**
 * `<resource>.updated` for each of `records` (full shapes, each with its new `updated`), naming
 * `changedFields`, in one statement (the lean write path of a cascade, docs/api.md#cascades: records whose
 * shape another record's write changed, such as the inquiries of a renamed client). Each event's time is
 * its record's `updated`. Top-level records only (`parent` null).
 */
export async function recordUpdatedMany(
  trx: Db,
  businessId: number,
  resource: EventResource,
  changedFields: readonly string[],
  records: readonly (EventData & { updated: Timestamp })[],
): Promise<void> {
  const fields = JSON.stringify(changedFields);
  await repo.insertMany(
    trx,
    businessId,
    records.map((data) => ({ type: `${resource}.updated`, created: data.updated, changed_fields: fields, data: JSON.stringify(data), published_at: null })),
  );
}

/** `<resource>.deleted` `{id}` for each of `ids`, in that order, in one statement (docs/api.md#cascades). */
export async function recordDeletedMany(trx: Db, businessId: number, resource: EventResource, ids: readonly number[], at: Timestamp = nowTimestamp()): Promise<void> {
  await repo.insertMany(
    trx,
    businessId,
    ids.map((id) => ({ type: `${resource}.deleted`, created: at, changed_fields: '[]', data: JSON.stringify({ id }), published_at: null })),
  );
}

/**
 * `catalog.updated` for each section of `sections` (the section names of a catalog import's answer, such as
 * `members` or `statuses`) that received entries: `data: {section, ids}` with the new ids, ascending, in
 * one statement (docs/api.md#cascades). Sections without ids write nothing.
 */
export async function recordCatalogUpdated(trx: Db, businessId: number, sections: Readonly<Record<string, readonly number[]>>, at: Timestamp = nowTimestamp()): Promise<void> {
  await repo.insertMany(
    trx,
    businessId,
    Object.entries(sections)
      .filter(([, ids]) => ids.length > 0)
      .map(([section, ids]) => ({
        type: 'catalog.updated',
        created: at,
        changed_fields: '[]',
        data: JSON.stringify({ section, ids: [...ids].sort((a, b) => a - b) }),
        published_at: null,
      })),
  );
}
