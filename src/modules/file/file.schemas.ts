/**
 * Attachment shapes (docs/api.md#attachments).
 */
import Type, { type Static } from 'typebox';
import { EXAMPLES, IdParam, Timestamp, withExample, Named } from '../../shared/schemas.ts';
import { ALLOWED_EXTENSIONS } from './file-types.ts';

/** Files per inquiry, existing plus added (docs/api.md#attachments). */
export const MAX_FILES_PER_INQUIRY = 30;

/**
 * A file name: 1..255 characters without control characters (they cannot be sent in a header; NUL is
 * refused for every body by the shared validation, with DRF's "Null characters are not allowed.").
 */
const FileName = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '^[^\\u0001-\\u001f\\u007f]*$',
  'x-pattern-message': 'File names may not contain control characters.',
});

const examplePath = '42/9f86d081884c7d659a2feaa0c55ad015.pdf';

/** `POST /v1/presigned` body. */
export const PresignedBody = Named(
  'PresignedRequest',
  Type.Object(
    {
      name: {
        ...FileName,
        description: `The file name with its extension, one of ${ALLOWED_EXTENSIONS.join(', ')} (any letter case).`,
      },
    },
    { examples: [{ name: 'proposal.pdf' }] },
  ),
);
export type PresignedBody = Static<typeof PresignedBody>;

/** `POST /v1/presigned` response: where to `PUT` the bytes, and the path to attach afterwards. */
export const Presigned = Named(
  'Presigned',
  Type.Object({
    url: Type.String({
      format: 'uri',
      description: 'Pre-signed URL that accepts one `PUT` of the file bytes until it expires.',
    }),
    path: Type.String({
      description: 'The object path; send it as `fileSet[].file` when creating or updating an inquiry.',
    }),
  }),
);
export type Presigned = Static<typeof Presigned>;

/** The create response, with its example. */
export const PresignedCreated = withExample(Presigned, {
  url: `https://api.example.com/files/${examplePath}?expires=1795411916&signature=q1bC3vN0a6xH8Gv2YwqjP0m7X9s0pXQW4uKc1eE7fZk`,
  path: examplePath,
});

/** A `fileSet` entry in a request: the display name and the `path` of an uploaded object. */
export const FileSetEntryInput = Named(
  'FileSetEntryRequest',
  Type.Object({
    name: FileName,
    file: Type.String({
      maxLength: 1024,
      description: 'The `path` returned by `POST /v1/presigned`, after the upload.',
    }),
  }),
);
export type FileSetEntryInput = Static<typeof FileSetEntryInput>;

/** A request's `fileSet`: at most 30 entries (on update: existing plus added), or null (no change). */
export const FileSetInput = Type.Unsafe<FileSetEntryInput[] | null>({
  type: ['array', 'null'],
  items: FileSetEntryInput,
  maxItems: MAX_FILES_PER_INQUIRY,
  description:
    'Attachments `{name, file}` where `file` is the `path` of an object uploaded through `POST /v1/presigned`. Create sets them; update appends them (at most 30 per inquiry).',
  examples: [[{ name: 'Proposal.pdf', file: examplePath }]],
});

/** A `fileSet` entry in a response: `file` is a pre-signed download URL that expires. */
export const InquiryFile = Named(
  'InquiryFile',
  Type.Object({
    id: Type.Integer({ description: 'The id for `DELETE /v1/inquiry/{inquiry_id}/file/{file_id}`.' }),
    name: Type.String(),
    file: Type.String({ format: 'uri', description: 'Pre-signed download URL (expires, by default after one hour).' }),
    created: Timestamp,
  }),
);
export type InquiryFile = Static<typeof InquiryFile>;

/** An example `fileSet` item, for the inquiry operations' examples. */
export const INQUIRY_FILE_EXAMPLE: InquiryFile = {
  id: 7,
  name: 'Proposal.pdf',
  file: `https://api.example.com/files/${examplePath}?expires=1795415516&name=Proposal.pdf&signature=Xc2v8Jw1m0H5kq9LzR4tYpB7nA3sD6fG2hJ8kL0zQwE`,
  created: EXAMPLES.created,
};

/** Path parameters of `/v1/inquiry/{inquiry_id}/file/{file_id}`. */
export const InquiryFileParams = Type.Object({ inquiry_id: IdParam, file_id: IdParam });
