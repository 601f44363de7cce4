/**
 * Keyset cursor pagination (docs/api.md#pagination): page size from `page_size` (alias `limit`), default 20, clamped
 * to 100; an opaque, tamper-evident `cursor`; `{next, previous, results}` with absolute URLs that keep every
 * other query parameter.
 *
 * A cursor names a position (the ordering values of one row) and a direction. Pages are fetched with
 * `WHERE (ordering) after|before position ORDER BY … LIMIT size + 1`, so inserts and deletes while a client
 * pages never skip or repeat other rows, and page 1000 costs what page 1 costs.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import Type from 'typebox';
import type { Db } from '../db/database.ts';
import { preparedQuery, preparedShapes } from '../db/prepared-query.ts';
import { ApiError } from './errors.ts';

/** Page size when the query names none (docs/api.md#pagination). */
export const DEFAULT_PAGE_SIZE = 20;
/** Largest page; larger requests are clamped (docs/api.md#pagination). */
export const MAX_PAGE_SIZE = 100;

/**
 * 404 `{"detail": "Invalid cursor"}` for a malformed or tampered cursor, or one issued by another list: what
 * DRF's `CursorPagination` answers (docs/api.md#pagination).
 */
export class InvalidCursor extends ApiError {
  override readonly statusCode = 404;
  constructor() {
    super('Invalid cursor');
  }
  override toBody(): Record<string, unknown> {
    return { detail: this.detail };
  }
}

/** Query parameters every paged list takes. */
export const PageQueryProperties = {
  cursor: Type.Optional(Type.String({ description: 'Position from the `next` or `previous` link of a page.' })),
  page_size: Type.Optional(
    Type.Integer({
      minimum: 1,
      description: `Items per page: default ${DEFAULT_PAGE_SIZE}, larger values are clamped to ${MAX_PAGE_SIZE}.`,
    }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, description: 'Alias of `page_size` (the name the spec uses).' })),
};

