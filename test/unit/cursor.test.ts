/**
 * Keyset pagination pieces (decisions §4): the opaque, tamper-evident cursor, the page size rules and the
 * absolute `next` / `previous` links.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CursorCodec,
  DEFAULT_PAGE_SIZE,
  InvalidCursor,
  MAX_PAGE_SIZE,
  fetchPage,
  newestFirst,
  pageLink,
  pageSizeOf,
} from '../../src/shared/pagination.ts';
import { ApiError } from '../../src/shared/errors.ts';

const masterKey = Buffer.alloc(32, 7);
const otherKey = Buffer.alloc(32, 8);
const codec = new CursorCodec(masterKey);
/** The list a cursor belongs to, as readCursor / toPageBody name it. */
const SCOPE = 'GET /v1/client';

/** Expects `fn` to throw an {@link InvalidCursor} rendered as 404 `{"detail": "Invalid cursor"}`. */
function expectInvalid(fn: () => unknown): void {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(InvalidCursor);
  const err = caught as InvalidCursor;
  expect(err).toBeInstanceOf(ApiError);
  expect(err.statusCode).toBe(404);
  expect(err.toBody()).toEqual({ detail: 'Invalid cursor' });
}

/**
 * Signs an arbitrary payload the way the codec does (white box), to check that a correctly tagged but
 * structurally wrong payload is still refused. The first test below pins the derivation to the codec.
 */
function forge(key: Buffer, json: string): string {
  const derived = createHmac('sha256', key).update('bizapi cursor v1').digest();
  const payload = Buffer.from(json).toString('base64url');
  const tag = createHmac('sha256', derived)
    .update(`${SCOPE}\n${payload}`)
    .digest()
    .subarray(0, 12)
    .toString('base64url');
  return `${payload}.${tag}`;
}

describe('CursorCodec', () => {
  it('round-trips a forward position', () => {
    const position = { values: ['2026-11-22T05:31:56.123Z', 42], reverse: false };
    expect(codec.decode(codec.encode(position, SCOPE), SCOPE)).toEqual(position);
  });

  it('round-trips the reverse flag', () => {
    const position = { values: ['2026-01-01T00:00:00.000Z', 1], reverse: true };
    const decoded = codec.decode(codec.encode(position, SCOPE), SCOPE);
    expect(decoded.reverse).toBe(true);
    expect(decoded).toEqual(position);
  });

  it('round-trips unicode strings, mixed strings and numbers, and a single value', () => {
    for (const values of [['주식회사 테스트', 'ü€😀', 7], [0, -3, 1.5, ''], ['a.b.c'], [Number.MAX_SAFE_INTEGER]]) {
      for (const reverse of [false, true]) {
        expect(codec.decode(codec.encode({ values, reverse }, SCOPE), SCOPE)).toEqual({ values, reverse });
      }
    }
  });

  it('is URL-safe and opaque', () => {
    const text = codec.encode({ values: ['client name?&=/+', 99], reverse: false }, SCOPE);
    expect(text).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(text).not.toContain('client');
    expect(encodeURIComponent(text)).toBe(text);
  });

  it('is deterministic for one master key and differs across keys', () => {
    const position = { values: ['x', 1], reverse: false };
    expect(codec.encode(position, SCOPE)).toBe(new CursorCodec(masterKey).encode(position, SCOPE));
    expect(codec.encode(position, SCOPE)).not.toBe(new CursorCodec(otherKey).encode(position, SCOPE));
  });

  it('white-box helper signs like the codec', () => {
    expect(forge(masterKey, JSON.stringify([0, 'x', 1]))).toBe(
      codec.encode({ values: ['x', 1], reverse: false }, SCOPE),
    );
  });

  it('rejects a cursor issued under another master key', () => {
    const foreign = new CursorCodec(otherKey).encode(
      { values: ['2026-01-01T00:00:00.000Z', 5], reverse: false },
      SCOPE,
    );
    expectInvalid(() => codec.decode(foreign, SCOPE));
  });

  it('rejects a tampered payload', () => {
    const text = codec.encode({ values: ['2026-01-01T00:00:00.000Z', 5], reverse: false }, SCOPE);
    const [payload, tag] = text.split('.') as [string, string];
    const edited = Buffer.from(JSON.stringify([0, '2026-01-01T00:00:00.000Z', 6])).toString('base64url');
    expectInvalid(() => codec.decode(`${edited}.${tag}`, SCOPE));
    // One character of the payload changed.
    const flipped = payload.slice(0, -1) + (payload.endsWith('A') ? 'B' : 'A');
    expectInvalid(() => codec.decode(`${flipped}.${tag}`, SCOPE));
    // Reverse flag flipped.
    const reversed = Buffer.from(JSON.stringify([1, '2026-01-01T00:00:00.000Z', 5])).toString('base64url');
    expectInvalid(() => codec.decode(`${reversed}.${tag}`, SCOPE));
  });

  it('rejects a tampered, truncated, extended or missing tag', () => {
    const text = codec.encode({ values: ['v', 5], reverse: false }, SCOPE);
    const [payload, tag] = text.split('.') as [string, string];
    const flipped = (tag.startsWith('A') ? 'B' : 'A') + tag.slice(1);
    expectInvalid(() => codec.decode(`${payload}.${flipped}`, SCOPE));
    expectInvalid(() => codec.decode(`${payload}.${tag.slice(0, -2)}`, SCOPE));
    expectInvalid(() => codec.decode(`${payload}.${tag}AAAA`, SCOPE));
    expectInvalid(() => codec.decode(`${payload}.`, SCOPE));
    expectInvalid(() => codec.decode(payload, SCOPE));
    expectInvalid(() => codec.decode(`${payload}.${tag}.${tag}`, SCOPE));
  });

  it('rejects garbage strings', () => {
    const garbage = [
      '',
      '.',
      '..',
      'a.b',
      'a.b.c',
      'bm90IGEgY3Vyc29y',
      'eyJhIjoxfQ==',
      Buffer.from(Array.from({ length: 48 }, (_, i) => (i * 37) % 256)).toString('base64'),
      'null',
      '%%%.%%%',
      ' ',
      '한국어.커서',
    ];
    for (const text of garbage) expectInvalid(() => codec.decode(text, SCOPE));
  });

  it('rejects a cursor issued by another list', () => {
    const text = codec.encode({ values: ['2026-01-01T00:00:00.000Z', 5], reverse: false }, SCOPE);
    expectInvalid(() => codec.decode(text, 'GET /v1/client/status'));
    expectInvalid(() => codec.decode(text, 'GET /v1/member'));
  });

  it('rejects a cursor with characters appended', () => {
    const text = codec.encode({ values: ['2026-01-01T00:00:00.000Z', 5], reverse: false }, SCOPE);
    expectInvalid(() => codec.decode(`${text}!`, SCOPE));
    expectInvalid(() => codec.decode(`${text} `, SCOPE));
    expectInvalid(() => codec.decode(`!${text}`, SCOPE));
  });

  it('rejects correctly tagged payloads of the wrong shape', () => {
    const shapes = [
      'not json',
      '{}',
      '[]',
      '[0]',
      '[2, 1]',
      '["0", 1]',
      '[true, 1]',
      '[0, null]',
      '[0, {"a": 1}]',
      '[0, [1]]',
      '"s"',
      '1',
    ];
    for (const json of shapes) expectInvalid(() => codec.decode(forge(masterKey, json), SCOPE));
  });
});

