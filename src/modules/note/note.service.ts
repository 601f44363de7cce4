/**
 * Notes on contracts and settlements (docs/api.md#contracts, docs/api.md#settlements — the same rules as
 * inquiry text history, docs/api.md#inquiries): list (newest first), create (`content` 1..5000, optional `created` and `member`),
 * retrieve, partialUpdate (`content`, `created`) and destroy (permanent). The parent must be a record of the
 * caller's business, else every operation answers 404. Every write writes its event,
 * `contract.history.*` or `settlement.history.*` (docs/api.md#events).
 */
import type { Db } from '../../db/database.ts';
import { changedColumns, inTransaction, isForeignKeyViolation, nowTimestamp } from '../../db/sql-helpers.ts';
import { NotFound, ValidationError, messages } from '../../shared/errors.ts';
import { type CursorPosition, mapPage, type Page, pageSizeOf } from '../../shared/pagination.ts';
import { instantRangeUtc } from '../../shared/time.ts';
import type { AuthContext } from '../../shared/auth-context.ts';
import { isMember, toNestedMember } from '../catalog/catalog.service.ts';
import { type EventParent, recordCreated, recordDeleted, updateRecord } from '../event/event.service.ts';
import type { RestoreOptions, RestoreResult } from '../../shared/restore.ts';
import { restoredTimes, restoreRecord, checkRestore } from '../../shared/restore-record.ts';
import * as repo from './note.repository.ts';
import type { Note, NoteCreateBody, NoteFull, NoteListQuery, NoteUpdateBody } from './note.schemas.ts';
import { NoteUpdateBody as NoteUpdateBodySchema } from './note.schemas.ts';

type Auth = Pick<AuthContext, 'businessId'>;

/**
 * The record notes hang off: its table, the resource its events name (docs/api.md#events), and whether a
 * given id is a record of the business.
 */
export interface NoteParent {
  target: repo.NoteTarget;
  resource: 'contract.history' | 'settlement.history';
  exists: (db: Db, businessId: number, id: number) => Promise<boolean>;
}

/** Maps a note row (with its member and grade) to the list and create shape. */
export function toNote(row: repo.NoteRow): Note {
  return {
    id: row.id,
    content: row.content,
    created: row.created,
    member: toNestedMember(row),
  };
}

/** Maps a note row to the full shape (retrieve, update; the data of its events). */
export function toNoteFull(row: repo.NoteRow): NoteFull {
  return { ...toNote(row), updated: row.updated };
}

/** The `parent` of a note's events (docs/api.md#events): the contract or settlement `parentId`. */
function eventParent(parent: NoteParent, parentId: number): EventParent {
  return { type: parent.resource === 'contract.history' ? 'contract' : 'settlement', id: parentId };
}

async function requireParent(db: Db, auth: Auth, parent: NoteParent, parentId: number): Promise<void> {
  if (!(await parent.exists(db, auth.businessId, parentId))) throw new NotFound();
}

/**
 * The note's full shape, or NotFound, in one statement: a note found by business and parent proves the
 * parent is the business's too. With `lock`, the read is the note's lock (the lean write path).
 */
async function findFull(
  db: Db,
  auth: Auth,
  parent: NoteParent,
  parentId: number,
  id: number,
  lock = false,
): Promise<NoteFull> {
  const row = await repo.findById(db, auth.businessId, parent.target, parentId, id, lock);
  if (!row) throw new NotFound();
  return toNoteFull(row);
}

/**
 * `GET …/history`: the parent's notes, newest first; `updated_start` / `updated_end` narrow it
 * (docs/api.md#events).
 * @throws NotFound when the parent is not a record of the business; ValidationError for a date that names
 *   no day
 */
export async function list(
  db: Db,
  auth: Pick<AuthContext, 'businessId' | 'timezone'>,
  parent: NoteParent,
  parentId: number,
  query: NoteListQuery,
  cursor: CursorPosition | undefined,
): Promise<Page<Note>> {
  const updated = instantRangeUtc(auth.timezone, query.updated_start, query.updated_end);
  await requireParent(db, auth, parent, parentId);
  const filter = { updatedFrom: updated.from, updatedTo: updated.to };
  const page = await repo.findPage(db, auth.businessId, parent.target, parentId, filter, pageSizeOf(query), cursor);
  return mapPage(page, toNote);
}

/**
 * `POST …/history`: `created` defaults to now (an offset is accepted and stored in UTC); `member` must be a
 * member of the business. Writes `<parent>.history.created` with the full shape (docs/api.md#events).
 * @throws NotFound for a missing parent; ValidationError `{member: {id: […]}}` for an unknown member
 */
export async function create(
  db: Db,
  auth: Auth,
  parent: NoteParent,
  parentId: number,
  body: NoteCreateBody,
): Promise<Note> {
  // The route checked the parent (404 before validation); a parent deleted since fails the insert's
  // foreign key, answered below with the same 404.
  const memberId = body.member?.id ?? null;
  if (memberId !== null && !(await isMember(db, auth.businessId, memberId))) {
    throw ValidationError.at(['member', 'id'], messages.invalidPk(memberId));
  }
  try {
    return await inTransaction(db, async (trx) => {
      // `updated` is the time of the write even for a back-dated note, so that syncs by `updated` see it.
      const now = nowTimestamp();
      const id = await repo.insert(trx, auth.businessId, parent.target, parentId, {
        content: body.content,
        member_id: memberId,
        created: body.created === undefined ? now : new Date(body.created).toISOString(),
        updated: now,
      });
      const full = await findFull(trx, auth, parent, parentId, id);
      await recordCreated(trx, auth.businessId, parent.resource, full, { parent: eventParent(parent, parentId) });
      const { updated: _updated, ...note } = full;
      return note;
    });
  } catch (err) {
    // The parent was deleted by a concurrent request after the check above: the same 404 as the check.
    if (isForeignKeyViolation(err)) await requireParent(db, auth, parent, parentId);
    throw err;
  }
}

