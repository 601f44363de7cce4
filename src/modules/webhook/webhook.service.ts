/**
 * Webhook endpoints (docs/webhooks.md): per-business URLs that receive the business's events. Create,
 * list, retrieve, partialUpdate, destroy, rotateSecret, test (a `webhook.test` ping to one endpoint), and
 * the deliveries of an endpoint (list, retry). The sending itself (signing, attempts, retries, disabling a
 * failing endpoint) is the delivery side's (`webhook-delivery.*`, the webhook dispatcher), whose
 * `insertDeliveries` the test ping writes its delivery with; `url-safety.ts` holds the address checks.
 *
 * Endpoints are configuration, not business records: their writes write no events.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import type { WebhookEndpointRow, WebhookEndpointRowUpdate } from '../../db/tables/webhook.table.ts';
import { inTransaction, nowTimestamp, toBool } from '../../db/sql-helpers.ts';
import { ErrorCollector, NotFound, Throttled, ValidationError } from '../../shared/errors.ts';
import { type CursorPosition, mapPage, type Page, pageSizeOf } from '../../shared/pagination.ts';
import type { AuthContext } from '../../shared/auth-context.ts';
import { encryptSecret, lockBusiness } from '../auth/auth.service.ts';
import { listSequencedAfter, markPublished, maxEventId, record } from '../event/event.service.ts';
import { DELIVERY_RETENTION_DAYS, endpointWants, insertDeliveries, PLUUUG_FIELDS } from './webhook-delivery.service.ts';
import * as repo from './webhook.repository.ts';
import {
  ALL_EVENT_TYPES,
  type Webhook,
  type WebhookCreateBody,
  type WebhookCreated,
  type WebhookDelivery,
  type WebhookDeliveryListQuery,
  type WebhookFormat,
  type WebhookListQuery,
  type WebhookRecoverBody,
  type WebhookRecovered,
  type WebhookReplayBody,
  type WebhookReplayed,
  REPLAY_MAX_EVENTS,
  type WebhookSecret,
  type WebhookUpdateBody,
} from './webhook.schemas.ts';
import { checkWebhookUrl, type Lookup, UnsafeWebhookUrl } from './url-safety.ts';

type Auth = Pick<AuthContext, 'businessId'>;

/** What the endpoint operations need besides the database. */
export interface WebhookSettings {
  /** The installation's master key: seals the signing secrets. */
  masterKey: Buffer;
  /** `BIZAPI_WEBHOOK_ALLOW_PRIVATE`: URLs may name non-public addresses. */
  allowPrivate: boolean;
  /** The name resolver of the URL check (tests); default the system's. */
  lookup?: Lookup;
  /** `BIZAPI_WEBHOOK_MAX_ENDPOINTS`: endpoints a business may have (default {@link MAX_ENDPOINTS}). */
  maxEndpoints?: number;
  /** The shared counter of the test-ping limit (default: none, pings unlimited — the CLI sends none). */
  pingCounter?: PingCounter;
}

/**
 * A fixed-window counter shared by the server's processes (the rate-limit plugin's `windowCounter`): counts
 * one hit on `key` and answers the hits of the current window of `windowMs` and its end (epoch ms).
 */
export type PingCounter = { hit(key: string, windowMs: number): Promise<{ hits: number; resetAt: number }> };

/**
 * How long an endpoint's creation waits on PostgreSQL for the transactions writing events to end (ms; the
 * event table lock of event.service `maxEventId`); then it gives up with SQLSTATE 55P03, which answers 503
 * with `Retry-After` (src/db/unavailable.ts; docs/webhooks.md#which-events-an-endpoint-receives).
 */
export const ENDPOINT_LOCK_TIMEOUT_MS = 2000;

/** Endpoints a business may have unless configured otherwise (docs/webhooks.md#fairness-and-limits). */
export const MAX_ENDPOINTS = 20;

/** Test pings one endpoint may be sent per {@link TEST_PING_WINDOW_MS} (docs/webhooks.md#fairness-and-limits). */
export const TEST_PINGS_PER_WINDOW = 5;

/**
 * Test pings one business may send per {@link TEST_PING_WINDOW_MS}, whatever endpoints (docs/webhooks.md#fairness-and-limits):
 * one to each of its endpoints at the default cap of 20; an endpoint deleted and created again does not start afresh.
 */
