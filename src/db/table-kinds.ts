/**
 * One declaration of every table: whether a business owns it (distributed by `business_id` on Citus) or
 * not (a reference table copied to every node, or a table kept on the coordinator only), its own id column
 * and the columns that hold another table's id. `bizapi distribute` reads it to know what to distribute,
 * the schema check (test/db/schema-keys.test.ts) reads it to know which keys must include `business_id`
 * and which columns must be 64-bit (docs/deployment.md#10-beyond-one-postgresql-server-citus-distributed-by-business_id).
 *
 * The rule it encodes, for a `business` table on PostgreSQL: its primary key is `(business_id, id)` (or
 * starts with `business_id` when the table has no id of its own), every unique constraint includes
 * `business_id`, every foreign key to another business-owned table is `(business_id, x_id) REFERENCES
 * t (business_id, id)`; every id and every column below in `references` is `bigint`. Ids are still
 * unique across the server (one identity sequence per table), so nothing on the wire depends on the key.
 *
 * Adding a table to `Database` without declaring it here fails the typecheck (`satisfies` below).
 */
import type { Database } from './database.ts';

/**
 * Where a table lives on a Citus cluster:
 * - `business`: owned by one business, has `business_id`, distributed on it (all colocated);
 * - `reference`: no single business's (or read before the business is known), small and rarely written:
 *   a copy on every node, so a business's shard can join it and keep a foreign key to it;
 * - `local`: written on (nearly) every request or only by the operator's tools: stays on the coordinator,
 *   where a write is one local statement (a reference table's write goes to every node).
 */
export type TableKind = 'business' | 'reference' | 'local';

/** The declaration of one table; see the file's comment for the rule it drives. */
export interface TableDeclaration {
  readonly kind: TableKind;
  /**
   * The table's own id column (an identity, `bigint`; event_sequence's is its one row's fixed key 1), or
   * `null` when its key is made of references or of other columns.
   */
  readonly id: 'id' | null;
  /**
   * Columns that hold an id: column → the table whose id it holds. `null` for an id that is no table's
   * here (a polymorphic parent named by another column, an id on another server, a form id of the
   * reference service). Every listed column is `bigint` on PostgreSQL; those naming a table of kind
   * `business` from a `business` table are composite foreign keys `(business_id, column)` where a foreign
   * key exists. `business_id` is listed where the table has it.
   */
  readonly references: Readonly<Record<string, keyof Database | null>>;
  /** Why a table that is not `business` is what it is (docs/deployment.md#10-beyond-one-postgresql-server-citus-distributed-by-business_id). */
  readonly reason?: string;
}

const B = 'business' as const;

/**
 * Tables that exist on SQLite only and so are not in {@link TABLES} (which every dialect, Citus included,
 * must have): `auth_change`, the one-row counter of changes to keys and plans that SQLite's API-key cache
 * reads (migration 2026_11_28_0110, docs/authentication.md#revoking-a-key; PostgreSQL uses `NOTIFY` instead).
 * Read through the driver, not Kysely, so it is not in `Database` either.
 */
export const SQLITE_ONLY_TABLES: readonly string[] = ['auth_change'];

