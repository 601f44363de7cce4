/**
 * `bizapi business create`: a business, its first API key and, optionally, its catalog
 * (README.md#provisioning-businesses-keys-and-catalogs).
 */
import { createApiKey, createBusiness, isValidTimezone } from '../modules/auth/auth.service.ts';
import { PLANS, type Plan } from '../shared/auth-context.ts';
import { type CatalogIds, importCatalog, validateCatalog } from '../modules/catalog/catalog-import.ts';
import { namingCatalogFile } from './catalog.ts';
import { type CliContext, CliError, cliMasterKey, printJson, readJsonFile, withDb } from './context.ts';

/** Options of `business create`, as given on the command line. */
export interface BusinessCreateOptions {
  name: string;
  plan: string;
  timezone: string;
  catalog?: string;
}

/**
 * `business create --name NAME --plan PLAN [--timezone TZ] [--catalog FILE]`: prints
 * `{"business": {id, name, plan, timezone}, "apiKey", "secretKey", "catalog": <ids> | null}`.
 * The business, the key and the catalog are written in one transaction: an invalid catalog file creates
 * nothing.
 * @throws CliError for an empty name, an unknown plan or time zone, an unreadable or invalid catalog file
 */
export async function businessCreate(ctx: CliContext, opts: BusinessCreateOptions): Promise<void> {
  const name = opts.name.trim();
  if (name === '') throw new CliError('--name must not be empty.');
  if (!(PLANS as readonly string[]).includes(opts.plan)) {
    throw new CliError(`--plan: "${opts.plan}" is not one of ${PLANS.join(', ')}.`);
  }
  const plan = opts.plan as Plan;
  if (!isValidTimezone(opts.timezone))
    throw new CliError(`--timezone: "${opts.timezone}" is not a known IANA time zone.`);

  // Read and check the file before touching the database; the import checks it again in the transaction.
  const file = opts.catalog;
  const catalogJson = file === undefined ? undefined : readJsonFile(file);
  if (file !== undefined) await namingCatalogFile(file, () => validateCatalog(catalogJson));

  const config = ctx.config();
  const result = await withDb(config, async (db) => {
    const masterKey = await cliMasterKey(db, config);
    return namingCatalogFile(file ?? 'catalog', () =>
      db.transaction().execute(async (trx) => {
        const business = await createBusiness(trx, { name, plan, timezone: opts.timezone });
        const key = await createApiKey(trx, masterKey, business.id);
        const catalog: CatalogIds | null =
          catalogJson === undefined ? null : await importCatalog(trx, business.id, catalogJson);
        return { business, apiKey: key.apiKey, secretKey: key.secretKey, catalog };
      }),
    );
  });
  printJson(result);
}
