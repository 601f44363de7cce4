/** Runs the frozen migrations in `src/db/migrations/` on either dialect. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type DatabaseIntrospector, type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import { isPostgres } from './sql-helpers.ts';

const MIGRATION_FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Loads every `*.ts` / `*.js` file of the migrations folder, named by its file name without extension.
 * (Kysely's FileMigrationProvider imports from inside node_modules, where test runners do not transform
 * TypeScript; importing from here works under tsx, Vitest and compiled JavaScript alike.)
 */
class FolderMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const migrations: Record<string, Migration> = {};
    for (const file of (await fs.readdir(MIGRATION_FOLDER)).sort()) {
      if (!/\.(ts|js)$/.test(file) || file.endsWith('.d.ts')) continue;
      const mod = (await import(pathToFileURL(path.join(MIGRATION_FOLDER, file)).href)) as Migration;
      migrations[file.replace(/\.(ts|js)$/, '')] = mod;
    }
    return migrations;
  }
}

/**
 * The Migrator of `db`. On PostgreSQL it locks inside its transaction ({@link withTransactionLock}) and its bookkeeping tables live in the connection's current schema (the
 * first of `search_path`, e.g. set by `options=-c search_path=…` in `DATABASE_URL`): Kysely would otherwise
 * find another schema's `kysely_migration` tables in the catalog, skip creating its own, and then fail on
 * the unqualified names.
 */
async function migratorOf(db: Kysely<any>): Promise<Migrator> {
  let migrationTableSchema: string | undefined;
  if (isPostgres(db)) {
    const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
    migrationTableSchema = rows[0]?.schema ?? undefined;
  }
  const handle =
    migrationTableSchema === undefined ? db : withTransactionLock(withSchemaIntrospection(db, migrationTableSchema));
  return new Migrator({
    db: handle,
    provider: new FolderMigrationProvider(),
    ...(migrationTableSchema !== undefined && { migrationTableSchema }),
  });
}

/**
 * `db` whose `introspection.getTables()` lists only the tables of `schema`, by name. Kysely's Migrator asks it
 * whether its bookkeeping tables exist; the PostgreSQL introspector reads every schema's columns through
 * `pg_get_serial_sequence`, which fails ("schema … does not exist") when another session drops a schema
 * while it runs — a migration or `/readyz` of one process then failed on another tenant's schema being
 * dropped (seen with the test workers' schemas).
 */
export function withSchemaIntrospection(db: Kysely<any>, schema: string): Kysely<any> {
  const introspection: DatabaseIntrospector = {
    getSchemas: () => db.introspection.getSchemas(),
    getMetadata: () => db.introspection.getMetadata(),
    getTables: async () => {
      const { rows } = await sql<{
        name: string;
      }>`select table_name as name from information_schema.tables where table_schema = ${schema}`.execute(db);
      return rows.map((r) => ({ name: r.name, schema, isView: false, columns: [] }));
    },
  };
  return new Proxy(db, {
    get(target, key) {
      if (key === 'introspection') return introspection;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * The key of the advisory lock that serialises migrations on PostgreSQL: Kysely's own
 * (`PostgresAdapter`), so that a process of an older release, which takes it as a session lock, and one of
 * this release, which takes it for its transaction, still take turns.
 */
export const MIGRATION_LOCK_KEY = 3853314791062309107n;

/**
 * `db` whose Migrator takes its lock inside the migration transaction (`pg_advisory_xact_lock`, released by
 * the commit or rollback) instead of Kysely's session lock (`pg_advisory_lock` on the connection, then a
 * transaction, then `pg_advisory_unlock`). Behind a transaction-mode pooler each of those three is its own
 * transaction on whichever server connection is free, so the session lock was taken on one server connection
 * and released on another — or never, blocking every later migration on that connection
 * (docs/deployment.md#transaction-mode-poolers-pgbouncer). Only the Migrator's calls change: its adapter's
 * `acquireMigrationLock` / `releaseMigrationLock` do nothing, and each transaction it opens on the connection
 * it reserves begins with the lock; the Migrator reads the applied migrations after that, inside the
 * transaction, so two processes migrating at once take turns and the second finds nothing left to do.
 */
export function withTransactionLock(db: Kysely<any>): Kysely<any> {
  const lockingTransactions = (conn: Kysely<any>): Kysely<any> =>
    new Proxy(conn, {
      get(target, key) {
        if (key === 'transaction') {
          return () => ({
            execute: <T>(cb: (trx: Kysely<any>) => Promise<T>) =>
              target.transaction().execute(async (trx) => {
                await sql`select pg_advisory_xact_lock(${sql.lit(MIGRATION_LOCK_KEY)})`.execute(trx);
                return cb(trx);
              }),
          });
        }
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  const adapterOf = (executor: ReturnType<Kysely<any>['getExecutor']>) =>
    new Proxy(executor.adapter, {
      get(target, key) {
        if (key === 'acquireMigrationLock' || key === 'releaseMigrationLock') return async () => undefined;
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  return new Proxy(db, {
    get(target, key) {
      if (key === 'connection') {
        return () => ({
          execute: <T>(cb: (conn: Kysely<any>) => Promise<T>) =>
            target.connection().execute((conn) => cb(lockingTransactions(conn))),
        });
      }
      if (key === 'getExecutor') {
        return () => {
          const executor = target.getExecutor();
          const adapter = adapterOf(executor);
          return new Proxy(executor, {
            get(t, k) {
              if (k === 'adapter') return adapter;
              const value: unknown = Reflect.get(t, k, t);
              return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(t) : value;
            },
          });
        };
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * Brings the schema to the newest migration.
 *
 * @returns the names of the migrations applied by this call (empty when already up to date)
 * @throws the first migration error, after Kysely has rolled that migration back
 */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = await migratorOf(db);
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * The migrations of the migrations folder not applied to `db` yet (`/readyz`: a process is ready only when
 * the schema it was built for is in place).
 *
 * @returns their names, oldest first (empty when the schema is current)
 * @throws when the database cannot be read
 */
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  const migrator = await migratorOf(db);
  return (await migrator.getMigrations()).filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/**
 * Brings the schema to exactly the migration `name` (a file name of the migrations folder without
 * extension): applies the ones up to it, or reverts the newer ones (their `down`). For tests and
 * benchmarks that need a database as an older release left it; `bizapi migrate` always goes to the newest.
 *
 * @returns the names of the migrations applied or reverted by this call
 * @throws the first migration error, after Kysely has rolled that migration back
 */
export async function migrateTo(db: Kysely<any>, name: string): Promise<string[]> {
  const migrator = await migratorOf(db);
  const { error, results } = await migrator.migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
