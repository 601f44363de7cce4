/**
 * Request signatures (decisions §3): known HMAC-SHA256 vectors computed outside this code base, the exact
 * raw bytes being signed, and a verifier that accepts only a correct 64-hex signature and never throws.
 */
import { describe, expect, it } from 'vitest';
import { signBody, verifySignature } from '../../src/modules/auth/hmac.ts';
import { hashApiKey, isValidTimezone } from '../../src/modules/auth/auth.service.ts';

// RFC 4231, test case 2.
const RFC4231_KEY = 'Jefe';
const RFC4231_DATA = 'what do ya want for nothing?';
const RFC4231_MAC = '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843';
// HMAC-SHA256 of the empty string under the key "key" (widely published vector).
const EMPTY_MAC = '5d5d139563c95b5967b9bd9a8c9b233a9dedb45072794cd232dc1b74832607d0';
// HMAC-SHA256("key", "The quick brown fox jumps over the lazy dog") (Wikipedia's HMAC article).
const FOX_MAC = 'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8';

describe('signBody', () => {
  it('matches RFC 4231 test case 2', () => {
    expect(signBody(RFC4231_KEY, RFC4231_DATA)).toBe(RFC4231_MAC);
  });

  it('signs the empty body as the HMAC of the empty string', () => {
    expect(signBody('key', '')).toBe(EMPTY_MAC);
    expect(signBody('key', Buffer.alloc(0))).toBe(EMPTY_MAC);
  });

  it('matches the published "quick brown fox" vector', () => {
    expect(signBody('key', 'The quick brown fox jumps over the lazy dog')).toBe(FOX_MAC);
  });

  it('returns 64 lowercase hex characters', () => {
    expect(signBody('secret', '{"a":1}')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('signs the raw bytes: equivalent JSON with other whitespace has another signature', () => {
    expect(signBody('secret', '{"a":1}')).not.toBe(signBody('secret', '{ "a": 1 }'));
    expect(signBody('secret', '{"a":1}')).not.toBe(signBody('secret', '{"a":1}\n'));
  });

  it('gives the same result for a string and its UTF-8 bytes', () => {
    const body = '{"name":"홍길동","memo":"안녕하세요 — ✓"}';
    expect(signBody('secret', Buffer.from(body, 'utf8'))).toBe(signBody('secret', body));
    expect(signBody('secret', new Uint8Array(Buffer.from(body, 'utf8')))).toBe(signBody('secret', body));
    expect(signBody(RFC4231_KEY, Buffer.from(RFC4231_DATA))).toBe(RFC4231_MAC);
  });

  it('signs Korean text as UTF-8, not as UTF-16 or Latin-1', () => {
    const body = '{"companyName":"주식회사 테스트"}';
    const sig = signBody('secret', body);
    expect(sig).not.toBe(signBody('secret', Buffer.from(body, 'latin1')));
    expect(sig).not.toBe(signBody('secret', Buffer.from(body, 'utf16le')));
    expect(verifySignature('secret', Buffer.from(body, 'utf8'), sig)).toBe(true);
  });

  it('depends on the secret', () => {
    expect(signBody('secret-a', 'x')).not.toBe(signBody('secret-b', 'x'));
  });
});

describe('verifySignature', () => {
  const secret = 'sk_test_secret';
  const body = '{"companyName":"Acme"}';
  const good = signBody(secret, body);

  it('accepts the correct lowercase signature', () => {
    expect(verifySignature(secret, body, good)).toBe(true);
    expect(verifySignature(RFC4231_KEY, RFC4231_DATA, RFC4231_MAC)).toBe(true);
    expect(verifySignature('key', '', EMPTY_MAC)).toBe(true);
  });

  it('accepts upper-case and mixed-case hex', () => {
    expect(verifySignature(secret, body, good.toUpperCase())).toBe(true);
    const mixed = [...good].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join('');
    expect(verifySignature(secret, body, mixed)).toBe(true);
  });

  it('accepts a Buffer body signed as a string', () => {
    expect(verifySignature(secret, Buffer.from(body), good)).toBe(true);
  });

  it('rejects a signature of another body or under another secret', () => {
    expect(verifySignature(secret, '{ "companyName": "Acme" }', good)).toBe(false);
    expect(verifySignature(secret, '', good)).toBe(false);
    expect(verifySignature('other-secret', body, good)).toBe(false);
  });

  it('rejects a signature with one hex digit changed', () => {
    const last = good.at(-1) === '0' ? '1' : '0';
    expect(verifySignature(secret, body, good.slice(0, -1) + last)).toBe(false);
  });

  it('rejects wrong lengths, non-hex and empty values without throwing', () => {
    const bad = [
      '',
      good.slice(0, 63),
      good + '0',
      good + good,
      good.slice(0, 32),
      'z'.repeat(64),
      good.slice(0, 63) + 'g',
      ` ${good.slice(1)}`,
      `${good.slice(0, 63)} `,
      `${good}\n`,
      Buffer.from(good, 'hex').toString('base64'),
      'sha256=' + good,
      '%'.repeat(64),
      '한'.repeat(64),
    ];
    for (const sig of bad) {
      expect(() => verifySignature(secret, body, sig)).not.toThrow();
      expect(verifySignature(secret, body, sig)).toBe(false);
    }
  });
});

describe('hashApiKey', () => {
  it('is the SHA-256 hex of the key', () => {
    // SHA-256("abc"), FIPS 180-2 appendix B.1.
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    // SHA-256 of the empty string.
    expect(hashApiKey('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('never returns the key itself', () => {
    const key = 'bk_live_0123456789abcdef';
    expect(hashApiKey(key)).not.toContain(key);
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('isValidTimezone', () => {
  it('accepts IANA names', () => {
    for (const tz of ['Asia/Seoul', 'UTC', 'America/New_York', 'Pacific/Kiritimati', 'Europe/Berlin']) {
      expect(isValidTimezone(tz)).toBe(true);
    }
  });

  it('rejects unknown names', () => {
    for (const tz of ['Mars/Olympus_Mons', 'Asia/Seul', 'not a zone', '']) {
      expect(isValidTimezone(tz)).toBe(false);
    }
  });
});
