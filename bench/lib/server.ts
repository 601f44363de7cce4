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
export async function startChild(args: string[], env: Record<string, string>, port: number, probe: string): Promise<Child> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
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
