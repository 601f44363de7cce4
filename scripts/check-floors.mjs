#!/usr/bin/env node
// `npm run lint:floors`: the import floors of src/ (README.md, "Layout"), checked on madge's import graph
// (type-only imports included). Exits 1, listing every offending import, when
//  - a lower layer imports a higher one. Layers, top down: cli/, server.ts, cluster.ts → app.ts →
//    plugins/, jobs/, demo/, services.ts (the composition root: the modules' services built once, with the
//    cascades that wire them together) → modules/ → shared/, db/ → config.ts;
//  - a module imports another module's repository or routes (a module's service is its public face; the
//    shapes of its schemas may be shared too);
//  - a route file imports another route file;
//  - the @bizapi/mcp package (mcp/src/, a client of the HTTP API that the server embeds: bizapi mcp, and
//    plugins/remote-mcp.ts at /mcp) imports anything but its own files, node:, @bizapi/client and
//    @modelcontextprotocol/sdk (it is packed and run without the server);
//  - a module names another module's table in SQL (see TABLES below), outside the commented ALLOWED list.
//  - a file of src/ other than config.ts reads process.env (the configuration is read in one place, .env included);
// `--counts` prints the counts instead of failing (also the cross-module imports of services and schemas, and
// the joins onto other modules' tables).
import { execFileSync } from 'node:child_process';
import fs, { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { URL } from 'node:url';

const graph = JSON.parse(
  execFileSync(
    'npx',
    ['madge', '--json', '--no-spinner', '--ts-config', 'tsconfig.json', '--extensions', 'ts', 'src'],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    },
  ),
);

