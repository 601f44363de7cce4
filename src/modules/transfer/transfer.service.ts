/**
 * The transfer module's writer (docs/deployment.md#11-moving-a-business-in-and-out): takes the record stream
 * of a source (`transfer.types.ts`) and writes it into one business of this server through the other
 * modules' `restore…` entry points (src/shared/restore.ts), never their tables.
 *
 * - The business: `--business ID`, else the business an earlier run imported from the same source (URL and
 *   API key prefix, `transfer_origin`), else a new one with its first API key. It is created only once the
 *   source has answered its first request, so a wrong key or secret writes nothing.
 * - Ids: every record is restored with `targetId` from the id map when an earlier run restored it, else
 *   under its source id where free; the id it got is stored in the map in the record's own transaction, so
 *   a kill between two records leaves whole records and a re-run neither duplicates nor loses one.
 * - References: every nested reference of an item is rewritten through the map before the restore
 *   ({@link rewriteReferences}); a member known only from its nested objects (`member_list` answered 403)
 *   is restored from the first nested object that names it.
 * - Files: an inquiry's attachments are downloaded from the source once (the map remembers them) and
 *   stored through the file module's service.
 * - Quiet: restores write no events, notifications or webhook deliveries (src/shared/restore.ts).
 */
import type { Db } from '../../db/database.ts';
import { inTransaction, nowTimestamp } from '../../db/sql-helpers.ts';
import type { Plan } from '../../shared/auth-context.ts';
import { ApiError } from '../../shared/errors.ts';
import type { RestoreOptions, RestoreResult } from '../../shared/restore.ts';
import { resourceNames } from '../../shared/resources.ts';
import { createApiKey, createBusiness, listBusinesses, retrieveBusiness } from '../auth/auth.service.ts';
import type { ClientService, RestoredClient } from '../client/client.service.ts';
import type * as catalogService from '../catalog/catalog.service.ts';
import type { ContractService } from '../contract/contract.service.ts';
import type * as estimateService from '../estimate/estimate.service.ts';
import type * as projectService from '../project/project.service.ts';
import type * as settlementService from '../settlement/settlement.service.ts';
import type * as todoService from '../todo/todo.service.ts';
import type * as workerService from '../worker/worker.service.ts';
import type { FileContext } from '../file/file.service.ts';
import type * as fileService from '../file/file.service.ts';
import type { InquiryService, RestoredInquiry } from '../inquiry/inquiry.service.ts';
import type * as inquiryHistoryService from '../inquiry/inquiry-history.service.ts';
import * as repo from './transfer.repository.ts';
import { readItem, recordName } from './tolerant-read.ts';
import {
  RefusedFileError,
  type TransferFileRef,
  type TransferItem,
  type TransferSource,
  type TransferType,
} from './transfer.types.ts';

/** What a run did to one resource (docs/deployment.md#11-moving-a-business-in-and-out). */
export interface ResourceCounts {
  read: number;
  created: number;
  updated: number;
  unchanged: number;
}

/** The answer of `bizapi import` (docs/deployment.md#11-moving-a-business-in-and-out). */
export interface ImportAnswer {
  business: { id: number; name: string; plan: Plan; timezone: string } | null;
  apiKey?: string;
  secretKey?: string;
  counts: Record<string, ResourceCounts>;
  idsChanged: Record<string, Record<string, number>>;
  files: { downloaded: number; bytes: number };
  warnings: string[];
  dryRun: boolean;
}

/** Options of {@link importBusiness}. */
export interface ImportOptions {
  /** Continue into this business (`--business`). */
  businessId?: number | undefined;
  /** Name of a new business (default `Imported from <host>`). */
  name?: string | undefined;
  plan: Plan;
  timezone: string;
  dryRun: boolean;
  /** The master key, asked for only when a new business needs its first API key. */
  masterKey: () => Promise<Buffer>;
  /** Storage and limits for the attachments. */
  files: FileContext;
  /** The services the records are restored through: the ones the composition root built (src/services.ts). */
  services: TransferServices;
  /** Called after every item (progress bars). */
  onProgress?: (type: string, counts: ResourceCounts) => void;
  /** Called when the source knows how many records of a resource it will yield (progress totals, ETA). */
  onTotal?: (type: string, total: number) => void;
  /** Called with each warning as it arises (the answer lists them too). */
  onWarning?: (message: string) => void;
}

