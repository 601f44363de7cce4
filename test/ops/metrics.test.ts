/**
 * Prometheus metrics at `/metrics` (extension): the text format, requests by route and status, the latency
 * histogram, the log buffer, the database pool, process metrics, and the optional bearer token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSiblingApp, buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness } from '../setup/factories.ts';
import { apiClient } from '../setup/api-client.ts';

let t: TestApp;
const { raw } = apiClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

/** Scrapes `/metrics` and returns the value of the sample `name{labels}` (exact text match). */
async function scrape(
  app = t.app,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string; contentType: string }> {
  const res = await apiClient(app).raw(undefined, { method: 'GET', url: '/metrics', headers });
  return { status: res.statusCode, text: res.body, contentType: String(res.headers['content-type']) };
}

function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  it('answers in the Prometheus text format without a key', async () => {
    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.text).toContain('# TYPE bizapi_http_requests_total counter');
    expect(res.text).toContain('# TYPE bizapi_http_request_duration_seconds histogram');
    expect(res.text).toMatch(/^process_cpu_user_seconds_total /m);
    expect(res.text).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });

  it('counts responses by route pattern and status, and times them', async () => {
    const b = await newBusiness(t);
    const created = await raw(b, { method: 'POST', url: '/v1/client', body: { companyName: 'Metered' } });
    const id = (created.json() as { id: number }).id;
    const before = await scrape();
    const ok = '{method="GET",route="/v1/client/:client_id",status_code="200"}';
    const missing = '{method="GET",route="/v1/client/:client_id",status_code="404"}';
    const base = {
      ok: sample(before.text, `bizapi_http_requests_total${ok}`) ?? 0,
      missing: sample(before.text, `bizapi_http_requests_total${missing}`) ?? 0,
    };
    await raw(b, { method: 'GET', url: `/v1/client/${id}` });
    await raw(b, { method: 'GET', url: `/v1/client/${id}` });
    await raw(b, { method: 'GET', url: '/v1/client/999999999' });
    await raw(undefined, { method: 'GET', url: '/no/such/path' });
    await raw(b, { method: 'GET', url: '/v1/no-such-path-4711' }); // an authenticated 404 under /v1
    const after = await scrape();
    expect(sample(after.text, `bizapi_http_requests_total${ok}`)).toBe(base.ok + 2);
    expect(sample(after.text, `bizapi_http_requests_total${missing}`)).toBe(base.missing + 1);
    expect(
      sample(after.text, 'bizapi_http_requests_total{method="GET",route="(unmatched)",status_code="404"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(after.text, `bizapi_http_request_duration_seconds_count${ok}`)).toBe(base.ok + 2);
    expect(
      sample(
        after.text,
        `bizapi_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/v1/client/:client_id",status_code="200"}`,
      ),
    ).toBe(base.ok + 2);
    expect(after.text).not.toMatch(/route="[^"]*999999999/);
    expect(after.text).not.toMatch(/route="[^"]*4711/);
  });

  it('reports the API call log buffer: rows waiting, then written', async () => {
    const b = await newBusiness(t);
    await t.app.logWriter.flush();
    const written = sample((await scrape()).text, 'bizapi_request_log_written_rows_total')!;
    await raw(b, { method: 'GET', url: '/v1/folder' });
    const buffered = (await scrape()).text;
    expect(sample(buffered, 'bizapi_request_log_buffer_rows')).toBeGreaterThanOrEqual(1);
    await t.app.logWriter.flush();
    const flushed = (await scrape()).text;
    expect(sample(flushed, 'bizapi_request_log_buffer_rows')).toBe(0);
    expect(sample(flushed, 'bizapi_request_log_written_rows_total')).toBeGreaterThanOrEqual(written + 1);
    expect(sample(flushed, 'bizapi_request_log_dropped_rows_total')).toBe(0);
  });

  it('reports the database pool', async () => {
    const text = (await scrape()).text;
    const total = sample(text, 'bizapi_db_pool_connections{state="total"}')!;
    const idle = sample(text, 'bizapi_db_pool_connections{state="idle"}')!;
    const max = sample(text, 'bizapi_db_pool_max_connections')!;
    expect(total).toBeGreaterThanOrEqual(1);
    expect(idle).toBeLessThanOrEqual(total);
    expect(max).toBeGreaterThanOrEqual(total);
    expect(sample(text, 'bizapi_db_pool_waiting_queries')).toBe(0);
  });

  it('reports the outbox backlog (notifications waiting for delivery)', async () => {
    const text = (await scrape()).text;
    expect(text).toContain('# TYPE bizapi_outbox_backlog gauge');
    expect(sample(text, 'bizapi_outbox_backlog')).toBeGreaterThanOrEqual(0);
  });

  it('requires Authorization: Bearer <BIZAPI_METRICS_TOKEN> when the token is set', async () => {
    const guarded = await buildSiblingApp(t, { BIZAPI_METRICS_TOKEN: 's3cret-token' });
    try {
      const refused: Record<string, string>[] = [
        {},
        { authorization: 'Bearer wrong' },
        { authorization: 's3cret-token' },
        { authorization: 'Bearer s3cret-token-and-more' },
      ];
      for (const headers of refused) {
        const res = await apiClient(guarded).raw(undefined, { method: 'GET', url: '/metrics', headers });
        expect(res.statusCode, JSON.stringify(headers)).toBe(401);
        expect(res.json()).toMatchObject({
          code: 'not_authenticated',
          detail: expect.stringContaining('metrics token'),
        });
      }
      const ok = await scrape(guarded, { authorization: 'Bearer s3cret-token' });
      expect(ok.status).toBe(200);
      expect(ok.text).toContain('bizapi_http_requests_total');
      // The probes stay open.
      expect((await apiClient(guarded).raw(undefined, { method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});
