/**
 * Todos (docs/api.md#todos, docs/api.md#filters, docs/api.md#events): list, create, retrieve, partialUpdate,
 * destroy (permanent).
 *
 * Every function that answers a todo takes `now` (the app's clock), from which `dDay` is computed: `dueDate`
 * minus today in the business's time zone, in days (0 today, negative when overdue). Completion follows
 * docs/api.md#todos: `isComplete` true ⇔ `completedAt` set; setting `isComplete` true sets `completedAt` to now
 * unless given; setting it false clears `completedAt` and `completedInCharge`.
 */
import type { Db } from '../../db/database.ts';
import { changedColumns, inTransaction, nowTimestamp, toBool } from '../../db/sql-helpers.ts';
import { ErrorCollector, NotFound, messages } from '../../shared/errors.ts';
import { type CursorPosition, mapPage, type Page, pageSizeOf } from '../../shared/pagination.ts';
import { type Member, parseQueryBoolean } from '../../shared/schemas.ts';
import { daysBetween, instantRangeUtc, todayIn } from '../../shared/time.ts';
import type { AuthContext } from '../../shared/auth-context.ts';
import { findMembers, toNestedMember } from '../catalog/catalog.service.ts';
import {
  recordCreated,
  recordDeleted,
  recordDeletedMany,
  recordUpdatedMany,
  updateRecord,
} from '../event/event.service.ts';
import type { Cascade } from '../../shared/cascade.ts';
import * as repo from './todo.repository.ts';
import { TODO_PATCHED_BY_RULE, TODO_PROPERTIES } from './todo.properties.ts';
import {
  insertColumns,
  patchColumnsExcept,
  readShape,
  restoreBody,
  type DerivedOf,
} from '../../shared/property-map.ts';
import type { Todo, TodoCreateBody, TodoListQuery, TodoSummary, TodoUpdateBody } from './todo.schemas.ts';
import { TodoUpdateBody as TodoUpdateBodySchema } from './todo.schemas.ts';
import type { NewTodoRow, TodoRowUpdate } from '../../db/tables/todo.table.ts';
import { exists as inquiryExists, toNestedInquiry } from '../inquiry/inquiry.service.ts';
import type { RestoreOptions, RestoreResult } from '../../shared/restore.ts';
import { restoredTimes, restoreRecord, checkRestore } from '../../shared/restore-record.ts';

type Auth = Pick<AuthContext, 'businessId' | 'timezone'>;

/** Members by id, for mapping rows. */
type Members = ReadonlyMap<number, Member>;

/**
 * The todos that nest an inquiry (docs/api.md#cascades), for the inquiry service (wired by src/services.ts):
 * `updated` stamps `updated` on the inquiry's todos and writes `todo.updated` with `["inquiry"]` for each (its
 * name changed); `deleted` writes `todo.deleted` for each (the inquiry's soft delete hides them,
 * docs/api.md#todos).
 */
export const inquiryCascades: { updated: Cascade; deleted: Cascade } = {
  updated: async (trx, auth, inquiryId) => {
    const ids = await repo.stampByInquiryId(trx, auth.businessId, inquiryId, nowTimestamp());
    if (ids.length === 0) return;
    const now = new Date();
    const shapes = (await repo.findFullByIds(trx, auth.businessId, ids)).map((row) => fullOf(row, auth.timezone, now));
    await recordUpdatedMany(trx, auth.businessId, 'todo', ['inquiry'], shapes);
  },
  deleted: async (trx, auth, inquiryId) => {
    await recordDeletedMany(
      trx,
      auth.businessId,
      'todo',
      await repo.findIdsByInquiryId(trx, auth.businessId, inquiryId),
    );
  },
};

/** `dueDate` minus today in `timezone` at `now`, in days (docs/api.md#todos). */
export function dDayOf(dueDate: string, timezone: string, now: Date): number {
  return daysBetween(todayIn(timezone, now), dueDate);
}

/** Loads the members the rows reference (responsible and completing), in one query. */
async function loadMembers(db: Db, businessId: number, rows: readonly repo.TodoRow[]): Promise<Members> {
  const ids = new Set<number>();
  for (const r of rows) {
    if (r.in_charge_id !== null) ids.add(r.in_charge_id);
    if (r.completed_in_charge_id !== null) ids.add(r.completed_in_charge_id);
  }
  return findMembers(db, businessId, ids);
}

