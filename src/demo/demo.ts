/**
 * The demo business (README.md#quick-start): `bizapi demo`, and `npm start` (`bizapi serve --demo`) on an empty
 * database, create a business named "Demo Company" on the AGENCY plan (every operation allowed) with a
 * realistic catalog and a few clients, so that the API can be tried at once with the printed key.
 *
 * The data is in `src/demo/data/*.json` (one file a section, typed in demo-data.ts); this file writes it
 * through the services, in order, with the dates that are relative to now (todo due dates, history instants)
 * made here.
 */
import type { Db } from '../db/database.ts';
import { inTransaction } from '../db/sql-helpers.ts';
import { type Business, createApiKey, createBusiness } from '../modules/auth/auth.service.ts';
import { services } from '../services.ts';
import { todayIn } from '../shared/time.ts';
import { type CatalogIds, importCatalog } from '../modules/catalog/catalog-import.ts';
import type { Config } from '../config.ts';
import { createOutboxDispatcher } from '../jobs/outbox-dispatcher.ts';
import {
  DEMO_CATALOG,
  DEMO_CLIENTS,
  DEMO_PROJECTS,
  DEMO_WORKERS,
  DEMO_INQUIRIES,
  DEMO_CONTRACTS,
  DEMO_TODOS,
  DEMO_ESTIMATE_ITEMS,
  DEMO_ATTACHMENTS,
  DEMO_BUSINESS,
} from './demo-data.ts';
import type { DemoClient, DemoWorker } from './demo-data.ts';
import type { FileContext } from '../modules/file/file.service.ts';
import type { Storage } from '../modules/file/storage.ts';
import type { CursorPosition } from '../shared/pagination.ts';

// ── Writing it ──

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
 * exactly what `POST /v1/client` would have created); likewise {@link DEMO_PROJECTS}, {@link DEMO_WORKERS} and
 * {@link DEMO_TODOS} (on the demo inquiries), {@link DEMO_CONTRACTS} with their settlements through the
 * contract and settlement services, {@link DEMO_INQUIRIES} with their histories (see {@link createDemoInquiries}), and
 * {@link DEMO_ESTIMATE_ITEMS}.
 * With `options.storage` the demo inquiries get {@link DEMO_ATTACHMENTS}; with `options.deliver` the demo's
 * notifications are delivered after commit.
 * Each call creates a new business; a failure writes nothing.
 *
 * @param masterKey the installation's master key (`resolveMasterKey`), which encrypts the key's secret
 * @throws whatever the catalog import or the client service throws for the demo data
 */
