/**
 * Dialect-neutral SQL pieces: LIKE escaping (decisions §5: `%` and `_` in a search term are literal), the
 * stored forms of booleans and timestamps, and PostgreSQL timestamp parsing (decisions §1: RFC 3339 UTC
 * with milliseconds).
 */
import { describe, expect, it } from 'vitest';
import { pgTimestampToIso } from '../../src/db/create-db.ts';
import { escapeLike, isForeignKeyViolation, nowTimestamp, toBool } from '../../src/db/sql-helpers.ts';

describe('escapeLike', () => {
  it('escapes %, _ and backslash with a backslash', () => {
    expect(escapeLike('100%')).toBe('100\\%');
    expect(escapeLike('a_b')).toBe('a\\_b');
    expect(escapeLike('C:\\path')).toBe('C:\\\\path');
    expect(escapeLike('%_\\')).toBe('\\%\\_\\\\');
  });

  it('escapes every occurrence', () => {
    expect(escapeLike('50%_off_%')).toBe('50\\%\\_off\\_\\%');
    expect(escapeLike('\\\\')).toBe('\\\\\\\\');
  });

  it('leaves other text alone, including unicode and quotes', () => {
    for (const text of ['', 'plain', '주식회사 테스트', "O'Brien", 'a.b*c?[d]', '"quoted"']) {
      expect(escapeLike(text)).toBe(text);
    }
  });

  it('produces a pattern that matches the term literally', () => {
    // Emulates LIKE … ESCAPE '\' to check the escaped term matches only itself.
    const likeToRegExp = (pattern: string) =>
      new RegExp(
        `^${pattern.replace(/\\(.)|([%_])|([^\\%_])/gsu, (_m, escaped: string, wild: string, plain: string) => {
          if (escaped !== undefined) return escaped.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          if (wild !== undefined) return wild === '%' ? '.*' : '.';
          return plain.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        })}$`,
        'su',
      );
    for (const term of ['100%', 'a_b', 'x\\y', '%_%']) {
      const re = likeToRegExp(escapeLike(term));
      expect(re.test(term), term).toBe(true);
      expect(re.test(`${term}x`), term).toBe(false);
    }
    expect(likeToRegExp(escapeLike('a_b')).test('axb')).toBe(false);
    expect(likeToRegExp(escapeLike('100%')).test('1000')).toBe(false);
  });
});

describe('toBool / nowTimestamp', () => {
  it('stores booleans as 0 / 1', () => {
    expect(toBool(true)).toBe(1);
    expect(toBool(false)).toBe(0);
  });

  it('gives the current instant as RFC 3339 UTC with milliseconds', () => {
    const before = Date.now();
    const ts = nowTimestamp();
    expect(ts).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.parse(ts)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(ts)).toBeLessThanOrEqual(Date.now());
  });
});

describe('pgTimestampToIso', () => {
  it('reads timestamptz text with a +00 offset', () => {
    expect(pgTimestampToIso('2026-11-22 05:31:56.123+00')).toBe('2026-11-22T05:31:56.123Z');
  });

  it('converts other offsets to UTC', () => {
    expect(pgTimestampToIso('2026-11-22 14:31:56.123+09')).toBe('2026-11-22T05:31:56.123Z');
    expect(pgTimestampToIso('2026-11-22 00:31:56.123-05')).toBe('2026-11-22T05:31:56.123Z');
    expect(pgTimestampToIso('2026-11-22 11:01:56.123+05:30')).toBe('2026-11-22T05:31:56.123Z');
  });

  it('pads missing milliseconds and truncates microseconds', () => {
    expect(pgTimestampToIso('2026-11-22 05:31:56+00')).toBe('2026-11-22T05:31:56.000Z');
    expect(pgTimestampToIso('2026-11-22 05:31:56.1+00')).toBe('2026-11-22T05:31:56.100Z');
    expect(pgTimestampToIso('2026-11-22 05:31:56.123456+00')).toBe('2026-11-22T05:31:56.123Z');
  });

  it('reads a timestamp without time zone as UTC', () => {
    expect(pgTimestampToIso('2026-11-22 05:31:56.123')).toBe('2026-11-22T05:31:56.123Z');
    expect(pgTimestampToIso('2026-11-22 05:31:56')).toBe('2026-11-22T05:31:56.000Z');
  });
});

describe('isForeignKeyViolation', () => {
  it('recognises the PostgreSQL and SQLite foreign-key errors, and nothing else', () => {
    expect(isForeignKeyViolation({ code: '23503', constraint: 'settlement_contract_id_fkey' })).toBe(true);
    expect(
      isForeignKeyViolation({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY', message: 'FOREIGN KEY constraint failed' }),
    ).toBe(true);
    expect(isForeignKeyViolation({ code: '23505' })).toBe(false);
    expect(isForeignKeyViolation({ code: 'SQLITE_CONSTRAINT_UNIQUE' })).toBe(false);
    expect(isForeignKeyViolation(new Error('boom'))).toBe(false);
    expect(isForeignKeyViolation(null)).toBe(false);
    expect(isForeignKeyViolation('23503')).toBe(false);
  });
});
