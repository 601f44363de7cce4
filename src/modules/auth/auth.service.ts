/**
 * Businesses and API keys (docs/authentication.md#keys, README.md#provisioning-businesses-keys-and-catalogs):
 * issuing keys (the secret is shown once), authenticating a key, listing and revoking keys.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { isPostgres, nowTimestamp } from '../../db/sql-helpers.ts';
import { setImmediate as yieldOnce } from 'node:timers/promises';
import * as repo from './auth.repository.ts';
import type { Config } from '../../config.ts';
import { decryptSecret, encryptSecret, masterKeyMismatchMessage, resolveMasterKey } from './secret-box.ts';
import { type ApiKeyCache, keysChanged } from './key-cache.ts';

import type { AuthContext, Plan } from '../../shared/auth-context.ts';

/**
 * Sealing of other secrets at rest under the master key (AES-256-GCM), for the modules that keep some
 * (webhook signing secrets, docs/webhooks.md#secret-rotation).
 */
export { decryptSecret, encryptSecret } from './secret-box.ts';

/** The per-process cache of resolved API keys (src/modules/auth/key-cache.ts). */
export { ApiKeyCache } from './key-cache.ts';

/** Plans allowed to call any project or worker operation (docs/api.md#plans). */
export const PROJECT_WORKER_PLANS: readonly Plan[] = ['FREE', 'AGENCY'];

/** A business as the CLI prints it. */
export interface Business {
  id: number;
  name: string;
  plan: Plan;
  timezone: string;
}

/** A freshly issued key pair; the only moment the secret is visible. */
export interface IssuedKey {
  apiKey: string;
  secretKey: string;
}

/** SHA-256 (hex) of an API key: the only form in which keys are stored. */
export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

/** Whether `tz` is an IANA time zone name this runtime knows. */
export function isValidTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Creates a business row. The caller validates `plan` and `timezone`. */
export async function createBusiness(db: Db, input: { name: string; plan: Plan; timezone: string }): Promise<Business> {
  const row = await repo.insertBusiness(db, { ...input, created: nowTimestamp() });
  return { id: row.id, name: row.name, plan: row.plan as Plan, timezone: row.timezone };
}

/** The business with this id, or `undefined`. */
export async function retrieveBusiness(db: Db, businessId: number): Promise<Business | undefined> {
  const row = await repo.findBusinessById(db, businessId);
  return row && { id: row.id, name: row.name, plan: row.plan as Plan, timezone: row.timezone };
}

/**
 * Takes the business's lock until the end of the caller's transaction `trx`, so that a check of the
 * business's records and the write that depends on it are atomic: counting its webhook endpoints and
 * inserting one (docs/webhooks.md#fairness-and-limits: the cap). PostgreSQL: the business row
 * `FOR NO KEY UPDATE` (one statement; concurrent takers wait, inserts elsewhere that only reference the
 * business do not); SQLite: nothing (no statement), its write transactions are `IMMEDIATE`, one at a time.
 * No event writer takes it, so it goes before event.service `maxEventId` without risk of a deadlock.
 */
export async function lockBusiness(trx: Db, businessId: number): Promise<void> {
  if (!isPostgres(trx)) return;
  await repo.lockBusinessById(trx, businessId);
}

/** Every business with its creation time, by id (`bizapi business list`). */
export async function listBusinesses(db: Db): Promise<(Business & { created: string })[]> {
  const rows = await repo.findAllBusinesses(db);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    plan: row.plan as Plan,
    timezone: row.timezone,
    created: row.created,
  }));
}

/**
 * Issues a new key pair for a business: `bz_<43 base64url chars>` and a secret of the same length.
 * Stores the key's hash and the secret encrypted under `masterKey`.
 */
export async function createApiKey(db: Db, masterKey: Buffer, businessId: number): Promise<IssuedKey> {
  const apiKey = `bz_${randomBytes(32).toString('base64url')}`;
  const secretKey = randomBytes(32).toString('base64url');
  await repo.insertApiKey(db, businessId, {
    key_hash: hashApiKey(apiKey),
    key_prefix: apiKey.slice(0, 11),
    secret_ciphertext: encryptSecret(masterKey, secretKey),
    created: nowTimestamp(),
  });
  return { apiKey, secretKey };
}

