/**
 * Note shapes: the text "history" of contracts and settlements (docs/api.md#contracts, docs/api.md#settlements;
 * the same shape as inquiry text history, docs/api.md#inquiries): `{id, content, created, member}`.
 */
import Type, { type Static } from 'typebox';
import { PageQueryProperties } from '../../shared/pagination.ts';
import {
  EXAMPLES,
  IdParam,
  Member,
  Nullable,
  Page,
  Timestamp,
  UpdatedProperty,
  UpdatedQueryProperties,
  withExample,
  Named,
} from '../../shared/schemas.ts';

/** Note text: 1..5000 characters (docs/api.md#contracts). */
const content = Type.String({ minLength: 1, maxLength: 5000 });

/** `POST …/history` body: `content` required; `created` (any offset, stored in UTC) and `member {id}` optional. */
export const NoteCreateBody = Named(
  'NoteRequest',
  Type.Object(
    {
      content,
      created: Type.Optional(Timestamp),
      member: Type.Optional(
        Nullable(
          Type.Object({ id: IdParam }, { description: 'The member who wrote the note `{id}`; omitted or null: none.' }),
        ),
      ),
    },
    { examples: [{ content: 'Called the client about the second invoice.', member: { id: 1 } }] },
  ),
);
export type NoteCreateBody = Static<typeof NoteCreateBody>;

/** `PATCH …/history/{history_id}` body: `content` and `created` (the member is not writable). */
export const NoteUpdateBody = Named(
  'PatchedNoteRequest',
  Type.Object(
    { content: Type.Optional(content), created: Type.Optional(Timestamp) },
    { examples: [{ content: 'Called the client; the invoice is paid.' }] },
  ),
);
export type NoteUpdateBody = Static<typeof NoteUpdateBody>;

const noteProperties = {
  id: Type.Integer(),
  content: Type.String(),
  created: Timestamp,
  member: Nullable(Member),
};

/** A note as the create response and list items show it; `member` is null when none was named. */
export const Note = Named('Note', Type.Object(noteProperties));
export type Note = Static<typeof Note>;

/** The full shape (retrieve, update): the note with `updated` (docs/api.md#events). */
export const NoteFull = Named('NoteDetail', Type.Object({ ...noteProperties, updated: UpdatedProperty }));
export type NoteFull = Static<typeof NoteFull>;

const noteExample = {
  id: 7,
  content: 'Called the client about the second invoice.',
  created: EXAMPLES.created,
  member: EXAMPLES.member,
};

/** The create response, with its example. */
export const NoteCreated = withExample(Note, noteExample);

/** The retrieve / update response, with its example. */
export const NoteDetail = withExample(NoteFull, { ...noteExample, updated: EXAMPLES.created });

/** A page of notes, newest first. */
export const NotePage = withExample(Page(Note), { next: null, previous: null, results: [noteExample] });

/** Query of a note list: `cursor`, `page_size` (alias `limit`), `updated_start` / `updated_end` (docs/api.md#events). */
export const NoteListQuery = Type.Object({ ...PageQueryProperties, ...UpdatedQueryProperties });
export type NoteListQuery = Static<typeof NoteListQuery>;