/** The page size a query asks for: `page_size`, else `limit`, else 20; at most 100. */
export function pageSizeOf(query: { page_size?: number; limit?: number }): number {
  return Math.min(query.page_size ?? query.limit ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** A decoded cursor: the ordering values of the row it points at, and which way to read from it. */
export interface CursorPosition {
  values: (string | number)[];
  /** `true`: the page before the position (a `previous` link); `false`: the page after it. */
  reverse: boolean;
}

/**
 * Encodes and decodes cursors: base64url JSON followed by a 12-byte HMAC tag under a key derived from the
 * master key, so a cursor cannot be forged or edited. The tag also covers a `scope` (the list's route), so
 * a cursor issued by one list is refused by every other list.
 */
export class CursorCodec {
  private readonly key: Buffer;

  constructor(masterKey: Buffer) {
    this.key = createHmac('sha256', masterKey).update('bizapi cursor v1').digest();
  }

  private tag(scope: string, payload: string): string {
    return createHmac('sha256', this.key).update(`${scope}\n${payload}`).digest().subarray(0, 12).toString('base64url');
  }

  /** @param scope the list the cursor belongs to (its route path) */
  encode(position: CursorPosition, scope: string): string {
    const payload = Buffer.from(JSON.stringify([position.reverse ? 1 : 0, ...position.values])).toString('base64url');
    return `${payload}.${this.tag(scope, payload)}`;
  }

  /**
   * @throws InvalidCursor when the text is not a cursor this server issued
   */
  decode(text: string, scope: string): CursorPosition {
    const [payload, tag, extra] = text.split('.');
    if (payload === undefined || tag === undefined || extra !== undefined) throw new InvalidCursor();
    if (!BASE64URL.test(payload) || !BASE64URL.test(tag)) throw new InvalidCursor();
    const given = Buffer.from(tag);
    const expected = Buffer.from(this.tag(scope, payload));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new InvalidCursor();
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw new InvalidCursor();
    }
    if (
      !Array.isArray(parsed) ||
      parsed.length < 2 ||
      (parsed[0] !== 0 && parsed[0] !== 1) ||
      !parsed.slice(1).every((v) => typeof v === 'string' || typeof v === 'number')
    ) {
      throw new InvalidCursor();
    }
    return { reverse: parsed[0] === 1, values: parsed.slice(1) as (string | number)[] };
  }
}

/** One column of a list's ordering: the SQL reference, the row property holding its value, the direction. */
export interface OrderColumn<Row> {
  ref: string;
  key: keyof Row & string;
  direction: 'asc' | 'desc';
}

/** What a repository returns for a page: the rows plus the positions of the neighbouring pages. */
export interface Page<Row> {
  rows: Row[];
  next: CursorPosition | null;
  previous: CursorPosition | null;
}

/** Newest first by `created`, ties by `id` descending (docs/api.md#pagination) for a table or alias `t`. */
export function newestFirst<Row extends { created: string; id: number }>(t: string): OrderColumn<Row>[] {
  return [
    { ref: `${t}.created`, key: 'created', direction: 'desc' },
    { ref: `${t}.id`, key: 'id', direction: 'desc' },
  ];
}

/* eslint-disable @typescript-eslint/no-explicit-any -- keyset helpers work on any table's query builder */
function afterPosition(
  eb: ExpressionBuilder<any, any>,
  order: readonly OrderColumn<any>[],
  values: readonly (string | number)[],
  reverse: boolean,
): Expression<SqlBool> {
  const branches = order.map((col, i) => {
    const forward = col.direction === 'desc' ? '<' : '>';
    const backward = col.direction === 'desc' ? '>' : '<';
    const equalities = order.slice(0, i).map((c, j) => eb(sql.ref(c.ref), '=', values[j]));
    return eb.and([...equalities, eb(sql.ref(col.ref), reverse ? backward : forward, values[i])]);
  });
  if (order.length === 1) return branches[0]!;
  // A redundant bound on the leading column (`created <= ?` for newest first), so that SQLite seeks the
  // index to the cursor: for the OR above alone, SQLite 3.53 scans the index from the start, and a page
  // cost grew with its depth (the 500th page of clients took 1.1 ms instead of 0.03 ms).
  const lead = order[0]!;
  const leadBound = (lead.direction === 'desc') !== reverse ? '<=' : '>=';
  return eb.and([eb(sql.ref(lead.ref), leadBound, values[0]), eb.or(branches)]);
}

/** `query` in the page order of `order`, reversed when walking back. */
function ordered<Q extends SelectQueryBuilder<any, any, any>>(
  query: Q,
  order: readonly OrderColumn<any>[],
  reverse: boolean,
): Q {
  let q = query;
  for (const col of order) {
    const dir = reverse ? (col.direction === 'asc' ? 'desc' : 'asc') : col.direction;
    q = q.orderBy(sql.ref(col.ref), dir) as Q;
  }
  return q;
}

/**
 * Runs a keyset page query. `query` must already select the `key` columns of `order` and filter by business.
 *
 * @param size rows per page (1..100)
 * @param cursor the decoded cursor, or `undefined` for the first page
 * @throws InvalidCursor when the cursor was issued for a list with another ordering
 */
export async function fetchPage<Row extends Record<string, unknown>>(
  query: SelectQueryBuilder<any, any, Row>,
  order: readonly OrderColumn<Row>[],
  size: number,
  cursor: CursorPosition | undefined,
): Promise<Page<Row>> {
  if (cursor && cursor.values.length !== order.length) throw new InvalidCursor();
  const reverse = cursor?.reverse ?? false;
  let q = query;
  if (cursor) q = q.where((eb) => afterPosition(eb, order, cursor.values, reverse));
  const fetched = await ordered(q, order, reverse)
    .limit(size + 1)
    .execute();
  return toPage(fetched, order, size, cursor);
}

/**
 * The pages of a list without filters (the list integrators poll for new records and walk with `next`), as
 * prepared queries: `base` (the list's query for one business, selecting the `key` columns of `order`) is
 * built and compiled once for the first page and once for each direction of a cursor, then run with the
 * business, the page size and the cursor's values (see preparedQuery). The answer is the one
 * {@link fetchPage} gives for `base`.
 * @throws InvalidCursor when the cursor was issued for a list with another ordering
 */
export function preparedPage<Row extends Record<string, unknown>>(
  base: (db: Db, businessId: number) => SelectQueryBuilder<any, any, Row>,
  order: readonly OrderColumn<Row>[],
): (db: Db, businessId: number, size: number, cursor: CursorPosition | undefined) => Promise<Page<Row>> {
  type Args = [businessId: number, limit: number, ...values: (string | number)[]];
  const after = (reverse: boolean) =>
    preparedQuery<Args, Row>(2 + order.length, (db, businessId, limit, ...values) =>
      ordered(
        base(db, businessId).where((eb) => afterPosition(eb, order, values, reverse)),
        order,
        reverse,
      ).limit(limit),
    );
  const first = preparedQuery(2, (db: Db, businessId: number, limit: number) =>
    ordered(base(db, businessId), order, false).limit(limit),
  );
  const forward = after(false);
  const backward = after(true);
  return async (db, businessId, size, cursor) => {
    if (cursor === undefined) return toPage(await first(db, businessId, size + 1), order, size, undefined);
    if (cursor.values.length !== order.length) throw new InvalidCursor();
    const fetched = await (cursor.reverse ? backward : forward)(db, businessId, size + 1, ...cursor.values);
    return toPage(fetched, order, size, cursor);
  };
}

/**
 * The pages of a list with filters, as prepared queries per shape (see preparedShapes): `base(db, shape,
 * args)` builds the list's filtered query of one shape (selecting the `key` columns of `order`, filtered by
 * business) from stand-ins for `args`; each shape is compiled once for the first page and once for each
 * direction of a cursor, then run with `args`, the page size and the cursor's values. `key` identifies
 * `shape` (the caller derives both from the same data). The answer is the one {@link fetchPage} gives for
 * the query `base` builds from the values. At most `capacity` compiled queries are kept (three per shape).
 * @throws InvalidCursor when the cursor was issued for a list with another ordering
 */
export function preparedPages<Row extends Record<string, unknown>, S>(
  capacity: number,
  base: (db: Db, shape: S, args: readonly unknown[]) => SelectQueryBuilder<any, any, Row>,
  order: readonly OrderColumn<Row>[],
): (
  db: Db,
  key: string,
  shape: S,
  args: unknown[],
  size: number,
  cursor: CursorPosition | undefined,
) => Promise<Page<Row>> {
  type Shape = { shape: S; n: number; reverse: boolean | undefined };
  const run = preparedShapes<Shape, Row>(capacity, (db, { shape, n, reverse }, all) => {
    const q = base(db, shape, all.slice(0, n));
    const limit = all[n];
    if (reverse === undefined) return ordered(q, order, false).limit(limit as number);
    const values = all.slice(n + 1) as (string | number)[];
    return ordered(
      q.where((eb) => afterPosition(eb, order, values, reverse)),
      order,
      reverse,
    ).limit(limit as number);
  });
  return async (db, key, shape, args, size, cursor) => {
    if (cursor !== undefined && cursor.values.length !== order.length) throw new InvalidCursor();
    const reverse = cursor?.reverse;
    const fetched = await run(
      db,
      `${reverse === undefined ? 'first' : reverse ? 'back' : 'forward'} ${key}`,
      { shape, n: args.length, reverse },
      [...args, size + 1, ...(cursor?.values ?? [])],
    );
    return toPage(fetched, order, size, cursor);
  };
}

/** Whether a list's filters are all unset (`undefined`, or an empty list of terms). */
export function noFilters(filter: object): boolean {
  return Object.values(filter).every((v) => v === undefined || (Array.isArray(v) && v.length === 0));
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/** Cuts up to `size + 1` fetched rows into a page and the positions of its neighbours. */
function toPage<Row extends Record<string, unknown>>(
  fetched: Row[],
  order: readonly OrderColumn<Row>[],
  size: number,
  cursor: CursorPosition | undefined,
): Page<Row> {
  const reverse = cursor?.reverse ?? false;
  const more = fetched.length > size;
  const rows = fetched.slice(0, size);
  if (reverse) rows.reverse();
  const positionOf = (row: Row, rev: boolean): CursorPosition => ({
    values: order.map((c) => row[c.key] as string | number),
    reverse: rev,
  });
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (!reverse) {
    return {
      rows,
      next: more && last ? positionOf(last, false) : null,
      previous: cursor ? (first ? positionOf(first, true) : { values: cursor.values, reverse: true }) : null,
    };
  }
  return {
    rows,
    previous: more && first ? positionOf(first, true) : null,
    next: last ? positionOf(last, false) : { values: cursor!.values, reverse: false },
  };
}

/**
 * The absolute URL of the same list with `cursor` replaced, every other query parameter kept.
 *
 * @param origin `protocol://host[:port]` of the request
 * @param url the request's path and query (`request.url`)
 */
export function pageLink(origin: string, url: string, cursor: string | null): string | null {
  if (cursor === null) return null;
  const u = new URL(url, origin);
  u.searchParams.set('cursor', cursor);
  return u.toString();
}

/** The list a request reads: its route path, the scope its cursors are bound to. */
function scopeOf(request: FastifyRequest): string {
  return `${request.method} ${request.routeOptions.url ?? ''}`.replace(/\/+$/, '');
}

/**
 * Decodes the `cursor` query parameter of a request (`undefined` when absent).
 * @throws InvalidCursor for a malformed or tampered cursor, or one issued by another list
 */
export function readCursor(request: FastifyRequest, text: string | undefined): CursorPosition | undefined {
  return text === undefined ? undefined : request.server.cursors.decode(text, scopeOf(request));
}

/** A page as the API answers it (docs/api.md#pagination). */
export interface PageBody<T> {
  next: string | null;
  previous: string | null;
  results: T[];
}

/**
 * Renders a page with absolute `next` / `previous` links built from the request's own path and query on its
 * public origin (`BIZAPI_PUBLIC_URL`, else the validated `Host`: plugins/request-guards.ts).
 */
export function toPageBody<T>(request: FastifyRequest, page: Page<T>): PageBody<T> {
  const origin = request.publicOrigin;
  const scope = scopeOf(request);
  const link = (p: CursorPosition | null) =>
    pageLink(origin, request.url, p && request.server.cursors.encode(p, scope));
  return { next: link(page.next), previous: link(page.previous), results: page.rows };
}

/** Maps the rows of a page, keeping its positions. */
export function mapPage<R, T>(page: Page<R>, map: (row: R) => T): Page<T> {
  return { rows: page.rows.map(map), next: page.next, previous: page.previous };
}
