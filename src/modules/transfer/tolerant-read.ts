/**
 * Tolerant reading of the record stream (docs/deployment.md#tolerant-reading): what the reference service
 * leaves undocumented (the item shapes of the e-mail, folder, status and submit histories, an attachment's
 * `created`, …) may come in another shape than this server's. Before a record is restored, {@link readItem}
 * checks the properties its restore needs: a missing or malformed one becomes a warning naming the record and
 * the property, and the record is imported with what is known (a documented default), or, where nothing
 * sensible can stand in (a status change without its status), refused with a warning. Properties this server
 * does not know are left alone (another server's extensions).
 */
import type { TransferItem, TransferType } from './transfer.types.ts';

type Obj = Record<string, unknown>;

/** What {@link readItem} made of an item: the data to restore (or `undefined`: refused), and the warnings. */
export interface ReadItem {
  data: Obj | undefined;
  warnings: string[];
}

const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const isDateTime = (v: unknown): boolean => typeof v === 'string' && !Number.isNaN(Date.parse(v));

/** A property check: `ok` tells a good value; `fallback` is what stands in (and what the warning says), absent → the record is refused. */
interface Check {
  ok: (v: unknown) => boolean;
  fallback?: { value: () => unknown; says: string };
  /** Leave the value out of the data (the restore defaults it), rather than writing `fallback.value`. */
  omit?: boolean;
}

const NOW: Check = { ok: isDateTime, fallback: { value: () => undefined, says: 'the time of the import' }, omit: true };
const text = (says = 'an empty text'): Check => ({
  ok: (v) => typeof v === 'string',
  fallback: { value: () => '', says },
});
const nullableTime: Check = { ok: (v) => v === null || isDateTime(v), fallback: { value: () => null, says: 'null' } };
const list = (key: string): Check => ({
  ok: (v) => Array.isArray(v) && v.every((e) => isObject(e) && typeof e[key] === 'string'),
  fallback: { value: () => [], says: 'an empty list' },
});
const ref: Check = { ok: (v) => isObject(v) && typeof v.id === 'number' };
const required = (ok: (v: unknown) => boolean): Check => ({ ok });

/**
 * The properties each resource's restore needs (top level). Catalog entries, clients, contracts,
 * settlements, projects, workers and todos are checked by their restore's validation (the API's own body
 * schema), so only their `created` is here; an estimate item has no `created` in the reference's shape, so
 * it gets the time of the import without a warning.
 */
const CHECKS: Partial<Record<TransferType, Record<string, Check>>> = {
  client: { created: NOW },
  inquiry: { created: NOW },
  contract: { created: NOW },
  settlement: { created: NOW },
  project: { created: NOW },
  worker: { created: NOW },
  todo: { created: NOW },
  'inquiry.text_history': { content: required((v) => typeof v === 'string'), created: NOW },
  'contract.history': { content: required((v) => typeof v === 'string'), created: NOW },
  'settlement.history': { content: required((v) => typeof v === 'string'), created: NOW },
  'inquiry.email_history': {
    title: text(),
    fromEmail: text(),
    toSet: list('toEmail'),
    ccSet: list('ccEmail'),
    status: {
      ok: (v) => v === 'S' || v === 'D' || v === 'C' || v === 'F',
      fallback: { value: () => 'S', says: '"S" (sent)' },
    },
    sentAt: nullableTime,
    created: NOW,
  },
  'inquiry.email_reply_history': {
    title: text(),
    fromEmail: text(),
    toSet: list('toEmail'),
    ccSet: list('ccEmail'),
    isUnread: { ok: (v) => typeof v === 'boolean', fallback: { value: () => false, says: 'false' } },
    receivedAt: nullableTime,
    created: NOW,
  },
  'inquiry.status_history': { status: ref, created: NOW },
  'inquiry.folder_history': { folder: ref, created: NOW },
  'inquiry.submit_history': {
    form: {
      ok: (v) => isObject(v) && typeof v.id === 'number' && typeof v.title === 'string',
      fallback: { value: () => ({ id: 0, title: '' }), says: '{"id": 0, "title": ""}' },
    },
    answers: { ok: (v) => v !== undefined, fallback: { value: () => null, says: 'null' } },
    created: NOW,
  },
};

