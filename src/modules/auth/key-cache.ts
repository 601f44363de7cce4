/**
 * The per-process cache of resolved API keys (docs/authentication.md#revoking-a-key: a revoked
 * key stops at once in every process). Every `/v1` request used to read its key row (SHA-256 of the key,
 * one statement joining `api_key` and `business`); with this cache a process reads it once and then only
 * checks that nothing it holds can have changed since. An entry holds what that statement answers: the key's
 * business and id, its decrypted secret, and the business's `plan` and `timezone`.
 *
 * - **SQLite**: on every request the counter `auth_change.n` ({@link authChangeReader}, a few microseconds),
 *   which the triggers of migration 2026_11_28_0110 bump whenever a key row is updated or deleted or a
 *   business's plan or time zone is updated or the business deleted — by this process, another one, or by
 *   hand in SQL. Any other value than the last one read empties the cache.
 * - **PostgreSQL**: `LISTEN bizapi_auth` on a connection of its own (`DATABASE_DIRECT_URL` behind a
 *   transaction-mode pooler, docs/deployment.md#transaction-mode-poolers-pgbouncer). The same triggers send
 *   `NOTIFY bizapi_auth` with the changing transaction, and the commands that revoke or delete a key send it
 *   themselves too ({@link notifyKeysChanged}; on Citus, where `bizapi distribute` drops the triggers, only
 *   they do). This process's own updates and deletions of keys and businesses count at once
 *   (src/db/auth-change.ts), before its notification comes back. While the listening connection is not up (starting, reconnecting, or behind a pooler without
 *   `DATABASE_DIRECT_URL`) nothing is cached: every request reads its key, as without the cache.
 *
 * An entry records the cache's generation when its lookup began; any change seen later (a notification, a
 * new counter, a local revocation) moves the generation on, so a lookup that raced a change is never served
 * from the cache. Unknown and revoked keys are never cached. Entries are read again after
 * {@link KEY_CACHE_MAX_AGE_MS} in any case (on Citus, a change made by hand in SQL), and the cache holds at
 * most {@link KEY_CACHE_MAX_ENTRIES} keys.
 */
import type { Db } from '../../db/database.ts';
import { authChangeReader } from '../../db/create-db.ts';
import { authChanged, localAuthChanges } from '../../db/auth-change.ts';
import { listen, type Listener } from '../../db/listen.ts';
import type { AuthContext } from '../../shared/auth-context.ts';

/** The PostgreSQL channel on which key changes are announced: `NOTIFY bizapi_auth`. */
export const AUTH_CHANNEL = 'bizapi_auth';

/** Longest time an entry is used before its key row is read again: 60 s. */
export const KEY_CACHE_MAX_AGE_MS = 60_000;

/** Most keys one process keeps; past it the cache is emptied and refilled by the next requests. */
export const KEY_CACHE_MAX_ENTRIES = 10_000;

/**
 * Tells every API-key cache of this process that keys changed (call it after a revocation or deletion has
 * committed; src/modules/auth/auth.service.ts does). Other processes learn it from the database.
 */
export function keysChanged(): void {
  authChanged();
}

interface Entry {
  auth: AuthContext;
  /** The cache's generation when the lookup that produced the entry began. */
  generation: number;
  /** `Date.now()` when it was stored. */
  stored: number;
}

/** Options of {@link ApiKeyCache}. */
export interface ApiKeyCacheOptions {
  /**
   * PostgreSQL: the URL on which a session can `LISTEN` (`sessionUrlOf(config.database)`); `undefined` there
   * turns the cache off. Ignored on SQLite.
   */
  listenUrl?: string | undefined;
  /** Called when the listening connection fails (it reconnects by itself; nothing is cached meanwhile). */
  onListenError?: (err: Error, retryInMs: number) => void;
  /** "Now" in milliseconds (tests); default `Date.now`. */
  now?: () => number;
}

/** A cache of resolved API keys for one database handle; see the module comment for when entries are used. */
export class ApiKeyCache {
  readonly #entries = new Map<string, Entry>();
  readonly #now: () => number;
  /** Changes seen from the database (notifications, new counters, reconnections). */
  #remoteChanges = 0;
  /** SQLite: reads `auth_change.n`; `undefined` on PostgreSQL. */
  readonly #authChange: (() => number) | undefined;
  #lastAuthChange: number | undefined;
  /** Whether entries may be used and stored now (PostgreSQL: while listening). */
  #enabled: boolean;
  readonly #listener: Listener | undefined;

  /**
   * Whether changes arrive as notifications (PostgreSQL): a request answered from the cache then first lets
   * the event loop read what has arrived (one `setImmediate`), since a notification and the request that
   * follows the change can reach this process in the same turn.
   */
  get listens(): boolean {
    return this.#listener !== undefined;
  }

  constructor(db: Db, options: ApiKeyCacheOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#authChange = authChangeReader(db);
    if (this.#authChange !== undefined) {
      this.#enabled = true;
    } else if (options.listenUrl !== undefined) {
      this.#enabled = false;
      this.#listener = listen(options.listenUrl, AUTH_CHANNEL, {
        notify: () => this.#changed(),
        // (again) listening: notifications sent while the connection was down are lost
        listening: () => {
          this.#changed();
          this.#enabled = true;
        },
        error: (err, retryInMs) => {
          this.#enabled = false;
          this.#changed();
          options.onListenError?.(err, retryInMs);
        },
      });
    } else {
      this.#enabled = false; // PostgreSQL without a session to listen on, or a handle not made by createDb
    }
  }

  #changed(): void {
    this.#remoteChanges += 1;
    this.#entries.clear();
  }

  /**
   * The current generation, or `undefined` while nothing may be cached. On SQLite it reads `auth_change.n`
   * (another value than last time moves the generation on; a failure, such as no table before the
   * migration, turns this request's caching off).
   */
  generation(): number | undefined {
    if (!this.#enabled) return undefined;
    if (this.#authChange !== undefined) {
      let version: number;
      try {
        version = this.#authChange();
      } catch {
        this.#lastAuthChange = undefined;
        this.#changed();
        return undefined;
      }
      if (version !== this.#lastAuthChange) {
        this.#changed();
        this.#lastAuthChange = version;
      }
    }
    return this.#remoteChanges + localAuthChanges();
  }

  /** The cached resolution of `apiKey`, if it is still valid at `generation` (from {@link generation}). */
  get(apiKey: string, generation: number | undefined): AuthContext | undefined {
    if (generation === undefined) return undefined;
    const entry = this.#entries.get(apiKey);
    if (entry === undefined) return undefined;
    if (entry.generation !== generation || this.#now() - entry.stored > KEY_CACHE_MAX_AGE_MS) {
      this.#entries.delete(apiKey);
      return undefined;
    }
    return entry.auth;
  }

  /**
   * Stores a key resolved by a lookup that began at `generation`; ignored when that is `undefined` or no
   * longer current (a change arrived during the lookup).
   */
  set(apiKey: string, auth: AuthContext, generation: number | undefined): void {
    if (generation === undefined || generation !== this.#remoteChanges + localAuthChanges()) return;
    if (this.#entries.size >= KEY_CACHE_MAX_ENTRIES) this.#entries.clear();
    this.#entries.set(apiKey, { auth, generation, stored: this.#now() });
  }

  /** Stops listening (PostgreSQL) and forgets every entry; idempotent. */
  async close(): Promise<void> {
    this.#enabled = false;
    this.#entries.clear();
    await this.#listener?.close();
  }
}
