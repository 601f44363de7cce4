/** Row type of the `rate_limit_counter` table (migration 2026_11_22_0010). */

/**
 * A fixed-window request counter shared between processes (docs/api.md#rate-limits). `key` names one API key;
 * `reset_at` is the end of the current window in milliseconds since the epoch.
 */
export interface RateLimitCounterTable {
  key: string;
  hits: number;
  reset_at: number;
}
