/** SQL for clients and their custom field values. Soft-deleted clients are never read. */
import type { Db } from '../../db/database.ts';
import { recordWrites } from '../../db/record-writes.ts';
import { type Expression, type SqlBool, sql } from 'kysely';
import { preparedQuery, preparedShapes } from '../../db/prepared-query.ts';
import { escapeLike, forUpdateOf, isPostgres, rowAsSelect, trigramMatch, type RowLock } from '../../db/sql-helpers.ts';
import { defaultClientStatusId } from '../catalog/catalog.service.ts';
import { fieldValuesJson } from '../field/field.service.ts';
import {
  type CursorPosition,
  newestFirst,
  noFilters,
  type Page,
  preparedPage,
  preparedPages,
} from '../../shared/pagination.ts';
import type { NewClientRow } from '../../db/tables/client.table.ts';
import { selectColumns } from '../../shared/property-map.ts';
import { CLIENT_PROPERTIES } from './client.properties.ts';

/**
 * The short shape's columns: the client's own (client.properties.ts), its stored status id and the status's
 * title (`status`, a reference answered as `{id, title}`).
 */
const summaryColumns = [
  ...selectColumns(CLIENT_PROPERTIES, 'client', 'list'),
  'client.status_id',
  'client_status.title as status_title',
] as const;

/** The full shape's columns: the short shape's and the client's other columns. */
const detailColumns = [...summaryColumns, ...selectColumns(CLIENT_PROPERTIES, 'client', 'detail')] as const;

function selectLive(db: Db, businessId: number) {
  return db
    .selectFrom('client')
    .leftJoin('client_status', (join) =>
      join
        .onRef('client_status.id', '=', 'client.status_id')
        .onRef('client_status.business_id', '=', 'client.business_id'),
    )
    .where('client.business_id', '=', businessId)
    .where('client.deleted_at', 'is', null);
}

/** A client row in the short shape, with its status title. */
export type ClientSummaryRow = Awaited<ReturnType<ReturnType<typeof findSummaryQuery>['executeTakeFirstOrThrow']>>;
function findSummaryQuery(db: Db, businessId: number) {
  return selectLive(db, businessId).select(summaryColumns);
}

function findDetailQuery(db: Db, businessId: number) {
  return selectLive(db, businessId).select(detailColumns);
}

/** List filters (docs/api.md#filters); `createdFrom` / `createdTo` are a half-open UTC range. */
export interface ClientFilter {
  createdFrom?: string;
  createdTo?: string;
  isHidden?: boolean;
  search: readonly string[];
  statusId?: number;
  /** `updated_start` / `updated_end` as a half-open UTC range (docs/api.md#events). */
  updatedFrom?: string;
  updatedTo?: string;
}

/**
 * The limits of the plan of a client search on SQLite (docs/api.md#search-plans), chosen by how dense the
 * rarest indexed term is (the trigram index's query of the terms of three or more characters, and each
 * two-character term), cheapest questions first:
 * - the density probe: the term's first `probe` index entries (one FTS5 read, about 0.03 ms): fewer than
 *   that, and they are all its candidates; otherwise their rowid span gives its density, and a term in at
 *   least `scanDensity` of the rows is served by the plain scan, which finds a page within its first rows (a
 *   dense term pays the probe only, no count: 0.08 ms for a count up to 500, 0.25 ms up to 2,000);
 * - else it is counted (FTS5, up to `narrowedBelow` for a two-character term, `drivenBelow` otherwise; in
 *   the probe's statement, see {@link assess}): a
 *   term with fewer than `drivenBelow` candidates drives: its index rows, each client looked up by id, then
 *   sorted (0.1–0.4 ms for 50 of 100,000, where the plain scan reads the whole list: 60–300 ms);
 * - otherwise a two-character term with fewer than `narrowedBelow` candidates narrows the scan: its
 *   candidates are read once into a set, and the list index is walked newest first, reading only the clients
 *   in the set, until a page is found;
 * - else the plain scan, which stops after a page of matches.
 * The plain scan is what a search without any usable index (one-character terms only) runs. A plan costs at
 * most the probe and count more than the plain scan, or, driven or narrowed, a bounded number of candidates.
 * Each plan has the same answer: the exact LIKE predicate (docs/api.md#filters) decides, in the list order.
 * Every plan's page query is compiled once per shape and afterwards only bound (see {@link searchPages}).
 * Mutable for the tests, which exercise every plan on a few hundred clients.
 */
