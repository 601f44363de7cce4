/**
 * `Idempotency-Key` (docs/api.md#idempotent-retries): claiming a key before the request
 * runs, storing its answer, replaying it. Scope: one business and one key — a key of one business never
 * sees another's row.
 *
 * A row is either a claim (`status_code` null: the first request is running) or a stored answer. Both last
 * {@link IDEMPOTENCY_TTL_MS} (24 hours) from the claim; a claim whose request never answered (its process
 * crashed) blocks the key only until its lock timeout, then the next request with that key takes it over.
 *
 * A stored answer's body is sealed with the master key, like every other secret at rest (docs/api.md#idempotent-retries: the
 * answer of `POST /v1/webhook` or `rotate_secret` holds a signing secret): AES-256-GCM
 * (`auth.service` `encryptSecret`) of the body's base64, stored as `v1.<iv>.<tag>.<ciphertext>`. Answers
 * stored before sealing (plain base64, which never contains a `.`) are still replayed as they are: they
 * expire within 24 hours of their claim (docs/api.md#idempotent-retries).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { decryptSecret, encryptSecret } from '../auth/auth.service.ts';
import * as repo from './idempotency.repository.ts';

/** How long a stored answer (and a claim) lives: 24 hours, in milliseconds. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;

/** Headers of an answer that are stored and replayed (lower case). */
export const STORED_HEADERS = ['content-type', 'location'] as const;

/** The claim this process holds on a key: pass it to {@link complete} or {@link release}. */
export interface Claim {
  id: number;
  token: string;
}

/** A stored answer, replayed byte for byte. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** What {@link claim} found. */
export type ClaimResult =
  | { kind: 'claimed'; claim: Claim }
  | { kind: 'replay'; answer: StoredAnswer }
  /** Same key, another request (method, path or body): 422 `idempotency_key_reused`. */
  | { kind: 'reused' }
  /** Same key, same request, still running: 409 `idempotency_key_in_progress`. */
  | { kind: 'in_progress' };

/**
 * The fingerprint of a request: SHA-256 hex of `METHOD`, the path with its query as sent, and the SHA-256
 * hex of the raw body bytes, joined by newlines.
 */
export function fingerprint(method: string, url: string, rawBody: Uint8Array): string {
  const bodyHash = createHash('sha256').update(rawBody).digest('hex');
  return createHash('sha256').update(`${method.toUpperCase()}\n${url}\n${bodyHash}`).digest('hex');
}

/**
 * Claims `key` of `businessId` for the request with `print`, or tells why not. Exactly one of any number of
 * concurrent callers (in any process on the same database) gets `claimed`: the INSERT of the claim meets
 * the unique constraint on (business, key); a takeover of an expired row or of a claim past its lock is a
 * compare-and-swap on the claim token.
 *
 * @param lockMs how long the claim blocks the key if its request never answers
 * @param masterKey opens a sealed stored answer ({@link openBody})
 * @throws Error when a sealed answer does not open with `masterKey` (another installation's key)
 */
export async function claim(
  db: Db,
  businessId: number,
  key: string,
  print: string,
  nowMs: number,
  lockMs: number,
  masterKey: Buffer,
): Promise<ClaimResult> {
  const values = (): repo.ClaimValues => ({
    fingerprint: print,
    claimToken: randomUUID(),
    lockedUntil: nowMs + lockMs,
    expiresAt: nowMs + IDEMPOTENCY_TTL_MS,
  });
  // A few rounds: the row seen may be deleted or taken over between two statements.
  for (let round = 0; round < 5; round++) {
    const v = values();
    const id = await repo.insertClaim(db, businessId, key, v);
    if (id !== undefined) return { kind: 'claimed', claim: { id, token: v.claimToken } };
    const row = await repo.find(db, businessId, key);
    if (!row) continue;
    const expired = row.expires_at <= nowMs;
    const abandoned = row.status_code === null && row.locked_until <= nowMs;
    if (expired || (abandoned && row.fingerprint === print)) {
      if (await repo.takeOver(db, row.id, row.claim_token, v))
        return { kind: 'claimed', claim: { id: row.id, token: v.claimToken } };
      continue;
    }
    if (row.fingerprint !== print) return { kind: 'reused' };
    if (row.status_code === null) return { kind: 'in_progress' };
    return {
      kind: 'replay',
      answer: {
        status: row.status_code,
        headers: JSON.parse(row.response_headers ?? '{}') as Record<string, string>,
        body: openBody(masterKey, row.response_body ?? ''),
      },
    };
  }
  return { kind: 'in_progress' };
}

/**
 * The stored form of an answer's body: `v1.<iv>.<tag>.<ciphertext>`, the body's base64 sealed with
 * `masterKey` (AES-256-GCM, `encryptSecret`).
 */
export function sealBody(masterKey: Buffer, body: Buffer): string {
  return encryptSecret(masterKey, body.toString('base64'));
}

/**
 * The body bytes of a stored answer: a sealed one ({@link sealBody}) opened with `masterKey`; one stored
 * before sealing (plain base64, no `.` in it) read as it is.
 * @throws Error when a sealed body does not open with `masterKey`
 */
export function openBody(masterKey: Buffer, stored: string): Buffer {
  return Buffer.from(stored.includes('.') ? decryptSecret(masterKey, stored) : stored, 'base64');
}

/**
 * Stores the answer of the request that holds `held` (status, headers that matter, exact body bytes), the
 * body sealed with `masterKey` ({@link sealBody}).
 */
export async function complete(db: Db, held: Claim, answer: StoredAnswer, masterKey: Buffer): Promise<void> {
  await repo.storeAnswer(
    db,
    held.id,
    held.token,
    answer.status,
    JSON.stringify(answer.headers),
    sealBody(masterKey, answer.body),
  );
}

/** Gives the key up (an answer that is not stored: 5xx, 409, 429), so it can be retried. */
export async function release(db: Db, held: Claim): Promise<void> {
  await repo.deleteClaim(db, held.id, held.token);
}

/** The purge: deletes claims and answers older than 24 hours; returns how many. */
export async function purgeExpired(db: Db, nowMs: number): Promise<number> {
  return repo.deleteExpired(db, nowMs);
}