/**
 * `GET …/history/{history_id}`: the full shape.
 * @throws NotFound for a missing parent, or a note that is not the parent's
 */
export async function retrieve(
  db: Db,
  auth: Auth,
  parent: NoteParent,
  parentId: number,
  id: number,
): Promise<NoteFull> {
  return findFull(db, auth, parent, parentId, id);
}

/** Whether the parent is a record of the business and the note is one of its notes (one statement). */
export async function exists(db: Db, auth: Auth, parent: NoteParent, parentId: number, id: number): Promise<boolean> {
  return (await repo.findById(db, auth.businessId, parent.target, parentId, id)) !== undefined;
}

/**
 * `PATCH …/history/{history_id}`: `content` and `created` (the member is not writable). A change stamps
 * `updated` and writes `<parent>.history.updated` naming the changed properties; a PATCH that changes
 * nothing writes none (docs/api.md#events).
 * @throws NotFound for a missing parent or note
 */
export async function partialUpdate(
  db: Db,
  auth: Auth,
  parent: NoteParent,
  parentId: number,
  id: number,
  body: NoteUpdateBody,
): Promise<NoteFull> {
  const patch: { content?: string; created?: string } = {};
  if (body.content !== undefined) patch.content = body.content;
  if (body.created !== undefined) patch.created = new Date(body.created).toISOString();
  return inTransaction(db, async (trx) => {
    // The lean write path: the read of the current shape is the lock and proves the note is the parent's.
    const { before, answer } = await updateRecord(
      trx,
      auth.businessId,
      parent.resource,
      {
        lock: () => repo.findById(trx, auth.businessId, parent.target, parentId, id, true),
        shape: toNoteFull,
        diff: (row) => ({ columns: changedColumns(row, patch) }),
        update: (columns, at) => repo.updateById(trx, auth.businessId, parent.target, parentId, id, columns, at),
        read: () => findFull(trx, auth, parent, parentId, id),
      },
      { parent: eventParent(parent, parentId) },
    );
    return answer ?? before;
  });
}

/**
 * `DELETE …/history/{history_id}`: removes the note for good. Writes `<parent>.history.deleted`
 * (docs/api.md#events).
 * @throws NotFound for a missing parent or note
 */
export async function destroy(db: Db, auth: Auth, parent: NoteParent, parentId: number, id: number): Promise<void> {
  // The DELETE, by business and parent, is the existence check of both.
  await inTransaction(db, async (trx) => {
    if ((await repo.deleteById(trx, auth.businessId, parent.target, parentId, id)) === 0) throw new NotFound();
    await recordDeleted(trx, auth.businessId, parent.resource, id, { parent: eventParent(parent, parentId) });
  });
}

/**
 * Restores one note of the contract or settlement `parentId` (this server's id) from its full shape (the
 * source's `GET …/history/{history_id}`, member id already rewritten) under the rules of
 * src/shared/restore.ts: `content`, `member`, `created` and `updated` as given; no event. The contract and
 * settlement services offer it as their `restoreHistory`.
 * @throws ValidationError on `contract.id` / `settlement.id` when the parent is not the business's, on
 *   `member.id` for a member this business does not have
 */
export async function restoreHistory(
  db: Db,
  auth: Auth,
  kind: 'contract' | 'settlement',
  parentId: number,
  shape: Note & { updated?: string },
  options: RestoreOptions,
): Promise<RestoreResult> {
  const only = checkRestore(NoteUpdateBodySchema, { content: shape.content }, shape, options);
  if (only) return only;
  const target = kind === 'contract' ? repo.CONTRACT_NOTES : repo.SETTLEMENT_NOTES;
  const memberId = shape.member?.id ?? null;
  const row = { content: shape.content, member_id: memberId, ...restoredTimes(shape) };
  const check = async (trx: Db): Promise<void> => {
    if (!(await repo.parentExists(trx, auth.businessId, target, parentId)))
      throw ValidationError.at([kind, 'id'], messages.invalidPk(parentId));
    if (memberId !== null && !(await isMember(trx, auth.businessId, memberId)))
      throw ValidationError.at(['member', 'id'], messages.invalidPk(memberId));
  };
  return restoreRecord(db, auth.businessId, shape, options, {
    table: target.table,
    current: async (trx, id) => {
      const found = await repo.findById(trx, auth.businessId, target, parentId, id);
      return found && toNoteFull(found);
    },
    insert: async (trx, id) => {
      await check(trx);
      return repo.insert(trx, auth.businessId, target, parentId, { ...(id !== undefined && { id }), ...row });
    },
    update: async (trx, id) => {
      await check(trx);
      await repo.restoreById(trx, auth.businessId, target, parentId, id, row);
    },
  });
}
