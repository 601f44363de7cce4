/**
 * Migrations are all-or-nothing on both databases: on SQLite the dialect of create-db.ts declares DDL
 * transactional, so Kysely's Migrator runs pending migrations in one `BEGIN IMMEDIATE` transaction, and a
 * migration that fails (or a process killed in the middle of one) leaves the schema as it was, instead of a
 * half-created table that fails the next run ("table … already exists").
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, Migrator, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDb } from '../../src/db/create-db.ts';
import { pendingMigrations, withSchemaIntrospection } from '../../src/db/migrator.ts';
import type { Database } from '../../src/db/database.ts';
import { DIALECT } from '../setup/test-db.ts';
import { urlWithSchema, pgConfig } from '../setup/test-workers.ts';

let db: Kysely<Database>;
let cleanup: () => Promise<void>;
const schema = `atomic_${process.pid}`;

beforeAll(async () => {
  if (DIALECT === 'postgres') {
    const base = createDb(pgConfig(process.env.DATABASE_URL!));
    await sql`create schema ${sql.id(schema)}`.execute(base);
    db = createDb(pgConfig(urlWithSchema(process.env.DATABASE_URL!, schema)));
    cleanup = async () => {
      await db.destroy();
      await sql`drop schema ${sql.id(schema)} cascade`.execute(base);
      await base.destroy();
    };
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-atomic-'));
    db = createDb({ dialect: 'sqlite', path: path.join(dir, 'atomic.db') });
    cleanup = async () => {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    };
  }
});
afterAll(() => cleanup());

/**
 * `db` as the product's migrator sees it: on PostgreSQL its introspection reads only this schema (Kysely's
 * own reads every schema and fails when another test file drops one meanwhile).
 */
function introspected(): Kysely<any> {
  return DIALECT === 'postgres' ? withSchemaIntrospection(db, schema) : db;
}

/** Table names of the current schema, the migrator's own left out. */
async function tables(): Promise<string[]> {
  const all = await introspected().introspection.getTables();
  const current = DIALECT === 'postgres' ? schema : undefined;
  return all
    .filter((t) => (current === undefined || t.schema === current) && !t.name.startsWith('kysely_'))
    .map((t) => t.name)
    .sort();
}

it('a failing migration rolls back every migration of its run; the next run applies them from the start', async () => {
  let fail = true;
  const migrations = {
    '0001_first': {
      up: async (k: Kysely<any>) => void (await k.schema.createTable('atomic_a').addColumn('id', 'integer').execute()),
    },
    '0002_second': {
      up: async (k: Kysely<any>) => {
        await k.schema.createTable('atomic_b').addColumn('id', 'integer').execute();
        if (fail) throw new Error('killed half-way');
      },
    },
  };
  const migrator = new Migrator({
    db: introspected(),
    provider: { getMigrations: async () => migrations },
    ...(DIALECT === 'postgres' && { migrationTableSchema: schema }),
  });
  const first = await migrator.migrateToLatest();
  expect(String(first.error)).toContain('killed half-way');
  expect(await tables()).toEqual([]);
  fail = false;
  const second = await migrator.migrateToLatest();
  expect(second.error).toBeUndefined();
  expect(second.results?.map((r) => [r.migrationName, r.status])).toEqual([
    ['0001_first', 'Success'],
    ['0002_second', 'Success'],
  ]);
  expect(await tables()).toEqual(['atomic_a', 'atomic_b']);
});

it.runIf(DIALECT === 'postgres')(
  'reads the migration state while other sessions drop schemas (no "schema … does not exist")',
  async () => {
    const other = createDb(pgConfig(process.env.DATABASE_URL!));
    const mine = createDb(pgConfig(process.env.DATABASE_URL!));
    let stop = false;
    const churn = (async () => {
      for (let i = 0; !stop; i++) {
        const name = sql.id(`churn_${process.pid}_${i}`);
        await sql`create schema ${name}`.execute(other);
        await sql`create table ${name}.t (id serial primary key, a int, b text, c int, d text)`.execute(other);
        await sql`drop schema ${name} cascade`.execute(other);
      }
    })();
    try {
      for (let i = 0; i < 150; i++) expect(await pendingMigrations(mine)).toEqual([]);
    } finally {
      stop = true;
      await churn;
      await other.destroy();
      await mine.destroy();
    }
  },
);
