/**
 * The demo business (decisions §6): `bizapi demo`, and `npm start` (`bizapi serve --demo`) on an empty
 * database, create a business named "Demo Company" on the AGENCY plan (every operation allowed) with a
 * realistic catalog and a few clients, so that the API can be tried at once with the printed key.
 */
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/sql-helpers.ts';
import { type Business, createApiKey, createBusiness } from '../auth/auth.service.ts';
import { create as createClient } from '../client/client.service.ts';
import { create as createProject } from '../project/project.service.ts';
import { create as createWorker } from '../worker/worker.service.ts';
import { type CatalogFile, type CatalogIds, importCatalog } from './catalog-import.ts';

/** The demo catalog, in the catalog-file format of decisions §6. */
export const DEMO_CATALOG: CatalogFile = {
  grades: [
    { key: 'owner', title: 'Owner' },
    { key: 'staff', title: 'Staff' },
  ],
  members: [
    { key: 'kim', nickname: 'Kim Minji', email: 'minji.kim@demo.example.com', isActive: true, grade: 'owner', notificationsEnabled: true },
    { key: 'lee', nickname: 'Lee Junho', email: 'junho.lee@demo.example.com', isActive: true, grade: 'staff', notificationsEnabled: true },
    { key: 'park', nickname: 'Park Seoyeon', email: 'seoyeon.park@demo.example.com', isActive: false, grade: 'staff', notificationsEnabled: false },
  ],
  folders: [
    {
      key: 'sales',
      name: 'Sales pipeline',
      isDefault: true,
      statuses: [
        { key: 'new', title: 'New', isDefault: true },
        { key: 'contacted', title: 'Contacted' },
        { key: 'proposal', title: 'Proposal sent' },
      ],
    },
    {
      key: 'closed',
      name: 'Closed',
      statuses: [
        { key: 'won', title: 'Won', isDefault: true },
        { key: 'lost', title: 'Lost' },
      ],
    },
  ],
  clientStatuses: [
    { key: 'lead', title: 'Lead', isDefault: true },
    { key: 'active', title: 'Active customer' },
    { key: 'dormant', title: 'Dormant' },
  ],
  fields: [
    {
      key: 'channel',
      name: 'Inquiry channel',
      category: 'I',
      dataType: 'SL',
      options: [
        { id: 'web', title: 'Website form' },
        { id: 'referral', title: 'Referral' },
        { id: 'phone', title: 'Phone call' },
        { id: 'event', title: 'Trade show' },
      ],
    },
    {
      key: 'services',
      name: 'Services of interest',
      category: 'I',
      dataType: 'ML',
      options: [
        { id: 'branding', title: 'Branding' },
        { id: 'website', title: 'Website' },
        { id: 'app', title: 'Mobile app' },
        { id: 'marketing', title: 'Performance marketing' },
      ],
    },
    { key: 'budget', name: 'Expected budget (KRW)', category: 'I', dataType: 'N' },
    { key: 'launch', name: 'Desired launch date', category: 'I', dataType: 'D' },
    {
      key: 'industry',
      name: 'Industry',
      category: 'C',
      dataType: 'SL',
      options: [
        { id: 'food', title: 'Food & beverage' },
        { id: 'health', title: 'Healthcare' },
        { id: 'logistics', title: 'Logistics' },
        { id: 'media', title: 'Media & publishing' },
      ],
    },
    { key: 'accountManager', name: 'Account manager', category: 'C', dataType: 'M', members: ['kim', 'lee'] },
    { key: 'billingNotes', name: 'Billing notes', category: 'C', dataType: 'T' },
    { key: 'projectCode', name: 'Project code', category: 'CO', dataType: 'S' },
    { key: 'ndaSigned', name: 'NDA signed', category: 'CO', dataType: 'B' },
  ],
  contractCategories: [
    { key: 'web', title: 'Web development' },
    { key: 'design', title: 'Design' },
  ],
  settlementTypes: [
    { key: 'downPayment', baseType: 'INI', category: 'I', title: 'Down payment', allowsMultipleRounds: false },
    { key: 'interim', baseType: 'INS', category: 'I', title: 'Interim payment', allowsMultipleRounds: true },
    { key: 'balance', baseType: 'BAL', category: 'I', title: 'Balance', allowsMultipleRounds: false },
    { key: 'monthly', baseType: 'SUB', category: 'S', title: 'Monthly payment', allowsMultipleRounds: true },
    { key: 'single', baseType: 'SIN', category: 'E', title: 'Single settlement', allowsMultipleRounds: false },
    { key: 'additional', baseType: 'ADD', category: 'E', title: 'Additional settlement', allowsMultipleRounds: true },
    { key: 'outstanding', baseType: 'OUT', category: 'E', title: 'Outstanding payment', allowsMultipleRounds: true },
  ],
  positions: [
    { key: 'developer', title: 'Developer', symbolColor: '#2f80ed' },
    { key: 'designer', title: 'Designer', symbolColor: '#eb5757' },
  ],
};

