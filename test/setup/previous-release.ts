/**
 * The previous release's database, for the tests that move one forward (test/db/ids-migration.test.ts: 64-bit
 * ids in place, docs/deployment.md#converting-to-64-bit-ids-and-keys-by-business; test/db/citus-move.test.ts:
 * from one PostgreSQL to Citus, docs/deployment.md §10 step 2).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { loadConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/database.ts';
import { createWebhookDispatcher } from '../../src/jobs/webhook-dispatcher.ts';

/** The migration that converts ids to 64 bits and keys by business: the first of this release. */
export const IDS_MIGRATION = '2026_11_28_0060_ids_keys_by_business';

/** The previous release's last migration: the one before {@link IDS_MIGRATION} (32-bit ids, keys by id). */
export const PREVIOUS_RELEASE = (() => {
  const names = readdirSync(path.resolve(import.meta.dirname, '../../src/db/migrations'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.replace(/\.ts$/, ''))
    .sort();
  return names[names.indexOf(IDS_MIGRATION) - 1]!;
})();

/**
 * Fans out the events of `businessId` on `db` and attempts their deliveries (private addresses allowed)
 * until a round finds nothing to publish or claim, at most 20 rounds.
 */
export async function dispatchUntilIdle(
  db: Kysely<Database>,
  config: ReturnType<typeof loadConfig>,
  businessId: number,
): Promise<void> {
  const d = createWebhookDispatcher({
    db,
    masterKey: config.masterKey!,
    config: { dispatcher: config.dispatcher, webhookAllowPrivate: true, database: config.database },
    businessIds: [businessId],
  });
  for (let i = 0; i < 20; i++) {
    const r = await d.runOnce();
    if (r.published === 0 && r.claimed === 0) return;
  }
}
