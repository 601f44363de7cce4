/**
 * Notes on contracts and settlements (reference: Contract history, Settlement history — the same rules as
 * inquiry text history): list (newest first), create (`content` 1..5000, optional `created` and `member`),
 * retrieve, partialUpdate (`content`, `created`) and destroy (permanent). The parent must be a record of the
 * caller's business, else every operation answers 404.
 */
import type { Db } from '../../db/database.ts';
import { isForeignKeyViolation, nowTimestamp } from '../../db/sql-helpers.ts';
import { NotFound, ValidationError, messages } from '../../shared/errors.ts';
import { type CursorPosition, mapPage, type Page, pageSizeOf } from '../../shared/pagination.ts';
import type { AuthContext } from '../../shared/auth-context.ts';
import { isMember, toNestedMember } from '../catalog/catalog.service.ts';
import * as repo from './note.repository.ts';
import type { Note, NoteCreateBody, NoteListQuery, NoteUpdateBody } from './note.schemas.ts';

type Auth = Pick<AuthContext, 'businessId'>;

/** The record notes hang off: its table, and whether a given id is a record of the business. */
export interface NoteParent {
  target: repo.NoteTarget;
  exists: (db: Db, businessId: number, id: number) => Promise<boolean>;
}

/** Maps a note row (with its member and grade) to the API shape. */
export function toNote(row: repo.NoteRow): Note {
  return {
    id: row.id,
    content: row.content,
    created: row.created,
    member: toNestedMember(row),
  };
}

async function requireParent(db: Db, auth: Auth, parent: NoteParent, parentId: number): Promise<void> {
  if (!(await parent.exists(db, auth.businessId, parentId))) throw new NotFound();
}

/**
 * `GET …/history`: the parent's notes, newest first.
 * @throws NotFound when the parent is not a record of the business
 */
export async function list(
  db: Db,
  auth: Auth,
  parent: NoteParent,
  parentId: number,
  query: NoteListQuery,
  cursor: CursorPosition | undefined,
): Promise<Page<Note>> {
  await requireParent(db, auth, parent, parentId);
  const page = await repo.findPage(db, auth.businessId, parent.target, parentId, pageSizeOf(query), cursor);
  return mapPage(page, toNote);
}

/**
 * `POST …/history`: `created` defaults to now (an offset is accepted and stored in UTC); `member` must be a
 * member of the business.
 * @throws NotFound for a missing parent; ValidationError `{member: {id: […]}}` for an unknown member
 */
export async function create(db: Db, auth: Auth, parent: NoteParent, parentId: number, body: NoteCreateBody): Promise<Note> {
  await requireParent(db, auth, parent, parentId);
  const memberId = body.member?.id ?? null;
  if (memberId !== null && !(await isMember(db, auth.businessId, memberId))) {
    throw ValidationError.at(['member', 'id'], messages.invalidPk(memberId));
  }
  let id: number;
  try {
    id = await repo.insert(db, auth.businessId, parent.target, parentId, {
      content: body.content,
      member_id: memberId,
      created: body.created === undefined ? nowTimestamp() : new Date(body.created).toISOString(),
    });
  } catch (err) {
    // The parent was deleted by a concurrent request after the check above: the same 404 as the check.
    if (isForeignKeyViolation(err)) await requireParent(db, auth, parent, parentId);
    throw err;
  }
  return retrieve(db, auth, parent, parentId, id);
}

/**
 * `GET …/history/{history_id}`.
 * @throws NotFound for a missing parent, or a note that is not the parent's
 */
export async function retrieve(db: Db, auth: Auth, parent: NoteParent, parentId: number, id: number): Promise<Note> {
  await requireParent(db, auth, parent, parentId);
  const row = await repo.findById(db, auth.businessId, parent.target, parentId, id);
  if (!row) throw new NotFound();
  return toNote(row);
}

/** Whether the parent is a record of the business and the note is one of its notes. */
export async function exists(db: Db, auth: Auth, parent: NoteParent, parentId: number, id: number): Promise<boolean> {
  if (!(await parent.exists(db, auth.businessId, parentId))) return false;
  return (await repo.findById(db, auth.businessId, parent.target, parentId, id)) !== undefined;
}

/**
 * `PATCH …/history/{history_id}`: `content` and `created` (the member is not writable).
 * @throws NotFound for a missing parent or note
 */
export async function partialUpdate(
  db: Db,
  auth: Auth,
  parent: NoteParent,
  parentId: number,
  id: number,
  body: NoteUpdateBody,
): Promise<Note> {
  await requireParent(db, auth, parent, parentId);
  const patch: { content?: string; created?: string } = {};
  if (body.content !== undefined) patch.content = body.content;
  if (body.created !== undefined) patch.created = new Date(body.created).toISOString();
  if ((await repo.updateById(db, auth.businessId, parent.target, parentId, id, patch)) === 0) throw new NotFound();
  return retrieve(db, auth, parent, parentId, id);
}

/**
 * `DELETE …/history/{history_id}`: removes the note for good.
 * @throws NotFound for a missing parent or note
 */
export async function destroy(db: Db, auth: Auth, parent: NoteParent, parentId: number, id: number): Promise<void> {
  await requireParent(db, auth, parent, parentId);
  if ((await repo.deleteById(db, auth.businessId, parent.target, parentId, id)) === 0) throw new NotFound();
}
