/**
 * Overload protection: load shedding (503 in DRF's shape with Retry-After while the event loop lags, the
 * probes still answering, recovery afterwards), the request timeout (503 when a response takes too long; an
 * authenticated /v1 call so ended keeps its rate-limit headers and is logged) and the connection timeouts (a
 * client that stops sending mid-request, an idle keep-alive connection).
 */
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { buildTestApp, TEST_MASTER_KEY_HEX, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness } from '../setup/factories.ts';
import { poolEnvOf } from '../setup/test-workers.ts';
import { apiClient } from '../setup/api-client.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

/** An application on the test database with `env`, and `extra` routes added before it is ready. */
async function appWith(
  env: Record<string, string>,
  extra: (app: FastifyInstance) => void = () => undefined,
): Promise<FastifyInstance> {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    BIZAPI_MASTER_KEY: TEST_MASTER_KEY_HEX,
    ...env,
    DATABASE_URL: t.testDb.url,
    ...poolEnvOf(t.testDb.url),
  });
  const app = await buildApp(config, { db: t.testDb.db, masterKey: t.masterKey });
  extra(app);
  await app.ready();
  return app;
}

/** Keeps the event loop busy for `ms` milliseconds. */
function block(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // busy
  }
}

/** Calls `attempt` every 50 ms until it returns a value, for at most `limitMs`. */
async function until<T>(attempt: () => Promise<T | undefined>, limitMs: number): Promise<T | undefined> {
  const end = Date.now() + limitMs;
  while (Date.now() < end) {
    const value = await attempt();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

describe('load shedding (BIZAPI_MAX_EVENT_LOOP_DELAY)', () => {
  it('answers /v1 with 503 and Retry-After while the event loop lags, keeps the probes up, and recovers', async () => {
    const app = await appWith({ BIZAPI_MAX_EVENT_LOOP_DELAY: '25' });
    try {
      const b = await newBusiness(t);
      const folders = { method: 'GET', url: '/v1/folder' } as const;
      expect((await apiClient(app).raw(b, folders)).statusCode).toBe(200);
      // Past the start-up grace period, then a long stall: the next samples see a lagging loop.
      await new Promise((resolve) => setTimeout(resolve, 2100));
      block(3000);
      const shed = await until(async () => {
        const res = await apiClient(app).raw(b, folders);
        return res.statusCode === 503 ? res : undefined;
      }, 3000);
      expect(shed, 'no request was shed').toBeDefined();
      expect(shed!.json()).toEqual({
        detail: 'The server is overloaded, try again later.',
        code: 'service_unavailable',
        requestId: expect.any(String),
      });
      expect(shed!.headers['retry-after']).toBe('10');
      expect((await apiClient(app).raw(undefined, { method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      const recovered = await until(
        async () => ((await apiClient(app).raw(b, folders)).statusCode === 200 ? true : undefined),
        10_000,
      );
      expect(recovered).toBe(true);
    } finally {
      await app.close();
    }
  }, 30_000);

  it('never sheds with BIZAPI_MAX_EVENT_LOOP_DELAY=0', async () => {
    const app = await appWith({ BIZAPI_MAX_EVENT_LOOP_DELAY: '0' });
    try {
      const b = await newBusiness(t);
      await new Promise((resolve) => setTimeout(resolve, 2100));
      block(2000);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect((await apiClient(app).raw(b, { method: 'GET', url: '/v1/folder' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  }, 30_000);
});

describe('request timeout (BIZAPI_REQUEST_TIMEOUT)', () => {
  it('answers 503 in the DRF shape when a response takes longer', async () => {
    const app = await appWith({ BIZAPI_REQUEST_TIMEOUT: '100' }, (a) =>
      a.get('/test/slow', { schema: { hide: true } }, async () => {
        await new Promise((resolve) => setTimeout(resolve, 2000));
        return { late: true };
      }),
    );
    try {
      const res = await apiClient(app).raw(undefined, { method: 'GET', url: '/test/slow' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        detail: 'The server took too long to answer this request.',
        code: 'service_unavailable',
        requestId: expect.any(String),
      });
    } finally {
      await app.close();
    }
  });
});

/** Connects to `app` and sends `text`; resolves with what the server sent once it closed the connection. */
async function sendAndWaitForClose(app: FastifyInstance, text: string): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as net.AddressInfo;
  return new Promise((resolve) => {
    let received = '';
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(received));
  });
}

describe('request timeout of an authenticated /v1 call', () => {
  it('answers 503 with the rate-limit headers, and records the call in the API call log', async () => {
    // The body never completes: the request timeout (not the 72 s idle timeout) ends the call, after the key
    // authenticated it.
    const app = await appWith({ BIZAPI_REQUEST_TIMEOUT: '300', BIZAPI_RATE_LIMIT: '50' });
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = app.server.address() as net.AddressInfo;
      const b = await newBusiness(t);
      const socket = net.connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
      socket.write(
        [
          'POST /v1/client?case=stalled HTTP/1.1',
          'Host: 127.0.0.1',
          'Content-Type: application/json',
          'Content-Length: 100',
          `X-API-Key: ${b.apiKey}`,
          '',
          '{"companyName": "St',
        ].join('\r\n'),
      );
      await until(async () => (/\r\n\r\n\{.*\}$/s.test(received) ? true : undefined), 20_000);
      socket.destroy();
      expect(received).toMatch(/^HTTP\/1\.1 503 /);
      expect(received).toContain('{"detail":"The server took too long to answer this request."');
      expect(received.toLowerCase()).toContain('ratelimit-policy: "per-key";q=50;w=60');
      expect(received.toLowerCase()).toMatch(/\r\nratelimit: "per-key";r=49;t=\d+\r\n/);
      await app.logWriter.flush();
      const rows = await t.testDb.db
        .selectFrom('api_log')
        .select(['path', 'status_code'])
        .where('business_id', '=', b.businessId)
        .execute();
      expect(rows).toEqual([{ path: '/v1/client?case=stalled', status_code: '503' }]);
    } finally {
      await app.close();
    }
  });
});

describe('connection timeouts (BIZAPI_REQUEST_TIMEOUT + BIZAPI_KEEP_ALIVE_TIMEOUT)', () => {
  it('closes a connection whose client stops sending in the middle of a request, without acting on it', async () => {
    const app = await appWith({ BIZAPI_REQUEST_TIMEOUT: '300', BIZAPI_KEEP_ALIVE_TIMEOUT: '300' });
    try {
      const b = await newBusiness(t);
      const received = await sendAndWaitForClose(
        app,
        [
          'POST /v1/client HTTP/1.1',
          'Host: 127.0.0.1',
          'Content-Type: application/json',
          'Content-Length: 100',
          `X-API-Key: ${b.apiKey}`,
          '',
          '{"companyName": "Stalled',
        ].join('\r\n'),
      );
      // Whichever timeout fires first answers: the request timeout (503 in the DRF shape, or Node's 408), or
      // the idle socket is simply closed; never a 2xx.
      expect(received, received).toMatch(/^(?:$|HTTP\/1\.1 (?:408|503) )/);
      const clients = await t.testDb.db
        .selectFrom('client')
        .select('id')
        .where('business_id', '=', b.businessId)
        .execute();
      expect(clients).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('closes an idle keep-alive connection after its response', async () => {
    const app = await appWith({ BIZAPI_KEEP_ALIVE_TIMEOUT: '200' });
    try {
      const received = await sendAndWaitForClose(
        app,
        'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n',
      );
      expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(received.toLowerCase()).toContain('keep-alive');
    } finally {
      await app.close();
    }
  });
});
