/**
 * Cascades (docs/api.md#cascades): a write that changes the API shape of records of another resource —
 * renaming a client changes the `client` its inquiries and contracts nest — writes an event for each of
 * them. The module that owns those records does it; the module whose write causes it receives the work as
 * a {@link Cascade}, handed in by its routes, so that modules keep importing one way (docs/api.md#events).
 */
import type { Db } from '../db/database.ts';

/**
 * Writes, in the caller's transaction `trx`, the events of the records of one resource whose API shape
 * nests record `id` of another and has just changed with it (set-based: one UPDATE stamping `updated`, one
 * read of the full shapes, one insert of the events; nothing but the UPDATE when there are none).
 */
export type Cascade = (trx: Db, id: number) => Promise<void>;

/**
 * The delete of record `id` that takes records of another resource with it (docs/api.md#cascades): deletes
 * them in the caller's transaction `trx` and answers the writer of their delete events, which the caller runs
 * after the rest of its deletes, so that a delete's statements keep their order (every DELETE, then every
 * event: the order PostgreSQL takes their locks in).
 */
export type DeleteCascade = (trx: Db, id: number) => Promise<() => Promise<void>>;