/**
 * Resolves an `X-API-Key` value. Returns `undefined` for an unknown or revoked key. Revocation is seen at
 * once: without `keys` the key row is read on every call; with `keys` (the process's {@link ApiKeyCache}) a
 * key resolved before is answered from it for as long as no key can have changed since, in this process or
 * another (docs/authentication.md#revoking-a-key). The decryption of a secret is cached in `secretCache`
 * by key id.
 */
export async function authenticateApiKey(
  db: Db,
  masterKey: Buffer,
  apiKey: string,
  secretCache?: Map<number, string>,
  keys?: ApiKeyCache,
): Promise<AuthContext | undefined> {
  let generation = keys?.generation();
  let cached = keys?.get(apiKey, generation);
  if (cached !== undefined && keys!.listens) {
    // PostgreSQL: let a notification that arrived with this request be read first (docs/authentication.md#revoking-a-key)
    await yieldOnce();
    generation = keys!.generation();
    cached = keys!.get(apiKey, generation);
  }
  if (cached !== undefined) return cached;
  const row = await repo.findActiveKeyByHash(db, hashApiKey(apiKey));
  if (!row) return undefined;
  let secret = secretCache?.get(row.apiKeyId);
  if (secret === undefined) {
    secret = decryptSecret(masterKey, row.secret_ciphertext);
    secretCache?.set(row.apiKeyId, secret);
  }
  const auth: AuthContext = {
    businessId: row.businessId,
    apiKeyId: row.apiKeyId,
    plan: row.plan as Plan,
    timezone: row.timezone,
    secret,
  };
  keys?.set(apiKey, auth, generation);
  return auth;
}

/**
 * Runs a change to API keys (`change`, on a transaction) so that every process's key cache drops its entries
 * when it commits (src/modules/auth/key-cache.ts): on PostgreSQL with `NOTIFY bizapi_auth` in the same
 * transaction, sent only when `change` reports rows changed (the triggers of migration 2026_11_28_0110 send it
 * too; on Citus, where `bizapi distribute` drops them, only this does); in this process at once after the commit.
 * SQLite's other processes see the triggers' `auth_change` counter move. Answers what `change` answers.
 */
async function changingKeys<T>(db: Db, change: (trx: Db) => Promise<T>, changed: (result: T) => boolean): Promise<T> {
  const result = await db.transaction().execute(async (trx) => {
    const r = await change(trx);
    if (changed(r) && isPostgres(trx)) await repo.notifyKeysChanged(trx);
    return r;
  });
  if (changed(result)) keysChanged();
  return result;
}

/** The keys of a business, without secrets: `[{id, prefix, created, revoked}]`. */
export async function listApiKeys(db: Db, businessId: number) {
  const rows = await repo.findKeysByBusiness(db, businessId);
  return rows.map((r) => ({ id: r.id, prefix: r.key_prefix, created: r.created, revokedAt: r.revoked_at }));
}

/** Revokes a key by its full value; `false` when no active key has that value. */
export async function revokeApiKey(db: Db, apiKey: string): Promise<boolean> {
  return (
    (await changingKeys(
      db,
      (trx) => repo.revokeByHash(trx, hashApiKey(apiKey), nowTimestamp()),
      (n) => n > 0,
    )) > 0
  );
}

/**
 * Deletes a key by its full value, leaving no row behind (`bizapi export`'s temporary key,
 * docs/deployment.md#export-to-a-file-import-from-a-file); `false` when no key has that value.
 */
export async function deleteApiKey(db: Db, apiKey: string): Promise<boolean> {
  return (
    (await changingKeys(
      db,
      (trx) => repo.deleteByHash(trx, hashApiKey(apiKey)),
      (n) => n > 0,
    )) > 0
  );
}

/** The display prefix `key list` shows: `bz_` and the key's next 8 characters (README.md#provisioning-businesses-keys-and-catalogs). */
const KEY_PREFIX = /^bz_[A-Za-z0-9_-]{8}$/;

