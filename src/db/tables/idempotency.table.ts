/** Row type of the `idempotency_key` table (migration 2026_11_24_0032). */
import type { Generated } from 'kysely';

/**
 * One `Idempotency-Key` of one business (docs/api.md#idempotent-retries). Times are
 * milliseconds since the epoch. `status_code` is `null` while the first request runs; then the stored answer.
 */
export interface IdempotencyKeyTable {
  id: Generated<number>;
  business_id: number;
  key: string;
  /** SHA-256 hex of method, path with query and the SHA-256 of the raw body. */
  fingerprint: string;
  /** Random token of the claim; only its holder completes or releases the row. */
  claim_token: string;
  /** While `status_code` is null: the claim blocks the key until then. */
  locked_until: number;
  /** The row (claim or answer) is void from then on; the retention job deletes it. */
  expires_at: number;
  status_code: number | null;
  /** JSON object: the stored answer's `Content-Type` and `Location` (when it had them). */
  response_headers: string | null;
  /** Base64 of the stored answer's exact body bytes (`""` for none). */
  response_body: string | null;
}