export async function createDemo(db: Db, masterKey: Buffer, options: DemoOptions = {}): Promise<DemoBusiness> {
  const demo = await inTransaction(db, async (trx): Promise<DemoBusiness> => {
    const business = await createBusiness(trx, DEMO_BUSINESS);
    const { apiKey, secretKey } = await createApiKey(trx, masterKey, business.id);
    const catalog = await importCatalog(trx, business.id, DEMO_CATALOG);
    const auth = { businessId: business.id, timezone: business.timezone };
    const clientIds: number[] = [];
    for (const client of DEMO_CLIENTS)
      clientIds.push((await services.client.create(trx, auth, demoClientBody(client, catalog))).id);
    const contractIds = await createDemoContracts(trx, auth, catalog, clientIds);
    for (const { contract, ...project } of DEMO_PROJECTS) {
      const contractId = contractIds[contract ?? -1];
      await services.project.create(trx, auth, {
        ...project,
        ...(contractId !== undefined && { contract: { id: contractId } }),
      });
    }
    for (const worker of DEMO_WORKERS) await services.worker.create(trx, auth, demoWorkerBody(worker, catalog));
    const files = demoFileContext(options.storage);
    const inquiryIds = await createDemoInquiries(trx, auth, catalog, files);
    if (options.storage) await createDemoAttachments(trx, auth, inquiryIds, files, options.warn);
    await createDemoTodos(trx, auth, catalog);
    await createDemoEstimateItems(trx, auth, catalog);
    return { business, apiKey, secretKey, catalog };
  });
  if (options.deliver) {
    // after commit: a failure here must not lose the credentials of the business that now exists
    try {
      await deliverDemoNotifications(db, demo.business.id, options.deliver);
    } catch (err) {
      options.warn?.(
        `demo notifications not delivered now (the dispatcher will): ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
  return demo;
}

/** Options of {@link createDemo}. */
export interface DemoOptions {
  /**
   * Where {@link DEMO_ATTACHMENTS} are stored; without it the demo inquiries have no files. (The objects are
   * written before the transaction commits; if it fails, they stay behind, unreferenced.)
   */
  storage?: Storage;
  /** When given, the demo's notifications are delivered right after commit ({@link deliverDemoNotifications}). */
  deliver?: Pick<Config, 'dispatcher' | 'mailFrom' | 'dataDir'>;
  /** Told about demo data that could not be made (an attachment the storage refused). */
  warn?: (message: string) => void;
}

/** The body `client.service.create` takes. */
type ClientCreateBody = Parameters<typeof services.client.create>[2];

/**
 * Resolves a {@link DemoClient}'s catalog keys to the ids of an import of {@link DEMO_CATALOG}.
 * @throws Error when a key is not in `ids` (a mistake in the data)
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
    ...(fieldSet && {
      fieldSet: fieldSet.map((f) => ({ field: { id: idOf(ids.fields, f.field.key) }, value: f.value })),
    }),
  } as ClientCreateBody;
}

/**
 * Resolves a {@link DemoWorker}'s position key to the id of an import of {@link DEMO_CATALOG}.
 * @throws Error when the key is not in `ids` (a mistake in the data)
 */
export function demoWorkerBody(worker: DemoWorker, ids: CatalogIds): Parameters<typeof services.worker.create>[2] {
  const { position, ...rest } = worker;
  if (position === null) return { ...rest, position: null };
  const id = ids.positions[position.key];
  if (id === undefined) throw new Error(`demo catalog has no position "${position.key}"`);
  return { ...rest, position: { id } };
}

/**
 * Creates {@link DEMO_CONTRACTS} and their settlements through the contract and settlement services.
 * @throws Error when a key is not in `catalog` (a mistake in the data); whatever the services throw
 */
export async function createDemoContracts(
  db: Db,
  auth: { businessId: number; timezone: string },
  catalog: CatalogIds,
  clientIds: readonly number[],
): Promise<number[]> {
  const idOf = (section: Record<string, number>, key: string): number => {
    const id = section[key];
    if (id === undefined) throw new Error(`demo catalog has no key "${key}"`);
    return id;
  };
  const contractIds: number[] = [];
  for (const demo of DEMO_CONTRACTS) {
    const clientId = clientIds[demo.client];
    const contract = await services.contract.create(db, auth, {
      ...demo.body,
      ...(clientId !== undefined && { client: { id: clientId } }),
      categorySet: demo.categories.map((key) => ({ id: idOf(catalog.contractCategories, key) })),
      fieldSet: (demo.fieldSet ?? []).map((f) => ({ field: { id: idOf(catalog.fields, f.field) }, value: f.value })),
    });
    contractIds.push(contract.id);
    for (const s of demo.settlements) {
      const created = await services.settlement.create(db, auth, {
        title: s.title,
        amount: s.amount,
        additionalAmount: s.additionalAmount ?? 0,
        vat: s.vat,
        contract: { id: contract.id },
        type: { id: idOf(catalog.settlementTypes, s.type) },
        dueDate: s.dueDate,
        isTaxInvoiceNeeded: s.vat > 0,
        inChargeSet: (s.members ?? []).map((key) => ({ id: idOf(catalog.members, key) })),
      });
      if (s.status !== undefined && s.status !== 'C') {
        await services.settlement.partialUpdate(db, auth, created.id, {
          status: s.status,
          ...(s.settledDate !== undefined && {
            settledDate: s.settledDate,
            isTaxInvoiceIssued: s.vat > 0,
            taxInvoiceIssuedDate: s.vat > 0 ? s.settledDate : null,
          }),
        });
      }
    }
    if (demo.statusAfter !== undefined) {
      // Its records elsewhere (docs/api.md#cascades): its settlements; the inquiries and projects come later.
      await services.contract.partialUpdate(db, auth, contract.id, { status: demo.statusAfter });
    }
  }
  return contractIds;
}

/** The id of a restored shape that asks for a new one (src/shared/restore.ts: only a positive id is kept). */
const NEW_ID = 0;

/**
 * Creates {@link DEMO_INQUIRIES} for a demo business through the inquiry services (so the status and folder
 * histories, text notes and notification events are what the API would have written), and writes their
 * e-mails, replies and form submissions, which reach an inquiry from outside the API, through the history
 * service's restore entry point (`restore…History`, src/shared/restore.ts: as given, with new ids, no event).
 * Notes and these rows are stamped with distinct, increasing instants just after now.
 * @throws Error when a key or client name is not in the demo data (a mistake in the data)
 */
export async function createDemoInquiries(
  trx: Db,
  auth: { businessId: number; timezone: string },
  ids: CatalogIds,
  files: FileContext = demoFileContext(undefined),
): Promise<Map<string, number>> {
  const idOf = (section: Record<string, number>, key: string): number => {
    const id = section[key];
    if (id === undefined) throw new Error(`demo catalog has no key "${key}"`);
    return id;
  };
  const clientId = async (companyName: string): Promise<number> => {
    const page = await services.client.list(trx, auth, { search: [companyName], page_size: 1 }, undefined);
    const row = page.rows[0];
    if (!row) throw new Error(`demo data has no client "${companyName}"`);
    return row.id;
  };
  const now = Date.now();
  let tick = 0;
  /** Distinct, increasing instants just after now, so the pages have a stable order. */
  const at = () => new Date(now + ++tick).toISOString();
  const inquiryIds = new Map<string, number>();
  for (const d of DEMO_INQUIRIES) {
    const created = await services.inquiry.create(trx, auth, {
      name: d.name,
      ...(d.client !== undefined && { client: { id: await clientId(d.client) } }),
      ...(d.content !== undefined && { content: d.content }),
      ...(d.estimate !== undefined && { estimate: d.estimate }),
      ...(d.inquiryDate !== undefined && { inquiryDate: d.inquiryDate }),
      ...(d.inCharge && { inChargeSet: d.inCharge.map((k) => ({ id: idOf(ids.members, k) })) }),
      ...(d.workSet && { workSet: d.workSet.map((name) => ({ name })) }),
      ...(d.funnel && { funnel: d.funnel }),
      ...(d.fieldSet && {
        fieldSet: d.fieldSet.map((f) => ({ field: { id: idOf(ids.fields, f.field) }, value: f.value })),
      }),
      ...(d.fileLinkSet && { fileLinkSet: d.fileLinkSet }),
      ...(d.isHidden !== undefined && { isHidden: d.isHidden }),
    });
    inquiryIds.set(d.name, created.id);
    for (const key of d.moves ?? [])
      await services.inquiry.partialUpdate(trx, auth, created.id, { status: { id: idOf(ids.statuses, key) } }, files);
    for (const n of d.notes ?? []) {
      await services.inquiryHistory.createTextHistory(trx, auth, created.id, {
        content: n.content,
        created: at(),
        ...(n.member !== undefined && { member: { id: idOf(ids.members, n.member) } }),
      });
    }
    for (const e of d.emails ?? []) {
      const when = at();
      const shape = {
        id: NEW_ID,
        title: e.title,
        fromEmail: e.from,
        toSet: e.to.map((toEmail) => ({ toEmail })),
        ccSet: (e.cc ?? []).map((ccEmail) => ({ ccEmail })),
      };
      await services.inquiryHistory.restoreEmailHistory(
        trx,
        auth,
        created.id,
        { ...shape, status: e.status, sentAt: e.sent ? when : null, created: when },
        {},
      );
    }
    for (const r of d.replies ?? []) {
      const when = at();
      const shape = {
        id: NEW_ID,
        title: r.title,
        fromEmail: r.from,
        toSet: r.to.map((toEmail) => ({ toEmail })),
        ccSet: (r.cc ?? []).map((ccEmail) => ({ ccEmail })),
      };
      await services.inquiryHistory.restoreEmailReplyHistory(
        trx,
        auth,
        created.id,
        { ...shape, isUnread: r.isUnread, receivedAt: when, created: when },
        {},
      );
    }
    for (const f of d.submits ?? []) {
      await services.inquiryHistory.restoreSubmitHistory(
        trx,
        auth,
        created.id,
        { id: NEW_ID, form: { id: f.formId, title: f.formTitle }, answers: f.answers, created: at() },
        {},
      );
    }
  }
  return inquiryIds;
}

/**
 * The file context of the demo's writes: `storage` (or, without one, a storage that refuses every call: the
 * demo then attaches nothing, so nothing reads it), the default file limits, and an origin for the URLs
 * the demo never hands out.
 */
export function demoFileContext(storage: Storage | undefined): FileContext {
  return {
    storage: storage ?? NO_STORAGE,
    files: { uploadUrlTtlSeconds: 60, downloadUrlTtlSeconds: 3600, maxUploadBytes: 50 * 1024 * 1024 },
    origin: 'http://localhost',
  };
}

/** A storage that refuses every call (the demo without a storage). */
const NO_STORAGE = new Proxy({} as Storage, {
  get: () => () => Promise.reject(new Error('the demo has no storage')),
});

/**
 * Stores and attaches {@link DEMO_ATTACHMENTS} to the demo inquiries (`inquiryIds`: name → id, from
 * {@link createDemoInquiries}) the way a client does: `POST /v1/presigned`, a `PUT` of the bytes to the
 * storage, then a `PATCH` with `fileSet`.
 * Best effort: when the storage refuses a file (an unreachable S3 bucket, say), `warn` is told and the demo
 * goes on without it, so a storage problem never keeps the server from starting.
 * @throws Error when an attachment names an inquiry the demo data does not have (a mistake in the data)
 */
export async function createDemoAttachments(
  trx: Db,
  auth: { businessId: number; timezone: string },
  inquiryIds: ReadonlyMap<string, number>,
  files: FileContext,
  warn: (message: string) => void = () => undefined,
): Promise<void> {
  for (const a of DEMO_ATTACHMENTS) {
    const inquiryId = inquiryIds.get(a.inquiry);
    if (inquiryId === undefined) throw new Error(`demo data has no inquiry "${a.inquiry}"`);
    try {
      const { path } = await services.file.createPresigned(trx, files, auth, { name: a.name });
      const bytes = a.bytes();
      await files.storage.put(path, bytes, { maxBytes: bytes.length });
      await services.inquiry.partialUpdate(trx, auth, inquiryId, { fileSet: [{ name: a.name, file: path }] }, files);
    } catch (err) {
      warn(`demo attachment "${a.name}" not stored: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

/**
 * Delivers the demo business's pending notifications now (README.md#notifications), so the demo shows delivered ones
 * at once: in-app, and e-mail written as `.eml` files under `<dataDir>/mail` — never over SMTP or push,
 * whatever the configuration says, since the demo members' addresses are made up. Rows that fail stay in
 * the outbox for the regular dispatcher.
 */
export async function deliverDemoNotifications(
  db: Db,
  businessId: number,
  config: Pick<Config, 'dispatcher' | 'mailFrom' | 'dataDir'>,
): Promise<void> {
  const dispatcher = createOutboxDispatcher({
    db,
    config: { ...config, smtpUrl: undefined, pushWebhookUrl: undefined },
    businessIds: [businessId],
    channels: { push: null },
  });
  try {
    while ((await dispatcher.runOnce()).claimed > 0);
  } finally {
    await dispatcher.stop();
  }
}

/** `date` (`YYYY-MM-DD`) plus `days` calendar days (negative goes back). */
function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Ids of the business's live inquiries, oldest first (read through `GET /v1/inquiry`). */
async function oldestInquiryIds(db: Db, auth: { businessId: number; timezone: string }): Promise<number[]> {
  const ids: number[] = [];
  let cursor: CursorPosition | undefined;
  do {
    const page = await services.inquiry.list(db, auth, { page_size: 100 }, cursor);
    ids.push(...page.rows.map((r) => r.id));
    cursor = page.next ?? undefined;
  } while (cursor);
  return ids.reverse();
}

/** Creates {@link DEMO_TODOS} through the todo service, on the demo business's inquiries. */
async function createDemoTodos(db: Db, auth: { businessId: number; timezone: string }, ids: CatalogIds): Promise<void> {
  const inquiries = await oldestInquiryIds(db, auth);
  const now = new Date();
  const today = todayIn(auth.timezone, now);
  for (const todo of DEMO_TODOS) {
    const inCharge = todo.inCharge === undefined ? null : { id: ids.members[todo.inCharge]! };
    const created = await services.todo.create(
      db,
      auth,
      {
        inquiry: { id: inquiries[todo.inquiry]! },
        type: todo.type,
        dueDate: addDays(today, todo.dueInDays),
        action: todo.action,
        ...(todo.dueTime && { dueTime: todo.dueTime }),
        ...(todo.actionHistory && { actionHistory: todo.actionHistory }),
        inCharge,
      },
      now,
    );
    if (todo.completed)
      await services.todo.partialUpdate(db, auth, created.id, { isComplete: true, completedInCharge: inCharge }, now);
  }
}

/** Creates {@link DEMO_ESTIMATE_ITEMS} through the estimate service, as `POST /v1/estimate/item` would. */
async function createDemoEstimateItems(db: Db, auth: { businessId: number }, ids: CatalogIds): Promise<void> {
  for (const { classification, ...item } of DEMO_ESTIMATE_ITEMS) {
    const id = classification === undefined ? undefined : ids.estimateItemClassifications[classification];
    await services.estimate.create(db, auth, { ...item, classification: id === undefined ? null : { id } });
  }
}
