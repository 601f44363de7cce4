/**
 * Attachments, the failing paths (decisions §2 shapes, §7 "Files"): presign bodies with a wrong extension;
 * pre-signed upload URLs that are expired, used, tampered with, too large or not paths at all; `fileSet`
 * entries naming anything but an object this business uploaded; more than 30 files; file deletes of
 * another inquiry or business. Every refusal is a DRF-shaped body with `requestId`, and none writes anything.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { CopyObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { newBusiness } from '../../setup/factories.ts';
import {
  buildFileTestApp,
  buildS3TestApp,
  createInquiry,
  type FileTestApp,
  fileSetOf,
  get,
  inquiryWithFile,
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

const ALLOWED = 'pdf, doc, docx, xls, xlsx, ppt, pptx, hwp, jpg, jpeg, png, gif, zip';

function stored(p: string): boolean {
  return fs.existsSync(path.join(t.dataDir, 'files', p));
}
function expectDetail(
  res: { statusCode: number; body: string; headers: Record<string, unknown> },
  status: number,
  code?: string,
) {
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
    const res = await call(b, { method: 'POST', url: '/v1/presigned', body: { name } });
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
      [{ name: 'a\u0000.pdf' }, 'Null characters are not allowed.'],
      [{ name: 'a\u0007.pdf' }, 'File names may not contain control characters.'],
      [{ name: 'a\n.pdf' }, 'File names may not contain control characters.'],
    ];
    for (const [body, message] of cases) {
      const res = await call(b, { method: 'POST', url: '/v1/presigned', body });
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
    const download = await t.app.storage.presignDownload(p, {
      expiresInSeconds: 60,
      origin: 'http://localhost',
      name: 'a.pdf',
      contentType: 'application/pdf',
    });
    expectDetail(await put(t.app, download, 'overwrite'), 403, 'url_invalid');
    expect((await get(t.app, download)).body).toBe('bytes');
  });

  it('over BIZAPI_UPLOAD_MAX_BYTES → 413, declared or streamed, and nothing is stored', async () => {
    const small = await buildFileTestApp({ BIZAPI_UPLOAD_MAX_BYTES: '1000' });
    try {
      const b = await newBusiness(small);
      const declared = await presign(small.app, b);
      expectDetail(await put(small.app, declared.url, Buffer.alloc(1001)), 413, 'payload_too_large');
      const streamedUrl = await presign(small.app, b);
      const streamed = await apiClient(small.app).raw(undefined, {
        method: 'PUT',
        url: local(streamedUrl.url),
        raw: { payload: Readable.from([Buffer.alloc(600), Buffer.alloc(600)]) },
        headers: { 'content-type': 'application/pdf' },
      });
      expectDetail(streamed, 413, 'payload_too_large');
      expect(JSON.parse(streamed.body).detail).toBe('Request body is larger than 1000 bytes.');
      for (const p of [declared.path, streamedUrl.path])
        expect(fs.existsSync(path.join(small.dataDir, 'files', p))).toBe(false);
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
      const res = await raw(undefined, { method: 'PUT', url: `${bad}${query}`, raw: { payload: 'evil' } });
      expect(res.statusCode, bad).toBe(404);
      expect(JSON.parse(res.body)).toEqual({
        detail: 'Not found.',
        code: 'not_found',
        requestId: res.headers['x-request-id'],
      });
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
    const download = await t.app.storage.presignDownload(p, {
      expiresInSeconds: 3600,
      origin: 'http://localhost',
      name: 'a.pdf',
      contentType: 'application/pdf',
    });
    expectDetail(await get(t.app, download.replace('name=a.pdf', 'name=evil.html')), 403, 'url_invalid');
    expectDetail(
      await get(
        t.app,
        download.replace(/expires=(\d+)/, (_m, e: string) => `expires=${Number(e) + 1}`),
      ),
      403,
      'url_invalid',
    );
    expectDetail(await get(t.app, download.replace(/signature=.*$/, 'signature=x')), 403, 'url_invalid');
    expect((await get(t.app, download)).statusCode).toBe(200);
    vi.setSystemTime(new Date('2026-11-22T10:00:01Z'));
    expectDetail(await get(t.app, download), 403, 'url_expired');
    vi.setSystemTime(new Date('2026-11-22T09:30:00Z'));
    await t.app.storage.delete(p);
    expectDetail(await get(t.app, download), 404, 'not_found');
  });
});

/** A 400 whose body is exactly `{fileSet: messages}` plus the request id. */
function expectFileSet400(res: { status: number; body: any; headers: Record<string, unknown> }, messages: string[]) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body).toEqual({ fileSet: messages, requestId: res.headers['x-request-id'] });
}
const NOT_A_PATH = 'Not a valid file path. Use the `path` returned by POST /v1/presigned.';

