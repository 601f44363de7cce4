/**
 * Helpers of the restore tests (src/shared/restore.ts): a catalog with custom fields of every data type on
 * every record kind, the id maps between two businesses that imported it, the rewriting of a record's full
 * shape through those maps (what the transfer module does before it calls a restore), and a free id.
 */
import { expect } from 'vitest';
import { sql } from 'kysely';
import type { Db } from '../../../src/db/database.ts';
import type { CatalogFile } from '../../../src/modules/catalog/catalog-import.ts';
import { ValidationError } from '../../../src/shared/errors.ts';
import { idTaken } from '../../../src/db/sql-helpers.ts';
import { testCatalog, type TestBusiness } from '../../setup/factories.ts';
import type { apiClient } from '../../setup/api-client.ts';

/** {@link testCatalog} plus contract fields of every data type, with Korean names and options. */
export function restoreCatalog(): CatalogFile {
  const base = testCatalog();
  return {
    ...base,
    fields: [
      ...base.fields!,
      {
        key: 'co_sl',
        name: '계약 채널',
        category: 'CO',
        dataType: 'SL',
        options: [
          { id: 'on', title: '온라인' },
          { id: 'off', title: '오프라인' },
        ],
      },
      {
        key: 'co_ml',
        name: '계약 태그',
        category: 'CO',
        dataType: 'ML',
        options: [
          { id: 'x', title: '엑스' },
          { id: 'y', title: '와이' },
        ],
      },
      { key: 'co_m', name: '담당 멤버', category: 'CO', dataType: 'M', members: ['kim', 'lee'] },
      { key: 'co_n', name: '금액 메모', category: 'CO', dataType: 'N' },
      { key: 'co_d', name: '서명일', category: 'CO', dataType: 'D' },
      { key: 'co_b', name: '긴급', category: 'CO', dataType: 'B' },
      { key: 'co_t', name: '비고', category: 'CO', dataType: 'T' },
    ],
  };
}

/** Id maps from business `a` to business `b` by kind (catalogs from the factory's keys, records added by tests). */
export type IdMaps = Record<string, Map<number, number>>;

/** The catalog id maps of two businesses that imported the same catalog file. */
export function catalogMaps(a: TestBusiness, b: TestBusiness): IdMaps {
  const maps: IdMaps = {};
  for (const [kind, byKey] of Object.entries(a.ids) as [string, Record<string, number>][]) {
    const other = (b.ids as unknown as Record<string, Record<string, number>>)[kind]!;
    maps[kind] = new Map(Object.entries(byKey).map(([key, id]) => [id, other[key]!]));
  }
  for (const kind of ['clients', 'inquiries', 'contracts', 'settlements']) maps[kind] = new Map();
  return maps;
}

/** The map kind of a property holding a nested record, by property name. */
const KIND_OF_KEY: Record<string, string> = {
  client: 'clients',
  inquiry: 'inquiries',
  contract: 'contracts',
  member: 'members',
  inCharge: 'members',
  completedInCharge: 'members',
  inChargeSet: 'members',
  memberSet: 'members',
  grade: 'grades',
  categorySet: 'contractCategories',
  field: 'fields',
  type: 'settlementTypes',
  position: 'positions',
  classification: 'estimateItemClassifications',
  folder: 'folders',
};
/** `status` is a client status inside a client, an inquiry status inside an inquiry, else a plain value. */
const STATUS_KIND: Record<string, string> = { clients: 'clientStatuses', inquiries: 'statuses' };

function mapId(maps: IdMaps, kind: string, id: number): number {
  const to = maps[kind]?.get(id);
  if (to === undefined) throw new Error(`no ${kind} mapping for ${id}`);
  return to;
}

function rewrite(value: unknown, kind: string | undefined, maps: IdMaps): unknown {
  if (Array.isArray(value)) return value.map((v) => rewrite(v, kind, maps));
  if (value === null || typeof value !== 'object') return value;
  const obj = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(obj)) {
    if (key === 'id' && kind !== undefined && typeof v === 'number') out.id = mapId(maps, kind, v);
    else if (key === 'fieldSet' && Array.isArray(v))
      out.fieldSet = v.map((e: { field: { dataType: string }; value: string }) => ({
        field: rewrite(e.field, 'fields', maps),
        value: e.field.dataType === 'M' ? String(mapId(maps, 'members', Number(e.value))) : e.value,
      }));
    else if (key === 'status' && kind !== undefined && STATUS_KIND[kind])
      out.status = rewrite(v, STATUS_KIND[kind], maps);
    else out[key] = rewrite(v, KIND_OF_KEY[key], maps);
  }
  return out;
}

/**
 * A record's full shape of business `a` with every nested reference rewritten to business `b` through
 * `maps` (the record's own `id` is kept: the caller chooses it).
 */
export function remap<T>(shape: T, maps: IdMaps): T {
  return rewrite(shape, undefined, maps) as T;
}

/** An id no row of `table` has (any business), above the largest, so a restore can keep it. */
export async function freeId(db: Db, table: string): Promise<number> {
  const { rows } = await sql<{ n: number | string | null }>`select max(id) as n from ${sql.table(table)}`.execute(db);
  for (;;) {
    const id = Number(rows[0]?.n ?? 0) + 1 + Math.floor(Math.random() * 1000);
    if (!(await idTaken(db, table, id))) return id;
  }
}

/** Expects `promise` to reject with a ValidationError whose field map equals `fields`. */
export async function expectValidation(promise: Promise<unknown>, fields: Record<string, unknown>): Promise<void> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ValidationError);
  expect((err as ValidationError).fields).toEqual(fields);
}

/** The `auth` a service's restore takes, for a test business. */
export const authOf = (x: TestBusiness) => ({ businessId: x.businessId, timezone: x.timezone });

/** `created` (POST, expects 201) and `read` (GET, expects 200), both answering the body, over `api`. */
export function httpHelpers(api: ReturnType<typeof apiClient>) {
  return {
    async created(x: TestBusiness, url: string, body: unknown): Promise<any> {
      const res = await api.post(x, url, body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body;
    },
    async read(x: TestBusiness, url: string): Promise<any> {
      const res = await api.get(x, url);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    },
  };
}
