/**
 * Child processes for the benchmark: the bizapi server (`bin/bizapi serve`) and the bare baseline
 * (`bench/baseline.ts`), each started on a free loopback port and stopped with SIGTERM, plus a sampler of
 * a process's resident set size read from /proc (Linux).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

/** The repository root. */
export const ROOT = path.resolve(import.meta.dirname, '../..');

/** A free TCP port on 127.0.0.1 (asked of the kernel, then released). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** A started child process and its base URL. */
export interface Child {
  process: ChildProcess;
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * Spawns `node <args>` with `env` added to this process's environment and waits until `baseUrl + probe`
 * answers (any status), at most 60 s.
 * @throws when the process exits early or never answers
 */
export async function startChild(
  args: string[],
  env: Record<string, string>,
  port: number,
  probe: string,
): Promise<Child> {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}:\n${stderr}`);
    try {
      await fetch(baseUrl + probe);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`${args.join(' ')} did not answer within 60 s:\n${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    process: child,
    baseUrl,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

/** Resident set size of process `pid` in bytes (VmRSS), or 0 when it cannot be read. */
export function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Samples the RSS of `pid` every 50 ms until `stop()`, which returns the peak in bytes. */
export function sampleRss(pid: number): { stop(): number } {
  let peak = rssOf(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, 50);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rssOf(pid));
    },
  };
}

/** Clock ticks per second of `/proc/<pid>/stat` times (`getconf CLK_TCK`; 100 on Linux everywhere in practice). */
const CLOCK_TICKS = 100;

/**
 * CPU time (user + system) of process `pid` in milliseconds, from fields 14 and 15 of `/proc/<pid>/stat`
 * (10 ms resolution), or `undefined` when the process is gone or cannot be read.
 */
export function cpuMsOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces: the fields after it start past its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/**
 * CPU time spent by a set of processes between `start()` and `stop()`, in milliseconds: `pids()` is asked at
 * both ends (so processes that appear meanwhile count from 0, e.g. a PostgreSQL backend opened mid-run); a
 * process gone before `stop()` is not counted (pool connections and server processes live through a run).
 * Resolution 10 ms per process.
 */
export function cpuMeter(pids: () => Promise<number[]> | number[]): {
  start(): Promise<void>;
  stop(): Promise<number>;
} {
  const first = new Map<number, number>();
  return {
    async start() {
      for (const pid of await pids()) {
        const ms = cpuMsOf(pid);
        if (ms !== undefined) first.set(pid, ms);
      }
    },
    async stop() {
      let total = 0;
      const seen = new Set<number>();
      for (const pid of [...(await pids()), ...first.keys()]) {
        if (seen.has(pid)) continue;
        seen.add(pid);
        const now = cpuMsOf(pid);
        if (now !== undefined) total += now - (first.get(pid) ?? 0);
      }
      return total;
    },
  };
}
