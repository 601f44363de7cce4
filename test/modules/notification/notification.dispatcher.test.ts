/**
 * The outbox dispatcher (decisions §8) on the dialect under test: e-mail to a real SMTP server, the `.eml`
 * fallback, push to a local webhook, in-app rows; retries with back-off after an SMTP refusal, giving up
 * after the last attempt, channels never repeated; leases (a second dispatcher never delivers an event
 * twice); rollback; recipients re-checked at delivery; `start` / `stop`; slots (a hanging delivery holds one
 * slot, the others keep delivering).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/create-db.ts';
import { leaseMs, retryDelayMs } from '../../../src/jobs/outbox-dispatcher.ts';
import * as repo from '../../../src/modules/notification/notification.repository.ts';
import {
  enqueueEvent,
  type NotificationEvent,
  outboxBacklog,
} from '../../../src/modules/notification/notification.service.ts';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { DIALECT } from '../../setup/test-db.ts';
import {
  drain,
  startSmtp,
  startWebhook,
  testClock,
  testDispatcher,
  type TestSmtp,
  type TestWebhook,
  until,
} from './notification-helpers.ts';
import { apiClient } from '../../setup/api-client.ts';

let t: TestApp;
const { call } = apiClient(() => t.app);
let smtp: TestSmtp;
let webhook: TestWebhook;
let dataDir: string;
beforeAll(async () => {
  t = await buildTestApp();
  smtp = await startSmtp();
  webhook = await startWebhook();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-notify-'));
});
afterAll(async () => {
  await smtp.close();
  await webhook.close();
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
afterEach(() => {
  smtp.refusing = false;
  smtp.hold = undefined;
  webhook.status = 204;
  webhook.hold = undefined;
});

/** Writes one event in its own transaction, as a producer does. */
async function enqueue(
  b: TestBusiness,
  event: Partial<NotificationEvent> & { memberIds: number[] },
): Promise<number[]> {
  return t.testDb.db
    .transaction()
    .execute((trx) => enqueueEvent(trx, b.businessId, { type: 'inquiry.created', inquiryId: 7, ...event }));
}

/** The messages of the SMTP server addressed to one of `emails`. */
function mailTo(...emails: string[]) {
  return smtp.messages.filter((m) => m.to.some((to) => emails.includes(to)));
}

/** Catalog members with unique e-mail addresses, so that a test can find its own messages. */
async function businessWithUniqueEmails(): Promise<
  TestBusiness & { emails: Record<'kim' | 'lee' | 'park' | 'choi', string> }
> {
  const tag = Math.random().toString(36).slice(2, 10);
  const emails = {
    kim: `kim-${tag}@example.com`,
    lee: `lee-${tag}@example.com`,
    park: `park-${tag}@example.com`,
    choi: `choi-${tag}@example.com`,
  };
  const b = await newBusiness(t, {
    catalog: {
      grades: [{ key: 'staff', title: 'Staff' }],
      members: [
        { key: 'kim', nickname: 'Kim', email: emails.kim, isActive: true, grade: 'staff', notificationsEnabled: true },
        { key: 'lee', nickname: 'Lee', email: emails.lee, isActive: true, grade: 'staff', notificationsEnabled: false },
        {
          key: 'park',
          nickname: 'Park',
          email: emails.park,
          isActive: false,
          grade: 'staff',
          notificationsEnabled: true,
        },
        { key: 'choi', nickname: null, email: emails.choi, isActive: true, grade: 'staff', notificationsEnabled: true },
      ],
      folders: [
        {
          key: 'sales',
          name: 'Sales',
          isDefault: true,
          statuses: [
            { key: 'new', title: 'New', isDefault: true },
            { key: 'won', title: 'Won' },
          ],
        },
      ],
    },
  });
  return { ...b, emails };
}

