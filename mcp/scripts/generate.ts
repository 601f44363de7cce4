/**
 * `npm run generate` in mcp/: writes `openapi.json`, the OpenAPI document bundled with the package, from the
 * server's routes (the document `bin/bizapi openapi` prints, built as sdk/scripts/generate.ts builds it), then
 * `npm run build`. `--check` exits 1 when the committed file differs (mcp/test/build.test.ts checks it too).
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serverDocument } from '../../sdk/scripts/generate.ts';

/** The bundled document's path. */
export const DOCUMENT_FILE = fileURLToPath(new URL('../openapi.json', import.meta.url));

/** The text of `openapi.json` for `doc`: two-space indented JSON (readable diffs), ending with a newline. */
export function documentText(doc: unknown): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = documentText(await serverDocument());
  const current = fs.existsSync(DOCUMENT_FILE) ? fs.readFileSync(DOCUMENT_FILE, 'utf8') : '';
  if (process.argv.includes('--check')) {
    if (current !== text) {
      process.stderr.write(
        'mcp/openapi.json is out of date with bin/bizapi openapi; run `npm run generate` in mcp/.\n',
      );
      process.exitCode = 1;
    }
  } else if (current !== text) fs.writeFileSync(DOCUMENT_FILE, text);
}
