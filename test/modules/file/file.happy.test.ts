/**
 * Attachments, the working paths (decisions §7 "Files"; reference: Presigned upload, Inquiry `fileSet`, file
 * delete): presign → PUT the bytes → attach (POST sets, PATCH appends) → download the same bytes → delete.
 * Local storage under a temporary data directory, and S3 storage with a stubbed client; every request
 * through HTTP.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { newBusiness } from '../../setup/factories.ts';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import {
  buildFileTestApp,
  buildS3TestApp,
  createInquiry,
  type FileTestApp,
  fileSetOf,
  get,
  local,
  presign,
  put,
  s3Get,
  s3Put,
  upload,
} from './file-helpers.ts';
import { apiClient } from '../../setup/api-client.ts';

let t: FileTestApp;
const { call, raw } = apiClient(() => t.app);
beforeAll(async () => {
  t = await buildFileTestApp();
});
afterAll(() => t.close());
afterEach(() => vi.useRealTimers());

const EXTENSIONS = ['pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'hwp', 'jpg', 'jpeg', 'png', 'gif', 'zip'];

describe('POST /v1/presigned', () => {
  it('answers 201 {url, path}: a business-scoped, unguessable path and an absolute URL on this server', async () => {
    const b = await newBusiness(t);
    const res = await call(b, { method: 'POST', url: '/v1/presigned', body: { name: 'Proposal.pdf' } });
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
    const form = await call(b, { method: 'POST', url: '/v1/presigned', body: { name: 'a.png' }, form: 'urlencoded' });
    expect(form.status).toBe(201);
    const multi = await call(b, { method: 'POST', url: '/v1/presigned', body: { name: 'a.zip' }, form: 'multipart' });
    expect(multi.status).toBe(201);
    expect(multi.body.path).toMatch(/\.zip$/);
  });

  it('points the URL at the host the client used', async () => {
    const b = await newBusiness(t);
    const res = await call(b, {
      method: 'POST',
      url: '/v1/presigned',
      body: { name: 'a.pdf' },
      headers: { host: 'api.example.com:8443' },
    });
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
    expect(
      (await raw(undefined, { method: 'PUT', url: local(first.url), raw: { payload: Buffer.from('PK\x03\x04') } }))
        .statusCode,
    ).toBe(200);
    const second = await presign(t.app, b, 'b.zip');
    const streamed = await raw(undefined, {
      method: 'PUT',
      url: local(second.url),
      raw: { payload: Readable.from([Buffer.from('PK'), Buffer.from('\x03\x04 more')]) },
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
    const head = await raw(undefined, { method: 'HEAD', url: local(download) });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });
});

describe('fileSet on inquiries: upload → attach → download → delete', () => {
  it('runs the whole flow with the same bytes coming back, and the object removed at the end', async () => {
    const b = await newBusiness(t);
    const bytes = Buffer.concat([
      Buffer.from('%PDF-1.7\n'),
      Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 256)),
    ]);
    const { url, path: p } = await presign(t.app, b, 'proposal.pdf');
    expect((await put(t.app, url, bytes)).statusCode).toBe(200);

    const created = await call(b, {
      method: 'POST',
      url: '/v1/inquiry',
      body: { name: 'Website renewal', fileSet: [{ name: '제안서 v1.pdf', file: p }] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).not.toHaveProperty('fileSet'); // the create shape (reference item 15)
    const id = created.body.id as number;

    const detail = await call(b, { method: 'GET', url: `/v1/inquiry/${id}` });
    expect(detail.body.fileSet).toEqual([
      { id: expect.any(Number), name: '제안서 v1.pdf', file: expect.any(String), created: expect.any(String) },
    ]);
    const [item] = detail.body.fileSet as { id: number; file: string; created: string }[];
    expect(item!.created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const download = new URL(item!.file);
    expect(download.origin + download.pathname).toBe(`http://localhost/files/${p}`);

    const res = await get(t.app, item!.file);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(bytes)).toBe(true);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="___ v1.pdf"; filename*=UTF-8''${encodeURIComponent('제안서 v1.pdf')}`,
    );

    const deleted = await raw(b, { method: 'DELETE', url: `/v1/inquiry/${id}/file/${item!.id}` });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect(await fileSetOf(t.app, b, id)).toEqual([]);
    expect((await get(t.app, item!.file)).statusCode).toBe(404);
    expect(fs.existsSync(path.join(t.dataDir, 'files', p))).toBe(false);
  });

  it('PATCH appends in order and keeps the existing files; the PATCH response carries the full fileSet', async () => {
    const b = await newBusiness(t);
    const first = await upload(t.app, b, 'a.pdf', 'A');
    const id = await createInquiry(t.app, b, { fileSet: [{ name: 'a.pdf', file: first }] });
    const second = await upload(t.app, b, 'b.png', 'B');
    const third = await upload(t.app, b, 'c.xlsx', 'C');
    const res = await call(b, {
      method: 'PATCH',
      url: `/v1/inquiry/${id}`,
      body: {
        name: 'Renamed',
        fileSet: [
          { name: 'b.png', file: second },
          { name: 'Sheet.xlsx', file: third },
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.name).toBe('Renamed');
    expect((res.body.fileSet as { name: string }[]).map((f) => f.name)).toEqual(['a.pdf', 'b.png', 'Sheet.xlsx']);
    const bodies = await Promise.all(
      (res.body.fileSet as { file: string }[]).map(async (f) => (await get(t.app, f.file)).body),
    );
    expect(bodies).toEqual(['A', 'B', 'C']);
    const types = await Promise.all(
      (res.body.fileSet as { file: string }[]).map(async (f) => (await get(t.app, f.file)).headers['content-type']),
    );
    expect(types).toEqual([
      'application/pdf',
      'image/png',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ]);

    for (const nothing of [{ fileSet: [] }, { fileSet: null }, { name: 'Again' }]) {
      const again = await call(b, { method: 'PATCH', url: `/v1/inquiry/${id}`, body: nothing });
      expect(again.status).toBe(200);
      expect(again.body.fileSet).toHaveLength(3);
    }
  });

  it('accepts fileSet entries in the form encodings', async () => {
    const b = await newBusiness(t);
    const p = await upload(t.app, b, 'form.pdf', 'F');
    const res = await call(b, {
      method: 'POST',
      url: '/v1/inquiry',
      body: { name: 'Form', 'fileSet[0][name]': 'Form.pdf', 'fileSet[0][file]': p },
      form: 'urlencoded',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((await fileSetOf(t.app, b, res.body.id)).map((f) => f.name)).toEqual(['Form.pdf']);
  });

  it('download URLs live one hour (plus the rest of the signing minute); every read within a minute returns the same URL', async () => {
    const b = await newBusiness(t);
    const p = await upload(t.app, b);
    const id = await createInquiry(t.app, b, { fileSet: [{ name: 'x.pdf', file: p }] });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-22T09:00:00Z'));
    const [item] = await fileSetOf(t.app, b, id);
    expect(new URL(item!.file).searchParams.get('expires')).toBe(String(Date.parse('2026-11-22T10:01:00Z') / 1000));
    vi.setSystemTime(new Date('2026-11-22T09:00:59Z'));
    expect((await fileSetOf(t.app, b, id))[0]!.file).toBe(item!.file);
    vi.setSystemTime(new Date('2026-11-22T09:01:00Z'));
    expect((await fileSetOf(t.app, b, id))[0]!.file).not.toBe(item!.file);
    vi.setSystemTime(new Date('2026-11-22T10:01:00Z'));
    expect((await get(t.app, item!.file)).statusCode).toBe(200);
    vi.setSystemTime(new Date('2026-11-22T10:01:01Z'));
    expect((await get(t.app, item!.file)).statusCode).toBe(403);
    const [fresh] = await fileSetOf(t.app, b, id);
    expect((await get(t.app, fresh!.file)).statusCode).toBe(200);
  });

  it('the download lifetime is configurable (BIZAPI_DOWNLOAD_URL_TTL)', async () => {
    const short = await buildFileTestApp({ BIZAPI_DOWNLOAD_URL_TTL: '120' });
    try {
      const b = await newBusiness(short);
      const p = await upload(short.app, b);
      const id = await createInquiry(short.app, b, { fileSet: [{ name: 'x.pdf', file: p }] });
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2026-11-22T09:00:00Z'));
      const [item] = await fileSetOf(short.app, b, id);
      expect(new URL(item!.file).searchParams.get('expires')).toBe(String(Date.parse('2026-11-22T09:03:00Z') / 1000));
    } finally {
      await short.close();
    }
  });

  it('deleting the inquiry keeps its files stored (spec: Inquiry delete); the file route then answers 404', async () => {
    const b = await newBusiness(t);
    const p = await upload(t.app, b);
    const id = await createInquiry(t.app, b, { fileSet: [{ name: 'kept.pdf', file: p }] });
    const [item] = await fileSetOf(t.app, b, id);
    expect((await call(b, { method: 'DELETE', url: `/v1/inquiry/${id}` })).status).toBe(204);
    expect(fs.existsSync(path.join(t.dataDir, 'files', p))).toBe(true);
    expect((await call(b, { method: 'DELETE', url: `/v1/inquiry/${id}/file/${item!.id}` })).status).toBe(404);
  });

  it('the OpenAPI document describes POST /v1/presigned, the file DELETE and the signed upload and download routes', async () => {
    const doc = (await raw(undefined, { method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, any>>;
    };
    expect(doc.paths['/v1/presigned']!.post).toMatchObject({
      operationId: 'presigned_create',
      responses: { 201: expect.anything() },
    });
    expect(doc.paths['/v1/inquiry/{inquiry_id}/file/{file_id}']!.delete).toMatchObject({
      operationId: 'inquiry_file_destroy',
      responses: { 204: expect.anything() },
    });
    const files = doc.paths['/files/{business_id}/{object}']!;
    expect(files.put).toMatchObject({ operationId: 'files_update', security: [], 'x-extension': true });
    expect(files.get).toMatchObject({ operationId: 'files_retrieve', security: [], 'x-extension': true });
    expect(files.put.requestBody.content['application/octet-stream']).toBeDefined();
  });
});

describe('fileSet with BIZAPI_STORAGE=s3 (stubbed S3 client)', () => {
  it('issues S3 upload URLs, attaches a sealed copy of what the store holds, and lists S3 download URLs of it; DELETE removes the objects', async () => {
    const s3 = await buildS3TestApp();
    try {
      const b = await newBusiness(s3);
      const { url, path: p } = await presign(s3.app, b, 'Quote.HWP');
      const upload = new URL(url);
      expect(upload.origin + upload.pathname).toBe(`https://s3.example.com/bizapi-test/${p}`);
      expect(upload.searchParams.get('X-Amz-Expires')).toBe('60');
      expect(p).toMatch(/\.hwp$/);
      const bytes = Buffer.alloc(1234, 7);
      expect(s3Put(s3, url, bytes)).toBe(200); // the client's PUT to the URL, which S3 receives directly

      const id = await createInquiry(s3.app, b, { fileSet: [{ name: '견적서.hwp', file: p }] });
      const [item] = await fileSetOf(s3.app, b, id);
      const download = new URL(item!.file);
      // Served from the sealed copy under attached/, not from the upload key (which is removed).
      expect(download.origin + download.pathname).toMatch(
        new RegExp(`^https://s3\\.example\\.com/bizapi-test/attached/${p.split('/')[0]}/[0-9a-f]{32}\\.hwp$`),
      );
      expect(s3Get(s3, item!.file)).toEqual(bytes);
      expect(s3.objects.has(p)).toBe(false);
      expect(download.searchParams.get('X-Amz-Expires')).toBe('3660');
      expect(download.searchParams.get('X-Amz-Date')).toMatch(/^\d{8}T\d{4}00Z$/); // signed at the start of the minute
      expect(download.searchParams.get('response-content-type')).toBe('application/x-hwp');
      expect(download.searchParams.get('response-content-disposition')).toContain(
        `filename*=UTF-8''${encodeURIComponent('견적서.hwp')}`,
      );

      const deletesBefore = s3.sent.filter((c) => c instanceof DeleteObjectCommand).length;
      expect(
        (await apiClient(s3.app).call(b, { method: 'DELETE', url: `/v1/inquiry/${id}/file/${item!.id}` })).status,
      ).toBe(204);
      expect(s3Get(s3, item!.file)).toBeUndefined();
      expect([...s3.objects.keys()]).toEqual([]);
      // The sealed copy and the upload key (where a late PUT may have left an orphan).
      expect(s3.sent.filter((c) => c instanceof DeleteObjectCommand).length - deletesBefore).toBe(2);
      // The local storage's routes do not exist with S3.
      expect(
        (
          await apiClient(s3.app).raw(undefined, {
            method: 'PUT',
            url: `/files/${p}?expires=1&signature=x`,
            raw: { payload: 'x' },
          })
        ).statusCode,
      ).toBe(404);
    } finally {
      await s3.close();
    }
  });

  it('a second PUT to the upload URL after the attach cannot change the attached file, and the consumed path cannot be attached again', async () => {
    const s3 = await buildS3TestApp();
    try {
      const b = await newBusiness(s3);
      const first = await presign(s3.app, b, 'first.pdf');
      const second = await presign(s3.app, b, 'second.pdf');
      expect(s3Put(s3, first.url, '%PDF-1.7 first bytes')).toBe(200);
      expect(s3Put(s3, second.url, '%PDF-1.7 second file')).toBe(200);
      // POST sets the first file, PATCH appends the second: both ways seal.
      const id = await createInquiry(s3.app, b, { fileSet: [{ name: 'first.pdf', file: first.path }] });
      const patched = await apiClient(s3.app).call(b, {
        method: 'PATCH',
        url: `/v1/inquiry/${id}`,
        body: { fileSet: [{ name: 'second.pdf', file: second.path }] },
      });
      expect(patched.status).toBe(200);

      // S3 still accepts PUTs to both URLs until they expire, replacing whatever is at the upload keys…
      expect(s3Put(s3, first.url, 'evil replacement 1')).toBe(200);
      expect(s3Put(s3, second.url, 'evil replacement 2')).toBe(200);
      // …but the inquiry's files are served from the sealed copies: still the first bytes.
      const files = await fileSetOf(s3.app, b, id);
      expect(files.map((f) => f.name)).toEqual(['first.pdf', 'second.pdf']);
      expect(s3Get(s3, files[0]!.file)!.toString()).toBe('%PDF-1.7 first bytes');
      expect(s3Get(s3, files[1]!.file)!.toString()).toBe('%PDF-1.7 second file');

      // The upload paths are consumed: attaching them again is a 400, as for any attached file.
      const again = [
        { name: 'again.pdf', file: first.path },
        { name: 'again2.pdf', file: second.path },
      ];
      for (const res of [
        await apiClient(s3.app).call(b, { method: 'PATCH', url: `/v1/inquiry/${id}`, body: { fileSet: again } }),
        await apiClient(s3.app).call(b, { method: 'POST', url: '/v1/inquiry', body: { fileSet: again } }),
      ]) {
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          fileSet: ['Item 1 (file): This file is attached already.', 'Item 2 (file): This file is attached already.'],
          requestId: expect.any(String),
        });
      }
      const after = await fileSetOf(s3.app, b, id);
      expect(after.map((f) => f.id)).toEqual(files.map((f) => f.id));
      expect(s3Get(s3, after[0]!.file)!.toString()).toBe('%PDF-1.7 first bytes');

      // Deleting the attachment also removes the orphan of the late PUT; the path is gone for good.
      expect(
        (await apiClient(s3.app).call(b, { method: 'DELETE', url: `/v1/inquiry/${id}/file/${files[0]!.id}` })).status,
      ).toBe(204);
      expect(s3.objects.has(first.path)).toBe(false);
      const res = await apiClient(s3.app).call(b, {
        method: 'PATCH',
        url: `/v1/inquiry/${id}`,
        body: { fileSet: [{ name: 'x.pdf', file: first.path }] },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        fileSet: [`Item 1 (file): Invalid path "${first.path}" - object does not exist.`],
        requestId: expect.any(String),
      });
    } finally {
      await s3.close();
    }
  });

  it('the bytes are sealed the first time a fileSet names the path: a PUT after a refused attach does not change what a later attach serves', async () => {
    const s3 = await buildS3TestApp();
    try {
      const b = await newBusiness(s3);
      const { url, path: p } = await presign(s3.app, b);
      s3Put(s3, url, '%PDF-1.7 checked bytes');
      const refused = await apiClient(s3.app).call(b, {
        method: 'POST',
        url: '/v1/inquiry',
        body: { status: { id: 2147483647 }, fileSet: [{ name: 'a.pdf', file: p }] },
      });
      expect(refused.status).toBe(400);
      expect(refused.body).toHaveProperty(['status', 'id']);
      expect(s3Put(s3, url, 'later bytes')).toBe(200);
      const id = await createInquiry(s3.app, b, { fileSet: [{ name: 'a.pdf', file: p }] });
      const [item] = await fileSetOf(s3.app, b, id);
      expect(s3Get(s3, item!.file)!.toString()).toBe('%PDF-1.7 checked bytes');
    } finally {
      await s3.close();
    }
  });
});
