/**
 * Summarises a V8 CPU profile (`.cpuprofile`, as written by `node --cpu-prof` or `npm run bench --
 * --cpu-prof <dir>`): the share of self time per place (a package under node_modules, Node's internals,
 * or our own `src/` and `bench/` folders) and the functions with the most self time.
 *
 *   npx tsx bench/profile.ts <file.cpuprofile> [--top 25]
 *
 * Idle time (`(idle)`) is left out of the shares, so they add up to the time the process was busy.
 * `--skip <ms>` leaves out the profile's first milliseconds (the server's start-up: module loading, Ajv and
 * fast-json-stringify compiling), so that what is left is the steady state under load; the second table,
 * "part of the request path", groups the same self time by what it serves ({@link partOf}).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';

/** The parts of a `.cpuprofile` this summary reads (Chrome DevTools Protocol `Profiler.Profile`). */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  /** Node id sampled at each tick. */
  samples: number[];
  /** Microseconds since the previous sample, per sample. */
  timeDeltas: number[];
}

/** Where a frame's code lives: `node_modules/<package>`, `node:internal`, `src/<folder>`, or a V8 pseudo-frame. */
export function placeOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node:internal';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return `node_modules/${rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  const m = /\/(src|dist|bench|bin)\/(?:([^/]+)\/)?/.exec(url);
  if (m) return m[2] && !m[2].includes('.') ? `${m[1]}/${m[2]}` : m[1]!;
  return url;
}

/**
 * The part of the request path a frame's self time serves (bench/README.md#issue-38-fixed-path), judged by
 * the frame itself: its package, Node module or `src/` file, and for V8's and Node's natives their name.
 * `stack` (the frame's callers' places, innermost first) attributes Node's hashing to HMAC and a native
 * call to the nearest caller that names a part.
 */
export function partOf(url: string, functionName: string, stack: readonly string[] = []): string {
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(program)') return 'V8 (program)';
  if (
    functionName === 'writev' ||
    functionName === 'writevGeneric' ||
    functionName === 'writeUtf8String' ||
    functionName === 'writeBuffer'
  )
    return 'socket and HTTP (Node)';
  if (functionName === 'runMicrotasks') return 'promises, ticks, timers';
  const rules: [RegExp, string][] = [
    [
      /node_modules\/(better-sqlite3|kysely|pg|pg-protocol|pg-pool|pg-types|postgres-date|postgres-array)\/|\/(?:src|dist)\/db\//,
      'database driver and Kysely',
    ],
    [/node_modules\/(fast-json-stringify)\//, 'serialisation'],
    [/node_modules\/(ajv|ajv-formats|fast-uri)\/|\/(?:src|dist)\/shared\/validation-errors/, 'validation'],
    [/node_modules\/(prom-client)\/|\/(?:src|dist)\/plugins\/metrics/, 'metrics'],
    [/\/(?:src|dist)\/plugins\/request-log|\/(?:src|dist)\/modules\/log\//, 'call log'],
    [
      /node_modules\/(fastify|find-my-way|avvio|@fastify\/[^/]+|fastq|toad-cache|secure-json-parse|process-warning|light-my-request)\//,
      'Fastify (routing, hooks, reply)',
    ],
    [/^node:internal\/crypto|\/(?:src|dist)\/modules\/auth\/hmac/, 'HMAC and hashing'],
    [/\/(?:src|dist)\/plugins\/authenticate|\/(?:src|dist)\/modules\/auth\//, 'authentication (key cache, guards)'],
    [/\/(?:src|dist)\/plugins\//, 'other plugins (request guards, idempotency, timeout)'],
    [/\/(?:src|dist)\/modules\//, "the route's own code (row mapping, service)"],
    [
      /^node:internal\/(modules|bootstrap|main|process\/pre_execution)|^node:internal\/deps\/cjs/,
      'start-up (module loading)',
    ],
    [/^node:(_http_|net|stream|internal\/stream|internal\/streams|http)/, 'socket and HTTP (Node)'],
    [/^node:internal\/(process\/task_queues|timers|async_hooks)|^node:(timers|async_hooks)/, 'promises, ticks, timers'],
  ];
  for (const [re, part] of rules) if (re.test(url)) return part;
  if (url === '' || url.startsWith('node:')) {
    for (const caller of stack) {
      const p = partOf(caller, '');
      if (p !== 'other (Node, natives)') return p;
    }
  }
  return 'other (Node, natives)';
}

/** Self time per place and per function, in milliseconds, busy time only. */
export function summarise(
  profile: CpuProfile,
  skipMs = 0,
): { busyMs: number; places: Map<string, number>; functions: Map<string, number>; parts: Map<string, number> } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const parentOf = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
  /** The urls of a node's callers, innermost first (up to 12). */
  const callers = (id: number): string[] => {
    const urls: string[] = [];
    for (let p = parentOf.get(id); p !== undefined && urls.length < 12; p = parentOf.get(p))
      urls.push(byId.get(p)!.url);
    return urls;
  };
  const places = new Map<string, number>();
  const functions = new Map<string, number>();
  const parts = new Map<string, number>();
  let busy = 0;
  let at = 0;
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id);
    const us = profile.timeDeltas[i] ?? 0;
    at += us;
    if (at < skipMs * 1000) return;
    if (!frame || frame.functionName === '(idle)') return;
    busy += us;
    const part = partOf(frame.url, frame.functionName, callers(id));
    parts.set(part, (parts.get(part) ?? 0) + us);
    const place = placeOf(frame.url, frame.functionName);
    places.set(place, (places.get(place) ?? 0) + us);
    const where = frame.url ? `${path.basename(frame.url)}:${frame.lineNumber + 1}` : '';
    const fn = `${frame.functionName || '(anonymous)'} ${where} [${place}]`;
    functions.set(fn, (functions.get(fn) ?? 0) + us);
  });
  const ms = (m: Map<string, number>) => new Map([...m].map(([k, v]) => [k, v / 1000]));
  return { busyMs: busy / 1000, places: ms(places), functions: ms(functions), parts: ms(parts) };
}

function table(title: string, rows: Map<string, number>, busyMs: number, top: number): string {
  const sorted = [...rows].sort((a, b) => b[1] - a[1]).slice(0, top);
  return [
    `| ${title} | ms | share |`,
    '|---|---:|---:|',
    ...sorted.map(([k, v]) => `| ${k} | ${v.toFixed(0)} | ${((100 * v) / busyMs).toFixed(1)}% |`),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const program = new Command()
    .name('profile')
    .argument('<file>', 'a .cpuprofile')
    .option('--top <n>', 'functions to list', '25')
    .option('--skip <ms>', "leave out the profile's first milliseconds (start-up)", '0')
    .parse();
  const o = program.opts<{ top: string; skip: string }>();
  const top = Number(o.top);
  const s = summarise(JSON.parse(readFileSync(program.args[0]!, 'utf8')) as CpuProfile, Number(o.skip));
  process.stdout.write(
    `busy ${s.busyMs.toFixed(0)} ms\n\n${table('part of the request path', s.parts, s.busyMs, 20)}\n\n${table('place', s.places, s.busyMs, 20)}\n\n${table('function (self time)', s.functions, s.busyMs, top)}\n`,
  );
}
