/** SQL for clients and their custom field values. Soft-deleted clients are never read. */
import type { Database, Db } from '../../db/database.ts';
import { type SelectQueryBuilder, type SqlBool, SqliteAdapter, sql } from 'kysely';
import { preparedQuery } from '../../db/prepared-query.ts';
import { forUpdateOf, searchAll, trigramMatch } from '../../db/sql-helpers.ts';
import { fieldValuesJson } from '../field/field.service.ts';
import type { Timestamp } from '../../db/columns.ts';
import { type CursorPosition, fetchPage, newestFirst, noFilters, type Page, preparedPage } from '../../shared/pagination.ts';
import type { ClientRowUpdate, NewClientRow } from '../../db/tables/client.table.ts';

const summaryColumns = [
  'client.id',
  'client.company_name',
  'client.created',
  'client.status_id',
  'client_status.title as status_title',
  'client.in_charge',
  'client.position',
  'client.contact',
  'client.email',
] as const;

const detailColumns = [
  ...summaryColumns,
  'client.content',
  'client.business_registration_number',
  'client.ceo_name',
  'client.company_address',
  'client.company_detail_address',
  'client.business_type',
  'client.business_class',
  'client.branch_number',
  'client.tax_invoice_email',
  'client.is_hidden',
  'client.updated',
] as const;

function selectLive(db: Db, businessId: number) {
  return db
    .selectFrom('client')
    .leftJoin('client_status', 'client_status.id', 'client.status_id')
    .where('client.business_id', '=', businessId)
    .where('client.deleted_at', 'is', null);
}

/** A client row in the short shape, with its status title. */
export type ClientSummaryRow = Awaited<ReturnType<ReturnType<typeof findSummaryQuery>['executeTakeFirstOrThrow']>>;
function findSummaryQuery(db: Db, businessId: number) {
  return selectLive(db, businessId).select(summaryColumns);
}

