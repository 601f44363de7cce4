/** Row types of the `file` and `inquiry_file` tables (migrations 2026_11_22_0003 and 0020). */
import type { Generated, Insertable, Selectable } from 'kysely';
import type { Timestamp } from '../columns.ts';

/**
 * An object issued by `POST /v1/presigned` (docs/api.md#attachments). `path` is the storage key
 * (`<business_id>/<32 hex>.<ext>`, unique); `name` the file name given to the presign call; `content_type`
 * the media type of its extension. `expires_at` ends the upload URL's validity. `upload_started_at` is set
 * while one upload is being received (the claim that makes the URL single-use) and cleared again when that
 * upload fails; `uploaded_at` and `size` (bytes) are set once the bytes are stored, or, with S3, when a
 * `fileSet` entry first names the path and the bytes are sealed (`Storage.seal`). `stored_path` is the key
 * the bytes are served from from then on when it is not `path` (S3: the sealed copy under `attached/`);
 * `null` means `path` itself.
 */
export interface FileTable {
  id: Generated<number>;
  business_id: number;
  path: string;
  name: string;
  content_type: string;
  size: number | null;
  created: Timestamp;
  expires_at: Timestamp;
  upload_started_at: Timestamp | null;
  uploaded_at: Timestamp | null;
  stored_path: Generated<string | null>;
}
export type FileRow = Selectable<FileTable>;
export type NewFileRow = Insertable<FileTable>;

/**
 * A file attached to an inquiry (`fileSet`; docs/api.md#attachments): the uploaded object `file_id` (attached at most
 * once) under the display `name` of the request. Its `id` is the `file_id` of
 * `DELETE /v1/inquiry/{inquiry_id}/file/{file_id}`.
 */
export interface InquiryFileTable {
  id: Generated<number>;
  business_id: number;
  inquiry_id: number;
  file_id: number;
  name: string;
  created: Timestamp;
}
