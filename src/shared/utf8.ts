/**
 * Strict UTF-8 decoding of request bodies: bytes that are not UTF-8 are a 400, never silently replaced by
 * U+FFFD (docs/api.md#requests).
 */
import { isUtf8 } from 'node:buffer';
import { ParseError } from './errors.ts';

/**
 * The offset of the first byte of `bytes` that does not belong to a well-formed UTF-8 sequence (overlong
 * forms, surrogates and code points above U+10FFFF included), or -1 when all of it is UTF-8.
 */
export function firstInvalidUtf8Byte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i += 1;
      continue;
    }
    let need: number;
    let min: number;
    let max = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b === 0xe0) [need, min] = [2, 0xa0];
    else if (b === 0xed) [need, min, max] = [2, 0x80, 0x9f];
    else if (b >= 0xe1 && b <= 0xef) [need, min] = [2, 0x80];
    else if (b === 0xf0) [need, min] = [3, 0x90];
    else if (b === 0xf4) [need, min, max] = [3, 0x80, 0x8f];
    else if (b >= 0xf1 && b <= 0xf3) [need, min] = [3, 0x80];
    else return i;
    // The second byte has the narrowed range; the others are plain continuation bytes.
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || c < (k === 1 ? min : 0x80) || c > (k === 1 ? max : 0xbf)) return i;
    }
    i += need + 1;
  }
  return -1;
}

/**
 * Decodes a request body as UTF-8.
 * @param prefix the start of the error message (`JSON parse error`, `Form parse error`)
 * @throws ParseError (400) `"<prefix> - 'utf-8' codec can't decode byte 0xff in position 12: invalid UTF-8."`,
 *   worded as DRF's parsers word Python's `UnicodeDecodeError`
 */
export function decodeUtf8Body(bytes: Buffer, prefix: string): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  const at = firstInvalidUtf8Byte(bytes);
  const byte = bytes[at] ?? 0;
  throw new ParseError(
    `${prefix} - 'utf-8' codec can't decode byte 0x${byte.toString(16).padStart(2, '0')} in position ${at}: invalid UTF-8.`,
  );
}

/** Deepest nesting of arrays and objects a JSON body may have (docs/api.md#limits). */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether a JSON text nests arrays and objects deeper than `limit` levels: one linear scan of the text,
 * before it is parsed (so a body of 100,000 `[` costs a scan, not a parse). Brackets inside strings do not count.
 */
export function jsonDeeperThan(text: string, limit: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return false;
}
