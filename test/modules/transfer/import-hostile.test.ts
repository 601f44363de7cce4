/**
 * `bizapi import --from` against sources that misbehave (issue 43 item 8, issue 44 items 2, 3 and 6;
 * docs/deployment.md#source-limits). Each run is a real import process into a fresh target of the database
 * under test; the sources are real HTTP servers:
 *
 * - a hostile double (node:http, written here): one member, empty catalogs, and a client list that links off
 *   its origin, redirects elsewhere, answers too much, nests too deep, loops its cursor, never ends, or
 *   trickles one byte a second. Each stops the import non-zero with a message naming the request and the
 *   limit; the other host gets no request (so never the source's API key); the import is not `complete`;
 *   nothing of the refused answer is written (no client).
 * - a real bizapi source behind a proxy that points every attachment URL at an "internal" server: without
 *   `BIZAPI_IMPORT_ALLOW_PRIVATE` no download reaches it (nor the source's own loopback files), each refused
 *   file is a warning naming its inquiry, the records are imported; with the allowance a redirect to the cloud
 *   metadata address is still refused.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runUntilExit } from '../../setup/server-process.ts';
import { caller, generateData, type Keys, type SourceServer, startSource } from '../../setup/transfer-source.ts';
import { businesses, freshTarget, runImport, type Target, targetEnv } from '../../setup/transfer-target.ts';

const KEYS: Keys = { apiKey: 'bz_hostile_source_key', secretKey: 'hostile-secret' };

/** A started HTTP server, the requests it got (method, URL, headers) and its close. */
interface Recorder {
  url: string;
  requests: { method: string; url: string; headers: http.IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/** Starts a server that records every request and answers each with `handle` (default: 200 `ok`). */
async function recorder(
  handle?: (req: http.IncomingMessage, res: http.ServerResponse, base: string) => void,
): Promise<Recorder> {
  const requests: Recorder['requests'] = [];
  let base = '';
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    if (handle) handle(req, res, base);
    else res.writeHead(200, { 'Content-Type': 'application/pdf' }).end('internal secret bytes');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const json = (res: http.ServerResponse, body: unknown, status = 200) =>
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
const page = (results: unknown[], next: string | null = null) => ({ next, previous: null, results });

/**
 * The hostile double: `GET /v1/member` one member (so that the target business exists before the hostile
 * answer), every other list empty, and `GET /v1/client?page_size=100` (the client list the import reads ids
 * from) answered by `clients`.
 */
function hostile(clients: (req: http.IncomingMessage, res: http.ServerResponse, base: string) => void) {
  return recorder((req, res, base) => {
    const url = new URL(req.url ?? '/', base);
    if (url.pathname === '/v1/member')
      return json(
        res,
        page([{ id: 7, nickname: '멤버', email: 'm@example.kr', isActive: true, grade: { id: 3, title: '정' } }]),
      );
    // (the `is_hidden=true` list the import also reads stays empty: the hostile answer is the visible list's)
    if (
      url.pathname === '/v1/client' &&
      url.searchParams.get('page_size') === '100' &&
      !url.searchParams.has('is_hidden')
    )
      return clients(req, res, base);
    return json(res, page([]));
  });
}

/** What a stopped run must show: exit 1, the message, one business not complete, holding the member and no client. */
async function expectStopped(
  t: Target,
  r: { code: number | null; stdout: string; stderr: string },
  message: RegExp,
): Promise<void> {
  expect(r.code, r.stderr).toBe(1);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(message);
  expect(r.stderr).toMatch(/Import stopped: /);
  const list = await businesses(t);
  expect(list).toHaveLength(1);
  expect(list[0].importedFrom.complete).toBe(false);
  // What the business holds, read through its export: the member, no client of the refused answer.
  const out = path.join(t.dir, 'check.jsonl.gz');
  const exported = await runUntilExit(['export', '--business', String(list[0].id), '--out', out], targetEnv(t));
  expect(exported.code, exported.stderr).toBe(0);
  const counts = JSON.parse(exported.stdout).counts;
  expect(counts.member).toBe(1);
  expect(counts.client ?? 0).toBe(0);
}

describe('bizapi import --from a hostile source: each bound is a clear stop', () => {
  let other: Recorder;
  beforeAll(async () => {
    other = await recorder((_req, res) => json(res, page([{ id: 1, companyName: 'elsewhere' }])));
  });
  afterAll(async () => {
    await other?.close();
  });

  /** Runs one import from a hostile double into a fresh target and checks the stop. */
  async function stopsWith(
    clients: Parameters<typeof hostile>[0],
    message: RegExp,
    env: Record<string, string> = {},
  ): Promise<void> {
    const source = await hostile(clients);
    const t = await freshTarget();
    try {
      const r = await runImport(t, source.url, KEYS, [], env);
      await expectStopped(t, r, message);
    } finally {
      await source.close();
      await t.drop();
    }
  }

  it('a next link to another host: stops naming it, the other host gets nothing (no API key)', async () => {
    const before = other.requests.length;
    await stopsWith(
      (_req, res) => json(res, page([{ id: 1 }], `${other.url}/v1/client?cursor=steal`)),
      new RegExp(
        `links its next page to ${other.url}/v1/client\\?cursor=steal, another origin than the source's http://127\\.0\\.0\\.1:\\d+`,
      ),
    );
    expect(other.requests.slice(before)).toEqual([]);
  }, 120_000);

  it('a 302 to another host: stops naming it, the other host gets nothing (no API key)', async () => {
    const before = other.requests.length;
    await stopsWith(
      (_req, res) => res.writeHead(302, { Location: `${other.url}/v1/client?page_size=100` }).end(),
      new RegExp(
        `GET http://127\\.0\\.0\\.1:\\d+/v1/client\\?page_size=100 redirected to ${other.url}/v1/client\\?page_size=100, another origin`,
      ),
    );
    expect(other.requests.slice(before)).toEqual([]);
  }, 120_000);

  it('an answer over BIZAPI_IMPORT_MAX_ANSWER_BYTES (declared, and sent without a length): stops naming the limit', async () => {
    const big = JSON.stringify(page([{ id: 1, companyName: 'x'.repeat(200_000) }]));
    await stopsWith(
      (_req, res) =>
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(big) }).end(big),
      /GET http:\/\/127\.0\.0\.1:\d+\/v1\/client\?page_size=100 answered \d+ bytes; the limit of an answer is 65536 bytes \(BIZAPI_IMPORT_MAX_ANSWER_BYTES\)/,
      { BIZAPI_IMPORT_MAX_ANSWER_BYTES: '65536' },
    );
    await stopsWith(
      (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        // chunked, never ending: the reader must stop at its limit
        const chunk = Buffer.alloc(16_384, 0x20);
        const pump = () => {
          while (!res.destroyed && res.write(chunk));
        };
        res.on('drain', pump);
        res.write('{"next":null,"results":[');
        pump();
      },
      /answered more than 65536 bytes; the limit of an answer is 65536 bytes \(BIZAPI_IMPORT_MAX_ANSWER_BYTES\)/,
      { BIZAPI_IMPORT_MAX_ANSWER_BYTES: '65536' },
    );
  }, 120_000);

  it('JSON nested 100,000 levels deep: stops naming the depth limit (no stack overflow)', async () => {
    const deep = `{"next":null,"previous":null,"results":[{"id":1,"companyName":"deep","memo":${'['.repeat(100_000)}${']'.repeat(100_000)}}]}`;
    await stopsWith(
      (_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(deep),
      /page_size=100 answered JSON nested deeper than 32 levels, the limit of an answer/,
    );
  }, 120_000);

  it('a cursor that loops back to page 1: stops naming the link', async () => {
    await stopsWith((req, res, base) => {
      const url = new URL(req.url ?? '/', base);
      if (url.searchParams.get('cursor') === null)
        return json(res, page([{ id: 1 }], `${base}/v1/client?page_size=100&cursor=2`));
      return json(res, page([{ id: 2 }], `${base}/v1/client?page_size=100`));
    }, /cursor=2 links its next page to http:\/\/127\.0\.0\.1:\d+\/v1\/client\?page_size=100, a page of this list already read \(a cursor loop\)/);
  }, 120_000);

  it('endless pages: stops at BIZAPI_IMPORT_MAX_PAGES naming the list', async () => {
    let n = 0;
    await stopsWith(
      (_req, res, base) => {
        n++;
        json(res, page([{ id: n }], `${base}/v1/client?page_size=100&cursor=${n}`));
      },
      /GET \/v1\/client: the list goes on past 5 pages, the limit of a list \(BIZAPI_IMPORT_MAX_PAGES\)/,
      { BIZAPI_IMPORT_MAX_PAGES: '5' },
    );
    expect(n).toBe(5);
  }, 120_000);

  it('a source sending one byte a second: stops at BIZAPI_IMPORT_REQUEST_TIMEOUT naming the request', async () => {
    const timers = new Set<NodeJS.Timeout>();
    await stopsWith(
      (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        const body = JSON.stringify(page([{ id: 1 }]));
        let i = 0;
        const timer = setInterval(() => {
          if (res.destroyed || i >= body.length) return clearInterval(timer);
          res.write(body[i++]!);
        }, 1000);
        timers.add(timer);
      },
      /GET http:\/\/127\.0\.0\.1:\d+\/v1\/client\?page_size=100 did not answer in full within 2000 ms \(BIZAPI_IMPORT_REQUEST_TIMEOUT\)/,
      { BIZAPI_IMPORT_REQUEST_TIMEOUT: '2000' },
    );
    for (const timer of timers) clearInterval(timer);
  }, 120_000);
});

describe('bizapi import --from: attachments through the public-only client', () => {
  let source: SourceServer;
  let internal: Recorder;
  /** A proxy to the source that points every `fileSet[].file` at `fileTarget` (set per test). */
  let proxy: Recorder;
  let fileTarget = '';

  beforeAll(async () => {
    source = await startSource();
    await generateData(caller(source.baseUrl, source.keys), 1);
    internal = await recorder();
    const upstream = new URL(source.baseUrl);
    proxy = await recorder((req, res) => {
      const up = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
        },
        (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => {
            let body = Buffer.concat(chunks);
            if (/^\/v1\/inquiry\/\d+$/.test(req.url ?? '') && r.statusCode === 200) {
              const inquiry = JSON.parse(body.toString());
              for (const f of inquiry.fileSet ?? []) f.file = `${fileTarget}/internal/creds-${f.id}.pdf`;
              body = Buffer.from(JSON.stringify(inquiry));
            }
            const headers = { ...r.headers, 'content-length': String(body.length) };
            delete headers['transfer-encoding'];
            res.writeHead(r.statusCode ?? 502, headers).end(body);
          });
        },
      );
      up.on('error', () => res.destroy());
      up.end();
    });
  }, 180_000);
  afterAll(async () => {
    await proxy?.close();
    await internal?.close();
    await source?.stop();
  });