describe('fetchPage', () => {
  it('rejects a cursor with another number of ordering values than the list (before querying)', async () => {
    const order = newestFirst<{ created: string; id: number }>('t');
    const noQuery = {} as never;
    await expect(fetchPage(noQuery, order, 20, { values: [1], reverse: false })).rejects.toBeInstanceOf(InvalidCursor);
    await expect(fetchPage(noQuery, order, 20, { values: ['a', 1, 2], reverse: true })).rejects.toBeInstanceOf(
      InvalidCursor,
    );
  });
});

describe('pageSizeOf', () => {
  it('defaults to 20', () => {
    expect(DEFAULT_PAGE_SIZE).toBe(20);
    expect(pageSizeOf({})).toBe(20);
  });

  it('takes page_size, or its alias limit', () => {
    expect(pageSizeOf({ page_size: 5 })).toBe(5);
    expect(pageSizeOf({ limit: 7 })).toBe(7);
  });

  it('prefers page_size over limit', () => {
    expect(pageSizeOf({ page_size: 5, limit: 50 })).toBe(5);
    expect(pageSizeOf({ page_size: 50, limit: 5 })).toBe(50);
  });

  it('clamps to 100', () => {
    expect(MAX_PAGE_SIZE).toBe(100);
    expect(pageSizeOf({ page_size: 100 })).toBe(100);
    expect(pageSizeOf({ page_size: 101 })).toBe(100);
    expect(pageSizeOf({ limit: 100000 })).toBe(100);
    expect(pageSizeOf({ page_size: 1 })).toBe(1);
  });
});

describe('pageLink', () => {
  const origin = 'http://localhost:8000';

  it('is null for a null cursor', () => {
    expect(pageLink(origin, '/v1/client?page_size=5', null)).toBeNull();
  });

  it('builds an absolute URL with the cursor added', () => {
    expect(pageLink(origin, '/v1/client', 'abc.def')).toBe('http://localhost:8000/v1/client?cursor=abc.def');
    expect(pageLink('https://api.example.com', '/v1/log/', 'x_y-z.t')).toBe(
      'https://api.example.com/v1/log/?cursor=x_y-z.t',
    );
  });

  it('keeps every other query parameter, repeated ones included', () => {
    const link = pageLink(origin, '/v1/client?search=kim&search=lee&page_size=5&is_hidden=false', 'abc.def');
    const u = new URL(link!);
    expect(u.origin).toBe(origin);
    expect(u.pathname).toBe('/v1/client');
    expect(u.searchParams.getAll('search')).toEqual(['kim', 'lee']);
    expect(u.searchParams.get('page_size')).toBe('5');
    expect(u.searchParams.get('is_hidden')).toBe('false');
    expect(u.searchParams.getAll('cursor')).toEqual(['abc.def']);
  });

  it('replaces an existing cursor instead of adding a second one', () => {
    const link = pageLink(origin, '/v1/client?cursor=old.tag&limit=3', 'new.tag');
    const u = new URL(link!);
    expect(u.searchParams.getAll('cursor')).toEqual(['new.tag']);
    expect(u.searchParams.get('limit')).toBe('3');
  });

  it('keeps non-ASCII search terms', () => {
    const link = pageLink(origin, `/v1/client?search=${encodeURIComponent('홍길동')}`, 'c.t');
    expect(new URL(link!).searchParams.get('search')).toBe('홍길동');
  });

  it('links a real cursor that decodes back', () => {
    const cursor = codec.encode({ values: ['2026-11-22T05:31:56.123Z', 9], reverse: true }, SCOPE);
    const link = pageLink(origin, '/v1/client?page_size=2', cursor);
    expect(codec.decode(new URL(link!).searchParams.get('cursor')!, SCOPE)).toEqual({
      values: ['2026-11-22T05:31:56.123Z', 9],
      reverse: true,
    });
  });
});
