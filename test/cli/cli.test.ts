/**
 * The `bizapi` command line (decisions §6), run as users run it: `bin/bizapi` in a child process, against a
 * fresh SQLite database in a temporary directory and, when `DATABASE_URL` names a PostgreSQL database, also
 * against that one (shared: every test creates its own business and looks only at its own rows).
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseConfig } from '../../src/config.ts';
import { createDb } from '../../src/db/create-db.ts';
import type { Database } from '../../src/db/database.ts';
import { authenticateApiKey } from '../../src/modules/auth/auth.service.ts';
import { signBody } from '../../src/modules/auth/hmac.ts';
import { resolveMasterKey } from '../../src/modules/auth/secret-box.ts';
import { TEST_MASTER_KEY_HEX } from '../setup/build-test-app.ts';
import { BIN } from '../setup/server-process.ts';
import { pgConfig } from '../setup/test-workers.ts';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

/** Every migration of the project, in the order they apply (file names without extension). */
const MIGRATIONS = fs
  .readdirSync(fileURLToPath(new URL('../../src/db/migrations', import.meta.url)))
  .filter((f) => /\.(ts|js)$/.test(f) && !f.endsWith('.d.ts'))
  .sort()
  .map((f) => f.replace(/\.(ts|js)$/, ''));

interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The parent's environment without anything bizapi reads, so a developer's settings cannot leak in. */
function baseEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(BIZAPI_|DATABASE_URL$|HOST$|PORT$|S3_|SMTP_URL$|PUSH_WEBHOOK_URL$|LOG_LEVEL$)/.test(name)) delete env[name];
  }
  return env;
}

