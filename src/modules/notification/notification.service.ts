/**
 * Notifications (README.md#notifications, docs/api.md#inquiries, docs/api.md#extensions).
 *
 * Producers call {@link enqueueEvent} inside the transaction of the change; it writes one outbox row per
 * recipient, so the event exists exactly when the change committed. The dispatcher
 * (`src/jobs/outbox-dispatcher.ts`) delivers the rows after commit: in-app, e-mail, push.
 */
import type { Db } from '../../db/database.ts';
import { nowTimestamp } from '../../db/sql-helpers.ts';
import { type CursorPosition, mapPage, type Page, pageSizeOf } from '../../shared/pagination.ts';
import type { AuthContext } from '../../shared/auth-context.ts';
import { findMemberContact, findNotifiableMemberIds, type MemberContact } from '../catalog/catalog.service.ts';
import * as repo from './notification.repository.ts';
import type { Notification, NotificationListQuery } from './notification.schemas.ts';

/** The four events that notify (docs/api.md#extensions). */
export const NOTIFICATION_EVENT_TYPES = [
  'inquiry.created',
  'inquiry.status_changed',
  'inquiry.in_charge_added',
  'inquiry.text_history_created',
] as const;

/**
 * - `inquiry.created`: an inquiry was created with `inChargeSet` (to those members);
 * - `inquiry.status_changed`: its `status` changed (to its responsible members);
 * - `inquiry.in_charge_added`: `inChargeSet` gained members (to the new ones only);
 * - `inquiry.text_history_created`: a text-history note was created (to its responsible members).
 */
export type NotificationEventType = (typeof NOTIFICATION_EVENT_TYPES)[number];

/**
 * An event as producers hand it to {@link enqueueEvent}.
 *
 * `memberIds` are the intended recipients before filtering (duplicates allowed). The optional ids let the
 * messages name what happened (`statusId`: the new status; `textHistoryId`: the note); without them the
 * dispatcher describes the inquiry as it is at delivery time.
 */
export interface NotificationEvent {
  type: NotificationEventType;
  inquiryId: number;
  memberIds: number[];
  statusId?: number;
  previousStatusId?: number;
  textHistoryId?: number;
}

/** What an outbox row's `payload` column holds (JSON). */
export interface OutboxPayload {
  statusId?: number;
  previousStatusId?: number;
  textHistoryId?: number;
}

/**
 * Writes `event` to the outbox, in the caller's transaction `trx` (README.md#notifications: written with the
 * change; nothing is sent for a change that rolls back). Recipients are the members among `event.memberIds` that
 * belong to the business, are active and have notifications on; one outbox row per recipient, due at once. Writes
 * nothing when nobody remains.
 *
 * @param trx the transaction of the change (a plain database handle works, but then the event is not
 *   atomic with the change)
 * @returns the ids of the outbox rows written (empty when nobody is notified)
 * @throws Error for an unknown event type (a programming error)
 */
export async function enqueueEvent(trx: Db, businessId: number, event: NotificationEvent): Promise<number[]> {
  if (!(NOTIFICATION_EVENT_TYPES as readonly string[]).includes(event.type)) {
    throw new Error(`unknown notification event type ${JSON.stringify(event.type)}`);
  }
  const wanted = [...new Set(event.memberIds)].filter((id) => Number.isSafeInteger(id) && id > 0);
  const recipients = await findNotifiableMemberIds(trx, businessId, wanted);
  if (recipients.length === 0) return [];
  const payload: OutboxPayload = {};
  if (event.statusId !== undefined) payload.statusId = event.statusId;
  if (event.previousStatusId !== undefined) payload.previousStatusId = event.previousStatusId;
  if (event.textHistoryId !== undefined) payload.textHistoryId = event.textHistoryId;
  const now = nowTimestamp();
  return repo.insertOutbox(
    trx,
    businessId,
    recipients.map((memberId) => ({
      member_id: memberId,
      event_type: event.type,
      inquiry_id: event.inquiryId,
      payload: JSON.stringify(payload),
      created: now,
      next_attempt_at: now,
    })),
  );
}

/**
 * Outbox rows neither delivered nor given up, across all businesses: the backlog (for a metrics gauge).
 */
export async function outboxBacklog(db: Db): Promise<number> {
  return repo.countPending(db);
}

/** Maps a row to the API shape of an in-app notification (`inquiry: null` once the inquiry is deleted). */
export function toNotification(row: repo.InAppRow): Notification {
  return {
    id: row.id,
    type: row.event_type as NotificationEventType,
    title: row.title,
    content: row.content,
    inquiry: row.inquiry_id === null || row.deleted_inquiry_id !== null ? null : { id: row.inquiry_id },
    member: {
      id: row.member_id,
      nickname: row.member_nickname,
      email: row.member_email,
      isActive: row.member_is_active === 1,
      grade: { id: row.member_grade_id, title: row.member_grade_title },
    },
    created: row.created,
  };
}

/**
 * `GET /v1/notification` (docs/api.md#extensions): the business's in-app notifications, newest first;
 * `member_id` narrows to one member (another business's member id gives an empty page).
 */
export async function list(
  db: Db,
  auth: Pick<AuthContext, 'businessId'>,
  query: NotificationListQuery,
  cursor: CursorPosition | undefined,
): Promise<Page<Notification>> {
  const page = await repo.findInAppPage(db, auth.businessId, { memberId: query.member_id }, pageSizeOf(query), cursor);
  return mapPage(page, toNotification);
}

/**
 * The recipient of an outbox row as the dispatcher needs it: the member's contact and whether it still takes
 * notifications (`is_active`, `notifications_enabled`), or `undefined` when the business has no such member.
 */
export async function findRecipient(db: Db, businessId: number, memberId: number): Promise<MemberContact | undefined> {
  return findMemberContact(db, businessId, memberId);
}

// The dispatcher's queue and marks (src/jobs/outbox-dispatcher.ts): the outbox is this module's table.
export {
  claimDue,
  type ChannelColumn,
  insertInApp,
  markAttemptFailed,
  markChannelDone,
  markDelivered,
  releaseClaims,
} from './notification.repository.ts';