export const TEST_PINGS_PER_BUSINESS_WINDOW = 20;

/** The test-ping limit's window: one minute. */
export const TEST_PING_WINDOW_MS = 60_000;

/**
 * The 429 of a per-endpoint limit counted in a window of {@link TEST_PING_WINDOW_MS} (test pings, recoveries:
 * docs/webhooks.md#fairness-and-limits): `Retry-After` the seconds from `now` (ms) until `resetAt` (ms), at
 * least 1 and at most the window (a window's end was set by whichever process counted first: bounded by the
 * window, whatever the clocks).
 */
function throttledUntil(resetAt: number, now: number): Throttled {
  return new Throttled(Math.min(TEST_PING_WINDOW_MS / 1000, Math.max(1, Math.ceil((resetAt - now) / 1000))));
}

/**
 * 400 `{"nonField": ["A business can have at most 20 webhook endpoints. Delete one first."], "code":
 * "webhook_limit"}`: the business has {@link WebhookSettings.maxEndpoints} endpoints already
 * (docs/webhooks.md#fairness-and-limits).
 */
export class WebhookLimitReached extends ValidationError {
  constructor(max: number) {
    super({ nonField: [`A business can have at most ${max} webhook endpoints. Delete one first.`] });
  }

  override toBody(): Record<string, unknown> {
    return { ...super.toBody(), code: 'webhook_limit' };
  }
}

/** How long the secret replaced by a rotation keeps signing beside the new one (docs/webhooks.md#secret-rotation). */
export const PREVIOUS_SECRET_TTL_MS = 24 * 60 * 60 * 1000;

/** A new signing secret: `whsec_` + base64 of 24 random bytes (the Standard Webhooks form). */
export function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** Maps a row to the API shape (never the secrets). */
export function toWebhook(row: WebhookEndpointRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    eventTypes: JSON.parse(row.event_types) as string[],
    description: row.description,
    isActive: row.is_active === 1,
    format: row.format as WebhookFormat,
    isParked: row.parked_after_event_id !== null,
    created: row.created,
  };
}

/** Maps a delivery row to the API shape. */
function toDelivery(row: repo.DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    event: { id: row.event_id, type: row.event_type },
    status: row.status as WebhookDelivery['status'],
    attempts: row.attempts,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    lastAttemptAt: row.last_attempt_at,
    nextAttemptAt: row.next_attempt_at,
    created: row.created,
  };
}

/**
 * Checks the URL and the event types of a body, collecting every problem (docs/webhooks.md#url-safety).
 * `eventTypes` is `["*"]` alone or a list of event types (duplicates dropped, order kept).
 * @throws ValidationError `{"url": […], "eventTypes": […]}`
 */
async function checkBody(settings: WebhookSettings, body: WebhookUpdateBody): Promise<{ eventTypes?: string[] }> {
  const errors = new ErrorCollector();
  if (body.url !== undefined) {
    try {
      await checkWebhookUrl(body.url, {
        allowPrivate: settings.allowPrivate,
        ...(settings.lookup && { lookup: settings.lookup }),
      });
    } catch (err) {
      if (!(err instanceof UnsafeWebhookUrl)) throw err;
      errors.add(['url'], err.message);
    }
  }
  let eventTypes: string[] | undefined;
  if (body.eventTypes !== undefined) {
    eventTypes = [...new Set(body.eventTypes)];
    if (eventTypes.includes(ALL_EVENT_TYPES) && eventTypes.length > 1) {
      errors.add(['eventTypes'], `"${ALL_EVENT_TYPES}" stands for every event type and must be alone.`);
    }
  }
  errors.throwIfAny();
  return eventTypes === undefined ? {} : { eventTypes };
}

/** `GET /v1/webhook`: the business's endpoints, newest first. */
export async function list(
  db: Db,
  auth: Auth,
  query: WebhookListQuery,
  cursor: CursorPosition | undefined,
): Promise<Page<Webhook>> {
  return mapPage(await repo.findEndpointPage(db, auth.businessId, pageSizeOf(query), cursor), toWebhook);
}

