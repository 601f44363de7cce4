/**
 * `bizapi backup --out FILE` (docs/deployment.md#8-backups-and-restore): a consistent copy of the embedded
 * SQLite database, taken while servers keep serving, checked, and a reminder of what else to keep.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { loadSqliteDriver, SQLITE_BUSY_TIMEOUT_MS } from '../db/create-db.ts';
import { type CliContext, CliError, printJson } from './context.ts';

/** Options of `backup`, as given on the command line. */
export interface BackupOptions {
  out: string;
  force?: boolean;
}

/** What `backup` prints: the copy's absolute path, its size in bytes, and the integrity check's verdict. */
export interface BackupResult {
  path: string;
  bytes: number;
  integrity: 'ok';
}

/** The files of a live SQLite database beside its main file (WAL mode's, and the rollback journal). */
const LIVE_SUFFIXES = ['', '-wal', '-shm', '-journal'] as const;

/**
 * The file of the live database `source` (the database itself, its `-wal`, `-shm` or `-journal`) that `target`
 * names, or `undefined` when it names none (docs/deployment.md#8-backups-and-restore): judged by the paths with
 * their directories' symbolic links resolved, and, for files that exist, by device and inode (a hard link, a
 * symbolic link to one of them).
 */
function liveFileNamed(source: string, target: string): string | undefined {
  const real = (p: string): string => {
    try {
      return fs.realpathSync(p);
    } catch {
      try {
        return path.join(fs.realpathSync(path.dirname(p)), path.basename(p));
      } catch {
        return p;
      }
    }
  };
  const targetPath = real(target);
  const targetStat = fs.statSync(target, { throwIfNoEntry: false });
  for (const suffix of LIVE_SUFFIXES) {
    const file = `${source}${suffix}`;
    if (real(file) === targetPath) return file;
    const stat = targetStat && fs.statSync(file, { throwIfNoEntry: false });
    if (stat && targetStat && stat.dev === targetStat.dev && stat.ino === targetStat.ino) return file;
  }
  return undefined;
}

/**
 * Copies the SQLite database of `config` to `out` with SQLite's online backup (better-sqlite3's `backup()`,
 * every page in one step, so the copy is one read transaction's snapshot: in WAL mode writers go on meanwhile
 * and the copy never restarts), into a temporary file beside `out` that is renamed over it only after
 * `PRAGMA integrity_check` on the copy answered `ok`. The copy's journal mode is DELETE, so the one file is
 * the whole database. Does not migrate: the copy is the database as it is.
 *
 * @returns the copy's absolute path, size (bytes) and integrity verdict
 * @throws CliError on PostgreSQL (naming `pg_dump`), for a missing database file, an `out` that names a file
 *   of the live database (the database, its `-wal`, `-shm` or `-journal`; with `force` too), an existing `out` without
 *   `force`, a missing directory of `out`, or a copy that fails the integrity check (the copy is removed)
 */
export async function backupDatabase(config: Config, out: string, force = false): Promise<BackupResult> {
  if (config.database.dialect !== 'sqlite') {
    throw new CliError(
      'bizapi backup copies the embedded SQLite database; this server uses PostgreSQL. Back it up with pg_dump ' +
        '(pg_dump --format=custom --file=bizapi.dump "$DATABASE_URL"; restore with pg_restore), or with your ' +
        'PostgreSQL service\'s backups: docs/deployment.md, "Backups and restore".',
    );
  }
  const source = config.database.path;
  if (!fs.existsSync(source)) throw new CliError(`No database at ${source} (DATABASE_URL): nothing to back up.`);
  const target = path.resolve(out);
  if (!fs.existsSync(path.dirname(target)))
    throw new CliError(`--out: the directory ${path.dirname(target)} does not exist.`);
  const live = liveFileNamed(source, target);
  if (live !== undefined) {
    throw new CliError(
      `--out names ${live}, a file of the live database (${source} with its -wal, -shm and -journal files); replacing it would corrupt or lose the database. Give a path outside them.`,
    );
  }
  if (fs.existsSync(target) && !force)
    throw new CliError(`--out: ${target} already exists (add --force to replace it).`);

  const Sqlite = loadSqliteDriver();
  const temp = `${target}.partial-${process.pid}`;
  fs.rmSync(temp, { force: true });
  const db = new Sqlite(source, { fileMustExist: true });
  try {
    db.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    // The first step (0 pages) opens the backup; the progress handler then asks for every remaining page at once.
    await db.backup(temp, { progress: () => 0x7fffffff });
  } catch (err) {
    fs.rmSync(temp, { force: true });
    throw new CliError(`The backup of ${source} failed: ${(err as Error).message}`);
  } finally {
    db.close();
  }

  const copy = new Sqlite(temp, { fileMustExist: true });
  let verdict: string;
  try {
    copy.pragma('journal_mode = DELETE');
    const rows = copy.pragma('integrity_check') as { integrity_check: string }[];
    verdict = rows.map((r) => r.integrity_check).join('; ');
  } finally {
    copy.close();
  }
  if (verdict !== 'ok') {
    fs.rmSync(temp, { force: true });
    throw new CliError(`The copy failed PRAGMA integrity_check (${verdict}); nothing was written to ${target}.`);
  }
  fs.renameSync(temp, target);
  return { path: target, bytes: fs.statSync(target).size, integrity: 'ok' };
}

/**
 * `backup --out FILE [--force]`: prints `{"path", "bytes", "integrity": "ok"}` and reminds on stderr that the
 * master key (and, with local storage, the uploaded files) must be kept with the backup: without the key the
 * stored API secrets of the copy cannot be decrypted.
 * @throws CliError as {@link backupDatabase}
 */
export async function backup(ctx: CliContext, opts: BackupOptions): Promise<void> {
  const config = ctx.config();
  const result = await backupDatabase(config, opts.out, opts.force === true);
  const key =
    config.masterKey !== undefined
      ? 'BIZAPI_MASTER_KEY (set in this environment)'
      : path.join(config.dataDir, 'master.key');
  const files = config.storage === 'local' ? ` and the uploaded files under ${path.join(config.dataDir, 'files')}` : '';
  process.stderr.write(
    `Keep the master key ${key}${files} with this backup, stored apart from it: without the key the API secrets ` +
      'in the copy cannot be decrypted and every API key would have to be reissued (docs/deployment.md, "Backups and restore").\n',
  );
  printJson(result);
}
