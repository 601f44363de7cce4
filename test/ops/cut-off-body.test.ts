/**
 * A request whose body is cut off — the client closes its connection before sending the `Content-Length` it
 * announced (issue 44 item 6; docs/api.md#errors) — is the client's fault: a real `bizapi serve` process records
 * it in the API call log as a 400 `parse_error`, never as a 500 "A server error occurred.", and writes nothing.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signBody } from '../../src/modules/auth/hmac.ts';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../setup/factories.ts';
import { type BizapiProcess, fetchJson, startServer } from '../setup/server-process.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let t: TestApp;
let b: TestBusiness;
let server: BizapiProcess;
let dataDir: string;

beforeAll(async () => {
  t = await buildTestApp();
  b = await newBusiness(t, { catalog: null });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-cut-off-'));
  server = await startServer({ databaseUrl: t.testDb.url, dataDir });
});
afterAll(async () => {
  await server?.stop();
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Sends the head of a request announcing `length` bytes, then `sent` of the body, then closes the connection. */
function sendCutOff(head: string[], length: number, sent: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(server.port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      socket.write([...head, `Content-Length: ${length}`, '', sent].join('\r\n'), () => {
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 200);
      });
    });
  });
}

describe('a request body cut off by the client', () => {
  it('is a 400 parse_error in the API call log, not a 500; nothing written', async () => {
    const payload = JSON.stringify({ companyName: 'Cut off', memo: 'x'.repeat(2000) });
    await sendCutOff(
      [
        'POST /v1/client?cut=json HTTP/1.1',
        'Host: 127.0.0.1',
        'Content-Type: application/json',
        `X-API-Key: ${b.apiKey}`,
        `X-Signature: ${signBody(b.secretKey, payload)}`,
      ],
      Buffer.byteLength(payload),
      payload.slice(0, 100),
    );
    const entry = await vi.waitFor(
      async () => {
        const logs = await fetchJson(`http://127.0.0.1:${server.port}`, b, 'GET', '/v1/log?page_size=100');
        const found = (
          logs.body.results as { method: string; path: string; statusCode: string; responseBody: unknown }[]
        ).find((l) => l.path === '/v1/client?cut=json');
        if (!found) throw new Error('not logged yet');
        return found;
      },
      { timeout: 20_000, interval: 200 },
    );
    expect(entry.statusCode).toBe('400');
    expect(entry.responseBody).toMatchObject({ code: 'parse_error' });
    const clients = await fetchJson(`http://127.0.0.1:${server.port}`, b, 'GET', '/v1/client');
    expect(clients.body.results).toEqual([]);
  });
});
