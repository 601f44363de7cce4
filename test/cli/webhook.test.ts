/**
 * `bizapi webhook create | list | delete` (docs/webhooks.md#endpoints), run as users run it: `bin/bizapi`
 * in a child process, against a fresh SQLite database in a temporary directory and, when `DATABASE_URL`
 * names a PostgreSQL database, also against that one (shared: the test makes its own business).
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseConfig } from '../../src/config.ts';
import { createDb } from '../../src/db/create-db.ts';
import type { Database } from '../../src/db/database.ts';
import { decryptSecret, resolveMasterKey } from '../../src/modules/auth/secret-box.ts';
import { TEST_MASTER_KEY_HEX } from '../setup/build-test-app.ts';
import { BIN } from '../setup/server-process.ts';
import { pgConfig } from '../setup/test-workers.ts';

// Each test runs several CLI processes in a row (each loads the TypeScript sources), on a shared machine.
vi.setConfig({ testTimeout: 600_000, hookTimeout: 30_000 });

interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The parent's environment without anything bizapi reads. */
function baseEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(BIZAPI_|DATABASE_URL$|HOST$|PORT$|S3_|SMTP_URL$|PUSH_WEBHOOK_URL$|LOG_LEVEL$)/.test(name)) delete env[name];
  }
  return env;
}

/** Runs `bin/bizapi ARGS`; never rejects. */
function run(args: string[], options: { env: NodeJS.ProcessEnv; cwd: string }): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: options.env, cwd: options.cwd, timeout: 90_000 },
      (err, stdout, stderr) => {
        resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr });
      },
    );
  });
}

function json(r: RunResult): any {
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

function expectFailure(r: RunResult, message: string): void {
  expect(r.code).not.toBe(0);
  expect(r.stdout).toBe('');
  expect(r.stderr).toContain(message);
}

interface Target {
  name: string;
  databaseUrl: (dir: string) => string;
  database: (dir: string) => DatabaseConfig;
  fresh: boolean;
}

const targets: Target[] = [
  {
    name: 'SQLite',
    databaseUrl: (dir) => `sqlite:${path.join(dir, 'x.db')}`,
    database: (dir) => ({ dialect: 'sqlite', path: path.join(dir, 'x.db') }),
    fresh: true,
  },
];
const pgUrl = process.env.DATABASE_URL;
if (pgUrl?.startsWith('postgres')) {
  targets.push({ name: 'PostgreSQL', databaseUrl: () => pgUrl, database: () => pgConfig(pgUrl), fresh: false });
}

describe.each(targets)('bizapi webhook on $name', (target) => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let db: Kysely<Database> | undefined;
  const bizapi = (...args: string[]) => run(args, { env, cwd: dir });

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-cli-webhook-'));
    env = { ...baseEnv(), DATABASE_URL: target.databaseUrl(dir), BIZAPI_DATA_DIR: dir };
    // The shared PostgreSQL database holds the other tests' secrets, sealed under the test key.
    if (!target.fresh) env.BIZAPI_MASTER_KEY = TEST_MASTER_KEY_HEX;
  });

  afterAll(async () => {
    await db?.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it.sequential(
    'create prints the endpoint and its secret once; list shows it without the secret; delete removes it',
    async () => {
      const business = json(
        await bizapi('business', 'create', '--name', `Hooks ${randomUUID()}`, '--plan', 'AGENCY'),
      ).business;
      const id = String(business.id);
      db = createDb(target.database(dir));

      const created = json(
        await bizapi(
          'webhook',
          'create',
          '--business',
          id,
          '--url',
          'https://8.8.8.8/hook',
          '--events',
          'client.created, inquiry.updated',
          '--format',
          'pluuug',
          '--description',
          'CRM',
        ),
      );
      expect(created).toEqual({
        id: expect.any(Number),
        url: 'https://8.8.8.8/hook',
        eventTypes: ['client.created', 'inquiry.updated'],
        description: 'CRM',
        isActive: true,
        isParked: false,
        format: 'pluuug',
        created: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
      });
      const row = await db
        .selectFrom('webhook_endpoint')
        .selectAll()
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow();
      expect(row.business_id).toBe(business.id);
      const masterKey = resolveMasterKey({
        masterKey: env.BIZAPI_MASTER_KEY ? Buffer.from(env.BIZAPI_MASTER_KEY, 'hex') : undefined,
        dataDir: dir,
      });
      expect(decryptSecret(masterKey, row.secret)).toBe(created.secret);

      const all = json(
        await bizapi(
          'webhook',
          'create',
          '--business',
          id,
          '--url',
          'http://[2606:4700:4700::1111]/x',
          '--events',
          '*',
        ),
      );
      expect(all).toMatchObject({ eventTypes: ['*'], format: 'standard', description: null });

      const listed = await bizapi('webhook', 'list', '--business', id);
      const { secret, ...endpoint } = created;
      const { secret: allSecret, ...allEndpoint } = all;
      expect(json(listed)).toEqual({ webhooks: [allEndpoint, endpoint] });
      expect(listed.stdout).not.toContain(allSecret);
      expect(listed.stdout).not.toContain(secret);

      expect(json(await bizapi('webhook', 'delete', '--business', id, '--id', String(created.id)))).toEqual({
        deleted: true,
      });
      expect(json(await bizapi('webhook', 'list', '--business', id)).webhooks.map((w: any) => w.id)).toEqual([all.id]);
      expectFailure(
        await bizapi('webhook', 'delete', '--business', id, '--id', String(created.id)),
        `has no webhook endpoint ${created.id}`,
      );
    },
  );

  it.sequential(
    'refuses what the API refuses: unknown event types and formats, unsafe URLs, unknown businesses',
    async () => {
      const business = json(
        await bizapi('business', 'create', '--name', `Hooks ${randomUUID()}`, '--plan', 'FREE'),
      ).business;
      const id = String(business.id);
      const create = (...args: string[]) => bizapi('webhook', 'create', '--business', id, ...args);
      expectFailure(
        await create('--url', 'https://8.8.8.8/', '--events', 'client.exploded'),
        '--events: unknown event type "client.exploded"',
      );
      expectFailure(
        await create('--url', 'https://8.8.8.8/', '--events', '*,client.created'),
        '--events: "*" stands for every event type and must be alone.',
      );
      expectFailure(
        await create('--url', 'https://8.8.8.8/', '--events', '*', '--format', 'xml'),
        '--format: "xml" is not one of standard, pluuug.',
      );
      expectFailure(
        await create('--url', 'ftp://8.8.8.8/', '--events', '*'),
        '--url: The URL must use the http or https scheme.',
      );
      expectFailure(
        await create('--url', 'http://127.0.0.1:8080/', '--events', '*'),
        '--url: The host 127.0.0.1 is not a public address. To deliver to a receiver on this machine or a private network, set BIZAPI_WEBHOOK_ALLOW_PRIVATE=true on the server.',
      );
      expectFailure(await bizapi('webhook', 'list', '--business', '987654321'), 'Business 987654321 does not exist.');
      // With BIZAPI_WEBHOOK_ALLOW_PRIVATE=true a local URL is accepted.
      const local = await run(
        ['webhook', 'create', '--business', id, '--url', 'http://127.0.0.1:8080/', '--events', '*'],
        {
          env: { ...env, BIZAPI_WEBHOOK_ALLOW_PRIVATE: 'true' },
          cwd: dir,
        },
      );
      expect(json(local).url).toBe('http://127.0.0.1:8080/');
      expect(json(await bizapi('webhook', 'list', '--business', id)).webhooks).toHaveLength(1);
    },
  );
});
