/**
 * A real PgBouncer in transaction mode for tests and CI (docs/deployment.md#transaction-mode-poolers-pgbouncer):
 * Debian's `pgbouncer` package, run in the foreground as a child of this process with an ini of its own in a
 * temporary directory. PgBouncer 1.18 (Debian 12) has no prepared-statement support at all (1.21 added
 * `max_prepared_statements`), which is the case bizapi must handle.
 *
 * A pooler cannot pass `search_path` as a startup option (`options=-c search_path=…`), so each schema gets a
 * database alias of its own whose `connect_query` sets it on every server connection the alias opens; the
 * alias's pool only ever serves that schema.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './helpers.ts';

/** Where Debian's package installs PgBouncer. */
export const PGBOUNCER_BIN = '/usr/sbin/pgbouncer';

/** Whether PgBouncer is installed here (`apt-get install pgbouncer`). */
export function hasPgbouncer(): boolean {
  return fs.existsSync(PGBOUNCER_BIN);
}

/** Options of {@link startPgbouncer}. */
export interface PgbouncerOptions {
  /** The database itself: `postgres://user:password@host:port/db`, the password optional (no `options`: aliases set the schema). */
  direct: string;
  /** Database aliases to declare, each with the schema its `connect_query` puts first in `search_path` (then `public`), or `null` for none. */
  aliases: Record<string, string | null>;
  /** Server connections per alias (`default_pool_size`; default 20). */
  poolSize?: number;
  /** Port to listen on (default: a free one). */
  port?: number;
  /** Directory for the ini (default: a new temporary one, removed by `stop`). */
  dir?: string;
}

/** A running PgBouncer. */
export interface Pgbouncer {
  port: number;
  /** The ini it runs with. */
  ini: string;
  /** `direct` with host and port replaced by PgBouncer's, and the database by `alias`. */
  url(alias: string): string;
  /** Its log (stderr) so far. */
  log(): string;
  /** Stops it (SIGINT: PgBouncer closes its connections) and removes its temporary directory. */
  stop(): Promise<void>;
}

/** The ini of {@link startPgbouncer}: transaction mode, clients not authenticated (`auth_type = any`), loopback only. */
export function pgbouncerIni(
  options: Required<Pick<PgbouncerOptions, 'direct' | 'aliases' | 'poolSize' | 'port'>> & { logfile: string },
): string {
  const d = new URL(options.direct);
  const server = [
    `host=${d.hostname}`,
    `port=${d.port || '5432'}`,
    `dbname=${decodeURIComponent(d.pathname.slice(1))}`,
    `user=${decodeURIComponent(d.username)}`,
    // none for a URL without one (trust authentication, or the server's own way): PgBouncer refuses an empty `password=`
    ...(d.password === '' ? [] : [`password=${decodeURIComponent(d.password)}`]),
  ].join(' ');
  const aliases = Object.entries(options.aliases).map(([alias, schema]) => {
    if (!/^[A-Za-z0-9_]+$/.test(alias) || (schema !== null && !/^[A-Za-z0-9_]+$/.test(schema)))
      throw new Error(`not a plain alias or schema name: ${alias} ${schema}`);
    return `${alias} = ${server}${schema === null ? '' : ` connect_query='SET search_path TO ${schema}, public'`}`;
  });
  return [
    '[databases]',
    ...aliases,
    '',
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${options.port}`,
    'unix_socket_dir =',
    'pool_mode = transaction',
    // clients are not authenticated (loopback, tests only); every alias logs in to the server as its user
    'auth_type = any',
    `default_pool_size = ${options.poolSize}`,
    'max_client_conn = 2000',
    // node-postgres sends no other startup parameter than this one (and `options` only when a URL asks for a
    // search_path, which PgBouncer then refuses: a schema needs an alias)
    'ignore_startup_parameters = extra_float_digits',
    // stderr when empty
    `logfile = ${options.logfile}`,
    'log_connections = 0',
    'log_disconnections = 0',
    '',
  ].join('\n');
}

/**
 * Starts PgBouncer with {@link pgbouncerIni} and resolves once it accepts connections (within 10 s).
 * @throws Error when PgBouncer is not installed, or exits or does not listen in time (its log attached)
 */
export async function startPgbouncer(options: PgbouncerOptions): Promise<Pgbouncer> {
  if (!hasPgbouncer()) throw new Error(`${PGBOUNCER_BIN} is missing: apt-get install pgbouncer`);
  const ownDir = options.dir === undefined;
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-pgbouncer-'));
  fs.mkdirSync(dir, { recursive: true });
  const port = options.port ?? (await freePort());
  const logfile = '';
  const ini = path.join(dir, 'pgbouncer.ini');
  fs.writeFileSync(
    ini,
    pgbouncerIni({ direct: options.direct, aliases: options.aliases, poolSize: options.poolSize ?? 20, port, logfile }),
  );
  // PgBouncer refuses to run as root (CI containers run as root): it then drops to `nobody`, so the
  // directory must be readable by it and its log goes to stderr (collected here) rather than a file
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    fs.chmodSync(dir, 0o755);
    fs.chmodSync(ini, 0o644);
  }
  const child: ChildProcess = spawn(PGBOUNCER_BIN, [...(asRoot ? ['-u', 'nobody'] : []), ini], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const log = () => stderr;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`pgbouncer exited at start:\n${log()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`pgbouncer did not listen on ${port} within 10 s:\n${log()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    port,
    ini,
    url(alias) {
      const u = new URL(options.direct);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      u.pathname = `/${alias}`;
      return u.toString();
    },
    log,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGINT');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      if (ownDir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