/**
 * Revokes a key named as `bizapi key list` shows it (README.md#provisioning-businesses-keys-and-catalogs):
 * its id (digits), its display prefix (`bz_` + 8 characters, which must name one active key), or its full
 * value. Answers `{revoked: id}` (or `{revoked: true}` for a full key), `'none'` when no active key matches,
 * `'ambiguous'` when several active keys share the prefix (then revoke by id).
 */
export async function revokeApiKeyByRef(
  db: Db,
  ref: string,
): Promise<{ revoked: number | true } | 'none' | 'ambiguous'> {
  const value = ref.trim();
  const revokeById = (id: number) =>
    changingKeys(
      db,
      (trx) => repo.revokeById(trx, id, nowTimestamp()),
      (n) => n > 0,
    );
  if (/^\d{1,15}$/.test(value)) return (await revokeById(Number(value))) > 0 ? { revoked: Number(value) } : 'none';
  if (KEY_PREFIX.test(value)) {
    const ids = await repo.findActiveKeyIdsByPrefix(db, value);
    if (ids.length > 1) return 'ambiguous';
    if (ids.length === 0) return 'none';
    return (await revokeById(ids[0]!)) > 0 ? { revoked: ids[0]! } : 'none';
  }
  return (await revokeApiKey(db, value)) ? { revoked: true } : 'none';
}

/**
 * Whether `masterKey` decrypts the secrets stored in the database (checked on the newest key's secret):
 * `'ok'`, `'mismatch'` (they were encrypted under another key), or `'none'` when no secret is stored yet.
 * Used at start-up and by `/readyz` (docs/deployment.md#database-outages).
 */
export async function checkMasterKey(db: Db, masterKey: Buffer): Promise<'ok' | 'mismatch' | 'none'> {
  const boxed = await repo.findNewestSecret(db);
  if (boxed === undefined) return 'none';
  try {
    decryptSecret(masterKey, boxed);
    return 'ok';
  } catch {
    return 'mismatch';
  }
}

/**
 * The installation's master key for this database (docs/deployment.md#9-key-rotation): `BIZAPI_MASTER_KEY`,
 * else `<BIZAPI_DATA_DIR>/master.key`. A key file is generated only while the database holds no secret;
 * used by `serve` at start-up and by every CLI command that writes secrets (`key create`, `business create`,
 * `demo`), so that none of them silently starts a second key beside the one the stored secrets need.
 * @returns the 32-byte key
 * @throws Error naming `BIZAPI_MASTER_KEY` and the key file when the key is missing for a database with
 *   secrets, or does not decrypt them
 */
export async function masterKeyForDatabase(db: Db, config: Pick<Config, 'masterKey' | 'dataDir'>): Promise<Buffer> {
  const hasSecrets = (await checkMasterKey(db, Buffer.alloc(32))) !== 'none';
  const masterKey = resolveMasterKey(config, { create: !hasSecrets });
  if ((await checkMasterKey(db, masterKey)) === 'mismatch') throw new Error(masterKeyMismatchMessage(config));
  return masterKey;
}

/** What an MCP token allows (docs/mcp.md#tokens): its business and the bounds set at issuance. */
export interface McpGrant {
  tokenId: number;
  businessId: number;
  plan: Plan;
  timezone: string;
  /** Only GET operations. */
  readOnly: boolean;
  /** Only these operation ids; `undefined` for every operation. */
  tools: string[] | undefined;
}

/** An MCP token as `key list` shows it: no hash, no token. */
export interface McpTokenInfo {
  id: number;
  prefix: string;
  name: string | null;
  readOnly: boolean;
  tools: string[] | null;
  created: string;
  revokedAt: string | null;
}

/** `bzm_<business id>_<43 base64url characters>`: the business id lets the lookup stay within one business. */
const MCP_TOKEN = /^bzm_([1-9][0-9]{0,15})_([A-Za-z0-9_-]{43})$/;

