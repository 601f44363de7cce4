/**
 * Attachments, the working paths (decisions §7 "Files"; reference: Presigned upload): presign → PUT the
 * bytes → (attach → download → delete, see the inquiry part below). Local storage under a temporary data
 * directory; every request through HTTP.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newBusiness } from '../../setup/factories.ts';
import { sendJson } from '../../setup/signed-request.ts';
import { buildFileTestApp, type FileTestApp, get, local, presign, put } from './file-test-app.ts';

let t: FileTestApp;
beforeAll(async () => {
  t = await buildFileTestApp();
});
afterAll(() => t.close());

const EXTENSIONS = ['pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'hwp', 'jpg', 'jpeg', 'png', 'gif', 'zip'];

describe('POST /v1/presigned', () => {
  it('answers 201 {url, path}: a business-scoped, unguessable path and an absolute URL on this server', async () => {
    const b = await newBusiness(t);
    const res = await sendJson(t.app, b, { method: 'POST', url: '/v1/presigned', body: { name: 'Proposal.pdf' } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['path', 'url']);
    expect(res.body.path).toMatch(new RegExp(`^${b.businessId}/[0-9a-f]{32}\\.pdf$`));
    const url = new URL(res.body.url);
    expect(url.origin).toBe('http://localhost');
    expect(url.pathname).toBe(`/files/${res.body.path}`);
    expect([...url.searchParams.keys()]).toEqual(['expires', 'signature']);
    const second = await presign(t.app, b, 'Proposal.pdf');
    expect(second.path).not.toBe(res.body.path);
  });

  it('accepts the 13 extensions of the reference in any letter case; the path carries it in lower case', async () => {
    const b = await newBusiness(t);
    for (const ext of EXTENSIONS) {
      expect((await presign(t.app, b, `file.${ext}`)).path.endsWith(`.${ext}`)).toBe(true);
      expect((await presign(t.app, b, `FILE.${ext.toUpperCase()}`)).path.endsWith(`.${ext}`)).toBe(true);
    }
    expect((await presign(t.app, b, '견적서 v2 (최종).HwP')).path.endsWith('.hwp')).toBe(true);
  });

  it('accepts the form encodings too', async () => {
    const b = await newBusiness(t);
    const form = await sendJson(t.app, b, { method: 'POST', url: '/v1/presigned', body: { name: 'a.png' }, form: 'urlencoded' });
    expect(form.status).toBe(201);
    const multi = await sendJson(t.app, b, { method: 'POST', url: '/v1/presigned', body: { name: 'a.zip' }, form: 'multipart' });
    expect(multi.status).toBe(201);
    expect(multi.body.path).toMatch(/\.zip$/);
  });

  it('points the URL at the host the client used', async () => {
    const b = await newBusiness(t);
    const res = await sendJson(t.app, b, { method: 'POST', url: '/v1/presigned', body: { name: 'a.pdf' }, headers: { host: 'api.example.com:8443' } });
    expect(res.body.url).toMatch(/^http:\/\/api\.example\.com:8443\/files\//);
  });
});

describe('PUT to the pre-signed URL', () => {
  it('stores the exact bytes under the data directory and answers 200 with the MD5 ETag, no key needed', async () => {
    const b = await newBusiness(t);
    const { url, path: p } = await presign(t.app, b, 'photo.png');
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256));
    const res = await put(t.app, url, bytes, { 'content-type': 'image/png' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toBe('');
    expect(res.headers.etag).toBe(`"${(await import('node:crypto')).createHash('md5').update(bytes).digest('hex')}"`);
    expect(fs.readFileSync(path.join(t.dataDir, 'files', p)).equals(bytes)).toBe(true);
  });

  it('takes any Content-Type or none, and a streamed (chunked) body', async () => {
    const b = await newBusiness(t);
    const first = await presign(t.app, b, 'a.zip');
    expect((await t.app.inject({ method: 'PUT', url: local(first.url), payload: Buffer.from('PK\x03\x04') })).statusCode).toBe(200);
    const second = await presign(t.app, b, 'b.zip');
    const streamed = await t.app.inject({
      method: 'PUT',
      url: local(second.url),
      payload: Readable.from([Buffer.from('PK'), Buffer.from('\x03\x04 more')]),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(streamed.statusCode, streamed.body).toBe(200);
    expect(fs.readFileSync(path.join(t.dataDir, 'files', second.path), 'latin1')).toBe('PK\x03\x04 more');
    const third = await presign(t.app, b, 'c.pdf');
    expect((await put(t.app, third.url, '', { 'content-type': 'application/pdf' })).statusCode).toBe(200);
    expect(fs.statSync(path.join(t.dataDir, 'files', third.path)).size).toBe(0);
  });

  it('a refused (oversize) upload leaves the URL usable until it expires', async () => {
    const small = await buildFileTestApp({ BIZAPI_UPLOAD_MAX_BYTES: '10' });
    try {
      const b = await newBusiness(small);
      const { url, path: p } = await presign(small.app, b, 'a.pdf');
      expect((await put(small.app, url, 'x'.repeat(11))).statusCode).toBe(413);
      expect((await put(small.app, url, 'x'.repeat(10))).statusCode).toBe(200);
      expect(fs.readFileSync(path.join(small.dataDir, 'files', p), 'utf8')).toBe('x'.repeat(10));
    } finally {
      await small.close();
    }
  });

  it('answers HEAD and GET of a stored object only through a signed download URL', async () => {
    const b = await newBusiness(t);
    const { url, path: p } = await presign(t.app, b, 'report.pdf');
    await put(t.app, url, '%PDF-1.7 bytes');
    const download = await t.app.storage.presignDownload(p, {
      expiresInSeconds: 3600,
      origin: 'http://localhost:80',
      name: '보고서 "final".pdf',
      contentType: 'application/pdf',
    });
    const res = await get(t.app, download);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('%PDF-1.7 bytes');
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-length']).toBe('14');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="___ _final_.pdf"; filename*=UTF-8''%EB%B3%B4%EA%B3%A0%EC%84%9C%20%22final%22.pdf`,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    const head = await t.app.inject({ method: 'HEAD', url: local(download) });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });
});
