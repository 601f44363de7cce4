#!/usr/bin/env node
// `npm run lint:doc-links`: comments and strings cite the project's own documentation (README.md, docs/*.md),
// which states every rule the code follows, and every such citation points at a heading that exists.
// Exits 1, listing every problem as `file:line: citation`, when
//  (a) a comment or string literal in `src/**/*.ts` (migrations excluded: they are frozen), `sdk/src/**/*.ts` or `mcp/src/**/*.ts`
//      cites a document the repository does not hold: `decisions §…`, `decisions.md`, `(spec: …)`, `spec: …`,
//      `reference: …`, `reference item …`, `reference-api`, `business-api`, `architecture.md`,
//      `architecture: …`, `architecture rule …`, `/work/shared`, `shared/spec/`, `shared/design/`. Import paths
//      (`../../shared/x.ts`) are code, not citations, and are never looked at. In docs/*.md and README.md:
//      `decisions §…`, `decisions.md`, `reference-api.md`, `business-api.md`, `architecture.md`, `/work/shared`,
//      `../shared/`;
//  (b) a `docs/<file>.md#anchor` or `README.md#anchor` cited in src/, sdk/src/ or mcp/src/, or a markdown link with an
//      anchor (`[…](api.md#errors)`, `[…](#errors)`, `[…](../README.md#configuration)`) in docs/*.md or
//      README.md, names a file that does not exist or an anchor that file does not have. Anchors are GitHub's
//      heading slugs (lower case, punctuation dropped, spaces → `-`, `-1`, `-2`, … for repeated headings) and
//      explicit `<a id="…">` / `<a name="…">` anchors; headings inside code fences do not count.
// `--list` prints every citation found (file:line: target) instead of checking; `--all` checks the PENDING
// paths too (what is left to sweep).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * Paths (folders end with `/`) still to be swept: neither check looks at them. Empty it folder by folder as the
 * citations there are replaced; new files land outside it and are checked from the start.
 */
const PENDING = [];

/** Never checked: landed migrations are frozen. */
const EXCLUDED = ['src/db/migrations/'];

/** Citations of documents outside the repository, as they appear in comments and strings. */
const OUTSIDE = [
  /decisions\s*§\s*\d*/i,
  /decisions\.md/i,
  /\(spec:[^)\n]*\)?/i,
  /\bspec:\s+[^\s)'"`]+/i,
  /\breference:\s+[^\s)'"`]+/i,
  /\breference item \d+/i,
  /reference-api(\.md)?/i,
  /business-api(\.md)?/i,
  /architecture\.md/i,
  /\barchitecture:\s+[^\s)'"`]+/i,
  /\barchitecture rule \d*/i,
  /\/work\/shared[^\s'"`)]*/i,
  /\bshared\/(spec|design)\/[^\s'"`)]*/i,
];

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rel = (file) => path.relative(ROOT, file).split(path.sep).join('/');
const ignored = process.argv.includes('--all') ? EXCLUDED : [...EXCLUDED, ...PENDING];
const skipped = (file) => ignored.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p));

function walk(dir, ext) {
  const out = [];
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') out.push(...walk(full, ext));
    } else if (entry.name.endsWith(ext)) out.push(full);
  }
  return out;
}