/**
 * Issues an MCP token for `businessId` (docs/mcp.md#tokens): `bzm_<business id>_<32 random bytes, base64url>`,
 * stored as its SHA-256 and a display prefix; shown once. It authenticates `/mcp` only, never `X-API-Key`.
 */
export async function createMcpToken(
  db: Db,
  businessId: number,
  input: { readOnly: boolean; tools?: readonly string[]; name?: string },
): Promise<{ token: string; id: number }> {
  const token = `bzm_${businessId}_${randomBytes(32).toString('base64url')}`;
  const row = await repo.insertMcpToken(db, {
    business_id: businessId,
    token_hash: hashApiKey(token),
    token_prefix: token.slice(0, `bzm_${businessId}_`.length + 8),
    name: input.name ?? null,
    read_only: input.readOnly ? 1 : 0,
    tools: input.tools !== undefined && input.tools.length > 0 ? input.tools.join(',') : null,
    created: nowTimestamp(),
  });
  return { token, id: Number(row.id) };
}

/**
 * Resolves a bearer token sent to `/mcp`; `undefined` for a malformed, unknown or revoked one. The row is
 * read on every request, so a revocation is refused at once by every process.
 */
export async function authenticateMcpToken(db: Db, token: string): Promise<McpGrant | undefined> {
  const m = MCP_TOKEN.exec(token);
  if (m === null) return undefined;
  const businessId = Number(m[1]);
  if (!Number.isSafeInteger(businessId)) return undefined;
  const row = await repo.findActiveMcpTokenByHash(db, businessId, hashApiKey(token));
  if (!row) return undefined;
  return {
    tokenId: Number(row.id),
    businessId: Number(row.businessId),
    plan: row.plan as Plan,
    timezone: row.timezone,
    readOnly: Number(row.read_only) === 1,
    tools: row.tools === null ? undefined : row.tools.split(','),
  };
}

/** The MCP tokens of a business, oldest first (`bizapi key list`). */
export async function listMcpTokens(db: Db, businessId: number): Promise<McpTokenInfo[]> {
  const rows = await repo.findMcpTokensByBusiness(db, businessId);
  return rows.map((r) => ({
    id: Number(r.id),
    prefix: r.token_prefix,
    name: r.name,
    readOnly: Number(r.read_only) === 1,
    tools: r.tools === null ? null : r.tools.split(','),
    created: r.created,
    revokedAt: r.revoked_at,
  }));
}

/** Revokes the MCP token `id` of `businessId` at once; `false` when it is unknown or already revoked. */
export async function revokeMcpToken(db: Db, businessId: number, id: number): Promise<boolean> {
  return (await repo.revokeMcpTokenById(db, businessId, id, nowTimestamp())) > 0;
}

/** An MCP token's display prefix as `key list` shows it: `bzm_<business id>_` and 8 characters. */
const MCP_TOKEN_PREFIX = /^bzm_([1-9][0-9]{0,15})_[A-Za-z0-9_-]{8}$/;

/**
 * Revokes an MCP token named by its display prefix (as `key list` shows it) or its full value
 * (docs/mcp.md#tokens). Answers `{revoked: id}`, `'none'` when no active token matches, `'ambiguous'` when
 * several active tokens share the prefix (then revoke by the full value, or issue a new one and revoke both).
 */
export async function revokeMcpTokenByRef(db: Db, ref: string): Promise<{ revoked: number } | 'none' | 'ambiguous'> {
  const value = ref.trim();
  const full = MCP_TOKEN.exec(value);
  const prefix = full === null ? MCP_TOKEN_PREFIX.exec(value) : null;
  if (full === null && prefix === null) return 'none';
  const businessId = Number((full ?? prefix)![1]);
  const ids = await repo.findActiveMcpTokenIds(
    db,
    businessId,
    full !== null ? { tokenHash: hashApiKey(value) } : { prefix: value },
  );
  if (ids.length > 1) return 'ambiguous';
  if (ids.length === 0) return 'none';
  return (await revokeMcpToken(db, businessId, ids[0]!)) ? { revoked: ids[0]! } : 'none';
}
