/**
 * The delivery channels of notifications besides in-app (README.md#notifications):
 *
 * - e-mail over SMTP with nodemailer (`SMTP_URL`); without it, every message is written as one `.eml` file
 *   under `<data directory>/mail/` (nodemailer's stream transport builds the message);
 * - push: an HTTP POST of a JSON message to `PUSH_WEBHOOK_URL` (off when unset), with a timeout, through the one
 *   HTTP client of src/shared/http-client.ts (the operator's own URL: any address, no redirects followed).
 *
 * Both are keyed by the outbox row: the e-mail's `Message-ID` and the `.eml` file name, and the push's
 * `Idempotency-Key` header, derive from the outbox id, so a receiver can drop a repeated delivery
 * (delivery is at-least-once).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import { post } from '../../shared/http-client.ts';
import type { NotificationEventType } from './notification.service.ts';

/** One notification to deliver to one member. */
export interface OutgoingMessage {
  /** The outbox row: the deduplication key of every channel. */
  outboxId: number;
  businessId: number;
  type: NotificationEventType;
  inquiryId: number;
  recipient: { id: number; nickname: string | null; email: string };
  title: string;
  content: string;
  /** When the event happened (RFC 3339 UTC). */
  created: string;
}

/** A channel: `send` resolves once the message is accepted, and rejects with the reason otherwise. */
export interface Channel {
  /** `email` or `push`, for logs and errors. */
  readonly name: string;
  send(message: OutgoingMessage): Promise<void>;
  close(): void;
}

/** Settings of {@link createMailChannel}. */
export interface MailSettings {
  /** `smtp://` or `smtps://` URL; `undefined` writes `.eml` files instead. */
  smtpUrl: string | undefined;
  /** The `From` of every message. */
  mailFrom: string;
  /** Base directory of the `.eml` files (`<dataDir>/mail/`). */
  dataDir: string;
  /** Connection, greeting and socket timeout of SMTP, in milliseconds. */
  timeoutMs: number;
}

/** The domain of the `Message-ID`s: the sender's domain, else `bizapi.invalid`. */
function messageIdDomain(mailFrom: string): string {
  const m = /@([A-Za-z0-9.-]+)>?\s*$/.exec(mailFrom);
  return m?.[1] ?? 'bizapi.invalid';
}

/** The `.eml` file of a message: `<event time, compact UTC>-<outbox id>.eml`, the same on every retry. */
export function emlFileName(message: Pick<OutgoingMessage, 'outboxId' | 'created'>): string {
  const stamp = message.created.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${String(message.outboxId).padStart(8, '0')}.eml`;
}

/**
 * The e-mail channel: SMTP when `smtpUrl` is set, else `.eml` files under `<dataDir>/mail/` (created on
 * first use; a retry of the same outbox row rewrites the same file).
 */
export function createMailChannel(settings: MailSettings): Channel {
  const domain = messageIdDomain(settings.mailFrom);
  const envelope = (m: OutgoingMessage) => ({
    from: settings.mailFrom,
    to: { name: m.recipient.nickname ?? '', address: m.recipient.email },
    subject: m.title,
    text: `${m.content}\n`,
    messageId: `<notification-${m.outboxId}.${m.businessId}@${domain}>`,
    date: new Date(m.created),
    headers: { 'X-Bizapi-Event': m.type, 'X-Bizapi-Notification-Id': String(m.outboxId) },
  });

  // nodemailer (about 10 MiB resident) is loaded on the first e-mail, not by every API process at start.
  let transport: Promise<Transporter> | undefined;
  const close = () =>
    void transport?.then(
      (t) => t.close(),
      () => undefined,
    );

  if (settings.smtpUrl !== undefined) {
    const smtp = () =>
      (transport ??= import('nodemailer').then((m) =>
        m.default.createTransport({
          url: settings.smtpUrl,
          connectionTimeout: settings.timeoutMs,
          greetingTimeout: settings.timeoutMs,
          socketTimeout: settings.timeoutMs,
          dnsTimeout: settings.timeoutMs,
        }),
      ));
    return {
      name: 'email',
      async send(m) {
        await (await smtp()).sendMail(envelope(m));
      },
      close,
    };
  }

  const dir = path.join(settings.dataDir, 'mail');
  const stream = () =>
    (transport ??= import('nodemailer').then((m) =>
      m.default.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
    ));
  return {
    name: 'email',
    async send(m) {
      const info = await (await stream()).sendMail(envelope(m));
      await fs.mkdir(dir, { recursive: true, mode: 0o700 });
      const file = path.join(dir, emlFileName(m));
      const tmp = `${file}.${process.pid}.tmp`;
      await fs.writeFile(tmp, info.message as Buffer, { mode: 0o600 });
      await fs.rename(tmp, file);
    },
    close,
  };
}

/** Settings of {@link createPushChannel}. */
export interface PushSettings {
  /** `http(s)://` URL that receives the POSTs. */
  url: string;
  /** Whole-request timeout, in milliseconds. */
  timeoutMs: number;
}

/**
 * The JSON body of a push: `{id, type, title, content, business: {id}, member: {id, nickname, email},
 * inquiry: {id}, created}`; `id` is the outbox id (also sent as `Idempotency-Key`).
 */
export function pushBody(m: OutgoingMessage) {
  return {
    id: m.outboxId,
    type: m.type,
    title: m.title,
    content: m.content,
    business: { id: m.businessId },
    member: { id: m.recipient.id, nickname: m.recipient.nickname, email: m.recipient.email },
    inquiry: { id: m.inquiryId },
    created: m.created,
  };
}

/**
 * The push channel: `POST <url>` with the JSON of {@link pushBody}. Any 2xx answer is a delivery; another
 * status (`push webhook answered HTTP 503`; a 3xx is not followed), a network error or the timeout is a
 * failure (retried by the dispatcher). The URL is the operator's (`PUSH_WEBHOOK_URL`), so any address is
 * allowed, a private network's included.
 */
export function createPushChannel(settings: PushSettings): Channel {
  return {
    name: 'push',
    async send(m) {
      const headers = {
        'content-type': 'application/json',
        'idempotency-key': `notification-${m.outboxId}`,
        'user-agent': 'bizapi-notifications',
      };
      const res = await post(settings.url, JSON.stringify(pushBody(m)), headers, {
        allowPrivate: true,
        timeoutMs: settings.timeoutMs,
      });
      if (res.statusCode !== null && res.error !== null)
        throw new Error(`push webhook answered HTTP ${res.statusCode}`);
      if (res.error !== null) throw new Error(res.error);
    },
    close: () => undefined,
  };
}
