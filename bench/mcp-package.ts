/**
 * `npm run bench:mcp` (docs/mcp.md#the-package, issue 37): what the `@bizapi/mcp` package costs an assistant,
 * run as its command `node mcp/bin/bizapi-mcp.js` (the committed bundle) with the official MCP client over
 * stdio against `bin/bizapi serve --demo` on a scratch SQLite file (the demo business and its data):
 * - start-up: from spawn to the answer to `initialize`, 7 starts, median and range (wall-clock);
 * - each tool list's size in tokens (its JSON / 4): default, `--read-only`, `--full`, `--full --read-only`;
 * - the largest answers: `list_operations` with no search, the largest `describe_operation`, and every list
 *   operation of the demo business at `page_size: 100` through `call_operation` (the five largest).
 * Prints one JSON object. Not part of `npm test` (timings).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { runUntilExit, serverEnv, startBizapi } from '../test/setup/server-process.ts';

const BIN = fileURLToPath(new URL('../mcp/bin/bizapi-mcp.js', import.meta.url));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-bench-mcp-'));
const serverVariables = serverEnv({ databaseUrl: `sqlite:${path.join(dir, 'demo.db')}`, dataDir: dir });
const server = await startBizapi(['serve', '--demo'], serverVariables);
const key = JSON.parse((await runUntilExit(['key', 'create', '--business', '1'], serverVariables)).stdout) as {
  apiKey: string;
  secretKey: string;
};
const env = {
  PATH: process.env.PATH ?? '',
  BIZAPI_URL: `http://127.0.0.1:${server.port}`,
  BIZAPI_API_KEY: key.apiKey,
  BIZAPI_SECRET_KEY: key.secretKey,
};

/** ms from spawn to the `initialize` answer. */
function startOnce(): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, [BIN], { env, stdio: ['pipe', 'pipe', 'ignore'] });
    child.once('error', reject);
    child.stdout.once('data', () => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      child.stdin.end();
      child.once('exit', () => resolve(Math.round(ms)));
    });
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } })}\n`,
    );
  });
}

async function connect(args: string[]): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [BIN, ...args], env, stderr: 'ignore' }),
  );
  return client;
}

const size = (r: CallToolResult) => ((r.content[0] as { text?: string } | undefined)?.text ?? '').length;
const tokens = (chars: number) => Math.round(chars / 4);

try {
  const starts: number[] = [];
  for (let i = 0; i < 7; i++) starts.push(await startOnce());
  starts.sort((a, b) => a - b);

  const lists: Record<string, number> = {};
  for (const args of [[], ['--read-only'], ['--full'], ['--full', '--read-only']]) {
    const client = await connect(args);
    lists[args.join(' ') || 'default'] = tokens(JSON.stringify({ tools: (await client.listTools()).tools }).length);
    await client.close();
  }

  const client = await connect([]);
  const all = (await client.callTool({ name: 'list_operations' })) as CallToolResult;
  const operations = (all.structuredContent as { operations: { id: string; method: string }[] }).operations;
  let describe = { id: '', chars: 0 };
  const pages: { id: string; chars: number; results: number }[] = [];
  for (const op of operations) {
    const d = (await client.callTool({
      name: 'describe_operation',
      arguments: { operation_id: op.id },
    })) as CallToolResult;
    if (size(d) > describe.chars) describe = { id: op.id, chars: size(d) };
    if (op.method !== 'GET' || !op.id.endsWith('_list')) continue;
    const r = (await client.callTool({
      name: 'call_operation',
      arguments: { operation_id: op.id, arguments: { page_size: 100 } },
    })) as CallToolResult;
    if (r.isError === true) continue; // a list under a parent (needs its id) or without page_size
    pages.push({
      id: op.id,
      chars: size(r),
      results: (r.structuredContent as { results?: unknown[] }).results?.length ?? 0,
    });
  }
  await client.close();
  pages.sort((a, b) => b.chars - a.chars);
  console.log(
    JSON.stringify(
      {
        node: process.version,
        loadAverage: os.loadavg().map((l) => l.toFixed(1)),
        startupMs: { median: starts[3], min: starts[0], max: starts[6] },
        toolListTokens: lists,
        largestAnswers: {
          list_operations: { chars: size(all), tokens: tokens(size(all)), operations: operations.length },
          describe_operation: { ...describe, tokens: tokens(describe.chars) },
          listsAtPageSize100: pages.slice(0, 5).map((p) => ({ ...p, tokens: tokens(p.chars) })),
        },
      },
      null,
      2,
    ),
  );
} finally {
  await server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
