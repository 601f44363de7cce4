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
 * A note's events pass its parent record (`options.parent`). On PostgreSQL events are written without a
 * sequence; {@link assignSequences} numbers them after commit, and the lists show only numbered events. On
 * SQLite the write's own transaction numbers them and fans them out to webhooks ({@link writeEvents}).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../db/database.ts';
import { deleteInBatches, isPostgres, nowTimestamp } from '../../db/sql-helpers.ts';
import type { NewEventRow } from '../../db/tables/event.table.ts';
import type { Timestamp } from '../../db/columns.ts';
import { NotFound, ValidationError } from '../../shared/errors.ts';
import { type CursorPosition, mapPage, type Page, pageSizeOf } from '../../shared/pagination.ts';
import { instantRangeUtc } from '../../shared/time.ts';
import type { AuthContext } from '../../shared/auth-context.ts';
import * as repo from './event.repository.ts';
import type { Event, EventListQuery } from './event.schemas.ts';
import { type EventResource, type EventType, typesOfPatterns } from './event.types.ts';

export { EVENT_TYPES, type EventResource, type EventType } from './event.types.ts';

/** The record of an event: its full shape (docs/api.md#events), or `{id}` for a delete. */
export type EventData = { id: number } & Record<string, unknown>;

/**
 * The record a note or history event belongs to (docs/api.md#events): an inquiry's text
 * history, a contract's or a settlement's notes. `null` on every other event.
 */
export interface EventParent {
  type: 'inquiry' | 'contract' | 'settlement';
  id: number;
}

/** What {@link record} writes. */
export interface NewEvent {
  type: EventType;
  /** The camelCase properties an update changed; `[]` for created, deleted and `webhook.test`. */
  changedFields: readonly string[];
  data: EventData;
  /** The note's parent record (docs/api.md#events); omitted or null for events that are no note's. */
  parent?: EventParent | null;
}

/** The options every `record*` helper takes last. */
export interface RecordOptions {
  /** The note's parent record (see {@link EventParent}); omitted for events that are no note's. */
  parent?: EventParent | null;
}

/**
 * An event as written: on PostgreSQL before it has a sequence (docs/api.md#events: given after commit), on
 * SQLite with the sequence its transaction gave it.
 */
export type RecordedEvent = Omit<Event, 'sequence'> & { sequence: number | null };

/** An event as the webhook fan-out matches it (docs/webhooks.md#delivery). */
export interface FanOutEvent {
  id: number;
  type: string;
  changedFields: readonly string[];
}

/**
 * What a SQLite write does about the webhook deliveries of the events it is about to write in its
 * transaction (docs/webhooks.md#deliveries-written-by-the-write): `none` — no endpoint of the business would
 * get one (none, all parked, none wanting these types), the events are written published; `dispatcher` —
 * they are written unpublished, for the dispatcher's fair fan-out; `write` — the write itself writes them
 * (`write(trx, events)` after the events, with their ids) and the events are written published.
 */
export type WriteFanOutPlan =
  | { kind: 'none' }
  | { kind: 'dispatcher' }
  | { kind: 'write'; write: (trx: Db, events: readonly FanOutEvent[]) => Promise<void> };

/**
 * Decides, in the write's transaction `trx`, what becomes of the webhook deliveries of events of
 * `businessId` about to be written ({@link WriteFanOutPlan}; SQLite: see {@link writeEvents}). The webhook
 * module provides it ({@link fanOutAtWrite}); the event module knows nothing of endpoints.
 */
export type WriteFanOut = (
  trx: Db,
  businessId: number,
  events: readonly Omit<FanOutEvent, 'id'>[],
) => Promise<WriteFanOutPlan>;

let writeFanOut: WriteFanOut | undefined;

/**
 * Sets the plan SQLite writes make in their own transaction (docs/webhooks.md#fan-out); the webhook delivery
 * module calls it when it is loaded. Without it (a process that never loads the webhook module) SQLite
 * events are written unpublished, and a dispatcher's fan-out takes them as on PostgreSQL.
 */
export function fanOutAtWrite(fn: WriteFanOut): void {
  writeFanOut = fn;
}

