/**
 * The SDK as its users get it (issues 26 and 36): `npm pack` in a clean copy of sdk/ in the OS temporary
 * directory (its committed files only: no node_modules, no root `npm install` in reach, so no compiler — the
 * package ships the committed sdk/dist, checked by sdk/test/dist.test.ts, and has no `prepare` or install
 * script), the tarball installed with a plain `npm install` (scripts allowed, as a user runs it) into a scratch
 * app outside this repository (no workspace link, none of the repository's node_modules in reach), npm printing
 * no warning about install scripts, then
 * - a plain Node ES-module app, and a CommonJS one (`require` of the ES module, Node 20.19+), and
 * - a TypeScript app (`strict`, `module: NodeNext`, `exactOptionalPropertyTypes`, `skipLibCheck: false`)
 *   type-checked and compiled with `tsc`, a `@ts-expect-error` proving the types are the API's,
 * each run against a live server (the app listening on a port, signatures required): list, create, a typed
 * error (400 with its field map).
 *
 * Dependencies come from the npm registry through npm's cache (`--prefer-offline`: `npm ci` of this
 * repository has just cached `openapi-fetch`, `openapi-typescript-helpers` and `@types/node`), not copied from
 * this repository's node_modules: a dependency missing from sdk/package.json must fail here.
 * The compiler is this repository's TypeScript (the consumer's own version does not matter to the test).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../test/setup/factories.ts';

const run = promisify(execFile);
const SDK = fileURLToPath(new URL('..', import.meta.url));
const TSC = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
const TYPES_NODE = (
  JSON.parse(fs.readFileSync(new URL('../../node_modules/@types/node/package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

let t: TestApp;
let base: string;
let b: TestBusiness;
let scratch: string;
let packed: { filename: string; files: { path: string }[] };
/** What `npm pack` in the clean copy and `npm install` of the tarball wrote to stderr. */
let packStderr: string;
let installStderr: string;

/** The environment of the apps: the server and credentials, nothing of this repository. */
const appEnv = () => ({
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? os.tmpdir(),
  BIZAPI_URL: base,
  BIZAPI_API_KEY: b.apiKey,
  BIZAPI_SECRET_KEY: b.secretKey,
});

/** Runs one app (`node <file>`) in the scratch directory; its stdout is one JSON line. */
async function runApp(file: string): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, ['--no-warnings', file], {
    cwd: scratch,
    env: appEnv(),
    timeout: 30_000,
  });
  return JSON.parse(stdout.trim()) as Record<string, unknown>;
}

const PLAIN_MJS = `import { BizapiError, createBizapi } from '@bizapi/client';
const bizapi = createBizapi({ baseUrl: process.env.BIZAPI_URL, apiKey: process.env.BIZAPI_API_KEY, secretKey: process.env.BIZAPI_SECRET_KEY });
const created = await bizapi.call('client_create', { body: { companyName: 'Packed ESM Ltd.' } });
const list = await bizapi.call('client_list', { params: { query: { search: ['Packed ESM'] } } });
let error;
try { await bizapi.call('client_create', { body: {} }); } catch (err) { error = err instanceof BizapiError ? { status: err.status, fields: err.fields } : String(err); }
console.log(JSON.stringify({ created: created.companyName, listed: list.results.map((c) => c.id).includes(created.id), error }));
`;

const PLAIN_CJS = `const { BizapiError, createBizapi } = require('@bizapi/client');
const bizapi = createBizapi({ baseUrl: process.env.BIZAPI_URL, apiKey: process.env.BIZAPI_API_KEY, secretKey: process.env.BIZAPI_SECRET_KEY, signatureVersion: 'v1' });
(async () => {
  const list = await bizapi.call('client_list', { params: { query: { page_size: 1 } } });
  let error;
  try { await bizapi.call('client_retrieve', { params: { path: { client_id: 999999999 } } }); } catch (err) { error = err instanceof BizapiError ? { status: err.status, code: err.code } : String(err); }
  console.log(JSON.stringify({ isArray: Array.isArray(list.results), error }));
})();
`;

