/**
 * The API call log records every authenticated request that reached a handler, also when the client resets
 * its connection (TCP RST) before the answer (issue 13, item 4): the peer address is captured when the
 * connection is accepted, so the row is written although the socket is gone by the time it is built.
 *
 * A listening app on the test database; each try sends a complete signed `POST /v1/client` on a raw socket
 * and resets the socket a moment later (`socket.resetAndDestroy()`), with delays spread so that some resets
 * land while the handler runs. Every client that was committed must have its log row, with the peer address.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBody } from '../../src/modules/auth/hmac.ts';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness } from '../setup/factories.ts';
import { DIALECT } from '../setup/test-db.ts';

const TRIES = 36;

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await buildTestApp({ BIZAPI_RATE_LIMIT: '0' });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await t?.close();
});

/** Sends `raw` on a new connection and resets it (RST) `delayMs` after the request was written. */
function sendAndReset(raw: string, delayMs: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.once('close', () => resolve());
    socket.once('connect', () => {
      socket.write(raw, () => {
        const reset = () => (socket.destroyed ? undefined : socket.resetAndDestroy());
        if (delayMs === 0) setImmediate(reset);
        else setTimeout(reset, delayMs);
      });
    });
  });
}

describe(`API call log with client resets (${DIALECT})`, () => {
  it(`${TRIES} POST /v1/client reset by the client: every committed client has its log row with the peer address`, async () => {
    const b = await newBusiness(t);
    const names: string[] = [];
    const tries: Promise<void>[] = [];
    for (let n = 0; n < TRIES; n++) {
      const name = `Reset client ${n} ${Math.random().toString(36).slice(2, 8)}`;
      names.push(name);
      const payload = JSON.stringify({ companyName: name });
      const raw = [
        'POST /v1/client HTTP/1.1',
        'Host: 127.0.0.1',
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(payload)}`,
        `X-API-Key: ${b.apiKey}`,
        `X-Signature: ${signBody(b.secretKey, payload)}`,
        '',
        payload,
      ].join('\r\n');
      // Spread the resets: right after the write, and 1–5 ms later (while the request is handled).
      tries.push(sendAndReset(raw, n % 6));
      if (n % 6 === 5) await Promise.all(tries.splice(0));
    }
    await Promise.all(tries);
    // Requests still being handled finish; then the buffered log rows are written.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await t.app.logWriter.flush();

    const clients = await t.testDb.db.selectFrom('client').select(['id', 'company_name as name']).where('business_id', '=', b.businessId).execute();
    const logs = await t.testDb.db
      .selectFrom('api_log')
      .select(['ip_address', 'method', 'path', 'request_body', 'status_code'])
      .where('business_id', '=', b.businessId)
      .execute();
    // Some requests must have been committed, or this test proves nothing.
    expect(clients.length).toBeGreaterThan(0);
    expect(t.app.logWriter.dropped).toBe(0);
    for (const client of clients) {
      const row = logs.find((l) => l.method === 'POST' && l.request_body !== null && (JSON.parse(l.request_body) as { companyName: string }).companyName === client.name);
      expect(row, `log row of committed client "${client.name}"`).toBeDefined();
      expect(row!.path).toBe('/v1/client');
      // The peer address, or "" when the client reset the connection before the server accepted it (no one knows the address then).
      expect(['127.0.0.1', '']).toContain(row!.ip_address);
    }
    // Every logged call is one of this test's requests.
    for (const l of logs) expect(names).toContain((JSON.parse(l.request_body!) as { companyName: string }).companyName);
  });
});
