/** `bizapi key create | list | revoke` (docs/authentication.md#keys): API keys of a business. */
import type { Db } from '../db/database.ts';
import { createApiKey, listApiKeys, retrieveBusiness, revokeApiKey } from '../modules/auth/auth.service.ts';
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
 * `key revoke API_KEY`: prints `{"revoked": true}`; the key stops authenticating at once.
 * @throws CliError when no active key has that value
 */
export async function keyRevoke(ctx: CliContext, apiKey: string): Promise<void> {
  const revoked = await withDb(ctx.config(), (db) => revokeApiKey(db, apiKey));
  if (!revoked) throw new CliError('No active API key has that value.');
  printJson({ revoked: true });
}

async function requireBusiness(db: Db, businessId: number): Promise<void> {
  if ((await retrieveBusiness(db, businessId)) === undefined) {
    throw new CliError(`Business ${businessId} does not exist.`);
  }
}