describe('fileSet entries that do not name an uploaded object of this business → 400 on fileSet', () => {
  it.each([
    ['parent traversal', (b: number) => `../${b}/${'a'.repeat(32)}.pdf`],
    ['traversal inside', (b: number) => `${b}/../${b}/${'a'.repeat(32)}.pdf`],
    ['absolute path', () => '/etc/passwd'],
    ['absolute object path', (b: number) => `/${b}/${'a'.repeat(32)}.pdf`],
    ['backslashes', (b: number) => `${b}\\${'a'.repeat(32)}.pdf`],
    ['Windows traversal', () => '..\\..\\windows\\win.ini'],
    ['URL-encoded slash', (b: number) => `${b}%2F${'a'.repeat(32)}.pdf`],
    ['URL-encoded traversal', () => '%2e%2e%2f%2e%2e%2fetc%2fpasswd'],
    ['double-encoded traversal', () => '%252e%252e%252fetc'],
    ['a whole URL', (b: number) => `http://localhost/files/${b}/${'a'.repeat(32)}.pdf`],
    ['another extension', (b: number) => `${b}/${'a'.repeat(32)}.exe`],
    ['upper case', (b: number) => `${b}/${'A'.repeat(32)}.PDF`],
    ['trailing newline', (b: number) => `${b}/${'a'.repeat(32)}.pdf\n`],
    ['empty', () => ''],
  ])('%s', async (_label, make) => {
    const b = await newBusiness(t);
    const res = await call(b, {
      method: 'POST',
      url: '/v1/inquiry',
      body: { fileSet: [{ name: 'x.pdf', file: make(b.businessId) }] },
    });
    expectFileSet400(res, [`Item 1 (file): ${NOT_A_PATH}`]);
  });

  it('another business’s uploaded path reads exactly like a path that was never issued', async () => {
    const owner = await newBusiness(t);
    const caller = await newBusiness(t);
    const foreign = await upload(t.app, owner);
    const invented = `${caller.businessId}/${'c'.repeat(32)}.pdf`;
    const res = await call(caller, {
      method: 'POST',
      url: '/v1/inquiry',
      body: {
        fileSet: [
          { name: 'a.pdf', file: foreign },
          { name: 'b.pdf', file: invented },
        ],
      },
    });
    expectFileSet400(res, [
      `Item 1 (file): Invalid path "${foreign}" - object does not exist.`,
      `Item 2 (file): Invalid path "${invented}" - object does not exist.`,
    ]);
    // Rewriting the business part of a foreign path does not help either.
    const rewritten = foreign.replace(/^\d+/, String(caller.businessId));
    const again = await call(caller, {
      method: 'POST',
      url: '/v1/inquiry',
      body: { fileSet: [{ name: 'a.pdf', file: rewritten }] },
    });
    expectFileSet400(again, [`Item 1 (file): Invalid path "${rewritten}" - object does not exist.`]);
  });

  it('an issued path whose bytes never arrived → not uploaded yet; after the PUT it attaches', async () => {
    const b = await newBusiness(t);
    const { url, path: p } = await presign(t.app, b);
    const body = { fileSet: [{ name: 'late.pdf', file: p }] };
    expectFileSet400(await call(b, { method: 'POST', url: '/v1/inquiry', body }), [
      `Item 1 (file): The file at "${p}" has not been uploaded yet.`,
    ]);
    await put(t.app, url, 'now');
    expect((await call(b, { method: 'POST', url: '/v1/inquiry', body })).status).toBe(201);
  });

  it('a file attached already (here or to another inquiry), or given twice → 400', async () => {
    const b = await newBusiness(t);
    const { inquiryId, path: attached } = await inquiryWithFile(t.app, b);
    const other = await createInquiry(t.app, b);
    const res = await call(b, {
      method: 'PATCH',
      url: `/v1/inquiry/${other}`,
      body: { fileSet: [{ name: 'x.pdf', file: attached }] },
    });
    expectFileSet400(res, ['Item 1 (file): This file is attached already.']);
    const again = await call(b, {
      method: 'PATCH',
      url: `/v1/inquiry/${inquiryId}`,
      body: { fileSet: [{ name: 'x.pdf', file: attached }] },
    });
    expectFileSet400(again, ['Item 1 (file): This file is attached already.']);
    const fresh = await upload(t.app, b);
    const twice = await call(b, {
      method: 'PATCH',
      url: `/v1/inquiry/${other}`,
      body: {
        fileSet: [
          { name: 'a.pdf', file: fresh },
          { name: 'b.pdf', file: fresh },
        ],
      },
    });
    expectFileSet400(twice, ['Item 2 (file): The same file is given more than once.']);
    expect(await fileSetOf(t.app, b, other)).toEqual([]);
  });

  it('entries without name or file, with NUL, or not objects → item-level messages', async () => {
    const b = await newBusiness(t);
    const res = await call(b, {
      method: 'POST',
      url: '/v1/inquiry',
      body: { fileSet: [{ file: 'x' }, { name: 'a.pdf' }, 'a.pdf', { name: '', file: 'x' }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.fileSet).toEqual(
      expect.arrayContaining([
        'Item 1 (name): This field is required.',
        'Item 2 (file): This field is required.',
        'Item 3: Invalid data. Expected a dictionary, but got str.',
        'Item 4 (name): This field may not be blank.',
      ]),
    );
    const nul = await call(b, {
      method: 'POST',
      url: '/v1/inquiry',
      body: { fileSet: [{ name: 'a.pdf', file: `${b.businessId}/${'a'.repeat(32)}.pdf\u0000.png` }] },
    });
    expectFileSet400(nul, ['Item 1 (file): Null characters are not allowed.']);
    const notList = await call(b, {
      method: 'POST',
      url: '/v1/inquiry',
      body: { fileSet: { name: 'a.pdf', file: 'x' } },
    });
    expectFileSet400(notList, ['Expected a list of items but got type "dict".']);
  });

  it('one bad entry writes nothing: no inquiry, no attachment, the good file stays attachable', async () => {
    const b = await newBusiness(t);
    const good = await upload(t.app, b);
    const before = (await call(b, { method: 'GET', url: '/v1/inquiry' })).body.results.length;
    const res = await call(b, {
      method: 'POST',
      url: '/v1/inquiry',
      body: {
        name: 'Half',
        fileSet: [
          { name: 'ok.pdf', file: good },
          { name: 'bad.pdf', file: '../x.pdf' },
        ],
      },
    });
    expectFileSet400(res, [`Item 2 (file): ${NOT_A_PATH}`]);
    expect((await call(b, { method: 'GET', url: '/v1/inquiry' })).body.results.length).toBe(before);
    expect(
      (await call(b, { method: 'POST', url: '/v1/inquiry', body: { fileSet: [{ name: 'ok.pdf', file: good }] } }))
        .status,
    ).toBe(201);
  });
});

describe('at most 30 files per inquiry (spec: Limits)', () => {
  it('POST with 31 entries → 400; 30 attach', async () => {
    const b = await newBusiness(t);
    const paths = await Promise.all(Array.from({ length: 31 }, (_, i) => upload(t.app, b, `f${i}.png`, `bytes ${i}`)));
    const entries = paths.map((p, i) => ({ name: `f${i}.png`, file: p }));
    expectFileSet400(await call(b, { method: 'POST', url: '/v1/inquiry', body: { fileSet: entries } }), [
      'Ensure this field has no more than 30 elements.',
    ]);
    const id = await createInquiry(t.app, b, { fileSet: entries.slice(0, 30) });
    expect(await fileSetOf(t.app, b, id)).toHaveLength(30);

    // The 31st by PATCH: refused, and the whole PATCH with it.
    const res = await call(b, {
      method: 'PATCH',
      url: `/v1/inquiry/${id}`,
      body: { name: 'Changed', fileSet: [entries[30]] },
    });
    expectFileSet400(res, ['An inquiry holds at most 30 files: this one has 30, and 1 more were sent.']);
    const detail = await call(b, { method: 'GET', url: `/v1/inquiry/${id}` });
    expect(detail.body.name).not.toBe('Changed');
    expect(detail.body.fileSet).toHaveLength(30);

    // After a delete there is room for one again.
    const first = (detail.body.fileSet as { id: number }[])[0]!;
    expect((await call(b, { method: 'DELETE', url: `/v1/inquiry/${id}/file/${first.id}` })).status).toBe(204);
    expect(
      (await call(b, { method: 'PATCH', url: `/v1/inquiry/${id}`, body: { fileSet: [entries[30]] } })).status,
    ).toBe(200);
    expect(await fileSetOf(t.app, b, id)).toHaveLength(30);
  });

  it('PATCH counts existing plus new: 29 + 2 → 400, 29 + 1 fits', async () => {
    const b = await newBusiness(t);
    const paths = await Promise.all(Array.from({ length: 31 }, (_, i) => upload(t.app, b, `g${i}.jpg`, `g${i}`)));
    const entries = paths.map((p, i) => ({ name: `g${i}.jpg`, file: p }));
    const id = await createInquiry(t.app, b, { fileSet: entries.slice(0, 29) });
    expectFileSet400(
      await call(b, { method: 'PATCH', url: `/v1/inquiry/${id}`, body: { fileSet: entries.slice(29, 31) } }),
      ['An inquiry holds at most 30 files: this one has 29, and 2 more were sent.'],
    );
    expect(
      (await call(b, { method: 'PATCH', url: `/v1/inquiry/${id}`, body: { fileSet: entries.slice(29, 30) } })).status,
    ).toBe(200);
  });
});

describe('DELETE /v1/inquiry/{inquiry_id}/file/{file_id} → 404', () => {
  it('for a file of another inquiry of the same business, and the file stays', async () => {
    const b = await newBusiness(t);
    const { inquiryId, fileId } = await inquiryWithFile(t.app, b, 'mine');
    const other = await createInquiry(t.app, b);
    const res = await call(b, { method: 'DELETE', url: `/v1/inquiry/${other}/file/${fileId}` });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'Not found.', code: 'not_found', requestId: res.headers['x-request-id'] });
    const [item] = await fileSetOf(t.app, b, inquiryId);
    expect(item!.id).toBe(fileId);
    expect((await get(t.app, item!.file)).body).toBe('mine');
  });

  it('for a file of another business, even through that business’s inquiry id', async () => {
    const owner = await newBusiness(t);
    const stranger = await newBusiness(t);
    const { inquiryId, fileId } = await inquiryWithFile(t.app, owner);
    const strangerInquiry = await createInquiry(t.app, stranger);
    for (const url of [`/v1/inquiry/${inquiryId}/file/${fileId}`, `/v1/inquiry/${strangerInquiry}/file/${fileId}`]) {
      const res = await call(stranger, { method: 'DELETE', url });
      expect(res.status, url).toBe(404);
      expect(res.body.detail).toBe('Not found.');
    }
    expect(await fileSetOf(t.app, owner, inquiryId)).toHaveLength(1);
  });

  it('for an unknown, deleted or non-integer id, and a deleted inquiry', async () => {
    const b = await newBusiness(t);
    const { inquiryId, fileId } = await inquiryWithFile(t.app, b);
    for (const url of [
      `/v1/inquiry/${inquiryId}/file/999999`,
      `/v1/inquiry/${inquiryId}/file/abc`,
      `/v1/inquiry/${inquiryId}/file/0`,
      `/v1/inquiry/999999/file/${fileId}`,
    ]) {
      expect((await call(b, { method: 'DELETE', url })).status, url).toBe(404);
    }
    expect((await call(b, { method: 'DELETE', url: `/v1/inquiry/${inquiryId}/file/${fileId}` })).status).toBe(204);
    expect((await call(b, { method: 'DELETE', url: `/v1/inquiry/${inquiryId}/file/${fileId}` })).status).toBe(404);
  });

  it('a deleted file’s path cannot be attached again', async () => {
    const b = await newBusiness(t);
    const { inquiryId, fileId, path: p } = await inquiryWithFile(t.app, b);
    await call(b, { method: 'DELETE', url: `/v1/inquiry/${inquiryId}/file/${fileId}` });
    expectFileSet400(
      await call(b, {
        method: 'PATCH',
        url: `/v1/inquiry/${inquiryId}`,
        body: { fileSet: [{ name: 'x.pdf', file: p }] },
      }),
      [`Item 1 (file): Invalid path "${p}" - object does not exist.`],
    );
  });
});

describe('fileSet with BIZAPI_STORAGE=s3 (stubbed S3 client)', () => {
  it('a path the store does not hold → not uploaded yet; one over BIZAPI_UPLOAD_MAX_BYTES → 400', async () => {
    const s3 = await buildS3TestApp({ BIZAPI_UPLOAD_MAX_BYTES: '1000' });
    try {
      const b = await newBusiness(s3);
      const missing = await presign(s3.app, b);
      const big = await presign(s3.app, b);
      s3.objects.set(big.path, Buffer.alloc(1001));
      const res = await apiClient(s3.app).call(b, {
        method: 'POST',
        url: '/v1/inquiry',
        body: {
          fileSet: [
            { name: 'a.pdf', file: missing.path },
            { name: 'b.pdf', file: big.path },
          ],
        },
      });
      expectFileSet400(res, [
        `Item 1 (file): The file at "${missing.path}" has not been uploaded yet.`,
        'Item 2 (file): The file is larger than 1000 bytes.',
      ]);
      s3.objects.set(missing.path, Buffer.alloc(1000));
      expect(
        (
          await apiClient(s3.app).call(b, {
            method: 'POST',
            url: '/v1/inquiry',
            body: { fileSet: [{ name: 'a.pdf', file: missing.path }] },
          })
        ).status,
      ).toBe(201);
    } finally {
      await s3.close();
    }
  });

  it('an upload replaced by a larger one between measuring and copying is measured again: over the limit → 400, nothing sealed', async () => {
    const s3 = await buildS3TestApp({ BIZAPI_UPLOAD_MAX_BYTES: '1000' });
    try {
      const b = await newBusiness(s3);
      const { url, path: p } = await presign(s3.app, b);
      s3Put(s3, url, Buffer.alloc(10, 1));
      // A second PUT lands after the server measured the object and before it copies it.
      s3.beforeSend = (command) => {
        if (command instanceof CopyObjectCommand) s3.objects.set(p, Buffer.alloc(1001, 2));
      };
      expectFileSet400(
        await apiClient(s3.app).call(b, {
          method: 'POST',
          url: '/v1/inquiry',
          body: { fileSet: [{ name: 'a.pdf', file: p }] },
        }),
        ['Item 1 (file): The file is larger than 1000 bytes.'],
      );
      s3.beforeSend = undefined;
      expect([...s3.objects.keys()]).toEqual([p]); // no copy of the large bytes
      // A new small upload to the same URL (before it expires) can still be attached: nothing was sealed.
      s3Put(s3, url, Buffer.alloc(20, 3));
      const id = await createInquiry(s3.app, b, { fileSet: [{ name: 'a.pdf', file: p }] });
      expect(s3Get(s3, (await fileSetOf(s3.app, b, id))[0]!.file)).toEqual(Buffer.alloc(20, 3));
    } finally {
      await s3.close();
    }
  });

  it('two requests attaching the same upload at once: one 201, one 400 on fileSet; one sealed copy, served to the winner', async () => {
    const s3 = await buildS3TestApp();
    try {
      const b = await newBusiness(s3);
      const { url, path: p } = await presign(s3.app, b);
      s3Put(s3, url, '%PDF-1.7 raced');
      const body = { fileSet: [{ name: 'a.pdf', file: p }] };
      const results = await Promise.all([
        apiClient(s3.app).call(b, { method: 'POST', url: '/v1/inquiry', body }),
        apiClient(s3.app).call(b, { method: 'POST', url: '/v1/inquiry', body }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([201, 400]);
      const loser = results.find((r) => r.status === 400)!;
      expect(loser.body.fileSet).toHaveLength(1);
      expect(loser.body.fileSet[0]).toMatch(
        /^(Item 1 \(file\): This file is attached already\.|A file of this request is attached already \(by another request at the same time\)\.)$/,
      );
      const winner = results.find((r) => r.status === 201)!;
      const [item] = await fileSetOf(s3.app, b, winner.body.id);
      expect(s3Get(s3, item!.file)!.toString()).toBe('%PDF-1.7 raced');
      expect([...s3.objects.keys()]).toEqual([new URL(item!.file).pathname.slice('/bizapi-test/'.length)]);
      const list = await apiClient(s3.app).call(b, { method: 'GET', url: '/v1/inquiry' });
      expect(list.body.results).toHaveLength(1);
    } finally {
      await s3.close();
    }
  });

  it('an upload replaced on every copy attempt → 400 (kept changing), nothing sealed', async () => {
    const s3 = await buildS3TestApp();
    try {
      const b = await newBusiness(s3);
      const { url, path: p } = await presign(s3.app, b);
      s3Put(s3, url, 'v0');
      let n = 0;
      s3.beforeSend = (command) => {
        if (command instanceof CopyObjectCommand) s3.objects.set(p, Buffer.from(`v${++n}`));
      };
      expectFileSet400(
        await apiClient(s3.app).call(b, {
          method: 'POST',
          url: '/v1/inquiry',
          body: { fileSet: [{ name: 'a.pdf', file: p }] },
        }),
        [`Item 1 (file): The file at "${p}" kept changing while it was being attached. Attach it again.`],
      );
      expect(n).toBe(3);
      expect([...s3.objects.keys()]).toEqual([p]);
    } finally {
      await s3.close();
    }
  });
});
