/**
 * `bizapi export` leaves no trace in the business (issue 36, item 6), in a real `bin/bizapi` process on the
 * database under test: after an export, `key list` shows the business's keys as before (its temporary key was
 * left revoked on every run) and the API call log holds no row of the export's reads.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runUntilExit, serverEnv } from '../setup/server-process.ts';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness } from '../setup/factories.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 90_000 });

let dir: string;
let t: TestApp;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-export-trace-'));
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('bizapi export', () => {
  it('leaves the key list and the API call log of the business as they were, run after run', async () => {
    const b = await newBusiness(t);
    const env = serverEnv({ databaseUrl: t.testDb.url, dataDir: path.join(dir, 'data') });
    const keys = async () => {
      const r = await runUntilExit(['key', 'list', '--business', String(b.businessId)], env);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as unknown;
    };
    const logRows = async () =>
      Number(
        (
          await t.testDb.db
            .selectFrom('api_log')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('business_id', '=', b.businessId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const keysBefore = await keys();
    const logBefore = await logRows();
    for (const run of [1, 2]) {
      const r = await runUntilExit(
        ['export', '--business', String(b.businessId), '--out', path.join(dir, `run-${run}.jsonl.gz`)],
        env,
      );
      expect(r.code, r.stderr).toBe(0);
      expect(Object.keys(JSON.parse(r.stdout).counts as object).length).toBeGreaterThan(0);
    }
    expect(await keys()).toEqual(keysBefore);
    expect(await logRows()).toBe(logBefore);
  });
});
