/**
 * Summarises a V8 CPU profile (`.cpuprofile`, as written by `node --cpu-prof` or `npm run bench --
 * --cpu-prof <dir>`): the share of self time per place (a package under node_modules, Node's internals,
 * or our own `src/` and `bench/` folders) and the functions with the most self time.
 *
 *   npx tsx bench/profile.ts <file.cpuprofile> [--top 25]
 *
 * Idle time (`(idle)`) is left out of the shares, so they add up to the time the process was busy.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';

/** The parts of a `.cpuprofile` this summary reads (Chrome DevTools Protocol `Profiler.Profile`). */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
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
  const m = /\/(src|bench|bin)\/(?:([^/]+)\/)?/.exec(url);
  if (m) return m[2] && !m[2].includes('.') ? `${m[1]}/${m[2]}` : m[1]!;
  return url;
}

/** Self time per place and per function, in milliseconds, busy time only. */
export function summarise(profile: CpuProfile): { busyMs: number; places: Map<string, number>; functions: Map<string, number> } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const places = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id);
    const us = profile.timeDeltas[i] ?? 0;
    if (!frame || frame.functionName === '(idle)') return;
    busy += us;
    const place = placeOf(frame.url, frame.functionName);
    places.set(place, (places.get(place) ?? 0) + us);
    const where = frame.url ? `${path.basename(frame.url)}:${frame.lineNumber + 1}` : '';
    const fn = `${frame.functionName || '(anonymous)'} ${where} [${place}]`;
    functions.set(fn, (functions.get(fn) ?? 0) + us);
  });
  const ms = (m: Map<string, number>) => new Map([...m].map(([k, v]) => [k, v / 1000]));
  return { busyMs: busy / 1000, places: ms(places), functions: ms(functions) };
}

function table(title: string, rows: Map<string, number>, busyMs: number, top: number): string {
  const sorted = [...rows].sort((a, b) => b[1] - a[1]).slice(0, top);
  return [`| ${title} | ms | share |`, '|---|---:|---:|', ...sorted.map(([k, v]) => `| ${k} | ${v.toFixed(0)} | ${((100 * v) / busyMs).toFixed(1)}% |`)].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const program = new Command()
    .name('profile')
    .argument('<file>', 'a .cpuprofile')
    .option('--top <n>', 'functions to list', '25')
    .parse();
  const top = Number(program.opts<{ top: string }>().top);
  const s = summarise(JSON.parse(readFileSync(program.args[0]!, 'utf8')) as CpuProfile);
  process.stdout.write(`busy ${s.busyMs.toFixed(0)} ms\n\n${table('place', s.places, s.busyMs, 20)}\n\n${table('function (self time)', s.functions, s.busyMs, top)}\n`);
}