/** The members of a row read by `findFullById` (joined in the same statement), by id. */
function membersOfFull(row: repo.TodoFullRow): Members {
  const members = new Map<number, Member>();
  for (const p of ['ic', 'cc'] as const) {
    const member = toNestedMember({
      member_id: row[`${p}_member_id`],
      member_nickname: row[`${p}_member_nickname`],
      member_email: row[`${p}_member_email`],
      member_is_active: row[`${p}_member_is_active`],
      grade_id: row[`${p}_grade_id`],
      grade_title: row[`${p}_grade_title`],
    });
    if (member) members.set(member.id, member);
  }
  return members;
}

/** The full shape of a row read by `findFullById`. */
function fullOf(row: repo.TodoFullRow, timezone: string, now: Date): Todo {
  return toTodo(row, membersOfFull(row), timezone, now);
}

const memberOf = (members: Members, id: number | null): Member | null =>
  id === null ? null : (members.get(id) ?? null);

/** The values of a row's properties that are not its own columns: the inquiry, the two members, `dDay`. */
function derivedOf(
  row: repo.TodoRow,
  members: Members,
  timezone: string,
  now: Date,
): DerivedOf<typeof TODO_PROPERTIES> {
  return {
    inquiry: toNestedInquiry(row),
    inCharge: memberOf(members, row.in_charge_id),
    completedInCharge: memberOf(members, row.completed_in_charge_id),
    dDay: dDayOf(row.due_date, timezone, now),
  };
}

/** Maps a row to the short shape (list items, create response; ./todo.properties.ts). */
export function toTodoSummary(row: repo.TodoRow, members: Members, timezone: string, now: Date): TodoSummary {
  return readShape(TODO_PROPERTIES, row, derivedOf(row, members, timezone, now), true);
}

/** Maps a row to the full shape (retrieve, update, event `data`; docs/api.md#events; ./todo.properties.ts). */
export function toTodo(row: repo.TodoRow, members: Members, timezone: string, now: Date): Todo {
  return readShape(TODO_PROPERTIES, row, derivedOf(row, members, timezone, now));
}

/** The completion columns of a new todo: incomplete, whatever the create body says (docs/api.md#todos). */
const INCOMPLETE = { is_complete: 0, completed_at: null, completed_in_charge_id: null } as const;

/**
 * Checks the member references of a body (`inCharge`, `completedInCharge`): each must be a member of the
 * business. Problems are added to `errors`.
 */
async function checkMembers(
  db: Db,
  businessId: number,
  refs: Partial<Record<'inCharge' | 'completedInCharge', { id: number } | null | undefined>>,
  errors: ErrorCollector,
): Promise<void> {
  const wanted = Object.entries(refs).filter((e): e is [string, { id: number }] => !!e[1]);
  if (wanted.length === 0) return;
  const found = await findMembers(
    db,
    businessId,
    wanted.map(([, ref]) => ref.id),
  );
  for (const [property, ref] of wanted) {
    if (!found.has(ref.id)) errors.add([property, 'id'], messages.invalidPk(ref.id));
  }
}

/**
 * `GET /v1/todo`: todos of live inquiries, newest first; `due_date_*` (inclusive), `inquiry_id`,
 * `is_complete`, `updated_start..updated_end` (inclusive, a date in the business time zone or a date-time;
 * docs/api.md#events).
 * @throws ValidationError for an `updated_start` / `updated_end` that names no day
 */
export async function list(
  db: Db,
  auth: Auth,
  query: TodoListQuery,
  cursor: CursorPosition | undefined,
  now: Date,
): Promise<Page<TodoSummary>> {
  const updated = instantRangeUtc(auth.timezone, query.updated_start, query.updated_end);
  const page = await repo.findPage(
    db,
    auth.businessId,
    {
      dueDateFrom: query.due_date_start,
      dueDateTo: query.due_date_end,
      inquiryId: query.inquiry_id,
      isComplete: parseQueryBoolean(query.is_complete),
      updatedFrom: updated.from,
      updatedTo: updated.to,
    },
    pageSizeOf(query),
    cursor,
  );
  const members = await loadMembers(db, auth.businessId, page.rows);
  return mapPage(page, (row) => toTodoSummary(row, members, auth.timezone, now));
}

