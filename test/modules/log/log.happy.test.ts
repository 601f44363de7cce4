/**
 * The API call log (decisions §9): every field of every kind of call, bodies in each encoding, truncation,
 * the 14-day window, paging, the retention purge and the flush on close.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RETENTION_INTERVAL_MS, runRetention, startRetention } from '../../../src/jobs/retention.ts';
import { MAX_LOGGED_BODY_BYTES } from '../../../src/plugins/request-log.ts';
import { buildSiblingApp, buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { lastEntry, type LogEntryBody, logOf } from './log-helpers.ts';
import { apiClient } from '../../setup/api-client.ts';

let t: TestApp;
const { call, raw } = apiClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const DAY = 24 * 60 * 60 * 1000;

/** Inserts a log row directly, `ageMs` old. */
async function insertRow(b: TestBusiness, path: string, ageMs: number): Promise<void> {
  await t.testDb.db
    .insertInto('api_log')
    .values({
      business_id: b.businessId,
      ip_address: '192.0.2.1',
      method: 'GET',
      path,
      referrer: '',
      status_code: '200',
      request_body: null,
      response_body: null,
      created: new Date(Date.now() - ageMs).toISOString(),
    })
    .execute();
}

describe('GET /v1/log/ — what a call records', () => {
  it('records every field of a JSON call: address, method, path with query, referrer, status as a string, both bodies, created', async () => {
    const b = await newBusiness(t);
    const before = new Date().toISOString();
    const res = await call(b, {
      method: 'POST',
      url: '/v1/client?source=test&x=1',
      body: { companyName: 'Logged Co', email: 'log@example.com' },
      headers: { referer: 'https://app.example.com/clients' },
    });
    expect(res.status).toBe(201);
    const entry = await lastEntry(t, b, '/v1/client?source=test&x=1');
    expect(entry).toEqual({
      id: expect.any(Number),
      ipAddress: '127.0.0.1',
      method: 'POST',
      path: '/v1/client?source=test&x=1',
      referrer: 'https://app.example.com/clients',
      statusCode: '201',
      requestBody: { companyName: 'Logged Co', email: 'log@example.com' },
      responseBody: res.body,
      created: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    expect(entry.created >= before).toBe(true);
  });

  it('stores null bodies for a GET, an empty referrer when none is sent, and a null response body for a 204', async () => {
    const b = await newBusiness(t);
    const created = await call(b, { method: 'POST', url: '/v1/client', body: { companyName: 'Doomed' } });
    const del = await raw(b, { method: 'DELETE', url: `/v1/client/${created.body.id}` });
    expect(del.statusCode).toBe(204);
    await raw(b, { method: 'GET', url: '/v1/folder' });
    const deleted = await lastEntry(t, b, `/v1/client/${created.body.id}`);
    expect(deleted).toMatchObject({
      method: 'DELETE',
      statusCode: '204',
      requestBody: null,
      responseBody: null,
      referrer: '',
    });
    const folders = await lastEntry(t, b, '/v1/folder');
    expect(folders.requestBody).toBeNull();
    expect(Array.isArray(folders.responseBody)).toBe(true);
  });

  it('stores urlencoded and multipart bodies as objects', async () => {
    const b = await newBusiness(t);
    await raw(b, {
      method: 'POST',
      url: '/v1/client?enc=form',
      form: 'urlencoded',
      body: { companyName: 'Form Co', 'status[id]': String(b.ids.clientStatuses.customer) },
    });
    await raw(b, {
      method: 'POST',
      url: '/v1/client?enc=multipart',
      form: 'multipart',
      body: { companyName: 'Multi Co', 'status.id': String(b.ids.clientStatuses.customer) },
    });
    const form = await lastEntry(t, b, '/v1/client?enc=form');
    expect(form.statusCode).toBe('201');
    expect(form.requestBody).toEqual({ companyName: 'Form Co', status: { id: String(b.ids.clientStatuses.customer) } });
    const multi = await lastEntry(t, b, '/v1/client?enc=multipart');
    expect(multi.requestBody).toEqual({
      companyName: 'Multi Co',
      status: { id: String(b.ids.clientStatuses.customer) },
    });
  });

  it('records failed calls too: validation 400, malformed JSON (stored as text), 404, plan 403', async () => {
    const b = await newBusiness(t, { plan: 'BASIC' });
    const invalid = await call(b, { method: 'POST', url: '/v1/client?case=invalid', body: { email: 'not-an-email' } });
    expect(invalid.status).toBe(400);
    await raw(b, {
      method: 'POST',
      url: '/v1/client?case=malformed',
      raw: { payload: '{"companyName": ', contentType: 'application/json' },
    });
    await raw(b, { method: 'GET', url: '/v1/client/999999999' });
    const plan = await call(b, { method: 'GET', url: '/v1/member' });
    expect(plan.status).toBe(403);

    const entries = await logOf(t, b);
    const byPath = (p: string) => entries.find((e) => e.path === p)!;
    expect(byPath('/v1/client?case=invalid')).toMatchObject({
      statusCode: '400',
      requestBody: { email: 'not-an-email' },
      responseBody: invalid.body,
    });
    expect(byPath('/v1/client?case=malformed')).toMatchObject({ statusCode: '400', requestBody: '{"companyName": ' });
    expect(byPath('/v1/client/999999999')).toMatchObject({ statusCode: '404', responseBody: { detail: 'Not found.' } });
    expect(byPath('/v1/member')).toMatchObject({ statusCode: '403', responseBody: { code: 'PLAN_PERMISSION_DENIED' } });
  });

  it('records calls with a valid key to an unknown path (404) or with a method the path does not take (405), with their bodies', async () => {
    const b = await newBusiness(t);
    const unknown = await call(b, {
      method: 'POST',
      url: '/v1/nothing-here?case=unknown',
      body: { companyName: 'Lost' },
    });
    expect(unknown.status).toBe(404);
    const method = await call(b, { method: 'PUT', url: '/v1/client?case=method', body: { companyName: 'Put' } });
    expect(method.status).toBe(405);

    const entries = await logOf(t, b);
    const byPath = (p: string) => entries.find((e) => e.path === p);
    expect(byPath('/v1/nothing-here?case=unknown')).toMatchObject({
      method: 'POST',
      statusCode: '404',
      requestBody: { companyName: 'Lost' },
      responseBody: { detail: 'Not found.' },
    });
    expect(byPath('/v1/client?case=method')).toMatchObject({
      method: 'PUT',
      statusCode: '405',
      requestBody: { companyName: 'Put' },
      responseBody: { detail: 'Method "PUT" not allowed.' },
    });
  });

  it('records a call with a bad signature, with its body (the call authenticated to the business)', async () => {
    const b = await newBusiness(t);
    const res = await call(b, {
      method: 'POST',
      url: '/v1/client?case=badsig',
      body: { companyName: 'Forged' },
      signature: 'f'.repeat(64),
    });
    expect(res.status).toBe(403);
    const entry = await lastEntry(t, b, '/v1/client?case=badsig');
    expect(entry).toMatchObject({
      statusCode: '403',
      requestBody: { companyName: 'Forged' },
      responseBody: { code: 'signature_invalid' },
    });
  });

  it(`stores a body over ${MAX_LOGGED_BODY_BYTES} bytes truncated, with a marker`, async () => {
    const b = await newBusiness(t);
    const big = 'é'.repeat(40_000); // 80 000 bytes of UTF-8
    const body = JSON.stringify({ companyName: 'Big', content: big });
    const res = await raw(b, {
      method: 'POST',
      url: '/v1/client?case=big',
      raw: { payload: body, contentType: 'application/json' },
    });
    expect(res.statusCode).toBe(400); // content is longer than allowed; the call is logged all the same
    const entry = await lastEntry(t, b, '/v1/client?case=big');
    const marker = entry.requestBody as { truncated: boolean; size: number; head: string };
    expect(marker.truncated).toBe(true);
    expect(marker.size).toBe(Buffer.byteLength(body));
    expect(Buffer.byteLength(marker.head)).toBeLessThanOrEqual(MAX_LOGGED_BODY_BYTES);
    expect(Buffer.byteLength(marker.head)).toBeGreaterThan(MAX_LOGGED_BODY_BYTES - 4);
    expect(body.startsWith(marker.head)).toBe(true);

    // The log list that returned that entry was itself larger than 64 KiB: its own row is truncated too.
    await t.app.logWriter.flush();
    const again = await call<{ results: LogEntryBody[] }>(b, {
      method: 'GET',
      url: '/v1/log/?page_size=100&case=again',
    });
    const listCall = again.body.results.find((e) => e.path === '/v1/log/?page_size=100');
    expect(listCall?.responseBody).toMatchObject({
      truncated: true,
      size: expect.any(Number),
      head: expect.stringMatching(/^\{"next":/),
    });
  });
});

describe('GET /v1/log/ — the list', () => {
  it('lists newest first, in pages linked by next and previous', async () => {
    const b = await newBusiness(t);
    for (const n of [1, 2, 3]) await raw(b, { method: 'GET', url: `/v1/folder?n=${n}` });
    await t.app.logWriter.flush();
    const first = await call<{ next: string; previous: null; results: LogEntryBody[] }>(b, {
      method: 'GET',
      url: '/v1/log/?page_size=2',
    });
    expect(first.body.results.map((e) => e.path)).toEqual(['/v1/folder?n=3', '/v1/folder?n=2']);
    expect(first.body.previous).toBeNull();
    const next = new URL(first.body.next);
    expect(next.searchParams.get('page_size')).toBe('2');
    const second = await call<{ next: string | null; previous: string; results: LogEntryBody[] }>(b, {
      method: 'GET',
      url: next.pathname + next.search,
    });
    expect(second.body.results.map((e) => e.path)).toEqual(['/v1/folder?n=1']);
    expect(second.body.next).toBeNull();
    const prev = new URL(second.body.previous);
    const back = await call<{ results: LogEntryBody[] }>(b, {
      method: 'GET',
      url: prev.pathname + prev.search,
    });
    expect(back.body.results.map((e) => e.path)).toEqual(['/v1/folder?n=3', '/v1/folder?n=2']);
  });

  it('answers on /v1/log as well as /v1/log/', async () => {
    const b = await newBusiness(t);
    const res = await call(b, { method: 'GET', url: '/v1/log' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ next: null, previous: null, results: [] });
  });

  it('shows only the last 14 days', async () => {
    const b = await newBusiness(t);
    await insertRow(b, '/v1/client?age=15d', 15 * DAY);
    await insertRow(b, '/v1/client?age=14d+1m', 14 * DAY + 60_000);
    await insertRow(b, '/v1/client?age=13d', 13 * DAY);
    const paths = (await logOf(t, b)).map((e) => e.path);
    expect(paths).toEqual(['/v1/client?age=13d']);
  });
});

describe('retention and writing', () => {
  it('the retention job deletes the rows older than 14 days and keeps the others', async () => {
    const b = await newBusiness(t);
    await insertRow(b, '/old/1', 20 * DAY);
    await insertRow(b, '/old/2', 15 * DAY);
    await insertRow(b, '/recent', 13 * DAY);
    const result = await runRetention(t.testDb.db);
    expect(result.logRows).toBeGreaterThanOrEqual(2);
    const rows = await t.testDb.db
      .selectFrom('api_log')
      .select('path')
      .where('business_id', '=', b.businessId)
      .execute();
    expect(rows.map((r) => r.path)).toEqual(['/recent']);
  });

  it('runs on its own schedule, at least daily (hourly by default)', async () => {
    expect(RETENTION_INTERVAL_MS).toBeLessThanOrEqual(DAY);
    const b = await newBusiness(t);
    await insertRow(b, '/old/scheduled', 15 * DAY);
    const job = startRetention(t.testDb.db, { initialDelayMs: 0, intervalMs: 50 });
    try {
      await vi.waitFor(
        async () => {
          const rows = await t.testDb.db
            .selectFrom('api_log')
            .select('path')
            .where('business_id', '=', b.businessId)
            .execute();
          expect(rows).toEqual([]);
        },
        { timeout: 20_000, interval: 50 },
      );
    } finally {
      await job.stop();
    }
  });

  it('writes the buffered rows when the application closes', async () => {
    const b = await newBusiness(t);
    const other = await buildSiblingApp(t, {});
    for (const n of [1, 2, 3]) {
      const res = await apiClient(other).raw(b, { method: 'GET', url: `/v1/folder?closing=${n}` });
      expect(res.statusCode).toBe(200);
    }
    await other.close();
    const rows = await t.testDb.db
      .selectFrom('api_log')
      .select('path')
      .where('business_id', '=', b.businessId)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => r.path)).toEqual(['/v1/folder?closing=1', '/v1/folder?closing=2', '/v1/folder?closing=3']);
  });
});
