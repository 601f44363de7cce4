import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { type OperationTool } from './tools.js';
/** A mistake in how `bizapi mcp` was started (unknown `--tools` name, missing key): reported before serving. */
export declare class McpConfigError extends Error {
    constructor(message: string);
}
/** What the server offers and where it sends the calls. */
export interface McpServerOptions {
    /** The OpenAPI document the tools are generated from (as `bizapi openapi` prints it). */
    document: unknown;
    /** The API's address, e.g. `http://127.0.0.1:8000` (a path prefix is kept; no `/v1`). */
    baseUrl: string;
    apiKey: string;
    secretKey: string;
    /** `v1` (the reference service's body signature; default) or `v2` (timestamped, replay-proof). docs/authentication.md#signature-version-2 */
    signature?: 'v1' | 'v2';
    /** Offer only the reads (GET). */
    readOnly?: boolean;
    /** Offer only these operations (operation ids). */
    tools?: readonly string[];
    /**
     * Offer one tool per operation (docs/mcp.md#the-full-tool-list) instead of the default three meta-tools
     * (`list_operations`, `describe_operation`, `call_operation`, docs/mcp.md#the-default-tools). `tools`
     * (a named selection) implies it.
     */
    full?: boolean;
    /** The operations, already built and selected (the remote endpoint builds them once per process); `document`, `readOnly`, `tools` and `extensions` are then not read. */
    operations?: readonly OperationTool[];
    /**
     * Hand out cursors that carry the filters of their page (`mc1.` + base64url JSON), so that any process
     * answers the next page (the remote endpoint, docs/mcp.md#remote-mcp); default: the API's own cursor, with
     * the filters remembered in this process.
     */
    statelessCursors?: boolean;
    /** Offer the extensions (operations marked `x-extension`, which the reference service lacks); default true. */
    extensions?: boolean;
    /** Retries of a call answered 429 or 503, or cut off by a network error (default 3, the client's; the remote endpoint: 0, it answers at once). */
    retries?: number;
    /** Longest wait for one tool call, retries included, in milliseconds (default 60000). */
    timeoutMs?: number;
    /** The server's version, reported to the client. */
    version?: string;
    /** The `fetch` the client uses (default: `globalThis.fetch`). */
    fetch?: typeof globalThis.fetch;
}
/** What a paged list tool answers (docs/mcp.md#paging-with-cursors). */
export interface ToolPage {
    results: unknown[];
    /** The `cursor` of the answer's `next` link, or `null` on the last page. */
    nextCursor: string | null;
}
/**
 * The largest tool result, in characters of its JSON text: 80,000, about 20,000 tokens (JSON size / 4), under
 * the 25,000 tokens clients accept (docs/mcp.md#result-sizes). A larger page is fetched again smaller.
 */
export declare const MAX_RESULT_CHARS = 80000;
/**
 * The operations `options` select, in name order.
 * @throws McpConfigError for a `--tools` name that is no operation, or a write operation named under `--read-only`
 */
export declare function selectOperations(all: readonly OperationTool[], options: Pick<McpServerOptions, 'readOnly' | 'tools' | 'extensions' | 'document'>): OperationTool[];
/** Flattens a DRF error body into `field.path: message` lines (`client.id: Invalid pk "9" - object does not exist.`). */
export declare function fieldMessages(body: unknown, prefix?: string): string[];
/**
 * The tool error for a non-2xx answer: `status 400: companyName: This field is required.` (status, then the
 * `code` when the body has one, then `detail` and every field message), a hint for credential and signature
 * errors, and the body as JSON; `structuredContent` is the error body.
 */
export declare function errorResult(status: number, body: unknown): CallToolResult;
/**
 * Builds the MCP server (not yet connected to a transport): its tools generated from `options.document`
 * and selected by the options, each call sent to the API.
 * @throws McpConfigError for a bad selection (see {@link selectOperations}); Error when the document cannot be turned into tools
 */
export declare function createMcpServer(options: McpServerOptions): {
    server: Server;
    operations: readonly OperationTool[];
    tools: Tool[];
};
