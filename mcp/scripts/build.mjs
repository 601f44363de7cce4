// `npm run build` in mcp/: dist/index.js, one ES module bundled by esbuild from src/ with @bizapi/client (the
// sdk/ workspace, from its sources) and openapi-fetch inside it — @bizapi/client is not on the npm registry, so
// the package cannot depend on it — and @modelcontextprotocol/sdk left as the package's one dependency; then
// dist/*.d.ts by tsc (tsconfig.build.json). dist/ is committed (the package packs and runs with no build step
// and no install script); mcp/test/build.test.ts builds into a scratch directory and fails when it differs.
//
// Usage: node scripts/build.mjs [--out <dir>]   (default: dist/)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import * as esbuild from 'esbuild';

const MCP = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);

/**
 * Builds the package into `outDir` (emptied first): `index.js` and the declarations.
 * @param {string} outDir an absolute directory
 */
export async function build(outDir) {
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  await esbuild.build({
    absWorkingDir: MCP,
    entryPoints: ['src/index.ts'],
    outfile: path.join(outDir, 'index.js'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    conditions: ['bizapi-source'],
    external: ['@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*'],
    legalComments: 'eof',
    banner: {
      js: '// @bizapi/mcp, built by scripts/build.mjs from src/ and @bizapi/client (bundled by esbuild). Do not edit.',
    },
    logLevel: 'warning',
  });
  const tsc = require.resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', outDir], {
    cwd: MCP,
    stdio: 'inherit',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--out');
  await build(i > 0 ? path.resolve(process.argv[i + 1]) : path.join(MCP, 'dist'));
}
