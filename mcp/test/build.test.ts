/**
 * What `@bizapi/mcp` packs is committed (issue 37 item 3: it packs and runs from a clean copy, with no build
 * step and no server), so it must be current:
 * - `openapi.json` is the document `bin/bizapi openapi` prints now (run `npm run generate` in mcp/ when it fails);
 * - `dist/` is what `npm run build` in mcp/ makes of mcp/src and sdk/src now (esbuild's bundle and tsc's
 *   declarations, built here into a scratch directory and compared file by file), its declarations naming no
 *   type of the bundled `@bizapi/client`;
 * - in a git checkout, both are tracked (a fresh clone has them).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { serverDocument } from '../../sdk/scripts/generate.ts';
// @ts-expect-error a JavaScript module without declarations (mcp/scripts/build.mjs)
import { build } from '../scripts/build.mjs';
import { DOCUMENT_FILE, documentText } from '../scripts/generate.ts';

const run = promisify(execFile);
const MCP = fileURLToPath(new URL('..', import.meta.url));

/** Every file under `dir`, relative, sorted. */
function filesOf(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-mcp-build-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe('the committed @bizapi/mcp build', () => {
  it('openapi.json is the document bin/bizapi openapi prints (run `npm run generate` in mcp/ when this fails)', async () => {
    expect(
      fs.readFileSync(DOCUMENT_FILE, 'utf8') === documentText(await serverDocument()),
      'mcp/openapi.json is stale: run `npm run generate` in mcp/',
    ).toBe(true);
  }, 60_000);

  it('dist/ is what `npm run build` in mcp/ makes now (run it and commit mcp/dist when this fails)', async () => {
    await (build as (outDir: string) => Promise<void>)(scratch);
    const fresh = filesOf(scratch);
    expect(fresh).toEqual(expect.arrayContaining(['index.js', 'index.d.ts']));
    expect(filesOf(path.join(MCP, 'dist'))).toEqual(fresh);
    for (const f of fresh)
      expect(
        fs.readFileSync(path.join(MCP, 'dist', f), 'utf8') === fs.readFileSync(path.join(scratch, f), 'utf8'),
        `mcp/dist/${f} is stale`,
      ).toBe(true);
    for (const f of fresh.filter((f) => f.endsWith('.d.ts')))
      expect(fs.readFileSync(path.join(scratch, f), 'utf8'), f).not.toContain('@bizapi/client');
    expect(fs.readFileSync(path.join(scratch, 'index.js'), 'utf8')).not.toMatch(/from ["']@bizapi\/client["']/);
  }, 120_000);

  it('both are tracked by git, when this is a git checkout', async () => {
    const inGit = await run('git', ['rev-parse', '--is-inside-work-tree'], { cwd: MCP }).then(
      () => true,
      () => false,
    );
    if (!inGit) return;
    const { stdout } = await run('git', ['ls-files', '--', 'dist', 'openapi.json'], { cwd: MCP });
    expect(
      stdout
        .split('\n')
        .filter((l) => l !== '')
        .sort(),
    ).toEqual([...filesOf(path.join(MCP, 'dist')).map((f) => `dist/${f}`), 'openapi.json'].sort());
  });
});
