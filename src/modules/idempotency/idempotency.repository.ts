/** SQL for `Idempotency-Key` claims and stored answers (docs/api.md#idempotent-retries). */
import type { Db } from '../../db/database.ts';

/** A row as the claim reads it. */
export interface IdempotencyRow {
  id: number;
  fingerprint: string;
  claim_token: string;
  locked_until: number;
  expires_at: number;
  status_code: number | null;
  response_headers: string | null;
  response_body: string | null;
}

/** Values of a new (or taken over) claim. */
export interface ClaimValues {
  fingerprint: string;
  claimToken: string;
  lockedUntil: number;
  expiresAt: number;
}

/**
 * Inserts the claim of (`businessId`, `key`) unless a row exists: the unique constraint makes exactly one
 * concurrent INSERT win, on both dialects and across processes.
 * @returns the new row's id, or `undefined` when the key was already there
 */
export async function insertClaim(
  db: Db,
  businessId: number,
  key: string,
  v: ClaimValues,
): Promise<number | undefined> {
  const row = await db
    .insertInto('idempotency_key')
    .values({
      business_id: businessId,
      key,
      fingerprint: v.fingerprint,
      claim_token: v.claimToken,
      locked_until: v.lockedUntil,
      expires_at: v.expiresAt,
    })
    .onConflict((oc) => oc.columns(['business_id', 'key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** The row of (`businessId`, `key`), if any. */
export async function find(db: Db, businessId: number, key: string): Promise<IdempotencyRow | undefined> {
  const row = await db
    .selectFrom('idempotency_key')
    .select([
      'id',
      'fingerprint',
      'claim_token',
      'locked_until',
      'expires_at',
      'status_code',
      'response_headers',
      'response_body',
    ])
    .where('business_id', '=', businessId)
    .where('key', '=', key)
    .executeTakeFirst();
  if (!row) return undefined;
  return { ...row, locked_until: Number(row.locked_until), expires_at: Number(row.expires_at) };
}

/**
 * Takes over row `id` when it still holds the claim token `previousToken` (compare-and-swap: of several
 * processes taking over the same expired row, one wins). Clears any stored answer.
 * @returns whether this call took it
 */
export async function takeOver(db: Db, id: number, previousToken: string, v: ClaimValues): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_key')
    .set({
      fingerprint: v.fingerprint,
      claim_token: v.claimToken,
      locked_until: v.lockedUntil,
      expires_at: v.expiresAt,
      status_code: null,
      response_headers: null,
      response_body: null,
    })
    .where('id', '=', id)
    .where('claim_token', '=', previousToken)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Stores the answer on the claim `id` / `token` (nothing when another process took the row over). */
export async function storeAnswer(
  db: Db,
  id: number,
  token: string,
  status: number,
  headers: string,
  body: string,
): Promise<void> {
  await db
    .updateTable('idempotency_key')
    .set({ status_code: status, response_headers: headers, response_body: body })
    .where('id', '=', id)
    .where('claim_token', '=', token)
    .execute();
}

/** Deletes the claim `id` / `token` (nothing when another process took the row over). */
export async function deleteClaim(db: Db, id: number, token: string): Promise<void> {
  await db.deleteFrom('idempotency_key').where('id', '=', id).where('claim_token', '=', token).execute();
}

/** Deletes every row expired at `nowMs`; returns how many. */
export async function deleteExpired(db: Db, nowMs: number): Promise<number> {
  const result = await db.deleteFrom('idempotency_key').where('expires_at', '<=', nowMs).executeTakeFirst();
  return Number(result.numDeletedRows);
}
