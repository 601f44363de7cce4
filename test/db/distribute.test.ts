/**
 * `bizapi distribute` (docs/deployment.md#10-beyond-one-postgresql-server-citus-distributed-by-business_id),
 * run as users run it (`bin/bizapi` in a child process): a clear error and nothing on stdout on SQLite and on
 * a PostgreSQL database without the `citus` extension; on a Citus coordinator (`BIZAPI_TEST_CITUS=1`, whose
 * global setup distributed this worker's schema already) a second run changes nothing, every table with a
 * business is distributed on `business_id` in one colocation group, `business` and `api_key` are reference
 * tables, the rest stays on the coordinator, and a table that src/db/table-kinds.ts does not declare is refused.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tablesOfKind } from '../../src/db/table-kinds.ts';

const REFERENCE_TABLES: readonly string[] = tablesOfKind('reference');
const COORDINATOR_TABLES: readonly string[] = tablesOfKind('local');
import { cleanEnv, runUntilExit } from '../setup/server-process.ts';
import { DIALECT, openTestDb, type TestDb } from '../setup/test-db.ts';
import { CITUS } from '../setup/test-workers.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let t: TestDb;
let dir: string;
beforeAll(async () => {
  t = await openTestDb();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-distribute-'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** `bizapi distribute ARGS` against `url`. */
function distribute(url: string, args: string[] = []) {
  return runUntilExit(['distribute', ...args], { ...cleanEnv(), DATABASE_URL: url, BIZAPI_DATA_DIR: dir });
}

describe.runIf(DIALECT === 'sqlite')('on SQLite', () => {
  it('refuses with a clear message, prints nothing on stdout, and creates no database file', async () => {
    const file = path.join(dir, 'never.db');
    const r = await distribute(`sqlite:${file}`);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    // a missing file is refused as by every command that opens an existing database only
    expect(r.stderr).toContain('`bizapi distribute` opens an existing one only');
    expect(fs.existsSync(file)).toBe(false);
    // an existing SQLite database: distribute needs a Citus coordinator
    const migrated = await runUntilExit(['migrate'], {
      ...cleanEnv(),
      DATABASE_URL: `sqlite:${file}`,
      BIZAPI_DATA_DIR: dir,
    });
    expect(migrated.code, migrated.stderr).toBe(0);
    const again = await distribute(`sqlite:${file}`);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toContain('bizapi distribute needs a Citus coordinator');
  });
});

describe.runIf(DIALECT === 'postgres' && !CITUS)('on PostgreSQL without the citus extension', () => {
  it('refuses with a clear message naming the database and the extension, and changes nothing', async () => {
    const r = await distribute(t.url);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/The citus extension is not installed in database "[^"]+"/);
  });
});

// Skipped unless the run is on a Citus coordinator; the title says so in the report.
const CITUS_TITLE = CITUS
  ? 'on a Citus coordinator'
  : 'on a Citus coordinator (skipped: set BIZAPI_TEST_CITUS=1 with DATABASE_URL naming a database of a Citus coordinator, docs/deployment.md#10-beyond-one-postgresql-server-citus-distributed-by-business_id)';
describe.runIf(CITUS)(CITUS_TITLE, () => {
  it('is idempotent: a second run reports every table unchanged', async () => {
    const r = await distribute(t.url);
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      reference: string[];
      distributed: string[];
      unchanged: string[];
      local: string[];
    };
    expect(out.reference).toEqual([]);
    expect(out.distributed).toEqual([]);
    expect(out.unchanged).toEqual(
      expect.arrayContaining(['business', 'api_key', 'client', 'event', 'webhook_delivery']),
    );
    expect(out.local).toEqual(expect.arrayContaining(['event_sequence', 'rate_limit_counter']));
  });

  it('distributes every table with a business on business_id in one colocation group; business and api_key are reference tables', async () => {
    const { rows } = await sql<{
      name: string;
      business: boolean;
      method: string | null;
      repmodel: string | null;
      column: string | null;
      colocation: number | null;
    }>`
      select c.relname as name,
        exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'business_id') as business,
        p.partmethod::text as method, p.repmodel::text as repmodel, p.colocationid as colocation,
        case when p.partkey is null then null else column_to_column_name(p.logicalrelid, p.partkey) end as column
      from pg_class c join pg_namespace n on n.oid = c.relnamespace and n.nspname = current_schema()
      left join pg_dist_partition p on p.logicalrelid = c.oid
      where c.relkind = 'r'`.execute(t.db);
    const distributed = rows.filter((r) => r.business && !REFERENCE_TABLES.includes(r.name));
    expect(distributed.length).toBeGreaterThan(40);
    for (const r of distributed)
      expect({ name: r.name, method: r.method, column: r.column }).toEqual({
        name: r.name,
        method: 'h',
        column: 'business_id',
      });
    expect(new Set(distributed.map((r) => r.colocation)).size).toBe(1);
    for (const name of REFERENCE_TABLES)
      expect(rows.find((r) => r.name === name)).toMatchObject({ method: 'n', repmodel: 't' });
    for (const r of rows.filter((x) => COORDINATOR_TABLES.includes(x.name)))
      expect(r.method === null || r.repmodel === 's').toBe(true);
  });

  it('refuses a table that src/db/table-kinds.ts does not declare, naming it, before changing anything', async () => {
    await sql`create table undeclared_thing (business_id bigint not null, id bigint not null, primary key (business_id, id))`.execute(
      t.db,
    );
    try {
      const r = await distribute(t.url);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('Table "undeclared_thing" is not declared in src/db/table-kinds.ts');
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from pg_dist_partition where logicalrelid = 'undeclared_thing'::regclass`.execute(
        t.db,
      );
      expect(rows[0]!.n).toBe(0);
    } finally {
      await sql`drop table undeclared_thing`.execute(t.db);
    }
  });
});
