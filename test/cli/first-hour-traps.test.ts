/**
 * Traps of a first hour with the command line (issue 26), in real `bin/bizapi` processes on the test
 * database (SQLite in a temporary directory, or the PostgreSQL database `DATABASE_URL` names):
 * - every command that opens the database says which one on stderr (the password masked), and a command that
 *   falls back to the default SQLite file while the installation's `.env` names another database warns;
 * - `key revoke` takes the id or the prefix that `key list` shows (or the full key);
 * - `request DELETE` prints `{"status": 204}`;
 * - the README's provisioning commands name catalog files that exist, and run as written;
 * - without a loadable SQLite driver, the refusal names the cause (no binary, no compiler) and the fixes;
 * - the server writes one log line per request at `info`, none for the probes; `debug` adds them.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BIN, cleanEnv, LISTENING } from '../setup/server-process.ts';
import { TEST_MASTER_KEY_HEX } from '../setup/build-test-app.ts';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const ON_POSTGRES = process.env.DATABASE_URL?.startsWith('postgres') === true;

let dir: string;
let databaseUrl: string;
const children = new Set<ChildProcess>();
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-first-hour-traps-'));
  databaseUrl = ON_POSTGRES ? process.env.DATABASE_URL! : `sqlite:${path.join(dir, 'traps.db')}`;
});
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The environment of a child: none of this process's bizapi settings, then the test database and `extra`. */
function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...cleanEnv(),
    DATABASE_URL: databaseUrl,
    BIZAPI_DATA_DIR: path.join(dir, 'data'),
    BIZAPI_MASTER_KEY: TEST_MASTER_KEY_HEX,
    BIZAPI_DISPATCHER: 'off',
    BIZAPI_MAX_EVENT_LOOP_DELAY: '0',
    LOG_LEVEL: 'warn',
    ...extra,
  };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  return env;
}

/** Runs `node BIN ARGS` to its end in `cwd`. */
function run(
  args: string[],
  env: NodeJS.ProcessEnv,
  { bin = BIN, cwd = dir } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { env, cwd, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr });
    });
  });
}