export const SEARCH_PLAN_LIMITS = {
  /** How many index entries of a term the density probe reads. */
  probe: 64,
  /**
   * The density (candidates per rowid, over the span of the probe's entries) from which a term goes
   * straight to the plain scan: 1 in 50, where the scan finds a page of 20 within about 1,000 rows. Other
   * businesses' rows in the span only make a term look rarer (then it is counted), never denser.
   */
  scanDensity: 1 / 50,
  /** A term with fewer candidates than this drives. */
  drivenBelow: 500,
  /**
   * A two-character term with fewer candidates than this (and at least `drivenBelow`) narrows the scan:
   * reading this many candidates costs about what a plain scan of a term in 1 in 50 rows does.
   */
  narrowedBelow: 2000,
};

/** {@link findSummaryQuery} with the FTS5 table as the outer loop (`CROSS JOIN` fixes the join order in SQLite). */
function ftsDrivenSummaryQuery(
  db: Db,
  businessId: unknown,
  table: 'client_search' | 'client_search_bigram',
  match: unknown,
) {
  return db
    .selectFrom(sql<{ rowid: number }>`${sql.table(table)}`.as(table))
    .crossJoin('client')
    .leftJoin('client_status', (join) =>
      join
        .onRef('client_status.id', '=', 'client.status_id')
        .onRef('client_status.business_id', '=', 'client.business_id'),
    )
    .where(sql<boolean>`client.id = ${sql.ref(`${table}.rowid`)} and ${sql.table(table)} match ${match}`)
    .where('client.business_id', '=', businessId as number)
    .where('client.deleted_at', 'is', null)
    .select(summaryColumns);
}

/**
 * Whether a search term is served by the bigram index (migration 0044): exactly two characters, also once
 * lower-cased. Terms of three or more characters are served by the trigram index (migration 0011); a
 * one-character term is served by none (the other terms, or the scan, find its matches).
 */
function isBigramTerm(term: string): boolean {
  return [...term].length === 2 && [...term.toLowerCase()].length === 2;
}

/**
 * The FTS5 query of a two-character term in the SQLite bigram index of migration 0044: the token
 * `b<businessId>x<hex of the UTF-8 bytes of the lower-cased term>`, quoted. Lower-cased as SQLite's `lower()`
 * does (ASCII letters only), so the token is the one the trigger wrote for every client that contains the term.
 */
function bigramMatch(businessId: number, term: string): string {
  const lower = term.replace(/[A-Z]/g, (c) => c.toLowerCase());
  return `"b${businessId}x${Buffer.from(lower, 'utf8').toString('hex').toUpperCase()}"`;
}

/**
 * The density probe and, only when it finds the term neither rare nor dense, the count, in one statement
 * (SQLite evaluates the count's subquery only in the branch that needs it), as a prepared query of one FTS5
 * table: `n` of the first `probe` entries, their rowid `span`, and `counted` (up to `cap`) or `null`.
 */
function assessQuery(table: 'client_search' | 'client_search_bigram') {
  const t = sql.table(table);
  return preparedQuery(4, (db: Db, match: string, probe: number, density: number, cap: number) => ({
    compile: () =>
      sql<{ n: number; span: number | null; counted: number | null }>`select n, span,
          case when n >= ${probe} and n < ${density} * span then (select count(*) from (select rowid from ${t} where ${t} match ${match} limit ${cap})) end as counted
        from (select count(*) as n, max(rowid) - min(rowid) + 1 as span from (select rowid from ${t} where ${t} match ${match} limit ${probe}))`.compile(
        db,
      ),
  }));
}
const assessIn = {
  client_search: assessQuery('client_search'),
  client_search_bigram: assessQuery('client_search_bigram'),
};

