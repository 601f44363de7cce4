/**
 * Dialect-neutral SQL pieces shared by every repository.
 *
 * Runtime types are pinned so both databases hand back the same JavaScript values (see create-db.ts):
 * date-times are ISO 8601 strings in UTC with milliseconds, dates `YYYY-MM-DD` strings, booleans 0 / 1,
 * integers numbers.
 */
import {
  type Expression,
  type ExpressionBuilder,
  isExpression,
  type RawBuilder,
  type SelectQueryBuilder,
  type Simplify,
  SqliteAdapter,
  type SqlBool,
  sql,
  type Transaction,
} from 'kysely';
import { jsonArrayFrom as pgJsonArrayFrom } from 'kysely/helpers/postgres';
import { jsonArrayFrom as sqliteJsonArrayFrom } from 'kysely/helpers/sqlite';
import type { Database, Db } from './database.ts';

import type { Bool, Timestamp } from './columns.ts';

/** Converts a JavaScript boolean to the stored form. */
export function toBool(value: boolean): Bool {
  return value ? 1 : 0;
}

/** The current instant as a {@link Timestamp}. */
export function nowTimestamp(): Timestamp {
  return new Date().toISOString();
}

/** A select query over any tables (the nested-set subqueries of a full shape). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kysely's own JSON helpers take any tables
type AnySelect<O> = SelectQueryBuilder<any, any, O>;

/** Whether `db` (a handle or a transaction) is PostgreSQL; otherwise it is SQLite. */
export function isPostgres(db: Db): boolean {
  return !(db.getExecutor().adapter instanceof SqliteAdapter);
}

/**
 * The rows of `query` (typically a correlated subquery of one nested set: an inquiry's works, a record's
 * field values) as one JSON array column of the outer query, `[]` when there are none: a record's full
 * shape is then one statement (the lean write path, docs/api.md#events). PostgreSQL renders the nested
 * values with `to_json` (timestamps as `2026-11-26T10:00:00.123+00:00`, booleans as `true`/`false`): map
 * them with {@link jsonTimestamp} and `Boolean(…)`; SQLite gives the stored values as they are.
 */
export function jsonArrayOf<O>(db: Db, query: AnySelect<O>): RawBuilder<Simplify<O>[]> {
  return (isPostgres(db) ? pgJsonArrayFrom(query) : sqliteJsonArrayFrom(query)) as unknown as RawBuilder<Simplify<O>[]>;
}

/**
 * The value of a {@link jsonArrayOf} / {@link jsonObjectOf} column as read: SQLite hands the JSON back as
 * text, PostgreSQL already parsed. `T` is the caller's claim about its shape.
 */
export function fromJsonColumn<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/**
 * A timestamp read from a JSON column of {@link jsonArrayOf} in the pinned form (ISO 8601, UTC,
 * milliseconds, `Z`): PostgreSQL's `to_json` writes the offset form.
 */
export function jsonTimestamp(value: string): Timestamp {
  return value.endsWith('Z') && value.length === 24 ? value : new Date(value).toISOString();
}

/** The strength of a write path's row lock on PostgreSQL ({@link forUpdateOf}): `NO KEY UPDATE`, or `UPDATE` for a change others nest. */
export type RowLock = 'no key update' | 'update';

/**
 * `query … FOR NO KEY UPDATE OF table` on PostgreSQL, the query unchanged on SQLite, where the transaction's
 * `BEGIN IMMEDIATE` holds the database's write lock already: the lean write path's lock is the read of the
 * record's current shape (docs/api.md#events), not a separate statement. `NO KEY`: concurrent writers of
 * the same row wait, as the UPDATE that follows would make them, while inserts of rows that refer to it
 * (its notes) do not.
 *
 * `lock: 'update'` takes `FOR UPDATE OF table` instead, which also makes inserts of rows that refer to it
 * wait (their foreign-key check's `KEY SHARE` conflicts): for a change that others nest (a cascade,
 * docs/api.md#cascades), so that a record created meanwhile with a reference to it reads its new summary
 * after the change commits, instead of committing the old one unseen by the cascade.
 */
export function forUpdateOf<Q extends AnySelect<unknown>>(
  db: Db,
  query: Q,
  table: string,
  lock: RowLock = 'no key update',
): Q {
  if (!isPostgres(db)) return query;
  return (lock === 'update' ? query.forUpdate(table as never) : query.forNoKeyUpdate(table as never)) as Q;
}