/** Every endpoint of the business, newest first (`bizapi webhook list`). */
export async function listAll(db: Db, businessId: number): Promise<Webhook[]> {
  return (await repo.findAllEndpoints(db, businessId)).map(toWebhook);
}

/**
 * `POST /v1/webhook` (docs/webhooks.md#endpoints): a new endpoint with a new secret, sealed with the master
 * key; the answer is the only place the secret appears. `isActive` defaults to true, `format` to
 * `standard`. A business has at most `settings.maxEndpoints` (20) endpoints, counted under a lock so that
 * concurrent creates, on any number of processes, never pass the cap (docs/webhooks.md#fairness-and-limits).
 * The endpoint receives only the events committed after it was created: it keeps the highest event id
 * committed at its creation, and the fan-out skips events up to it
 * (docs/webhooks.md#which-events-an-endpoint-receives).
 * @throws ValidationError for a refused URL (scheme, credentials, non-public or unresolvable host) or
 *   `"*"` mixed with event types; WebhookLimitReached (400 `webhook_limit`) at the cap
 */
export async function create(
  db: Db,
  settings: WebhookSettings,
  auth: Auth,
  body: WebhookCreateBody,
): Promise<WebhookCreated> {
  const { eventTypes } = await checkBody(settings, body);
  const secret = newSecret();
  const at = nowTimestamp();
  const max = settings.maxEndpoints ?? MAX_ENDPOINTS;
  const row = {
    url: body.url,
    event_types: JSON.stringify(eventTypes ?? body.eventTypes),
    description: body.description ?? null,
    is_active: toBool(body.isActive ?? true),
    format: body.format ?? 'standard',
    secret: encryptSecret(settings.masterKey, secret),
    previous_secret: null,
    previous_secret_expires_at: null,
    last_success_at: null,
    failing_since: null,
    created: at,
    updated: at,
  };
  // Counted and inserted under the business's lock (auth.service `lockBusiness`): concurrent creates never pass the cap.
  const id = await inTransaction(db, async (trx) => {
    await lockBusiness(trx, auth.businessId);
    if ((await repo.countEndpoints(trx, auth.businessId)) >= max) throw new WebhookLimitReached(max);
    // only events committed from now on reach it (docs/webhooks.md#which-events-an-endpoint-receives)
    return repo.insertEndpoint(trx, auth.businessId, {
      ...row,
      after_event_id: await maxEventId(trx, ENDPOINT_LOCK_TIMEOUT_MS),
    });
  });
  return {
    id,
    url: body.url,
    eventTypes: eventTypes ?? body.eventTypes,
    description: body.description ?? null,
    isActive: body.isActive ?? true,
    format: body.format ?? 'standard',
    isParked: false,
    created: at,
    secret,
  };
}

/** Whether the business has an endpoint with this id. */
export async function exists(db: Db, auth: Auth, id: number): Promise<boolean> {
  return repo.endpointExists(db, auth.businessId, id);
}

/**
 * `GET /v1/webhook/{webhook_id}`: the endpoint, without its secret.
 * @throws NotFound for a missing or other business's endpoint
 */
export async function retrieve(db: Db, auth: Auth, id: number): Promise<Webhook> {
  const row = await repo.findEndpointById(db, auth.businessId, id);
  if (!row) throw new NotFound();
  return toWebhook(row);
}

/**
 * `PATCH /v1/webhook/{webhook_id}`: only the properties sent change. A new `url` is checked as on create.
 * Turning `isActive` back on clears the failure streak (`failing_since`), so a re-enabled endpoint gets
 * 5 days afresh before it is disabled again, and ends its parking with the events it was owed (an inactive
 * endpoint receives nothing: docs/webhooks.md#parking).
 * @throws NotFound for a missing endpoint; ValidationError as {@link create}
 */
