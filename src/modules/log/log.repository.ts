/** SQL for the API call log (docs/api.md#api-call-log). */
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/sql-helpers.ts';
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

/** Rows per INSERT statement: 10 columns × 200 rows stays far below SQLite's and PostgreSQL's parameter limits. */
const INSERT_CHUNK = 200;

/**
 * Inserts log rows of any businesses (each row carries its own `business_id`), in as few statements as
 * possible, in one transaction. The only repository function not scoped to one business: the batch writer flushes the calls of
 * every business at once.
 */
export async function insertMany(db: Db, rows: readonly NewApiLogRow[]): Promise<void> {
  if (rows.length === 0) return;
  // One transaction: one commit (one fsync) per batch, and a batch that fails is not half written before the
  // writer retries it whole.
  await inTransaction(db, async (trx) => {
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      // Every row names every column (SQLite has no DEFAULT inside a multi-row VALUES).
      const chunk = rows.slice(i, i + INSERT_CHUNK).map((r) => ({ ...r, idempotent_replayed: r.idempotent_replayed ?? null }));
      await trx.insertInto('api_log').values(chunk).execute();
    }
  });
}

/**
 * Deletes up to `limit` rows of a business created before `cutoff` (through the `(business_id, created, id)`
 * index); returns how many it deleted. Callers repeat until it returns less than `limit`.
 */
export async function deleteCreatedBefore(db: Db, businessId: number, cutoff: Timestamp, limit: number): Promise<number> {
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

/** Ids of every business, ascending (the purge visits them one by one). */
export async function findBusinessIds(db: Db): Promise<number[]> {
  const rows = await db.selectFrom('business').select('id').orderBy('id').execute();
  return rows.map((r) => r.id);
}
