/**
 * sdk/dist is committed (issue 36 item 5: `npm pack` in a clean copy of sdk/ needs no compiler, and the package
 * runs no `prepare` or install script), so it must be what `npm run build` in sdk/ makes of sdk/src now: this
 * test compiles sdk/src with sdk/tsconfig.build.json into a scratch directory and compares every file, and (in a
 * git checkout) checks that each is tracked. Run `npm run build` in sdk/ (and commit sdk/dist) when it fails.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const SDK = fileURLToPath(new URL('..', import.meta.url));
const TSC = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));

/** Every file under `dir`, relative, sorted. */
function filesOf(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-sdk-dist-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe('sdk/dist (committed)', () => {
  it('is what `npm run build` in sdk/ makes of sdk/src (run it and commit sdk/dist when this fails)', async () => {
    await run(process.execPath, [TSC, '-p', 'tsconfig.build.json', '--outDir', scratch], {
      cwd: SDK,
      timeout: 120_000,
    });
    const fresh = filesOf(scratch);
    expect(fresh).toContain('index.js');
    expect(filesOf(path.join(SDK, 'dist'))).toEqual(fresh);
    for (const f of fresh)
      expect(fs.readFileSync(path.join(SDK, 'dist', f), 'utf8'), `sdk/dist/${f}`).toBe(
        fs.readFileSync(path.join(scratch, f), 'utf8'),
      );
  }, 120_000);

  it('is tracked by git (a fresh clone has it), when this is a git checkout', async () => {
    const inGit = await run('git', ['rev-parse', '--is-inside-work-tree'], { cwd: SDK }).then(
      () => true,
      () => false,
    );
    if (!inGit) return;
    const { stdout } = await run('git', ['ls-files', '--', 'dist'], { cwd: SDK });
    const tracked = stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => path.relative('dist', l))
      .sort();
    expect(tracked).toEqual(filesOf(path.join(SDK, 'dist')));
  });
});
