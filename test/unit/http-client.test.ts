/**
 * The one HTTP client of webhooks and pushes (src/shared/http-client.ts, docs/webhooks.md#delivery) against
 * real local receivers: one connection per request, redirects not followed, the answer read up to its limit,
 * the whole exchange bounded, names resolving to non-public addresses refused before connecting.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post } from '../../src/shared/http-client.ts';

describe('http-client post', () => {
  let server: http.Server;
  let base: string;
  /** The client port of each request that carried `x-probe`: one port per connection. */
  const probePorts: number[] = [];
  const hits: string[] = [];
  const open = new Set<http.ServerResponse>();

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      // only this file's requests (under /hc/) count: another test file may send one to a port it found free
      // and this server took meanwhile
      if (!req.url?.startsWith('/hc/')) return void res.writeHead(404).end();
      req.url = req.url.slice(3);
      hits.push(req.url);
      if (req.headers['x-probe'] !== undefined) probePorts.push(req.socket.remotePort!);
      req.resume();
      if (req.url === '/redirect') {
        res.writeHead(302, { location: `${base}/target` }).end();
      } else if (req.url === '/big') {
        res.writeHead(200);
        // far more than the limit, and never ended: the client stops reading at its limit
        const chunk = Buffer.alloc(1024, 'a');
        const pump = () => {
          while (res.write(chunk));
        };
        res.on('drain', pump);
        pump();
        open.add(res);
      } else if (req.url === '/hang') {
        open.add(res);
      } else if (req.url === '/slow-body') {
        res.writeHead(201);
        res.write('partial');
        open.add(res);
      } else {
        res.writeHead(200, { 'content-type': 'text/plain' }).end(`ok ${req.headers['x-probe'] ?? ''}\u0000`);
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hc`;
  });
  afterAll(async () => {
    for (const res of open) res.destroy();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('sends each request on a connection of its own, closed after it, and keeps the answer (NUL removed)', async () => {
    for (const probe of ['1', '2', '3']) {
      const r = await post(`${base}/ok`, '{}', { 'x-probe': probe }, { allowPrivate: true, timeoutMs: 5000 });
      expect(r).toMatchObject({ statusCode: 200, error: null, response: `ok ${probe}` });
    }
    expect(probePorts).toHaveLength(3);
    expect(new Set(probePorts).size).toBe(3);
  });

  it('does not follow a redirect', async () => {
    hits.length = 0;
    const r = await post(`${base}/redirect`, '{}', {}, { allowPrivate: true, timeoutMs: 5000 });
    expect(r).toMatchObject({ statusCode: 302, error: 'HTTP 302: redirect not followed' });
    expect(hits).toEqual(['/redirect']);
  });

  it('reads an endless answer only up to its limit', async () => {
    const r = await post(`${base}/big`, '{}', {}, { allowPrivate: true, timeoutMs: 5000, maxResponseBytes: 100 });
    expect(r.statusCode).toBe(200);
    expect(r.error).toBeNull();
    expect(r.response).toBe('a'.repeat(100));
    expect(r.durationMs).toBeLessThan(5000);
  });

  it('bounds the whole exchange: no answer is a timeout; an answer whose body hangs keeps its status', async () => {
    const hang = await post(`${base}/hang`, '{}', {}, { allowPrivate: true, timeoutMs: 300 });
    expect(hang).toMatchObject({ statusCode: null, error: 'timeout after 300 ms', response: null });
    const slow = await post(`${base}/slow-body`, '{}', {}, { allowPrivate: true, timeoutMs: 300 });
    expect(slow).toMatchObject({ statusCode: 201, error: null, response: 'partial' });
  });

  it('refuses a name resolving to a loopback address, and a private literal, before sending anything', async () => {
    // judged by the requests the receiver got, not by its connections (see the server)
    hits.length = 0;
    const port = new URL(base).port;
    const byName = await post(`http://localhost:${port}/hc/by-name`, '{}', {}, { allowPrivate: false, timeoutMs: 2000 });
    expect(byName.statusCode).toBeNull();
    expect(byName.error).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), which is not a public address$/);
    const literal = await post(`${base}/literal`, '{}', {}, { allowPrivate: false, timeoutMs: 2000 });
    expect(literal).toMatchObject({ statusCode: null, error: '127.0.0.1 is not a public address' });
    const allowed = await post(`${base}/allowed`, '{}', {}, { allowPrivate: true, timeoutMs: 2000 });
    expect(allowed.statusCode).toBe(200);
    expect(hits).toEqual(['/allowed']);
  });

  it('answers a refused connection and a bad URL with their reasons', async () => {
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const refused = await post(`http://127.0.0.1:${port}/`, '{}', {}, { allowPrivate: true, timeoutMs: 2000 });
    expect(refused.statusCode).toBeNull();
    expect(refused.error).toMatch(/ECONNREFUSED/);
    expect(await post('ftp://example.com/', '', {}, { allowPrivate: true, timeoutMs: 100 })).toMatchObject({ error: 'unsupported scheme ftp:' });
    expect(await post('not a url', '', {}, { allowPrivate: true, timeoutMs: 100 })).toMatchObject({ error: 'invalid URL' });
  });
});