/**
 * A demo client: the API's client create body (spec: Resources › Client), except that catalog references
 * name the {@link DEMO_CATALOG} key instead of an id (`status: {key}`, `fieldSet[].field: {key}`), since
 * ids exist only after the import. {@link demoClientBody} turns one into the create body.
 */
export interface DemoClient {
  companyName: string;
  inCharge: string;
  position: string;
  contact: string;
  email: string;
  content?: string;
  ceoName?: string;
  companyAddress?: string;
  status: { key: string };
  fieldSet?: { field: { key: string }; value: string }[];
}

/** The five demo clients, in creation order. */
export const DEMO_CLIENTS: readonly DemoClient[] = [
  {
    companyName: 'Hanbit Studio',
    inCharge: 'Choi Yuna',
    position: 'Marketing manager',
    contact: '010-2481-3579',
    email: 'yuna.choi@hanbit.example.com',
    content: 'Wants a brand refresh before the spring campaign.',
    status: { key: 'lead' },
    fieldSet: [{ field: { key: 'industry' }, value: 'media' }],
  },
  {
    companyName: 'Seoul Coffee Roasters',
    inCharge: 'Jung Hoon',
    position: 'CEO',
    contact: '02-555-0142',
    email: 'hoon@seoulcoffee.example.com',
    ceoName: 'Jung Hoon',
    companyAddress: '12 Yeonmujang-gil, Seongdong-gu, Seoul',
    status: { key: 'active' },
    fieldSet: [
      { field: { key: 'industry' }, value: 'food' },
      { field: { key: 'billingNotes' }, value: 'Invoice on the 25th; tax invoice to accounting@seoulcoffee.example.com.' },
    ],
  },
  {
    companyName: 'Blue Harbor Logistics',
    inCharge: 'Kang Jiwoo',
    position: 'IT team lead',
    contact: '051-740-2200',
    email: 'jiwoo.kang@blueharbor.example.com',
    status: { key: 'active' },
    fieldSet: [{ field: { key: 'industry' }, value: 'logistics' }],
  },
  {
    companyName: 'Namsan Dental Clinic',
    inCharge: 'Yoon Seojin',
    position: 'Office manager',
    contact: '02-318-7788',
    email: 'office@namsandental.example.com',
    content: 'Asked for an online booking page.',
    status: { key: 'lead' },
    fieldSet: [{ field: { key: 'industry' }, value: 'health' }],
  },
  {
    companyName: 'Greenleaf Books',
    inCharge: 'Han Dongmin',
    position: 'Owner',
    contact: '031-902-4410',
    email: 'dongmin@greenleafbooks.example.com',
    status: { key: 'dormant' },
  },
];

/** The body `client.service.create` takes. */
type ClientCreateBody = Parameters<typeof createClient>[2];

/**
 * Resolves a {@link DemoClient}'s catalog keys to the ids of an import of {@link DEMO_CATALOG}.
 * @throws Error when a key is not in `ids` (a mistake in this file)
 */
export function demoClientBody(client: DemoClient, ids: CatalogIds): ClientCreateBody {
  const idOf = (section: Record<string, number>, key: string): number => {
    const id = section[key];
    if (id === undefined) throw new Error(`demo catalog has no key "${key}"`);
    return id;
  };
  const { status, fieldSet, ...rest } = client;
  return {
    ...rest,
    status: { id: idOf(ids.clientStatuses, status.key) },
    ...(fieldSet && { fieldSet: fieldSet.map((f) => ({ field: { id: idOf(ids.fields, f.field.key) }, value: f.value })) }),
  } as ClientCreateBody;
}