/**
 * How rare a term is in its index (see {@link SEARCH_PLAN_LIMITS}), in one statement (or none: the answer
 * for the same term within the last {@link ASSESSMENT_TTL_MS}): `n`, its candidates
 * when fewer than the probe's entries (in all businesses for the trigram index), else its count when its
 * probe density is below `scanDensity` and the count below `cap`, else `Infinity` (the scan serves it). FTS5 reads the
 * entries in rowid order, oldest first: a term frequent among old clients only looks dense, and the scan it
 * is then given costs at most what the plain scan costs.
 */
async function assess(
  db: Db,
  table: 'client_search' | 'client_search_bigram',
  match: string,
  cap: number,
): Promise<{ n: number; density: number }> {
  const { probe, scanDensity } = SEARCH_PLAN_LIMITS;
  const key = `${table} ${probe} ${scanDensity} ${cap} ${match}`;
  const now = Date.now();
  const known = assessments.get(key);
  assessments.delete(key); // re-inserted below: Map order is the recency order
  if (known !== undefined && now - known.at < ASSESSMENT_TTL_MS) {
    assessments.set(key, known);
    return known;
  }
  const row = (await assessIn[table](db, match, probe, scanDensity, cap))[0]!;
  const n = Number(row.n);
  const density = n < probe ? 0 : n / Number(row.span);
  const found = {
    n: n < probe ? n : row.counted === null || Number(row.counted) >= cap ? Infinity : Number(row.counted),
    density,
    at: now,
  };
  if (assessments.size >= ASSESSMENTS_KEPT) assessments.delete(assessments.keys().next().value!);
  assessments.set(key, found);
  return found;
}

/**
 * How long an {@link assess} answer is reused for the same term (and limits), in milliseconds: a search
 * repeated, or paged with `next`, then runs its page query alone. The answer only chooses the plan, never
 * the rows (every plan gives the same page), so a stale one costs time at most, for this long.
 */
const ASSESSMENT_TTL_MS = 10_000;
/** How many {@link assess} answers are kept (least recently used dropped). */
const ASSESSMENTS_KEPT = 1000;
const assessments = new Map<string, { n: number; density: number; at: number }>();

/** Which plan a SQLite search takes (see {@link SEARCH_PLAN_LIMITS}); exported for the benchmark and tests. */
export type SearchPlan = 'trigram-driven' | 'bigram-driven' | 'bigram-narrowed' | 'scan';

/**
 * The shape of a client list query with filters (see {@link searchPages}): what its SQL depends on. Its
 * arguments, in this order: the business id; the FTS5 MATCH string of a driving or narrowing plan; the value of
 * each filter set, in the order of {@link FILTERS}; on PostgreSQL each bigram term, lower-cased in SQL; each
 * term's LIKE pattern (`%term%`, escaped).
 */
interface ListShape {
  plan: SearchPlan | 'planner';
  /** The filters set, by name (see {@link FILTERS}). */
  filters: (typeof FILTERS)[number][0][];
  /** How many of the search terms are bigram candidates on PostgreSQL (0 on SQLite). */
  pgBigrams: number;
  terms: number;
}

/** The list filters other than `search`: the column, the operator, and the bound value of a filter. */
const FILTERS = [
  ['createdFrom', 'client.created', '>=', (f: ClientFilter) => f.createdFrom],
  ['createdTo', 'client.created', '<', (f: ClientFilter) => f.createdTo],
  [
    'isHidden',
    'client.is_hidden',
    '=',
    (f: ClientFilter) => (f.isHidden === undefined ? undefined : f.isHidden ? 1 : 0),
  ],
  ['statusId', 'client.status_id', '=', (f: ClientFilter) => f.statusId],
  ['updatedFrom', 'client.updated', '>=', (f: ClientFilter) => f.updatedFrom],
  ['updatedTo', 'client.updated', '<', (f: ClientFilter) => f.updatedTo],
] as const;

