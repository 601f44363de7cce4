/**
 * Factories: every test makes its own business, key and catalog through the same services the CLI uses,
 * so no test depends on data another test wrote.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../src/db/database.ts';
import { encryptSecret } from '../../src/modules/auth/secret-box.ts';
import { createApiKey, createBusiness, revokeApiKey } from '../../src/modules/auth/auth.service.ts';
import type { Plan } from '../../src/shared/auth-context.ts';
import { type CatalogFile, type CatalogIds, importCatalog } from '../../src/modules/catalog/catalog-import.ts';
import type { Credentials } from './signed-request.ts';
import type { TestApp } from './build-test-app.ts';

/** A business made for one test: its id, credentials and the ids of its catalog. */
export interface TestBusiness extends Credentials {
  businessId: number;
  ids: CatalogIds;
  timezone: string;
}

/** A small but complete catalog: 2 grades, 3 members, 2 folders, client statuses, fields of every kind, 2 estimate item classifications. */
export function testCatalog(): CatalogFile {
  return {
    grades: [
      { key: 'owner', title: 'Owner' },
      { key: 'staff', title: 'Staff' },
    ],
    members: [
      {
        key: 'kim',
        nickname: 'Kim',
        email: 'kim@example.com',
        isActive: true,
        grade: 'owner',
        notificationsEnabled: true,
      },
      {
        key: 'lee',
        nickname: 'Lee',
        email: 'lee@example.com',
        isActive: true,
        grade: 'staff',
        notificationsEnabled: false,
      },
      {
        key: 'park',
        nickname: null,
        email: 'park@sample.org',
        isActive: false,
        grade: 'staff',
        notificationsEnabled: true,
      },
    ],
    folders: [
      {
        key: 'sales',
        name: 'Sales',
        isDefault: true,
        statuses: [
          { key: 'new', title: 'New', isDefault: true },
          { key: 'won', title: 'Won' },
        ],
      },
      { key: 'archive', name: 'Archive', statuses: [{ key: 'lost', title: 'Lost' }] },
    ],
    clientStatuses: [
      { key: 'lead', title: 'Lead', isDefault: true },
      { key: 'customer', title: 'Customer' },
    ],
    fields: [
      {
        key: 'channel',
        name: 'Channel',
        category: 'C',
        dataType: 'SL',
        options: [
          { id: 'web', title: 'Web' },
          { id: 'phone', title: 'Phone' },
        ],
      },
      {
        key: 'tags',
        name: 'Tags',
        category: 'C',
        dataType: 'ML',
        options: [
          { id: 'a', title: 'A' },
          { id: 'b', title: 'B' },
        ],
      },
      { key: 'owner', name: 'Owner', category: 'C', dataType: 'M', members: ['kim', 'lee'] },
      { key: 'employees', name: 'Employees', category: 'C', dataType: 'N' },
      { key: 'since', name: 'Customer since', category: 'C', dataType: 'D' },
      { key: 'vip', name: 'VIP', category: 'C', dataType: 'B' },
      { key: 'note', name: 'Note', category: 'C', dataType: 'S' },
      { key: 'budget', name: 'Budget', category: 'I', dataType: 'N' },
      { key: 'po', name: 'PO number', category: 'CO', dataType: 'S' },
    ],
    contractCategories: [
      { key: 'web', title: 'Web development' },
      { key: 'design', title: 'Design' },
    ],
    settlementTypes: [
      { key: 'ini', baseType: 'INI', category: 'I', title: 'Down payment', allowsMultipleRounds: false },
      { key: 'sub', baseType: 'SUB', category: 'I', title: 'Round', allowsMultipleRounds: true },
    ],
    positions: [{ key: 'dev', title: 'Developer', symbolColor: '#2f80ed' }],
    estimateItemClassifications: [
      { key: 'design', title: 'Design' },
      { key: 'dev', title: 'Development' },
    ],
  };
}

/** Creates a business with one key and (unless `catalog: null`) the {@link testCatalog}. */
export async function newBusiness(
  t: TestApp | { testDb: { db: Db }; masterKey: Buffer },
  options: { plan?: Plan; timezone?: string; catalog?: CatalogFile | null } = {},
): Promise<TestBusiness> {
  const db = t.testDb.db;
  const business = await createBusiness(db, {
    name: `Test ${Math.random().toString(36).slice(2, 8)}`,
    plan: options.plan ?? 'AGENCY',
    timezone: options.timezone ?? 'Asia/Seoul',
  });
  const key = await createApiKey(db, t.masterKey, business.id);
  const catalog = options.catalog === undefined ? testCatalog() : options.catalog;
  const ids: CatalogIds = catalog
    ? await importCatalog(db, business.id, catalog)
    : {
        grades: {},
        members: {},
        folders: {},
        statuses: {},
        clientStatuses: {},
        fields: {},
        contractCategories: {},
        settlementTypes: {},
        positions: {},
        estimateItemClassifications: {},
      };
  return { businessId: business.id, apiKey: key.apiKey, secretKey: key.secretKey, ids, timezone: business.timezone };
}

/** Issues another key for a business. */
export async function newKey(t: TestApp, businessId: number): Promise<Credentials> {
  return createApiKey(t.testDb.db, t.masterKey, businessId);
}

/** Revokes a key. */
export async function revokeKey(t: TestApp, creds: Credentials): Promise<void> {
  await revokeApiKey(t.testDb.db, creds.apiKey);
}

/**
 * A webhook endpoint row of `businessId` for `url`, written straight to the table (as the webhook API writes
 * it: every event type, standard format, active, a new `whsec_` secret encrypted with `masterKey`), for tests
 * that need many endpoints faster than the API's limit of 20 per business allows them to be created.
 */
export function webhookEndpointRow(masterKey: Buffer, businessId: number, url: string) {
  const now = new Date().toISOString();
  return {
    business_id: businessId,
    url,
    event_types: JSON.stringify(['*']),
    description: null,
    is_active: 1 as const,
    format: 'standard',
    secret: encryptSecret(masterKey, `whsec_${randomBytes(24).toString('base64')}`),
    previous_secret: null,
    previous_secret_expires_at: null,
    last_success_at: null,
    failing_since: null,
    created: now,
    updated: now,
  };
}
