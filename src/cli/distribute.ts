/**
 * `bizapi distribute` (docs/deployment.md#10-beyond-one-postgresql-server-citus-distributed-by-business_id):
 * on a Citus coordinator, migrates and then distributes the schema (src/db/distribute.ts). Prints
 * `{"reference": [...], "distributed": [...], "unchanged": [...], "local": [...]}`; idempotent.
 */
import { type CliContext, CliError, printJson, withDb } from './context.ts';

/** `distribute [--shard-count N]`: fails with a clear message on SQLite and where the citus extension is missing. */
export async function distributeCommand(ctx: CliContext, opts: { shardCount?: number }): Promise<void> {
  const config = ctx.config();
  if (config.database.dialect !== 'postgres') {
    throw new CliError(
      'bizapi distribute needs a Citus coordinator (PostgreSQL with the citus extension); DATABASE_URL names an SQLite database.',
    );
  }
  const { distribute, DistributeError } = await import('../db/distribute.ts');
  const result = await withDb(config, async (db) => {
    try {
      return await distribute(db, opts.shardCount === undefined ? {} : { shardCount: opts.shardCount });
    } catch (err) {
      if (err instanceof DistributeError) throw new CliError(err.message);
      throw err;
    }
  });
  printJson(result);
}
