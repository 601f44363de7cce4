/**
 * The running server's version, for `GET /` and the webhooks' `User-Agent`.
 */
import fs from 'node:fs';

/**
 * The `bizapi` package's version: the `version` of the nearest `package.json` named `bizapi` above this
 * module (the repository root in development, the install directory once built); `0.0.0` when none is found.
 * Reads the disk at each call.
 */
export function packageVersion(): string {
  for (let dir = new URL('.', import.meta.url); ;) {
    const file = new URL('package.json', dir);
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'bizapi' && pkg.version) return pkg.version;
    }
    const parent = new URL('..', dir);
    if (parent.href === dir.href) return '0.0.0';
    dir = parent;
  }
}
