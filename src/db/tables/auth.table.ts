/** Row types of the `business` and `api_key` tables (migration 2026_11_22_0001). */
import type { Generated, Insertable, Selectable } from 'kysely';
import type { Timestamp } from '../columns.ts';

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
