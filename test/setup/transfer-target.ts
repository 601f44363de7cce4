/**
 * The target side of the transfer tests (docs/deployment.md#11-moving-a-business-in-and-out): a fresh, empty
 * database of the dialect under test (a SQLite file, or a schema of its own on PostgreSQL), the environment of
 * `bizapi` processes on it, and `bizapi import` / `bizapi business list` run as processes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { runUntilExit, serverEnv } from './server-process.ts';
import { DIALECT } from './test-db.ts';
import { urlWithSchema } from './test-workers.ts';
import type { Keys } from './transfer-source.ts';

/** A fresh, empty target database and its data directory; `drop` removes both. */
export interface Target {
  url: string;
  dir: string;
  drop(): Promise<void>;
}

let targets = 0;

/** A fresh target: a new SQLite file (migrated), or on PostgreSQL a new schema of the test database (search_path in the URL). */
export async function freshTarget(): Promise<Target> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-target-'));
  if (DIALECT === 'sqlite') {
    const t: Target = {
      url: `sqlite:${path.join(dir, 'target.db')}`,
      dir,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
    // `bizapi import` opens an existing SQLite database only: a fresh server's is made by `bizapi migrate`.
    const migrated = await runUntilExit(['migrate'], targetEnv(t));
    if (migrated.code !== 0) throw new Error(`bizapi migrate failed: ${migrated.stderr}`);
    return t;
  }
  const base = process.env.DATABASE_URL!;
  const schema = `import_${process.pid}_${++targets}`;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  await client.query(`drop schema if exists ${schema} cascade`);
  await client.query(`create schema ${schema}`);
  await client.end();
  const url = urlWithSchema(base, schema);
  return {
    url,
    dir,
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The environment of a `bizapi` process on the target: rate limit off and, unless `env` says otherwise,
 * `BIZAPI_IMPORT_ALLOW_PRIVATE=true` (the test sources serve their attachments from 127.0.0.1;
 * docs/deployment.md#source-limits); then `env`.
 */
export function targetEnv(t: Target, env: Record<string, string> = {}): NodeJS.ProcessEnv {
  return serverEnv({
    databaseUrl: t.url,
    dataDir: t.dir,
    env: { BIZAPI_RATE_LIMIT: '0', BIZAPI_IMPORT_ALLOW_PRIVATE: 'true', ...env },
  });
}

/** Runs `bizapi import --from` into the target (`--rate 0`); answers the exit code, the parsed answer (exit 0) and both outputs. */
export async function runImport(
  t: Target,
  from: string,
  keys: Keys,
  extra: string[] = [],
  env: Record<string, string> = {},
) {
  const r = await runUntilExit(
    ['import', '--from', from, '--api-key', keys.apiKey, '--secret-key', keys.secretKey, '--rate', '0', ...extra],
    targetEnv(t, env),
  );
  return { code: r.code, answer: r.code === 0 ? JSON.parse(r.stdout) : undefined, stdout: r.stdout, stderr: r.stderr };
}

/** The businesses of the target (`bizapi business list`). @throws when the command fails */
export async function businesses(t: Target): Promise<any[]> {
  const r = await runUntilExit(['business', 'list'], targetEnv(t));
  if (r.code !== 0) throw new Error(`bizapi business list failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}