/** The searched columns (docs/api.md#filters). */
const SEARCHED = ['client.company_name', 'client.in_charge', 'client.contact', 'client.email'] as const;

/**
 * The substring rule of sql-helpers `containsInsensitive` for a pattern bound as a parameter (computed by
 * {@link likePattern} outside the query): `lower(column) LIKE lower(pattern) ESCAPE '\'` on PostgreSQL; on
 * SQLite `column LIKE pattern ESCAPE '\'`, the same predicate (SQLite's `LIKE` and `lower()` both fold the
 * ASCII letters only) without two function calls per column and row: 10–30% off a scan.
 */
function containsPattern(db: Db, column: string, pattern: unknown): Expression<SqlBool> {
  return isPostgres(db)
    ? sql<SqlBool>`lower(${sql.ref(column)}) like lower(${pattern}) escape '\\'`
    : sql<SqlBool>`${sql.ref(column)} like ${pattern} escape '\\'`;
}

/** The LIKE pattern of a search term: `%term%` with `\`, `%` and `_` escaped (docs/api.md#filters). */
function likePattern(term: string): string {
  return `%${escapeLike(term)}%`;
}

/** Builds the list query of `shape` from its arguments (stand-ins while compiling); see {@link ListShape}. */
function listQuery(db: Db, shape: ListShape, args: readonly unknown[]) {
  let i = 0;
  const next = () => args[i++];
  const businessId = next();
  let q =
    shape.plan === 'trigram-driven' || shape.plan === 'bigram-driven'
      ? ftsDrivenSummaryQuery(
          db,
          businessId,
          shape.plan === 'trigram-driven' ? 'client_search' : 'client_search_bigram',
          next(),
        )
      : findSummaryQuery(db, businessId as number);
  if (shape.plan === 'bigram-narrowed') {
    q = q.where(
      sql<SqlBool>`client.id in (select rowid from client_search_bigram where client_search_bigram match ${next()})`,
    );
  }
  for (const [name, column, op] of FILTERS) {
    if (shape.filters.includes(name)) q = q.where(sql.ref(column), op, next());
  }
  for (let t = 0; t < shape.pgBigrams; t++)
    q = q.where(sql<SqlBool>`client.search_bigrams @> array[lower(${next()})]::text[]`);
  const patterns = Array.from({ length: shape.terms }, next);
  if (patterns.length > 0)
    q = q.where((eb) => eb.and(patterns.map((p) => eb.or(SEARCHED.map((c) => containsPattern(db, c, p))))));
  return q;
}

/**
 * The pages of the list with filters, compiled once per {@link ListShape} and direction (first page, a
 * cursor forward or back; see preparedPages): at most 300 compiled queries kept, and at most 300 named
 * statements per PostgreSQL connection (docs/api.md#search-plans).
 */
const searchPages = preparedPages(300, listQuery, newestFirst<ClientSummaryRow>('client'));

/** The pages without filters, prepared (see preparedPage). */
const pages = preparedPage(findSummaryQuery, newestFirst<ClientSummaryRow>('client'));

/**
 * One page of live clients, newest first, with the plan a search took (`undefined` without search terms,
 * and on PostgreSQL, whose planner chooses between the GIN indexes and the list index itself).
 *
 * `force` (SQLite; tests and the benchmark) takes that plan instead of choosing one: a driven or narrowed
 * plan uses the trigram query, or the first two-character term. Every plan gives the same page.
 * @throws Error when `force` names a plan the search has no term for (a programming error)
 * @throws InvalidCursor when the cursor was issued for a list with another ordering
 */
