/**
 * The 1:1 link of a contract and an inquiry (docs/api.md#contracts), both sides: a contract write that links
 * or releases an inquiry (`inquiry` of its body), and an inquiry write that sets or releases its contract
 * (`contract` of its body). The link is `contract.inquiry_id` under the unique index `contract_inquiry_uq`, so
 * of two requests racing for one inquiry exactly one succeeds, and the inquiry's `contract` (read through the
 * same column) always agrees.
 *
 * Locks: a write that changes a link locks the inquiries it touches first, ascending, then the contract (the
 * order of every write that touches both, so that they cannot deadlock on PostgreSQL); the inquiry's
 * `inquiry.updated` is written after the contract's own event (docs/api.md#events, docs/api.md#cascades).
 * The inquiry module builds on this one: its liveness check, its lock and its event reach the contract's
 * writes as an {@link InquiryLink}, given to the contract service when the composition root (src/services.ts)
 * builds it, so the inquiry table is read only by the inquiry module's SQL and no import circle forms.
 */
import type { Db } from '../../db/database.ts';
import { inTransaction, isUniqueViolation } from '../../db/sql-helpers.ts';
import type { CascadeAuth } from '../../shared/cascade.ts';
import { type ErrorCollector, NotFound, ValidationError, messages } from '../../shared/errors.ts';
import * as repo from './contract.repository.ts';

/** 400 on `inquiry.id` (contract side of the 1:1 link). */
export const INQUIRY_TAKEN = 'This inquiry is already linked to another contract.';
/** 400 on `contract.id` (inquiry side of the 1:1 link). */
export const CONTRACT_TAKEN = 'This contract is already linked to another inquiry.';

/** The unique index of the link, as each dialect reports it. */
const INQUIRY_LINK_UQ = {
  name: 'contract_inquiry_uq',
  columns: ['contract.business_id', 'contract.inquiry_id'],
} as const;

/**
 * The inquiry side of a contract write that links or releases an inquiry: the inquiry's `contract` changes,
 * so the write writes `inquiry.updated` too (docs/api.md#events). The inquiry module builds on this one, so
 * its functions (inquiry.service `contractLink`) reach the contract service when src/services.ts builds it,
 * rather than being imported. `files` is the caller's file context (the file module's `FileContext`), which
 * signs the download URLs of the inquiry's shape in its event.
 */
export interface InquiryLink<Files = unknown> {
  /**
   * Whether inquiry `inquiryId` is live (not soft-deleted) in business `auth.businessId`, in one statement: the
   * check of a body's `inquiry {id}` (inquiry.service `exists`; the inquiry table is the inquiry module's).
   */
  exists: (db: Db, auth: CascadeAuth, inquiryId: number) => Promise<boolean>;
  /** Reads the live inquiry's full shape in one statement that is also its lock, in the caller's transaction; `undefined` when it is not live. */
  lock: (trx: Db, auth: CascadeAuth, inquiryId: number) => Promise<{ id: number } | undefined>;
  /** After the contract's writes: stamps the inquiry's `updated`, reads it again and writes its `inquiry.updated` event. */
  finish: (trx: Db, auth: CascadeAuth, locked: { id: number }, files: Files | undefined) => Promise<void>;
}

/** An {@link InquiryLink} bound to one write's business and file context ({@link bindInquiryLink}). */
export interface InquiryShapes {
  exists: (db: Db, inquiryId: number) => Promise<boolean>;
  lock: (trx: Db, inquiryId: number) => Promise<{ id: number } | undefined>;
  finish: (trx: Db, locked: { id: number }) => Promise<void>;
}

/** `link` for one contract write of business `auth.businessId`, signing download URLs with `files`. */
export function bindInquiryLink<Files>(
  link: InquiryLink<Files>,
  auth: CascadeAuth,
  files: Files | undefined,
): InquiryShapes {
  return {
    exists: (db, id) => link.exists(db, auth, id),
    lock: (trx, id) => link.lock(trx, auth, id),
    finish: (trx, locked) => link.finish(trx, auth, locked, files),
  };
}

// ── The contract side: a contract write that links or releases an inquiry ──

/**
 * Checks a contract body's `inquiry` reference for contract `contractId` (undefined on create): the inquiry
 * must be live (`inquiries.exists`), and not linked to another contract. Problems go to `errors` under
 * `inquiry.id`.
 */
export async function checkInquiryLink(
  db: Db,
  businessId: number,
  inquiryId: number,
  contractId: number | undefined,
  errors: ErrorCollector,
  inquiries: Pick<InquiryShapes, 'exists'>,
): Promise<void> {
  if (!(await inquiries.exists(db, inquiryId))) {
    errors.add(['inquiry', 'id'], messages.invalidPk(inquiryId));
  } else {
    const holder = await repo.findIdByInquiryId(db, businessId, inquiryId);
    if (holder !== undefined && holder !== contractId) errors.add(['inquiry', 'id'], INQUIRY_TAKEN);
  }
}

/**
 * Locks the inquiries `ids` (ascending, so concurrent writes lock in one order), each with one read of its
 * full shape. `required` must be live: an inquiry soft-deleted since the reference check is refused (400 on
 * `inquiry.id`) rather than left holding the contract; an id that is not live otherwise is skipped (nothing
 * shows it).
 */
export async function lockInquiries(
  trx: Db,
  ids: readonly (number | null | undefined)[],
  required: number | undefined,
  inquiries: InquiryShapes,
): Promise<{ id: number }[]> {
  const wanted = [...new Set(ids.filter((id): id is number => typeof id === 'number'))].sort((a, b) => a - b);
  const touched: { id: number }[] = [];
  for (const id of wanted) {
    const locked = await inquiries.lock(trx, id);
    if (!locked) {
      if (id === required) throw ValidationError.at(['inquiry', 'id'], messages.invalidPk(id));
      continue;
    }
    touched.push(locked);
  }
  return touched;
}

