/**
 * The API call log (docs/api.md#api-call-log): the list of the last 14 days, and the retention purge.
 * Rows are written by the request-log plugin through the batch writer (`src/jobs/log-writer.ts`).
 */
import type { Db } from '../../db/database.ts';
import { deleteInBatches } from '../../db/sql-helpers.ts';
import { type CursorPosition, mapPage, type Page, pageSizeOf } from '../../shared/pagination.ts';
import type { AuthContext } from '../../shared/auth-context.ts';
import { jsonDeeperThan } from '../../shared/utf8.ts';
import { listBusinesses } from '../auth/auth.service.ts';
import * as repo from './log.repository.ts';
import type { LogEntry, LogListQuery } from './log.schemas.ts';

/** How long log rows are listed and kept (docs/api.md#api-call-log). */
export const LOG_RETENTION_DAYS = 14;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The instant before which rows are out of the retention window, as a stored timestamp. */
export function retentionCutoff(now: Date = new Date()): string {
  return new Date(now.getTime() - LOG_RETENTION_DAYS * DAY_MS).toISOString();
}

/**
 * Parses a stored body (JSON text or `null`) for the list (docs/api.md#api-call-log). Text that is not JSON,
 * or JSON nested deeper than 32 levels (`MAX_JSON_DEPTH`) (rows written before such bodies were stored as
 * text), is returned as the string it is, so that no row can make the answer fail (a value nested
 * 20,000 deep overflows the serializer's stack).
 */
export function parseBody(text: string | null): unknown {
  if (text === null) return null;
  if (jsonDeeperThan(text)) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Maps a row to the API shape. */
export function toLogEntry(row: repo.ApiLogRow): LogEntry {
  return {
    id: row.id,
    ipAddress: row.ip_address,
    method: row.method,
    path: row.path,
    referrer: row.referrer,
    statusCode: row.status_code,
    requestBody: parseBody(row.request_body),
    responseBody: parseBody(row.response_body),
    created: row.created,
    ...(row.idempotent_replayed ? { idempotentReplayed: true } : {}),
  };
}

/** `GET /v1/log/`: the business's calls of the last 14 days, newest first. */
export async function list(
  db: Db,
  auth: Pick<AuthContext, 'businessId'>,
  query: LogListQuery,
  cursor: CursorPosition | undefined,
): Promise<Page<LogEntry>> {
  const page = await repo.findPage(db, auth.businessId, retentionCutoff(), pageSizeOf(query), cursor);
  return mapPage(page, toLogEntry);
}

/**
 * Deletes the log rows older than 14 days, business by business, in batches (docs/api.md#api-call-log:
 * deleted every hour). Safe to run from several processes at once.
 *
 * @returns the number of rows deleted
 */
export async function purge(db: Db, now: Date = new Date()): Promise<number> {
  const cutoff = retentionCutoff(now);
  let total = 0;
  for (const { id: businessId } of await listBusinesses(db)) {
    total += await deleteInBatches((limit) => repo.deleteCreatedBefore(db, businessId, cutoff, limit));
  }
  return total;
}
