/**
 * What every `bizapi` command shares (README.md#provisioning-businesses-keys-and-catalogs,
 * README.md#configuration): the environment (process variables over an optional
 * `.env` file), the configuration parsed from it, a database session that is migrated first and always
 * closed, JSON output on stdout, and user-facing errors.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvalidArgumentError } from 'commander';
import dotenv from 'dotenv';
import type { Kysely } from 'kysely';
import { type Config, loadConfig, readEnvironment, redactUrl } from '../config.ts';
import type { Database } from '../db/database.ts';

// This module is loaded by every command, so it imports nothing heavy: the database layer (Kysely and the
// drivers take a good part of a second to load) is imported by `withDb` when a command needs it.

/** A failure to report to the user as is (stderr, exit code 1), without a stack trace. */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}

/** The environment and the configuration, read once, lazily (commands such as `sign` need neither). */
export interface CliContext {
  /** `process.env` over the variables of `./.env` (process variables win). A copy: `process.env` is untouched. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * The configuration parsed from {@link env}.
   * @throws ConfigError naming every bad variable
   */
  config(): Config;
  /** Where `DATABASE_URL` came from: `'environment'`, the absolute path of the `.env` file, or `'default'`. */
  readonly databaseSource: string;
}

/** The `.env` file of the installation (next to package.json), which `npm start` run there reads. */
const INSTALL_ENV_FILE = fileURLToPath(new URL('../../.env', import.meta.url));

/** Builds the context from `process.env` and the optional `.env` file of the working directory. */
export function createContext(): CliContext {
  const { env, file, fromFile } = readEnvironment();
  const databaseSource =
    env.DATABASE_URL === undefined ? 'default' : fromFile.has('DATABASE_URL') ? file : 'environment';
  let config: Config | undefined;
  return {
    env,
    databaseSource,
    config: () => (config ??= loadConfig(env)),
  };
}

/**
 * The stderr lines that say which database a command opened (issue 26: a key created in the default SQLite
 * file while the server runs on PostgreSQL answers "Invalid or revoked API key."):
 * `bizapi: database sqlite:/abs/data/bizapi.db (the default: DATABASE_URL is not set)`, or with the URL
 * (password masked) and where it came from; plus a warning when that is the default file while the
 * installation's `.env` (next to package.json, what the server reads when started there) names another
 * database (README.md#configuration).
 */
export function databaseNotice(config: Config, source: string, installEnvFile = INSTALL_ENV_FILE): string[] {
  const shown = config.database.dialect === 'sqlite' ? `sqlite:${config.database.path}` : redactUrl(config.databaseUrl);
  const from =
    source === 'default'
      ? 'the default: DATABASE_URL is not set'
      : source === 'environment'
        ? 'DATABASE_URL from the environment'
        : `DATABASE_URL from ${source}`;
  const lines = [`bizapi: database ${shown} (${from})`];
  if (source === 'default' && path.resolve('.env') !== installEnvFile && fs.existsSync(installEnvFile)) {
    let other: string | undefined;
    try {
      other = dotenv.parse(fs.readFileSync(installEnvFile)).DATABASE_URL;
    } catch {
      other = undefined;
    }
    if (other !== undefined && other !== '' && other !== config.databaseUrl) {
      lines.push(
        `bizapi: warning: ${installEnvFile} sets DATABASE_URL=${redactUrl(other)}, which a server started there uses, but this command runs in ${process.cwd()} without it: ` +
          'run it from that directory, or set DATABASE_URL, to reach the same database.',
      );
    }
  }
  return lines;
}

/**
 * The master key for the command's database (`masterKeyForDatabase`, docs/deployment.md#9-key-rotation): a
 * key file is generated only for a database without secrets.
 * @throws CliError when the key is missing or does not decrypt the stored secrets
 */
