#!/usr/bin/env node
// `npm run lint:floors`: the import floors of src/ (README.md, "Layout"), checked on madge's import graph
// (type-only imports included). Exits 1, listing every offending import, when
//  - a lower layer imports a higher one. Layers, top down: cli/, mcp/, server.ts, cluster.ts → app.ts →
//    plugins/, jobs/, demo/ → modules/ → shared/, db/ → config.ts;
//  - a module imports another module's repository or routes (a module's service is its public face; the
//    shapes of its schemas may be shared too);
//  - a route file imports another route file;
//  - mcp/ imports anything of src/ outside mcp/ (it is a client of the HTTP API, through @bizapi/client, which resolves to ../sdk/).
// `--counts` prints the counts instead of failing (also the cross-module imports of services and schemas).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const graph = JSON.parse(
  execFileSync('npx', ['madge', '--json', '--no-spinner', '--ts-config', 'tsconfig.json', '--extensions', 'ts', 'src'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    maxBuffer: 64 * 1024 * 1024,
  }),
);

const LAYERS = [
  [/^(cli\/|mcp\/|server\.ts$|cluster\.ts$)/, 0],
  [/^app\.ts$/, 1],
  [/^(plugins|jobs|demo)\//, 2],
  [/^modules\//, 3],
  [/^(shared|db)\//, 4],
  [/^config\.ts$/, 5],
];
const layerOf = (file) => LAYERS.find(([re]) => re.test(file))?.[1];
const moduleOf = (file) => /^modules\/([^/]+)\//.exec(file)?.[1];
const kindOf = (file) => /\.(repository|routes|service|schemas)\.ts$/.exec(file)?.[1] ?? 'other';

const problems = { 'mcp/ imports the server (it is a client of the HTTP API)': [], 'lower layer imports a higher one': [], "module imports another module's repository": [], "module imports another module's routes": [], 'route file imports a route file': [] };
const shared = { service: 0, schemas: 0, other: 0 };
for (const [from, imports] of Object.entries(graph)) {
  for (const to of imports) {
    const [a, b] = [layerOf(from), layerOf(to)];
    if (a !== undefined && b !== undefined && a > b) problems['lower layer imports a higher one'].push(`${from} → ${to}`);
    if (/\.routes\.ts$/.test(from) && /\.routes\.ts$/.test(to)) problems['route file imports a route file'].push(`${from} → ${to}`);
    if (from.startsWith('mcp/') && !to.startsWith('mcp/') && !to.startsWith('../sdk/')) problems['mcp/ imports the server (it is a client of the HTTP API)'].push(`${from} → ${to}`);
    const [m, n] = [moduleOf(from), moduleOf(to)];
    if (m === undefined || n === undefined || m === n) continue;
    const kind = kindOf(to);
    if (kind === 'repository') problems["module imports another module's repository"].push(`${from} → ${to}`);
    else if (kind === 'routes') problems["module imports another module's routes"].push(`${from} → ${to}`);
    else shared[kind] += 1;
  }
}

// No `process.env` outside src/config.ts (issue 29): its own problem key, checked on the text (comments removed).
{
  const key = 'file reads process.env outside src/config.ts';
  problems[key] = [];
  const READ = /\bprocess\s*(\.\s*env\b|\[\s*['"`]env['"`]\s*\])|\{[^}]*\benv\b[^}]*\}\s*=\s*process\b/;
  for (const file of fs.readdirSync('src', { recursive: true }).map(String).filter((f) => f.endsWith('.ts'))) {
    if (file.split(path.sep).join('/') === 'config.ts') continue;
    const text = fs.readFileSync(path.join('src', file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '));
    text.split('\n').forEach((line, i) => {
      if (READ.test(line.replace(/(^|[^:'"`\\])\/\/.*$/, '$1'))) problems[key].push(`src/${file.split(path.sep).join('/')}:${i + 1}: ${line.trim()}`);
    });
  }
}

if (process.argv.includes('--counts')) {
  for (const [what, list] of Object.entries(problems)) console.log(`${what}: ${list.length}`);
  console.log(`cross-module imports of services: ${shared.service}, of schemas: ${shared.schemas}, of other files: ${shared.other}`);
  process.exit(0);
}
let failed = false;
for (const [what, list] of Object.entries(problems)) {
  if (list.length === 0) continue;
  failed = true;
  console.error(`${what} (${list.length}):`);
  for (const line of list) console.error(`  ${line}`);
}
if (failed) process.exit(1);
console.log(`✔ Import floors kept (${Object.keys(graph).length} files)`);
