/**
 * A mistyped SQLite path is not a new, empty database (issue 36, item 3), in real `bin/bizapi` processes:
 * - every command that opens a database but `serve`, `migrate`, `demo` and `business create` refuses a SQLite
 *   file that does not exist, with a message naming the path, and creates nothing (no file, no directory);
 * - `migrate` and `business create` still create it;
 * - `import`, `export` and `backup` name the database they opened on stderr, like every other such command
 *   (on the database under test: SQLite, or the PostgreSQL database `DATABASE_URL` names).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runUntilExit, serverEnv } from '../setup/server-process.ts';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness } from '../setup/factories.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 90_000 });

let dir: string;
let t: TestApp;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-missing-db-'));
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a SQLite database that does not exist', () => {
  it.each([
    ['business list', ['business', 'list']],
    ['key list', ['key', 'list', '--business', '1']],
    ['key create', ['key', 'create', '--business', '1']],
    ['catalog import', ['catalog', 'import', '--business', '1', 'examples/catalog.json']],
    ['webhook list', ['webhook', 'list', '--business', '1']],
    ['import --file', ['import', '--file', 'nowhere.jsonl.gz']],
    ['export', ['export', '--business', '1', '--out', os.tmpdir() + '/bizapi-never-written.jsonl.gz']],
    ['backup', ['backup', '--out', os.tmpdir() + '/bizapi-never-written.db']],
    ['worker', ['worker']],
  ])('%s: refused, naming the path; nothing is created', async (_name, args) => {
    const missing = path.join(dir, 'typo', 'nested', 'bizapi.db');
    const r = await runUntilExit(
      args,
      serverEnv({ databaseUrl: `sqlite:${missing}`, dataDir: path.join(dir, 'data') }),
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`bizapi: database sqlite:${missing}`);
    expect(r.stderr).toContain(`There is no SQLite database at ${missing}`);
    expect(r.stderr).toContain('bizapi migrate');
    expect(fs.existsSync(path.join(dir, 'typo'))).toBe(false);
  });

  it('migrate and business create create it', async () => {
    const fresh = path.join(dir, 'new', 'one.db');
    const env = serverEnv({ databaseUrl: `sqlite:${fresh}`, dataDir: path.join(dir, 'data-new') });
    const created = await runUntilExit(['business', 'create', '--name', 'Fresh', '--plan', 'FREE'], env);
    expect(created.code, created.stderr).toBe(0);
    expect(fs.existsSync(fresh)).toBe(true);
    const listed = await runUntilExit(['business', 'list'], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as { name: string }[]).map((b) => b.name)).toEqual(['Fresh']);
    const other = path.join(dir, 'other', 'two.db');
    const migrated = await runUntilExit(
      ['migrate'],
      serverEnv({ databaseUrl: `sqlite:${other}`, dataDir: path.join(dir, 'data-other') }),
    );
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(fs.existsSync(other)).toBe(true);
  });
});

describe('import, export and backup name the database they opened', () => {
  it.each([
    ['export', (id: number) => ['export', '--business', String(id), '--out', path.join(dir, `named-${id}.jsonl.gz`)]],
    ['import --file', () => ['import', '--file', path.join(dir, 'not-there.jsonl.gz')]],
    ['backup', () => ['backup', '--out', path.join(dir, `named-${Date.now()}.db`)]],
  ])('%s', async (_name, args) => {
    const b = await newBusiness(t);
    const r = await runUntilExit(
      args(b.businessId),
      serverEnv({ databaseUrl: t.testDb.url, dataDir: path.join(dir, 'data-named') }),
    );
    const line = r.stderr.split('\n').find((l) => l.startsWith('bizapi: database '));
    expect(line, r.stderr).toBeDefined();
    expect(line).toContain('(DATABASE_URL from the environment)');
    if (t.testDb.url.startsWith('sqlite:')) expect(line).toContain(t.testDb.url);
    else {
      const url = new URL(t.testDb.url);
      // the password masked; a URL without one (trust authentication, e.g. the Citus cluster) shown as given
      expect(line).toContain(url.password !== '' ? `${url.username}:***@${url.host}` : `${url.username}@${url.host}`);
      if (url.password !== '') expect(r.stderr).not.toContain(`:${url.password}@`);
    }
  });
});
