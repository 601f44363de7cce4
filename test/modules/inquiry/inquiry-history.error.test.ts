/**
 * Inquiry histories, the failing paths (reference item 19; decisions §2, §4): note validation in DRF's
 * shape, 404s before body validation, unknown inquiries and notes, bad page parameters and cursors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { createInquiry } from './inquiry-helpers.ts';
import { apiClient, expect400 } from '../../setup/api-client.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const { call } = apiClient(() => t.app);
async function notes(b: TestBusiness, inquiryId: number) {
  return (await call(b, { method: 'GET', url: `/v1/inquiry/${inquiryId}/text_history` })).body.results;
}

describe('POST …/text_history — validation', () => {
  for (const segment of ['text_history', 'history']) {
    it(`content is required, 1..5000 characters, a string (${segment})`, async () => {
      const b = await newBusiness(t);
      const c = await createInquiry(t, b);
      const post = (body: unknown) => call(b, { method: 'POST', url: `/v1/inquiry/${c.id}/${segment}`, body });
      expect400(await post({}), { content: ['This field is required.'] });
      expect400(await post({ content: '' }), { content: ['This field may not be blank.'] });
      expect400(await post({ content: 'x'.repeat(5001) }), {
        content: ['Ensure this field has no more than 5000 characters.'],
      });
      expect400(await post({ content: null }), { content: ['This field may not be null.'] });
      expect400(await post({ content: ['a'] }), { content: ['Not a valid string.'] });
      expect(await notes(b, c.id)).toEqual([]);
    });
  }

  it('created must be a date-time; member must be a member of the business', async () => {
    const b = await newBusiness(t);
    const c = await createInquiry(t, b);
    const post = (body: unknown) => call(b, { method: 'POST', url: `/v1/inquiry/${c.id}/text_history`, body });
    expect400(await post({ content: 'x', created: 'yesterday' }), {
      created: [
        'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
      ],
    });
    expect400(await post({ content: 'x', member: { id: 999999 } }), {
      member: { id: ['Invalid pk "999999" - object does not exist.'] },
    });
    expect400(await post({ content: 'x', member: {} }), { member: { id: ['This field is required.'] } });
    expect(await notes(b, c.id)).toEqual([]);
    const outbox = await t.testDb.db
      .selectFrom('notification_outbox')
      .select('id')
      .where('business_id', '=', b.businessId)
      .execute();
    expect(outbox).toEqual([]);
  });

  it('PATCH validates content and created', async () => {
    const b = await newBusiness(t);
    const c = await createInquiry(t, b);
    const n = (await call(b, { method: 'POST', url: `/v1/inquiry/${c.id}/text_history`, body: { content: 'Keep me' } }))
      .body;
    const url = `/v1/inquiry/${c.id}/text_history/${n.id}`;
    expect400(await call(b, { method: 'PATCH', url, body: { content: '' } }), {
      content: ['This field may not be blank.'],
    });
    expect400(await call(b, { method: 'PATCH', url, body: { created: '2026-13-01T00:00:00Z' } }), {
      created: [
        'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
      ],
    });
    // The detail carries `updated`; the create answer does not (docs/api.md#updated).
    expect((await call(b, { method: 'GET', url })).body).toEqual({ ...n, updated: n.created });
  });
});

describe('unknown inquiries and notes', () => {
  it('every history route answers 404 for an unknown inquiry', async () => {
    const b = await newBusiness(t);
    for (const page of [
      'status_history',
      'folder_history',
      'email_history',
      'email_reply_history',
      'submit_history',
      'text_history',
      'history',
    ]) {
      const res = await call(b, { method: 'GET', url: `/v1/inquiry/999999/${page}` });
      expect(res.status, page).toBe(404);
      expect(res.body.detail).toBe('Not found.');
    }
    expect(
      (await call(b, { method: 'POST', url: '/v1/inquiry/999999/text_history', body: { content: 'x' } })).status,
    ).toBe(404);
  });

  it('an unknown note answers 404, and PATCH does so before validating the body', async () => {
    const b = await newBusiness(t);
    const c = await createInquiry(t, b);
    for (const segment of ['text_history', 'history']) {
      const url = `/v1/inquiry/${c.id}/${segment}/999999`;
      expect((await call(b, { method: 'GET', url })).status).toBe(404);
      expect((await call(b, { method: 'DELETE', url })).status).toBe(404);
      const res = await call(b, { method: 'PATCH', url, body: { content: '' } });
      expect(res.status).toBe(404);
      expect(res.body.detail).toBe('Not found.');
    }
  });

  it('POST to an unknown inquiry answers 404 before validating the body', async () => {
    const b = await newBusiness(t);
    for (const segment of ['text_history', 'history']) {
      const res = await call(b, { method: 'POST', url: `/v1/inquiry/999999/${segment}`, body: {} });
      expect(res.status).toBe(404);
      expect(res.body.detail).toBe('Not found.');
    }
  });
});

describe('page parameters', () => {
  it('rejects a bad page_size and a cursor of another list', async () => {
    const b = await newBusiness(t);
    const c = await createInquiry(t, b);
    for (let i = 0; i < 3; i++)
      await call(b, { method: 'POST', url: `/v1/inquiry/${c.id}/text_history`, body: { content: `n${i}` } });
    expect400(await call(b, { method: 'GET', url: `/v1/inquiry/${c.id}/status_history?page_size=x` }), {
      page_size: ['A valid integer is required.'],
    });
    const page = await call(b, { method: 'GET', url: `/v1/inquiry/${c.id}/text_history?page_size=1` });
    const cursor = new URL(page.body.next).searchParams.get('cursor')!;
    const other = await call(b, { method: 'GET', url: `/v1/inquiry/${c.id}/status_history?cursor=${cursor}` });
    expect(other.status).toBe(404);
    expect(other.body.detail).toBe('Invalid cursor');
  });
});
