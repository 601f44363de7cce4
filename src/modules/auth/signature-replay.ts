/**
 * The replay cache of signature version 2 (docs/authentication.md#signature-version-2): every
 * accepted version-2 signature is remembered until the end of the window its timestamp was valid in, and a
 * second use of it is refused (`signature_replayed`), whichever process sees it.
 *
 * Shared by every process: the `signature_replay` table (its primary key makes exactly one INSERT of a
 * signature win), or Redis (`SET … NX PX`) when `REDIS_URL` is configured. When Redis fails, the cache falls
 * back to the database for that call, so a replay is never let through because Redis is down.
 */
import type { Redis } from 'ioredis';
import type { Db } from '../../db/database.ts';

/** Remembers signatures; {@link ReplayCache.firstUse} is atomic across processes. */
export interface ReplayCache {
  /**
   * Records `signature` until `expiresAtMs`.
   * @returns true the first time, false when it was recorded before (a replay)
   */
  firstUse(signature: string, expiresAtMs: number, nowMs: number): Promise<boolean>;
}

/** The cache in the database: one INSERT, the primary key rejects a second one. */
export function databaseReplayCache(db: Db): ReplayCache {
  return {
    async firstUse(signature, expiresAtMs) {
      const row = await db
        .insertInto('signature_replay')
        .values({ signature, expires_at: expiresAtMs })
        .onConflict((oc) => oc.column('signature').doNothing())
        .returning('signature')
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}

/** The cache in Redis (`SET key 1 PX ttl NX`), the database when Redis fails. */
export function redisReplayCache(redis: Redis, fallback: ReplayCache, onError: (err: unknown) => void): ReplayCache {
  return {
    async firstUse(signature, expiresAtMs, nowMs) {
      try {
        const ttl = Math.max(1, expiresAtMs - nowMs);
        const set = await redis.set(`bizapi-signature:${signature}`, '1', 'PX', ttl, 'NX');
        return set === 'OK';
      } catch (err) {
        onError(err);
        return fallback.firstUse(signature, expiresAtMs, nowMs);
      }
    },
  };
}

/** Deletes the remembered signatures whose window ended before `nowMs`; returns how many. */
export async function deleteExpiredSignatures(db: Db, nowMs: number): Promise<number> {
  const result = await db.deleteFrom('signature_replay').where('expires_at', '<', nowMs).executeTakeFirst();
  return Number(result.numDeletedRows);
}