/**
 * The entries of `patch` whose value differs from the same key of `current` (a row as read): what an UPDATE
 * must write. Values compare as JSON (`1` and `1`, `null` and `null` are the same; a key `current` lacks
 * always differs). An empty answer means the patch changes no column.
 */
export function changedColumns<T extends Record<string, unknown>>(
  current: Record<string, unknown>,
  patch: T,
): Partial<T> {
  const out: Partial<T> = {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (!(key in current) || JSON.stringify(current[key]) !== JSON.stringify(value))
      (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

/** Escapes `\`, `%` and `_` so a search term matches literally inside `LIKE … ESCAPE '\'`. */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * `lower(column) LIKE lower('%term%') ESCAPE '\'`: a case-insensitive substring match in which `%` and `_`
 * are literal (docs/api.md#filters). Works on SQLite and PostgreSQL.
 */
export function containsInsensitive(column: Expression<string | null>, term: string): Expression<SqlBool> {
  return sql<SqlBool>`lower(${column}) like lower(${`%${escapeLike(term)}%`}) escape '\\'`;
}

/**
 * Every `search` term must match (AND); a term matches when it is a substring of any of `columns` (OR).
 * Returns `undefined` when there are no terms.
 */
export function searchAll<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  terms: readonly string[],
  columns: readonly Expression<string | null>[],
): Expression<SqlBool> | undefined {
  if (terms.length === 0) return undefined;
  return eb.and(terms.map((t) => eb.or(columns.map((c) => containsInsensitive(c, t)))));
}

/**
 * The FTS5 MATCH text of a search (`"t1" AND "t2"`, terms of at least 3 characters, quotes doubled), or
 * `undefined` on PostgreSQL and when no term is long enough for a trigram index.
 */
export function trigramMatch(db: Db, terms: readonly string[]): string | undefined {
  if (isPostgres(db)) return undefined;
  const long = terms.filter((t) => [...t].length >= 3);
  if (long.length === 0) return undefined;
  return long.map((t) => `"${t.replaceAll('"', '""')}"`).join(' AND ');
}

/**
 * Groups rows by business: business id → the ids of its rows, in the order given (the background work that
 * reads across businesses and then writes one business per statement: docs/deployment.md#background-work-on-citus).
 */
export function idsByBusiness(
  rows: readonly { business_id: number | string; id: number | string }[],
): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const r of rows) {
    const ids = out.get(Number(r.business_id));
    if (ids === undefined) out.set(Number(r.business_id), [Number(r.id)]);
    else ids.push(Number(r.id));
  }
  return out;
}

/**
 * Deletes up to `limit` rows of `table` (any business) created before `before`, oldest first; returns how
 * many. The rows are read across businesses first, then deleted one business per statement (`WHERE
 * business_id = … AND id IN (…)`): on Citus each delete runs on that business's shard, and no statement
 * locks rows of several businesses (docs/deployment.md#background-work-on-citus). A batch of
 * {@link deleteInBatches}.
 */
export async function deleteCreatedBeforeByBusiness(
  db: Db,
  table: 'event' | 'webhook_delivery',
  before: string,
  limit: number,
): Promise<number> {
  const rows = await db
    .selectFrom(table)
    .select(['business_id', 'id'])
    .where('created', '<', before)
    .orderBy('created')
    .limit(limit)
    .execute();
  let deleted = 0;
  for (const [businessId, ids] of idsByBusiness(rows)) {
    const result = await db
      .deleteFrom(table)
      .where('business_id', '=', businessId)
      .where('id', 'in', ids)
      .executeTakeFirst();
    deleted += Number(result.numDeletedRows);
  }
  return deleted;
}

/** Rows deleted per statement by {@link deleteInBatches}: no statement holds its locks for long. */
export const DELETE_BATCH = 5000;

/**
 * The retention purges' loop (docs/api.md#events, docs/api.md#api-call-log, docs/webhooks.md#delivery): calls
 * `deleteBatch(limit)` — a statement deleting at most `limit` rows, returning how many it deleted — until one
 * deletes fewer than `limit`. Each batch is its own statement (autocommit), so the loop is safe to run from
 * several processes at once.
 * @returns the number of rows deleted in all
 */
export async function deleteInBatches(
  deleteBatch: (limit: number) => Promise<number>,
  limit: number = DELETE_BATCH,
): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteBatch(limit);
    total += deleted;
    if (deleted < limit) return total;
  }
}

