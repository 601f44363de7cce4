#!/usr/bin/env node
// `bizapi-mcp` (docs/mcp.md#the-package): the MCP server over stdio. Everything lives in src/cli.ts (bundled into dist/index.js).
import module from 'node:module';

// Node 22.1+ caches compiled code between runs (most of a start is compiling @modelcontextprotocol/sdk); Node 20 has no such cache.
module.enableCompileCache?.();
const { main } = await import('../dist/index.js');
const code = await main(process.argv.slice(2), process.env);
if (code !== undefined) process.exitCode = code;