export async function partialUpdate(
  db: Db,
  settings: WebhookSettings,
  auth: Auth,
  id: number,
  body: WebhookUpdateBody,
): Promise<Webhook> {
  // The route answered 404 for a missing endpoint before validation.
  const { eventTypes } = await checkBody(settings, body);
  return inTransaction(db, async (trx) => {
    // The read of the current row is its lock (FOR UPDATE on PostgreSQL) and the existence check.
    const before = await repo.findEndpointById(trx, auth.businessId, id, true);
    if (!before) throw new NotFound();
    const patch: WebhookEndpointRowUpdate = {};
    if (body.url !== undefined) patch.url = body.url;
    if (eventTypes !== undefined) patch.event_types = JSON.stringify(eventTypes);
    if (body.description !== undefined) patch.description = body.description;
    if (body.format !== undefined) patch.format = body.format;
    if (body.isActive !== undefined) {
      patch.is_active = toBool(body.isActive);
      if (body.isActive && before.is_active === 0)
        Object.assign(patch, { failing_since: null, sick_streak: 0, parked_after_event_id: null });
    }
    const changed = Object.entries(patch).some(([k, v]) => before[k as keyof WebhookEndpointRow] !== v);
    if (!changed) return toWebhook(before);
    // The UPDATE answers the row after the write: no read after.
    return toWebhook((await repo.updateEndpoint(trx, auth.businessId, id, patch, nowTimestamp()))!);
  });
}

/**
 * `DELETE /v1/webhook/{webhook_id}`: the endpoint and its deliveries; nothing more is sent to it.
 * @throws NotFound for a missing endpoint
 */
export async function destroy(db: Db, auth: Auth, id: number): Promise<void> {
  if ((await repo.deleteEndpoint(db, auth.businessId, id)) === 0) throw new NotFound();
}

/**
 * `POST /v1/webhook/{webhook_id}/rotate_secret` (docs/webhooks.md#secret-rotation): a new secret signs from now on;
 * the old one keeps signing beside it for 24 hours (two signatures per delivery), so receivers can switch
 * without losing a delivery. A second rotation within the 24 hours drops the oldest secret.
 * @returns the new secret, shown only here
 * @throws NotFound for a missing endpoint
 */
export async function rotateSecret(db: Db, settings: WebhookSettings, auth: Auth, id: number): Promise<WebhookSecret> {
  const secret = newSecret();
  await inTransaction(db, async (trx) => {
    const row = await repo.findEndpointById(trx, auth.businessId, id, true);
    if (!row) throw new NotFound();
    const now = Date.now();
    await repo.updateEndpoint(
      trx,
      auth.businessId,
      id,
      {
        secret: encryptSecret(settings.masterKey, secret),
        previous_secret: row.secret,
        previous_secret_expires_at: new Date(now + PREVIOUS_SECRET_TTL_MS).toISOString(),
      },
      new Date(now).toISOString(),
    );
  });
  return { secret };
}

/**
 * `POST /v1/webhook/{webhook_id}/resume` (docs/webhooks.md#parking): a parked endpoint is given another
 * chance at once — its streak of attempts without an answer is cleared, so the dispatchers write the events
 * it is owed (a chunk at a time, as its queue drains) and attempt them in the normal lane; should the
 * receiver still not answer, it is parked again after the same number of attempts. An endpoint that is not
 * parked is left as it is.
 * @returns the endpoint (`isParked` stays true until its owed events are all queued)
 * @throws NotFound for a missing endpoint
 */
export async function resume(db: Db, auth: Auth, id: number): Promise<Webhook> {
  return inTransaction(db, async (trx) => {
    const row = await repo.findEndpointById(trx, auth.businessId, id, true);
    if (!row) throw new NotFound();
    if (row.parked_after_event_id === null || row.sick_streak === 0) return toWebhook(row);
    return toWebhook((await repo.updateEndpoint(trx, auth.businessId, id, { sick_streak: 0 }, nowTimestamp()))!);
  });
}

/**
 * `POST /v1/webhook/{webhook_id}/test` (docs/webhooks.md#the-test-ping): in one transaction, writes a `webhook.test`
 * event (`data: {id: <webhook id>, url}`), marks it published so the fan-out does not send it to the
 * business's other endpoints, and writes one pending delivery of it to this endpoint, due now. Works on an
 * inactive endpoint too. With `pingCounter`, at most {@link TEST_PINGS_PER_WINDOW} (5) pings a minute per
 * endpoint and {@link TEST_PINGS_PER_BUSINESS_WINDOW} (20) per business (of the pings an endpoint's limit let
 * through), counted across processes (docs/webhooks.md#fairness-and-limits); beyond either, nothing is written.
 * @returns the pending delivery
 * @throws NotFound for a missing endpoint; Throttled (429, `Retry-After`: seconds until the window ends)
 *   beyond the limit
 */
