/** SQL for businesses and API keys. API keys are looked up by the SHA-256 of the key, never by the key. */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { AUTH_CHANNEL } from './key-cache.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import type { Timestamp } from '../../db/columns.ts';
import type {
  ApiKeyRow,
  BusinessRow,
  McpTokenRow,
  NewApiKeyRow,
  NewBusinessRow,
  NewMcpTokenRow,
} from '../../db/tables/auth.table.ts';

const businessColumns = ['id', 'name', 'plan', 'timezone', 'created'] as const;

/** Inserts a business and returns it. */
export async function insertBusiness(db: Db, row: NewBusinessRow): Promise<BusinessRow> {
  return db.insertInto('business').values(row).returning(businessColumns).executeTakeFirstOrThrow();
}

/** The business with this id, or `undefined`. */
export async function findBusinessById(db: Db, businessId: number): Promise<BusinessRow | undefined> {
  return db.selectFrom('business').select(businessColumns).where('id', '=', businessId).executeTakeFirst();
}

/** Every business with its creation time, by id. */
export async function findAllBusinesses(db: Db): Promise<BusinessRow[]> {
  return db.selectFrom('business').select(businessColumns).orderBy('id').execute();
}

/** Whether any business exists (used to decide whether to create the demo business). */
export async function existsAnyBusiness(db: Db): Promise<boolean> {
  return (await db.selectFrom('business').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/**
 * Locks the business row `FOR NO KEY UPDATE` until the end of the caller's transaction (PostgreSQL only; the
 * body of auth.service `lockBusiness`).
 */
export async function lockBusinessById(trx: Db, businessId: number): Promise<void> {
  await trx.selectFrom('business').select('id').where('id', '=', businessId).forNoKeyUpdate().execute();
}

/** Inserts an API key row for `businessId`. */
export async function insertApiKey(
  db: Db,
  businessId: number,
  row: Omit<NewApiKeyRow, 'business_id'>,
): Promise<ApiKeyRow> {
  return db
    .insertInto('api_key')
    .values({ ...row, business_id: businessId })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** {@link findActiveKeyByHash}, compiled once (every request runs it). */
const activeKeyByHash = preparedQuery(1, (db: Db, keyHash: string) =>
  db
    .selectFrom('api_key')
    .innerJoin('business', 'business.id', 'api_key.business_id')
    .select([
      'api_key.id as apiKeyId',
      'api_key.secret_ciphertext',
      'business.id as businessId',
      'business.plan',
      'business.timezone',
    ])
    .where('api_key.key_hash', '=', keyHash)
    .where('api_key.revoked_at', 'is', null),
);

/** A key that is not revoked, with its business, by key hash; `undefined` when unknown or revoked. */
export async function findActiveKeyByHash(db: Db, keyHash: string) {
  return (await activeKeyByHash(db, keyHash))[0];
}
export async function findKeysByBusiness(db: Db, businessId: number) {
  return db
    .selectFrom('api_key')
    .select(['id', 'key_prefix', 'created', 'revoked_at'])
    .where('business_id', '=', businessId)
    .orderBy('id')
    .execute();
}

/** Marks a key revoked; returns the number of rows changed (0 when unknown or already revoked). */
export async function revokeByHash(db: Db, keyHash: string, at: Timestamp): Promise<number> {
  const result = await db
    .updateTable('api_key')
    .set({ revoked_at: at })
    .where('key_hash', '=', keyHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * `NOTIFY bizapi_auth` on `trx` (PostgreSQL): delivered to every listening API-key cache when the transaction
 * commits (src/modules/auth/key-cache.ts).
 */
export async function notifyKeysChanged(trx: Db): Promise<void> {
  await sql`select pg_notify(${AUTH_CHANNEL}, '')`.execute(trx);
}

/** Deletes the key with this hash; returns the number of rows deleted (0 when unknown). */
export async function deleteByHash(db: Db, keyHash: string): Promise<number> {
  const result = await db.deleteFrom('api_key').where('key_hash', '=', keyHash).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The ids of the keys that are not revoked and whose display prefix is `prefix` (`bz_` + 8 characters). */
export async function findActiveKeyIdsByPrefix(db: Db, prefix: string): Promise<number[]> {
  const rows = await db
    .selectFrom('api_key')
    .select('id')
    .where('key_prefix', '=', prefix)
    .where('revoked_at', 'is', null)
    .orderBy('id')
    .execute();
  return rows.map((r) => Number(r.id));
}

/** Marks the key `id` revoked; returns the number of rows changed (0 when unknown or already revoked). */
export async function revokeById(db: Db, id: number, at: Timestamp): Promise<number> {
  const result = await db
    .updateTable('api_key')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The encrypted secret of the newest API key (revoked ones included), or `undefined` when there is none. */
export async function findNewestSecret(db: Db): Promise<string | undefined> {
  const row = await db
    .selectFrom('api_key')
    .select('secret_ciphertext')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.secret_ciphertext;
}

/** Inserts an MCP token row (docs/mcp.md#tokens). */
export async function insertMcpToken(db: Db, row: NewMcpTokenRow): Promise<McpTokenRow> {
  return db.insertInto('mcp_token').values(row).returningAll().executeTakeFirstOrThrow();
}

/** An MCP token that is not revoked, with its business, by business id and token hash; `undefined` when unknown or revoked. */
export async function findActiveMcpTokenByHash(db: Db, businessId: number, tokenHash: string) {
  return db
    .selectFrom('mcp_token')
    .innerJoin('business', 'business.id', 'mcp_token.business_id')
    .select([
      'mcp_token.id',
      'mcp_token.read_only',
      'mcp_token.tools',
      'business.id as businessId',
      'business.plan',
      'business.timezone',
    ])
    .where('mcp_token.business_id', '=', businessId)
    .where('mcp_token.token_hash', '=', tokenHash)
    .where('mcp_token.revoked_at', 'is', null)
    .executeTakeFirst();
}

/** The MCP tokens of a business, oldest first, without hashes. */
export async function findMcpTokensByBusiness(db: Db, businessId: number) {
  return db
    .selectFrom('mcp_token')
    .select(['id', 'token_prefix', 'name', 'read_only', 'tools', 'created', 'revoked_at'])
    .where('business_id', '=', businessId)
    .orderBy('id')
    .execute();
}

/** Marks the MCP token `id` of `businessId` revoked; returns the number of rows changed (0 when unknown or already revoked). */
export async function revokeMcpTokenById(db: Db, businessId: number, id: number, at: Timestamp): Promise<number> {
  const result = await db
    .updateTable('mcp_token')
    .set({ revoked_at: at })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The ids of `businessId`'s MCP tokens that are not revoked and whose display prefix is `prefix`, or whose hash is `tokenHash`. */
export async function findActiveMcpTokenIds(
  db: Db,
  businessId: number,
  match: { prefix: string } | { tokenHash: string },
): Promise<number[]> {
  let q = db.selectFrom('mcp_token').select('id').where('business_id', '=', businessId).where('revoked_at', 'is', null);
  q = 'prefix' in match ? q.where('token_prefix', '=', match.prefix) : q.where('token_hash', '=', match.tokenHash);
  return (await q.orderBy('id').execute()).map((r) => Number(r.id));
}