/** The demo projects (spec: Resources › Project), in creation order: the `POST /v1/project` body. */
export const DEMO_PROJECTS: readonly Parameters<typeof createProject>[2][] = [
  { title: 'Hanbit Studio brand refresh', status: 'U', symbolColor: '#9b51e0', startDate: '2027-01-04', endDate: '2027-03-31' },
  { title: 'Seoul Coffee online store', status: 'I', symbolColor: '#2f80ed', startDate: '2026-10-01', endDate: '2026-12-31' },
  { title: 'Blue Harbor tracking dashboard', status: 'A', symbolColor: '#27ae60', startDate: '2026-06-01', endDate: '2026-09-30' },
  { title: 'Namsan Dental booking page', status: 'E', symbolColor: '#f2994a', startDate: '2026-03-02', endDate: '2026-05-29', isHidden: true },
];

/** A demo worker: the `POST /v1/worker` body, with the position named by its {@link DEMO_CATALOG} key. */
export interface DemoWorker {
  name: string;
  position: { key: string } | null;
  order: number;
  manMonthAmount: number;
  isHidden?: boolean;
}

/** The demo workers, in creation order. */
export const DEMO_WORKERS: readonly DemoWorker[] = [
  { name: 'Choi Minho', position: { key: 'developer' }, order: 1, manMonthAmount: 7500000 },
  { name: 'Oh Jisu', position: { key: 'developer' }, order: 2, manMonthAmount: 6800000 },
  { name: 'Shin Haeun', position: { key: 'designer' }, order: 3, manMonthAmount: 6200000 },
  { name: 'Baek Sungmin', position: null, order: 4, manMonthAmount: 4500000, isHidden: true },
];

/**
 * Resolves a {@link DemoWorker}'s position key to the id of an import of {@link DEMO_CATALOG}.
 * @throws Error when the key is not in `ids` (a mistake in this file)
 */
export function demoWorkerBody(worker: DemoWorker, ids: CatalogIds): Parameters<typeof createWorker>[2] {
  const { position, ...rest } = worker;
  if (position === null) return { ...rest, position: null };
  const id = ids.positions[position.key];
  if (id === undefined) throw new Error(`demo catalog has no position "${position.key}"`);
  return { ...rest, position: { id } };
}

/** What {@link createDemo} returns, and `bizapi demo` prints. The secret is shown only here. */
export interface DemoBusiness {
  business: Business;
  apiKey: string;
  secretKey: string;
  catalog: CatalogIds;
}

/**
 * Creates the demo business in one transaction: "Demo Company", plan AGENCY, time zone Asia/Seoul, one API
 * key, {@link DEMO_CATALOG}, and {@link DEMO_CLIENTS} created through the client service (so they are
 * exactly what `POST /v1/client` would have created); likewise {@link DEMO_PROJECTS} and {@link DEMO_WORKERS}.
 * Each call creates a new business; a failure writes nothing.
 *
 * @param masterKey the installation's master key (`resolveMasterKey`), which encrypts the key's secret
 * @throws whatever the catalog import or the client service throws for the demo data
 */
export async function createDemo(db: Db, masterKey: Buffer): Promise<DemoBusiness> {
  return inTransaction(db, async (trx): Promise<DemoBusiness> => {
    const business = await createBusiness(trx, { name: 'Demo Company', plan: 'AGENCY', timezone: 'Asia/Seoul' });
    const { apiKey, secretKey } = await createApiKey(trx, masterKey, business.id);
    const catalog = await importCatalog(trx, business.id, DEMO_CATALOG);
    const auth = { businessId: business.id, timezone: business.timezone };
    for (const client of DEMO_CLIENTS) await createClient(trx, auth, demoClientBody(client, catalog));
    for (const project of DEMO_PROJECTS) await createProject(trx, auth, project);
    for (const worker of DEMO_WORKERS) await createWorker(trx, auth, demoWorkerBody(worker, catalog));
    return { business, apiKey, secretKey, catalog };
  });
}
