/**
 * `@bizapi/mcp` as its users get it (issue 37 item 3, docs/mcp.md#the-package): `npm pack` in a clean copy of
 * mcp/ in the OS temporary directory (its committed files only: no node_modules, no compiler or tsx on PATH —
 * the package ships the committed dist/ and openapi.json, checked by mcp/test/build.test.ts), then, in an empty
 * directory outside this repository, `npx -y --package=<tarball> bizapi-mcp` exactly as the docs' snippets run
 * it: npx installs the tarball and its one dependency (`@modelcontextprotocol/sdk`, from the npm registry
 * through npm's cache) and starts it. The official MCP client connects to it over stdio, lists the tools (the
 * three default ones, and one per operation with `--full`) and calls tools against a live `bin/bizapi serve`
 * child that requires signatures. Nothing of this repository is in reach of the started package: a file it
 * needs but does not ship, or a dependency it does not declare, fails here.
 *
 * npx keeps what it installed under `<npm cache>/_npx/<hash>`; the entry made for this run's tarball is
 * removed afterwards.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../test/setup/factories.ts';
import { type BizapiProcess, cleanEnv, startServer } from '../../test/setup/server-process.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 240_000 });

const run = promisify(execFile);
const MCP = fileURLToPath(new URL('..', import.meta.url));

let t: TestApp;
let server: BizapiProcess;
let b: TestBusiness;
let scratch: string;
let tarball: string;
let packed: { filename: string; files: { path: string }[] };
let packStderr: string;
/** What the first `npx` run (install, then `--version`) wrote. */
let firstRun: { stdout: string; stderr: string };
/** The environment of npm and of the package: PATH without any node_modules/.bin (no tsx, no tsc, no workspace bin), nothing of the server's. */
let env: Record<string, string>;

/** `npx -y --package=<tarball> bizapi-mcp`, as in docs/mcp.md#the-package. */
const npxArgs = () => ['-y', `--package=${tarball}`, 'bizapi-mcp'];

beforeAll(async () => {
  t = await buildTestApp();
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-mcp-packed-'));
  fs.mkdirSync(path.join(scratch, 'data'));
  server = await startServer({
    databaseUrl: t.testDb.url,
    dataDir: path.join(scratch, 'data'),
    env: { BIZAPI_SIGNATURE_MODE: 'required' },
  });
  b = await newBusiness(t);

  const PATH = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => !dir.includes(`${path.sep}node_modules${path.sep}`))
    .join(path.delimiter);
  env = {
    ...(cleanEnv() as Record<string, string>),
    PATH,
    npm_config_loglevel: 'warn',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_update_notifier: 'false',
    npm_config_prefer_offline: 'true',
    BIZAPI_URL: `http://127.0.0.1:${server.port}`,
    BIZAPI_API_KEY: b.apiKey,
    BIZAPI_SECRET_KEY: b.secretKey,
  };
  for (const name of Object.keys(env)) if (name.startsWith('npm_') && !name.startsWith('npm_config_')) delete env[name];

  // A clean copy of mcp/: what a fresh clone holds there.
  const copy = path.join(scratch, 'mcp-copy');
  fs.cpSync(MCP, copy, {
    recursive: true,
    filter: (src) => !/(^|[\\/])(node_modules|[^\\/]+\.tgz)$/.test(path.relative(MCP, src)),
  });
  const pack = await run('npm', ['pack', '--json', '--pack-destination', scratch], {
    cwd: copy,
    env,
    timeout: 120_000,
  });
  packStderr = pack.stderr;
  packed = (JSON.parse(pack.stdout) as (typeof packed)[])[0]!;
  tarball = path.join(scratch, packed.filename);

  // An empty directory outside the repository, as an assistant's app starts it.
  fs.mkdirSync(path.join(scratch, 'app'));
  firstRun = await run('npx', [...npxArgs(), '--version'], { cwd: path.join(scratch, 'app'), env, timeout: 180_000 });
});

afterAll(async () => {
  await server?.stop();
  await t?.close();
  if (tarball !== undefined) {
    // npx's install of this tarball: <cache>/_npx/<hash>/package.json names it.
    const cache = (await run('npm', ['config', 'get', 'cache'], { env }).catch(() => ({ stdout: '' }))).stdout.trim();
    const npxDir = path.join(cache, '_npx');
    for (const entry of fs.existsSync(npxDir) ? fs.readdirSync(npxDir) : []) {
      const manifest = path.join(npxDir, entry, 'package.json');
      if (fs.existsSync(manifest) && fs.readFileSync(manifest, 'utf8').includes(tarball))
        fs.rmSync(path.join(npxDir, entry), { recursive: true, force: true });
    }
  }
  if (scratch !== undefined) fs.rmSync(scratch, { recursive: true, force: true });
});

/** The official MCP client, connected to `npx -y --package=<tarball> bizapi-mcp <args>` over stdio. */
async function connect(args: string[] = []): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: 'npx',
    args: [...npxArgs(), ...args],
    env,
    cwd: path.join(scratch, 'app'),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'bizapi-packed-test', version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (err) {
    throw new Error(`npx bizapi-mcp did not start: ${(err as Error).message}\n${stderr}`);
  }
  return { client, stderr: () => stderr };
}

