/**
 * The ids this server can serve, in one place (docs/deployment.md#ids-kept-and-ids-remapped).
 *
 * An id this server generates comes from the table's id sequence (PostgreSQL's identity sequence, SQLite's
 * `autoincrement`), which an explicit id moves past itself. An id kept from an import (`bizapi import`)
 * therefore decides the ids of every later create, of every business that shares the table: kept near the top
 * of the range, it exhausts the sequence (PostgreSQL `int4`: `nextval: reached maximum value`) or hands out ids
 * JavaScript numbers cannot hold exactly (SQLite: above 2^53 − 1 two creates round to one id), or ids the API
 * does not serve (a path id above 2^31 − 1 is a 404 today). So a restore
 * keeps an imported id only up to {@link maxKeptId}; above it the record gets a new id and the import reports
 * it under `idsChanged`.
 */
import type { Db } from './database.ts';
import { idTaken, isPostgres } from './sql-helpers.ts';

/** Which database engine a bound is for. */
export type IdDialect = 'postgres' | 'sqlite';

/**
 * The largest id a restore keeps, per engine (docs/deployment.md#ids-kept-and-ids-remapped): 2^52 =
 * 4,503,599,627,370,496 on both, now that ids are 64-bit (PostgreSQL `bigint`, path ids up to 2^53 − 1):
 * an id reaches the API as a JavaScript number, exact only up to 2^53 − 1, and 2^52 leaves 2^52 creates of
 * room after the largest kept id (room for any number of ordinary creates).
 */
export const MAX_KEPT_ID: Readonly<Record<IdDialect, number>> = {
  postgres: 2 ** 52,
  sqlite: 2 ** 52,
};

/** {@link MAX_KEPT_ID} of the engine behind `db`. */
export function maxKeptId(db: Db): number {
  return MAX_KEPT_ID[isPostgres(db) ? 'postgres' : 'sqlite'];
}

/** Whether `id` may be kept as given by a restore: a positive safe integer no larger than {@link maxKeptId}. */
export function isKeepableId(db: Db, id: number): boolean {
  return Number.isSafeInteger(id) && id > 0 && id <= maxKeptId(db);
}

/**
 * Whether a restore may insert a row of `table` under `id`: {@link isKeepableId}, and no row of the table (any
 * business, live or soft-deleted) has it. Otherwise the row gets a new id from the sequence.
 */
export async function canKeepId(db: Db, table: string, id: number | undefined): Promise<boolean> {
  return id !== undefined && isKeepableId(db, id) && !(await idTaken(db, table, id));
}