export async function findPagePlanned(
  db: Db,
  businessId: number,
  filter: ClientFilter,
  size: number,
  cursor: CursorPosition | undefined,
  force?: SearchPlan,
): Promise<{ page: Page<ClientSummaryRow>; plan: SearchPlan | undefined }> {
  if (noFilters(filter)) return { page: await pages(db, businessId, size, cursor), plan: undefined };
  const search = filter.search;
  const sqlite = !isPostgres(db);
  const filters: ListShape['filters'] = [];
  const filterValues: unknown[] = [];
  for (const [name, , , value] of FILTERS) {
    const v = value(filter);
    if (v === undefined) continue;
    filters.push(name);
    filterValues.push(v);
  }
  const patterns = search.map(likePattern);
  const run = async (plan: ListShape['plan'], match: string | undefined, pgBigrams: string[] = []) => {
    const shape: ListShape = { plan, filters, pgBigrams: pgBigrams.length, terms: search.length };
    const key = `${plan} ${filters.join(',')} ${shape.pgBigrams} ${shape.terms}`;
    const args = [businessId, ...(match === undefined ? [] : [match]), ...filterValues, ...pgBigrams, ...patterns];
    return searchPages(db, key, shape, args, size, cursor);
  };
  if (!sqlite) return { page: await run('planner', undefined, search.filter(isBigramTerm)), plan: undefined };
  if (search.length === 0) return { page: await run('scan', undefined), plan: undefined };

  // The rarest indexed term (see SEARCH_PLAN_LIMITS): the trigram index's query of the longer terms, and
  // each two-character term; probed first, counted only when neither rare nor dense.
  const indexed: { table: 'client_search' | 'client_search_bigram'; match: string }[] = [];
  const match = trigramMatch(db, search);
  if (match !== undefined) indexed.push({ table: 'client_search', match });
  for (const term of new Set(search.filter(isBigramTerm)))
    indexed.push({ table: 'client_search_bigram', match: bigramMatch(businessId, term) });
  if (force !== undefined) {
    const table = force === 'trigram-driven' ? 'client_search' : 'client_search_bigram';
    const use = indexed.find((i) => i.table === table);
    if (force !== 'scan' && use === undefined)
      throw new Error(`findPagePlanned: the search has no term for the plan ${force}`);
    return { page: await run(force, force === 'scan' ? undefined : use!.match), plan: force };
  }
  const assessed = [];
  for (const i of indexed) {
    const bigram = i.table === 'client_search_bigram';
    assessed.push({
      ...i,
      bigram,
      ...(await assess(
        db,
        i.table,
        i.match,
        bigram ? SEARCH_PLAN_LIMITS.narrowedBelow : SEARCH_PLAN_LIMITS.drivenBelow,
      )),
    });
  }
  // The rarest: the fewest candidates, and among dense terms (n: Infinity) the least dense.
  assessed.sort((a, b) => a.n - b.n || a.density - b.density);
  const rarest = assessed[0];
  if (rarest === undefined || rarest.n === Infinity) return { page: await run('scan', undefined), plan: 'scan' };
  if (rarest.n < SEARCH_PLAN_LIMITS.drivenBelow) {
    const plan = rarest.bigram ? 'bigram-driven' : 'trigram-driven';
    return { page: await run(plan, rarest.match), plan };
  }
  if (rarest.bigram && rarest.n < SEARCH_PLAN_LIMITS.narrowedBelow)
    return { page: await run('bigram-narrowed', rarest.match), plan: 'bigram-narrowed' };
  return { page: await run('scan', undefined), plan: 'scan' };
}

/** One page of live clients, newest first (docs/api.md#filters for the filters, #search-plans for search). */
export async function findPage(
  db: Db,
  businessId: number,
  filter: ClientFilter,
  size: number,
  cursor: CursorPosition | undefined,
): Promise<Page<ClientSummaryRow>> {
  return (await findPagePlanned(db, businessId, filter, size, cursor)).page;
}

/**
 * The full shape of a live client in one statement (the lean write path, docs/api.md#events): the detail
 * columns and `field_set`, its custom field values as a JSON column (field.service `fieldValuesJson`).
 */
function fullShapeQuery(db: Db, businessId: number, id: number) {
  return findDetailQuery(db, businessId)
    .select(fieldValuesJson(db, businessId, 'C', sql.ref('client.id')).as('field_set'))
    .where('client.id', '=', id);
}
/** A live client's full shape as {@link fullShapeQuery} reads it. */
export type ClientShapeRow = Awaited<ReturnType<ReturnType<typeof fullShapeQuery>['executeTakeFirstOrThrow']>>;