/**
 * `POST /v1/todo`: a new, incomplete todo (docs/api.md#todos; `isComplete`, `completedAt` and
 * `completedInCharge` are not accepted here and are ignored). Writes a `todo.created` event with the full
 * shape, in the transaction of the insert (docs/api.md#events).
 * @throws ValidationError when `inquiry` is not a live inquiry of the business or `inCharge` not a member
 */
export async function create(db: Db, auth: Auth, body: TodoCreateBody, now: Date): Promise<TodoSummary> {
  const errors = new ErrorCollector();
  if (!(await inquiryExists(db, auth, body.inquiry.id))) {
    errors.add(['inquiry', 'id'], messages.invalidPk(body.inquiry.id));
  }
  await checkMembers(db, auth.businessId, { inCharge: body.inCharge }, errors);
  errors.throwIfAny();
  return inTransaction(db, async (trx) => {
    const id = await repo.insert(trx, auth.businessId, {
      ...insertColumns(TODO_PROPERTIES, body),
      ...INCOMPLETE,
      created: now.toISOString(),
      updated: now.toISOString(),
    });
    // One read of the full shape serves the event and the answer (its short shape).
    const row = (await repo.findFullById(trx, auth.businessId, id))!;
    const members = membersOfFull(row);
    await recordCreated(trx, auth.businessId, 'todo', toTodo(row, members, auth.timezone, now));
    return toTodoSummary(row, members, auth.timezone, now);
  });
}

/** Whether a live todo with this id exists in the business. */
export async function exists(db: Db, auth: Auth, id: number): Promise<boolean> {
  return repo.existsById(db, auth.businessId, id);
}

/**
 * `GET /v1/todo/{todo_id}`: the full shape.
 * @throws NotFound for a missing todo, another business's, or one whose inquiry was deleted
 */
export async function retrieve(db: Db, auth: Auth, id: number, now: Date): Promise<Todo> {
  const row = await repo.findFullById(db, auth.businessId, id);
  if (!row) throw new NotFound();
  return fullOf(row, auth.timezone, now);
}

/** Message for a completion property sent non-null while the todo ends up incomplete. */
const NOT_COMPLETE = 'Must be null while isComplete is false.';

/**
 * The completion columns after a PATCH (docs/api.md#todos). `current` is the stored state.
 * Problems go to `errors`: a completion time or member given while the todo ends up incomplete, or a null
 * completion time while it ends up complete.
 */
function completionColumns(
  current: repo.TodoRow,
  body: TodoUpdateBody,
  now: Date,
  errors: ErrorCollector,
): Pick<TodoRowUpdate, 'is_complete' | 'completed_at' | 'completed_in_charge_id'> {
  const wasComplete = current.is_complete === 1;
  const complete = body.isComplete ?? wasComplete;
  if (!complete) {
    if (body.completedAt != null) errors.add(['completedAt'], NOT_COMPLETE);
    if (body.completedInCharge != null) errors.add(['completedInCharge'], NOT_COMPLETE);
    return wasComplete || body.isComplete !== undefined
      ? { is_complete: 0, completed_at: null, completed_in_charge_id: null }
      : {};
  }
  if (body.completedAt === null) errors.add(['completedAt'], 'This field may not be null while isComplete is true.');
  const patch: Pick<TodoRowUpdate, 'is_complete' | 'completed_at' | 'completed_in_charge_id'> = {
    is_complete: toBool(true),
  };
  if (body.completedAt) patch.completed_at = TODO_PROPERTIES.completedAt.toColumn(body.completedAt);
  else if (!wasComplete) patch.completed_at = now.toISOString();
  if (body.completedInCharge !== undefined) patch.completed_in_charge_id = body.completedInCharge?.id ?? null;
  return patch;
}

/**
 * `PATCH /v1/todo/{todo_id}`: only the properties sent change; `inquiry` is not writable (ignored).
 * Completion rules as in the module comment; the whole change is one transaction. A change stamps `updated`
 * and writes a `todo.updated` event naming every property of the full shape that changed — completing a
 * todo changes `isComplete` and `completedAt` (and `completedInCharge` when given), a new `dueDate` also
 * `dDay`; a PATCH that changes nothing writes none and keeps `updated` (docs/api.md#events).
 * @returns the full shape
 * @throws NotFound for a missing todo; ValidationError for bad members or completion properties
 */
