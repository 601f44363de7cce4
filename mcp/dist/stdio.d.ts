/** The API's address when neither `--url` nor `BIZAPI_URL` names one. */
export declare const DEFAULT_URL = "http://127.0.0.1:8000";
/**
 * The OpenAPI document bundled with this package: `openapi.json` beside `src/` and `dist/`, written from the
 * server's routes by `npm run generate` in mcp/ (the document `bizapi openapi` prints; mcp/test/build.test.ts
 * fails when it is stale). Read on each call (about 0.6 MB of JSON; the remote endpoint never reads it).
 */
export declare function bundledDocument(): unknown;
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
/**
 * Starts the MCP server on stdio and resolves once it serves; the process then lives until stdin closes (or
 * SIGTERM / SIGINT), and exits 0.
 * @throws McpConfigError for a malformed address, a missing key or secret, a bad `--signature`, an empty or
 *   unknown `--tools` name (or a write under `--read-only`), an unreadable `--openapi` file, or a document
 *   whose operations cannot be turned into tools — each before anything is served
 */
export declare function serveStdio(options: StdioOptions): Promise<void>;