const APP_TS = `import { BizapiError, createBizapi, type ResultOf } from '@bizapi/client';

const env = (name: string): string => {
  const v = process.env[name];
  if (v === undefined) throw new Error(name + ' is not set');
  return v;
};
const bizapi = createBizapi({ baseUrl: env('BIZAPI_URL'), apiKey: env('BIZAPI_API_KEY'), secretKey: env('BIZAPI_SECRET_KEY') });
const created: ResultOf<'client_create'> = await bizapi.call('client_create', { body: { companyName: 'Packed TS GmbH' } });
const ids: number[] = [];
for await (const c of bizapi.paginate('client_list', { params: { query: { search: ['Packed TS'], page_size: 1 } } })) ids.push(c.id);
// @ts-expect-error companyName is a string: the types are the API's, not any
const wrong = () => bizapi.call('client_create', { body: { companyName: 42 } });
void wrong;
let error: { status: number; fields: BizapiError['fields'] } | undefined;
try {
  await bizapi.call('client_create', { body: { companyName: '' } });
} catch (err) {
  if (err instanceof BizapiError) error = { status: err.status, fields: err.fields };
}
console.log(JSON.stringify({ created: created.companyName, listed: ids.includes(created.id), error }));
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    types: ['node'],
    outDir: 'out',
  },
  files: ['app.ts'],
};

beforeAll(async () => {
  t = await buildTestApp({ BIZAPI_SIGNATURE_MODE: 'required' });
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  b = await newBusiness(t);
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-sdk-packed-'));
  // A clean copy of sdk/: what a fresh clone holds there (not node_modules, not an earlier tarball).
  const copy = path.join(scratch, 'sdk-copy');
  fs.cpSync(SDK, copy, {
    recursive: true,
    filter: (src) => !/(^|[\\/])(node_modules|[^\\/]+\.tgz)$/.test(path.relative(SDK, src)),
  });
  // PATH without this repository's node_modules/.bin (npx and vitest put it there): no `tsc` in reach.
  const PATH = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => !dir.includes(`${path.sep}node_modules${path.sep}`))
    .join(path.delimiter);
  const npmEnv = {
    ...process.env,
    PATH,
    npm_config_loglevel: 'warn',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_update_notifier: 'false',
  };
  const pack = await run('npm', ['pack', '--json', '--pack-destination', scratch], {
    cwd: copy,
    env: npmEnv,
    timeout: 120_000,
  });
  packStderr = pack.stderr;
  packed = (JSON.parse(pack.stdout) as (typeof packed)[])[0]!;
  fs.writeFileSync(
    path.join(scratch, 'package.json'),
    JSON.stringify({
      name: 'scratch-app',
      private: true,
      type: 'module',
      dependencies: { '@bizapi/client': `file:./${packed.filename}` },
      devDependencies: { '@types/node': TYPES_NODE },
    }),
  );
  const install = await run('npm', ['install', '--prefer-offline', '--no-package-lock'], {
    cwd: scratch,
    env: npmEnv,
    timeout: 120_000,
  });
  installStderr = install.stderr;
  fs.writeFileSync(path.join(scratch, 'plain.mjs'), PLAIN_MJS);
  fs.writeFileSync(path.join(scratch, 'plain.cjs'), PLAIN_CJS);
  fs.writeFileSync(path.join(scratch, 'app.ts'), APP_TS);
  fs.writeFileSync(path.join(scratch, 'tsconfig.json'), JSON.stringify(TSCONFIG));
}, 240_000);

afterAll(async () => {
  await t?.close();
  if (scratch !== undefined) fs.rmSync(scratch, { recursive: true, force: true });
});

describe('the packed SDK, installed outside the repository', () => {
  it('packs from a clean copy of sdk/ (no compiler in reach) and installs with no install script and no warning', () => {
    expect(packStderr).toBe('');
    expect(installStderr).not.toMatch(/install-scripts|allowScripts|prepare/i);
    expect(installStderr).toBe('');
    const manifest = JSON.parse(
      fs.readFileSync(path.join(scratch, 'node_modules', '@bizapi', 'client', 'package.json'), 'utf8'),
    ) as { scripts?: Record<string, string> };
    const lifecycle = ['preinstall', 'install', 'postinstall', 'prepare', 'preprepare', 'postprepare'];
    expect(Object.keys(manifest.scripts ?? {}).filter((name) => lifecycle.includes(name))).toEqual([]);
  });

  it('the tarball holds compiled JavaScript and declarations, no TypeScript sources, no .ts imports', () => {
    const files = packed.files.map((f) => f.path).sort();
    expect(files).toContain('dist/index.js');
    expect(files).toContain('dist/index.d.ts');
    expect(files).toContain('package.json');
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    expect(files.filter((f) => !f.startsWith('dist/') && !['package.json', 'README.md'].includes(f))).toEqual([]);
    const installed = path.join(scratch, 'node_modules', '@bizapi', 'client');
    expect(fs.lstatSync(installed).isSymbolicLink()).toBe(false);
    for (const f of files.filter((f) => f.startsWith('dist/'))) {
      expect(fs.readFileSync(path.join(installed, f), 'utf8'), f).not.toMatch(/from '\.{1,2}\/[^']*\.ts'/);
    }
  });

  it('a plain Node ES-module app: create, list, a typed 400', async () => {
    expect(await runApp('plain.mjs')).toEqual({
      created: 'Packed ESM Ltd.',
      listed: true,
      error: { status: 400, fields: { companyName: [expect.any(String)] } },
    });
  });

  it('a CommonJS app (require of the ES module) with v1 signatures: list, a typed 404', async () => {
    expect(await runApp('plain.cjs')).toEqual({ isArray: true, error: { status: 404, code: 'not_found' } });
  });

  it('a TypeScript app (strict, NodeNext, exactOptionalPropertyTypes, no skipLibCheck) type-checks, compiles and runs', async () => {
    const tsc = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: scratch, timeout: 120_000 }).then(
      () => '',
      (err: { stdout?: string }) => err.stdout ?? String(err),
    );
    expect(tsc).toBe('');
    expect(await runApp('out/app.js')).toEqual({
      created: 'Packed TS GmbH',
      listed: true,
      error: { status: 400, fields: { companyName: [expect.any(String)] } },
    });
  }, 120_000);
});
