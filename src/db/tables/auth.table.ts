/** Row types of the `business` and `api_key` tables (migration 2026_11_22_0001). */
import type { Generated, Insertable, Selectable } from 'kysely';
import type { Bool, Timestamp } from '../columns.ts';

/** A tenant. `plan` is FREE | BASIC | TEAM | AGENCY; `timezone` an IANA name (default Asia/Seoul). */
export interface BusinessTable {
  id: Generated<number>;
  name: string;
  plan: string;
  timezone: string;
  created: Timestamp;
}
export type BusinessRow = Selectable<BusinessTable>;
export type NewBusinessRow = Insertable<BusinessTable>;

/**
 * One API key of a business. The key itself is stored only as its SHA-256 (`key_hash`, hex) plus a short
 * display prefix; the secret is AES-256-GCM ciphertext under the master key (docs/authentication.md#keys).
 */
export interface ApiKeyTable {
  id: Generated<number>;
  business_id: number;
  key_hash: string;
  key_prefix: string;
  secret_ciphertext: string;
  created: Timestamp;
  revoked_at: Timestamp | null;
}
export type ApiKeyRow = Selectable<ApiKeyTable>;
export type NewApiKeyRow = Insertable<ApiKeyTable>;

/**
 * A bearer token a business issued for an AI assistant (docs/mcp.md#tokens, migration 2026_11_28_0051): stored
 * as its SHA-256 (`token_hash`, hex) and a display prefix; `read_only` and `tools` (comma-separated operation
 * ids, null for all) bound what it may call. It authenticates `/mcp` only.
 */
export interface McpTokenTable {
  id: Generated<number>;
  business_id: number;
  token_hash: string;
  token_prefix: string;
  name: string | null;
  read_only: Bool;
  tools: string | null;
  created: Timestamp;
  revoked_at: Timestamp | null;
}
export type McpTokenRow = Selectable<McpTokenTable>;
export type NewMcpTokenRow = Insertable<McpTokenTable>;