function ok(r: { code: number; stdout: string; stderr: string }): any {
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe.sequential('the first hour with the CLI', () => {
  let business: { id: number };
  let first: { apiKey: string; secretKey: string };

  it('each command says which database it opened, with the password masked', async () => {
    const r = await run(['business', 'create', '--name', `Traps ${Date.now()}`, '--plan', 'AGENCY'], childEnv());
    const out = ok(r);
    business = out.business;
    first = { apiKey: out.apiKey, secretKey: out.secretKey };
    const line = r.stderr.split('\n').find((l) => l.startsWith('bizapi: database '));
    expect(line, r.stderr).toBeDefined();
    expect(line).toContain('(DATABASE_URL from the environment)');
    if (ON_POSTGRES) {
      const url = new URL(databaseUrl);
      if (url.password !== '') {
        expect(line).toContain(`${url.username}:***@${url.host}`);
        expect(r.stderr).not.toContain(`:${url.password}@`);
      } else {
        // a URL without a password (trust authentication, e.g. the Citus cluster) is shown as given: nothing to mask, nothing invented
        expect(line).toContain(`${url.username}@${url.host}`);
        expect(line).not.toContain(':***@');
      }
    } else {
      expect(line).toContain(`sqlite:${path.join(dir, 'traps.db')}`);
    }
    // Commands that open no database say nothing about one.
    const sign = await run(['sign', '--secret', 's', '--data', '{}', '--hex'], childEnv());
    expect(sign.code, sign.stderr).toBe(0);
    expect(sign.stderr).not.toContain('bizapi: database');
  });

  it("the default SQLite file while the installation's .env names another database: a warning naming both", async () => {
    // An installation of its own (a copy of bin/ and src/ with the repository's node_modules), whose .env
    // names a database, and a command run from another directory without DATABASE_URL.
    const inst = path.join(dir, 'inst');
    fs.mkdirSync(inst);
    fs.cpSync(path.join(REPO, 'bin'), path.join(inst, 'bin'), { recursive: true });
    fs.cpSync(path.join(REPO, 'src'), path.join(inst, 'src'), { recursive: true });
    fs.copyFileSync(path.join(REPO, 'package.json'), path.join(inst, 'package.json'));
    fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(inst, 'node_modules'));
    fs.writeFileSync(path.join(inst, '.env'), 'DATABASE_URL=postgres://app:s3cret-pw@db.example:5432/bizapi\n');
    const elsewhere = path.join(dir, 'elsewhere');
    fs.mkdirSync(elsewhere);
    const r = await run(['migrate'], childEnv({ DATABASE_URL: undefined, BIZAPI_DATA_DIR: undefined }), {
      bin: path.join(inst, 'bin', 'bizapi'),
      cwd: elsewhere,
    });
    ok(r);
    expect(r.stderr).toContain(
      `bizapi: database sqlite:${path.join(fs.realpathSync(elsewhere), 'data', 'bizapi.db')} (the default: DATABASE_URL is not set)`,
    );
    expect(r.stderr).toMatch(
      /bizapi: warning: .*inst\/\.env sets DATABASE_URL=postgres:\/\/app:\*\*\*@db\.example:5432\/bizapi/,
    );
    expect(r.stderr).toContain('run it from that directory, or set DATABASE_URL');
    expect(r.stderr).not.toContain('s3cret-pw');
  });

  it("the README's provisioning commands name catalog files that exist; they import as written", async () => {
    const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Provisioning'));
    const commands = section
      .slice(0, section.indexOf('```\n', section.indexOf('```bash') + 7))
      .split('\n')
      .filter((l) => /^bin\/bizapi (business create|catalog import)/.test(l));
    expect(commands).toHaveLength(2);
    const files = commands.flatMap((c) => c.split(/\s+/).filter((w) => w.endsWith('.json')));
    expect(files).toEqual(['examples/catalog.json', 'examples/more-catalog.json']);
    for (const f of files) expect(fs.existsSync(path.join(REPO, f)), f).toBe(true);
    // The catalog shown in the README is examples/catalog.json.
    const shown = /```json\n(\{\n {2}"grades"[\s\S]*?)\n```/.exec(section)![1]!;
    expect(JSON.parse(fs.readFileSync(path.join(REPO, 'examples/catalog.json'), 'utf8'))).toEqual(JSON.parse(shown));
    // As written (from the repository's directory), with this business's id.
    const argv = (c: string) => c.replace(/#.*/, '').trim().split(/\s+/).slice(1);
    const created = ok(await run(argv(commands[0]!), childEnv(), { cwd: REPO }));
    expect(Object.keys(created.catalog.members)).toEqual(['kim']);
    const more = ok(
      await run(
        argv(commands[1]!).map((w) => (w === '2' ? String(created.business.id) : w)),
        childEnv(),
        { cwd: REPO },
      ),
    );
    expect(Object.keys(more.members)).toEqual(['lee']);
  });

  it('no SQLite driver installed: the message names the cause and the fixes, not --omit=optional', async () => {
    // An installation whose node_modules lacks both drivers (what npm leaves when the build failed).
    const inst = path.join(dir, 'no-driver');
    fs.mkdirSync(path.join(inst, 'node_modules'), { recursive: true });
    fs.cpSync(path.join(REPO, 'bin'), path.join(inst, 'bin'), { recursive: true });
    fs.cpSync(path.join(REPO, 'src'), path.join(inst, 'src'), { recursive: true });
    fs.copyFileSync(path.join(REPO, 'package.json'), path.join(inst, 'package.json'));
    for (const name of fs.readdirSync(path.join(REPO, 'node_modules'))) {
      if (name === 'better-sqlite3' || name === 'better-sqlite3-napi') continue;
      fs.symlinkSync(path.join(REPO, 'node_modules', name), path.join(inst, 'node_modules', name));
    }
    const r = await run(['migrate'], childEnv({ DATABASE_URL: `sqlite:${path.join(dir, 'no-driver.db')}` }), {
      bin: path.join(inst, 'bin', 'bizapi'),
      cwd: inst,
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('no SQLite driver could be loaded');
    expect(r.stderr).toContain('C++ compiler');
    expect(r.stderr).toContain('Node 22.14 or newer');
    expect(r.stderr).toContain('DATABASE_URL');
    expect(r.stderr).not.toContain('--omit=optional');
  });

  it('key revoke takes the id or the prefix that key list shows; an unknown one names key list', async () => {
    const env = childEnv();
    const second = ok(await run(['key', 'create', '--business', String(business.id)], env));
    const third = ok(await run(['key', 'create', '--business', String(business.id)], env));
    const { keys } = ok(await run(['key', 'list', '--business', String(business.id)], env)) as {
      keys: { id: number; prefix: string; revokedAt: string | null }[];
    };
    expect(keys).toHaveLength(3);
    const [k2, k3] = [
      keys.find((k) => second.apiKey.startsWith(k.prefix))!,
      keys.find((k) => third.apiKey.startsWith(k.prefix))!,
    ];
    expect(ok(await run(['key', 'revoke', k2.prefix], env))).toEqual({ revoked: true, id: k2.id });
    expect(ok(await run(['key', 'revoke', String(k3.id)], env))).toEqual({ revoked: true, id: k3.id });
    const after = ok(await run(['key', 'list', '--business', String(business.id)], env)) as {
      keys: { id: number; revokedAt: string | null }[];
    };
    expect(
      after.keys
        .filter((k) => k.revokedAt !== null)
        .map((k) => k.id)
        .sort(),
    ).toEqual([k2.id, k3.id].sort());
    const again = await run(['key', 'revoke', k2.prefix], env);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toContain('bizapi key list --business ID');
  });

  it('serve: one log line per request at info, none for the probes; request DELETE prints {"status": 204}', async () => {
    const env = childEnv({ LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: '0' });
    const child = spawn(process.execPath, [BIN, 'serve'], { env, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    const port = await new Promise<number>((resolve, reject) => {
      child.stderr!.on('data', (d: Buffer) => {
        stderr += d.toString();
        const m = LISTENING.exec(stderr);
        if (m) resolve(Number(m[1]));
      });
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      for (let i = 0; i < 5; i++) expect((await fetch(`${base}/healthz`)).status).toBe(200);
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      const auth = ['--base-url', base, '--key', first.apiKey, '--secret', first.secretKey];
      const created = ok(
        await run(['request', 'POST', '/v1/client', '--data', '{"companyName":"To delete"}', ...auth], env),
      );
      const deleted = await run(['request', 'DELETE', `/v1/client/${created.id}`, ...auth], env);
      expect(ok(deleted)).toEqual({ status: 204 });
      const list = await run(['request', 'GET', '/v1/client?page_size=1', ...auth], env);
      expect(list.code, list.stderr).toBe(0);

      await expect
        .poll(() => stdout.split('\n').filter((l) => l.includes('"request completed"')).length, { timeout: 10_000 })
        .toBe(3);
      const lines = stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map(
          (l) =>
            JSON.parse(l) as {
              level: string;
              msg: string;
              req?: { method: string; url: string };
              res?: { statusCode: number };
              responseTime?: number;
            },
        );
      const requests = lines.filter((l) => l.msg === 'request completed');
      expect(requests.map((l) => [l.level, l.req?.method, l.req?.url.split('?')[0], l.res?.statusCode])).toEqual([
        ['info', 'POST', '/v1/client', 201],
        ['info', 'DELETE', `/v1/client/${created.id}`, 204],
        ['info', 'GET', '/v1/client', 200],
      ]);
      for (const l of requests) expect(l.responseTime).toBeGreaterThanOrEqual(0);
      expect(lines.filter((l) => l.msg === 'incoming request')).toEqual([]);
      expect(stdout).not.toContain('/healthz');
      expect(stdout).not.toContain('/readyz');
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('serve at LOG_LEVEL=debug logs the probes too', async () => {
    const env = childEnv({ LOG_LEVEL: 'debug', HOST: '127.0.0.1', PORT: '0' });
    const child = spawn(process.execPath, [BIN, 'serve'], { env, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    const port = await new Promise<number>((resolve, reject) => {
      child.stderr!.on('data', (d: Buffer) => {
        stderr += d.toString();
        const m = LISTENING.exec(stderr);
        if (m) resolve(Number(m[1]));
      });
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
    });
    try {
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      await expect
        .poll(
          () =>
            stdout
              .split('\n')
              .filter(
                (l) => l.includes('"request completed"') && l.includes('/healthz') && l.includes('"level":"debug"'),
              ).length,
          { timeout: 10_000 },
        )
        .toBe(1);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
