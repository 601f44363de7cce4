/**
 * `bizapi mcp` (docs/mcp.md): the MCP server over stdio of the `@bizapi/mcp` workspace package (mcp/), the
 * same server its `bizapi-mcp` command runs: the tools built from the OpenAPI document bundled with the
 * package (mcp/openapi.json, the document `bizapi openapi` prints, kept current by mcp/test/build.test.ts),
 * so it starts without loading the server. This command adds only the CLI's address resolution (`--url`,
 * `BIZAPI_URL` and their deprecated old names, README.md#your-first-signed-request) and its own version.
 */
import fs from 'node:fs';
import { apiUrl, type CliContext, CliError } from './context.ts';

/** Options of `bizapi mcp` (docs/mcp.md#flags). */
export interface McpCommandOptions {
  /** `--url`: the API's address, over `BIZAPI_URL`. */
  url?: string;
  signature?: string;
  readOnly?: boolean;
  /** Comma-separated operation ids. */
  tools?: string;
  /** One tool per operation instead of the three default tools. */
  full?: boolean;
  /** The three default tools (kept for configurations written before they became the default). */
  dynamic?: boolean;
  /** `false` with `--no-extensions`. */
  extensions?: boolean;
  /** A file holding the OpenAPI document to use instead of the bundled one. */
  openapi?: string;
}

/**
 * Starts the MCP server on stdio and resolves once it serves (the process then lives until stdin closes).
 * @throws CliError for a missing key or secret, a malformed `BIZAPI_URL`, a bad `--signature`, an unknown `--tools`
 *   name, an unreadable `--openapi` file, or a document whose operations cannot be turned into tools
 */
export async function mcp(ctx: CliContext, opts: McpCommandOptions): Promise<void> {
  const url = apiUrl(ctx, { ...(opts.url !== undefined && { url: opts.url }) });
  const { McpConfigError, serveStdio } = await import('@bizapi/mcp');
  const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  try {
    await serveStdio({
      url,
      apiKey: ctx.env.BIZAPI_API_KEY,
      secretKey: ctx.env.BIZAPI_SECRET_KEY,
      ...(opts.signature !== undefined && { signature: opts.signature }),
      readOnly: opts.readOnly === true,
      ...(opts.tools !== undefined && { tools: opts.tools }),
      full: opts.full === true,
      dynamic: opts.dynamic === true,
      extensions: opts.extensions !== false,
      ...(opts.openapi !== undefined && { openapi: opts.openapi }),
      command: 'bizapi mcp',
      version: pkg.version,
    });
  } catch (err) {
    if (err instanceof McpConfigError) throw new CliError(err.message);
    throw err;
  }
}