/**
 * PostgreSQL's counterpart of {@link WriteFanOut} (docs/webhooks.md#fan-out): a boolean SQL condition on
 * `businessId`'s webhook endpoints, true when one of them may get a delivery of one of `events`, which the
 * events' own INSERT evaluates ({@link writeEvents}). The webhook module provides it ({@link fanOutAtInsert}).
 */
export type InsertFanOut = (businessId: number, events: readonly Omit<FanOutEvent, 'id'>[]) => RawBuilder<SqlBool>;

let insertFanOut: InsertFanOut | undefined;

/**
 * Sets the condition PostgreSQL writes evaluate in their events' INSERT (docs/webhooks.md#fan-out); the
 * webhook delivery module calls it when it is loaded. Without it PostgreSQL events are written unpublished,
 * for the dispatcher's fan-out.
 */
export function fanOutAtInsert(fn: InsertFanOut): void {
  insertFanOut = fn;
}

/**
 * PostgreSQL's counterpart of {@link WriteFanOutPlan} `write` (docs/webhooks.md#deliveries-written-by-the-write):
 * the SQL with which the events' own INSERT of `businessId` decides whether it writes their webhook deliveries
 * itself, and writes them, due at `at` ({@link repo.DeliveriesAtInsertSql}). The webhook module provides it
 * ({@link deliveriesAtInsert}).
 */
export type InsertDeliveries = (businessId: number, at: Timestamp) => repo.DeliveriesAtInsertSql;

let insertDeliveries: InsertDeliveries | undefined;

/**
 * Sets the SQL with which PostgreSQL writes write their events' deliveries in their events' INSERT
 * (docs/webhooks.md#deliveries-written-by-the-write); the webhook delivery module calls it when it is
 * loaded. Without it, the events' INSERT decides only published or not ({@link fanOutAtInsert}).
 */
export function deliveriesAtInsert(fn: InsertDeliveries): void {
  insertDeliveries = fn;
}

/**
 * What the event writes of one API request left for the webhook dispatcher (docs/webhooks.md#live-delivery):
 * `wrote` — it wrote events; `unpublished` — some of them wait for the fan-out (on SQLite: every write of
 * events counts so, as before); `delivered` — it wrote webhook deliveries itself (PostgreSQL,
 * {@link InsertDeliveries}), due at once; `followed` — a server process follows the business's feed live
 * (PostgreSQL, docs/api.md#following-the-feed-live). A request that wrote events, none of them unpublished,
 * no delivery and for no follower needs no wake-up (PostgreSQL: no active endpoint of the business wants
 * them, {@link InsertFanOut}, or only parked ones); one that wrote none is woken as before (it may have
 * changed endpoints).
 */
export interface EventWriteTrace {
  wrote: boolean;
  unpublished: boolean;
  delivered: boolean;
  followed: boolean;
}

const traces = new AsyncLocalStorage<EventWriteTrace>();

/**
 * Runs `fn` with `trace` as the {@link EventWriteTrace} of the event writes in its async context (the API's
 * request hook, src/app.ts); `fn`'s result is returned.
 */
export function traceEventWrites<T>(trace: EventWriteTrace, fn: () => T): T {
  return traces.run(trace, fn);
}

/**
 * PostgreSQL, in a write's transaction `trx`: writes `rows` of `businessId` without a sequence, in one
 * statement that also decides their fan-out (docs/webhooks.md#fan-out): with their deliveries, written by
 * the same statement, when a few endpoints want them ({@link InsertDeliveries},
 * docs/webhooks.md#deliveries-written-by-the-write); else already published when `fanOut`'s condition finds
 * no endpoint of the business that may want one of them, else unpublished for the dispatcher. The body of
 * {@link writeEvents} there.
 * @returns the ids, ascending, whether the events were written published, and the deliveries written
 */
