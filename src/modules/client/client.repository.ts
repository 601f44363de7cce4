/** SQL for clients and their custom field values. Soft-deleted clients are never read. */
import type { Db } from '../../db/database.ts';
import { PostgresAdapter, type SqlBool, SqliteAdapter, sql } from 'kysely';
import { preparedQuery } from '../../db/prepared-query.ts';
import { countTrigramMatches, forUpdateOf, searchAll, trigramMatch } from '../../db/sql-helpers.ts';
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
 * The plan of a client search on SQLite, chosen by how many rows match its terms in the trigram index
 * (counted up to this number, in under 2 ms): below it, the index drives the query (each match looked up by
 * id, then sorted: 0.1 ms for no match, under 1 ms for 100); from it on, the business's clients are scanned
 * newest first and the scan stops after one page of matches (2,500 rows when 1 in 120 matches). SQLite's own
 * planner always scans, so a search matching little read every client of the business (11 ms for 100,000),
 * and the index used as a filter of the scan cost more than it saved for common terms.
 */
const FTS_DRIVEN_BELOW = 500;

/** {@link findSummaryQuery} with the FTS5 table as the outer loop (`CROSS JOIN` fixes the join order in SQLite). */
function ftsDrivenSummaryQuery(db: Db, businessId: number, match: string) {
  return db
    .selectFrom(sql<{ rowid: number }>`client_search`.as('client_search'))
    .crossJoin('client')
    .leftJoin('client_status', 'client_status.id', 'client.status_id')
    .where(sql<boolean>`client.id = client_search.rowid and client_search match ${match}`)
    .where('client.business_id', '=', businessId)
    .where('client.deleted_at', 'is', null)
    .select(summaryColumns);
}

/**
 * Whether a search term is served by the bigram index (migration 0033): exactly two characters, also once
 * lower-cased. Terms of three or more characters are served by the trigram index (migration 0011); a
 * one-character term scans.
 */
function isBigramTerm(term: string): boolean {
  return [...term].length === 2 && [...term.toLowerCase()].length === 2;
}

/**
 * The candidates of a two-character term from the bigram index (migration 0033), as a condition on `client`:
 * the clients of the business one of whose four searched columns, lower-cased, contains `lower(term)`. Only
 * narrows: the exact LIKE predicate (docs/api.md#filters) still decides. The term is compared
 * by equality, so `%` and `_` are literal here too.
 */
function bigramCandidate(db: Db, businessId: number, term: string) {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? sql<SqlBool>`bizapi_client_bigrams(client.company_name, client.in_charge, client.contact, client.email) @> array[lower(${term})]::text[]`
    : sql<SqlBool>`client.id in (select client_id from client_bigram where business_id = ${businessId} and bigram = lower(${term}))`;
}

/**
 * {@link findSummaryQuery} with the bigram side table (SQLite) as the outer loop: the clients of the business
 * whose bigrams include `lower(term)`, each looked up by id, then sorted. Chosen when the term has fewer than
 * {@link FTS_DRIVEN_BELOW} candidates: SQLite's own plan scans the business's clients newest first and probes
 * the candidate list, which reads every client when few or none match (40 ms for 100,000).
 */
function bigramDrivenSummaryQuery(db: Db, businessId: number, term: string) {
  return db
    .selectFrom(sql<{ client_id: number }>`client_bigram`.as('client_bigram'))
    .crossJoin('client')
    .leftJoin('client_status', 'client_status.id', 'client.status_id')
    .where(sql<boolean>`client_bigram.business_id = ${businessId} and client_bigram.bigram = lower(${term}) and client.id = client_bigram.client_id`)
    .where('client.business_id', '=', businessId)
    .where('client.deleted_at', 'is', null)
    .select(summaryColumns);
}

/** How many clients of the business the bigram index lists for `term` (SQLite), counted up to `cap`. */
async function countBigramCandidates(db: Db, businessId: number, term: string, cap: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from (select 1 from client_bigram where business_id = ${businessId} and bigram = lower(${term}) limit ${cap})`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** The pages without filters, prepared (see preparedPage). */
const pages = preparedPage(findSummaryQuery, newestFirst<ClientSummaryRow>('client'));

/** One page of live clients, newest first. */
export async function findPage(
  db: Db,
  businessId: number,
  filter: ClientFilter,
  size: number,
  cursor: CursorPosition | undefined,
): Promise<Page<ClientSummaryRow>> {
  if (noFilters(filter)) return pages(db, businessId, size, cursor);
  let q = findSummaryQuery(db, businessId);
  const match = filter.search.length > 0 ? trigramMatch(db, filter.search) : undefined;
  const ftsDriven = match !== undefined && (await countTrigramMatches(db, 'client_search', match, FTS_DRIVEN_BELOW)) < FTS_DRIVEN_BELOW;
  if (ftsDriven) q = ftsDrivenSummaryQuery(db, businessId, match);
  const bigramTerms = filter.search.filter(isBigramTerm);
  if (!ftsDriven && bigramTerms.length > 0 && db.getExecutor().adapter instanceof SqliteAdapter) {
    // The rarest two-character term drives when it is selective enough (see bigramDrivenSummaryQuery).
    let best: { term: string; n: number } | undefined;
    for (const term of bigramTerms) {
      const n = await countBigramCandidates(db, businessId, term, FTS_DRIVEN_BELOW);
      if (best === undefined || n < best.n) best = { term, n };
    }
    if (best !== undefined && best.n < FTS_DRIVEN_BELOW) q = bigramDrivenSummaryQuery(db, businessId, best.term);
  }
  if (filter.createdFrom !== undefined) q = q.where('client.created', '>=', filter.createdFrom);
  if (filter.createdTo !== undefined) q = q.where('client.created', '<', filter.createdTo);
  if (filter.isHidden !== undefined) q = q.where('client.is_hidden', '=', filter.isHidden ? 1 : 0);
  if (filter.statusId !== undefined) q = q.where('client.status_id', '=', filter.statusId);
  if (filter.updatedFrom !== undefined) q = q.where('client.updated', '>=', filter.updatedFrom);
  if (filter.updatedTo !== undefined) q = q.where('client.updated', '<', filter.updatedTo);
  const search = filter.search;
  for (const term of search.filter(isBigramTerm)) q = q.where(bigramCandidate(db, businessId, term));
  if (search.length > 0) {
    // The exact predicate decides; the trigram index (migration 0011) has only chosen the plan.
    q = q.where((eb) =>
      searchAll(eb, search, [eb.ref('client.company_name'), eb.ref('client.in_charge'), eb.ref('client.contact'), eb.ref('client.email')])!,
    );
  }
  return fetchPage(q, newestFirst<ClientSummaryRow>('client'), size, cursor);
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