export async function cliMasterKey(db: Kysely<Database>, config: Config): Promise<Buffer> {
  const { masterKeyForDatabase } = await import('../modules/auth/auth.service.ts');
  try {
    return await masterKeyForDatabase(db, config);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
}

/**
 * Opens the configured database, brings it to the newest migration (names of migrations applied now are
 * reported on stderr unless `reportMigrations` is false), runs `fn`, and always closes the database.
 *
 * @returns what `fn` returns
 */
export async function withDb<T>(
  config: Config,
  fn: (db: Kysely<Database>, applied: string[]) => Promise<T>,
  { reportMigrations = true }: { reportMigrations?: boolean } = {},
): Promise<T> {
  const [{ createDb }, { migrateToLatest }] = await Promise.all([
    import('../db/create-db.ts'),
    import('../db/migrator.ts'),
  ]);
  const db = createDb(config.database);
  try {
    const applied = await migrateToLatest(db);
    if (reportMigrations && applied.length > 0) process.stderr.write(`Applied migrations: ${applied.join(', ')}\n`);
    return await fn(db, applied);
  } finally {
    await db.destroy();
  }
}

/** Writes one JSON document (2-space indent, trailing newline) to stdout: the only thing a command prints there. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Commander parser for ids: a positive integer. */
export function parseId(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) {
    throw new InvalidArgumentError('Must be a positive integer.');
  }
  return n;
}

/**
 * Reads and parses a JSON catalog file (the content is checked later, by the import).
 * @throws CliError when the file cannot be read or is not JSON
 */
export function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new CliError(`Cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new CliError(`${file} is not valid JSON: ${(err as Error).message}`);
  }
}

/** The address of a bizapi server when nothing names another: the default `HOST` and `PORT`. */
export const DEFAULT_API_URL = 'http://127.0.0.1:8000';

/** The address flags of the commands that call a server (`request`, `mcp`). */
export interface ApiUrlFlags {
  /** `--url`. */
  url?: string;
  /** `--base-url`: the old name of `--url` (deprecated). */
  baseUrl?: string;
}

/**
 * The address of the server a command calls (README.md#your-first-signed-request): `--url`, else
 * `BIZAPI_URL`, else `http://127.0.0.1:8000` — one flag and one variable for every command, the MCP server
 * and the examples. The old names still work, each writing one deprecation line on stderr: `--base-url`,
 * `BIZAPI_BASE_URL`, and (only when `derivePort` is given, for `request`) `http://HOST:PORT` from the
 * server's `PORT` / `HOST` when either is set (from the environment or `.env`) and `BIZAPI_URL` is not.
 *
 * @param derivePort the `http://HOST:PORT` of the configuration (`request`'s old default)
 * @returns the address, as given (no trailing-slash or `/v1` handling: the caller's)
 */
export function apiUrl(ctx: CliContext, flags: ApiUrlFlags, derivePort?: () => string): string {
  const deprecated = (old: string, instead: string) =>
    process.stderr.write(`bizapi: ${old} is deprecated; use ${instead}\n`);
  if (flags.url !== undefined && flags.url !== '') return flags.url;
  if (flags.baseUrl !== undefined && flags.baseUrl !== '') {
    deprecated('--base-url', '--url');
    return flags.baseUrl;
  }
  const env = ctx.env;
  if (env.BIZAPI_URL !== undefined && env.BIZAPI_URL !== '') return env.BIZAPI_URL;
  if (env.BIZAPI_BASE_URL !== undefined && env.BIZAPI_BASE_URL !== '') {
    deprecated('BIZAPI_BASE_URL', 'BIZAPI_URL');
    return env.BIZAPI_BASE_URL;
  }
  if (derivePort !== undefined && ((env.PORT ?? '') !== '' || (env.HOST ?? '') !== '')) {
    const derived = derivePort();
    deprecated(`deriving the server's address from PORT / HOST (${derived})`, `BIZAPI_URL=${derived} or --url`);
    return derived;
  }
  return DEFAULT_API_URL;
}
