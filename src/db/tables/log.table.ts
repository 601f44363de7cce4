/** Row types of the `api_log` table (migration 2026_11_22_0010). */
import type { Generated, Insertable } from 'kysely';
import type { Timestamp } from '../columns.ts';

/**
 * One call that authenticated to a business (docs/api.md#api-call-log). Bodies are JSON text, `null` when the call had
 * none; a body over 64 KiB is stored as a truncation marker (see `request-log.ts`). No header values.
 */
export interface ApiLogTable {
  id: Generated<number>;
  business_id: number;
  ip_address: string;
  method: string;
  /** Path with the query string, as the client sent it. */
  path: string;
  /** The `Referer` header, or `""`. */
  referrer: string;
  /** HTTP status as a string (`"201"`). */
  status_code: string;
  request_body: string | null;
  response_body: string | null;
  created: Timestamp;
  /** 1 when the call was answered from a stored `Idempotency-Key` answer (migration 2026_11_24_0032), else null. */
  idempotent_replayed?: 1 | null;
}
export type NewApiLogRow = Insertable<ApiLogTable>;
