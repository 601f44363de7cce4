/**
 * Notifications end to end (spec: Events; decisions §8; issue 3 item 5): changes made through HTTP —
 * inquiry create with `inChargeSet`, a status change, members added to `inChargeSet`, a text note — reach a
 * real SMTP server (`smtp-server`) addressed to the right members only (active, notifications on); an SMTP
 * server that refuses and then recovers gets the message on a retry; a change that rolls back inside its
 * transaction sends nothing; a hanging or refusing SMTP server never slows or fails the API call.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as repo from '../../../src/modules/notification/notification.repository.ts';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import type { SignedRequest } from '../../setup/signed-request.ts';
import { apiClient } from '../../setup/api-client.ts';
import { presign, put } from '../file/file-helpers.ts';
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

let t: TestApp;
let smtp: TestSmtp;
let webhook: TestWebhook;
beforeAll(async () => {
  t = await buildTestApp();
  smtp = await startSmtp();
  webhook = await startWebhook();
});
afterAll(async () => {
  await smtp.close();
  await webhook.close();
  await t.close();
});
afterEach(() => {
  smtp.refusing = false;
  smtp.hold = undefined;
});

type Key = 'kim' | 'lee' | 'park' | 'choi';

/**
 * A business whose members have unique addresses: kim (active, notifications on), lee (notifications off),
 * park (inactive), choi (active, on).
 */
async function newNotifyBusiness(): Promise<TestBusiness & { emails: Record<Key, string>; m: Record<Key, number> }> {
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
        {
          key: 'choi',
          nickname: 'Choi',
          email: emails.choi,
          isActive: true,
          grade: 'staff',
          notificationsEnabled: true,
        },
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
  const ids = b.ids.members;
  return { ...b, emails, m: { kim: ids.kim!, lee: ids.lee!, park: ids.park!, choi: ids.choi! } };
}

