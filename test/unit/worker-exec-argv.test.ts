/** The node arguments of a `serve --workers` worker (src/cluster.ts, docs/deployment.md#memory). */
import { describe, expect, it } from 'vitest';
import { WORKER_V8_FLAGS, workerExecArgv } from '../../src/cluster.ts';

describe('workerExecArgv', () => {
  it("adds the memory flags after the primary's own arguments", () => {
    expect(workerExecArgv(['--enable-source-maps'])).toEqual(['--enable-source-maps', ...WORKER_V8_FLAGS]);
  });

  it('keeps a flag the operator gave, on the command line or in NODE_OPTIONS, in either spelling', () => {
    expect(workerExecArgv(['--max-semi-space-size=16'])).toEqual([
      '--max-semi-space-size=16',
      '--heap-growing-percent=30',
    ]);
    expect(workerExecArgv([], '--max_semi_space_size=8 --inspect')).toEqual(['--heap-growing-percent=30']);
    expect(workerExecArgv(['--heap-growing-percent=50'], '--max-semi-space-size=2')).toEqual([
      '--heap-growing-percent=50',
    ]);
  });
});
