/**
 * The "restore this shape with this id" contract every module's service offers to the transfer module
 * (`bizapi import` / `bizapi export`, docs/deployment.md#11-moving-a-business-in-and-out).
 *
 * A module's `restore…` function receives one record as its full API shape (what `GET /v1/<resource>/{id}`
 * answers, camelCase, `created` and `updated` included when the source sends them) whose nested references
 * (client, inquiry, contract, member, status, category, field, option ids) the caller has already rewritten
 * to this server's ids, and writes it so that the same `GET` here answers the same JSON (download URLs
 * apart). Rules every implementation follows:
 *
 * - `targetId` given (the transfer module's id map already knows the record): the row is brought to the
 *   shape in place; `unchanged` when it already equals it, else `updated`. A soft-deleted or missing target
 *   row is re-created under the same id.
 * - `targetId` absent: the row is inserted with `shape.id` when it is a positive integer no row of that table
 *   (any business, live or soft-deleted) has, otherwise with a new id (so `id: 0` asks for a new one); `created`.
 * - Quiet: no event, no notification, no e-mail, no outbox row, no webhook delivery.
 * - Timestamps kept: `created` as given (missing: the time of the import); `updated` as given, else `created`.
 * - Validated as the API validates: the body a restore derives from the shape passes the resource's own
 *   request schema (field limits, types, formats; `checkRestore` in restore-record.ts); a value the API
 *   would refuse is a `ValidationError`, and nothing of the record is written
 *   (docs/deployment.md#what-an-import-refuses).
 * - One transaction per record (its sets included), so a kill between two records leaves whole records.
 */

/** What a restore did to one record. */
export type RestoreOutcome = 'created' | 'updated' | 'unchanged';

/** The answer of a module's `restore…` function: the record's id on this server and what happened. */
export interface RestoreResult {
  id: number;
  outcome: RestoreOutcome;
}

/** Options of a module's `restore…` function (see the module docstring for the rules). */
export interface RestoreOptions {
  /** The record's id on this server when an earlier run already restored it. */
  targetId?: number | undefined;
  /**
   * Check only (`bizapi import --dry-run`): run the checks that need no database (the API's validation of
   * every value) and answer `{id: shape.id, outcome: 'created'}` without reading or writing anything.
   */
  checkOnly?: boolean | undefined;
}
