/**
 * Attachments, the failing paths (decisions §2 shapes, §7 "Files"): presign bodies with a wrong extension,
 * and pre-signed upload URLs that are expired, used, tampered with, too large or not paths at all. Every
 * refusal is a DRF-shaped body with `requestId`, and none stores anything.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { newBusiness } from '../../setup/factories.ts';
import { sendJson } from '../../setup/signed-request.ts';
import { buildFileTestApp, type FileTestApp, get, local, presign, put } from './file-test-app.ts';

let t: FileTestApp;
beforeAll(async () => {
  t = await buildFileTestApp();
});
afterAll(() => t.close());
afterEach(() => vi.useRealTimers());

const ALLOWED = 'pdf, doc, docx, xls, xlsx, ppt, pptx, hwp, jpg, jpeg, png, gif, zip';

function stored(p: string): boolean {
  return fs.existsSync(path.join(t.dataDir, 'files', p));
}
function expectDetail(res: { statusCode: number; body: string; headers: Record<string, unknown> }, status: number, code?: string) {
  expect(res.statusCode, res.body).toBe(status);
  const body = JSON.parse(res.body) as Record<string, unknown>;
  expect(body).toEqual({ detail: expect.any(String), ...(code && { code }), requestId: res.headers['x-request-id'] });
}

describe('POST /v1/presigned — name', () => {
  it.each([
    ['setup.exe', 'exe'],
    ['page.html', 'html'],
    ['image.svg', 'svg'],
    ['archive.tar.gz', 'gz'],
    ['report.pdf.exe', 'exe'],
    ['README', ''],
    ['trailing.', ''],
  ])('%s → 400 on name with Django’s FileExtensionValidator message', async (name, ext) => {
    const b = await newBusiness(t);
    const res = await sendJson(t.app, b, { method: 'POST', url: '/v1/presigned', body: { name } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      name: [`File extension “${ext}” is not allowed. Allowed extensions are: ${ALLOWED}.`],
      requestId: res.headers['x-request-id'],
    });
  });

  it('missing, blank, null, too long, control characters → 400 on name', async () => {
    const b = await newBusiness(t);
    const cases: [unknown, string][] = [
      [{}, 'This field is required.'],
      [{ name: '' }, 'This field may not be blank.'],
      [{ name: null }, 'This field may not be null.'],
      [{ name: 5 }, 'Not a valid string.'],
      [{ name: `${'x'.repeat(252)}.pdf` }, 'Ensure this field has no more than 255 characters.'],
      [{ name: 'a\u0000.pdf' }, 'File names may not contain control characters.'],
      [{ name: 'a\n.pdf' }, 'File names may not contain control characters.'],
    ];
    for (const [body, message] of cases) {
      const res = await sendJson(t.app, b, { method: 'POST', url: '/v1/presigned', body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.name).toEqual([message]);
    }
  });
});

describe('PUT to a pre-signed URL — refusals', () => {
  it('an expired URL → 403 url_expired (60 s by default), nothing stored', async () => {
    const b = await newBusiness(t);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-22T09:00:00Z'));
    const { url, path: p } = await presign(t.app, b);
    expect(new URL(url).searchParams.get('expires')).toBe(String(Date.parse('2026-11-22T09:01:00Z') / 1000));
    vi.setSystemTime(new Date('2026-11-22T09:01:01Z'));
    expectDetail(await put(t.app, url, 'late'), 403, 'url_expired');
    expect(stored(p)).toBe(false);
  });

  it('the expiry is configurable (BIZAPI_UPLOAD_URL_TTL)', async () => {
    const short = await buildFileTestApp({ BIZAPI_UPLOAD_URL_TTL: '5' });
    try {
      const b = await newBusiness(short);
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2026-11-22T09:00:00Z'));
      const { url } = await presign(short.app, b);
      vi.setSystemTime(new Date('2026-11-22T09:00:06Z'));
      expectDetail(await put(short.app, url, 'late'), 403, 'url_expired');
    } finally {
      await short.close();
    }
  });

  it('a second PUT → 403 url_used, and the first bytes stay', async () => {
    const b = await newBusiness(t);
    const { url, path: p } = await presign(t.app, b);
    expect((await put(t.app, url, 'first')).statusCode).toBe(200);
    expectDetail(await put(t.app, url, 'second'), 403, 'url_used');
    expect(fs.readFileSync(path.join(t.dataDir, 'files', p), 'utf8')).toBe('first');
  });

  it('a tampered signature, expiry or path, or a missing signature → 403 url_invalid', async () => {
    const b = await newBusiness(t);
    const { url, path: p } = await presign(t.app, b);
    const u = new URL(url);
    const sig = u.searchParams.get('signature')!;
    const variants = [
      url.replace(`signature=${sig}`, `signature=${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`),
      url.replace(`signature=${sig}`, `signature=${sig}A`),
      url.replace(`signature=${sig}`, 'signature='),
      url.replace(`&signature=${sig}`, ''),
      url.replace(/expires=(\d+)/, (_m, e: string) => `expires=${Number(e) + 3600}`),
      url.replace(/expires=\d+/, 'expires=99999999999'),
      url.replace(p, p.replace(/[0-9a-f]{32}/, '0'.repeat(32))),
      url.replace(p, `${Number(p.split('/')[0]) + 1}/${p.split('/')[1]}`),
      url.replace('.pdf?', '.zip?'),
    ];
    for (const v of variants) expectDetail(await put(t.app, v, 'x'), 403, 'url_invalid');
    expect(stored(p)).toBe(false);
    expect((await put(t.app, url, 'x')).statusCode).toBe(200);
  });

  it('an upload URL does not download, and a download URL does not upload', async () => {
    const b = await newBusiness(t);
    const { url, path: p } = await presign(t.app, b);
    await put(t.app, url, 'bytes');
    expectDetail(await get(t.app, url), 403, 'url_invalid');
    const download = await t.app.storage.presignDownload(p, { expiresInSeconds: 60, origin: 'http://localhost', name: 'a.pdf', contentType: 'application/pdf' });
    expectDetail(await put(t.app, download, 'overwrite'), 403, 'url_invalid');
    expect((await get(t.app, download)).body).toBe('bytes');
  });

  it('over BIZAPI_UPLOAD_MAX_BYTES → 413, declared or streamed, and nothing is stored', async () => {
    const small = await buildFileTestApp({ BIZAPI_UPLOAD_MAX_BYTES: '1000' });
    try {
      const b = await newBusiness(small);
      const declared = await presign(small.app, b);
      expectDetail(await put(small.app, declared.url, Buffer.alloc(1001)), 413);
      const streamedUrl = await presign(small.app, b);
      const streamed = await small.app.inject({
        method: 'PUT',
        url: local(streamedUrl.url),
        payload: Readable.from([Buffer.alloc(600), Buffer.alloc(600)]),
        headers: { 'content-type': 'application/pdf' },
      });
      expectDetail(streamed, 413);
      expect(JSON.parse(streamed.body).detail).toBe('Request body is larger than 1000 bytes.');
      for (const p of [declared.path, streamedUrl.path]) expect(fs.existsSync(path.join(small.dataDir, 'files', p))).toBe(false);
      expect(fs.readdirSync(path.join(small.dataDir, 'files', '.tmp'))).toEqual([]);
      expect((await put(small.app, declared.url, Buffer.alloc(1000))).statusCode).toBe(200);
    } finally {
      await small.close();
    }
  });

  it('paths that are not object paths (traversal, encoding tricks, other extensions) → 404, nothing written outside the root', async () => {
    const b = await newBusiness(t);
    const { url } = await presign(t.app, b);
    const query = new URL(url).search;
    for (const bad of [
      '/files/..%2F..%2Fetc%2Fpasswd',
      '/files/1/..%2F..%2F..%2Ftmp%2Fx.pdf',
      '/files/%2e%2e/%2e%2e/x.pdf',
      `/files/${b.businessId}/..%5C..%5Cx.pdf`,
      `/files/${b.businessId}/${'a'.repeat(32)}.pdf%00.exe`,
      `/files/${b.businessId}/${'a'.repeat(32)}.exe`,
      `/files/${b.businessId}/${'A'.repeat(32)}.pdf`,
      `/files/0${b.businessId}/${'a'.repeat(32)}.pdf`,
      `/files/${b.businessId}/sub/${'a'.repeat(32)}.pdf`,
    ]) {
      const res = await t.app.inject({ method: 'PUT', url: `${bad}${query}`, payload: 'evil' });
      expect(res.statusCode, bad).toBe(404);
      expect(JSON.parse(res.body)).toEqual({ detail: 'Not found.', requestId: res.headers['x-request-id'] });
    }
    expect(fs.existsSync(path.join(t.dataDir, 'x.pdf'))).toBe(false);
  });

  it('a signed URL for a path that was never issued → 403 (nothing to upload to)', async () => {
    const b = await newBusiness(t);
    const p = `${b.businessId}/${'b'.repeat(32)}.pdf`;
    const url = await t.app.storage.presignUpload(p, { expiresInSeconds: 60, origin: 'http://localhost' });
    expectDetail(await put(t.app, url, 'x'), 403, 'url_invalid');
    expect(stored(p)).toBe(false);
  });
});

describe('GET a download URL — refusals', () => {
  it('tampered (name, expiry, signature) → 403 url_invalid; expired → 403 url_expired; missing object → 404', async () => {
    const b = await newBusiness(t);
    const { url, path: p } = await presign(t.app, b);
    await put(t.app, url, 'bytes');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-22T09:00:00Z'));
    const download = await t.app.storage.presignDownload(p, { expiresInSeconds: 3600, origin: 'http://localhost', name: 'a.pdf', contentType: 'application/pdf' });
    expectDetail(await get(t.app, download.replace('name=a.pdf', 'name=evil.html')), 403, 'url_invalid');
    expectDetail(await get(t.app, download.replace(/expires=(\d+)/, (_m, e: string) => `expires=${Number(e) + 1}`)), 403, 'url_invalid');
    expectDetail(await get(t.app, download.replace(/signature=.*$/, 'signature=x')), 403, 'url_invalid');
    expect((await get(t.app, download)).statusCode).toBe(200);
    vi.setSystemTime(new Date('2026-11-22T10:00:01Z'));
    expectDetail(await get(t.app, download), 403, 'url_expired');
    vi.setSystemTime(new Date('2026-11-22T09:30:00Z'));
    await t.app.storage.delete(p);
    expectDetail(await get(t.app, download), 404);
  });
});