/** Runs `bin/bizapi ARGS` with `node`, in `cwd`, with `env`; never rejects. */
function run(args: string[], options: { env: NodeJS.ProcessEnv; cwd: string }): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: options.env, cwd: options.cwd, timeout: 20_000 },
      (err, stdout, stderr) => {
        const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Checks success and parses stdout as exactly one JSON document (JSON.parse rejects trailing garbage). */
function json(r: RunResult): any {
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/** A failure: non-zero exit, nothing on stdout, a message on stderr. */
function expectFailure(r: RunResult, message: string | RegExp): void {
  expect(r.code).not.toBe(0);
  expect(r.stdout).toBe('');
  if (typeof message === 'string') expect(r.stderr).toContain(message);
  else expect(r.stderr).toMatch(message);
}

const SECTIONS = [
  'grades',
  'members',
  'folders',
  'statuses',
  'clientStatuses',
  'fields',
  'contractCategories',
  'settlementTypes',
  'positions',
  'estimateItemClassifications',
];

/** The example of decisions §6. */
const GOOD_CATALOG = {
  grades: [{ key: 'owner', title: 'Owner' }],
  members: [
    {
      key: 'kim',
      nickname: 'Kim',
      email: 'kim@example.com',
      isActive: true,
      grade: 'owner',
      notificationsEnabled: true,
    },
  ],
  folders: [
    {
      key: 'sales',
      name: 'Sales',
      isDefault: true,
      statuses: [
        { key: 'new', title: 'New', isDefault: true },
        { key: 'won', title: 'Won' },
      ],
    },
  ],
  clientStatuses: [{ key: 'lead', title: 'Lead', isDefault: true }],
  fields: [
    { key: 'channel', name: 'Channel', category: 'I', dataType: 'SL', options: [{ id: 'web', title: 'Web' }] },
    { key: 'owner', name: 'Owner', category: 'C', dataType: 'M', members: ['kim'] },
  ],
  contractCategories: [{ key: 'web', title: 'Web' }],
  settlementTypes: [{ key: 'ini', baseType: 'INI', category: 'I', title: 'Down payment', allowsMultipleRounds: false }],
  positions: [{ key: 'dev', title: 'Developer', symbolColor: '#2f80ed' }],
  estimateItemClassifications: [
    { key: 'design', title: '디자인' },
    { key: 'dev', title: 'Development' },
  ],
};

/** A second file for the same business: no default folder or client status of its own. */
const MORE_CATALOG = {
  grades: [{ key: 'staff', title: 'Staff' }],
  members: [{ key: 'lee', email: 'lee@example.com', grade: 'staff' }],
  folders: [{ key: 'archive', name: 'Archive', statuses: [{ key: 'lost', title: 'Lost' }] }],
  clientStatuses: [{ key: 'vip', title: 'VIP' }],
  settlementTypes: [{ key: 'bal', baseType: 'BAL', category: 'I', title: 'Balance', allowsMultipleRounds: false }],
  estimateItemClassifications: [{ key: 'ops', title: 'Operations' }],
};

const CATALOG_TABLES = [
  'grade',
  'member',
  'folder',
  'inquiry_status',
  'client_status',
  'field',
  'field_option',
  'field_member',
  'contract_category',
  'settlement_type',
  'worker_position',
  'estimate_item_classification',
] as const;

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
  targets.push({
    name: 'PostgreSQL',
    databaseUrl: () => pgUrl,
    database: () => pgConfig(pgUrl),
    fresh: false,
  });
}

// The suites run side by side (one child process each at a time); the tests within a suite run in order.
describe.concurrent.each(targets)('bizapi on $name', (target) => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let db: Kysely<Database>;
  const bizapi = (...args: string[]) => run(args, { env, cwd: dir });
  const unique = (prefix: string) => `${prefix} ${randomUUID()}`;
  const writeJson = (name: string, value: unknown) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
    return file;
  };
  const businessesNamed = async (name: string) =>
    (await db.selectFrom('business').select('id').where('name', '=', name).execute()).length;
  const catalogCounts = async (businessId: number) => {
    const counts: Record<string, number> = {};
    for (const table of CATALOG_TABLES) {
      const row = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('business_id', '=', businessId)
        .executeTakeFirstOrThrow();
      counts[table] = Number(row.n);
    }
    return counts;
  };
  /** Failures that do not depend on the dialect (input checks before the database is opened, unknown ids): run them once. */
  const onceOnly = target.name !== 'SQLite';
  const itOnce = onceOnly ? it.sequential.skip : it.sequential;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-cli-'));
    env = { ...baseEnv(), DATABASE_URL: target.databaseUrl(dir), BIZAPI_DATA_DIR: dir };
    // The shared PostgreSQL test database holds the other tests' secrets, encrypted under the test key: a
    // command that writes secrets needs that key (a new key file is generated only for a database without
    // secrets, docs/deployment.md#9-key-rotation).
    if (!target.fresh) env.BIZAPI_MASTER_KEY = TEST_MASTER_KEY_HEX;
  });

  afterAll(async () => {
    await db?.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it.sequential('migrate prints the migrations it applied, then none', async () => {
    const first = await bizapi('migrate');
    expect(first.code, first.stderr).toBe(0);
    const applied = json(first).applied;
    expect(Array.isArray(applied)).toBe(true);
    if (target.fresh) expect(applied).toEqual(MIGRATIONS);
    const second = await bizapi('migrate');
    expect(json(second)).toEqual({ applied: [] });
    db = createDb(target.database(dir));
  });

  it.sequential(
    'business create --catalog prints one JSON document with the business, the key and the catalog ids',
    async () => {
      const name = unique('Acme');
      const file = writeJson('good.json', GOOD_CATALOG);
      const r = await bizapi('business', 'create', '--name', name, '--plan', 'AGENCY', '--catalog', file);
      expect(r.code, r.stderr).toBe(0);
      const out = json(r);
      expect(Object.keys(out)).toEqual(['business', 'apiKey', 'secretKey', 'catalog']);
      expect(out.business).toEqual({ id: expect.any(Number), name, plan: 'AGENCY', timezone: 'Asia/Seoul' });
      expect(out.apiKey).toMatch(/^bz_[A-Za-z0-9_-]{43}$/);
      expect(out.secretKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Object.keys(out.catalog)).toEqual(SECTIONS);
      expect(Object.keys(out.catalog.statuses)).toEqual(['new', 'won']);
      expect(Object.keys(out.catalog.fields)).toEqual(['channel', 'owner']);
      for (const section of SECTIONS) {
        for (const id of Object.values(out.catalog[section])) expect(id).toEqual(expect.any(Number));
      }

      // On a fresh database the master key file was generated, private to its owner (on the shared
      // PostgreSQL database the key comes from BIZAPI_MASTER_KEY, and no file is written).
      if (target.fresh) expect(fs.statSync(path.join(dir, 'master.key')).mode & 0o777).toBe(0o600);
      else expect(fs.existsSync(path.join(dir, 'master.key'))).toBe(false);

      // The key authenticates to this business and decrypts to the printed secret.
      const auth = await authenticateApiKey(
        db,
        resolveMasterKey({
          masterKey: env.BIZAPI_MASTER_KEY ? Buffer.from(env.BIZAPI_MASTER_KEY, 'hex') : undefined,
          dataDir: dir,
        }),
        out.apiKey,
      );
      expect(auth).toMatchObject({
        businessId: out.business.id,
        plan: 'AGENCY',
        timezone: 'Asia/Seoul',
        secret: out.secretKey,
      });

      // Rows as the file says: statuses ordered in file order, defaults, options, members.
      const statuses = await db
        .selectFrom('inquiry_status')
        .select(['id', 'folder_id', 'is_default', 'position'])
        .where('business_id', '=', out.business.id)
        .orderBy('position')
        .execute();
      expect(statuses).toEqual([
        { id: out.catalog.statuses.new, folder_id: out.catalog.folders.sales, is_default: 1, position: 1 },
        { id: out.catalog.statuses.won, folder_id: out.catalog.folders.sales, is_default: 0, position: 2 },
      ]);
      const member = await db
        .selectFrom('member')
        .select(['grade_id', 'is_active', 'notifications_enabled', 'nickname'])
        .where('id', '=', out.catalog.members.kim)
        .executeTakeFirstOrThrow();
      expect(member).toEqual({
        grade_id: out.catalog.grades.owner,
        is_active: 1,
        notifications_enabled: 1,
        nickname: 'Kim',
      });
      const options = await db
        .selectFrom('field_option')
        .select(['option_id', 'title'])
        .where('field_id', '=', out.catalog.fields.channel)
        .execute();
      expect(options).toEqual([{ option_id: 'web', title: 'Web' }]);
      const fieldMembers = await db
        .selectFrom('field_member')
        .select('member_id')
        .where('field_id', '=', out.catalog.fields.owner)
        .execute();
      expect(fieldMembers).toEqual([{ member_id: out.catalog.members.kim }]);
      const classifications = await db
        .selectFrom('estimate_item_classification')
        .select(['id', 'title', 'position'])
        .where('business_id', '=', out.business.id)
        .orderBy('position')
        .execute();
      expect(classifications).toEqual([
        { id: out.catalog.estimateItemClassifications.design, title: '디자인', position: 1 },
        { id: out.catalog.estimateItemClassifications.dev, title: 'Development', position: 2 },
      ]);
    },
  );

  itOnce(
    'business create rejects a bad plan, time zone or name with nothing on stdout and nothing created',
    async () => {
      const name = unique('Nope');
      expectFailure(
        await bizapi('business', 'create', '--name', name, '--plan', 'GOLD'),
        '--plan: "GOLD" is not one of FREE, BASIC, TEAM, AGENCY.',
      );
      expectFailure(
        await bizapi('business', 'create', '--name', name, '--plan', 'AGENCY', '--timezone', 'Mars/Olympus'),
        'Mars/Olympus',
      );
      expectFailure(await bizapi('business', 'create', '--name', '  ', '--plan', 'AGENCY'), '--name');
      expect(await businessesNamed(name)).toBe(0);
    },
  );

  itOnce(
    'business create with an invalid catalog file creates nothing and names every problem',
    async () => {
      const cases: [string, unknown, string[]][] = [
        [
          'two default folders',
          {
            ...GOOD_CATALOG,
            folders: [
              ...GOOD_CATALOG.folders,
              {
                key: 'ops',
                name: 'Ops',
                isDefault: true,
                statuses: [{ key: 'todo', title: 'To do', isDefault: true }],
              },
            ],
          },
          ['folders: exactly one folder must be default'],
        ],
        [
          'unknown grade key and no default status',
          {
            ...GOOD_CATALOG,
            members: [{ key: 'kim', email: 'kim@example.com', grade: 'boss' }],
            folders: [{ key: 'sales', name: 'Sales', isDefault: true, statuses: [{ key: 'new', title: 'New' }] }],
          },
          ['members[0].grade: unknown grade "boss"', 'folders[0].statuses: exactly one status must be default'],
        ],
        [
          'bad dataType',
          { ...GOOD_CATALOG, fields: [{ key: 'x', name: 'X', category: 'I', dataType: 'ZZ' }] },
          ['fields[0].dataType: must be one of S, N, M, D, T, B, SL, ML'],
        ],

        ['not JSON', '{"grades": [', ['is not valid JSON']],
      ];
      for (const [label, content, messages] of cases) {
        const name = unique('Broken');
        const file = writeJson('bad.json', content);
        const r = await bizapi('business', 'create', '--name', name, '--plan', 'AGENCY', '--catalog', file);
        expect(r.code, label).toBe(1);
        expect(r.stdout, label).toBe('');
        for (const m of messages) expect(r.stderr, label).toContain(m);
        expect(await businessesNamed(name), label).toBe(0);
      }
    },
    90_000,
  ); // four processes in a row: under a loaded CI machine each takes several seconds to start

  it.sequential(
    'catalog import adds a file to a business and prints its ids; an invalid or clashing file writes nothing',
    async () => {
      const created = json(
        await bizapi(
          'business',
          'create',
          '--name',
          unique('Acme'),
          '--plan',
          'TEAM',
          '--catalog',
          writeJson('good.json', GOOD_CATALOG),
        ),
      );
      const id = String(created.business.id);

      const r = await bizapi('catalog', 'import', '--business', id, writeJson('more.json', MORE_CATALOG));
      expect(r.code, r.stderr).toBe(0);
      const ids = json(r);
      expect(Object.keys(ids)).toEqual(SECTIONS);
      expect(Object.keys(ids.statuses)).toEqual(['lost']);
      expect(ids.fields).toEqual({});
      // One `catalog.updated` per section that received entries, none for the business's first catalog
      // (docs/api.md#cascades).
      const events = await db
        .selectFrom('event')
        .select(['type', 'data'])
        .where('business_id', '=', created.business.id)
        .orderBy('id')
        .execute();
      const sections = Object.entries(ids as Record<string, Record<string, number>>).filter(
        ([, keys]) => Object.keys(keys).length > 0,
      );
      expect(sections.length).toBeGreaterThan(1);
      expect(events.map((e) => [e.type, JSON.parse(e.data)])).toEqual(
        sections.map(([section, keys]) => [
          'catalog.updated',
          { section, ids: Object.values(keys).sort((a, b) => a - b) },
        ]),
      );
      // Positions continue after the first file's; defaults as documented.
      const lost = await db
        .selectFrom('inquiry_status')
        .select(['position', 'is_default'])
        .where('id', '=', ids.statuses.lost)
        .executeTakeFirstOrThrow();
      expect(lost).toEqual({ position: 3, is_default: 0 });
      const ops = await db
        .selectFrom('estimate_item_classification')
        .select(['position', 'title'])
        .where('id', '=', ids.estimateItemClassifications.ops)
        .executeTakeFirstOrThrow();
      expect(ops).toEqual({ position: 3, title: 'Operations' });
      const member = await db
        .selectFrom('member')
        .select(['nickname', 'is_active'])
        .where('id', '=', ids.members.lee)
        .executeTakeFirstOrThrow();
      expect(member).toEqual({ nickname: null, is_active: 1 });

      const before = await catalogCounts(created.business.id);
      // Valid on its own, but the business already has a default folder and a default client status.
      const clash = await bizapi('catalog', 'import', '--business', id, writeJson('clash.json', GOOD_CATALOG));
      expectFailure(clash, 'folders[0].isDefault: the business already has a default folder');
      expect(clash.stderr).toContain('clientStatuses[0].isDefault: the business already has a default client status');
      // Valid up to one bad reference at the end.
      const badRef = {
        ...MORE_CATALOG,
        fields: [{ key: 'who', name: 'Who', category: 'C', dataType: 'M', members: ['ghost'] }],
      };
      expectFailure(
        await bizapi('catalog', 'import', '--business', id, writeJson('badref.json', badRef)),
        'fields[0].members[0]: unknown member "ghost"',
      );
      expect(await catalogCounts(created.business.id)).toEqual(before);
      // The refused imports wrote no event either.
      expect(
        await db.selectFrom('event').select('id').where('business_id', '=', created.business.id).execute(),
      ).toHaveLength(events.length);
    },
    90_000,
  ); // four CLI processes in a row

  itOnce('catalog import into an unknown business fails', async () => {
    expectFailure(
      await bizapi('catalog', 'import', '--business', '987654321', writeJson('more.json', MORE_CATALOG)),
      'Business 987654321 does not exist.',
    );
  });

  it.sequential(
    'key create, list and revoke; a revoked key no longer authenticates',
    async () => {
      // Also: a business without a catalog, with another time zone.
      const first = json(
        await bizapi('business', 'create', '--name', unique('Keys'), '--plan', 'FREE', '--timezone', 'Europe/Berlin'),
      );
      expect(first.business).toMatchObject({ plan: 'FREE', timezone: 'Europe/Berlin' });
      expect(first.catalog).toBeNull();
      const id = String(first.business.id);

      const created = json(await bizapi('key', 'create', '--business', id));
      expect(Object.keys(created)).toEqual(['apiKey', 'secretKey']);
      expect(created.apiKey).not.toBe(first.apiKey);

      const listed = await bizapi('key', 'list', '--business', id);
      const { keys } = json(listed);
      expect(keys).toHaveLength(2);
      for (const k of keys) {
        expect(Object.keys(k)).toEqual(['id', 'prefix', 'created', 'revokedAt']);
        expect(k.revokedAt).toBeNull();
      }
      for (const secret of [first.apiKey, first.secretKey, created.apiKey, created.secretKey]) {
        expect(listed.stdout).not.toContain(secret);
      }

      expect(json(await bizapi('key', 'revoke', first.apiKey))).toEqual({ revoked: true });
      const masterKey = resolveMasterKey({
        masterKey: env.BIZAPI_MASTER_KEY ? Buffer.from(env.BIZAPI_MASTER_KEY, 'hex') : undefined,
        dataDir: dir,
      });
      expect(await authenticateApiKey(db, masterKey, first.apiKey)).toBeUndefined();
      expect(await authenticateApiKey(db, masterKey, created.apiKey)).toMatchObject({ businessId: first.business.id });
      const after = json(await bizapi('key', 'list', '--business', id)).keys;
      expect(after[0].revokedAt).toEqual(expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/));
      expect(after[1].revokedAt).toBeNull();

      if (!onceOnly) {
        expectFailure(await bizapi('key', 'revoke', first.apiKey), 'No active API key');
        expectFailure(await bizapi('key', 'list', '--business', '987654321'), 'Business 987654321 does not exist.');
      }
    },
    90_000,
  ); // five CLI processes in a row

  it.sequential('demo creates "Demo Company" with its catalog and five clients', async () => {
    const r = await bizapi('demo');
    expect(r.code, r.stderr).toBe(0);
    const out = json(r);
    expect(Object.keys(out)).toEqual(['business', 'apiKey', 'secretKey', 'catalog']);
    expect(out.business).toMatchObject({ name: 'Demo Company', plan: 'AGENCY', timezone: 'Asia/Seoul' });
    expect(Object.keys(out.catalog.folders)).toHaveLength(2);
    const clients = await db
      .selectFrom('client')
      .select(['company_name', 'status_id'])
      .where('business_id', '=', out.business.id)
      .orderBy('id')
      .execute();
    expect(clients).toHaveLength(5);
    for (const c of clients) expect(Object.values(out.catalog.clientStatuses)).toContain(c.status_id);
    const types = await db
      .selectFrom('settlement_type')
      .select('base_type')
      .where('business_id', '=', out.business.id)
      .execute();
    expect(types.map((t) => t.base_type)).toEqual(expect.arrayContaining(['INI', 'BAL', 'SIN', 'ADD', 'OUT']));
  });
});