async function writeEventsPostgres(
  trx: Db,
  businessId: number,
  rows: readonly Omit<NewEventRow, 'business_id' | 'sequence' | 'published_at'>[],
  fanOut: InsertFanOut,
): Promise<{ ids: number[]; published: boolean; deliveries: number; followed: boolean }> {
  const events = rows.map((row) => ({ type: row.type, changedFields: JSON.parse(row.changed_fields) as string[] }));
  // a live follower of the business (a long-poll or a stream, on any server process) listens too: the write
  // then sends its NOTIFY, which wakes the follower's process (docs/api.md#following-the-feed-live), also when
  // it wrote its events published with their deliveries
  const at = nowTimestamp();
  return repo.insertPublishedUnlessListened(
    trx,
    businessId,
    rows,
    at,
    fanOut(businessId, events),
    insertDeliveries?.(businessId, at),
    repo.followedSql(businessId),
  );
}

/**
 * Writes events `rows` of `businessId` (ascending ids, in the order given) in the caller's transaction
 * `trx`; returns their ids and sequences.
 * - PostgreSQL in a transaction (every API write): written without a sequence — the dispatcher's poll or
 *   the next read of the feed numbers them after commit in the order they become visible
 *   ({@link assignSequences}) — in one statement that also decides their fan-out (docs/webhooks.md#fan-out):
 *   when at most a few endpoints of the business want them ({@link InsertDeliveries}), it writes their
 *   deliveries too and the events published (none wanting them, or only parked ones: published, no
 *   delivery), so that no fan-out ever touches them; else unpublished, for the dispatcher's fan-out
 *   (webhook-delivery.service `publish`); without {@link InsertDeliveries}, published only when no endpoint
 *   may get a delivery ({@link InsertFanOut}). Noted in the request's {@link EventWriteTrace}. Without the
 *   webhook module: unpublished.
 * - Outside a transaction (either database): without a sequence and unpublished, as PostgreSQL without the
 *   webhook module.
 * - SQLite in a transaction (every API write: `BEGIN IMMEDIATE`, one writer at a time, so the order of
 *   these transactions is the order of their commits): numbered here from the one counter, in one
 *   statement; and, when the webhook module is loaded, its plan ({@link WriteFanOut}: one indexed read, two
 *   when deliveries are due) decides their deliveries (docs/webhooks.md#fan-out): none due — written
 *   published, so that no fan-out ever touches them; due to a few endpoints with room in their queues —
 *   written here, after the events, which are written published (the delivery exists at commit:
 *   docs/webhooks.md#deliveries-written-by-the-write); otherwise written unpublished, for the dispatcher's
 *   fan-out, fair per business and bounded per round. A write then needs no transaction after its commit
 *   (no second fsync, docs/api.md#events).
 */
async function writeEvents(
  trx: Db,
  businessId: number,
  rows: readonly Omit<NewEventRow, 'business_id' | 'sequence' | 'published_at'>[],
): Promise<{ ids: number[]; sequences: (number | null)[] }> {
  if (rows.length === 0) return { ids: [], sequences: [] };
  const trace = traces.getStore();
  if (trace) trace.wrote = true;
  if (trx.isTransaction && isPostgres(trx) && insertFanOut !== undefined) {
    const written = await writeEventsPostgres(trx, businessId, rows, insertFanOut);
    if (trace && !written.published) trace.unpublished = true;
    if (trace && written.deliveries > 0) trace.delivered = true;
    if (trace && written.followed) trace.followed = true;
    return { ids: written.ids, sequences: written.ids.map(() => null) };
  }
  if (trace) trace.unpublished = true;
  const atWrite = trx.isTransaction && !isPostgres(trx);
  const base = atWrite ? await repo.takeSequences(trx, rows.length) : null;
  const matched = rows.map((row) => ({ type: row.type, changedFields: JSON.parse(row.changed_fields) as string[] }));
  const plan: WriteFanOutPlan =
    !atWrite || writeFanOut === undefined ? { kind: 'dispatcher' } : await writeFanOut(trx, businessId, matched);
  const publishedAt = plan.kind === 'dispatcher' ? null : nowTimestamp();
  const values = rows.map((row, i) => ({
    ...row,
    sequence: base === null ? null : base + i + 1,
    published_at: publishedAt,
  }));
  const ids =
    values.length === 1
      ? [await repo.insert(trx, businessId, values[0]!)]
      : await repo.insertMany(trx, businessId, values);
  if (plan.kind === 'write')
    await plan.write(
      trx,
      matched.map((m, i) => ({ ...m, id: ids[i]! })),
    );
  return { ids, sequences: values.map((v) => v.sequence) };
}