/**
 * Runs `fn` in a transaction: a new one on the database, or the caller's when `db` already is one (so a
 * service can be composed into a larger unit of work, such as the demo business).
 */
export async function inTransaction<T>(db: Db, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db as Transaction<Database>) : db.transaction().execute(fn);
}

/**
 * Whether `error` is a violation of the unique index or constraint `name` (PostgreSQL: SQLSTATE 23505 on
 * that constraint) or, on SQLite, of a unique index over exactly `columns` (`table.column` as SQLite names
 * them in "UNIQUE constraint failed: …"). Lets a service turn a lost race into a 400 instead of a 500. On
 * Citus the constraint is the shard's, `<name>_<shard id>`, named in the message only: it counts as `name`.
 */
export function isUniqueViolation(error: unknown, name: string, columns: readonly string[]): boolean {
  const e = error as { code?: unknown; constraint?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.code === '23505') {
    // Citus reports the shard's constraint, `<name>_<shard id>`, and in the message only (no constraint field)
    const constraint =
      typeof e.constraint === 'string'
        ? e.constraint
        : typeof e.message === 'string'
          ? /constraint "([^"]+)"/.exec(e.message)?.[1]
          : undefined;
    return (
      constraint === name ||
      (constraint !== undefined && constraint.startsWith(`${name}_`) && /^\d+$/.test(constraint.slice(name.length + 1)))
    );
  }
  if (e.code === 'SQLITE_CONSTRAINT_UNIQUE' && typeof e.message === 'string') {
    return e.message === `UNIQUE constraint failed: ${columns.join(', ')}`;
  }
  return false;
}

/**
 * Whether `error` is a foreign-key violation (PostgreSQL: SQLSTATE 23503; SQLite:
 * `SQLITE_CONSTRAINT_FOREIGNKEY`, which does not name the constraint). A write that references a record a
 * concurrent request deleted between the service's check and its insert fails so; the service re-checks the
 * reference and answers the same 400 or 404 as the check before it, instead of a 500.
 */
export function isForeignKeyViolation(error: unknown): boolean {
  const e = error as { code?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  return e.code === '23503' || e.code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/**
 * Whether any row of `table` (any business, soft-deleted included) has this id: the "is the source's id
 * free here" test of a restore (src/shared/restore.ts, docs/deployment.md#11-moving-a-business-in-and-out).
 */
export async function idTaken(db: Db, table: string, id: number): Promise<boolean> {
  const { rows } = await sql<{ id: number }>`select id from ${sql.table(table)} where id = ${id}`.execute(db);
  return rows.length > 0;
}

/**
 * After rows were inserted with explicit ids (a restore), moves PostgreSQL's identity sequence of
 * `table.id` past the largest id, so the next ordinary insert cannot collide; a no-op on SQLite, whose
 * `autoincrement` already follows the largest id.
 */
export async function advanceIdSequence(db: Db, table: string): Promise<void> {
  if (!isPostgres(db)) return;
  const seq = sql`pg_get_serial_sequence(${table}, 'id')::regclass`;
  await sql`select setval(${seq}, greatest((select coalesce(max(id), 0) from ${sql.table(table)}), coalesce(pg_sequence_last_value(${seq}), 0), 1), true)`.execute(
    db,
  );
}

/**
 * One row to insert as a `SELECT` without `FROM` (for `insertInto(t).columns(…).expression(…)`): `INSERT …
 * SELECT $1, (subquery), …` instead of `INSERT … VALUES ($1, (subquery), …)`. The same single statement,
 * but Citus refuses a subquery inside `VALUES` ("subqueries are not supported within INSERT queries") and
 * takes `INSERT … SELECT` (docs/deployment.md#10-beyond-one-postgresql-server-citus-distributed-by-business_id).
 * PostgreSQL types the parameters from the target columns. Values that are `undefined` are left out (their
 * column takes its default).
 * @returns the column names (in order) and the select
 */
export function rowAsSelect(
  db: Db,
  row: Readonly<Record<string, unknown>>,
): { columns: string[]; select: AnySelect<Record<string, unknown>> } {
  const entries = Object.entries(row).filter(([, v]) => v !== undefined);
  const select = db.selectNoFrom((eb) =>
    entries.map(([k, v]) => (isExpression(v) ? sql<unknown>`(${v})`.as(k) : eb.val(v).as(k))),
  );
  return { columns: entries.map(([k]) => k), select: select as AnySelect<Record<string, unknown>> };
}
