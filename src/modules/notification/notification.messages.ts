/**
 * The text of a notification (README.md#notifications): one title (the e-mail subject, the in-app title, the push
 * title) and one content (the e-mail body, the in-app text, the push body) per outbox row, rendered at
 * delivery time from the event, its payload and what the database holds then.
 */
import type { Db } from '../../db/database.ts';
import { findInquiryStatusTitle } from '../catalog/catalog.service.ts';
import type { NotificationEventType, OutboxPayload } from './notification.service.ts';
import type { OutboxRow } from '../../db/tables/notification.table.ts';

/** A rendered notification. */
export interface RenderedMessage {
  title: string;
  content: string;
}

/** What the messages say about the inquiry, when it can be read. */
export interface InquiryDescription {
  /** `"Website renewal"`. */
  name: string;
  /** The business-visible inquiry number (`"7"`), or null when unknown. */
  uniqueId: string | null;
}

/** Parses an outbox row's payload; a damaged payload reads as empty. */
export function parsePayload(text: string): OutboxPayload {
  try {
    const v = JSON.parse(text) as unknown;
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as OutboxPayload) : {};
  } catch {
    return {};
  }
}

/**
 * What the messages read of the inquiry module (inquiry.service `findLabel`, given by the dispatcher from
 * src/services.ts): the name and unique id of inquiry `id` of the business, or `undefined` when the business
 * has no such inquiry (then the messages name it by id).
 */
export interface InquiryLabels {
  findLabel: (db: Db, businessId: number, id: number) => Promise<InquiryDescription | undefined>;
}

/** Renders the title and content of one outbox row for its recipient; `inquiries` describes its inquiry. */
export async function renderMessage(db: Db, row: OutboxRow, inquiries: InquiryLabels): Promise<RenderedMessage> {
  const payload = parsePayload(row.payload);
  const inquiry = await inquiries.findLabel(db, row.business_id, row.inquiry_id);
  const label = inquiry ? `"${inquiry.name}"` : `#${row.inquiry_id}`;
  const full = inquiry?.uniqueId ? `#${inquiry.uniqueId} ${label}` : label;
  const shortName = inquiry ? inquiry.name : `#${row.inquiry_id}`;
  switch (row.event_type as NotificationEventType) {
    case 'inquiry.created':
      return {
        title: `New inquiry assigned to you: ${shortName}`,
        content: `You are responsible for the new inquiry ${full}.`,
      };
    case 'inquiry.status_changed': {
      const status =
        payload.statusId === undefined
          ? undefined
          : await findInquiryStatusTitle(db, row.business_id, payload.statusId);
      return {
        title: `Inquiry status changed: ${shortName}`,
        content:
          status === undefined ? `The status of inquiry ${full} changed.` : `Inquiry ${full} is now "${status}".`,
      };
    }
    case 'inquiry.in_charge_added':
      return {
        title: `You were assigned to an inquiry: ${shortName}`,
        content: `You are now responsible for inquiry ${full}.`,
      };
    case 'inquiry.text_history_created':
      return { title: `New note on inquiry: ${shortName}`, content: `A note was added to inquiry ${full}.` };
    default:
      return { title: `Inquiry update: ${shortName}`, content: `Inquiry ${full} changed.` };
  }
}