/** Writes `inquiry.updated` for each inquiry whose link the write changed (docs/api.md#events), after the contract's own event. */
export async function recordInquiryChanges(
  trx: Db,
  touched: readonly { id: number }[],
  inquiries: InquiryShapes,
): Promise<void> {
  for (const locked of touched) await inquiries.finish(trx, locked);
}

/**
 * Runs a contract write in a transaction, turning a lost race for an inquiry (`contract_inquiry_uq`) into the
 * same 400 on `inquiry.id` as the check before it.
 */
export async function linkingInquiry<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  try {
    return await inTransaction(db, fn);
  } catch (err) {
    if (isUniqueViolation(err, INQUIRY_LINK_UQ.name, INQUIRY_LINK_UQ.columns))
      throw ValidationError.at(['inquiry', 'id'], INQUIRY_TAKEN);
    throw err;
  }
}

/**
 * The first locks of a PATCH of contract `id` that sends `inquiry` (`newInquiryId`, `null`: release; undefined:
 * not sent) or a property of the summary the linked inquiry nests (`sendsSummary`): the inquiry it releases
 * and the one it links, or the linked one, locked before the contract ({@link lockInquiries}). Answers the
 * inquiries locked, none when the body sends neither.
 * @throws NotFound for a missing contract; ValidationError on `inquiry.id` when the inquiry to link is gone
 */
export async function lockForPatch(
  trx: Db,
  businessId: number,
  id: number,
  newInquiryId: number | null | undefined,
  sendsSummary: boolean,
  inquiries: InquiryShapes,
): Promise<{ id: number }[]> {
  if (newInquiryId === undefined && !sendsSummary) return [];
  const previous = await repo.findInquiryIdById(trx, businessId, id);
  if (previous === undefined) throw new NotFound();
  if (newInquiryId !== undefined && previous !== newInquiryId) {
    return lockInquiries(trx, [previous, newInquiryId], newInquiryId ?? undefined, inquiries);
  }
  if (previous !== null) return lockInquiries(trx, [previous], undefined, inquiries);
  return [];
}

/**
 * After the contract's locking read of a PATCH ({@link lockForPatch}): a concurrent write may have moved the
 * link between the read of the linked inquiry and the lock, to `storedInquiryId`; that inquiry is locked too
 * and added to `touched`.
 */
export async function lockMovedInquiry(
  trx: Db,
  storedInquiryId: number | null,
  newInquiryId: number | null | undefined,
  sendsSummary: boolean,
  touched: { id: number }[],
  inquiries: InquiryShapes,
): Promise<void> {
  if ((newInquiryId === undefined && !sendsSummary) || storedInquiryId === null) return;
  const known = new Set([newInquiryId, ...touched.map((i) => i.id)]);
  if (!known.has(storedInquiryId)) touched.push(...(await lockInquiries(trx, [storedInquiryId], undefined, inquiries)));
}

// ── The inquiry side: an inquiry write that sets or releases its contract ──

/**
 * Checks an inquiry body's `contract` reference for inquiry `inquiryId` (undefined on create): the contract
 * must be one of the business's, and not linked to another inquiry. Problems go to `errors` under
 * `contract.id`.
 */
export async function checkInquiryContract(
  db: Db,
  businessId: number,
  contractId: number,
  inquiryId: number | undefined,
  errors: ErrorCollector,
): Promise<void> {
  const holder = await repo.findInquiryIdById(db, businessId, contractId);
  if (holder === undefined) errors.add(['contract', 'id'], messages.invalidPk(contractId));
  else if (holder !== null && holder !== inquiryId) errors.add(['contract', 'id'], CONTRACT_TAKEN);
}

/**
 * Sets the contract of inquiry `inquiryId` inside the caller's transaction: releases any other contract
 * linked to it, then links `contractId` (`null`: none) with a compare-and-set, so of two inquiries racing for
 * one contract exactly one wins. Answers the ids of the contracts it changes, for contract.service `recordInquiryNested`
 * (docs/api.md#cascades).
 * @throws ValidationError on `contract.id` when the contract is gone or already has another inquiry
 */
export async function setInquiryContract(
  trx: Db,
  businessId: number,
  inquiryId: number,
  contractId: number | null,
): Promise<number[]> {
  const released = await repo.releaseInquiry(trx, businessId, inquiryId, contractId ?? undefined);
  if (contractId === null) return released;
  let linked: number;
  try {
    linked = await repo.linkInquiry(trx, businessId, contractId, inquiryId);
  } catch (err) {
    if (isUniqueViolation(err, INQUIRY_LINK_UQ.name, INQUIRY_LINK_UQ.columns))
      throw ValidationError.at(['contract', 'id'], CONTRACT_TAKEN);
    throw err;
  }
  if (linked === 0) {
    const exists = (await repo.findInquiryIdById(trx, businessId, contractId)) !== undefined;
    throw ValidationError.at(['contract', 'id'], exists ? CONTRACT_TAKEN : messages.invalidPk(contractId));
  }
  return [...released, contractId];
}

/**
 * Releases the contract of inquiry `inquiryId` (a soft-deleted inquiry releases its link, docs/api.md#contracts);
 * answers the ids of the contracts released, for contract.service `recordInquiryNested`.
 */
export async function releaseInquiryContract(trx: Db, businessId: number, inquiryId: number): Promise<number[]> {
  return repo.releaseInquiry(trx, businessId, inquiryId);
}
