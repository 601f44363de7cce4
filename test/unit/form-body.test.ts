/**
 * The two form encodings (decisions §1): urlencoded and multipart bodies become the same nested objects a
 * JSON body gives, with dotted and bracketed keys, list entries, and no prototype pollution.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ParseError } from '../../src/shared/errors.ts';
import { isFormBody, parseMultipart, parseUrlEncoded } from '../../src/shared/form-body.ts';

const BOUNDARY = '----bizapiTestBoundary7MA4YWxkTrZu0gW';

/** A `multipart/form-data` body of text fields, and optionally one file part. */
function multipart(fields: [string, string][], file?: { name: string; filename: string; content: string }): Buffer {
  const parts = fields.map(
    ([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  if (file) {
    parts.push(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\n` +
        `Content-Type: application/octet-stream\r\n\r\n${file.content}\r\n`,
    );
  }
  return Buffer.from(`${parts.join('')}--${BOUNDARY}--\r\n`, 'utf8');
}
const CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** Expects `fn` to throw a 400 ParseError. */
function expectParseError(fn: () => unknown): void {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(ParseError);
  expect((caught as ParseError).statusCode).toBe(400);
}

afterEach(() => {
  // A polluted prototype would leak into every other test: check and clean after each one.
  const proto = Object.prototype as Record<string, unknown>;
  const leaked = 'polluted' in proto;
  delete proto.polluted;
  expect(leaked).toBe(false);
});

describe('parseUrlEncoded', () => {
  it('reads a nested reference written with a dot or with brackets', () => {
    expect(parseUrlEncoded('client.id=5')).toEqual({ client: { id: '5' } });
    expect(parseUrlEncoded('client[id]=5')).toEqual({ client: { id: '5' } });
  });

  it('reads list entries written with either notation, mixed', () => {
    expect(parseUrlEncoded('inChargeSet[0].id=3&inChargeSet[1][id]=4')).toEqual({
      inChargeSet: [{ id: '3' }, { id: '4' }],
    });
    expect(parseUrlEncoded('fileSet[0][name]=a.pdf&fileSet[0].file=up/a.pdf')).toEqual({
      fileSet: [{ name: 'a.pdf', file: 'up/a.pdf' }],
    });
  });

  it('keeps values as strings (the validator coerces them)', () => {
    expect(parseUrlEncoded('amount=5&flag=true&estimate=1500000.00')).toEqual({
      amount: '5',
      flag: 'true',
      estimate: '1500000.00',
    });
  });

  it('addresses a list up to index 29 (fileSet holds at most 30)', () => {
    const text = Array.from({ length: 30 }, (_, i) => `fileSet[${i}].name=f${i}.pdf&fileSet[${i}][file]=p/${i}`).join(
      '&',
    );
    const parsed = parseUrlEncoded(text) as { fileSet: { name: string; file: string }[] };
    expect(Array.isArray(parsed.fileSet)).toBe(true);
    expect(parsed.fileSet).toHaveLength(30);
    expect(parsed.fileSet[29]).toEqual({ name: 'f29.pdf', file: 'p/29' });
    expect(parsed.fileSet[0]).toEqual({ name: 'f0.pdf', file: 'p/0' });
  });

  it('reads index 29 on its own as a list entry', () => {
    const parsed = parseUrlEncoded('fileSet[29].name=last.pdf') as { fileSet: unknown };
    expect(Array.isArray(parsed.fileSet)).toBe(true);
    expect(parsed.fileSet).toContainEqual({ name: 'last.pdf' });
  });

  it('keeps the last value of a repeated plain key', () => {
    expect(parseUrlEncoded('name=first&name=second')).toEqual({ name: 'second' });
  });

  it('decodes percent-encoding, plus signs and UTF-8', () => {
    expect(parseUrlEncoded(`companyName=${encodeURIComponent('주식회사 테스트')}&memo=a+b%26c%3Dd`)).toEqual({
      companyName: '주식회사 테스트',
      memo: 'a b&c=d',
    });
    expect(parseUrlEncoded('email=kim.lee%40example.com')).toEqual({ email: 'kim.lee@example.com' });
  });

  it('an empty body is an empty object', () => {
    expect(parseUrlEncoded('')).toEqual({});
  });

  it('ignores __proto__ / constructor[prototype] keys without polluting Object.prototype', () => {
    const a = parseUrlEncoded('__proto__[polluted]=yes&name=x');
    expect(a).toEqual({ name: 'x' });
    const b = parseUrlEncoded('constructor[prototype][polluted]=yes');
    expect(Object.getPrototypeOf(b)).toBe(Object.prototype);
    const c = parseUrlEncoded('__proto__.polluted=yes&client.__proto__.polluted=yes');
    expect(Object.getPrototypeOf(c)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
  });

  it('rejects too deep nesting with a ParseError', () => {
    expectParseError(() => parseUrlEncoded('a[b][c][d][e][f][g]=1'));
    expectParseError(() => parseUrlEncoded('a.b.c.d.e.f.g=1'));
  });

  it('rejects a list index beyond the limit and too many parameters with a ParseError', () => {
    expectParseError(() => parseUrlEncoded('fileSet[5000].name=x'));
    expectParseError(() => parseUrlEncoded(Array.from({ length: 1001 }, (_, i) => `k${i}=1`).join('&')));
  });
});

describe('parseMultipart', () => {
  it('gives the same objects as the urlencoded form', async () => {
    const body = multipart([
      ['name', '홍길동'],
      ['client.id', '5'],
      ['status[id]', '2'],
      ['inChargeSet[0].id', '3'],
      ['inChargeSet[1][id]', '4'],
      ['memo', 'a&b=c + d'],
    ]);
    const parsed = await parseMultipart(body, CONTENT_TYPE);
    expect(parsed).toEqual({
      name: '홍길동',
      client: { id: '5' },
      status: { id: '2' },
      inChargeSet: [{ id: '3' }, { id: '4' }],
      memo: 'a&b=c + d',
    });
    expect(parsed).toEqual(
      parseUrlEncoded(
        `name=${encodeURIComponent('홍길동')}&client.id=5&status[id]=2&inChargeSet[0].id=3&inChargeSet[1][id]=4&memo=${encodeURIComponent('a&b=c + d')}`,
      ),
    );
    expect(isFormBody(parsed)).toBe(true);
  });

  it('keeps the last value of a repeated field', async () => {
    expect(
      await parseMultipart(
        multipart([
          ['name', 'a'],
          ['name', 'b'],
        ]),
        CONTENT_TYPE,
      ),
    ).toEqual({ name: 'b' });
  });

  it('rejects a file part with a ParseError', async () => {
    const body = multipart([['name', 'x']], { name: 'file', filename: 'a.pdf', content: '%PDF-1.4' });
    await expect(parseMultipart(body, CONTENT_TYPE)).rejects.toBeInstanceOf(ParseError);
  });

  it('rejects malformed multipart with a ParseError', async () => {
    const body = multipart([['name', 'x']]);
    await expect(parseMultipart(body, 'multipart/form-data')).rejects.toBeInstanceOf(ParseError);
    await expect(parseMultipart(body, 'multipart/form-data; boundary=another')).rejects.toBeInstanceOf(ParseError);
    await expect(parseMultipart(Buffer.from('not multipart at all'), CONTENT_TYPE)).rejects.toBeInstanceOf(ParseError);
    const truncated = body.subarray(0, body.length - 12);
    await expect(parseMultipart(truncated, CONTENT_TYPE)).rejects.toBeInstanceOf(ParseError);
  });

  it('rejects too deep nesting in a field name with a ParseError', async () => {
    await expect(parseMultipart(multipart([['a[b][c][d][e][f][g]', '1']]), CONTENT_TYPE)).rejects.toBeInstanceOf(
      ParseError,
    );
  });

  it('does not pollute Object.prototype', async () => {
    const parsed = await parseMultipart(
      multipart([
        ['__proto__[polluted]', 'yes'],
        ['constructor[prototype][polluted]', 'yes'],
      ]),
      CONTENT_TYPE,
    );
    expect(parsed).toEqual({});
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('isFormBody', () => {
  it('is true for parsed form bodies', () => {
    expect(isFormBody(parseUrlEncoded('a=1'))).toBe(true);
    expect(isFormBody(parseUrlEncoded(''))).toBe(true);
  });

  it('is false for plain objects and other values', () => {
    expect(isFormBody({ a: '1' })).toBe(false);
    expect(isFormBody(JSON.parse('{"a":"1"}'))).toBe(false);
    expect(isFormBody({ ...parseUrlEncoded('a=1') })).toBe(false);
    expect(isFormBody(null)).toBe(false);
    expect(isFormBody(undefined)).toBe(false);
    expect(isFormBody('a=1')).toBe(false);
    expect(isFormBody([])).toBe(false);
  });
});