export async function test(db: Db, auth: Auth, id: number, pingCounter?: PingCounter): Promise<WebhookDelivery> {
  if (pingCounter) {
    if (!(await repo.endpointExists(db, auth.businessId, id))) throw new NotFound();
    const now = Date.now();
    const throttled = (resetAt: number) => throttledUntil(resetAt, now);
    const endpoint = await pingCounter.hit(`webhook-test:${id}`, TEST_PING_WINDOW_MS);
    if (endpoint.hits > TEST_PINGS_PER_WINDOW) throw throttled(endpoint.resetAt);
    // the business's count: the pings its endpoints' limits let through, whatever endpoints they went to
    const business = await pingCounter.hit(`webhook-test-business:${auth.businessId}`, TEST_PING_WINDOW_MS);
    if (business.hits > TEST_PINGS_PER_BUSINESS_WINDOW) throw throttled(business.resetAt);
  }
  return inTransaction(db, async (trx) => {
    const row = await repo.findEndpointById(trx, auth.businessId, id);
    if (!row) throw new NotFound();
    const at = nowTimestamp();
    const event = await record(
      trx,
      auth.businessId,
      { type: 'webhook.test', changedFields: [], data: { id, url: row.url } },
      at,
    );
    await markPublished(trx, [event.id], at);
    const [deliveryId] = await insertDeliveries(trx, [
      {
        business_id: auth.businessId,
        webhook_id: id,
        event_id: event.id,
        status: 'pending',
        next_attempt_at: at,
        created: at,
      },
    ]);
    return toDelivery((await repo.findDeliveryById(trx, auth.businessId, id, deliveryId!))!);
  });
}

/**
 * `GET /v1/webhook/{webhook_id}/delivery`: the endpoint's deliveries, newest first; `status` keeps one
 * state.
 * @throws NotFound for a missing or other business's endpoint
 */
export async function listDeliveries(
  db: Db,
  auth: Auth,
  webhookId: number,
  query: WebhookDeliveryListQuery,
  cursor: CursorPosition | undefined,
): Promise<Page<WebhookDelivery>> {
  if (!(await repo.endpointExists(db, auth.businessId, webhookId))) throw new NotFound();
  const page = await repo.findDeliveryPage(db, auth.businessId, webhookId, query.status, pageSizeOf(query), cursor);
  return mapPage(page, toDelivery);
}

/**
 * `POST /v1/webhook/{webhook_id}/delivery/{delivery_id}/retry` (docs/webhooks.md#manual-redelivery): a delivery that
 * succeeded or failed becomes pending again, due now, its attempt count kept; a pending one becomes due
 * now, unless it is being sent at this moment.
 * @returns the delivery as it is after the change
 * @throws NotFound for a missing endpoint or delivery, or one of another endpoint or business
 */
export async function retryDelivery(
  db: Db,
  auth: Auth,
  webhookId: number,
  deliveryId: number,
): Promise<WebhookDelivery> {
  return inTransaction(db, async (trx) => {
    if (!(await repo.findDeliveryById(trx, auth.businessId, webhookId, deliveryId))) throw new NotFound();
    await repo.retryDelivery(trx, auth.businessId, webhookId, deliveryId, nowTimestamp());
    return toDelivery((await repo.findDeliveryById(trx, auth.businessId, webhookId, deliveryId))!);
  });
}

/**
 * Recoveries (`recover`, `replay`) one endpoint may be sent per {@link TEST_PING_WINDOW_MS}, each operation
 * counted apart, as test pings are (docs/webhooks.md#recovery-limits).
 */
export const RECOVERIES_PER_WINDOW = 5;

/**
 * 400 `{"nonField": ["The webhook endpoint is disabled (isActive: false). Enable it first."], "code":
 * "webhook_inactive"}`: a recovery of an inactive endpoint, whose deliveries would only end `failed`
 * (docs/webhooks.md#recover).
 */
export class WebhookInactive extends ValidationError {
  constructor() {
    super({ nonField: ['The webhook endpoint is disabled (isActive: false). Enable it first.'] });
  }