  it('without BIZAPI_IMPORT_ALLOW_PRIVATE: no download reaches a loopback address; each refused file is a warning naming its inquiry; the records are imported', async () => {
    fileTarget = internal.url;
    const t = await freshTarget();
    try {
      const r = await runImport(t, proxy.url, source.keys, [], { BIZAPI_IMPORT_ALLOW_PRIVATE: 'false' });
      expect(r.code, r.stderr).toBe(0);
      expect(internal.requests).toEqual([]);
      expect(r.answer.files).toEqual({ downloaded: 0, bytes: 0 });
      const refused = (r.answer.warnings as string[]).filter((w) => / was refused: /.test(w));
      expect(refused.length).toBeGreaterThan(0);
      for (const w of refused) {
        expect(w).toMatch(
          /^inquiry \d+: the download of file \d+ \(".*"\) of inquiry \d+ from http:\/\/127\.0\.0\.1:\d+\/internal\/creds-\d+\.pdf was refused: 127\.0\.0\.1 is not a public address \(BIZAPI_IMPORT_ALLOW_PRIVATE admits private addresses\); the file was not imported\.$/,
        );
      }
      expect(r.answer.counts.inquiry.created).toBeGreaterThan(0);
      expect((await businesses(t))[0].importedFrom.complete).toBe(true);
    } finally {
      await t.drop();
    }
  }, 300_000);

