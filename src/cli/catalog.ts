/**
 * `bizapi catalog import`: adds a catalog file to an existing business
 * (README.md#provisioning-businesses-keys-and-catalogs).
 */
import { retrieveBusiness } from '../modules/auth/auth.service.ts';
import { CatalogError, importCatalog } from '../modules/catalog/catalog-import.ts';
import { type CliContext, CliError, printJson, readJsonFile, withDb } from './context.ts';

/**
 * `catalog import --business ID FILE`: prints the ids the file's keys received (`{"grades": {key: id}, …,
 * "statuses": {…}, …}`; README.md#provisioning-businesses-keys-and-catalogs). All or nothing.
 * @throws CliError for an unknown business ("Business 9 does not exist.") or an unreadable or invalid file
 */
export async function catalogImport(ctx: CliContext, file: string, opts: { business: number }): Promise<void> {
  const json = readJsonFile(file);
  const ids = await withDb(ctx.config(), (db) =>
    namingCatalogFile(file, () =>
      db.transaction().execute(async (trx) => {
        if ((await retrieveBusiness(trx, opts.business)) === undefined) {
          throw new CliError(`Business ${opts.business} does not exist.`);
        }
        return importCatalog(trx, opts.business, json, { events: true });
      }),
    ),
  );
  printJson(ids);
}

/**
 * Runs `fn`, turning a {@link CatalogError} into a {@link CliError} that names the file and lists every
 * problem, one per line.
 */
export async function namingCatalogFile<T>(file: string, fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof CatalogError) {
      throw new CliError(`Invalid catalog file ${file}:\n${err.problems.map((p) => `  - ${p}`).join('\n')}`);
    }
    throw err;
  }
}