  override toBody(): Record<string, unknown> {
    return { ...super.toBody(), code: 'webhook_inactive' };
  }
}

/**
 * The checks every recovery makes before it writes, in this order (docs/webhooks.md#recovery-limits): the
 * endpoint is the business's (404), active (400 `webhook_inactive`), passes `check` (the request's own
 * rules against the endpoint), and is within its limit of {@link RECOVERIES_PER_WINDOW} calls of `operation`
 * a minute (429 with `Retry-After`; counted only for a request that passed every other check, so a refused
 * one costs nothing and writes nothing else).
 * @returns the endpoint row
 */
async function admitRecovery(
  db: Db,
  auth: Auth,
  id: number,
  operation: 'recover' | 'replay',
  counter: PingCounter | undefined,
  check: (row: WebhookEndpointRow) => void = () => undefined,
): Promise<WebhookEndpointRow> {
  const row = await repo.findEndpointById(db, auth.businessId, id);
  if (!row) throw new NotFound();
  if (row.is_active !== 1) throw new WebhookInactive();
  check(row);
  if (counter) {
    const now = Date.now();
    const hit = await counter.hit(`webhook-${operation}:${id}`, TEST_PING_WINDOW_MS);
    if (hit.hits > RECOVERIES_PER_WINDOW) {
      throw throttledUntil(hit.resetAt, now);
    }
  }
  return row;
}

/**
 * `POST /v1/webhook/{webhook_id}/recover` (docs/webhooks.md#recover; extension): every delivery to this
 * endpoint created at or after `since` that failed — ended `failed` after its retries, or `pending` after a
 * failed attempt, waiting for its next retry — is queued again, due now, its attempt count kept (as a
 * manual redelivery). The dispatchers send them like any delivery: within the per-endpoint and per-business
 * caps, a sick endpoint one at a time (docs/webhooks.md#fairness-and-limits). Events owed to a parked
 * endpoint are not deliveries yet: they follow its resumption. One `UPDATE`; no event is written.
 * @returns `{count, since}`: the deliveries queued again and `since` in UTC
 * @throws NotFound for a missing or other business's endpoint; ValidationError (400) on `since` in the
 *   future or older than the deliveries' retention (30 days), WebhookInactive (400) for a disabled endpoint;
 *   Throttled (429) beyond {@link RECOVERIES_PER_WINDOW} a minute
 */
export async function recover(
  db: Db,
  auth: Auth,
  id: number,
  body: WebhookRecoverBody,
  counter?: PingCounter,
): Promise<WebhookRecovered> {
  const since = new Date(body.since);
  const now = Date.now();
  if (since.getTime() > now) throw ValidationError.at(['since'], 'Ensure this value is not in the future.');
  if (since.getTime() < now - DELIVERY_RETENTION_DAYS * 86_400_000) {
    throw ValidationError.at(
      ['since'],
      `Ensure this value is within the last ${DELIVERY_RETENTION_DAYS} days: deliveries are kept ${DELIVERY_RETENTION_DAYS} days.`,
    );
  }
  await admitRecovery(db, auth, id, 'recover', counter);
  const count = await inTransaction(db, async (trx) => {
    const row = await repo.findEndpointById(trx, auth.businessId, id, true);
    if (!row) throw new NotFound();
    return repo.recoverDeliveries(trx, auth.businessId, id, since.toISOString(), nowTimestamp());
  });
  return { count, since: since.toISOString() };
}

/** Whether `endpoint` receives events of `type` at all (its `eventTypes`, its format: a `pluuug` endpoint only `inquiry.updated`). */
function receivesType(endpoint: Pick<WebhookEndpointRow, 'event_types' | 'format'>, type: string): boolean {
  return endpointWants(endpoint, { type, changedFields: [...PLUUUG_FIELDS] });
}

/**
 * The exact event types a query may filter on for the type lists `lists` (each `["*"]` or types), all of
 * which an event must match: the types of the lists without `*`, intersected; undefined when every list is
 * `["*"]` (every type).
 */