/** A live client's full shape in one statement, or `undefined` (GET of a client). */
export async function findShapeById(db: Db, businessId: number, id: number): Promise<ClientShapeRow | undefined> {
  return (await shapeById(db, businessId, id))[0];
}
const shapeById = preparedQuery(2, (db: Db, businessId: number, id: number) => fullShapeQuery(db, businessId, id));

/**
 * {@link findShapeById} that is also the row's lock until the end of the caller's transaction, the read a write
 * path starts with, so that its "before" is the state its change applies to (docs/api.md#events). PostgreSQL:
 * `FOR NO KEY UPDATE OF client`, or `FOR UPDATE OF client` with `lock: 'update'`, for a change that records
 * created meanwhile would nest (docs/api.md#cascades; sql-helpers `forUpdateOf`). SQLite: the transaction's
 * `BEGIN IMMEDIATE` holds the write lock already.
 */
export async function lockShapeById(
  db: Db,
  businessId: number,
  id: number,
  lock: RowLock = 'no key update',
): Promise<ClientShapeRow | undefined> {
  return (await (lock === 'update' ? shapeForCascade : shapeForUpdate)(db, businessId, id))[0];
}
const shapeForUpdate = preparedQuery(2, (db: Db, businessId: number, id: number) =>
  forUpdateOf(db, fullShapeQuery(db, businessId, id), 'client'),
);
const shapeForCascade = preparedQuery(2, (db: Db, businessId: number, id: number) =>
  forUpdateOf(db, fullShapeQuery(db, businessId, id), 'client', 'update'),
);

/** Whether a live client with this id exists in the business. */
export async function existsById(db: Db, businessId: number, id: number): Promise<boolean> {
  const row = await selectLive(db, businessId).select('client.id').where('client.id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/** Which columns a client INSERT sets, and whether the insert chooses the default status itself. */
interface InsertShape {
  columns: string[];
  defaultStatus: boolean;
}

/**
 * The client INSERT of each {@link InsertShape}, built and compiled once (bench/README.md#issue-38-fixed-path:
 * Kysely building it was about 4% of a create's CPU): arguments are the columns' values in `columns` order,
 * then the business id. At most 32 shapes (a create sets a handful of optional columns).
 */
const insertOfShape = preparedShapes(32, (db: Db, shape: InsertShape, args: readonly unknown[]) => {
  const businessId = args[shape.columns.length] as number;
  const row: Record<string, unknown> = Object.fromEntries(shape.columns.map((column, i) => [column, args[i]]));
  row.business_id = businessId;
  if (shape.defaultStatus) row.status_id = defaultClientStatusId(db, businessId);
  // INSERT … SELECT: one statement that Citus takes (sql-helpers rowAsSelect)
  const insert = rowAsSelect(db, row);
  return db
    .insertInto('client')
    .columns(insert.columns as never)
    .expression(insert.select as never)
    .returning('id');
});

/**
 * Inserts a client; returns its id. `status_id` left `undefined` takes the business's default client status
 * (none when it has none; docs/api.md#clients), chosen in the insert itself (catalog.service
 * `defaultClientStatusId`). One statement, compiled once per set of columns ({@link insertOfShape}).
 */
export async function insert(db: Db, businessId: number, row: Omit<NewClientRow, 'business_id'>): Promise<number> {
  const columns: string[] = [];
  const values: unknown[] = [];
  for (const [column, value] of Object.entries(row)) {
    if (value === undefined) continue;
    columns.push(column);
    values.push(value);
  }
  const defaultStatus = row.status_id === undefined;
  const [created] = await insertOfShape(db, `${columns.join(',')}|${defaultStatus}`, { columns, defaultStatus }, [
    ...values,
    businessId,
  ]);
  return (created as { id: number }).id;
}

/** The by-id writes of the table (src/db/record-writes.ts): `updateById`, `softDeleteById`, `restoreById`. */
export const { updateById, softDeleteById, restoreById } = recordWrites('client', { softDelete: true });