/** A restore entry point, bound to one resource: `parentId` is the parent record's id here (notes, histories). */
type Restorer = (
  db: Db,
  auth: RestoreAuth,
  shape: Record<string, unknown>,
  options: RestoreOptions,
  parentId: number | undefined,
) => Promise<RestoreResult>;

/** What the restore entry points need to know about the business. */
export interface RestoreAuth {
  businessId: number;
  timezone: string;
}

/**
 * The services the writer restores through (src/shared/restore.ts), as the composition root built them
 * (src/services.ts, whose `services` has this shape).
 */
export interface TransferServices {
  catalog: typeof catalogService;
  client: Pick<ClientService, 'restore'>;
  inquiry: Pick<InquiryService, 'restore'>;
  inquiryHistory: typeof inquiryHistoryService;
  contract: Pick<ContractService, 'restore' | 'restoreHistory'>;
  settlement: typeof settlementService;
  project: typeof projectService;
  worker: typeof workerService;
  todo: typeof todoService;
  estimate: typeof estimateService;
  file: typeof fileService;
}

/** The restore entry point of each resource of the stream, in its module's service. */
const restorersOf = ({
  catalog,
  client: clients,
  inquiry: inquiries,
  inquiryHistory: histories,
  contract: contracts,
  settlement: settlements,
  project: projects,
  worker: workers,
  todo: todos,
  estimate: estimates,
}: TransferServices): Partial<Record<TransferType, Restorer>> =>
  ({
    member: (db, auth, shape, options) => catalog.restoreMember(db, auth.businessId, shape as never, options),
    folder: (db, auth, shape, options) => catalog.restoreFolder(db, auth.businessId, shape as never, options),
    inquiry_status: (db, auth, shape, options) =>
      catalog.restoreInquiryStatus(db, auth.businessId, shape as never, options),
    client_status: (db, auth, shape, options) =>
      catalog.restoreClientStatus(db, auth.businessId, shape as never, options),
    field: (db, auth, shape, options) => catalog.restoreField(db, auth.businessId, shape as never, options),
    contract_category: (db, auth, shape, options) =>
      catalog.restoreContractCategory(db, auth.businessId, shape as never, options),
    settlement_type: (db, auth, shape, options) =>
      catalog.restoreSettlementType(db, auth.businessId, shape as never, options),
    estimate_item_classification: (db, auth, shape, options) =>
      catalog.restoreEstimateItemClassification(db, auth.businessId, shape as never, options),
    worker_position: (db, auth, shape, options) =>
      catalog.restoreWorkerPosition(db, auth.businessId, shape as never, options),
    client: (db, auth, shape, options) => clients.restore(db, auth, shape as unknown as RestoredClient, options),
    inquiry: (db, auth, shape, options) => inquiries.restore(db, auth, shape as unknown as RestoredInquiry, options),
    'inquiry.text_history': (db, auth, shape, options, parent) =>
      histories.restoreTextHistory(db, auth, parent!, shape as never, options),
    'inquiry.email_history': (db, auth, shape, options, parent) =>
      histories.restoreEmailHistory(db, auth, parent!, shape as never, options),
    'inquiry.email_reply_history': (db, auth, shape, options, parent) =>
      histories.restoreEmailReplyHistory(db, auth, parent!, shape as never, options),
    'inquiry.status_history': (db, auth, shape, options, parent) =>
      histories.restoreStatusHistory(db, auth, parent!, shape as never, options),
    'inquiry.folder_history': (db, auth, shape, options, parent) =>
      histories.restoreFolderHistory(db, auth, parent!, shape as never, options),
    'inquiry.submit_history': (db, auth, shape, options, parent) =>
      histories.restoreSubmitHistory(db, auth, parent!, shape as never, options),
    contract: (db, auth, shape, options) => contracts.restore(db, auth, shape as never, options),
    'contract.history': (db, auth, shape, options, parent) =>
      contracts.restoreHistory(db, auth, parent!, shape as never, options),
    settlement: (db, auth, shape, options) => settlements.restore(db, auth, shape as never, options),
    'settlement.history': (db, auth, shape, options, parent) =>
      settlements.restoreHistory(db, auth, parent!, shape as never, options),
    project: (db, auth, shape, options) => projects.restore(db, auth, shape as never, options),
    worker: (db, auth, shape, options) => workers.restore(db, auth, shape as never, options),
    todo: (db, auth, shape, options) => todos.restore(db, auth, shape as never, options),
    'estimate.item': (db, auth, shape, options) => estimates.restore(db, auth, shape as never, options),
  }) satisfies Record<TransferType, Restorer>;

