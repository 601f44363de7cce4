/** Helpers shared by the API call log tests. */
import { expect } from 'vitest';
import type { TestApp } from '../../setup/build-test-app.ts';
import type { TestBusiness } from '../../setup/factories.ts';
import { apiClient } from '../../setup/api-client.ts';

/** A log entry as `GET /v1/log/` returns it. */
export interface LogEntryBody {
  id: number;
  ipAddress: string;
  method: string;
  path: string;
  referrer: string;
  statusCode: string;
  requestBody: unknown;
  responseBody: unknown;
  created: string;
}

/**
 * Writes the buffered log rows, then reads the first page (100 entries) of `b`'s log, leaving out the
 * calls to the log list itself.
 */
export async function logOf(t: TestApp, b: TestBusiness): Promise<LogEntryBody[]> {
  await t.app.logWriter.flush();
  const res = await apiClient(t.app).call<{ results: LogEntryBody[] }>(b, {
    method: 'GET',
    url: '/v1/log/?page_size=100',
  });
  expect(res.status).toBe(200);
  return res.body.results.filter((e) => !e.path.startsWith('/v1/log'));
}

/** The newest entry of `b`'s log whose path is `path`. */
export async function lastEntry(t: TestApp, b: TestBusiness, path: string): Promise<LogEntryBody> {
  const entry = (await logOf(t, b)).find((e) => e.path === path);
  expect(entry, `no log entry for ${path}`).toBeDefined();
  return entry!;
}
