/**
 * The master key against the stored secrets (issue 13, item 5): `bizapi serve` refuses to start when the
 * configured key cannot decrypt them, or when the key file is missing for a database that holds secrets
 * (and generates no new key then); `/readyz` answers 503 `masterKey: "mismatch"` for an app whose key does
 * not decrypt them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { buildTestApp, TEST_MASTER_KEY_HEX, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness } from '../setup/factories.ts';
import { DIALECT } from '../setup/test-db.ts';
import { cleanEnv, runUntilExit, serverEnv } from '../setup/server-process.ts';
import { apiClient } from '../setup/api-client.ts';

let t: TestApp;
const { raw } = apiClient(() => t.app);
let dataDir: string;
beforeAll(async () => {
  t = await buildTestApp();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-master-key-'));
  await newBusiness(t); // the database holds a secret encrypted under the test key
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/**
 * Runs `bizapi serve` with `env` until it exits (it must not start): the test server environment without its
 * master key, plus `env`. Resolves with the exit code and stderr.
 */
function serveRefused(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { BIZAPI_MASTER_KEY: _testKey, ...base } = serverEnv({ databaseUrl: t.testDb.url, dataDir });
  return runUntilExit(['serve'], { ...base, ...env });
}

/** Runs a `bizapi` CLI command with `env` until it exits; resolves with its code, stdout and stderr. */
function cli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runUntilExit(args, { ...cleanEnv(), DATABASE_URL: t.testDb.url, BIZAPI_DATA_DIR: dataDir, ...env });
}

describe(`master key (${DIALECT})`, { timeout: 60_000 }, () => {
  it('the CLI commands that write secrets (key create, business create, demo) refuse a missing or wrong key and generate none', async () => {
    const business = await newBusiness(t);
    const runs = [
      ['key', 'create', '--business', String(business.businessId)],
      ['business', 'create', '--name', 'Without a key', '--plan', 'FREE'],
      ['demo'],
    ];
    for (const args of runs) {
      for (const env of [{}, { BIZAPI_MASTER_KEY: 'ab'.repeat(32) }] as Record<string, string>[]) {
        const r = await cli(args, env);
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(1);
        expect(r.stdout).toBe('');
        expect(r.stderr).toContain('BIZAPI_MASTER_KEY');
        expect(fs.existsSync(path.join(dataDir, 'master.key'))).toBe(false);
      }
    }
  });

  it('bizapi serve with a BIZAPI_MASTER_KEY that cannot decrypt the stored secrets exits non-zero, naming BIZAPI_MASTER_KEY', async () => {
    const r = await serveRefused({ BIZAPI_MASTER_KEY: 'ab'.repeat(32) });
    expect(r.code).not.toBe(0);
    expect(r.stderr).not.toContain('bizapi listening');
    expect(r.stderr).toContain('BIZAPI_MASTER_KEY');
    expect(r.stderr).toContain(path.join(dataDir, 'master.key'));
  });

  it('bizapi serve without a key file for a database holding secrets exits non-zero and generates no key', async () => {
    const r = await serveRefused({});
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('BIZAPI_MASTER_KEY');
    expect(fs.existsSync(path.join(dataDir, 'master.key'))).toBe(false);
  });

  it('/readyz: 200 masterKey "ok" with the right key, 503 masterKey "mismatch" with another', async () => {
    const ok = await raw(undefined, { method: 'GET', url: '/readyz' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().checks.masterKey).toBe('ok');
    const other = await buildApp(t.config, { db: t.testDb.db, masterKey: Buffer.from('cd'.repeat(32), 'hex') });
    try {
      const bad = await apiClient(other).raw(undefined, { method: 'GET', url: '/readyz' });
      expect(bad.statusCode).toBe(503);
      expect(bad.json()).toMatchObject({ status: 'unavailable', checks: { database: 'ok', masterKey: 'mismatch' } });
    } finally {
      await other.close();
    }
    expect(TEST_MASTER_KEY_HEX).toHaveLength(64);
  });
});
