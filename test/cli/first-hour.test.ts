/**
 * The first hour with the command line (README "Quick start"), in real processes: `serve --port/--host`,
 * a clear message for a busy port, the restart message of `serve --demo`, `request --all` across pages,
 * and one log format for the server and the worker. As a new user runs it: SQLite in a temporary
 * directory (the demo business needs an empty database; these are process behaviours, the same on both
 * dialects). One demo server serves the whole file, to keep the number of (slow) process starts small.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fetchJson } from '../setup/server-process.ts';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

const BIN = fileURLToPath(new URL('../../bin/bizapi', import.meta.url));

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-first-hour-'));
});
/** Children still running at the end (after a failure) are killed, never left behind. */
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A child's environment: none of the parent's bizapi settings; the database of this run. */
function childEnv(extra: Record<string, string> = {}, sqliteName = 'demo.db'): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(BIZAPI_|DATABASE_URL$|HOST$|PORT$|S3_|SMTP_URL$|PUSH_WEBHOOK_URL$|LOG_LEVEL$)/.test(name)) delete env[name];
  }
  return {
    ...env,
    DATABASE_URL: `sqlite:${path.join(dir, sqliteName)}`,
    BIZAPI_DATA_DIR: path.join(dir, 'data'),
    BIZAPI_MASTER_KEY: '0f'.repeat(32),
    BIZAPI_DISPATCHER: 'off',
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

/** Runs `bin/bizapi ARGS` to its end. */
function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env, cwd: dir, timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr });
    });
  });
}

/** A running `bizapi serve`: its port, and its output so far. */
interface Server {
  child: ChildProcess;
  port: number;
  stdout: () => string;
  stderr: () => string;
  stop: () => Promise<void>;
}

/** Starts `bin/bizapi serve ARGS` and waits for its "listening" line. */
function serve(args: string[], env: NodeJS.ProcessEnv): Promise<Server> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { env, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /bizapi listening on http:\/\/[^\s]+:(\d+)/.exec(err);
      if (m)
        resolve({
          child,
          port: Number(m[1]),
          stdout: () => out,
          stderr: () => err,
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
}

describe.sequential('the first hour', () => {
  let server: Server;
  let creds: { apiKey: string; secretKey: string };
  const env = () => childEnv({ LOG_LEVEL: 'info', PORT: '1', HOST: '10.255.255.1' });

  it('serve --demo --port --host: the flags override PORT and HOST; the credentials are printed once', async () => {
    server = await serve(['--demo', '--port', '0', '--host', '127.0.0.1'], env());
    expect(server.port).toBeGreaterThan(1);
    expect((await fetch(`http://127.0.0.1:${server.port}/healthz`)).status).toBe(200);
    // The credentials are the command's output: stdout (diagnostics stay on stderr).
    const key = /export BIZAPI_API_KEY=(\S+)/.exec(server.stdout());
    const secret = /export BIZAPI_SECRET_KEY=(\S+)/.exec(server.stdout());
    expect(server.stderr()).not.toContain('export BIZAPI_API_KEY=');
    expect(key).not.toBeNull();
    creds = { apiKey: key![1]!, secretKey: secret![1]! };
  });

  it('a busy port: a clear message, exit 1, no stack trace', async () => {
    const r = await run(['serve', '--port', String(server.port), '--host', '127.0.0.1'], env());
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`port ${server.port} is in use; pass --port or set PORT`);
    expect(r.stderr).not.toMatch(/EADDRINUSE|\n\s+at /);
  });

  it('request --all follows next across pages and prints one JSON array; only with GET', async () => {
    const baseUrl = `http://127.0.0.1:${server.port}`;
    for (let i = 0; i < 3; i++)
      expect((await fetchJson(baseUrl, creds, 'POST', '/v1/client', { companyName: `Paging ${i}` })).status).toBe(201);
    const ids: number[] = [];
    // Each page's absolute `next` link, followed as given (no base: the link names its host).
    for (let url: string | null = `${baseUrl}/v1/client?page_size=2`; url !== null;) {
      const page = (await fetchJson('', creds, 'GET', url)).body as {
        next: string | null;
        results: { id: number }[];
      };
      ids.push(...page.results.map((c) => c.id));
      url = page.next;
    }
    expect(ids.length).toBeGreaterThan(3);

    const auth = ['--base-url', baseUrl, '--key', creds.apiKey, '--secret', creds.secretKey];
    const all = await run(['request', 'GET', '/v1/client?page_size=2', '--all', ...auth], env());
    expect(all.code, all.stderr).toBe(0);
    const list = JSON.parse(all.stdout) as { id: number }[];
    expect(list.map((c) => c.id)).toEqual(ids);

    const post = await run(['request', 'POST', '/v1/client', '--all', ...auth], env());
    expect(post.code).not.toBe(0);
    expect(post.stdout).toBe('');
    expect(post.stderr).toContain('use it with GET');
  });

  it('the server and the worker write one log format: level by name, ISO time, pid, hostname, msg', async () => {
    const worker = spawn(process.execPath, [BIN, 'worker'], {
      env: env(),
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(worker);
    let werr = '';
    await new Promise<void>((resolve) => {
      worker.stderr!.on('data', (d: Buffer) => {
        werr += d.toString();
        if (werr.includes('delivering notifications')) resolve();
      });
    });
    await new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
      worker.kill('SIGTERM');
    });
    const parse = (text: string) =>
      text
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    const serverLines = parse(server.stdout());
    const workerLines = parse(werr);
    expect(serverLines.length).toBeGreaterThan(0);
    expect(workerLines.length).toBeGreaterThan(0);
    for (const line of [...serverLines, ...workerLines]) {
      expect(Object.keys(line).slice(0, 4)).toEqual(['level', 'time', 'pid', 'hostname']);
      expect(['trace', 'debug', 'info', 'warn', 'error', 'fatal']).toContain(line.level);
      expect(line.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(typeof line.pid).toBe('number');
      expect(typeof line.msg).toBe('string');
    }
  });

  it('a restart with --demo says where the credentials went and how to get a key', async () => {
    await server.stop();
    const second = await serve(['--demo', '--port', '0', '--host', '127.0.0.1'], env());
    expect(second.stdout() + second.stderr()).not.toContain('export BIZAPI_API_KEY=');
    expect(second.stderr()).toContain('were printed\nonly once, on the first start');
    expect(second.stderr()).toContain('bin/bizapi key create --business 1');
    await second.stop();
  });
});
