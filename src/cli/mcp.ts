/**
 * `bizapi mcp` (docs/mcp.md): the MCP server over stdio. Reads `BIZAPI_URL` (default `http://127.0.0.1:8000`),
 * `BIZAPI_API_KEY` and `BIZAPI_SECRET_KEY`, builds the tools from the bundled OpenAPI document (as
 * `bizapi openapi` builds it, so it works against the reference service too, which serves no such document),
 * and serves newline-delimited JSON-RPC on stdin/stdout until stdin closes. Nothing but JSON-RPC is written
 * to stdout; diagnostics go to stderr.
 */
import fs from 'node:fs';
import { apiUrl, type CliContext, CliError, readJsonFile } from './context.ts';

/** Options of `bizapi mcp` (docs/mcp.md#flags). */
export interface McpCommandOptions {
  /** `--url`: the API's address, over `BIZAPI_URL`. */
  url?: string;
  signature?: string;
  readOnly?: boolean;
  /** Comma-separated operation ids. */
  tools?: string;
  dynamic?: boolean;
  /** `false` with `--no-extensions`. */
  extensions?: boolean;
  /** A file holding the OpenAPI document to use instead of the bundled one. */
  openapi?: string;
}

/** Runs `fn` with everything written to stdout sent to stderr instead (stdout belongs to JSON-RPC). */
async function stdoutToStderr<T>(fn: () => Promise<T>): Promise<T> {
  const write = process.stdout.write;
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  try {
    return await fn();
  } finally {
    process.stdout.write = write;
  }
}

/**
 * Starts the MCP server on stdio and resolves once it serves (the process then lives until stdin closes).
 * @throws CliError for a missing key or secret, a malformed `BIZAPI_URL`, a bad `--signature`, an unknown `--tools`
 *   name, an unreadable `--openapi` file, or a document whose operations cannot be turned into tools
 */
export async function mcp(ctx: CliContext, opts: McpCommandOptions): Promise<void> {
  let baseUrl = apiUrl(ctx, { ...(opts.url !== undefined && { url: opts.url }) });
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    throw new CliError(`BIZAPI_URL: "${baseUrl}" is not a URL (e.g. http://127.0.0.1:8000).`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new CliError(`BIZAPI_URL: "${baseUrl}" is not an http:// or https:// URL.`);
  if (/\/v1\/?$/.test(parsed.pathname)) {
    // The operations' paths start with /v1 already.
    baseUrl = baseUrl.replace(/\/v1\/?$/, '');
    process.stderr.write(`bizapi mcp: BIZAPI_URL ends with /v1; using ${baseUrl} (the tools add /v1 themselves)\n`);
  }
  const apiKey = ctx.env.BIZAPI_API_KEY;
  const secretKey = ctx.env.BIZAPI_SECRET_KEY;
  if (!apiKey) throw new CliError('BIZAPI_API_KEY is required: the API key the MCP server calls the API with.');
  if (!secretKey) throw new CliError('BIZAPI_SECRET_KEY is required: the secret of BIZAPI_API_KEY, to sign every request.');
  const signature = opts.signature ?? 'v1';
  if (signature !== 'v1' && signature !== 'v2') throw new CliError(`--signature: "${signature}" is not v1 or v2.`);
  const tools = opts.tools?.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (tools !== undefined && tools.length === 0) throw new CliError('--tools: name at least one operation id (comma-separated).');

  const [{ createMcpServer, McpConfigError }, { StdioServerTransport }] = await Promise.all([
    import('../mcp/server.ts'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
  ]);
  // The bundled document is built from this checkout's routes (a few seconds: it loads the whole server).
  const document = opts.openapi !== undefined ? readJsonFile(opts.openapi) : await stdoutToStderr(async () => (await import('./openapi.ts')).buildOpenApiDocument());
  const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  let created: ReturnType<typeof createMcpServer>;
  try {
    created = createMcpServer({
      document,
      baseUrl,
      apiKey,
      secretKey,
      signature,
      readOnly: opts.readOnly === true,
      ...(tools !== undefined && { tools }),
      dynamic: opts.dynamic === true,
      extensions: opts.extensions !== false,
      version: pkg.version,
    });
  } catch (err) {
    if (err instanceof McpConfigError) throw new CliError(err.message);
    throw new CliError(`the OpenAPI document cannot be turned into tools: ${(err as Error).message}`);
  }
  const { server, operations } = created;
  // A failure inside one call must not end the server the assistant is talking to: report it on stderr.
  process.on('unhandledRejection', (reason) => process.stderr.write(`bizapi mcp: unhandled rejection: ${String((reason as Error)?.stack ?? reason)}\n`));
  server.onerror = (err) => process.stderr.write(`bizapi mcp: ${err.message}\n`);
  const transport = new StdioServerTransport();
  await server.connect(transport);
  const close = () => void server.close().finally(() => process.exit(0));
  process.stdin.once('end', close);
  process.stdin.once('close', close);
  process.once('SIGTERM', close);
  process.once('SIGINT', close);
  const mode = opts.dynamic === true ? `dynamic (3 tools over ${operations.length} operations)` : `${operations.length} tools`;
  process.stderr.write(`bizapi mcp: ${mode}${opts.readOnly === true ? ', read-only' : ''}, calling ${baseUrl} (signature ${signature}); JSON-RPC on stdio\n`);
}