/** A successful result's JSON (its `structuredContent`, the same as its text). */
function ok(result: CallToolResult): any {
  const text = (result.content[0] as { text: string }).text;
  expect(result.isError ?? false, text).toBe(false);
  expect(JSON.parse(text)).toEqual(result.structuredContent);
  return result.structuredContent;
}

/** The event stream never ends, so it is no tool (mcp/src/tools.ts). */
const STREAM_PATH = '/v1/event/stream';

/** The operation ids of the server's document under /v1 (but the stream). */
function v1OperationIds(): string[] {
  const doc = t.app.swagger() as unknown as { paths: Record<string, Record<string, { operationId?: string }>> };
  return Object.entries(doc.paths)
    .filter(([p]) => p.startsWith('/v1') && p !== STREAM_PATH)
    .flatMap(([, item]) =>
      Object.entries(item)
        .filter(([m]) => ['get', 'post', 'patch', 'put', 'delete'].includes(m))
        .map(([, op]) => op.operationId!),
    )
    .sort();
}

describe('the packed @bizapi/mcp, run with npx outside the repository', () => {
  it('packs from a clean copy of mcp/: the command, the bundle, its declarations and the document; no sources, no install script', () => {
    expect(packStderr).toBe('');
    const files = packed.files.map((f) => f.path).sort();
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        'bin/bizapi-mcp.js',
        'dist/index.d.ts',
        'dist/index.js',
        'openapi.json',
        'package.json',
      ]),
    );
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    const manifest = JSON.parse(fs.readFileSync(path.join(MCP, 'package.json'), 'utf8')) as {
      scripts?: Record<string, string>;
      dependencies: Record<string, string>;
    };
    expect(Object.keys(manifest.scripts ?? {}).filter((s) => /^(pre|post)?(install|prepare)$/.test(s))).toEqual([]);
    // @bizapi/client is not on the registry: it is bundled, not a dependency.
    expect(Object.keys(manifest.dependencies)).toEqual(['@modelcontextprotocol/sdk']);
  });

  it('npx installs it with no warning and runs it (--version)', () => {
    expect(firstRun.stdout.trim()).toBe(JSON.parse(fs.readFileSync(path.join(MCP, 'package.json'), 'utf8')).version);
    expect(firstRun.stderr).not.toMatch(/install-scripts|allowScripts|deprecated|ERR/i);
  });

  it('the default tools: three, under 2,000 tokens; call_operation creates and reads a client on the live server', async () => {
    const { client, stderr } = await connect();
    try {
      const { tools } = await client.listTools();
      expect(tools.map((x) => x.name).sort()).toEqual(['call_operation', 'describe_operation', 'list_operations']);
      expect(JSON.stringify({ tools }).length / 4).toBeLessThan(2000);
      const listed = ok((await client.callTool({ name: 'list_operations' })) as CallToolResult);
      expect(listed.operations.map((o: { id: string }) => o.id).sort()).toEqual(v1OperationIds());
      const created = ok(
        (await client.callTool({
          name: 'call_operation',
          arguments: { operation_id: 'client_create', arguments: { body: { companyName: 'Packed MCP Ltd.' } } },
        })) as CallToolResult,
      );
      expect(created).toMatchObject({ id: expect.any(Number), companyName: 'Packed MCP Ltd.' });
      const read = ok(
        (await client.callTool({
          name: 'call_operation',
          arguments: {
            operation_id: 'client_list',
            arguments: { search: ['Packed MCP'] },
            fields: ['id', 'companyName'],
          },
        })) as CallToolResult,
      );
      expect(read).toEqual({ results: [{ id: created.id, companyName: 'Packed MCP Ltd.' }], nextCursor: null });
      const invalid = (await client.callTool({
        name: 'call_operation',
        arguments: { operation_id: 'client_create', arguments: { body: {} } },
      })) as CallToolResult;
      expect(invalid.isError).toBe(true);
      expect((invalid.content[0] as { text: string }).text).toContain(
        'status 400: companyName: This field is required.',
      );
      expect(stderr()).toMatch(
        /bizapi-mcp: 3 tools over \d+ operations, calling http:\/\/127\.0\.0\.1:\d+ \(signature v1\)/,
      );
    } finally {
      await client.close();
    }
  });

  it('--full --read-only: one tool per read of the document; a tool call answers from the live server', async () => {
    const { client } = await connect(['--full', '--read-only']);
    try {
      const { tools } = await client.listTools();
      const doc = t.app.swagger() as unknown as { paths: Record<string, Record<string, { operationId?: string }>> };
      const reads = Object.entries(doc.paths)
        .filter(([p]) => p.startsWith('/v1') && p !== STREAM_PATH)
        .flatMap(([, item]) => (item.get?.operationId !== undefined ? [item.get.operationId] : []))
        .sort();
      expect(tools.map((x) => x.name).sort()).toEqual(reads);
      const page = ok(
        (await client.callTool({
          name: 'client_list',
          arguments: { search: ['Packed MCP'], fields: ['companyName'] },
        })) as CallToolResult,
      );
      expect(page).toEqual({ results: [{ companyName: 'Packed MCP Ltd.' }], nextCursor: null });
    } finally {
      await client.close();
    }
  });
});
