/**
 * Calendar arithmetic in a business's time zone (docs/api.md#filters): "today", and the UTC instants that bound
 * a calendar day, so that `created_start` / `created_end` compare creation dates as the business sees them.
 * Uses the runtime's IANA time-zone data through `Intl`.
 */
import { ValidationError } from './errors.ts';

/** The wall-clock fields of `tz` at the instant `utcMs`, two digits each (`year` four), 24-hour clock. */
export interface LocalParts {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
}

/** The calendar date and time of day that `tz` shows at the instant `utcMs` ({@link LocalParts}, seconds truncated). */
export function localParts(utcMs: number, tz: string): LocalParts {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(utcMs));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
  };
}

/** Offset of `tz` from UTC at the instant `utcMs`, in minutes (Asia/Seoul → 540). */
function offsetMinutes(utcMs: number, tz: string): number {
  const p = localParts(utcMs, tz);
  const asUtc = Date.UTC(
    Number(p.year),
    Number(p.month) - 1,
    Number(p.day),
    Number(p.hour),
    Number(p.minute),
    Number(p.second),
  );
  return Math.round((asUtc - Math.floor(utcMs / 1000) * 1000) / 60000);
}

/**
 * The UTC instant at which the calendar day `date` (`YYYY-MM-DD`) begins in `tz`, as an ISO string with
 * milliseconds. Handles offsets that change around the day (DST), including a switch at local midnight.
 */
export function startOfDayUtc(date: string, tz: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const midnightAsUtc = Date.UTC(y, m - 1, d);
  // The day starts at local midnight under the offset of the day before or of the day after (they differ
  // only around a DST switch); the earliest candidate that already falls on `date` locally is the start.
  const candidates = [offsetMinutes(midnightAsUtc - 86_400_000, tz), offsetMinutes(midnightAsUtc + 86_400_000, tz)]
    .map((offset) => midnightAsUtc - offset * 60_000)
    .filter((instant) => todayIn(tz, new Date(instant)) === date);
  return new Date(Math.min(...candidates)).toISOString();
}

/** The day after `date` (`YYYY-MM-DD`). */
export function nextDay(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

/** Today's date (`YYYY-MM-DD`) in `tz`, at the instant `now` (default: now). */
export function todayIn(tz: string, now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    now,
  );
}

/**
 * The half-open UTC range `[from, to)` of date-times whose calendar date in `tz` lies within the inclusive
 * range `start..end` (either end optional).
 */
export function dayRangeUtc(
  tz: string,
  start: string | undefined,
  end: string | undefined,
): { from?: string; to?: string } {
  return {
    from: start === undefined ? undefined : startOfDayUtc(start, tz),
    to: end === undefined ? undefined : startOfDayUtc(nextDay(end), tz),
  };
}

/** Where "now" comes from: the system clock in production, a fixed or movable one in tests (`buildApp` deps). */
export type Clock = () => Date;

/** The system clock. */
export const systemClock: Clock = () => new Date();

/** Whole calendar days from `from` to `to` (both `YYYY-MM-DD`): positive when `to` is later. */
export function daysBetween(from: string, to: string): number {
  const utc = (date: string) => {
    const [y, m, d] = date.split('-').map(Number) as [number, number, number];
    return Date.UTC(y, m - 1, d);
  };
  return Math.round((utc(to) - utc(from)) / 86_400_000);
}

/**
 * The half-open UTC range `[from, to)` of an inclusive `start..end` where each end is a date (the whole day in
 * `tz`, as {@link dayRangeUtc}) or a date-time with an offset (that instant, to the millisecond): the
 * `updated_start` / `updated_end` filters and the event list's `created_start` / `created_end`
 * (docs/api.md#events). The routes' schemas (`QueryDateOrDateTime`) check the form; this checks the calendar.
 * @param names the query parameter names of the two ends, for the error
 * @throws ValidationError `{"<name>": ["Enter a valid date/time."]}` for an end that names no day or instant
 *   (`2026-02-30`)
 */
export function instantRangeUtc(
  tz: string,
  start: string | undefined,
  end: string | undefined,
  names: readonly [string, string] = ['updated_start', 'updated_end'],
): { from?: string; to?: string } {
  const parse = (value: string, name: string): { ms: number; isDate: boolean } => {
    const date = value.slice(0, 10);
    const [y, m, d] = date.split('-').map(Number) as [number, number, number];
    const ms = value.length === 10 ? Date.UTC(y, m - 1, d) : Date.parse(value);
    if (Number.isNaN(ms) || new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10) !== date) {
      throw new ValidationError({ [name]: ['Enter a valid date/time.'] });
    }
    return { ms, isDate: value.length === 10 };
  };
  const from = start === undefined ? undefined : parse(start, names[0]);
  const to = end === undefined ? undefined : parse(end, names[1]);
  return {
    from: from === undefined ? undefined : from.isDate ? startOfDayUtc(start!, tz) : new Date(from.ms).toISOString(),
    to: to === undefined ? undefined : to.isDate ? startOfDayUtc(nextDay(end!), tz) : new Date(to.ms + 1).toISOString(),
  };
}