/**
 * Resources whose restore validates every value before it touches the database (`checkOnly`, for `--dry-run`):
 * those the API writes with events (src/shared/resources.ts).
 */
const CHECKED_TYPES = new Set<TransferType>(resourceNames((r) => r.events === true));

/** Resource names of nested object properties that reference a record or catalog entry by `{id}`. */
const KEY_TYPES: Record<string, TransferType | 'grade'> = {
  client: 'client',
  inquiry: 'inquiry',
  contract: 'contract',
  settlement: 'settlement',
  project: 'project',
  worker: 'worker',
  folder: 'folder',
  previousFolder: 'folder',
  previousStatus: 'inquiry_status',
  categorySet: 'contract_category',
  category: 'contract_category',
  position: 'worker_position',
  classification: 'estimate_item_classification',
  field: 'field',
};

/** Record resources: an unmapped reference to one of them is cut (the record was not imported). */
const RECORD_TYPES = new Set<TransferType>(resourceNames((r) => r.kind === 'record'));

/** Whether `value` is a member object as every response nests it (`{id, nickname, email, isActive, grade}`). */
function isMember(value: Record<string, unknown>): boolean {
  return typeof value.id === 'number' && 'email' in value && 'isActive' in value && 'grade' in value;
}

/** The resource a nested `{id, …}` object under `key` references, or `undefined` when it references none. */
function typeOfNested(key: string, value: Record<string, unknown>): TransferType | 'grade' | undefined {
  if (isMember(value)) return 'member';
  if (key === 'grade' && typeof value.id === 'number') return 'grade';
  if (typeof value.id !== 'number') return undefined;
  if (key === 'status') return 'folder' in value ? 'inquiry_status' : 'client_status';
  if (key === 'type') return 'baseType' in value ? 'settlement_type' : undefined;
  return KEY_TYPES[key];
}

/** The writer's state during one run. */
class Writer {
  readonly counts: Record<string, ResourceCounts> = {};
  readonly warnings: string[] = [];
  readonly filesDone = { downloaded: 0, bytes: 0 };
  map = new Map<string, Map<number, number>>();
  auth: RestoreAuth | undefined;
  /** Members met only nested, restored once each (`member_list` answered 403). */
  private readonly pendingMembers = new Map<number, Record<string, unknown>>();
  /** Grades restored in this run (source ids). */
  private readonly gradesDone = new Set<number>();
  /** The restore entry point of each resource ({@link restorersOf}). */
  private readonly restorers: Partial<Record<TransferType, Restorer>>;

  constructor(
    private readonly db: Db,
    private readonly source: TransferSource,
    private readonly options: ImportOptions,
  ) {
    this.restorers = restorersOf(options.services);
  }

  warn(message: string): void {
    this.warnings.push(message);
    this.options.onWarning?.(message);
  }

  count(type: string): ResourceCounts {
    return (this.counts[type] ??= { read: 0, created: 0, updated: 0, unchanged: 0 });
  }

  targetOf(type: string, sourceId: number): number | undefined {
    return this.map.get(type)?.get(sourceId);
  }

  private remember(type: string, sourceId: number, targetId: number): void {
    let m = this.map.get(type);
    if (!m) this.map.set(type, (m = new Map()));
    m.set(sourceId, targetId);
  }

