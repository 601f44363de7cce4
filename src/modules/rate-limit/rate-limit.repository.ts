/**
 * SQL for the shared rate-limit counters (docs/deployment.md#5-several-api-processes-behind-a-load-balancer). Not
 * business-owned: a counter is keyed by API key.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/**
 * Counts one request on `key` in one atomic statement (an upsert, so concurrent processes never lose a hit):
 * a new or expired counter starts a window of `windowMs` at `nowMs` with 1 hit, a live one gains a hit.
 *
 * @returns the hits in the current window and its end (ms since the epoch)
 */
export async function hit(
  db: Db,
  key: string,
  nowMs: number,
  windowMs: number,
): Promise<{ hits: number; resetAt: number }> {
  const resetAt = nowMs + windowMs;
  const row = await db
    .insertInto('rate_limit_counter')
    .values({ key, hits: 1, reset_at: resetAt })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        hits: sql<number>`case when rate_limit_counter.reset_at <= ${nowMs} then 1 else rate_limit_counter.hits + 1 end`,
        reset_at: sql<number>`case when rate_limit_counter.reset_at <= ${nowMs} then ${resetAt} else rate_limit_counter.reset_at end`,
      }),
    )
    .returning(['hits', 'reset_at'])
    .executeTakeFirstOrThrow();
  return { hits: Number(row.hits), resetAt: Number(row.reset_at) };
}

/** Deletes the counters whose window ended before `nowMs`; returns how many. */
export async function deleteExpired(db: Db, nowMs: number): Promise<number> {
  const result = await db.deleteFrom('rate_limit_counter').where('reset_at', '<', nowMs).executeTakeFirst();
  return Number(result.numDeletedRows);
}
