/** The committed generated files match what `bin/bizapi openapi` produces now (CI fails on drift). */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generate, serverDocument } from '../scripts/generate.ts';

describe('sdk/src/generated', () => {
  it('is up to date with bin/bizapi openapi (run `npm run generate` in sdk/ when this fails)', async () => {
    const files = await generate(await serverDocument());
    for (const [name, content] of Object.entries(files)) {
      expect(fs.readFileSync(new URL(`../src/generated/${name}`, import.meta.url), 'utf8'), name).toBe(content);
    }
  }, 60_000);
});