/** The checks of one entry of an inquiry's `fileSet` and `fileLinkSet`. */
const FILE_ENTRY: Record<string, Check> = {
  id: required((v) => typeof v === 'number'),
  name: required((v) => typeof v === 'string'),
  file: required((v) => typeof v === 'string'),
  created: NOW,
};
const FILE_LINK_ENTRY: Record<string, Check> = {
  text: text(),
  link: required((v) => typeof v === 'string'),
  created: NOW,
};

/** `"client 5"`, `"inquiry.status_history 12 (of inquiry 3)"`: how a warning names a record. */
export function recordName(item: TransferItem): string {
  const id = isObject(item.data) && item.data.id !== undefined ? ` ${String(item.data.id)}` : '';
  return `${item.type}${id}${item.parent ? ` (of ${item.parent.type} ${item.parent.id})` : ''}`;
}

/** Applies `checks` to `data` in place; answers the warnings and whether a property without a fallback failed. */
function apply(
  data: Obj,
  checks: Record<string, Check>,
  name: string,
  path: string,
): { warnings: string[]; refused: boolean } {
  const warnings: string[] = [];
  let refused = false;
  for (const [key, check] of Object.entries(checks)) {
    const value = data[key];
    if (check.ok(value)) continue;
    const what =
      value === undefined ? 'is missing' : `is not what this server can read (${JSON.stringify(value)?.slice(0, 60)})`;
    if (check.fallback === undefined) {
      warnings.push(`${name}: ${path}${key} ${what}; not imported.`);
      refused = true;
      continue;
    }
    warnings.push(`${name}: ${path}${key} ${what}; imported with ${check.fallback.says}.`);
    if (check.omit) delete data[key];
    else data[key] = check.fallback.value();
  }
  return { warnings, refused };
}

/**
 * Checks one item of the stream (see the module comment) and answers a copy of its data to restore, with
 * missing or malformed properties given their fallback, or `undefined` when the record cannot be imported;
 * every finding is a warning naming the record and the property. An inquiry's attachments and file links are
 * checked one by one: an attachment without its `id`, `name` or `file` is left out (a warning), one without
 * `created` gets the time of the import.
 */
export function readItem(item: TransferItem): ReadItem {
  const name = recordName(item);
  if (!isObject(item.data)) return { data: undefined, warnings: [`${name}: not a JSON object; not imported.`] };
  const data: Obj = { ...item.data };
  const checks = CHECKS[item.type];
  if (checks === undefined) return { data, warnings: [] };
  const { warnings, refused } = apply(data, checks, name, '');
  if (refused) return { data: undefined, warnings };
  if (item.type === 'inquiry') {
    for (const [key, entryChecks] of [
      ['fileSet', FILE_ENTRY],
      ['fileLinkSet', FILE_LINK_ENTRY],
    ] as const) {
      const entries = data[key];
      if (entries === undefined || entries === null) continue;
      if (!Array.isArray(entries)) {
        warnings.push(`${name}: ${key} is not a list; imported without it.`);
        data[key] = [];
        continue;
      }
      const kept: Obj[] = [];
      entries.forEach((entry, i) => {
        if (!isObject(entry)) {
          warnings.push(`${name}: ${key}[${i}] is not an object; left out.`);
          return;
        }
        const copy = { ...entry };
        const r = apply(copy, entryChecks, name, `${key}[${i}].`);
        warnings.push(
          ...r.warnings.map((w) => (r.refused ? w.replace(/; not imported\.$/, '; this entry is left out.') : w)),
        );
        if (!r.refused) kept.push(copy);
      });
      data[key] = kept;
    }
  }
  return { data, warnings };
}
