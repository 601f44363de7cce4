/**
 * Cascades (docs/api.md#cascades): a write that changes the API shape of records of another resource —
 * renaming a client changes the `client` its inquiries and contracts nest — writes an event for each of
 * them. The module that owns those records does it, in a cascade function of its service; the module whose
 * write causes it receives the cascade when its service is built, by the composition root (src/services.ts),
 * so that modules keep importing one way (docs/api.md#events) and one file shows who reacts to what.
 */
import type { Db } from '../db/database.ts';
import type { AuthContext } from './auth-context.ts';

/** The business a cascade writes in (its time zone: for the shapes its events carry). */
export type CascadeAuth = Pick<AuthContext, 'businessId' | 'timezone'>;

/**
 * Writes, in the caller's transaction `trx`, the events of the records of one resource of business
 * `auth.businessId` whose API shape nests record `id` of another and has just changed with it (set-based: one
 * UPDATE stamping `updated`, one read of the full shapes, one insert of the events; nothing but the UPDATE
 * when there are none). `files` is the caller's file context (the file module's `FileContext`, opaque here),
 * which signs the download URLs of the shapes where they have any (inquiries); `undefined` where the caller has
 * none.
 */
export type Cascade<Files = unknown> = (
  trx: Db,
  auth: CascadeAuth,
  id: number,
  files: Files | undefined,
) => Promise<void>;

/**
 * The delete of record `id` that takes records of another resource with it (docs/api.md#cascades): deletes
 * them in the caller's transaction `trx` and answers the writer of their delete events, which the caller runs
 * after the rest of its deletes, so that a delete's statements keep their order (every DELETE, then every
 * event: the order PostgreSQL takes their locks in).
 */
export type DeleteCascade = (trx: Db, auth: CascadeAuth, id: number) => Promise<() => Promise<void>>;