/**
 * Writes one event in the caller's transaction `trx` (docs/api.md#events: written with the change, none for
 * a change that rolls back). On PostgreSQL the event has no sequence yet: {@link assignSequences} gives it
 * one once the transaction has committed, and no list shows it before; on SQLite it has one already
 * ({@link writeEvents}).
 * @param at the event's time (default now); an update passes the `updated` it stamped
 * @returns the event as `GET /v1/event/{event_id}` will answer it (`sequence: null` until it has one)
 */
export async function record(
  trx: Db,
  businessId: number,
  event: NewEvent,
  at: Timestamp = nowTimestamp(),
): Promise<RecordedEvent> {
  const changedFields = [...event.changedFields];
  const parent = event.parent ?? null;
  const written = await writeEvents(trx, businessId, [
    {
      type: event.type,
      created: at,
      changed_fields: JSON.stringify(changedFields),
      data: JSON.stringify(event.data),
      parent_type: parent?.type ?? null,
      parent_id: parent?.id ?? null,
    },
  ]);
  return {
    id: written.ids[0]!,
    sequence: written.sequences[0]!,
    type: event.type,
    created: at,
    changedFields,
    parent,
    data: event.data,
  };
}

/** Events sequenced per statement by {@link assignSequences}. */
const SEQUENCE_BATCH = 5000;

/**
 * Gives every committed event without a sequence the next sequences (one counter for all businesses, so
 * strictly increasing per business too), in id order (docs/api.md#events). Serialized across processes:
 * on PostgreSQL by an advisory transaction lock, on SQLite by the write lock of `BEGIN IMMEDIATE`; each
 * batch commits before the next assigner reads, so the order of sequences is the order events become
 * visible in lists, and a reader that has seen sequence S will never later see a smaller one appear.
 * An idle call (nothing to assign) is one read of a partial index and opens no transaction.
 *
 * Called by `GET /v1/event` before it reads and by the webhook dispatcher before it publishes; never from
 * inside a transaction (an event of the caller's own transaction is not committed, and the lock would be
 * held with the caller's).
 * @param db the database, not a transaction
 * @returns how many events got a sequence
 * @throws Error when `db` is a transaction
 */
export async function assignSequences(db: Db): Promise<number> {
  if (db.isTransaction) throw new Error('assignSequences runs after commit, never inside a transaction');
  let total = 0;
  while (await repo.hasUnsequenced(db)) {
    const n = await db.transaction().execute(async (trx) => {
      await repo.lockAssigners(trx);
      return repo.assignNextSequences(trx, SEQUENCE_BATCH);
    });
    total += n;
    // another process took the rest meanwhile, or a batch was short: done
    if (n < SEQUENCE_BATCH) break;
  }
  return total;
}

/**
 * The highest event id written so far (0 without events), read in the caller's transaction `trx`: where a
 * new webhook endpoint starts (docs/webhooks.md#which-events-an-endpoint-receives). Exact: every event with
 * an id up to it has committed (or rolled back) by the time of the read, and every event written later gets
 * a greater id. SQLite: writers are one at a time (`BEGIN IMMEDIATE`), so this holds as it is. PostgreSQL:
 * ids are handed out at insert and a transaction can commit late, so the read first takes
 * `LOCK TABLE event IN SHARE MODE` until the end of `trx`: it waits for the transactions writing events at
 * that moment to end and holds new event writes back until `trx` commits (a few milliseconds; endpoints are
 * created rarely). Every business's event writes queue behind this lock while it waits, so the wait is
 * bounded: at most `lockTimeoutMs` (ms), then it throws SQLSTATE 55P03, which answers 503 with `Retry-After`
 * (src/db/unavailable.ts). Take it after any lock no event writer holds (webhook.service takes the business
 * lock of auth.service `lockBusiness` first), so the order cannot deadlock.
 * @throws the driver's error with SQLSTATE 55P03 (PostgreSQL) when the lock is not granted in time
 */
export async function maxEventId(trx: Db, lockTimeoutMs: number): Promise<number> {
  return repo.findMaxId(trx, lockTimeoutMs);
}

