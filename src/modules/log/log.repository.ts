/** SQL for the API call log (docs/api.md#api-call-log). */
import { CompiledQuery } from 'kysely';
import type { Db } from '../../db/database.ts';
import { inTransaction, isPostgres } from '../../db/sql-helpers.ts';
import type { Timestamp } from '../../db/columns.ts';
import { type CursorPosition, fetchPage, newestFirst, type Page } from '../../shared/pagination.ts';
import type { NewApiLogRow } from '../../db/tables/log.table.ts';

const columns = [
  'id',
  'ip_address',
  'method',
  'path',
  'referrer',
  'status_code',
  'request_body',
  'response_body',
  'created',
  'idempotent_replayed',
] as const;

/** A log row as the list reads it. */
export type ApiLogRow = Awaited<ReturnType<ReturnType<typeof selectRows>['executeTakeFirstOrThrow']>>;
function selectRows(db: Db, businessId: number) {
  return db.selectFrom('api_log').select(columns).where('business_id', '=', businessId);
}

/** One page of a business's log rows created at or after `since`, newest first. */
export async function findPage(
  db: Db,
  businessId: number,
  since: Timestamp,
  size: number,
  cursor: CursorPosition | undefined,
): Promise<Page<ApiLogRow>> {
  const q = selectRows(db, businessId).where('created', '>=', since);
  return fetchPage(q, newestFirst<ApiLogRow>('api_log'), size, cursor);
}

/** Rows per INSERT statement: bounds the one JSON parameter (rows are at most ~130 KiB each, bodies truncated). */
const INSERT_CHUNK = 500;

/** The columns a log row is written with, in the order of the statements below. */
const INSERT_COLUMNS = [
  'business_id',
  'ip_address',
  'method',
  'path',
  'referrer',
  'status_code',
  'request_body',
  'response_body',
  'created',
  'idempotent_replayed',
] as const;

/**
 * One INSERT of any number of rows passed as one JSON array (`[[business_id, ip_address, …], …]` in
 * {@link INSERT_COLUMNS} order): the SQL text never changes with the batch's size, so each dialect prepares
 * it once (the SQLite statement cache, a named statement on PostgreSQL) and no query with thousands of
 * placeholders is built, compiled or cached per flush.
 */
const INSERT_SQL = {
  sqlite: `INSERT INTO api_log (${INSERT_COLUMNS.join(', ')}) SELECT ${INSERT_COLUMNS.map((_, i) => `value ->> ${i}`).join(', ')} FROM json_each(?)`,
  postgres:
    `INSERT INTO api_log (${INSERT_COLUMNS.join(', ')}) SELECT (r ->> 0)::integer, r ->> 1, r ->> 2, r ->> 3, r ->> 4, r ->> 5, r ->> 6, r ->> 7, ` +
    '(r ->> 8)::timestamptz, (r ->> 9)::integer FROM json_array_elements($1::json) AS r',
};

/**
 * Inserts log rows of any businesses (each row carries its own `business_id`) in one transaction, with one
 * statement per {@link INSERT_CHUNK} rows (one for a usual flush). The only repository function not scoped
 * to one business: the batch writer flushes the calls of every business at once (docs/api.md#api-call-log).
 * @throws the database's error when a row cannot be written (the writer then retries rows one by one)
 */
export async function insertMany(db: Db, rows: readonly NewApiLogRow[]): Promise<void> {
  if (rows.length === 0) return;
  const postgres = isPostgres(db);
  // One transaction: one commit (one fsync) per batch, and a batch that fails is not half written before the
  // writer retries it whole.
  await inTransaction(db, async (trx) => {
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      const chunk = rows.slice(i, i + INSERT_CHUNK).map((r) => INSERT_COLUMNS.map((c) => r[c] ?? null));
      await trx.executeQuery(
        CompiledQuery.raw(postgres ? INSERT_SQL.postgres : INSERT_SQL.sqlite, [JSON.stringify(chunk)]),
      );
    }
  });
}

/**
 * Deletes up to `limit` rows of a business created before `cutoff` (through the `(business_id, created, id)`
 * index); returns how many it deleted. Callers repeat until it returns less than `limit`.
 */
export async function deleteCreatedBefore(
  db: Db,
  businessId: number,
  cutoff: Timestamp,
  limit: number,
): Promise<number> {
  const result = await db
    .deleteFrom('api_log')
    .where('business_id', '=', businessId)
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('api_log')
        .select('id')
        .where('business_id', '=', businessId)
        .where('created', '<', cutoff)
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
