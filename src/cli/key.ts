/** `bizapi key create | list | revoke` (docs/authentication.md#keys): API keys of a business. */
import type { Db } from '../db/database.ts';
import {
  createApiKey,
  createMcpToken,
  listApiKeys,
  listMcpTokens,
  retrieveBusiness,
  revokeApiKeyByRef,
  revokeMcpTokenByRef,
} from '../modules/auth/auth.service.ts';
import { type CliContext, CliError, cliMasterKey, printJson, withDb } from './context.ts';

/**
 * `key create --business ID`: prints `{"apiKey", "secretKey"}` (the secret is shown only here). With `--mcp`,
 * issues an MCP token instead (docs/mcp.md#tokens): prints `{"mcpToken", "id", "readOnly", "tools"}` (the
 * token is shown only here), bounded by `--read-only` and `--tools a,b`.
 * @throws CliError "Business 9 does not exist."; `--read-only` or `--tools` without `--mcp`; an empty `--tools`
 */
export async function keyCreate(
  ctx: CliContext,
  opts: { business: number; mcp?: boolean; readOnly?: boolean; tools?: string; name?: string },
): Promise<void> {
  const config = ctx.config();
  if (opts.mcp !== true) {
    if (opts.readOnly === true || opts.tools !== undefined || opts.name !== undefined)
      throw new CliError('--read-only, --tools and --name bound an MCP token: add --mcp.');
  } else {
    const tools = opts.tools
      ?.split(',')
      .map((t) => t.trim())
      .filter((t) => t !== '');
    if (tools !== undefined && tools.length === 0)
      throw new CliError('--tools: name at least one operation id (comma-separated).');
    if (tools !== undefined && tools.some((t) => !/^[a-z][a-z0-9_]{0,99}$/.test(t)))
      throw new CliError('--tools: operation ids are lower-case words joined by "_" (client_list,client_retrieve).');
    const issued = await withDb(config, async (db) => {
      await requireBusiness(db, opts.business);
      return createMcpToken(db, opts.business, {
        readOnly: opts.readOnly === true,
        ...(tools !== undefined && { tools }),
        ...(opts.name !== undefined && { name: opts.name }),
      });
    });
    printJson({ mcpToken: issued.token, id: issued.id, readOnly: opts.readOnly === true, tools: tools ?? null });
    return;
  }
  const issued = await withDb(config, async (db) => {
    await requireBusiness(db, opts.business);
    return createApiKey(db, await cliMasterKey(db, config), opts.business);
  });
  printJson({ apiKey: issued.apiKey, secretKey: issued.secretKey });
}

/**
 * `key list --business ID`: prints `{"keys": [{id, prefix, created, revokedAt}], "mcpTokens": [{id, prefix,
 * name, readOnly, tools, created, revokedAt}]}`, oldest first; no secrets and no full keys or tokens.
 * @throws CliError "Business 9 does not exist."
 */
export async function keyList(ctx: CliContext, opts: { business: number }): Promise<void> {
  const keys = await withDb(ctx.config(), async (db) => {
    await requireBusiness(db, opts.business);
    return { keys: await listApiKeys(db, opts.business), mcpTokens: await listMcpTokens(db, opts.business) };
  });
  printJson(keys);
}

/**
 * `key revoke KEY`: KEY is the id or the prefix that `key list` shows, or the full key; an MCP token
 * (`bzm_…`) by its prefix or full value prints `{"revoked": true, "mcpTokenId"}`. Prints
 * `{"revoked": true}` (with `"id"` when named by id or prefix); the key stops authenticating at once.
 * @throws CliError when no active key matches, or several active keys share the prefix
 */
export async function keyRevoke(ctx: CliContext, ref: string): Promise<void> {
  if (/^bzm_/.test(ref.trim())) {
    const revoked = await withDb(ctx.config(), (db) => revokeMcpTokenByRef(db, ref));
    if (revoked === 'none')
      throw new CliError(
        'No active MCP token has that prefix or value (`bizapi key list --business ID` shows the prefixes).',
      );
    if (revoked === 'ambiguous')
      throw new CliError('Several active MCP tokens start with that prefix: revoke by the full token.');
    printJson({ revoked: true, mcpTokenId: revoked.revoked });
    return;
  }
  const result = await withDb(ctx.config(), (db) => revokeApiKeyByRef(db, ref));
  if (result === 'none')
    throw new CliError(
      'No active API key has that id, prefix or value (`bizapi key list --business ID` shows ids and prefixes).',
    );
  if (result === 'ambiguous')
    throw new CliError(
      'Several active API keys start with that prefix: revoke by id (`bizapi key list --business ID` shows the ids).',
    );
  printJson(result.revoked === true ? { revoked: true } : { revoked: true, id: result.revoked });
}

async function requireBusiness(db: Db, businessId: number): Promise<void> {
  if ((await retrieveBusiness(db, businessId)) === undefined) {
    throw new CliError(`Business ${businessId} does not exist.`);
  }
}
