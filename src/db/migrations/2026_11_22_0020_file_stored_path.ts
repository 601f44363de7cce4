/**
 * Sealed attachments (decisions §7 "Files"; issue 3, item 3): `file.stored_path` is the storage key an
 * attached file's bytes are served from when it is not the upload `path` itself. With S3 the upload URL
 * cannot be limited to one `PUT`, so attaching copies the uploaded object to a new key that no URL can
 * write (see `S3Storage.seal`), and the file is served from that copy from then on. `null`: the bytes are
 * served from `path` (the local storage, whose upload URL accepts a single `PUT`, and files stored before).
 *
 * Frozen: never edit after it has landed; add a new migration instead. Imports nothing from `src/`.
 * Same schema on SQLite and PostgreSQL: one nullable `text` column, no index (it is read by file id).
 */
import type { Kysely } from 'kysely';

/** Adds `file.stored_path`. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('file').addColumn('stored_path', 'text').execute();
}

/** Drops `file.stored_path`. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('file').dropColumn('stored_path').execute();
}
