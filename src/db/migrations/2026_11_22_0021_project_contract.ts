/**
 * The project's contract reference (spec: Resources › Project `contract`), added after the contract table
 * (2026_11_22_0005). Deleting a contract (a permanent delete) leaves its projects without one.
 *
 * Frozen: never edit after it has landed; add a new migration instead. Imports nothing from `src/`.
 * The filter index leads with `business_id`.
 */
import type { Kysely } from 'kysely';

/** Adds `project.contract_id` and its index. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('project')
    .addColumn('contract_id', 'integer', (c) => c.references('contract.id').onDelete('set null'))
    .execute();
  await db.schema
    .createIndex('project_business_contract_idx')
    .on('project')
    .columns(['business_id', 'contract_id'])
    .execute();
}

/** Drops the index and the column. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('project_business_contract_idx').execute();
  await db.schema.alterTable('project').dropColumn('contract_id').execute();
}
