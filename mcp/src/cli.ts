/**
 * `bizapi-mcp`, the command of the `@bizapi/mcp` package (docs/mcp.md#the-package): the same MCP server as
 * `bizapi mcp`, without a clone of the server. Flags as docs/mcp.md#flags lists them; the settings
 * `BIZAPI_URL` (or `--url`), `BIZAPI_API_KEY`, `BIZAPI_SECRET_KEY`.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { McpConfigError } from './server.js';
import { DEFAULT_URL, serveStdio } from './stdio.js';

/** The package's version (its package.json, beside `src/` and `dist/`), reported to MCP clients and by `--version`. */
export function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
    .version;
}

const USAGE = `Usage: bizapi-mcp [options]

The bizapi MCP server over stdio (Model Context Protocol; docs/mcp.md).
Settings: BIZAPI_URL (default ${DEFAULT_URL}), BIZAPI_API_KEY, BIZAPI_SECRET_KEY.

Options:
  --url <url>            the API's address (over BIZAPI_URL)
  --signature <v1|v2>    request signature (default v1, the reference service's)
  --read-only            offer only the reads (GET operations)
  --tools <ids>          offer only these operations, one tool each (comma-separated operation ids)
  --full                 one tool per operation instead of the three default tools
  --dynamic              the three default tools (the default; kept for older configurations)
  --no-extensions        leave out the operations the reference service lacks
  --openapi <file>       build the tools from this OpenAPI document instead of the bundled one
  --version, --help
`;

/**
 * Runs `bizapi-mcp` with `argv` (the arguments after the command) and `env`: serves until stdin closes, or
 * prints the usage or version. Resolves to the exit code of a start that failed (1, the reason on stderr: a
 * bad flag or setting) or of `--help` / `--version` (0); `undefined` while the server runs.
 */
export async function main(
  argv: readonly string[],
  env: Record<string, string | undefined>,
): Promise<number | undefined> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        url: { type: 'string' },
        signature: { type: 'string' },
        'read-only': { type: 'boolean' },
        tools: { type: 'string' },
        full: { type: 'boolean' },
        dynamic: { type: 'boolean' },
        'no-extensions': { type: 'boolean' },
        openapi: { type: 'string' },
        version: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    process.stderr.write(`bizapi-mcp: ${(err as Error).message}\n\n${USAGE}`);
    return 1;
  }
  if (values.help === true) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (values.version === true) {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  try {
    await serveStdio({
      url: values.url ?? (env.BIZAPI_URL !== undefined && env.BIZAPI_URL !== '' ? env.BIZAPI_URL : DEFAULT_URL),
      apiKey: env.BIZAPI_API_KEY,
      secretKey: env.BIZAPI_SECRET_KEY,
      ...(values.signature !== undefined && { signature: values.signature }),
      readOnly: values['read-only'] === true,
      ...(values.tools !== undefined && { tools: values.tools }),
      full: values.full === true,
      dynamic: values.dynamic === true,
      extensions: values['no-extensions'] !== true,
      ...(values.openapi !== undefined && { openapi: values.openapi }),
      command: 'bizapi-mcp',
      version: packageVersion(),
    });
    return undefined;
  } catch (err) {
    if (!(err instanceof McpConfigError)) throw err;
    process.stderr.write(`bizapi-mcp: ${err.message}\n`);
    return 1;
  }
}
