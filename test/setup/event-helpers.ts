/**
 * Reading the event list in tests (docs/api.md#events): `eventHelpers(api)` gives the business's events
 * oldest first (the list answers newest first), the newest event's id, and the events written after it.
 */
import { expect } from 'vitest';
import type { ApiClient } from './api-client.ts';
import type { TestBusiness } from './factories.ts';

/** The event readers over one request harness. */
export function eventHelpers(api: Pick<ApiClient, 'get'>) {
  /** The business's events, oldest first; `query` is appended to the list URL (`&type=…`). */
  async function events(b: TestBusiness, query = ''): Promise<any[]> {
    const res = await api.get(b, `/v1/event?page_size=100${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return [...res.body.results].reverse();
  }
  /** The id of the business's newest event (0 for none): events after it are the ones a step wrote. */
  async function lastEventId(b: TestBusiness): Promise<number> {
    const res = await api.get(b, '/v1/event?page_size=1');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.results[0]?.id ?? 0;
  }
  /** The business's events after `since`, oldest first. */
  async function eventsAfter(b: TestBusiness, since = 0): Promise<any[]> {
    return (await events(b)).filter((e) => e.id > since);
  }
  return { events, lastEventId, eventsAfter };
}
