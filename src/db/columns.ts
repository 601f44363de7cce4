/**
 * Column types as stored and read, pinned so both databases hand back the same JavaScript values (see
 * create-db.ts): date-times are ISO 8601 strings in UTC with milliseconds, dates `YYYY-MM-DD` strings,
 * booleans 0 / 1. The row types of `tables/` are built from these; this file imports nothing.
 */

/** A date-time as stored and read: `2026-11-22T05:31:56.123Z`. */
export type Timestamp = string;
/** A calendar date as stored and read: `2026-11-22`. */
export type DateString = string;
/** A boolean as stored and read on both dialects: 0 or 1. */
export type Bool = 0 | 1;