describe.concurrent('bizapi without a database', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let server: http.Server;
  let baseUrl: string;
  const bizapi = (...args: string[]) => run(args, { env, cwd: dir });

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-cli-'));
    env = { ...baseEnv(), DATABASE_URL: `sqlite:${path.join(dir, 'x.db')}`, BIZAPI_DATA_DIR: dir };
    // Echoes what it received; /fail answers 400, /text answers plain text.
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (req.url === '/text') {
          res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
          return;
        }
        const status = req.url?.startsWith('/fail') ? 400 : 200;
        res.writeHead(status, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            method: req.method,
            url: req.url,
            apiKey: req.headers['x-api-key'] ?? null,
            signature: req.headers['x-signature'] ?? null,
            contentType: req.headers['content-type'] ?? null,
            body,
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it.sequential(
    'sign prints the HMAC of --data, of a --file, or of the empty string; --hex prints the bare hex',
    async () => {
      const body = '{"companyName": "Acme"}';
      expect(json(await bizapi('sign', '--secret', 's3cret', '--data', body))).toEqual({
        signature: signBody('s3cret', body),
      });
      const hex = await bizapi('sign', '--secret', 's3cret', '--hex');
      expect(hex.stdout).toBe(`${signBody('s3cret', '')}\n`);
      const file = path.join(dir, 'body.json');
      fs.writeFileSync(file, body);
      expect((await bizapi('sign', '--secret', 's3cret', '--file', file, '--hex')).stdout).toBe(
        `${signBody('s3cret', body)}\n`,
      );
      expectFailure(await bizapi('sign', '--data', body), 'BIZAPI_SECRET_KEY');
    },
  );

  it.sequential('request sends a signed request and prints the response; exit 1 for a non-2xx status', async () => {
    const body = '{"companyName":"Acme"}';
    const ok = await bizapi(
      'request',
      'post',
      '/v1/client?x=1',
      '--data',
      body,
      '--url',
      baseUrl,
      '--key',
      'bz_k',
      '--secret',
      's',
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect(json(ok)).toEqual({
      method: 'POST',
      url: '/v1/client?x=1',
      apiKey: 'bz_k',
      signature: signBody('s', body),
      contentType: 'application/json',
      body,
    });

    const failed = await bizapi('request', 'GET', '/fail', '--url', baseUrl, '--key', 'bz_k', '--secret', 's');
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout)).toMatchObject({
      method: 'GET',
      signature: signBody('s', ''),
      contentType: null,
      body: '',
    });

    const text = await bizapi('request', 'GET', '/text', '--url', baseUrl, '--key', 'bz_k', '--secret', 's');
    expect(json(text)).toEqual({ status: 200, body: 'hello' });
  });

  it.sequential('request takes the key, secret and base URL from a .env file', async () => {
    const cwd = fs.mkdtempSync(path.join(dir, 'envdir-'));
    const port = new URL(baseUrl).port;
    fs.writeFileSync(path.join(cwd, '.env'), `BIZAPI_API_KEY=bz_fromenv\nBIZAPI_SECRET_KEY=envsecret\nPORT=${port}\n`);
    const r = await run(['request', 'GET', '/v1/client'], { env, cwd });
    expect(json(r)).toMatchObject({ apiKey: 'bz_fromenv', signature: signBody('envsecret', '') });
  });

  it.sequential('a bad variable (here from .env) stops the command with a message naming it', async () => {
    const cwd = fs.mkdtempSync(path.join(dir, 'badenv-'));
    fs.writeFileSync(path.join(cwd, '.env'), 'PORT=eighty\nBIZAPI_SIGNATURE_MODE=sometimes\n');
    const r = await run(['migrate'], { env, cwd });
    expectFailure(r, 'PORT');
    expect(r.stderr).toContain('BIZAPI_SIGNATURE_MODE');
    expect(r.code).toBe(1);
  });

  it.sequential(
    'serve refuses numbers Ajv would coerce (1e3, 0x50) and flags other than true/false, one line each, exit 1',
    async () => {
      const cwd = fs.mkdtempSync(path.join(dir, 'badnumbers-'));
      const r = await run(['serve'], {
        env: { ...env, PORT: '1e3', BIZAPI_RATE_LIMIT: '0x50', BIZAPI_WEBHOOK_ALLOW_PRIVATE: 'yes' },
        cwd,
      });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toBe(
        [
          'Invalid configuration:',
          '  - PORT: "1e3" is not an integer between 0 and 65535',
          '  - BIZAPI_WEBHOOK_ALLOW_PRIVATE: "yes" is not one of true, false',
          '  - BIZAPI_RATE_LIMIT: "0x50" is not an integer between 0 and 1000000000',
          '',
        ].join('\n'),
      );
    },
  );
});