  it('with BIZAPI_IMPORT_ALLOW_PRIVATE=true a redirect to the cloud metadata address is still refused (each hop checked), and no file is stored', async () => {
    const redirector = await recorder((_req, res) =>
      res.writeHead(302, { Location: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/' }).end(),
    );
    fileTarget = redirector.url;
    const t = await freshTarget();
    try {
      const r = await runImport(t, proxy.url, source.keys);
      expect(r.code, r.stderr).toBe(0);
      expect(redirector.requests.length).toBeGreaterThan(0);
      expect(r.answer.files).toEqual({ downloaded: 0, bytes: 0 });
      const refused = (r.answer.warnings as string[]).filter((w) => / was refused: /.test(w));
      expect(refused).toHaveLength(redirector.requests.length);
      for (const w of refused)
        expect(w).toMatch(
          /was refused: redirect to http:\/\/169\.254\.169\.254\/latest\/meta-data\/iam\/security-credentials\/: 169\.254\.169\.254 is a cloud metadata address; the file was not imported\.$/,
        );
      expect(
        fs.existsSync(path.join(t.dir, 'files'))
          ? fs
              .readdirSync(path.join(t.dir, 'files'), { recursive: true })
              .filter((f) => fs.statSync(path.join(t.dir, 'files', String(f))).isFile())
          : [],
      ).toEqual([]);
    } finally {
      await redirector.close();
      await t.drop();
    }
  }, 300_000);

  it('a file larger than BIZAPI_UPLOAD_MAX_BYTES is refused with a warning, not stored', async () => {
    fileTarget = internal.url;
    const t = await freshTarget();
    try {
      const r = await runImport(t, proxy.url, source.keys, [], { BIZAPI_UPLOAD_MAX_BYTES: '8' });
      expect(r.code, r.stderr).toBe(0);
      expect(r.answer.files).toEqual({ downloaded: 0, bytes: 0 });
      const refused = (r.answer.warnings as string[]).filter((w) => / was refused: /.test(w));
      expect(refused.length).toBeGreaterThan(0);
      for (const w of refused) expect(w).toMatch(/was refused: answer larger than 8 bytes \(BIZAPI_UPLOAD_MAX_BYTES\)/);
    } finally {
      await t.drop();
    }
  }, 300_000);
});
