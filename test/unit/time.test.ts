/**
 * Calendar arithmetic in a business's time zone (decisions §1, §5): the UTC instant a local day begins,
 * the next calendar day, "today", and the UTC range of an inclusive local date range.
 */
import { describe, expect, it } from 'vitest';
import { dayRangeUtc, daysBetween, nextDay, startOfDayUtc, todayIn } from '../../src/shared/time.ts';

/** The local calendar date of an ISO instant in `tz`. */
function localDate(iso: string, tz: string): string {
  return todayIn(tz, new Date(iso));
}

describe('startOfDayUtc', () => {
  it('Asia/Seoul (UTC+9, no DST)', () => {
    expect(startOfDayUtc('2026-11-22', 'Asia/Seoul')).toBe('2026-11-21T15:00:00.000Z');
    expect(startOfDayUtc('2026-01-01', 'Asia/Seoul')).toBe('2025-12-31T15:00:00.000Z');
    expect(startOfDayUtc('2026-07-01', 'Asia/Seoul')).toBe('2026-06-30T15:00:00.000Z');
  });

  it('UTC', () => {
    expect(startOfDayUtc('2026-11-22', 'UTC')).toBe('2026-11-22T00:00:00.000Z');
    expect(startOfDayUtc('2028-02-29', 'UTC')).toBe('2028-02-29T00:00:00.000Z');
  });

  it('America/New_York around the spring switch (2026-03-08, 02:00 → 03:00)', () => {
    expect(startOfDayUtc('2026-03-07', 'America/New_York')).toBe('2026-03-07T05:00:00.000Z');
    expect(startOfDayUtc('2026-03-08', 'America/New_York')).toBe('2026-03-08T05:00:00.000Z');
    expect(startOfDayUtc('2026-03-09', 'America/New_York')).toBe('2026-03-09T04:00:00.000Z');
  });

  it('America/New_York around the autumn switch (2026-11-01, 02:00 → 01:00)', () => {
    expect(startOfDayUtc('2026-10-31', 'America/New_York')).toBe('2026-10-31T04:00:00.000Z');
    expect(startOfDayUtc('2026-11-01', 'America/New_York')).toBe('2026-11-01T04:00:00.000Z');
    expect(startOfDayUtc('2026-11-02', 'America/New_York')).toBe('2026-11-02T05:00:00.000Z');
  });

  it('the switch days are 23 and 25 hours long in America/New_York', () => {
    const hours = (d: string) =>
      (Date.parse(startOfDayUtc(nextDay(d), 'America/New_York')) - Date.parse(startOfDayUtc(d, 'America/New_York'))) /
      3_600_000;
    expect(hours('2026-03-08')).toBe(23);
    expect(hours('2026-11-01')).toBe(25);
    expect(hours('2026-06-15')).toBe(24);
  });

  it('Pacific/Kiritimati (UTC+14): the day begins on the previous UTC date', () => {
    expect(startOfDayUtc('2026-01-01', 'Pacific/Kiritimati')).toBe('2025-12-31T10:00:00.000Z');
  });

  it('Pacific/Pago_Pago (UTC−11)', () => {
    expect(startOfDayUtc('2026-01-01', 'Pacific/Pago_Pago')).toBe('2026-01-01T11:00:00.000Z');
    expect(startOfDayUtc('2025-12-31', 'Pacific/Pago_Pago')).toBe('2025-12-31T11:00:00.000Z');
  });

  it('zones with fractional offsets and a DST switch at local midnight east of UTC', () => {
    expect(startOfDayUtc('2026-06-01', 'Asia/Kolkata')).toBe('2026-05-31T18:30:00.000Z');
    expect(startOfDayUtc('2026-06-01', 'Asia/Kathmandu')).toBe('2026-05-31T18:15:00.000Z');
    // Cairo skips 00:00–01:00 on the last Friday of April: the day begins at 01:00 EEST.
    expect(startOfDayUtc('2026-04-24', 'Africa/Cairo')).toBe('2026-04-23T22:00:00.000Z');
  });

  it('a DST switch at local midnight west of UTC: the day begins at the switch, not an hour before', () => {
    // Chile: on 2026-09-06 the clock jumps from 00:00 (−04) to 01:00 (−03); the first instant of the day
    // is 01:00 −03 = 04:00Z. 03:00Z is still 2026-09-05 23:00 local.
    expect(startOfDayUtc('2026-09-06', 'America/Santiago')).toBe('2026-09-06T04:00:00.000Z');
    // Cuba: on 2026-03-08 the clock jumps from 00:00 (−05) to 01:00 (−04): the day begins at 05:00Z.
    expect(startOfDayUtc('2026-03-08', 'America/Havana')).toBe('2026-03-08T05:00:00.000Z');
  });

  it('a DST switch back at local midnight west of UTC: the first of the two midnights', () => {
    expect(startOfDayUtc('2026-04-05', 'America/Santiago')).toBe('2026-04-05T04:00:00.000Z');
    expect(startOfDayUtc('2026-11-01', 'America/Havana')).toBe('2026-11-01T04:00:00.000Z');
  });

  it('for every day of 2026 the instant is the first one of that local date', () => {
    const zones = ['America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Pacific/Kiritimati'];
    for (const tz of zones) {
      for (let d = '2026-01-01'; d < '2027-01-01'; d = nextDay(d)) {
        const start = startOfDayUtc(d, tz);
        expect(localDate(start, tz), `${d} in ${tz}`).toBe(d);
        expect(localDate(new Date(Date.parse(start) - 1).toISOString(), tz), `${d} in ${tz}`).toBe(
          new Date(Date.parse(`${d}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10),
        );
      }
    }
  });
});

describe('nextDay', () => {
  it('within a month', () => {
    expect(nextDay('2026-11-22')).toBe('2026-11-23');
  });

  it('across month ends', () => {
    expect(nextDay('2026-01-31')).toBe('2026-02-01');
    expect(nextDay('2026-04-30')).toBe('2026-05-01');
    expect(nextDay('2027-02-28')).toBe('2027-03-01');
  });

  it('across the year end', () => {
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
  });

  it('into and out of a leap day', () => {
    expect(nextDay('2028-02-28')).toBe('2028-02-29');
    expect(nextDay('2028-02-29')).toBe('2028-03-01');
    expect(nextDay('2100-02-28')).toBe('2100-03-01');
    expect(nextDay('2000-02-28')).toBe('2000-02-29');
  });
});

describe('todayIn', () => {
  it('uses the business time zone at a fixed instant', () => {
    const now = new Date('2026-11-21T15:30:00.000Z');
    expect(todayIn('Asia/Seoul', now)).toBe('2026-11-22');
    expect(todayIn('UTC', now)).toBe('2026-11-21');
    expect(todayIn('Pacific/Pago_Pago', now)).toBe('2026-11-21');
    expect(todayIn('Pacific/Kiritimati', now)).toBe('2026-11-22');
  });

  it('switches date exactly at local midnight', () => {
    expect(todayIn('Asia/Seoul', new Date('2026-11-21T14:59:59.999Z'))).toBe('2026-11-21');
    expect(todayIn('Asia/Seoul', new Date('2026-11-21T15:00:00.000Z'))).toBe('2026-11-22');
  });

  it('returns YYYY-MM-DD', () => {
    expect(todayIn('America/New_York', new Date('2026-01-05T12:00:00Z'))).toBe('2026-01-05');
    expect(todayIn('Asia/Seoul')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});

describe('dayRangeUtc', () => {
  it('both ends: [start of first day, start of the day after the last day)', () => {
    expect(dayRangeUtc('Asia/Seoul', '2026-11-01', '2026-11-30')).toEqual({
      from: '2026-10-31T15:00:00.000Z',
      to: '2026-11-30T15:00:00.000Z',
    });
  });

  it('a single day (start = end) covers 24 hours', () => {
    expect(dayRangeUtc('UTC', '2026-11-22', '2026-11-22')).toEqual({
      from: '2026-11-22T00:00:00.000Z',
      to: '2026-11-23T00:00:00.000Z',
    });
  });

  it('only a start', () => {
    const range = dayRangeUtc('Asia/Seoul', '2026-11-22', undefined);
    expect(range.from).toBe('2026-11-21T15:00:00.000Z');
    expect(range.to).toBeUndefined();
  });

  it('only an end', () => {
    const range = dayRangeUtc('America/New_York', undefined, '2026-11-01');
    expect(range.from).toBeUndefined();
    expect(range.to).toBe('2026-11-02T05:00:00.000Z');
  });

  it('neither end', () => {
    const range = dayRangeUtc('UTC', undefined, undefined);
    expect(range.from).toBeUndefined();
    expect(range.to).toBeUndefined();
  });

  it('an end on 31 December reaches into the next year', () => {
    expect(dayRangeUtc('Asia/Seoul', undefined, '2026-12-31').to).toBe('2026-12-31T15:00:00.000Z');
    expect(dayRangeUtc('UTC', undefined, '2028-02-28').to).toBe('2028-02-29T00:00:00.000Z');
  });
});

describe('daysBetween', () => {
  it('counts calendar days, negative backwards, across month, year, leap-day and DST boundaries', () => {
    expect(daysBetween('2026-11-22', '2026-11-22')).toBe(0);
    expect(daysBetween('2026-11-22', '2026-11-23')).toBe(1);
    expect(daysBetween('2026-11-23', '2026-11-22')).toBe(-1);
    expect(daysBetween('2026-12-31', '2027-01-01')).toBe(1);
    expect(daysBetween('2028-02-28', '2028-03-01')).toBe(2);
    expect(daysBetween('2026-03-07', '2026-03-09')).toBe(2);
    expect(daysBetween('2026-01-01', '2027-01-01')).toBe(365);
  });
});