const api = apiClient(() => t.app);
async function call(b: TestBusiness, req: SignedRequest, status: number) {
  const res = await api.call(b, req);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

/** `[recipient, subject]` of the SMTP server's messages to any of `emails`, sorted. */
function mailsTo(emails: Record<Key, string>): [string, string | undefined][] {
  const ours = Object.values(emails);
  return smtp.messages
    .filter((m) => m.to.some((to) => ours.includes(to)))
    .map((m): [string, string | undefined] => [m.to.join(','), m.header('subject')])
    .sort((x, y) => `${x[0]}${x[1]}`.localeCompare(`${y[0]}${y[1]}`));
}

describe('notifications caused through the API', () => {
  it('the four events reach a real SMTP server addressed to the active members with notifications on, and only the members concerned', async () => {
    const b = await newNotifyBusiness();
    const { m, emails } = b;
    const d = testDispatcher(t, [b.businessId], { SMTP_URL: smtp.url, PUSH_WEBHOOK_URL: webhook.url });
    try {
      // 1. create with inChargeSet: kim only (lee has notifications off, park is inactive)
      const created = await call(
        b,
        {
          method: 'POST',
          url: '/v1/inquiry',
          body: { name: 'Website renewal', inChargeSet: [{ id: m.kim }, { id: m.lee }, { id: m.park }] },
        },
        201,
      );
      const id = created.id as number;
      const label = `#${created.uniqueId} "Website renewal"`;
      expect(await drain(d)).toBe(1);
      expect(mailsTo(emails)).toEqual([[emails.kim, 'New inquiry assigned to you: Website renewal']]);

      // 2. inChargeSet gains choi (and keeps the others): the new member only
      await call(
        b,
        {
          method: 'PATCH',
          url: `/v1/inquiry/${id}`,
          body: { inChargeSet: [{ id: m.kim }, { id: m.lee }, { id: m.park }, { id: m.choi }] },
        },
        200,
      );
      expect(await drain(d)).toBe(1);
      // 3. a status change: every responsible member who takes notifications
      await call(b, { method: 'PATCH', url: `/v1/inquiry/${id}`, body: { status: { id: b.ids.statuses.won } } }, 200);
      expect(await drain(d)).toBe(2);
      // 4. a text note: the same
      await call(
        b,
        { method: 'POST', url: `/v1/inquiry/${id}/text_history`, body: { content: 'Called them back.' } },
        201,
      );
      expect(await drain(d)).toBe(2);
      // changes that are none of the four events send nothing
      await call(
        b,
        {
          method: 'PATCH',
          url: `/v1/inquiry/${id}`,
          body: {
            name: 'Website renewal',
            status: { id: b.ids.statuses.won },
            inChargeSet: [{ id: m.choi }, { id: m.kim }],
          },
        },
        200,
      );
      await call(b, { method: 'POST', url: '/v1/inquiry', body: { name: 'Nobody in charge' } }, 201);
      await call(b, { method: 'POST', url: '/v1/client', body: { companyName: 'Acme Corp.' } }, 201);
      expect(await drain(d)).toBe(0);

      expect(mailsTo(emails)).toEqual(
        [
          [emails.choi, 'Inquiry status changed: Website renewal'],
          [emails.choi, 'New note on inquiry: Website renewal'],
          [emails.choi, 'You were assigned to an inquiry: Website renewal'],
          [emails.kim, 'Inquiry status changed: Website renewal'],
          [emails.kim, 'New inquiry assigned to you: Website renewal'],
          [emails.kim, 'New note on inquiry: Website renewal'],
        ].sort((x, y) => `${x[0]}${x[1]}`.localeCompare(`${y[0]}${y[1]}`)),
      );
      const statusMail = smtp.messages.find(
        (x) => x.to.includes(emails.kim) && x.header('subject') === 'Inquiry status changed: Website renewal',
      );
      expect(statusMail!.raw).toContain(`Inquiry ${label} is now "Won".`);
      expect(statusMail!.header('x-bizapi-event')).toBe('inquiry.status_changed');

      // the same notifications in-app and pushed
      const types = async (member: number) =>
        (
          (await call(b, { method: 'GET', url: `/v1/notification?member_id=${member}` }, 200)).results as {
            type: string;
            inquiry: { id: number };
          }[]
        ).map((n) => [n.type, n.inquiry.id]);
      expect(await types(m.kim)).toEqual([
        ['inquiry.text_history_created', id],
        ['inquiry.status_changed', id],
        ['inquiry.created', id],
      ]);
      expect(await types(m.choi)).toEqual([
        ['inquiry.text_history_created', id],
        ['inquiry.status_changed', id],
        ['inquiry.in_charge_added', id],
      ]);
      expect(await types(m.lee)).toEqual([]);
      expect(await types(m.park)).toEqual([]);
      const pushes = webhook.requests.filter((r) => r.body?.business?.id === b.businessId);
      expect(pushes.map((p) => p.body.member.id).sort()).toEqual([m.choi, m.choi, m.choi, m.kim, m.kim, m.kim].sort());
    } finally {
      await d.stop();
    }
  });

  it('a notification of an inquiry deleted since then shows inquiry: null (soft delete), and stays listed', async () => {
    const b = await newNotifyBusiness();
    const kept = await call(
      b,
      { method: 'POST', url: '/v1/inquiry', body: { name: 'Kept', inChargeSet: [{ id: b.m.kim }] } },
      201,
    );
    const gone = await call(
      b,
      { method: 'POST', url: '/v1/inquiry', body: { name: 'Gone', inChargeSet: [{ id: b.m.kim }] } },
      201,
    );
    const d = testDispatcher(t, [b.businessId], { SMTP_URL: smtp.url });
    try {
      expect(await drain(d)).toBe(2);
    } finally {
      await d.stop();
    }
    await call(b, { method: 'DELETE', url: `/v1/inquiry/${gone.id}` }, 204);
    const list = await call(b, { method: 'GET', url: `/v1/notification?member_id=${b.m.kim}` }, 200);
    expect(list.results.map((n: { title: string; inquiry: unknown }) => [n.title, n.inquiry])).toEqual([
      ['New inquiry assigned to you: Gone', null],
      ['New inquiry assigned to you: Kept', { id: kept.id }],
    ]);
  });

  it('an SMTP server that refuses, then recovers: the e-mail of an API change arrives after a retry', async () => {
    const b = await newNotifyBusiness();
    smtp.refusing = true;
    await call(
      b,
      { method: 'POST', url: '/v1/inquiry', body: { name: 'Retry me', inChargeSet: [{ id: b.m.kim }] } },
      201,
    );
    const clock = testClock();
    const d = testDispatcher(
      t,
      [b.businessId],
      { SMTP_URL: smtp.url, BIZAPI_DISPATCHER_RETRY_BASE_MS: '30000' },
      { now: clock.now },
    );
    try {
      expect(await d.runOnce()).toMatchObject({ claimed: 1, retried: 1, delivered: 0 });
      expect(mailsTo(b.emails)).toEqual([]);
      const [row] = await repo.findOutboxByBusiness(t.testDb.db, b.businessId);
      expect(row!.last_error).toMatch(/^email: /);
      smtp.refusing = false;
      clock.advance(30_000);
      expect(await d.runOnce()).toMatchObject({ claimed: 1, delivered: 1 });
      expect(mailsTo(b.emails)).toEqual([[b.emails.kim, 'New inquiry assigned to you: Retry me']]);
      // and only once
      clock.advance(10_000_000);
      expect(await drain(d)).toBe(0);
      expect(mailsTo(b.emails)).toHaveLength(1);
    } finally {
      await d.stop();
    }
  });

  it('a change that rolls back inside its transaction sends nothing', async () => {
    const b = await newNotifyBusiness();
    // an inquiry holding 29 files: a PATCH adding choi to inChargeSet (its event is written first in the
    // transaction) and 2 more files fails at the 30-file limit, inside the transaction
    const paths: string[] = [];
    for (let i = 0; i < 31; i++) {
      const { url, path } = await presign(t.app, b, `f${i}.pdf`);
      expect((await put(t.app, url, `%PDF-1.7 ${i}`)).statusCode).toBe(200);
      paths.push(path);
    }
    const files = paths.map((file, i) => ({ name: `f${i}.pdf`, file }));
    const created = await call(
      b,
      { method: 'POST', url: '/v1/inquiry', body: { name: 'Many files', fileSet: files.slice(0, 29) } },
      201,
    );
    const d = testDispatcher(t, [b.businessId], { SMTP_URL: smtp.url });
    try {
      const refused = await call(
        b,
        {
          method: 'PATCH',
          url: `/v1/inquiry/${created.id}`,
          body: { inChargeSet: [{ id: b.m.choi }], status: { id: b.ids.statuses.won }, fileSet: files.slice(29) },
        },
        400,
      );
      expect(Object.keys(refused)).toContain('fileSet');
      expect(await repo.findOutboxByBusiness(t.testDb.db, b.businessId)).toEqual([]);
      expect(await drain(d)).toBe(0);
      expect(mailsTo(b.emails)).toEqual([]);
      expect((await call(b, { method: 'GET', url: '/v1/notification' }, 200)).results).toEqual([]);
      const after = await call(b, { method: 'GET', url: `/v1/inquiry/${created.id}` }, 200);
      expect(after.inChargeSet).toEqual([]);
      expect(after.status.id).toBe(b.ids.statuses.new);
      expect(after.fileSet).toHaveLength(29);
      // the same change within the limit commits, and notifies
      await call(
        b,
        {
          method: 'PATCH',
          url: `/v1/inquiry/${created.id}`,
          body: { inChargeSet: [{ id: b.m.choi }], fileSet: files.slice(29, 30) },
        },
        200,
      );
      expect(await drain(d)).toBe(1);
      expect(mailsTo(b.emails)).toEqual([[b.emails.choi, 'You were assigned to an inquiry: Many files']]);
    } finally {
      await d.stop();
    }
  });

  it('a hanging or refusing SMTP server never slows or fails the API call', async () => {
    const b = await newNotifyBusiness();
    const d = testDispatcher(t, [b.businessId], {
      SMTP_URL: smtp.url,
      BIZAPI_DISPATCHER_POLL_MS: '10',
      BIZAPI_DISPATCHER_RETRY_BASE_MS: '3600000',
    });
    let release!: () => void;
    smtp.hold = new Promise<void>((resolve) => (release = resolve));
    const dataArrived = smtp.nextData();
    d.start();
    try {
      const first = await call(
        b,
        { method: 'POST', url: '/v1/inquiry', body: { name: 'Held', inChargeSet: [{ id: b.m.kim }] } },
        201,
      );
      // the background dispatcher is now stuck in the SMTP DATA of that event…
      await dataArrived;
      // …and every kind of change still answers at once, each writing its own event
      const second = await call(
        b,
        { method: 'POST', url: '/v1/inquiry', body: { name: 'While held', inChargeSet: [{ id: b.m.choi }] } },
        201,
      );
      await call(
        b,
        { method: 'PATCH', url: `/v1/inquiry/${first.id}`, body: { status: { id: b.ids.statuses.won } } },
        200,
      );
      await call(
        b,
        { method: 'POST', url: `/v1/inquiry/${second.id}/text_history`, body: { content: 'Still here.' } },
        201,
      );
      // a refusing server: the API still answers, the delivery waits for a retry
      smtp.refusing = true;
      await call(
        b,
        {
          method: 'PATCH',
          url: `/v1/inquiry/${second.id}`,
          body: { inChargeSet: [{ id: b.m.choi }, { id: b.m.kim }] },
        },
        200,
      );
      release();
      await until(async () =>
        (await repo.findOutboxByBusiness(t.testDb.db, b.businessId)).every(
          (r) => r.delivered_at !== null || r.last_error !== null,
        ),
      );
    } finally {
      release();
      await d.stop();
    }
    const rows = await repo.findOutboxByBusiness(t.testDb.db, b.businessId);
    expect(rows).toHaveLength(5);
    const held = rows.find((r) => r.event_type === 'inquiry.created' && r.member_id === b.m.kim);
    expect(held!.delivered_at).not.toBeNull();
    expect(rows.filter((r) => r.delivered_at === null).every((r) => r.last_error!.startsWith('email: '))).toBe(true);
  });
});
