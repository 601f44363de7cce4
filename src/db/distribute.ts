/**
 * `bizapi distribute` (docs/deployment.md#10-beyond-one-postgresql-server-citus-distributed-by-business_id):
 * on a Citus coordinator, after `bizapi migrate`, makes every business-owned table of the connection's
 * current schema (kind `business` in src/db/table-kinds.ts) a distributed table on `business_id`, all
 * colocated (so that a business's rows of every table sit in one shard group and every API request of that
 * business is a router query); the tables of kind `reference` (`business`, `api_key`: read before the
 * business is known) reference tables; and leaves those of kind `local` (the event sequence counter,
 * rate-limit counters, signature replay guards, the migrations' bookkeeping: small, written by many
 * requests, which a reference table would copy to every node in a two-phase commit per write) on the
 * coordinator. Each kind's reason is in the declaration.
 *
 * Idempotent: a table already distributed (or a reference table) the way it should be is left alone, so
 * running it again after a later `bizapi migrate` distributes only the tables that migration added.
 */
import { type RawBuilder, sql } from 'kysely';
import type { Db } from './database.ts';
import { TABLES, tablesOfKind } from './table-kinds.ts';

/**
 * The triggers of migration 2026_11_28_0110 that send `NOTIFY bizapi_auth` for a change to a key or a plan
 * (docs/authentication.md#revoking-a-key), by table. Citus refuses to make a table with triggers a reference
 * table, and on one the trigger would run on the workers' shards, notifying nobody who listens, so they are
 * dropped first: on Citus only the commands' own `NOTIFY` announces a change.
 */
const AUTH_TRIGGERS: Readonly<Record<string, readonly string[]>> = {
  api_key: ['api_key_auth_changed', 'api_key_auth_truncated'],
  business: ['business_auth_changed', 'business_auth_truncated'],
};

/** The tables of kind `reference`, made reference tables first (the distributed tables keep foreign keys to them). */
const REFERENCE_TABLES: readonly string[] = tablesOfKind('reference');
import { isPostgres } from './sql-helpers.ts';

/** Why `distribute` cannot run: no PostgreSQL, no `citus` extension, or a table in an unexpected state. */
export class DistributeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DistributeError';
  }
}

/** What {@link distribute} did, by table name (sorted). */
export interface DistributeResult {
  /** Reference tables made now. */
  reference: string[];
  /** Distributed tables (on `business_id`) made now, in the order they were made. */
  distributed: string[];
  /** Tables that already were what they should be. */
  unchanged: string[];
  /** Tables left on the coordinator. */
  local: string[];
}

/** Options of {@link distribute}. */
export interface DistributeOptions {
  /**
   * Shards per distributed table (Citus's `citus.shard_count`, default 32). Only tables distributed by
   * this call use it; tables colocated with existing ones take their shard count.
   */
  shardCount?: number;
}

/**
 * Distributes the schema of `db` (the connection's `current_schema()`) on Citus, as the module comment
 * says. Each table is one statement of its own (Citus copies its rows into the shards), in an order that
 * distributes a table only after the tables its foreign keys reference.
 *
 * @returns what was done
 * @throws DistributeError on SQLite, where the `citus` extension is missing, on a table with a business
 *   that is not keyed by it (a migration that `bizapi migrate` has not applied), on a table the rules do
 *   not know, or on foreign keys that form a cycle
 */
export async function distribute(db: Db, options: DistributeOptions = {}): Promise<DistributeResult> {
  if (!isPostgres(db) || db.isTransaction) return distributeOn(db, options);
  // one session: making `business` a reference table must not turn the tables with a foreign key to it
  // into Citus local tables (Citus then refuses to distribute those that have an identity column)
  return db.connection().execute(async (conn) => {
    await sql`set citus.enable_local_reference_table_foreign_keys = off`.execute(conn);
    try {
      return await distributeOn(conn, options);
    } finally {
      await sql`reset citus.enable_local_reference_table_foreign_keys`.execute(conn);
    }
  });
}