export async function partialUpdate(db: Db, auth: Auth, id: number, body: TodoUpdateBody, now: Date): Promise<Todo> {
  // As DRF: the references first (field-level; they need no lock), then the completion rules (object-level).
  const errors = new ErrorCollector();
  await checkMembers(
    db,
    auth.businessId,
    { inCharge: body.inCharge, completedInCharge: body.completedInCharge },
    errors,
  );
  errors.throwIfAny();
  return inTransaction(db, async (trx) => {
    // The lean write path: the read of the full shape is the lock, so concurrent completions apply one
    // after the other, each on the state the previous one left (`isComplete` and `completedAt` agree).
    const { before, answer } = await updateRecord(trx, auth.businessId, 'todo', {
      lock: () => repo.findFullById(trx, auth.businessId, id, true),
      shape: (current) => fullOf(current, auth.timezone, now),
      diff: (current) => {
        const completion = completionColumns(current, body, now, errors);
        errors.throwIfAny();
        const patch: TodoRowUpdate = {
          ...completion,
          ...patchColumnsExcept(TODO_PROPERTIES, body, TODO_PATCHED_BY_RULE),
        };
        return { columns: changedColumns(current, patch) };
      },
      update: (columns, at) => repo.updateById(trx, auth.businessId, id, columns, at),
      read: async () => fullOf((await repo.findFullById(trx, auth.businessId, id))!, auth.timezone, now),
    });
    return answer ?? before;
  });
}

/**
 * `DELETE /v1/todo/{todo_id}`: permanent deletion (docs/api.md#todos). Writes a
 * `todo.deleted` event `{id}` (docs/api.md#events).
 * @throws NotFound for a missing todo
 */
export async function destroy(db: Db, auth: Auth, id: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    if ((await repo.deleteById(trx, auth.businessId, id)) === 0) throw new NotFound();
    await recordDeleted(trx, auth.businessId, 'todo', id);
  });
}

/**
 * Restores one todo from its full shape (`GET /v1/todo/{id}` of the source, inquiry and member ids already
 * rewritten to this server's) under the rules of src/shared/restore.ts: every property, the completion
 * (`isComplete`, `completedAt`, `completedInCharge`) as given, `created` and `updated` as given; `dDay` is
 * derived from `dueDate` and not compared. A todo hidden with its deleted inquiry moves to the shape's
 * inquiry. No event.
 * @returns the todo's id here and `created`, `updated` or `unchanged`
 * @throws ValidationError on `inquiry.id` for an inquiry this business does not have live, on
 *   `inCharge.id` / `completedInCharge.id` for a member it does not have
 */
export async function restore(db: Db, auth: Auth, shape: Todo, options: RestoreOptions): Promise<RestoreResult> {
  const only = checkRestore(
    TodoUpdateBodySchema,
    { type: shape.type, dueDate: shape.dueDate, action: shape.action, actionHistory: shape.actionHistory ?? null },
    shape,
    options,
  );
  if (only) return only;
  const now = new Date();
  const columns: Omit<NewTodoRow, 'business_id'> = {
    ...insertColumns(TODO_PROPERTIES, restoreBody(TODO_PROPERTIES, shape)),
    ...restoredTimes(shape),
  };
  const check = async (trx: Db): Promise<void> => {
    const errors = new ErrorCollector();
    if (!(await inquiryExists(trx, auth, columns.inquiry_id)))
      errors.add(['inquiry', 'id'], messages.invalidPk(columns.inquiry_id));
    await checkMembers(
      trx,
      auth.businessId,
      { inCharge: shape.inCharge, completedInCharge: shape.completedInCharge },
      errors,
    );
    errors.throwIfAny();
  };
  return restoreRecord(db, auth.businessId, shape, options, {
    table: 'todo',
    ignore: ['dDay'],
    current: async (trx, id) => {
      const row = await repo.findFullById(trx, auth.businessId, id);
      return row && fullOf(row, auth.timezone, now);
    },
    insert: async (trx, id) => {
      await check(trx);
      return repo.insert(trx, auth.businessId, { ...(id !== undefined && { id }), ...columns });
    },
    update: async (trx, id) => {
      await check(trx);
      await repo.restoreById(trx, auth.businessId, id, columns);
    },
  });
}