const LAYERS = [
  [/^(cli\/|server\.ts$|cluster\.ts$)/, 0],
  [/^app\.ts$/, 1],
  [/^((plugins|jobs|demo)\/|services\.ts$)/, 2],
  [/^modules\//, 3],
  [/^(shared|db)\//, 4],
  [/^config\.ts$/, 5],
];
const layerOf = (file) => LAYERS.find(([re]) => re.test(file))?.[1];
const moduleOf = (file) => /^modules\/([^/]+)\//.exec(file)?.[1];
const kindOf = (file) => /\.(repository|routes|service|schemas)\.ts$/.exec(file)?.[1] ?? 'other';

const problems = {
  'mcp/src imports something outside the @bizapi/mcp package (it is a client of the HTTP API)': [],
  'lower layer imports a higher one': [],
  "module imports another module's repository": [],
  "module imports another module's routes": [],
  'route file imports a route file': [],
};
const shared = { service: 0, schemas: 0, other: 0 };
for (const [from, imports] of Object.entries(graph)) {
  for (const to of imports) {
    const [a, b] = [layerOf(from), layerOf(to)];
    if (a !== undefined && b !== undefined && a > b)
      problems['lower layer imports a higher one'].push(`${from} → ${to}`);
    if (/\.routes\.ts$/.test(from) && /\.routes\.ts$/.test(to))
      problems['route file imports a route file'].push(`${from} → ${to}`);
    const [m, n] = [moduleOf(from), moduleOf(to)];
    if (m === undefined || n === undefined || m === n) continue;
    const kind = kindOf(to);
    if (kind === 'repository') problems["module imports another module's repository"].push(`${from} → ${to}`);
    else if (kind === 'routes') problems["module imports another module's routes"].push(`${from} → ${to}`);
    else shared[kind] += 1;
  }
}

// ── Tables (issue 29): a module reaches another module's rows through that module's service, never by
// naming its table in SQL (architecture.md, "Floors"). A table belongs to the module of its row-type file,
// src/db/tables/<module>.table.ts (the table's name from the `Database` interface of src/db/database.ts), and
// to the co-owners below. A module's source files (src/modules/<module>/*.ts) are scanned, comments left out,
// for Kysely's `selectFrom`, `updateTable`, `deleteFrom`, `insertInto`, `mergeInto` and joins with a literal
// table name (`'x'` or `'x as y'`), `forUpdateOf(…, 'x')` / `lockRow(…, 'x'` / `setUpdated(…, 'x'`,
// `sql.table('x')`, and the text of sql`…` templates (`from x`, `join x`, `update x`, `into x`). Names built
// at run time (a note's or a field value's table) are not seen.
//
// A join onto another module's table is a read that nests that record's summary in the same statement (its
// column set owned by its resource in src/db/tables/, e.g. NESTED_CLIENT_COLUMNS): allowed, and counted. Any
// other reference — a write, a lock, a query or subquery of its own — is a problem.
const TABLE_CO_OWNERS = {
  // auth/signature-replay.ts keeps the replay guard of the signed requests; the row type has its own file.
  signature_replay: ['auth'],
  // A record's notes go with it: its delete takes them explicitly, to write their events (docs/api.md#events);
  // the note module serves the notes API of both parents.
  contract_note: ['contract'],
  settlement_note: ['settlement'],
  // The custom fields are catalog entries; the field module checks and renders their values (field.service).
  field: ['field'],
  field_option: ['field'],
  field_member: ['field'],
  // The field module writes every record's custom field values (field.service `setFieldValues`).
  client_field_value: ['field'],
  contract_field_value: ['field'],
  inquiry_field_value: ['field'],
  // The estimate item classifications are a catalog list (`bizapi catalog`), stored beside the items.
  estimate_item_classification: ['catalog'],
};

// Files that still name another module's table, each with the tables it names and why it may for now
// (`'modules/<m>/<file>.ts': { tables: […], why: '…' }`). Empty since issue 29 was fixed: keep it so; a
// table not listed for its file is a problem like any other.
const ALLOWED = {};

const tableOwners = (() => {
  const database = readFileSync(new URL('../src/db/database.ts', import.meta.url), 'utf8');
  const names = new Map(
    [.../export interface Database \{([\s\S]*?)\n\}/.exec(database)[1].matchAll(/^\s+([a-z_]+): (\w+);/gm)].map((m) => [
      m[2],
      m[1],
    ]),
  );
  const owners = new Map();
  const dir = new URL('../src/db/tables/', import.meta.url);
  for (const file of readdirSync(dir)) {
    const module = file.replace(/\.table\.ts$/, '');
    for (const m of readFileSync(new URL(file, dir), 'utf8').matchAll(/export interface (\w+)/g)) {
      const table = names.get(m[1]);
      if (table !== undefined) owners.set(table, new Set([module, ...(TABLE_CO_OWNERS[table] ?? [])]));
    }
  }
  return owners;
})();

/** The text of a file with its comments blanked (lines kept). */
const withoutComments = (text) =>
  text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

/** The tables `text` names in SQL: `[how, table, line]`. */
function tablesNamed(text) {
  const found = [];
  const at = (index) => text.slice(0, index).split('\n').length;
  for (const m of text.matchAll(
    /\.(selectFrom|updateTable|deleteFrom|insertInto|mergeInto|innerJoin|leftJoin|rightJoin|fullJoin|crossJoin|innerJoinLateral|leftJoinLateral)\(\s*['"]([a-z_]+)(?:\s+as\s+\w+)?['"]/g,
  )) {
    found.push([/Join/.test(m[1]) ? 'join' : m[1], m[2], at(m.index)]);
  }
  for (const m of text.matchAll(/\b(forUpdateOf|lockRow|setUpdated)\([^;]*?,\s*['"]([a-z_]+)['"]/g))
    found.push([m[1], m[2], at(m.index)]);
  for (const m of text.matchAll(/sql\.table\(\s*['"]([a-z_]+)['"]/g)) found.push(['sql.table', m[1], at(m.index)]);
  for (const m of text.matchAll(/\bsql\s*(?:<[^>`]*>)?`([^`]*)`/g)) {
    for (const k of m[1].matchAll(/\b(from|join|update|into)\s+([a-z_]+)\b/gi)) {
      found.push([
        k[1].toLowerCase() === 'join' ? 'join' : `sql ${k[1].toLowerCase()}`,
        k[2],
        at(m.index + 4 + k.index),
      ]);
    }
  }
  return found;
}

const tableProblems = [];
const joins = new Map();
const allowedUsed = new Map();
const modulesDir = new URL('../src/modules/', import.meta.url);
for (const module of readdirSync(modulesDir)) {
  for (const file of readdirSync(new URL(`${module}/`, modulesDir))) {
    if (!file.endsWith('.ts')) continue;
    const path = `modules/${module}/${file}`;
    for (const [how, table, line] of tablesNamed(
      withoutComments(readFileSync(new URL(`${module}/${file}`, modulesDir), 'utf8')),
    )) {
      const owners = tableOwners.get(table);
      if (owners === undefined || owners.has(module)) continue;
      if (how === 'join') {
        joins.set(path, (joins.get(path) ?? 0) + 1);
      } else if (ALLOWED[path]?.tables.includes(table)) {
        allowedUsed.set(path, (allowedUsed.get(path) ?? 0) + 1);
      } else {
        tableProblems.push(`${path}:${line} ${how} ${table} (a table of ${[...owners].join(', ')})`);
      }
    }
  }
}
problems["module names another module's table in SQL"] = tableProblems;

// No `process.env` outside src/config.ts (issue 29): its own problem key, checked on the text (comments removed).
{
  const key = 'file reads process.env outside src/config.ts';
  problems[key] = [];
  const READ = /\bprocess\s*(\.\s*env\b|\[\s*['"`]env['"`]\s*\])|\{[^}]*\benv\b[^}]*\}\s*=\s*process\b/;
  for (const file of fs
    .readdirSync('src', { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts'))) {
    if (file.split(path.sep).join('/') === 'config.ts') continue;
    const text = fs
      .readFileSync(path.join('src', file), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '));
    text.split('\n').forEach((line, i) => {
      if (READ.test(line.replace(/(^|[^:'"`\\])\/\/.*$/, '$1')))
        problems[key].push(`src/${file.split(path.sep).join('/')}:${i + 1}: ${line.trim()}`);
    });
  }
}

// The @bizapi/mcp package (mcp/src): its import specifiers, read from the text (static, `export … from`, and `import()`).
{
  const key = 'mcp/src imports something outside the @bizapi/mcp package (it is a client of the HTTP API)';
  const ALLOWED_SPECIFIER = /^(\.\/[^/]+|node:.+|@bizapi\/client|@modelcontextprotocol\/sdk\/.+)$/;
  for (const file of fs.readdirSync('mcp/src').filter((f) => f.endsWith('.ts'))) {
    const text = fs.readFileSync(path.join('mcp/src', file), 'utf8');
    for (const m of text.matchAll(
      /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm,
    )) {
      const specifier = m[1] ?? m[2] ?? m[3];
      if (!ALLOWED_SPECIFIER.test(specifier)) problems[key].push(`mcp/src/${file} → ${specifier}`);
    }
  }
}

if (process.argv.includes('--counts')) {
  for (const [what, list] of Object.entries(problems)) console.log(`${what}: ${list.length}`);
  console.log(
    `cross-module imports of services: ${shared.service}, of schemas: ${shared.schemas}, of other files: ${shared.other}`,
  );
  const sum = (m) => [...m.values()].reduce((a, b) => a + b, 0);
  console.log(
    `other modules' tables named in SQL, allow-listed: ${sum(allowedUsed)} in ${allowedUsed.size} files (${[...allowedUsed].map(([f, n]) => `${f} ${n}`).join(', ')})`,
  );
  console.log(`joins onto other modules' tables (nested summaries, allowed): ${sum(joins)} in ${joins.size} files`);
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