/** {@link distribute} on one session `db`. */
async function distributeOn(db: Db, options: DistributeOptions): Promise<DistributeResult> {
  if (!isPostgres(db)) {
    throw new DistributeError(
      'bizapi distribute needs a Citus coordinator (PostgreSQL with the citus extension); DATABASE_URL names an SQLite database.',
    );
  }
  const { rows: ext } = await sql<{
    db: string;
  }>`select current_database() as db where exists (select 1 from pg_extension where extname = 'citus')`.execute(db);
  if (ext.length === 0) {
    const { rows } = await sql<{ db: string }>`select current_database() as db`.execute(db);
    throw new DistributeError(
      `The citus extension is not installed in database "${rows[0]!.db}": bizapi distribute runs on a Citus coordinator ` +
        '(CREATE EXTENSION citus in this database on the coordinator and on every worker, then add the workers; docs/deployment.md#10-beyond-one-postgresql-server-citus-distributed-by-business_id).',
    );
  }
  const { rows: tables } = await sql<{ name: string; business: boolean; kind: string | null; column: string | null }>`
    select c.relname as name,
      exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'business_id' and not a.attisdropped) as business,
      case when p.partmethod = 'n' and p.repmodel = 's' then 'local' else p.partmethod::text end as kind,
      case when p.partkey is null then null else column_to_column_name(p.logicalrelid, p.partkey) end as column
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace and n.nspname = current_schema()
    left join pg_dist_partition p on p.logicalrelid = c.oid
    where c.relkind in ('r', 'p') and not c.relispartition
    order by c.relname`.execute(db);
  const { rows: fks } = await sql<{ from: string; to: string }>`
    select distinct f.relname as from, t.relname as to
    from pg_constraint k
    join pg_class f on f.oid = k.conrelid
    join pg_class t on t.oid = k.confrelid
    join pg_namespace n on n.oid = f.relnamespace and n.nspname = current_schema()
    where k.contype = 'f' and f.oid <> t.oid`.execute(db);

  const result: DistributeResult = { reference: [], distributed: [], unchanged: [], local: [] };
  const done = new Set<string>();
  const toDistribute: string[] = [];
  for (const t of tables) {
    const declared = (TABLES as Record<string, { kind: string } | undefined>)[t.name];
    if (declared === undefined) {
      throw new DistributeError(
        `Table "${t.name}" is not declared in src/db/table-kinds.ts: bizapi distribute does not know where it lives.`,
      );
    }
    if (declared.kind === 'local') {
      if (t.kind !== null && t.kind !== 'local')
        throw new DistributeError(
          `Table "${t.name}" should stay on the coordinator but is a Citus table (partmethod ${t.kind}).`,
        );
      result.local.push(t.name);
    } else if (declared.kind === 'reference') {
      if (t.kind === 'n') {
        result.unchanged.push(t.name);
        done.add(t.name);
      } else if (t.kind !== null && t.kind !== 'local') {
        throw new DistributeError(
          `Table "${t.name}" should be a reference table but is a Citus table of kind ${t.kind}.`,
        );
      }
    } else if (t.business) {
      // kind 'business'
      if (t.kind === 'h' && t.column === 'business_id') {
        result.unchanged.push(t.name);
        done.add(t.name);
      } else if (t.kind !== null && t.kind !== 'local') {
        throw new DistributeError(
          `Table "${t.name}" should be distributed on business_id but is a Citus table of kind ${t.kind} on ${t.column ?? 'no column'}.`,
        );
      } else {
        toDistribute.push(t.name);
      }
    } else {
      throw new DistributeError(
        `Table "${t.name}" is declared business-owned (src/db/table-kinds.ts) but has no business_id column.`,
      );
    }
  }

  const { rows: unfit } = await sql<{ table: string; problem: string }>`
    select c.relname as table, 'key ' || k.conname || ' without business_id' as problem
    from pg_constraint k
    join pg_class c on c.oid = k.conrelid
    join pg_namespace n on n.oid = c.relnamespace and n.nspname = current_schema()
    where k.contype in ('p', 'u', 'f') and c.relname = any(${toDistribute})
      and (k.contype <> 'f' or k.confrelid not in (select r.oid from pg_class r where r.relnamespace = n.oid and r.relname = any(${[...REFERENCE_TABLES]})))
      and not exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'business_id' and a.attnum = any(k.conkey))
    union all
    select c.relname, 'identity column ' || a.attname || ' of type ' || format_type(a.atttypid, a.atttypmod)
    from pg_attribute a
    join pg_class c on c.oid = a.attrelid
    join pg_namespace n on n.oid = c.relnamespace and n.nspname = current_schema()
    where a.attidentity <> '' and a.atttypid <> 'int8'::regtype and c.relname = any(${toDistribute})
    order by 1, 2`.execute(db);
  if (unfit.length > 0) {
    throw new DistributeError(
      `${new Set(unfit.map((u) => u.table)).size} tables cannot be distributed on business_id yet (bizapi migrate to the release that keys them by business first): ` +
        unfit.map((u) => `${u.table}: ${u.problem}`).join('; '),
    );
  }

  for (const name of REFERENCE_TABLES) {
    if (done.has(name) || !tables.some((t) => t.name === name)) continue;
    // Citus refuses a table with triggers (and a shard's trigger would notify on its worker)
    for (const trigger of AUTH_TRIGGERS[name] ?? [])
      await sql`drop trigger if exists ${sql.id(trigger)} on ${sql.id(name)}`.execute(db);
    await citusCall(
      name,
      'a reference table',
      sql`select create_reference_table(${qualified(name)}::regclass)`.execute(db),
    );
    result.reference.push(name);
    done.add(name);
  }

  // the colocation anchor: a table of this schema already distributed on business_id, else the first one
  let anchor = tables.find((t) => t.kind === 'h' && t.column === 'business_id')?.name;
  const pendingTables = new Set(toDistribute);
  while (pendingTables.size > 0) {
    const ready = [...pendingTables].filter((name) => fks.every((fk) => fk.from !== name || done.has(fk.to)));
    const next = ready[0];
    if (next === undefined) {
      throw new DistributeError(
        `Foreign keys between ${[...pendingTables].join(', ')} form a cycle or reference a table that is neither distributed nor a reference table.`,
      );
    }
    const colocate = anchor === undefined ? 'none' : qualified(anchor);
    if (options.shardCount !== undefined && anchor === undefined) {
      await citusCall(
        next,
        'distributed',
        sql`select create_distributed_table(${qualified(next)}::regclass, 'business_id', colocate_with => ${colocate}, shard_count => ${options.shardCount}::int)`.execute(
          db,
        ),
      );
    } else {
      await citusCall(
        next,
        'distributed',
        sql`select create_distributed_table(${qualified(next)}::regclass, 'business_id', colocate_with => ${colocate})`.execute(
          db,
        ),
      );
    }
    anchor ??= next;
    result.distributed.push(next);
    done.add(next);
    pendingTables.delete(next);
  }
  return result;
}

/** `name` qualified with the current schema, as text for Citus's functions (which take a regclass). */
function qualified(name: string): RawBuilder<unknown> {
  return sql`(quote_ident(current_schema()) || '.' || quote_ident(${name}))`;
}

/** Awaits a Citus call on table `name`; Citus's refusal becomes a {@link DistributeError} naming the table. */
async function citusCall(name: string, what: string, call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new DistributeError(
      `Table "${name}" cannot be made ${what}: ${message}. Its ids must be bigint and its keys must include business_id (bizapi migrate applies the migration that makes them so).`,
    );
  }
}