/** Every table, by name: its kind, id and id-referencing columns. */
export const TABLES = {
  business: {
    kind: 'reference',
    id: 'id',
    references: {},
    reason:
      'the list of tenants: read by every request (plan, timezone), written when the operator provisions; every business-owned table keeps a foreign key to it, which Citus allows to a reference table',
  },
  api_key: {
    kind: 'reference',
    id: 'id',
    references: { business_id: B },
    reason:
      "looked up by its hash on every request before the business is known, so it cannot live on one business's shard; written only when keys are created or revoked",
  },
  rate_limit_counter: {
    kind: 'local',
    id: null,
    references: {},
    reason:
      'written on every request (keyed by API key and window, no business id); a reference table would write every node',
  },
  signature_replay: {
    kind: 'local',
    id: null,
    references: {},
    reason:
      'a replay guard written on every signed request, keyed by signature; a reference table would write every node',
  },
  event_sequence: {
    kind: 'local',
    id: 'id',
    references: {},
    reason: "the one server-wide counter of the event feed's sequence numbers (a single row)",
  },
  kysely_migration: {
    kind: 'local',
    id: null,
    references: {},
    reason: "the migrator's bookkeeping, on the coordinator only",
  },
  kysely_migration_lock: {
    kind: 'local',
    id: null,
    references: {},
    reason: "the migrator's lock row, on the coordinator only",
  },

  grade: { kind: B, id: 'id', references: { business_id: B } },
  member: { kind: B, id: 'id', references: { business_id: B, grade_id: 'grade' } },
  folder: { kind: B, id: 'id', references: { business_id: B } },
  inquiry_status: { kind: B, id: 'id', references: { business_id: B, folder_id: 'folder' } },
  client_status: { kind: B, id: 'id', references: { business_id: B } },
  field: { kind: B, id: 'id', references: { business_id: B } },
  field_option: { kind: B, id: 'id', references: { business_id: B, field_id: 'field' } },
  field_member: { kind: B, id: null, references: { business_id: B, field_id: 'field', member_id: 'member' } },
  contract_category: { kind: B, id: 'id', references: { business_id: B } },
  settlement_type: { kind: B, id: 'id', references: { business_id: B } },
  worker_position: { kind: B, id: 'id', references: { business_id: B } },
  client: { kind: B, id: 'id', references: { business_id: B, status_id: 'client_status' } },
  client_field_value: { kind: B, id: null, references: { business_id: B, client_id: 'client', field_id: 'field' } },
  api_log: { kind: B, id: 'id', references: { business_id: B } },
  // The token names its business (bzm_<business id>_…), so even its look-up is one business's (docs/mcp.md#tokens).
  mcp_token: { kind: B, id: 'id', references: { business_id: B } },
  contract: { kind: B, id: 'id', references: { business_id: B, client_id: 'client', inquiry_id: 'inquiry' } },
  contract_category_link: {
    kind: B,
    id: null,
    references: { business_id: B, contract_id: 'contract', category_id: 'contract_category' },
  },
  contract_field_value: {
    kind: B,
    id: null,
    references: { business_id: B, contract_id: 'contract', field_id: 'field' },
  },
  contract_note: { kind: B, id: 'id', references: { business_id: B, contract_id: 'contract', member_id: 'member' } },
  settlement: {
    kind: B,
    id: 'id',
    references: {
      business_id: B,
      contract_id: 'contract',
      type_id: 'settlement_type',
      single_type_id: 'settlement_type',
    },
  },
  settlement_in_charge: {
    kind: B,
    id: null,
    references: { business_id: B, settlement_id: 'settlement', member_id: 'member' },
  },
  settlement_status_history: {
    kind: B,
    id: 'id',
    references: { business_id: B, settlement_id: 'settlement', member_id: 'member' },
  },
  settlement_note: {
    kind: B,
    id: 'id',
    references: { business_id: B, settlement_id: 'settlement', member_id: 'member' },
  },
  project: { kind: B, id: 'id', references: { business_id: B, contract_id: 'contract' } },
  worker: { kind: B, id: 'id', references: { business_id: B, position_id: 'worker_position' } },
  todo: {
    kind: B,
    id: 'id',
    references: { business_id: B, inquiry_id: 'inquiry', in_charge_id: 'member', completed_in_charge_id: 'member' },
  },
  inquiry: { kind: B, id: 'id', references: { business_id: B, status_id: 'inquiry_status', client_id: 'client' } },
  inquiry_counter: { kind: B, id: null, references: { business_id: B } },
  inquiry_field_value: { kind: B, id: null, references: { business_id: B, inquiry_id: 'inquiry', field_id: 'field' } },
  inquiry_in_charge: { kind: B, id: null, references: { business_id: B, inquiry_id: 'inquiry', member_id: 'member' } },
  inquiry_work: { kind: B, id: 'id', references: { business_id: B, inquiry_id: 'inquiry' } },
  inquiry_file_link: { kind: B, id: 'id', references: { business_id: B, inquiry_id: 'inquiry' } },
  inquiry_status_history: {
    kind: B,
    id: 'id',
    references: {
      business_id: B,
      inquiry_id: 'inquiry',
      status_id: 'inquiry_status',
      previous_status_id: 'inquiry_status',
      member_id: 'member',
    },
  },
  inquiry_folder_history: {
    kind: B,
    id: 'id',
    references: {
      business_id: B,
      inquiry_id: 'inquiry',
      folder_id: 'folder',
      previous_folder_id: 'folder',
      member_id: 'member',
    },
  },
  inquiry_text_history: {
    kind: B,
    id: 'id',
    references: { business_id: B, inquiry_id: 'inquiry', member_id: 'member' },
  },
  inquiry_email_history: { kind: B, id: 'id', references: { business_id: B, inquiry_id: 'inquiry' } },
  inquiry_email_reply_history: { kind: B, id: 'id', references: { business_id: B, inquiry_id: 'inquiry' } },
  inquiry_submit_history: { kind: B, id: 'id', references: { business_id: B, inquiry_id: 'inquiry', form_id: null } },
  // The two lease queues stay distributed (not coordinator-local): they keep foreign keys to distributed
  // tables, the API reads them with a business's other rows, and an enqueue per change on the coordinator
  // would not scale. Their claims read the due rows across businesses without a lock, then lock and lease
  // one business per statement (src/db/lease-queue.ts; docs/deployment.md#background-work-on-citus).
  notification: {
    kind: B,
    id: 'id',
    references: { business_id: B, member_id: 'member', outbox_id: 'notification_outbox', inquiry_id: 'inquiry' },
  },
  notification_outbox: {
    kind: B,
    id: 'id',
    references: { business_id: B, member_id: 'member', inquiry_id: 'inquiry' },
  },
  file: { kind: B, id: 'id', references: { business_id: B } },
  inquiry_file: { kind: B, id: 'id', references: { business_id: B, inquiry_id: 'inquiry', file_id: 'file' } },
  estimate_item_classification: { kind: B, id: 'id', references: { business_id: B } },
  estimate_item: {
    kind: B,
    id: 'id',
    references: { business_id: B, classification_id: 'estimate_item_classification' },
  },
  idempotency_key: { kind: B, id: 'id', references: { business_id: B } },
  event: { kind: B, id: 'id', references: { business_id: B, parent_id: null } },
  event_follower: { kind: B, id: 'id', references: { business_id: B } },
  webhook_endpoint: {
    kind: B,
    id: 'id',
    references: { business_id: B, after_event_id: 'event', parked_after_event_id: 'event' },
  },
  webhook_delivery: {
    kind: B,
    id: 'id',
    references: { business_id: B, webhook_id: 'webhook_endpoint', event_id: 'event' },
  },
  transfer_origin: { kind: B, id: null, references: { business_id: B } },
  transfer_id_map: { kind: B, id: null, references: { business_id: B, source_id: null, target_id: null } },
} as const satisfies Record<keyof Database | 'kysely_migration' | 'kysely_migration_lock', TableDeclaration>;

/** A table's name as declared in {@link TABLES}. */
export type TableName = keyof typeof TABLES;

/** The names of the tables of one kind, in declaration order. */
export function tablesOfKind(kind: TableKind): TableName[] {
  return (Object.keys(TABLES) as TableName[]).filter((t) => TABLES[t].kind === kind);
}

/**
 * Every column of `table` that holds an id (its own `id` first, then the `references`): the columns that
 * are `bigint` on PostgreSQL and whose values the API bounds at 2^53 − 1.
 */
export function idColumnsOf(table: TableName): string[] {
  const d: TableDeclaration = TABLES[table];
  return [...(d.id ? [d.id] : []), ...Object.keys(d.references)];
}
