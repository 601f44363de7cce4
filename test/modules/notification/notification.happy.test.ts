/**
 * `GET /v1/notification` (extension; decisions §8), the paths that succeed: the shape, newest first, the
 * `member_id` filter, keyset pages with links that keep the filter, and one notification per delivered
 * outbox row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness } from '../../setup/factories.ts';
import { notify } from './notification-helpers.ts';
import { apiClient } from '../../setup/api-client.ts';

let t: TestApp;
const { call } = apiClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('GET /v1/notification', () => {
  it('is empty for a business without notifications', async () => {
    const b = await newBusiness(t);
    const res = await call(b, { method: 'GET', url: '/v1/notification' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ next: null, previous: null, results: [] });
  });

  it('lists every member’s notifications newest first, each with the full member', async () => {
    const b = await newBusiness(t);
    // a second active member with notifications on
    const { kim } = b.ids.members;
    await t.testDb.db
      .updateTable('member')
      .set({ notifications_enabled: 1 })
      .where('id', '=', b.ids.members.lee!)
      .execute();
    const lee = b.ids.members.lee!;
    const [first] = await notify(t, b.businessId, [{ type: 'inquiry.created', inquiryId: 1, memberIds: [kim!] }]);
    const [second] = await notify(t, b.businessId, [
      { type: 'inquiry.in_charge_added', inquiryId: 2, memberIds: [lee] },
    ]);
    const [third] = await notify(t, b.businessId, [
      { type: 'inquiry.text_history_created', inquiryId: 1, memberIds: [kim!] },
    ]);
    expect(first! < second! && second! < third!).toBe(true);
    const res = await call(b, { method: 'GET', url: '/v1/notification' });
    expect(res.status).toBe(200);
    expect(
      res.body.results.map((n: { type: string; inquiry: { id: number }; member: { id: number } }) => [
        n.type,
        n.inquiry.id,
        n.member.id,
      ]),
    ).toEqual([
      ['inquiry.text_history_created', 1, kim],
      ['inquiry.in_charge_added', 2, lee],
      ['inquiry.created', 1, kim],
    ]);
    const [latest] = res.body.results;
    expect(Object.keys(latest)).toEqual(['id', 'type', 'title', 'content', 'inquiry', 'member', 'created']);
    expect(latest).toMatchObject({
      title: 'New note on inquiry: #1',
      content: 'A note was added to inquiry #1.',
      member: {
        id: kim,
        nickname: 'Kim',
        email: 'kim@example.com',
        isActive: true,
        grade: { id: b.ids.grades.owner, title: 'Owner' },
      },
      created: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
  });

  it('member_id keeps one member’s notifications; an unknown or foreign member gives an empty page', async () => {
    const b = await newBusiness(t);
    const other = await newBusiness(t);
    await t.testDb.db
      .updateTable('member')
      .set({ notifications_enabled: 1 })
      .where('id', '=', b.ids.members.lee!)
      .execute();
    await notify(t, b.businessId, [
      { inquiryId: 1, memberIds: [b.ids.members.kim!, b.ids.members.lee!] },
      { inquiryId: 2, memberIds: [b.ids.members.lee!] },
    ]);
    await notify(t, other.businessId, [{ inquiryId: 3, memberIds: [other.ids.members.kim!] }]);
    const lee = await call(b, { method: 'GET', url: `/v1/notification?member_id=${b.ids.members.lee}` });
    expect(lee.body.results.map((n: { inquiry: { id: number } }) => n.inquiry.id)).toEqual([2, 1]);
    const kim = await call(b, { method: 'GET', url: `/v1/notification?member_id=${b.ids.members.kim}` });
    expect(kim.body.results.map((n: { inquiry: { id: number } }) => n.inquiry.id)).toEqual([1]);
    for (const id of [other.ids.members.kim, 987654321]) {
      const res = await call(b, { method: 'GET', url: `/v1/notification?member_id=${id}` });
      expect(res.status).toBe(200);
      expect(res.body.results).toEqual([]);
    }
    const empty = await call(b, { method: 'GET', url: '/v1/notification?member_id=' });
    expect(empty.status).toBe(200);
    expect(empty.body.results).toHaveLength(3);
  });

  it('pages by keyset with next / previous links that keep the filter', async () => {
    const b = await newBusiness(t);
    const kim = b.ids.members.kim!;
    await notify(
      t,
      b.businessId,
      [1, 2, 3, 4, 5].map((i) => ({ inquiryId: i, memberIds: [kim] })),
    );
    const seen: number[] = [];
    let url: string | null = `/v1/notification?member_id=${kim}&page_size=2`;
    const pages: number[][] = [];
    while (url) {
      const res: { status: number; body: { next: string | null; results: { inquiry: { id: number } }[] } } = await call(
        b,
        { method: 'GET', url },
      );
      expect(res.status).toBe(200);
      const ids = res.body.results.map((n) => n.inquiry.id);
      pages.push(ids);
      seen.push(...ids);
      if (res.body.next) {
        const next = new URL(res.body.next);
        expect(next.searchParams.get('member_id')).toBe(String(kim));
        expect(next.searchParams.get('page_size')).toBe('2');
        url = `${next.pathname}${next.search}`;
      } else url = null;
    }
    expect(pages).toEqual([[5, 4], [3, 2], [1]]);
    expect(seen).toEqual([5, 4, 3, 2, 1]);

    const second = await call(b, { method: 'GET', url: `/v1/notification?member_id=${kim}&page_size=2` });
    const next = new URL(second.body.next);
    const page2 = await call(b, { method: 'GET', url: `${next.pathname}${next.search}` });
    const prev = new URL(page2.body.previous);
    const back = await call(b, { method: 'GET', url: `${prev.pathname}${prev.search}` });
    expect(back.body.results.map((n: { inquiry: { id: number } }) => n.inquiry.id)).toEqual([5, 4]);
    expect(back.body.previous).toBeNull();
  });

  it('answers on the trailing-slash path too, and takes limit as the page size', async () => {
    const b = await newBusiness(t);
    await notify(t, b.businessId, [{ memberIds: [b.ids.members.kim!] }, { memberIds: [b.ids.members.kim!] }]);
    const res = await call(b, { method: 'GET', url: '/v1/notification/?limit=1' });
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(1);
    expect(res.body.next).toEqual(expect.stringContaining('/v1/notification/?limit=1&cursor='));
  });
});
