/**
 * The MCP server over stdio (docs/mcp.md), shared by the `bizapi-mcp` command of this package and by the
 * server's `bizapi mcp`: the settings checked, the tools built from the bundled OpenAPI document (or
 * `--openapi <file>`), newline-delimited JSON-RPC served on stdin/stdout until stdin closes. Nothing but
 * JSON-RPC is written to stdout; diagnostics go to stderr.
 */
import fs from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer, McpConfigError } from './server.js';

/** The API's address when neither `--url` nor `BIZAPI_URL` names one. */
export const DEFAULT_URL = 'http://127.0.0.1:8000';

/**
 * The OpenAPI document bundled with this package: `openapi.json` beside `src/` and `dist/`, written from the
 * server's routes by `npm run generate` in mcp/ (the document `bizapi openapi` prints; mcp/test/build.test.ts
 * fails when it is stale). Read on each call (about 0.6 MB of JSON; the remote endpoint never reads it).
 */
export function bundledDocument(): unknown {
  return JSON.parse(fs.readFileSync(new URL('../openapi.json', import.meta.url), 'utf8')) as unknown;
}

/** How the stdio server was asked to run: the flags of docs/mcp.md#flags and the three settings. */
export interface StdioOptions {
  /** The API's address (`--url`, else `BIZAPI_URL`; the caller resolves it), e.g. `http://127.0.0.1:8000`. A trailing `/v1` is dropped. */
  url: string;
  /** `BIZAPI_API_KEY`. */
  apiKey: string | undefined;
  /** `BIZAPI_SECRET_KEY`. */
  secretKey: string | undefined;
  /** `--signature`: `v1` (default) or `v2`. */
  signature?: string;
  /** `--read-only`. */
  readOnly?: boolean;
  /** `--tools`: comma-separated operation ids. */
  tools?: string;
  /** `--full`: one tool per operation. */
  full?: boolean;
  /** `--dynamic`: the three default tools (kept for configurations written before they became the default). */
  dynamic?: boolean;
  /** `false` with `--no-extensions`. */
  extensions?: boolean;
  /** `--openapi <file>`: the document to build the tools from instead of the bundled one. */
  openapi?: string;
  /** The command, as its lines on stderr name it: `bizapi mcp` or `bizapi-mcp`. */
  command: string;
  /** The version reported to the MCP client. */
  version: string;
}

/** The address, checked: an `http(s)://` URL without a trailing `/v1` (the tools add it). @throws McpConfigError */
function checkedUrl(url: string, command: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new McpConfigError(`BIZAPI_URL: "${url}" is not a URL (e.g. ${DEFAULT_URL}).`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new McpConfigError(`BIZAPI_URL: "${url}" is not an http:// or https:// URL.`);
  if (!/\/v1\/?$/.test(parsed.pathname)) return url;
  const base = url.replace(/\/v1\/?$/, '');
  process.stderr.write(`${command}: BIZAPI_URL ends with /v1; using ${base} (the tools add /v1 themselves)\n`);
  return base;
}

/** The contents of `--openapi <file>`. @throws McpConfigError when it cannot be read or is not JSON */
function documentFile(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new McpConfigError(`Cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new McpConfigError(`${file} is not valid JSON: ${(err as Error).message}`);
  }
}

/**
 * Starts the MCP server on stdio and resolves once it serves; the process then lives until stdin closes (or
 * SIGTERM / SIGINT), and exits 0.
 * @throws McpConfigError for a malformed address, a missing key or secret, a bad `--signature`, an empty or
 *   unknown `--tools` name (or a write under `--read-only`), an unreadable `--openapi` file, or a document
 *   whose operations cannot be turned into tools — each before anything is served
 */
export async function serveStdio(options: StdioOptions): Promise<void> {
  const baseUrl = checkedUrl(options.url, options.command);
  const { apiKey, secretKey } = options;
  if (!apiKey) throw new McpConfigError('BIZAPI_API_KEY is required: the API key the MCP server calls the API with.');
  if (!secretKey)
    throw new McpConfigError('BIZAPI_SECRET_KEY is required: the secret of BIZAPI_API_KEY, to sign every request.');
  const signature = options.signature ?? 'v1';
  if (signature !== 'v1' && signature !== 'v2')
    throw new McpConfigError(`--signature: "${signature}" is not v1 or v2.`);
  const tools = options.tools
    ?.split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (tools !== undefined && tools.length === 0)
    throw new McpConfigError('--tools: name at least one operation id (comma-separated).');
  const document = options.openapi !== undefined ? documentFile(options.openapi) : bundledDocument();

  let created: ReturnType<typeof createMcpServer>;
  try {
    created = createMcpServer({
      document,
      baseUrl,
      apiKey,
      secretKey,
      signature,
      readOnly: options.readOnly === true,
      ...(tools !== undefined && { tools }),
      full: options.full === true && options.dynamic !== true,
      extensions: options.extensions !== false,
      version: options.version,
    });
  } catch (err) {
    if (err instanceof McpConfigError) throw err;
    throw new McpConfigError(`the OpenAPI document cannot be turned into tools: ${(err as Error).message}`);
  }
  const { server, operations } = created;
  // A failure inside one call must not end the server the assistant is talking to: report it on stderr.
  process.on('unhandledRejection', (reason) =>
    process.stderr.write(`${options.command}: unhandled rejection: ${String((reason as Error)?.stack ?? reason)}\n`),
  );
  server.onerror = (err) => process.stderr.write(`${options.command}: ${err.message}\n`);
  await server.connect(new StdioServerTransport());
  const close = () => void server.close().finally(() => process.exit(0));
  process.stdin.once('end', close);
  process.stdin.once('close', close);
  process.once('SIGTERM', close);
  process.once('SIGINT', close);
  const mode =
    created.tools.length === operations.length
      ? `${operations.length} tools, one per operation`
      : `${created.tools.length} tools over ${operations.length} operations`;
  process.stderr.write(
    `${options.command}: ${mode}${options.readOnly === true ? ', read-only' : ''}, calling ${baseUrl} (signature ${signature}); JSON-RPC on stdio\n`,
  );
}