/** 1-based line of offset `pos` in `text`. */
function lineOf(text, pos) {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < pos; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

/**
 * The comments and string literals of a TypeScript file, as `{ pos, text }` (template literals without their
 * substitutions; module specifiers of imports and exports left out).
 */
function commentsAndStrings(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const pieces = [];
  const seenComments = new Set();
  const addComments = (ranges) => {
    for (const range of ranges ?? []) {
      if (seenComments.has(range.pos)) continue;
      seenComments.add(range.pos);
      pieces.push({ pos: range.pos, text: text.slice(range.pos, range.end) });
    }
  };
  const isModuleSpecifier = (node) =>
    (ts.isImportDeclaration(node.parent) || ts.isExportDeclaration(node.parent)) &&
    node.parent.moduleSpecifier === node;
  const visit = (node) => {
    addComments(ts.getLeadingCommentRanges(text, node.pos));
    addComments(ts.getTrailingCommentRanges(text, node.end));
    if (
      (ts.isStringLiteral(node) ||
        ts.isNoSubstitutionTemplateLiteral(node) ||
        ts.isTemplateHead(node) ||
        ts.isTemplateMiddle(node) ||
        ts.isTemplateTail(node)) &&
      !isModuleSpecifier(node)
    ) {
      pieces.push({ pos: node.getStart(source), text: node.getText(source) });
    }
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return pieces;
}

/** GitHub's slug of a heading's text. */
function slug(heading) {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

const anchorCache = new Map();
/** The anchors of a markdown file (a Set), or `undefined` when the file does not exist. */
function anchorsOf(file) {
  if (anchorCache.has(file)) return anchorCache.get(file);
  let anchors;
  const full = path.join(ROOT, file);
  if (fs.existsSync(full) && fs.statSync(full).isFile()) {
    anchors = new Set();
    const counts = new Map();
    let fence = null;
    for (const line of fs.readFileSync(full, 'utf8').split('\n')) {
      const fenceMark = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
      if (fenceMark) {
        if (fence === null) fence = fenceMark[1][0];
        else if (fenceMark[1][0] === fence) fence = null;
        continue;
      }
      if (fence !== null) continue;
      for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]);
      const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
      if (!heading) continue;
      const base = slug(heading[1]);
      const n = counts.get(base) ?? 0;
      counts.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
  }
  anchorCache.set(file, anchors);
  return anchors;
}

const outside = [];
const broken = [];
const listed = [];

/** Checks one citation `target` (a repository path to a markdown file) `#anchor`, found at `where`. */
function checkAnchor(where, shown, target, anchor) {
  listed.push(`${where}: ${shown}`);
  const anchors = anchorsOf(target);
  if (anchors === undefined) broken.push(`${where}: ${shown} (no file ${target})`);
  else if (!anchors.has(decodeURIComponent(anchor)))
    broken.push(`${where}: ${shown} (${target} has no heading #${anchor})`);
}

// Source: outside citations in comments and strings, and docs citations anywhere in the text.
const CITATION = /(?<![\w/.-])((?:docs\/[\w.-]+|README)\.md)#([\w%-]+)/g;
for (const full of [
  ...walk(path.join(ROOT, 'src'), '.ts'),
  ...walk(path.join(ROOT, 'sdk', 'src'), '.ts'),
  ...walk(path.join(ROOT, 'mcp', 'src'), '.ts'),
]) {
  const file = rel(full);
  if (skipped(file)) continue;
  const text = fs.readFileSync(full, 'utf8');
  const byLine = new Map();
  for (const piece of commentsAndStrings(file, text)) {
    for (const pattern of OUTSIDE) {
      for (const m of piece.text.matchAll(new RegExp(pattern.source, 'gi'))) {
        const line = lineOf(text, piece.pos + m.index);
        byLine.set(line, [...(byLine.get(line) ?? []), m[0].split('\n')[0].trim()]);
      }
    }
  }
  for (const [line, found] of [...byLine].sort(([a], [b]) => a - b)) {
    const shown = [...new Set(found)].filter((f, _, all) => !all.some((g) => g !== f && g.includes(f)));
    outside.push(`${file}:${line}: ${shown.join(' | ')}`);
  }
  for (const m of text.matchAll(CITATION)) checkAnchor(`${file}:${lineOf(text, m.index)}`, m[0], m[1], m[2]);
}

// Markdown: citations of outside documents, and links with an anchor, resolved against the linking file's folder.
const OUTSIDE_MD =
  /decisions\s*§\s*\d*|decisions\.md|(reference|business)-api\.md|architecture\.md|\/work\/shared\S*|\.\.\/shared\/\S*/gi;
const LINK = /\]\(\s*([^)\s#]*)#([^)\s]+)\s*\)/g;
for (const full of [...walk(path.join(ROOT, 'docs'), '.md'), path.join(ROOT, 'README.md')]) {
  const file = rel(full);
  const text = fs.readFileSync(full, 'utf8');
  for (const m of text.matchAll(OUTSIDE_MD)) outside.push(`${file}:${lineOf(text, m.index)}: ${m[0]}`);
  for (const m of text.matchAll(LINK)) {
    const [, href, anchor] = m;
    if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue; // an absolute URL: not ours to check
    if (href !== '' && !href.endsWith('.md')) continue;
    const target = href === '' ? file : rel(path.resolve(path.dirname(full), href));
    checkAnchor(`${file}:${lineOf(text, m.index)}`, `${href}#${anchor}`, target, anchor);
  }
  for (const m of text.matchAll(CITATION)) {
    if (text[m.index - 1] === '(' || text[m.index - 1] === '/') continue; // a link, checked above
    checkAnchor(`${file}:${lineOf(text, m.index)}`, m[0], m[1], m[2]);
  }
}

if (process.argv.includes('--list')) {
  for (const line of listed) console.log(line);
  process.exit(0);
}
let failed = false;
if (outside.length > 0) {
  failed = true;
  console.error(
    `citations of documents outside the repository (${outside.length}); cite docs/*.md or README.md instead:`,
  );
  for (const line of outside) console.error(`  ${line}`);
}
if (broken.length > 0) {
  failed = true;
  console.error(`citations of headings that do not exist (${broken.length}):`);
  for (const line of broken) console.error(`  ${line}`);
}
if (failed) process.exit(1);
console.log(`✔ Doc citations kept (${listed.length} checked; pending: ${PENDING.length} paths)`);