  /**
   * A deep copy of `value` with every nested reference rewritten to this server's ids. Members not in the map
   * are collected for {@link ensureMembers}; a record reference that is not in the map becomes null.
   */
  rewrite(value: unknown, key = ''): unknown {
    if (Array.isArray(value)) return value.map((v) => this.rewrite(v, key));
    if (value === null || typeof value !== 'object') return value;
    const obj = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) out[k] = this.rewrite(v, k);
    if (key === 'fieldSet' && out.field && typeof out.field === 'object') {
      // An M field's value is a member id.
      const field = out.field as { dataType?: unknown };
      if (field.dataType === 'M' && typeof out.value === 'string' && /^\d+$/.test(out.value)) {
        const id = Number(out.value);
        out.value = String(this.targetOf('member', id) ?? id);
      }
    }
    if (key === '') return out;
    const type = typeOfNested(key, obj);
    if (type === undefined) return out;
    const target = this.targetOf(type, obj.id as number);
    if (target !== undefined) return { ...out, id: target };
    if (type === 'member') {
      if (this.restorers.member) this.pendingMembers.set(obj.id as number, obj);
      return out;
    }
    if (RECORD_TYPES.has(type as TransferType)) return null;
    return out;
  }

  /** Restores the members met nested since the last call, then rewrites their ids in `data` again. */
  async ensureMembers(data: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (this.pendingMembers.size === 0) return data;
    const pending = [...this.pendingMembers.values()];
    this.pendingMembers.clear();
    for (const member of pending) {
      if (this.targetOf('member', member.id as number) !== undefined) continue;
      await this.write({ type: 'member', data: member }, true);
    }
    return this.rewrite(data) as Record<string, unknown>;
  }

  /** Restores a member's grade `{id, title}` once per run (grades exist only nested in members). */
  private async ensureGrade(grade: unknown): Promise<void> {
    const g = grade as { id?: unknown; title?: unknown } | null | undefined;
    if (!g || typeof g.id !== 'number' || this.gradesDone.has(g.id)) return;
    this.gradesDone.add(g.id);
    const auth = this.auth!;
    const sourceId = g.id;
    const counts = this.count('grade');
    counts.read++;
    const result = await inTransaction(this.db, async (trx) => {
      const r = await this.options.services.catalog.restoreGrade(
        trx,
        auth.businessId,
        { id: sourceId, title: String(g.title) },
        { targetId: this.targetOf('grade', sourceId) },
      );
      await repo.upsertIdMap(trx, auth.businessId, 'grade', sourceId, r.id);
      return r;
    });
    this.remember('grade', sourceId, result.id);
    counts[result.outcome]++;
  }

  /** Restores one item (and its attachments) and records its id. `nested`: a member met nested, not read as an item. */
  async write(item: TransferItem, nested = false): Promise<void> {
    const counts = this.count(item.type);
    if (!nested) counts.read++;
    const restorer = this.restorers[item.type];
    const sourceId = item.data.id;
    if (typeof sourceId !== 'number') {
      this.warn(`${item.type}: an item without a numeric id was skipped.`);
      return;
    }
    if (!Number.isSafeInteger(sourceId) || sourceId < 1) {
      // JSON cannot carry an id above 2^53 − 1 exactly: refused, never rounded (docs/api.md#ids).
      this.warn(`${item.type}: an item whose id is not an integer from 1 to 2^53 - 1 was skipped.`);
      return;
    }
    const read = readItem(item);
    for (const w of read.warnings) this.warn(w);
    if (read.data === undefined) return;
    item = { ...item, data: read.data };
    if (this.options.dryRun || this.auth === undefined) {
      // What a real run would refuse: the restore's own validation, without the database.
      if (restorer !== undefined && CHECKED_TYPES.has(item.type)) {
        try {
          // References as a real run would hand them over (records not yet imported: null; checked there).
          const data = this.rewrite(item.data) as Record<string, unknown>;
          await restorer(this.db, { businessId: 0, timezone: this.options.timezone }, data, { checkOnly: true }, 0);
        } catch (err) {
          if (!isRecordProblem(err)) throw err;
          this.warn(`${recordName(item)} was not imported: ${describe(err)}`);
          return;
        }
      }
      this.options.onProgress?.(item.type, counts);
      if (item.type === 'inquiry') await this.readFiles(item);
      return;
    }
    if (restorer === undefined) {
      if (!nested && counts.read === 1)
        this.warn(`${item.type}: this server cannot restore this resource yet; skipped.`);
      return;
    }
    let parentId: number | undefined;
    if (item.parent) {
      parentId = this.targetOf(item.parent.type, item.parent.id);
      if (parentId === undefined) {
        this.warn(`${item.type} ${sourceId}: its ${item.parent.type} ${item.parent.id} was not imported; skipped.`);
        return;
      }
    }
    const auth = this.auth;
    if (item.type === 'member') await this.ensureGrade(item.data.grade);
    let data = this.rewrite(item.data) as Record<string, unknown>;
    data = await this.ensureMembers(data);
    let result: RestoreResult;
    try {
      result = await inTransaction(this.db, async (trx) => {
        const r = await restorer(trx, auth, data, { targetId: this.targetOf(item.type, sourceId) }, parentId);
        await repo.upsertIdMap(trx, auth.businessId, item.type, sourceId, r.id);
        return r;
      });
    } catch (err) {
      // A fault of this server's database or storage stops the import (never marked complete); one record
      // this server cannot take (a value or reference it refuses) is reported, and the import goes on.
      if (!isRecordProblem(err)) throw err;
      this.warn(`${recordName(item)} was not imported: ${describe(err)}`);
      this.options.onProgress?.(item.type, counts);
      return;
    }
    this.remember(item.type, sourceId, result.id);
    counts[result.outcome]++;
    if (item.type === 'inquiry') await this.writeFiles(item, result.id);
    this.options.onProgress?.(item.type, counts);
  }

  /**
   * The bytes of an attachment, or `undefined` when the source's URL for it is refused (not a public address,
   * too large: docs/deployment.md#source-limits), which is a warning naming the inquiry and the file.
   */
  private async fileBytes(ref: TransferFileRef): Promise<Uint8Array | undefined> {
    try {
      return await this.source.fileBytes(ref);
    } catch (err) {
      if (!(err instanceof RefusedFileError)) throw err;
      this.warn(`inquiry ${ref.inquiryId}: ${err.message}; the file was not imported.`);
      return undefined;
    }
  }

  /** `--dry-run`: downloads an inquiry's attachments (reads everything) without storing them. */
  private async readFiles(item: TransferItem): Promise<void> {
    for (const entry of fileSetOf(item)) {
      const bytes = await this.fileBytes({
        inquiryId: item.data.id as number,
        fileId: entry.id,
        name: entry.name,
        file: entry.file,
      });
      if (bytes === undefined) continue;
      this.filesDone.downloaded++;
      this.filesDone.bytes += bytes.length;
    }
  }

  /** Downloads and attaches the attachments of an inquiry that are not here yet. */
  private async writeFiles(item: TransferItem, inquiryId: number): Promise<void> {
    const auth = this.auth!;
    const have = new Set(await this.options.services.file.inquiryFileIds(this.db, auth.businessId, inquiryId));
    for (const entry of fileSetOf(item)) {
      const known = this.targetOf('inquiry.file', entry.id);
      if (known !== undefined && have.has(known)) continue;
      const bytes = await this.fileBytes({
        inquiryId: item.data.id as number,
        fileId: entry.id,
        name: entry.name,
        file: entry.file,
      });
      if (bytes === undefined) continue;
      this.filesDone.downloaded++;
      this.filesDone.bytes += bytes.length;
      const stored = await this.options.services.file.storeRestoredObject(
        this.options.files,
        auth.businessId,
        entry.name,
        bytes,
      );
      const id = await inTransaction(this.db, async (trx) => {
        const fileId = await this.options.services.file.restoreInquiryFile(
          trx,
          auth.businessId,
          inquiryId,
          { id: entry.id, name: entry.name, created: entry.created },
          stored,
        );
        await repo.upsertIdMap(trx, auth.businessId, 'inquiry.file', entry.id, fileId);
        return fileId;
      });
      this.remember('inquiry.file', entry.id, id);
    }
  }
}

