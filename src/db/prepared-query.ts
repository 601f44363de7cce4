/**
 * Queries built and compiled once, then run with new parameter values: for the queries on the hottest paths
 * (the API-key lookup every request runs, a record by id, the pages of the unfiltered lists, an inquiry's
 * status change), Kysely's building and compiling on each call cost more CPU than SQLite's executing them
 * (bench/README.md, profile of `GET /v1/client/{id}`).
 */
import { type Compilable, type CompiledQuery, createQueryId, type QueryResult } from 'kysely';
import type { Db } from './database.ts';

/**
 * The SQL texts of prepared queries, each with its statement name. On PostgreSQL the pool of create-db.ts
 * runs these texts as named prepared statements, so each connection parses them once and
 * PostgreSQL may reuse their plan (planning a six-table join took 0.7 ms, running it 0.2 ms). Other texts
 * stay unnamed: dynamic queries (filters, IN lists) would leave one statement per variant in every
 * connection.
 */
const statementNames = new Map<string, string>();

/** The statement name of a prepared query's SQL text, or `undefined` for any other text. */
export function statementNameOf(sql: string): string | undefined {
  return statementNames.get(sql);
}

/** Stands in for argument `index` while the query is built; found again among the compiled parameters. */
class Slot {
  constructor(readonly index: number) {}
}

interface Compiled {
  query: CompiledQuery;
  /** `[parameter position, argument index]` for every parameter that is an argument. */
  slots: [number, number][];
}

/**
 * Wraps `build`, a function from a handle and `arity` arguments to a query, into a function that builds and
 * compiles that query once per dialect (the cache is keyed by the handle's adapter, which its transactions
 * share) and afterwards only swaps the argument values into the compiled parameters. The answer is the
 * query's rows, as `execute()` would give them.
 *
 * `build` receives stand-ins instead of the arguments and must pass each one to Kysely as a plain value
 * (`where('id', '=', id)`, `values({...})`), never inspect it, and build the same query for any values.
 * `options.named: false` keeps the SQL text out of the named statements of PostgreSQL (see
 * {@link statementNameOf}): for texts of which there may be many (see {@link preparedShapes}).
 * @throws Error on the first call if an argument does not end up as a parameter of the compiled query (a
 *   programming error, caught by any test that runs the query)
 */
export function preparedQuery<A extends unknown[], R>(
  arity: A['length'],
  build: (db: Db, ...args: A) => Compilable<R>,
  options: { named?: boolean } = {},
): (db: Db, ...args: A) => Promise<R[]> {
  const byAdapter = new WeakMap<object, Compiled>();
  function compile(db: Db): Compiled {
    const stand = Array.from({ length: arity }, (_, i) => new Slot(i)) as unknown as A;
    const query = build(db, ...stand).compile();
    const slots: [number, number][] = [];
    query.parameters.forEach((p, position) => {
      if (p instanceof Slot) slots.push([position, p.index]);
    });
    for (let i = 0; i < arity; i++) {
      if (!slots.some(([, index]) => index === i))
        throw new Error(`preparedQuery: argument ${i} is not a parameter of: ${query.sql}`);
    }
    if (options.named !== false && !statementNames.has(query.sql))
      statementNames.set(query.sql, `bizapi_${statementNames.size + 1}`);
    return { query, slots };
  }
  return async (db, ...args) => {
    const adapter = db.getExecutor().adapter;
    let compiled = byAdapter.get(adapter);
    if (compiled === undefined) {
      compiled = compile(db);
      byAdapter.set(adapter, compiled);
    }
    const parameters = compiled.query.parameters.slice();
    for (const [position, index] of compiled.slots) parameters[position] = args[index];
    const result: QueryResult<R> = await db.executeQuery<R>({
      ...compiled.query,
      queryId: createQueryId(),
      parameters,
    });
    return result.rows;
  };
}

/**
 * {@link preparedQuery} for a family of queries whose SQL depends on a *shape* (which filters are set, how
 * many search terms, which plan): `build(db, shape, args)` builds the query of one shape from stand-ins for
 * its arguments (the rule of preparedQuery applies to each: pass them to Kysely as plain values); the
 * function returned compiles each shape once, keyed by `key` (a string that identifies `shape`: the caller
 * derives both from the same data), and afterwards only binds `args`. Values computed from the input (a
 * LIKE pattern, an FTS5 MATCH string) must be computed by the caller and passed as arguments.
 *
 * Bounded: at most `capacity` shapes stay compiled (least recently used dropped, compiled again when next
 * needed), and only the first `capacity` keys ever seen are named prepared statements on PostgreSQL; the
 * others run unnamed, so a connection never holds more than `capacity` of this family's statements.
 * @throws Error as preparedQuery does, when an argument is not a parameter of its shape's query
 */
export function preparedShapes<S, R>(
  capacity: number,
  build: (db: Db, shape: S, args: readonly unknown[]) => Compilable<R>,
): (db: Db, key: string, shape: S, args: unknown[]) => Promise<R[]> {
  const compiled = new Map<string, (db: Db, ...args: unknown[]) => Promise<R[]>>();
  const named = new Set<string>();
  return (db, key, shape, args) => {
    let run = compiled.get(key);
    if (run !== undefined) {
      compiled.delete(key); // re-inserted below: Map order is the recency order
    } else {
      if (named.size < capacity) named.add(key);
      run = preparedQuery(args.length, (d: Db, ...a: unknown[]) => build(d, shape, a), { named: named.has(key) });
      if (compiled.size >= capacity) compiled.delete(compiled.keys().next().value!);
    }
    compiled.set(key, run);
    return run(db, ...args);
  };
}