function exactTypes(lists: readonly (readonly string[])[]): string[] | undefined {
  let types: Set<string> | undefined;
  for (const list of lists) {
    if (list.some((t) => t.includes(ALL_EVENT_TYPES))) continue;
    types = types === undefined ? new Set(list) : new Set(list.filter((t) => types!.has(t)));
  }
  return types === undefined ? undefined : [...types];
}

/**
 * `POST /v1/webhook/{webhook_id}/replay` (docs/webhooks.md#replay; extension): sends the endpoint again every
 * event of its business with a `sequence` above `after_sequence` that it would have received — its
 * `eventTypes` (or `*`) and format ({@link endpointWants}), narrowed by `types` — and never one committed
 * before the endpoint was created (`after_event_id`) nor a test ping. At most `limit` (default and maximum
 * {@link REPLAY_MAX_EVENTS}) events are read per call, oldest first; beyond, the answer's
 * `next_after_sequence` is where the next call goes on. Each event is one delivery, due now: a new one, or the
 * endpoint's delivery of that event queued again (one delivery per event and endpoint; its attempt count
 * kept), in one transaction; the dispatchers send them within the caps (docs/webhooks.md#fairness-and-limits).
 * The body is the event as recorded, with its id (the `webhook-id`) and `sequence`. No event is written.
 * @returns `{count, next_after_sequence}`
 * @throws NotFound for a missing or other business's endpoint; ValidationError (400) on `types` (`*` not
 *   alone, a type the endpoint does not receive), WebhookInactive (400) for a disabled endpoint; Throttled
 *   (429) beyond {@link RECOVERIES_PER_WINDOW} a minute
 */
export async function replay(
  db: Db,
  auth: Auth,
  id: number,
  body: WebhookReplayBody,
  counter?: PingCounter,
): Promise<WebhookReplayed> {
  const types = body.types === undefined ? undefined : [...new Set(body.types)];
  if (types?.includes(ALL_EVENT_TYPES) && types.length > 1) {
    throw ValidationError.at(['types'], `"${ALL_EVENT_TYPES}" stands for every event type and must be alone.`);
  }
  const endpoint = await admitRecovery(db, auth, id, 'replay', counter, (row) => {
    const foreign = (types ?? []).filter((t) => t !== ALL_EVENT_TYPES && !receivesType(row, t));
    if (foreign.length === 0) return;
    const format = row.format === 'pluuug' ? ' (format pluuug: inquiry.updated only)' : '';
    throw ValidationError.at(
      ['types'],
      `The endpoint does not receive ${foreign.map((t) => `"${t}"`).join(', ')}: its eventTypes are ${row.event_types}${format}.`,
    );
  });
  const limit = body.limit ?? REPLAY_MAX_EVENTS;
  const endpointTypes = JSON.parse(endpoint.event_types) as string[];
  const events = await listSequencedAfter(db, auth.businessId, {
    afterSequence: body.after_sequence,
    afterId: Number(endpoint.after_event_id),
    types: exactTypes(types === undefined ? [endpointTypes] : [endpointTypes, types]),
    limit: limit + 1,
  });
  const read = events.slice(0, limit);
  const narrowed = { event_types: JSON.stringify(types ?? [ALL_EVENT_TYPES]), format: endpoint.format };
  const wanted = read.filter((e) => endpointWants(endpoint, e) && endpointWants(narrowed, e));
  const count = await inTransaction(db, async (trx) => {
    // the endpoint again, locked: deleted or disabled meanwhile, nothing is written
    const row = await repo.findEndpointById(trx, auth.businessId, id, true);
    if (!row) throw new NotFound();
    if (row.is_active !== 1) throw new WebhookInactive();
    if (wanted.length === 0) return 0;
    const at = nowTimestamp();
    const rows = wanted.map((e) => ({
      business_id: auth.businessId,
      webhook_id: id,
      event_id: e.id,
      status: 'pending',
      next_attempt_at: at,
      created: at,
    }));
    for (let i = 0; i < rows.length; i += 500) await insertDeliveries(trx, rows.slice(i, i + 500));
    await repo.requeueDeliveriesOf(
      trx,
      auth.businessId,
      id,
      wanted.map((e) => e.id),
      at,
    );
    return wanted.length;
  });
  return { count, next_after_sequence: events.length > limit ? read.at(-1)!.sequence : null };
}