/**
 * Whether a restore's failure is the record's own (the import warns and goes on) rather than a fault of this
 * server (the import stops, docs/deployment.md#failures-and-resuming): a refusal of the API's validation or
 * of a reference (`ApiError`), a value the database refuses (PostgreSQL SQLSTATE classes 22 and 23, SQLite's
 * constraint, type and size errors), or a shape the restore could not read (`TypeError`, `RangeError`).
 * Everything else — a lost connection, a database shutting down, a read-only or full disk, a lock that never
 * came — is a fault of the target.
 */
export function isRecordProblem(err: unknown): boolean {
  if (err instanceof ApiError || err instanceof TypeError || err instanceof RangeError) return true;
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return /^2[23][0-9A-Z]{3}$/.test(code) || /^SQLITE_(CONSTRAINT|MISMATCH|TOOBIG|RANGE)/.test(code);
}

/** A restore failure as one line: a validation error's field messages, else the message. */
function describe(err: unknown): string {
  const e = err as { message?: string; fields?: unknown };
  if (e.fields !== undefined && typeof e.fields === 'object') return JSON.stringify(e.fields);
  return e.message ?? String(err);
}

/** The `fileSet` entries of an inquiry item. */
function fileSetOf(item: TransferItem): { id: number; name: string; file: string; created: string }[] {
  const set = item.data.fileSet;
  return Array.isArray(set) ? (set as { id: number; name: string; file: string; created: string }[]) : [];
}

