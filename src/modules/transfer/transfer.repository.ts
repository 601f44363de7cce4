/** SQL of the transfer module: the origin of imported businesses and the id map (migration 2026_11_26_0042). */
import type { Db } from '../../db/database.ts';
import type { Timestamp } from '../../db/columns.ts';
import type { TransferOriginTable } from '../../db/tables/transfer.table.ts';

/** Every origin row. */
export async function findAllOrigins(db: Db): Promise<TransferOriginTable[]> {
  return db.selectFrom('transfer_origin').selectAll().execute();
}

/** The business imported from (url, apiKeyPrefix) with the lowest id, or `undefined`. */
export async function findBusinessIdBySource(db: Db, url: string, apiKeyPrefix: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('transfer_origin')
    .select('business_id')
    .where('url', '=', url)
    .where('api_key_prefix', '=', apiKeyPrefix)
    .orderBy('business_id')
    .executeTakeFirst();
  return row?.business_id;
}

/** Inserts or replaces the origin row of a business. */
export async function upsertOrigin(db: Db, row: TransferOriginTable): Promise<void> {
  await db
    .insertInto('transfer_origin')
    .values(row)
    .onConflict((oc) =>
      oc.column('business_id').doUpdateSet({
        url: row.url,
        api_key_prefix: row.api_key_prefix,
        last_run: row.last_run,
        complete: row.complete,
      }),
    )
    .execute();
}

/** Marks the origin's last run finished. */
export async function markComplete(db: Db, businessId: number, at: Timestamp): Promise<void> {
  await db
    .updateTable('transfer_origin')
    .set({ complete: 1, last_run: at })
    .where('business_id', '=', businessId)
    .execute();
}

/** The id map of a business: `resource` → source id → target id. */
export async function findIdMap(db: Db, businessId: number): Promise<Map<string, Map<number, number>>> {
  const rows = await db
    .selectFrom('transfer_id_map')
    .select(['resource', 'source_id', 'target_id'])
    .where('business_id', '=', businessId)
    .execute();
  const out = new Map<string, Map<number, number>>();
  for (const r of rows) {
    let m = out.get(r.resource);
    if (!m) out.set(r.resource, (m = new Map()));
    m.set(r.source_id, r.target_id);
  }
  return out;
}

/** Records (or corrects) the target id of one source record. */
export async function upsertIdMap(
  db: Db,
  businessId: number,
  resource: string,
  sourceId: number,
  targetId: number,
): Promise<void> {
  await db
    .insertInto('transfer_id_map')
    .values({ business_id: businessId, resource, source_id: sourceId, target_id: targetId })
    .onConflict((oc) => oc.columns(['business_id', 'resource', 'source_id']).doUpdateSet({ target_id: targetId }))
    .execute();
}