describe(`outbox dispatcher on ${DIALECT}`, () => {
  it('e-mails only active members with notifications on, over SMTP, and stores their in-app notifications', async () => {
    const b = await businessWithUniqueEmails();
    const { kim, lee, park, choi } = b.ids.members;
    await enqueue(b, {
      type: 'inquiry.status_changed',
      inquiryId: 12,
      memberIds: [kim!, lee!, park!, choi!],
      statusId: b.ids.statuses.won,
    });
    const d = testDispatcher(t, [b.businessId], {
      SMTP_URL: smtp.url,
      BIZAPI_MAIL_FROM: 'Acme CRM <crm@acme.example>',
    });
    expect(await drain(d)).toBe(2);
    await d.stop();

    const mails = mailTo(...Object.values(b.emails));
    expect(mails.map((m) => m.to).sort()).toEqual([[b.emails.choi], [b.emails.kim]]);
    for (const m of mails) {
      expect(m.from).toBe('crm@acme.example');
      expect(m.header('subject')).toBe('Inquiry status changed: #12');
      expect(m.raw).toContain('Inquiry #12 is now "Won".');
      expect(m.header('x-bizapi-event')).toBe('inquiry.status_changed');
      expect(m.header('message-id')).toMatch(/^<notification-\d+\.\d+@acme\.example>$/);
    }
    const rows = await repo.findOutboxByBusiness(t.testDb.db, b.businessId);
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      expect(r.delivered_at).not.toBeNull();
      expect(r.in_app_at).not.toBeNull();
      expect(r.email_at).not.toBeNull();
      expect(r.push_at).not.toBeNull(); // push is off: done at once
      expect(r.attempts).toBe(1);
      expect(r.lease_owner).toBeNull();
    }

    const list = await call(b, { method: 'GET', url: `/v1/notification?member_id=${kim}` });
    expect(list.status).toBe(200);
    expect(list.body.results).toEqual([
      {
        id: expect.any(Number),
        type: 'inquiry.status_changed',
        title: 'Inquiry status changed: #12',
        content: 'Inquiry #12 is now "Won".',
        inquiry: { id: 12 },
        member: {
          id: kim,
          nickname: 'Kim',
          email: b.emails.kim,
          isActive: true,
          grade: { id: b.ids.grades.staff, title: 'Staff' },
        },
        created: rows[0]!.created,
      },
    ]);
    const none = await call(b, { method: 'GET', url: `/v1/notification?member_id=${lee}` });
    expect(none.body.results).toEqual([]);
  });

  it('writes one .eml file per message under <data directory>/mail when SMTP_URL is unset', async () => {
    const b = await businessWithUniqueEmails();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-eml-'));
    try {
      const [id] = await enqueue(b, { type: 'inquiry.in_charge_added', inquiryId: 3, memberIds: [b.ids.members.kim!] });
      await enqueue(b, { type: 'inquiry.text_history_created', inquiryId: 3, memberIds: [b.ids.members.choi!] });
      const d = testDispatcher(t, [b.businessId], { BIZAPI_DATA_DIR: dir });
      expect(await drain(d)).toBe(2);
      await d.stop();
      const files = fs.readdirSync(path.join(dir, 'mail')).sort();
      expect(files).toHaveLength(2);
      for (const f of files) expect(f).toMatch(/^\d{8}T\d{6}Z-\d{8}\.eml$/);
      const first = fs.readFileSync(
        path.join(
          dir,
          'mail',
          files.find((f) => f.endsWith(`-${String(id).padStart(8, '0')}.eml`))!,
        ),
        'utf8',
      );
      expect(first).toMatch(/^To: Kim <kim-[a-z0-9]+@example\.com>$/m);
      expect(first).toMatch(/^Subject: You were assigned to an inquiry: #3$/m);
      expect(first).toContain('You are now responsible for inquiry #3.');
      const all = files.map((f) => fs.readFileSync(path.join(dir, 'mail', f), 'utf8')).join('\n');
      expect(all).toMatch(/^Subject: New note on inquiry: #3$/m);
      expect(all).toContain(`To: ${b.emails.choi}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('POSTs a JSON message per recipient to PUSH_WEBHOOK_URL', async () => {
    const b = await businessWithUniqueEmails();
    const [id] = await enqueue(b, {
      type: 'inquiry.created',
      inquiryId: 99,
      memberIds: [b.ids.members.kim!, b.ids.members.lee!],
    });
    const d = testDispatcher(t, [b.businessId], { SMTP_URL: smtp.url, PUSH_WEBHOOK_URL: webhook.url });
    await drain(d);
    await d.stop();
    const pushes = webhook.requests.filter((r) => r.body?.business?.id === b.businessId);
    expect(pushes).toHaveLength(1);
    const [push] = pushes;
    expect(push!.headers['content-type']).toBe('application/json');
    expect(push!.headers['idempotency-key']).toBe(`notification-${id}`);
    expect(push!.body).toEqual({
      id,
      type: 'inquiry.created',
      title: 'New inquiry assigned to you: #99',
      content: 'You are responsible for the new inquiry #99.',
      business: { id: b.businessId },
      member: { id: b.ids.members.kim, nickname: 'Kim', email: b.emails.kim },
      inquiry: { id: 99 },
      created: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
  });

  it('retries after the SMTP server refused, with back-off, and delivers once it recovers; done channels are not repeated', async () => {
    const b = await businessWithUniqueEmails();
    await enqueue(b, { memberIds: [b.ids.members.kim!] });
    const clock = testClock();
    const d = testDispatcher(
      t,
      [b.businessId],
      {
        SMTP_URL: smtp.url,
        PUSH_WEBHOOK_URL: webhook.url,
        BIZAPI_DISPATCHER_RETRY_BASE_MS: '60000',
        BIZAPI_DISPATCHER_RETRY_MAX_MS: '100000',
      },
      { now: clock.now },
    );
    smtp.refusing = true;
    expect(await d.runOnce()).toMatchObject({ claimed: 1, retried: 1, delivered: 0 });
    let [row] = await repo.findOutboxByBusiness(t.testDb.db, b.businessId);
    expect(row).toMatchObject({ attempts: 1, delivered_at: null, failed_at: null, email_at: null, lease_owner: null });
    expect(row!.in_app_at).not.toBeNull();
    expect(row!.push_at).not.toBeNull();
    expect(row!.last_error).toMatch(/^email: /);
    expect(row!.next_attempt_at).toBe(new Date(clock.now() + 60_000).toISOString());

    // not due yet: nothing happens, even though the server is back
    smtp.refusing = false;
    expect((await d.runOnce()).claimed).toBe(0);
    clock.advance(60_000);
    expect(await d.runOnce()).toMatchObject({ claimed: 1, delivered: 1 });
    await d.stop();

    expect(mailTo(b.emails.kim)).toHaveLength(1);
    [row] = await repo.findOutboxByBusiness(t.testDb.db, b.businessId);
    expect(row).toMatchObject({ attempts: 2, failed_at: null, last_error: null });
    expect(row!.delivered_at).not.toBeNull();
    expect(webhook.requests.filter((r) => r.body?.business?.id === b.businessId)).toHaveLength(1);
    const list = await call(b, { method: 'GET', url: '/v1/notification' });
    expect(list.body.results).toHaveLength(1);
  });

  it('doubles the delay after each failure up to the maximum, and gives up after the last attempt', async () => {
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(n, 1000, 10_000))).toEqual([1000, 2000, 4000, 8000, 10_000]);
    const b = await businessWithUniqueEmails();
    await enqueue(b, { memberIds: [b.ids.members.kim!] });
    const clock = testClock();
    webhook.status = 503;
    const d = testDispatcher(
      t,
      [b.businessId],
      {
        SMTP_URL: smtp.url,
        PUSH_WEBHOOK_URL: webhook.url,
        BIZAPI_DISPATCHER_RETRY_BASE_MS: '1000',
        BIZAPI_DISPATCHER_RETRY_MAX_MS: '3000',
        BIZAPI_DISPATCHER_MAX_ATTEMPTS: '4',
      },
      { now: clock.now },
    );
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      const before = clock.now();
      const r = await d.runOnce();
      expect(r.claimed).toBe(1);
      const [row] = await repo.findOutboxByBusiness(t.testDb.db, b.businessId);
      if (attempt < 4) {
        expect(r.retried).toBe(1);
        delays.push(Date.parse(row!.next_attempt_at) - before);
        clock.advance(delays[delays.length - 1]!);
      } else {
        expect(r.failed).toBe(1);
        expect(row!.failed_at).not.toBeNull();
        expect(row!.last_error).toBe('push: push webhook answered HTTP 503');
      }
    }
    expect(delays).toEqual([1000, 2000, 3000]);
    clock.advance(10_000_000);
    expect((await d.runOnce()).claimed).toBe(0);
    await d.stop();
    // e-mail and in-app were delivered on the first attempt and never repeated
    expect(mailTo(b.emails.kim)).toHaveLength(1);
    expect(webhook.requests.filter((r) => r.body?.business?.id === b.businessId)).toHaveLength(4);
  });

  it('sends nothing for a change that rolled back', async () => {
    const b = await businessWithUniqueEmails();
    await expect(
      t.testDb.db.transaction().execute(async (trx) => {
        await enqueueEvent(trx, b.businessId, {
          type: 'inquiry.created',
          inquiryId: 1,
          memberIds: [b.ids.members.kim!],
        });
        // a later write of the same change fails: the whole transaction rolls back
        await trx
          .insertInto('member')
          .values({
            business_id: b.businessId,
            email: 'x@example.com',
            grade_id: 987654321,
            is_active: 1,
            notifications_enabled: 1,
            created: new Date().toISOString(),
            nickname: null,
          })
          .execute();
      }),
    ).rejects.toThrow();
    const d = testDispatcher(t, [b.businessId], { SMTP_URL: smtp.url, PUSH_WEBHOOK_URL: webhook.url });
    expect(await drain(d)).toBe(0);
    await d.stop();
    expect(mailTo(...Object.values(b.emails))).toEqual([]);
    expect((await call(b, { method: 'GET', url: '/v1/notification' })).body.results).toEqual([]);
  });

  it('re-checks the recipient at delivery: a member deactivated or opted out since the event gets nothing', async () => {
    const b = await businessWithUniqueEmails();
    await enqueue(b, { memberIds: [b.ids.members.kim!, b.ids.members.choi!] });
    await t.testDb.db.updateTable('member').set({ is_active: 0 }).where('id', '=', b.ids.members.kim!).execute();
    await t.testDb.db
      .updateTable('member')
      .set({ notifications_enabled: 0 })
      .where('id', '=', b.ids.members.choi!)
      .execute();
    const d = testDispatcher(t, [b.businessId], { SMTP_URL: smtp.url });
    expect(await d.runOnce()).toMatchObject({ claimed: 2, delivered: 2 });
    await d.stop();
    expect(mailTo(...Object.values(b.emails))).toEqual([]);
    expect((await call(b, { method: 'GET', url: '/v1/notification' })).body.results).toEqual([]);
  });

  it('never lets a second dispatcher deliver an event twice', async () => {
    const b = await businessWithUniqueEmails();
    const ids: number[] = [];
    for (let i = 0; i < 12; i++)
      ids.push(...(await enqueue(b, { inquiryId: 100 + i, memberIds: [b.ids.members.kim!, b.ids.members.choi!] })));
    expect(ids).toHaveLength(24);
    // a second process: its own connection (pool) to the same database
    const otherDb = createDb(t.testDb.config);
    try {
      const env = { SMTP_URL: smtp.url, PUSH_WEBHOOK_URL: webhook.url };
      const a = testDispatcher(t, [b.businessId], env, { batchSize: 5 });
      const c = testDispatcher(t, [b.businessId], env, { batchSize: 5, db: otherDb });
      const results = await Promise.all([drain(a), drain(c), drain(a), drain(c)]);
      await Promise.all([a.stop(), c.stop()]);
      expect(results.reduce((x, y) => x + y, 0)).toBe(24);
    } finally {
      await otherDb.destroy();
    }
    const mails = mailTo(b.emails.kim, b.emails.choi);
    const messageIds = mails.map((m) => m.header('message-id'));
    expect(messageIds).toHaveLength(24);
    expect(new Set(messageIds).size).toBe(24);
    const pushes = webhook.requests
      .filter((r) => r.body?.business?.id === b.businessId)
      .map((r) => r.body.id as number);
    expect(pushes.sort((x, y) => x - y)).toEqual([...ids].sort((x, y) => x - y));
    const inApp = await t.testDb.db
      .selectFrom('notification')
      .select('outbox_id')
      .where('business_id', '=', b.businessId)
      .execute();
    expect(inApp.map((r) => r.outbox_id).sort((x, y) => x - y)).toEqual([...ids].sort((x, y) => x - y));
  });

  it('leaves a claimed row to its owner until the lease expires, then another dispatcher takes it over', async () => {
    const b = await businessWithUniqueEmails();
    await enqueue(b, { memberIds: [b.ids.members.kim!] });
    const clock = testClock();
    // a dispatcher claimed the row and crashed before delivering it
    const claimed = await repo.claimDue(t.testDb.db, {
      owner: 'crashed',
      now: new Date(clock.now()).toISOString(),
      leaseUntil: new Date(clock.now() + leaseMs(10_000)).toISOString(),
      limit: 10,
      businessIds: [b.businessId],
    });
    expect(claimed).toHaveLength(1);
    const d = testDispatcher(t, [b.businessId], { SMTP_URL: smtp.url }, { now: clock.now });
    expect((await d.runOnce()).claimed).toBe(0);
    clock.advance(leaseMs(10_000) + 1);
    expect(await d.runOnce()).toMatchObject({ claimed: 1, delivered: 1 });
    await d.stop();
    expect(mailTo(b.emails.kim)).toHaveLength(1);
    // the crashed dispatcher's late writes are refused: it no longer holds the lease
    expect(await repo.markDelivered(t.testDb.db, claimed[0]!.id, 'crashed', new Date().toISOString())).toBe(false);
  });

  it('keeps the API responsive while an SMTP delivery hangs', async () => {
    const b = await businessWithUniqueEmails();
    await enqueue(b, { memberIds: [b.ids.members.kim!] });
    let release!: () => void;
    smtp.hold = new Promise<void>((resolve) => (release = resolve));
    const d = testDispatcher(t, [b.businessId], { SMTP_URL: smtp.url });
    const dataArrived = smtp.nextData();
    const delivering = d.runOnce();
    await dataArrived;
    // the SMTP server holds the message; the API answers meanwhile, reads and writes alike
    const list = await call(b, { method: 'GET', url: '/v1/notification' });
    expect(list.status).toBe(200);
    const created = await call(b, { method: 'POST', url: '/v1/client', body: { companyName: 'Busy Inc.' } });
    expect(created.status).toBe(201);
    release();
    expect(await delivering).toMatchObject({ claimed: 1, delivered: 1 });
    await d.stop();
    expect(mailTo(b.emails.kim)).toHaveLength(1);
  });

  it('a poll claims no more rows than the dispatcher has slots', async () => {
    const b = await businessWithUniqueEmails();
    await enqueue(b, { memberIds: [b.ids.members.kim!] });
    await enqueue(b, { memberIds: [b.ids.members.kim!] });
    await enqueue(b, { memberIds: [b.ids.members.choi!] });
    const d = testDispatcher(t, [b.businessId], { SMTP_URL: smtp.url }, { concurrency: 2 });
    expect(await d.runOnce()).toMatchObject({ claimed: 2, delivered: 2 });
    expect(await d.runOnce()).toMatchObject({ claimed: 1, delivered: 1 });
    await d.stop();
  });

  it('a hanging delivery holds one slot: the started dispatcher keeps delivering new rows in the others, and stop() waits for it', async () => {
    const b = await businessWithUniqueEmails();
    const [stuck] = await enqueue(b, { inquiryId: 1, memberIds: [b.ids.members.kim!] });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    webhook.hold = (body) => (body?.id === stuck ? released : undefined);
    const d = testDispatcher(
      t,
      [b.businessId],
      // the push would hang far longer than this test may run
      {
        SMTP_URL: smtp.url,
        PUSH_WEBHOOK_URL: webhook.url,
        BIZAPI_DISPATCHER_POLL_MS: '10',
        BIZAPI_DISPATCHER_TIMEOUT_MS: '600000',
      },
      { concurrency: 2 },
    );
    const pushed = (id: number) => webhook.requests.some((r) => r.body?.id === id);
    const delivered = async (id: number) =>
      (await repo.findOutboxByBusiness(t.testDb.db, b.businessId)).find((r) => r.id === id)?.delivered_at != null;
    try {
      d.start();
      await until(() => pushed(stuck!));
      // rows written while the push of `stuck` hangs: each is claimed and delivered in the other slot
      const later: number[] = [];
      for (let i = 0; i < 4; i++) {
        const [id] = await enqueue(b, { inquiryId: 10 + i, memberIds: [b.ids.members[i % 2 === 0 ? 'kim' : 'choi']!] });
        later.push(id!);
        await until(() => delivered(id!));
      }
      expect(await delivered(stuck!)).toBe(false);
      // never more than its two slots at once
      expect(webhook.maxOpen).toBeLessThanOrEqual(2);
      expect(webhook.requests.filter((r) => r.body?.business?.id === b.businessId).map((r) => r.body.id)).toEqual([
        stuck,
        ...later,
      ]);
    } finally {
      const stopping = d.stop();
      release();
      await stopping;
    }
    // stop() drained: the held delivery ended delivered
    expect(await delivered(stuck!)).toBe(true);
    expect(mailTo(b.emails.kim, b.emails.choi)).toHaveLength(5);
  });

  it('start() polls in the background until stop(), which drains', async () => {
    const b = await businessWithUniqueEmails();
    const d = testDispatcher(t, [b.businessId], { SMTP_URL: smtp.url, BIZAPI_DISPATCHER_POLL_MS: '10' });
    d.start();
    d.start();
    await enqueue(b, { memberIds: [b.ids.members.kim!] });
    await until(async () => (await repo.findOutboxByBusiness(t.testDb.db, b.businessId))[0]?.delivered_at != null);
    await d.stop();
    await d.stop();
    await enqueue(b, { memberIds: [b.ids.members.choi!] });
    expect(await d.runOnce()).toMatchObject({ claimed: 0 });
    expect(mailTo(b.emails.kim)).toHaveLength(1);
    expect(mailTo(b.emails.choi)).toHaveLength(0);
    expect(await outboxBacklog(t.testDb.db)).toBeGreaterThanOrEqual(1);
  });
});
