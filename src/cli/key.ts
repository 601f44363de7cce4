/** `bizapi key create | list | revoke` (docs/authentication.md#keys): API keys of a business. */
import type { Db } from '../db/database.ts';
import { createApiKey, listApiKeys, retrieveBusiness, revokeApiKeyByRef } from '../modules/auth/auth.service.ts';
import { type CliContext, CliError, cliMasterKey, printJson, withDb } from './context.ts';

/**
 * `key create --business ID`: prints `{"apiKey", "secretKey"}` (the secret is shown only here).
 * @throws CliError "Business 9 does not exist."
 */
export async function keyCreate(ctx: CliContext, opts: { business: number }): Promise<void> {
  const config = ctx.config();
  const issued = await withDb(config, async (db) => {
    await requireBusiness(db, opts.business);
    return createApiKey(db, await cliMasterKey(db, config), opts.business);
  });
  printJson({ apiKey: issued.apiKey, secretKey: issued.secretKey });
}

/**
 * `key list --business ID`: prints `{"keys": [{id, prefix, created, revokedAt}]}`, oldest first; no
 * secrets and no full keys.
 * @throws CliError "Business 9 does not exist."
 */
export async function keyList(ctx: CliContext, opts: { business: number }): Promise<void> {
  const keys = await withDb(ctx.config(), async (db) => {
    await requireBusiness(db, opts.business);
    return listApiKeys(db, opts.business);
  });
  printJson({ keys });
}

/**
 * `key revoke KEY`: KEY is the id or the prefix that `key list` shows, or the full key. Prints
 * `{"revoked": true}` (with `"id"` when named by id or prefix); the key stops authenticating at once.
 * @throws CliError when no active key matches, or several active keys share the prefix
 */
export async function keyRevoke(ctx: CliContext, ref: string): Promise<void> {
  const result = await withDb(ctx.config(), (db) => revokeApiKeyByRef(db, ref));
  if (result === 'none') throw new CliError('No active API key has that id, prefix or value (`bizapi key list --business ID` shows ids and prefixes).');
  if (result === 'ambiguous') throw new CliError('Several active API keys start with that prefix: revoke by id (`bizapi key list --business ID` shows the ids).');
  printJson(result.revoked === true ? { revoked: true } : { revoked: true, id: result.revoked });
}

async function requireBusiness(db: Db, businessId: number): Promise<void> {
  if ((await retrieveBusiness(db, businessId)) === undefined) {
    throw new CliError(`Business ${businessId} does not exist.`);
  }
}
