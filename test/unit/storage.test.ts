/**
 * The two storages behind the Storage interface (decisions §7 "Files"), without HTTP:
 * - local: strict object paths (no traversal, nothing outside the root), atomic size-limited writes, signed
 *   URLs that refuse any change and expire;
 * - S3: the SDK's presigner produces Signature V4 URLs of the right form (bucket, key, expiry, no checksum
 *   parameters that would break uploads), `exists` / `delete` send the right commands, and `seal` copies exactly
 *   the measured upload to a new key under `attached/` (412 on a replaced source: measure again). No real S3-compatible
 *   store is reachable here, so the client's `send` is stubbed; nothing leaves the process.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { contentDisposition } from '../../src/modules/file/content-disposition.ts';
import { extensionOf } from '../../src/modules/file/file-types.ts';
import { LocalStorage } from '../../src/modules/file/local-storage.ts';
import { newObjectPath, newSealedPath, parseObjectPath } from '../../src/modules/file/object-path.ts';
import { S3Storage, s3ClientConfig } from '../../src/modules/file/s3-storage.ts';
import { createStorage } from '../../src/modules/file/create-storage.ts';
import { PayloadTooLarge } from '../../src/shared/errors.ts';

const MASTER = Buffer.alloc(32, 7);
const HEX = '0123456789abcdef0123456789abcdef';

describe('object paths', () => {
  it('are <businessId>/<32 hex>.<ext>, unguessable and business-scoped', () => {
    const a = newObjectPath(42, 'pdf');
    const b = newObjectPath(42, 'pdf');
    expect(a).toMatch(/^42\/[0-9a-f]{32}\.pdf$/);
    expect(a).not.toBe(b);
    expect(parseObjectPath(a)).toEqual({ businessId: 42, extension: 'pdf' });
  });

  it.each([
    '../42/x.pdf',
    `42/../${HEX}.pdf`,
    `/42/${HEX}.pdf`,
    `42\\${HEX}.pdf`,
    `42/${HEX}.pdf\0`,
    `42/${HEX}\0.pdf`,
    `42%2F${HEX}.pdf`,
    `42/${HEX.slice(1)}%2e.pdf`,
    `42/${HEX.toUpperCase()}.pdf`,
    `42/${HEX}.PDF`,
    `42/${HEX}.exe`,
    `42/${HEX}.pdf\n`,
    `042/${HEX}.pdf`,
    `0/${HEX}.pdf`,
    `99999999999999999/${HEX}.pdf`,
    `9007199254740992/${HEX}.pdf`,
    `42/sub/${HEX}.pdf`,
    `42/${HEX}.pdf/..`,
    '',
  ])('refuses %j', (text) => {
    expect(parseObjectPath(text)).toBeUndefined();
  });

  it('sealed keys are attached/<businessId>/<new 32 hex>.<ext>, new on every call, and never an object path', () => {
    const p = newObjectPath(42, 'hwp');
    const a = newSealedPath(p);
    expect(a).toMatch(/^attached\/42\/[0-9a-f]{32}\.hwp$/);
    expect(a).not.toBe(`attached/${p}`);
    expect(newSealedPath(p)).not.toBe(a);
    expect(parseObjectPath(a)).toBeUndefined();
    expect(() => newSealedPath('../42/x.pdf')).toThrow(/Invalid object path/);
  });

  it('knows the 13 extensions of the reference, in any letter case', () => {
    for (const ext of ['pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'hwp', 'jpg', 'jpeg', 'png', 'gif', 'zip']) {
      expect(extensionOf(`a.${ext}`)).toBe(ext);
      expect(extensionOf(`A.${ext.toUpperCase()}`)).toBe(ext);
    }
    for (const name of ['a.exe', 'a.svg', 'a.html', 'pdf', 'a.pdf.exe', 'a.', 'a.toString', 'a.constructor']) {
      expect(extensionOf(name), name).toBeUndefined();
    }
  });
});

describe('contentDisposition', () => {
  it('offers the name as an attachment, with an ASCII fallback that cannot break the header', () => {
    expect(contentDisposition('견적서 "v2".pdf')).toBe(
      `attachment; filename="___ _v2_.pdf"; filename*=UTF-8''%EA%B2%AC%EC%A0%81%EC%84%9C%20%22v2%22.pdf`,
    );
    expect(contentDisposition("it's (1).pdf")).toBe(
      `attachment; filename="it's (1).pdf"; filename*=UTF-8''it%27s%20%281%29.pdf`,
    );
  });
});

describe('LocalStorage', () => {
  let root: string;
  let storage: LocalStorage;
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-storage-'));
    storage = new LocalStorage(path.join(root, 'files'), MASTER);
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  afterEach(() => vi.useRealTimers());

  it('stores, reports, reads and deletes an object under its root', async () => {
    const p = newObjectPath(3, 'png');
    expect(await storage.exists(p)).toBeUndefined();
    const stored = await storage.put(p, Readable.from([Buffer.from('ab'), Buffer.from('cd')]), { maxBytes: 4 });
    expect(stored).toEqual({ size: 4, md5: 'e2fc714c4727ee9395f324cd2e7f331f' });
    expect(fs.readFileSync(path.join(root, 'files', p), 'utf8')).toBe('abcd');
    expect(await storage.exists(p)).toEqual({ size: 4 });
    const opened = await storage.open(p);
    const chunks: Buffer[] = [];
    for await (const c of opened!.stream) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('abcd');
    await storage.delete(p);
    expect(await storage.exists(p)).toBeUndefined();
    expect(await storage.open(p)).toBeUndefined();
    await storage.delete(p); // deleting a missing object is fine
  });

  it('refuses more than maxBytes and leaves nothing behind, not even a temporary file', async () => {
    const p = newObjectPath(3, 'zip');
    await expect(
      storage.put(p, Readable.from([Buffer.alloc(3), Buffer.alloc(3)]), { maxBytes: 5 }),
    ).rejects.toBeInstanceOf(PayloadTooLarge);
    expect(await storage.exists(p)).toBeUndefined();
    expect(fs.readdirSync(path.join(root, 'files', '.tmp'))).toEqual([]);
  });

  it('seals in place: the upload URL takes one PUT, so the upload path itself is served', async () => {
    const p = newObjectPath(3, 'pdf');
    expect(await storage.seal(p, { maxBytes: 10 })).toEqual({ status: 'missing' });
    await storage.put(p, Buffer.from('abcdef'), { maxBytes: 10 });
    expect(await storage.seal(p, { maxBytes: 5 })).toEqual({ status: 'too_large', size: 6 });
    expect(await storage.seal(p, { maxBytes: 6 })).toEqual({ status: 'sealed', size: 6, path: p });
    expect(await storage.exists(p)).toEqual({ size: 6 });
  });

  it('never touches a path that is not an object path', async () => {
    for (const bad of ['../../etc/passwd', `3/../../${HEX}.pdf`, '/etc/passwd', `3\\${HEX}.pdf`]) {
      await expect(storage.put(bad, Buffer.from('x'), { maxBytes: 10 })).rejects.toThrow(/Invalid object path/);
      await expect(storage.exists(bad)).rejects.toThrow(/Invalid object path/);
      await expect(storage.delete(bad)).rejects.toThrow(/Invalid object path/);
      await expect(storage.presignUpload(bad, { expiresInSeconds: 60, origin: 'http://x' })).rejects.toThrow(
        /Invalid object path/,
      );
    }
  });

  it('signs URLs that check out only unchanged, for their method, and until they expire', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-22T00:00:00Z'));
    const p = newObjectPath(3, 'pdf');
    const up = new URL(await storage.presignUpload(p, { expiresInSeconds: 60, origin: 'https://api.example.com' }));
    expect(up.origin + up.pathname).toBe(`https://api.example.com/files/${p}`);
    const q = Object.fromEntries(up.searchParams);
    expect(q.expires).toBe(String(Date.parse('2026-11-22T00:01:00Z') / 1000));
    expect(storage.checkUrl('PUT', p, q)).toBe('valid');
    expect(storage.checkUrl('GET', p, q)).toBe('invalid');
    expect(storage.checkUrl('PUT', newObjectPath(3, 'pdf'), q)).toBe('invalid');
    expect(storage.checkUrl('PUT', p, { ...q, expires: String(Number(q.expires) + 3600) })).toBe('invalid');
    const sig = q.signature!;
    expect(storage.checkUrl('PUT', p, { ...q, signature: `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}` })).toBe(
      'invalid',
    );
    expect(storage.checkUrl('PUT', p, { ...q, signature: `${sig}x` })).toBe('invalid');
    expect(storage.checkUrl('PUT', p, { expires: q.expires })).toBe('invalid');
    expect(storage.checkUrl('PUT', p, { ...q, signature: ['a', 'b'] })).toBe('invalid');
    expect(new LocalStorage(path.join(root, 'files'), Buffer.alloc(32, 8)).checkUrl('PUT', p, q)).toBe('invalid');
    vi.setSystemTime(new Date('2026-11-22T00:01:00Z'));
    expect(storage.checkUrl('PUT', p, q)).toBe('valid');
    vi.setSystemTime(new Date('2026-11-22T00:01:01Z'));
    expect(storage.checkUrl('PUT', p, q)).toBe('expired');

    const down = new URL(
      await storage.presignDownload(p, {
        expiresInSeconds: 3600,
        origin: 'https://api.example.com',
        name: '견적서 1.pdf',
        contentType: 'application/pdf',
      }),
    );
    const dq = Object.fromEntries(down.searchParams);
    expect(dq.name).toBe('견적서 1.pdf');
    expect(storage.checkUrl('GET', p, dq)).toBe('valid');
    expect(storage.checkUrl('GET', p, { ...dq, name: 'other.pdf' })).toBe('invalid');
    expect(storage.checkUrl('PUT', p, dq)).toBe('invalid');
  });
});

describe('S3Storage', () => {
  const config = loadConfig({
    BIZAPI_STORAGE: 's3',
    S3_BUCKET: 'bizapi-files',
    S3_REGION: 'ap-northeast-2',
    S3_ENDPOINT: 'https://s3.example.com',
    S3_FORCE_PATH_STYLE: 'true',
    S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
    S3_SECRET_ACCESS_KEY: 'secret-example',
  });

  it('is what BIZAPI_STORAGE=s3 selects, configured from S3_*', async () => {
    expect(await createStorage(config, MASTER)).toBeInstanceOf(S3Storage);
    expect(await createStorage(loadConfig({}), MASTER)).toBeInstanceOf(LocalStorage);
    expect(s3ClientConfig(config.s3!)).toMatchObject({
      region: 'ap-northeast-2',
      endpoint: 'https://s3.example.com',
      forcePathStyle: true,
      credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret-example' },
    });
    expect(s3ClientConfig(loadConfig({ BIZAPI_STORAGE: 's3', S3_BUCKET: 'b' }).s3!)).not.toHaveProperty('credentials');
  });

  it('pre-signs a PUT upload URL with the SDK: path style, the object key, the expiry, no checksum', async () => {
    const storage = new S3Storage(config.s3!);
    const p = newObjectPath(9, 'pdf');
    const url = new URL(await storage.presignUpload(p, { expiresInSeconds: 60, origin: 'ignored' }));
    expect(url.origin).toBe('https://s3.example.com');
    expect(url.pathname).toBe(`/bizapi-files/${p}`);
    expect(url.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('60');
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(/^AKIAEXAMPLE\/\d{8}\/ap-northeast-2\/s3\/aws4_request$/);
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
    expect([...url.searchParams.keys()].filter((k) => /checksum/i.test(k))).toEqual([]);
  });

  it('pre-signs a download URL that names the file and its media type, virtual-hosted without path style', async () => {
    const storage = new S3Storage({ ...config.s3!, endpoint: undefined, forcePathStyle: false });
    const p = newObjectPath(9, 'hwp');
    const url = new URL(
      await storage.presignDownload(p, {
        expiresInSeconds: 3600,
        origin: 'ignored',
        name: '계약서.hwp',
        contentType: 'application/x-hwp',
      }),
    );
    expect(url.host).toBe('bizapi-files.s3.ap-northeast-2.amazonaws.com');
    expect(url.pathname).toBe(`/${p}`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('3600');
    expect(url.searchParams.get('response-content-type')).toBe('application/x-hwp');
    expect(url.searchParams.get('response-content-disposition')).toBe(contentDisposition('계약서.hwp'));
  });

  it('asks HeadObject for exists (size, or undefined on 404) and sends DeleteObject / PutObject', async () => {
    const client = new S3Client(s3ClientConfig(config.s3!));
    const sent: unknown[] = [];
    const send = vi.spyOn(client, 'send').mockImplementation(async (command: unknown) => {
      sent.push(command);
      if (command instanceof HeadObjectCommand) {
        if (command.input.Key?.startsWith('9/')) return { ContentLength: 1234 };
        throw Object.assign(new Error('NotFound'), { name: 'NotFound', $metadata: { httpStatusCode: 404 } });
      }
      return {};
    });
    const storage = new S3Storage(config.s3!, client);
    const p = newObjectPath(9, 'pdf');
    expect(await storage.exists(p)).toEqual({ size: 1234 });
    expect(await storage.exists(newObjectPath(10, 'pdf'))).toBeUndefined();
    await storage.delete(p);
    expect(await storage.put(p, Readable.from([Buffer.from('abc')]), { maxBytes: 3 })).toEqual({
      size: 3,
      md5: '900150983cd24fb0d6963f7d28e17f72',
    });
    await expect(storage.put(p, Buffer.from('abcd'), { maxBytes: 3 })).rejects.toBeInstanceOf(PayloadTooLarge);
    expect(sent.map((c) => (c as object).constructor)).toEqual([
      HeadObjectCommand,
      HeadObjectCommand,
      DeleteObjectCommand,
      PutObjectCommand,
    ]);
    expect((sent[0] as HeadObjectCommand).input).toEqual({ Bucket: 'bizapi-files', Key: p });
    expect((sent[3] as PutObjectCommand).input).toMatchObject({ Bucket: 'bizapi-files', Key: p });
    send.mockRestore();
  });

  it('seals an upload: HeadObject, then CopyObject of exactly the measured bytes (CopySourceIfMatch) to a new key under attached/', async () => {
    const client = new S3Client(s3ClientConfig(config.s3!));
    const sent: object[] = [];
    let etag = '"e1"';
    let copyAnswers: (Error | undefined)[] = [];
    vi.spyOn(client, 'send').mockImplementation(async (command: unknown) => {
      sent.push(command as object);
      if (command instanceof HeadObjectCommand)
        return { ContentLength: command.input.Key!.endsWith('.zip') ? 5000 : 10, ETag: etag };
      if (command instanceof CopyObjectCommand) {
        const answer = copyAnswers.shift();
        if (answer) throw answer;
      }
      return {};
    });
    const storage = new S3Storage(config.s3!, client);
    const p = newObjectPath(9, 'pdf');
    const sealed = await storage.seal(p, { maxBytes: 10 });
    expect(sealed).toEqual({
      status: 'sealed',
      size: 10,
      path: expect.stringMatching(/^attached\/9\/[0-9a-f]{32}\.pdf$/),
    });
    expect(sent.map((c) => c.constructor)).toEqual([HeadObjectCommand, CopyObjectCommand]);
    expect((sent[1] as CopyObjectCommand).input).toEqual({
      Bucket: 'bizapi-files',
      Key: (sealed as { path: string }).path,
      CopySource: `bizapi-files/${p}`,
      CopySourceIfMatch: '"e1"',
    });

    // Over the limit: measured, not copied.
    sent.length = 0;
    expect(await storage.seal(newObjectPath(9, 'zip'), { maxBytes: 4999 })).toEqual({
      status: 'too_large',
      size: 5000,
    });
    expect(sent.map((c) => c.constructor)).toEqual([HeadObjectCommand]);

    // Replaced between measuring and copying (412): measured again with the new ETag, copied once it holds.
    sent.length = 0;
    copyAnswers = [
      Object.assign(new Error('PreconditionFailed'), {
        name: 'PreconditionFailed',
        $metadata: { httpStatusCode: 412 },
      }),
    ];
    etag = '"e2"';
    expect(await storage.seal(p, { maxBytes: 10 })).toMatchObject({ status: 'sealed', size: 10 });
    expect(sent.map((c) => c.constructor)).toEqual([
      HeadObjectCommand,
      CopyObjectCommand,
      HeadObjectCommand,
      CopyObjectCommand,
    ]);
    expect((sent[3] as CopyObjectCommand).input.CopySourceIfMatch).toBe('"e2"');

    // Replaced on every attempt: 3 tries, then `changed`. Other errors go through.
    const preconditionFailed = () =>
      Object.assign(new Error('PreconditionFailed'), {
        name: 'PreconditionFailed',
        $metadata: { httpStatusCode: 412 },
      });
    copyAnswers = [preconditionFailed(), preconditionFailed(), preconditionFailed()];
    expect(await storage.seal(p, { maxBytes: 10 })).toEqual({ status: 'changed' });
    copyAnswers = [
      Object.assign(new Error('AccessDenied'), { name: 'AccessDenied', $metadata: { httpStatusCode: 403 } }),
    ];
    await expect(storage.seal(p, { maxBytes: 10 })).rejects.toThrow('AccessDenied');
  });

  it('lets other S3 errors through', async () => {
    const client = new S3Client(s3ClientConfig(config.s3!));
    vi.spyOn(client, 'send').mockRejectedValue(
      Object.assign(new Error('AccessDenied'), { name: 'AccessDenied', $metadata: { httpStatusCode: 403 } }),
    );
    await expect(new S3Storage(config.s3!, client).exists(newObjectPath(9, 'pdf'))).rejects.toThrow('AccessDenied');
  });
});

describe('downloadUrlWindow', () => {
  it('signs at the start of the minute for the lifetime plus a minute (at most 7 days)', async () => {
    const { downloadUrlWindow } = await import('../../src/modules/file/file.service.ts');
    const at = (iso: string) => Date.parse(iso);
    const start = at('2026-11-22T09:00:00Z') / 1000;
    expect(downloadUrlWindow(3600, at('2026-11-22T09:00:00Z'))).toEqual({ signedAt: start, expiresInSeconds: 3660 });
    expect(downloadUrlWindow(3600, at('2026-11-22T09:00:59.999Z'))).toEqual({
      signedAt: start,
      expiresInSeconds: 3660,
    });
    expect(downloadUrlWindow(3600, at('2026-11-22T09:01:00Z'))).toEqual({
      signedAt: start + 60,
      expiresInSeconds: 3660,
    });
    expect(downloadUrlWindow(10, at('2026-11-22T09:00:17Z'))).toEqual({ signedAt: start + 10, expiresInSeconds: 20 });
    expect(downloadUrlWindow(604800, at('2026-11-22T09:00:17Z')).expiresInSeconds).toBe(604800);
  });
});