/**
 * Marks events published (docs/webhooks.md#delivery): the webhook fan-out, which writes the deliveries of
 * every unpublished event, skips them from then on. For events whose deliveries the caller writes itself,
 * in the same transaction (the test ping of one endpoint). Events published already keep their time.
 */
export async function markPublished(trx: Db, ids: readonly number[], at: Timestamp = nowTimestamp()): Promise<void> {
  await repo.markPublished(trx, ids, at);
}

/**
 * `<resource>.created` with the record's full shape `data` (docs/api.md#events), at the record's `updated`;
 * a note passes its parent in `options.parent`.
 */
export async function recordCreated(
  trx: Db,
  businessId: number,
  resource: EventResource,
  data: EventData,
  options: RecordOptions = {},
): Promise<RecordedEvent> {
  // The event's time is the record's `updated` (its creation), so that the two agree.
  const at = typeof data.updated === 'string' ? data.updated : nowTimestamp();
  return record(trx, businessId, { type: `${resource}.created`, changedFields: [], data, parent: options.parent }, at);
}

/** `<resource>.deleted` with `data: {id}` (docs/api.md#events); a note passes its parent in `options.parent`. */
export async function recordDeleted(
  trx: Db,
  businessId: number,
  resource: EventResource,
  id: number,
  options: RecordOptions = {},
): Promise<RecordedEvent> {
  return record(trx, businessId, {
    type: `${resource}.deleted`,
    changedFields: [],
    data: { id },
    parent: options.parent,
  });
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

/** Options of {@link recordUpdated}: those of every `record*` helper (a note's `parent`), and: */
export interface RecordUpdateOptions extends RecordOptions {
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
 * A note passes its parent in `options.parent`.
 */
export async function recordUpdated<B extends Stamped, A extends Stamped = B>(
  trx: Db,
  businessId: number,
  resource: EventResource,
  before: B,
  after: A,
  unstamp: (updated: Timestamp) => Promise<unknown>,
  options: RecordUpdateOptions = {},
): Promise<A> {
  const changed = changedFields(before, after, options.comparable);
  if (changed.length === 0) {
    if (after.updated !== before.updated) await unstamp(before.updated);
    return { ...after, updated: before.updated };
  }
  await record(
    trx,
    businessId,
    { type: `${resource}.updated`, changedFields: changed, data: after, parent: options.parent },
    after.updated,
  );
  return after;
}

/** A record's full shape as the lean write path compares it: its id and its `updated` stamp. */
export type Stamped = { id: number; updated: Timestamp };

/** What a PATCH changes, as {@link UpdateSteps} `diff` decides it from the locked row. */
export interface RecordChange {
  /** The changed columns of the record's own row (`changedColumns` of db/sql-helpers.ts); `{}` for none. */
  columns: Record<string, unknown>;
  /**
   * Whether something beyond `columns` changes (a nested set, field values, or writes `diff` already made);
   * when neither it nor `columns` does, nothing is written. Default: whether `write` is given.
   */
  others?: boolean;
  /** The writes beyond the record's own row, run right after its UPDATE with the same stamp `at` (nested sets, a status history row). */
  write?: (at: Timestamp) => Promise<unknown>;
}

/**
 * How one resource takes part in {@link updateRecord} (as a DRF view parameterizes `UpdateModelMixin`:
 * `get_object`, the serializer, `perform_update`). `Row` is what the locking read returns, `B` the full shape
 * before and `A` the full shape after (the same type but for an inquiry, whose download URLs are signed after).
 */
export interface UpdateSteps<Row, B extends Stamped, A extends Stamped> {
  /** The one statement that reads the record and locks it (`forUpdateOf`; SQLite's `BEGIN IMMEDIATE`); `undefined`: missing. */
  lock(): Promise<Row | undefined>;
  /** The full shape of the locked row (before). */
  shape(row: Row): B;
  /**
   * The rules that need the stored record (they may throw a ValidationError) and what the PATCH changes;
   * `at` is the stamp the change will carry (writes `diff` makes itself use it).
   */
  diff(row: Row, before: B, at: Timestamp): RecordChange | Promise<RecordChange>;
  /** The one UPDATE of the record's row: `columns` and `updated = at` (the repository's `updateById`); returns the rows changed. */
  update(columns: Record<string, unknown>, at: Timestamp): Promise<number>;
  /** Reads the full shape after the writes, in one statement. */
  read(): Promise<A>;
}

/** The outcome of {@link updateRecord}: the shape before, and the answer when anything was written. */
export interface Updated<B, A> {
  before: B;
  /** The full shape after (with `updated` put back when nothing changed after all); `undefined` when nothing was written (answer `before`). */
  answer: A | undefined;
}

/**
 * The lean update of one record (docs/api.md#events), in the caller's transaction `trx`, shared by every
 * PATCH: lock and read the stored row (`steps.lock`; missing → NotFound), map it to the shape before, decide
 * what changes (`steps.diff`); when nothing does, write nothing and answer `before` (no event, `updated`
 * kept); else one UPDATE writes the changed columns with `updated` (no row changed → NotFound), then the
 * other writes, then the shape after is read once and {@link recordUpdated} writes `<resource>.updated` (or
 * puts `updated` back). Cascades to records that nest this one are the caller's, after it returns.
 * @throws NotFound for a missing record; whatever `steps.diff` throws (ValidationError)
 */
export async function updateRecord<Row, B extends Stamped, A extends Stamped = B>(
  trx: Db,
  businessId: number,
  resource: EventResource,
  steps: UpdateSteps<Row, B, A>,
  options: RecordUpdateOptions = {},
): Promise<Updated<B, A>> {
  const row = await steps.lock();
  if (!row) throw new NotFound();
  const before = steps.shape(row);
  const at = nowTimestamp();
  const change = await steps.diff(row, before, at);
  if (Object.keys(change.columns).length === 0 && !(change.others ?? change.write !== undefined))
    return { before, answer: undefined };
  if ((await steps.update(change.columns, at)) === 0) throw new NotFound();
  await change.write?.(at);
  const after = await steps.read();
  const answer = await recordUpdated(
    trx,
    businessId,
    resource,
    before,
    after,
    (updated) => steps.update({}, updated),
    options,
  );
  return { before, answer };
}

/** Maps a sequenced row to the API shape. */
function toEvent(row: repo.EventRow & { sequence: number }): Event {
  return {
    id: row.id,
    sequence: Number(row.sequence),
    type: row.type as EventType,
    created: row.created,
    changedFields: JSON.parse(row.changed_fields) as string[],
    parent:
      row.parent_type === null || row.parent_id === null
        ? null
        : { type: row.parent_type as EventParent['type'], id: row.parent_id },
    data: JSON.parse(row.data) as EventData,
  };
}

function isSequenced(row: repo.EventRow): row is repo.EventRow & { sequence: number } {
  return row.sequence !== null;
}

/**
 * `GET /v1/event` (docs/api.md#events): the business's events, newest first; `type` any of, `created_start`
 * / `created_end` inclusive (a date in the business time zone, or a date-time with an offset). With
 * `after_sequence=N`: only the events with a sequence greater than N, oldest first (by sequence), the way
 * to follow the feed (docs/api.md#syncing-a-mirror-with-after_sequence). It gives the committed events their
 * sequences first ({@link assignSequences}) and lists only sequenced events.
 * @throws ValidationError for a date that names no day; InvalidCursor for a cursor of the other order
 */
export async function list(
  db: Db,
  auth: Pick<AuthContext, 'businessId' | 'timezone'>,
  query: EventListQuery,
  cursor: CursorPosition | undefined,
): Promise<Page<Event>> {
  const range = instantRangeUtc(auth.timezone, query.created_start, query.created_end, [
    'created_start',
    'created_end',
  ]);
  const types = typeFilter(query.type);
  await assignSequences(db);
  const page = await repo.findPage(
    db,
    auth.businessId,
    { types: types ?? [], createdFrom: range.from, createdTo: range.to, afterSequence: query.after_sequence },
    pageSizeOf(query),
    cursor,
  );
  // findPage lists sequenced rows only
  return mapPage(page, (row) => toEvent(row as repo.EventRow & { sequence: number }));
}

/**
 * The event types the `type` patterns of a feed request name (docs/api.md#filtering-by-type: exact types,
 * prefixes `inquiry.*`, `*`), or `undefined` for every type.
 * @throws ValidationError (400 `{"type": ["\"x\" is not a valid choice."]}`) for a pattern that is malformed or names no type
 */
export function typeFilter(patterns: readonly string[] | undefined): EventType[] | undefined {
  try {
    return typesOfPatterns(patterns ?? []);
  } catch (err) {
    if (err instanceof RangeError) throw ValidationError.at(['type'], err.message);
    throw err;
  }
}

/** `rows` with their sequences: when one has none yet (committed after the last assignment), assigns and reads them again. */
async function sequenced<R extends repo.EventRow>(
  db: Db,
  rows: R[],
  reread: () => Promise<R[]>,
): Promise<(R & { sequence: number })[]> {
  if (rows.every(isSequenced)) return rows as (R & { sequence: number })[];
  await assignSequences(db);
  return (await reread()).filter(isSequenced) as (R & { sequence: number })[];
}

/**
 * `GET /v1/event/{event_id}`; an event committed but not sequenced yet gets its sequence first.
 * @throws NotFound for a missing, purged or other business's event
 */
export async function retrieve(db: Db, auth: Pick<AuthContext, 'businessId'>, id: number): Promise<Event> {
  const read = async () => {
    const row = await repo.findById(db, auth.businessId, id);
    return row ? [row] : [];
  };
  const [row] = await sequenced(db, await read(), read);
  if (!row) throw new NotFound();
  return toEvent(row);
}

/**
 * The events named by `refs` (`{businessId, id}`, any businesses), in one read, by id, each with its
 * sequence (assigned first when one has none yet); an event that is missing, purged, or of another business
 * than its ref says is left out (the webhook dispatcher, which reads the events of a claimed chunk of
 * deliveries at once).
 * @param db the database, not a transaction (see {@link assignSequences})
 */
export async function retrieveMany(
  db: Db,
  refs: readonly { businessId: number; id: number }[],
): Promise<Map<number, Event>> {
  const wanted = new Map(refs.map((r) => [r.id, r.businessId]));
  const read = () => repo.findByIdsAcrossBusinesses(db, [...wanted.keys()]);
  const rows = await sequenced(db, await read(), read);
  return new Map(rows.filter((r) => wanted.get(r.id) === r.business_id).map((r) => [r.id, toEvent(r)]));
}

/**
 * Deletes the events older than `retentionDays` days (docs/api.md#events: kept 30 days by default,
 * `BIZAPI_EVENT_RETENTION_DAYS`), in batches. Safe to run from several processes at once.
 * @returns the number of events deleted
 */
export async function purge(db: Db, retentionDays: number, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000).toISOString();
  return deleteInBatches((limit) => repo.deleteCreatedBefore(db, cutoff, limit));
}

/**
 * An event waiting for the webhook fan-out, with its business; `sequence` is null when the event has none
 * yet (the fan-out needs none: deliveries read the event again when they are attempted).
 */
export type UnpublishedEvent = Omit<Event, 'sequence'> & { sequence: number | null; businessId: number };

/**
 * The business's events already fanned out with an id above `afterId`, in id order, at most `limit`, as the
 * webhook fan-out matches them (`id`, `type`, `changedFields`): the events a parked endpoint is owed
 * (docs/webhooks.md#parking).
 */
export async function listPublishedAfter(
  db: Db,
  businessId: number,
  afterId: number,
  limit: number,
): Promise<{ id: number; type: string; changedFields: string[] }[]> {
  const rows = await repo.findPublishedAfter(db, businessId, afterId, limit);
  return rows.map((r) => ({ id: Number(r.id), type: r.type, changedFields: JSON.parse(r.changed_fields) as string[] }));
}

/**
 * The business's events with a sequence above `afterSequence` and an id above `afterId`, oldest first by
 * sequence, at most `limit`, as the webhook fan-out matches them (`id`, `type`, `changedFields`) with their
 * `sequence`: the events a webhook replay sends (docs/webhooks.md#replay). `types` keeps those types
 * (undefined: every type); test pings are never listed. Committed events get their sequences first
 * ({@link assignSequences}), as the event list does.
 * @param db the database, not a transaction (see {@link assignSequences})
 */
export async function listSequencedAfter(
  db: Db,
  businessId: number,
  o: { afterSequence: number; afterId: number; types: readonly string[] | undefined; limit: number },
): Promise<{ id: number; type: string; changedFields: string[]; sequence: number }[]> {
  await assignSequences(db);
  const rows = await repo.findSequencedAfter(db, businessId, o);
  return rows.map((r) => ({
    id: r.id,
    type: r.type,
    sequence: r.sequence,
    changedFields: JSON.parse(r.changed_fields) as string[],
  }));
}

/** The highest event id of the business (0 without events): where a parked webhook endpoint's owed events begin (docs/webhooks.md#parking). */
export async function latestEventIdOf(db: Db, businessId: number): Promise<number> {
  return repo.findLatestIdOf(db, businessId);
}

/** Of the business's events `ids`, those that are test pings (`webhook.test`). */
export async function testPingIds(db: Db, businessId: number, ids: readonly number[]): Promise<number[]> {
  return repo.findIdsOfType(db, businessId, ids, 'webhook.test');
}

/** Whether any event (only `businessIds`' when given) waits for the webhook fan-out: a one-row read. */
export async function hasUnpublished(db: Db, businessIds?: readonly number[]): Promise<boolean> {
  return repo.anyUnpublished(db, businessIds);
}

/**
 * Claims up to `limit` events not yet fanned out to webhooks (docs/webhooks.md#delivery), per business in turn (each business's oldest first),
 * in the caller's transaction `trx`, which must then {@link markPublished} them: concurrent callers
 * (several dispatchers) never claim the same event. `businessIds` restricts the claim to these businesses
 * (`undefined`: all).
 * @returns the events as `GET /v1/event/{event_id}` answers them (`sequence` possibly null), with their business
 */
export async function claimUnpublished(
  trx: Db,
  limit: number,
  businessIds?: readonly number[],
): Promise<UnpublishedEvent[]> {
  const rows = await repo.claimUnpublished(trx, limit, businessIds);
  return rows.map((r) => ({
    ...toEvent({ ...r, sequence: r.sequence ?? 0 }),
    sequence: r.sequence === null ? null : Number(r.sequence),
    businessId: r.business_id,
  }));
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
  await writeEvents(
    trx,
    businessId,
    records.map((data) => ({
      type: `${resource}.updated`,
      created: data.updated,
      changed_fields: fields,
      data: JSON.stringify(data),
    })),
  );
}

/**
 * `<resource>.deleted` `{id}` for each of `ids`, in that order, in one statement (docs/api.md#cascades).
 * Notes pass their parent record in `options.parent` (docs/api.md#events: the inquiry whose delete takes
 * its text notes with it); `options.at` is the events' time (default now).
 */
export async function recordDeletedMany(
  trx: Db,
  businessId: number,
  resource: EventResource,
  ids: readonly number[],
  options: { parent?: EventParent | null; at?: Timestamp } = {},
): Promise<void> {
  const at = options.at ?? nowTimestamp();
  const parent = options.parent ?? null;
  await writeEvents(
    trx,
    businessId,
    ids.map((id) => ({
      type: `${resource}.deleted`,
      created: at,
      changed_fields: '[]',
      data: JSON.stringify({ id }),
      parent_type: parent?.type ?? null,
      parent_id: parent?.id ?? null,
    })),
  );
}

/**
 * `catalog.updated` for each section of `sections` (the section names of a catalog import's answer, such as
 * `members` or `statuses`) that received entries: `data: {section, ids}` with the new ids, ascending, in
 * one statement (docs/api.md#cascades). Sections without ids write nothing.
 */
export async function recordCatalogUpdated(
  trx: Db,
  businessId: number,
  sections: Readonly<Record<string, readonly number[]>>,
  at: Timestamp = nowTimestamp(),
): Promise<void> {
  await writeEvents(
    trx,
    businessId,
    Object.entries(sections)
      .filter(([, ids]) => ids.length > 0)
      .map(([section, ids]) => ({
        type: 'catalog.updated',
        created: at,
        changed_fields: '[]',
        data: JSON.stringify({ section, ids: [...ids].sort((a, b) => a - b) }),
      })),
  );
}
