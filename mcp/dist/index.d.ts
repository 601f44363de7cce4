/**
 * `@bizapi/mcp` (docs/mcp.md#the-package): the bizapi MCP server. Its command is `bizapi-mcp` (bin/, calling
 * {@link main}); the server's `bizapi mcp` runs {@link serveStdio}, and its remote endpoint (`/mcp`) builds
 * the same tools with {@link buildOperationTools} and {@link createMcpServer}.
 */
export { main, packageVersion } from './cli.js';
export { createMcpServer, errorResult, fieldMessages, MAX_RESULT_CHARS, McpConfigError, type McpServerOptions, selectOperations, type ToolPage, } from './server.js';
export { bundledDocument, DEFAULT_URL, serveStdio, type StdioOptions } from './stdio.js';
export { buildOperationTools, firstSentence, type JsonSchema, type OperationTool, type ToolAnnotations, type ToolParameter, } from './tools.js';
