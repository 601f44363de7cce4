/**
 * The one HTTP client of webhooks and pushes (src/shared/http-client.ts, docs/webhooks.md#delivery) against
 * real local receivers: one connection per request, redirects not followed, the answer read up to its limit,
 * the whole exchange bounded, names resolving to non-public addresses refused before connecting; and its GET
 * (the import's attachment downloads, docs/deployment.md#source-limits): redirects followed and each target
 * checked again, the answer refused past its size, the whole exchange bounded.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, post } from '../../src/shared/http-client.ts';

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
    const byName = await post(
      `http://localhost:${port}/hc/by-name`,
      '{}',
      {},
      { allowPrivate: false, timeoutMs: 2000 },
    );
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
    expect(await post('ftp://example.com/', '', {}, { allowPrivate: true, timeoutMs: 100 })).toMatchObject({
      error: 'unsupported scheme ftp:',
    });
    expect(await post('not a url', '', {}, { allowPrivate: true, timeoutMs: 100 })).toMatchObject({
      error: 'invalid URL',
    });
  });
});

describe('http-client get', () => {
  let server: http.Server;
  let base: string;
  const hits: string[] = [];
  const open = new Set<http.ServerResponse>();

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (!req.url?.startsWith('/hg/')) return void res.writeHead(404).end();
      const url = req.url.slice(3);
      hits.push(url);
      if (url === '/file') return void res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4 bytes');
      if (url.startsWith('/hop/')) {
        const n = Number(url.slice(5));
        return void res.writeHead(302, { location: n > 0 ? `${base}/hop/${n - 1}` : `${base}/file` }).end();
      }
      if (url === '/to-metadata')
        return void res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      if (url === '/to-name')
        return void res.writeHead(302, { location: `http://localhost:${new URL(base).port}/hg/file` }).end();
      if (url === '/declared-big') return void res.writeHead(200, { 'content-length': '1000' }).end('x'.repeat(1000));
      if (url === '/endless') {
        res.writeHead(200);
        const chunk = Buffer.alloc(1024, 'a');
        const pump = () => {
          while (!res.destroyed && res.write(chunk));
        };
        res.on('drain', pump);
        pump();
        open.add(res);
        return;
      }
      if (url === '/trickle') {
        res.writeHead(200);
        res.write('a');
        open.add(res);
        return;
      }
      res.writeHead(503, { 'retry-after': '7' }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hg`;
  });
  afterAll(async () => {
    for (const res of open) res.destroy();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const allowed = { allowPrivate: true, timeoutMs: 3000, maxBytes: 100 };

  it('follows redirects, at most maxRedirects, and answers the whole body', async () => {
    hits.length = 0;
    const r = await get(`${base}/hop/2`, allowed);
    expect(r).toMatchObject({ statusCode: 200, error: null, refused: false, url: `${base}/file` });
    expect(r.body?.toString()).toBe('%PDF-1.4 bytes');
    expect(hits).toEqual(['/hop/2', '/hop/1', '/hop/0', '/file']);
    const tooMany = await get(`${base}/hop/9`, { ...allowed, maxRedirects: 3 });
    expect(tooMany).toMatchObject({ statusCode: 302, error: 'more than 3 redirects', refused: true, body: null });
  });

  it('checks every hop: public only refuses the loopback URL and a redirect to a name resolving to loopback; the allowance still refuses the metadata address', async () => {
    hits.length = 0;
    expect(await get(`${base}/file`, { ...allowed, allowPrivate: false })).toMatchObject({
      statusCode: null,
      error: '127.0.0.1 is not a public address',
      refused: true,
    });
    expect(hits).toEqual([]);
    const toName = await get(`${base}/to-name`, allowed);
    expect(toName.statusCode).toBe(200);
    const metadata = await get(`${base}/to-metadata`, allowed);
    expect(metadata).toMatchObject({
      statusCode: null,
      error: 'redirect to http://169.254.169.254/latest/meta-data/: 169.254.169.254 is a cloud metadata address',
      refused: true,
      url: 'http://169.254.169.254/latest/meta-data/',
    });
    const byName = await get(`http://localhost:${new URL(base).port}/hg/file`, { ...allowed, allowPrivate: false });
    expect(byName.error).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), which is not a public address$/);
    expect(byName.refused).toBe(true);
    expect(hits).toEqual(['/to-name', '/file', '/to-metadata']);
  });

  it('refuses an answer larger than maxBytes, declared or sent, and bounds a trickling one by the timeout', async () => {
    expect(await get(`${base}/declared-big`, allowed)).toMatchObject({
      statusCode: 200,
      error: 'answer larger than 100 bytes',
      refused: true,
      body: null,
    });
    expect(await get(`${base}/endless`, allowed)).toMatchObject({
      statusCode: 200,
      error: 'answer larger than 100 bytes',
      refused: true,
      body: null,
    });
    const slow = await get(`${base}/trickle`, { ...allowed, timeoutMs: 300 });
    expect(slow).toMatchObject({ statusCode: 200, error: 'timeout after 300 ms', refused: false, body: null });
    const unavailable = await get(`${base}/other`, allowed);
    expect(unavailable).toMatchObject({ statusCode: 503, error: 'HTTP 503', refused: false, retryAfter: '7' });
  });
});
