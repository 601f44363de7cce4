/**
 * This process's own changes to what the API-key cache holds (src/modules/auth/key-cache.ts,
 * docs/authentication.md#revoking-a-key): an update or deletion of an `api_key` row or of a `business` row,
 * counted once the statement has run. On PostgreSQL the triggers' `NOTIFY bizapi_auth` reaches this process's
 * own listener some time after the commit; the count lets the very next request of this process see the
 * change at once. Other processes (and changes by hand in `psql`) are announced by the notification alone.
 */
import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

let changes = 0;

/** How many changes to keys or businesses this process has made (see the module comment); only grows. */
export function localAuthChanges(): number {
  return changes;
}

/** Counts one change to keys or businesses made by this process (after it has run). */
export function authChanged(): void {
  changes += 1;
}

/** The tables whose update or deletion {@link AuthChangePlugin} counts. */
const WATCHED = new Set(['api_key', 'business']);

/** The names of the tables (`TableNode`s) anywhere under `node`. */
function tableNames(node: unknown, into: string[] = []): string[] {
  if (node === null || typeof node !== 'object') return into;
  if (Array.isArray(node)) {
    for (const n of node) tableNames(n, into);
    return into;
  }
  const n = node as { kind?: string; table?: { identifier?: { name?: unknown } } };
  if (n.kind === 'TableNode' && typeof n.table?.identifier?.name === 'string') into.push(n.table.identifier.name);
  else for (const value of Object.values(n)) tableNames(value, into);
  return into;
}

/** Whether a query changes rows of `api_key` or `business` (an `update` or `delete` naming either). */
function changesAuth(node: RootOperationNode): boolean {
  let target: OperationNode | undefined;
  if (node.kind === 'UpdateQueryNode') target = node.table;
  else if (node.kind === 'DeleteQueryNode') target = node.from;
  else return false;
  return tableNames(target).some((name) => WATCHED.has(name));
}

/**
 * A Kysely plugin (on the PostgreSQL handles of src/db/create-db.ts) that calls {@link authChanged} after
 * every update or delete statement built with Kysely on `api_key` or `business` has run. Raw `sql` is not
 * looked at: its changes are seen when the notification arrives.
 */
export class AuthChangePlugin implements KyselyPlugin {
  readonly #pending = new WeakSet<object>();

  /** Notes a statement that changes keys or businesses; the query is not changed. */
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (changesAuth(args.node)) this.#pending.add(args.queryId);
    return args.node;
  }

  /** Counts the change of a noted statement once it has run. */
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.#pending.has(args.queryId)) {
      this.#pending.delete(args.queryId);
      authChanged();
    }
    return args.result;
  }
}