/** A client row in the full shape, with its status title. */
export type ClientDetailRow = Awaited<ReturnType<ReturnType<typeof findDetailQuery>['executeTakeFirstOrThrow']>>;
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
 * The plan of a client search on SQLite (docs/api.md#search-plans), chosen by how many clients of the
 * business the indexes list for its terms (FTS5 counts them up to a cap, in 0.02–0.2 ms):
 * - a term with fewer than {@link INDEX_DRIVEN_BELOW} candidates drives: its index rows, each client looked
 *   up by id, then sorted (0.2–0.4 ms for 50 of 100,000; the plain scan reads the whole list when few or
 *   none match: 65–250 ms);
 * - otherwise the rarest two-character term, when it has fewer than {@link NARROWED_BELOW} candidates,
 *   narrows the scan: its candidates are read once into a set, and the list index is walked newest first,
 *   reading only the clients in the set, until a page is found (about 0.6 ms for 1 in 120 of 100,000, where
 *   the plain scan reads 2,500 clients: 2.6 ms);
 * - else the plain scan, which stops after a page of matches (a dense term's page is within its first rows).
 * Each plan has the same answer: the exact LIKE predicate (docs/api.md#filters) decides, in the list order.
 */
const INDEX_DRIVEN_BELOW = 500;
/**
 * See {@link INDEX_DRIVEN_BELOW}. Reading this many candidates costs about what a plain scan of a dense term
 * does (0.2 ms); a term with more is common enough that the scan finds a page soon.
 */
const NARROWED_BELOW = 2000;

/** {@link findSummaryQuery} with the FTS5 table as the outer loop (`CROSS JOIN` fixes the join order in SQLite). */
function ftsDrivenSummaryQuery(db: Db, businessId: number, table: 'client_search' | 'client_search_bigram', match: string) {
  return db
    .selectFrom(sql<{ rowid: number }>`${sql.table(table)}`.as(table))
    .crossJoin('client')
    .leftJoin('client_status', 'client_status.id', 'client.status_id')
    .where(sql<boolean>`client.id = ${sql.ref(`${table}.rowid`)} and ${sql.table(table)} match ${match}`)
    .where('client.business_id', '=', businessId)
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

/** How many rows of one FTS5 table match, counted up to a cap, as a prepared query (see preparedQuery). */
function countQuery(table: 'client_search' | 'client_search_bigram') {
  return preparedQuery(2, (db: Db, match: string, cap: number) => ({
    compile: () => sql<{ n: number }>`select count(*) as n from (select rowid from ${sql.table(table)} where ${sql.table(table)} match ${match} limit ${cap})`.compile(db),
  }));
}
const countIn = { client_search: countQuery('client_search'), client_search_bigram: countQuery('client_search_bigram') };

/** How many rows of the FTS5 table `table` match `match` (all businesses for the trigram index), up to `cap`. */
async function countMatches(db: Db, table: 'client_search' | 'client_search_bigram', match: string, cap: number): Promise<number> {
  const rows = await countIn[table](db, match, cap);
  return Number(rows[0]?.n ?? 0);
}

/**
 * The candidates of a two-character term on PostgreSQL, as a condition on `client`: the stored bigram array
 * of migration 0044 (GIN-indexed with `business_id`) contains `lower(term)`. Only narrows: the exact LIKE
 * predicate (docs/api.md#filters) still decides. The term is compared by equality, so `%` and `_` are literal.
 */
function bigramCandidate(term: string) {
  return sql<SqlBool>`client.search_bigrams @> array[lower(${term})]::text[]`;
}

/** The pages without filters, prepared (see preparedPage). */
const pages = preparedPage(findSummaryQuery, newestFirst<ClientSummaryRow>('client'));

/** A query over live clients with their status (see selectLive), selecting `O`. */
type ClientQuery<O> = SelectQueryBuilder<Database, 'client' | 'client_status', O>;

/** The list's filters other than `search`, on a query over `client`. */
function withListFilters<O>(query: ClientQuery<O>, filter: ClientFilter): ClientQuery<O> {
  let q = query;
  if (filter.createdFrom !== undefined) q = q.where('client.created', '>=', filter.createdFrom);
  if (filter.createdTo !== undefined) q = q.where('client.created', '<', filter.createdTo);
  if (filter.isHidden !== undefined) q = q.where('client.is_hidden', '=', filter.isHidden ? 1 : 0);
  if (filter.statusId !== undefined) q = q.where('client.status_id', '=', filter.statusId);
  if (filter.updatedFrom !== undefined) q = q.where('client.updated', '>=', filter.updatedFrom);
  if (filter.updatedTo !== undefined) q = q.where('client.updated', '<', filter.updatedTo);
  return q;
}

/** `query` with the exact search predicate (docs/api.md#filters): every term a substring of a searched column. */
function withSearch<Q extends ReturnType<typeof findSummaryQuery>>(query: Q, search: readonly string[]): Q {
  if (search.length === 0) return query;
  return query.where((eb) =>
    searchAll(eb, search, [eb.ref('client.company_name'), eb.ref('client.in_charge'), eb.ref('client.contact'), eb.ref('client.email')])!,
  ) as Q;
}

/** Which plan a SQLite search takes (see {@link INDEX_DRIVEN_BELOW}); exported for the benchmark and tests. */
export type SearchPlan = 'trigram-driven' | 'bigram-driven' | 'bigram-narrowed' | 'scan';

/**
 * One page of live clients, newest first, with the plan a search took (`undefined` without search terms,
 * and on PostgreSQL, whose planner chooses between the GIN indexes and the list index itself).
 */
export async function findPagePlanned(
  db: Db,
  businessId: number,
  filter: ClientFilter,
  size: number,
  cursor: CursorPosition | undefined,
): Promise<{ page: Page<ClientSummaryRow>; plan: SearchPlan | undefined }> {
  const order = newestFirst<ClientSummaryRow>('client');
  if (noFilters(filter)) return { page: await pages(db, businessId, size, cursor), plan: undefined };
  const search = filter.search;
  const bigramTerms = search.filter(isBigramTerm);
  if (search.length === 0 || !(db.getExecutor().adapter instanceof SqliteAdapter)) {
    let q = withListFilters(findSummaryQuery(db, businessId), filter);
    for (const term of bigramTerms) q = q.where(bigramCandidate(term));
    return { page: await fetchPage(withSearch(q, search), order, size, cursor), plan: undefined };
  }
  const page = (q: ReturnType<typeof findSummaryQuery>) => fetchPage(withSearch(withListFilters(q, filter), search), order, size, cursor);

  // The rarest indexed term, and whether it is rare enough to drive.
  const match = trigramMatch(db, search);
  const trigramCount = match === undefined ? Infinity : await countMatches(db, 'client_search', match, INDEX_DRIVEN_BELOW);
  let rarest: { match: string; n: number } | undefined;
  for (const term of new Set(bigramTerms)) {
    const m = bigramMatch(businessId, term);
    const n = await countMatches(db, 'client_search_bigram', m, NARROWED_BELOW);
    if (rarest === undefined || n < rarest.n) rarest = { match: m, n };
  }
  if (match !== undefined && trigramCount < INDEX_DRIVEN_BELOW && trigramCount <= (rarest?.n ?? Infinity)) {
    return { page: await page(ftsDrivenSummaryQuery(db, businessId, 'client_search', match)), plan: 'trigram-driven' };
  }
  if (rarest !== undefined && rarest.n < INDEX_DRIVEN_BELOW) {
    return { page: await page(ftsDrivenSummaryQuery(db, businessId, 'client_search_bigram', rarest.match)), plan: 'bigram-driven' };
  }
  if (rarest !== undefined && rarest.n < NARROWED_BELOW) {
    const candidates = sql<SqlBool>`client.id in (select rowid from client_search_bigram where client_search_bigram match ${rarest.match})`;
    return { page: await page(findSummaryQuery(db, businessId).where(candidates)), plan: 'bigram-narrowed' };
  }
  return { page: await page(findSummaryQuery(db, businessId)), plan: 'scan' };
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
 * {@link findShapeById} that is also the row's lock until the end of the caller's transaction (PostgreSQL:
 * `FOR UPDATE OF client`; SQLite: `BEGIN IMMEDIATE` holds the write lock already): the read a write path
 * starts with, so that its "before" is the state its change applies to (docs/api.md#events).
 */
export async function lockShapeById(db: Db, businessId: number, id: number): Promise<ClientShapeRow | undefined> {
  return (await shapeForUpdate(db, businessId, id))[0];
}
const shapeForUpdate = preparedQuery(2, (db: Db, businessId: number, id: number) => forUpdateOf(db, fullShapeQuery(db, businessId, id), 'client'));

/** Whether a live client with this id exists in the business. */
export async function existsById(db: Db, businessId: number, id: number): Promise<boolean> {
  const row = await selectLive(db, businessId).select('client.id').where('client.id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/**
 * Inserts a client; returns its id. `status_id` left `undefined` takes the business's default client status
 * (none when it has none; docs/api.md#clients), chosen in the insert itself.
 */
export async function insert(db: Db, businessId: number, row: Omit<NewClientRow, 'business_id'>): Promise<number> {
  const { id } = await db
    .insertInto('client')
    .values({ ...row, business_id: businessId, status_id: row.status_id === undefined ? defaultStatusId(db, businessId) : row.status_id })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** The id of the business's default client status as a subquery (`null` when it has none). */
function defaultStatusId(db: Db, businessId: number) {
  return db
    .selectFrom('client_status')
    .select('client_status.id')
    .where('client_status.business_id', '=', businessId)
    .where('client_status.is_default', '=', 1)
    .orderBy('client_status.id')
    .limit(1);
}

/**
 * Updates a live client: the columns of `patch` and `updated` set to `at`, in one statement (the lean write
 * path, docs/api.md#events; an empty `patch` stamps `updated` only). Returns the number of rows changed (0
 * when missing).
 */
export async function updateById(db: Db, businessId: number, id: number, patch: ClientRowUpdate, at: Timestamp): Promise<number> {
  const result = await db
    .updateTable('client')
    .set({ ...patch, updated: at })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Soft-deletes a live client; returns the number of rows changed (0 when missing). */
export async function softDeleteById(db: Db, businessId: number, id: number, at: Timestamp): Promise<number> {
  const result = await db
    .updateTable('client')
    .set({ deleted_at: at })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Brings a row of the business to `patch` whether live or soft-deleted, making it live (a restore). */
export async function restoreById(db: Db, businessId: number, id: number, patch: ClientRowUpdate): Promise<void> {
  await db.updateTable('client').set({ ...patch, deleted_at: null }).where('business_id', '=', businessId).where('id', '=', id).execute();
}