/** `https://api.example.com` → `api.example.com`; a file origin → its base name. */
function hostOf(url: string): string {
  if (url.startsWith('file:')) return url.slice(5).split(/[\\/]/).pop() ?? url;
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * Imports a business from `source` (docs/deployment.md#11-moving-a-business-in-and-out).
 * `db` may be `undefined` only for a dry run into a new business (`--dry-run` without `--business`: nothing
 * is read from or written to this server's database).
 * @returns the answer of `bizapi import`
 * @throws Error from the source (a failed request, named) — what was written stays, and a re-run continues;
 *   Error when `businessId` names no business
 */
export async function importBusiness(
  db: Db | undefined,
  source: TransferSource,
  options: ImportOptions,
): Promise<ImportAnswer> {
  if (db === undefined && !(options.dryRun && options.businessId === undefined))
    throw new Error('importBusiness: a database is needed except for a dry run into a new business.');
  const writer = new Writer(db as Db, source, options);
  let answer: ImportAnswer = {
    business: null,
    counts: writer.counts,
    idsChanged: {},
    files: writer.filesDone,
    warnings: writer.warnings,
    dryRun: options.dryRun,
  };
  if (options.businessId !== undefined && db !== undefined) {
    const business = await retrieveBusiness(db, options.businessId);
    if (!business) throw new Error(`--business ${options.businessId}: there is no business with this id.`);
    answer.business = business;
  }
  const started = nowTimestamp();

  /** Finds or creates the target business; called once the source has yielded its first item. */
  const open = async (): Promise<void> => {
    if (options.dryRun || db === undefined) return;
    const { url, apiKeyPrefix } = source.origin;
    let businessId = options.businessId ?? (await repo.findBusinessIdBySource(db, url, apiKeyPrefix));
    if (businessId === undefined) {
      const masterKey = await options.masterKey();
      const created = await inTransaction(db, async (trx) => {
        const business = await createBusiness(trx, {
          name: options.name ?? `Imported from ${hostOf(url)}`,
          plan: options.plan,
          timezone: options.timezone,
        });
        const key = await createApiKey(trx, masterKey, business.id);
        await repo.upsertOrigin(trx, {
          business_id: business.id,
          url,
          api_key_prefix: apiKeyPrefix,
          last_run: started,
          complete: 0,
        });
        return { business, key };
      });
      answer = { ...answer, business: created.business, apiKey: created.key.apiKey, secretKey: created.key.secretKey };
      businessId = created.business.id;
    } else {
      answer.business ??= (await retrieveBusiness(db, businessId))!;
      await repo.upsertOrigin(db, {
        business_id: businessId,
        url,
        api_key_prefix: apiKeyPrefix,
        last_run: started,
        complete: 0,
      });
    }
    writer.auth = { businessId, timezone: answer.business!.timezone };
    writer.map = await repo.findIdMap(db, businessId);
  };

  let opened = false;
  for await (const item of source.items(
    (m) => writer.warn(m),
    (type, total) => options.onTotal?.(type, total),
  )) {
    if (!opened) {
      await open();
      opened = true;
    }
    await writer.write(item);
  }
  if (!opened) await open();
  if (writer.auth !== undefined && db !== undefined) {
    await repo.markComplete(db, writer.auth.businessId, nowTimestamp());
    for (const [type, m] of writer.map) {
      for (const [sourceId, targetId] of m) {
        if (sourceId !== targetId) (answer.idsChanged[type] ??= {})[String(sourceId)] = targetId;
      }
    }
  }
  return answer;
}

/** `importedFrom` of a business (docs/deployment.md#11-moving-a-business-in-and-out), or null for one not imported. */
export interface ImportedFrom {
  url: string;
  apiKeyPrefix: string;
  lastRun: string;
  complete: boolean;
}

/**
 * Every business of this server with where it was imported from (`bizapi business list`):
 * `{id, name, plan, timezone, created, importedFrom}` by id.
 */
export async function listBusinessesWithOrigin(
  db: Db,
): Promise<
  { id: number; name: string; plan: Plan; timezone: string; created: string; importedFrom: ImportedFrom | null }[]
> {
  const origins = new Map((await repo.findAllOrigins(db)).map((o) => [o.business_id, o]));
  return (await listBusinesses(db)).map((b) => {
    const o = origins.get(b.id);
    return {
      ...b,
      importedFrom:
        o === undefined
          ? null
          : { url: o.url, apiKeyPrefix: o.api_key_prefix, lastRun: o.last_run, complete: Boolean(o.complete) },
    };
  });
}
