/**
 * Inquiry histories, the successful paths (spec: States and transitions; reference: Inquiry › History
 * reads, Text history write operations, items 18 and 19; decisions §7, §8): status and folder history
 * written by create and update, text notes (list, create, retrieve, update, delete, and the event they
 * write), the three read-only pages, the deprecated `/history` aliases, soft delete keeping history.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  restoreEmailHistory,
  restoreEmailReplyHistory,
  restoreSubmitHistory,
} from '../../../src/modules/inquiry/inquiry-history.service.ts';
import { createDemo } from '../../../src/demo/demo.ts';
import { DEMO_INQUIRIES } from '../../../src/demo/demo-data.ts';
import { dereference } from '../../setup/openapi-document.ts';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { createInquiry, memberOf, relative } from './inquiry-helpers.ts';
import { apiClient } from '../../setup/api-client.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const { call, raw } = apiClient(() => t.app);
async function get(b: TestBusiness, url: string) {
  const res = await call(b, { method: 'GET', url });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}
async function patch(b: TestBusiness, id: number, body: Record<string, unknown>) {
  const res = await call(b, { method: 'PATCH', url: `/v1/inquiry/${id}`, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}
async function note(b: TestBusiness, inquiryId: number, body: Record<string, unknown>, segment = 'text_history') {
  const res = await call(b, { method: 'POST', url: `/v1/inquiry/${inquiryId}/${segment}`, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe('status and folder history', () => {
  it('create writes one status-history row with no previous status and no folder history', async () => {
    const b = await newBusiness(t);
    const c = await createInquiry(t, b);
    const page = await get(b, `/v1/inquiry/${c.id}/status_history`);
    expect(page).toEqual({
      next: null,
      previous: null,
      results: [
        {
          id: expect.any(Number),
          status: { id: b.ids.statuses.new, title: 'New', folder: { id: b.ids.folders.sales, name: 'Sales' } },
          previousStatus: null,
          member: null,
          created: c.created,
        },
      ],
    });
    expect((await get(b, `/v1/inquiry/${c.id}/folder_history`)).results).toEqual([]);
  });

  it('a status change in the same folder writes status history only; into another folder, folder history too', async () => {
    const b = await newBusiness(t);
    const c = await createInquiry(t, b);
    await patch(b, c.id, { status: { id: b.ids.statuses.won } });
    const sales = { id: b.ids.folders.sales, name: 'Sales' };
    const archive = { id: b.ids.folders.archive, name: 'Archive' };
    expect((await get(b, `/v1/inquiry/${c.id}/folder_history`)).results).toEqual([]);
    await patch(b, c.id, { status: { id: b.ids.statuses.lost } });
    const statuses = (await get(b, `/v1/inquiry/${c.id}/status_history`)).results;
    expect(statuses.map((h: any) => [h.status.id, h.previousStatus?.id ?? null])).toEqual([
      [b.ids.statuses.lost, b.ids.statuses.won],
      [b.ids.statuses.won, b.ids.statuses.new],
      [b.ids.statuses.new, null],
    ]);
    expect(statuses[0]).toMatchObject({
      status: { id: b.ids.statuses.lost, title: 'Lost', folder: archive },
      previousStatus: { id: b.ids.statuses.won, title: 'Won', folder: sales },
      member: null,
    });
    const folders = (await get(b, `/v1/inquiry/${c.id}/folder_history`)).results;
    expect(folders).toEqual([
      { id: expect.any(Number), folder: archive, previousFolder: sales, member: null, created: statuses[0].created },
    ]);
  });

  it('sending the current status again, or no status, writes nothing', async () => {
    const b = await newBusiness(t);
    const c = await createInquiry(t, b);
    await patch(b, c.id, { status: { id: b.ids.statuses.new }, name: 'Renamed' });
    await patch(b, c.id, { estimate: '5' });
    expect((await get(b, `/v1/inquiry/${c.id}/status_history`)).results).toHaveLength(1);
  });

  it('a first status on an inquiry created without one: previous status and folder are null', async () => {
    const b = await newBusiness(t, { catalog: null });
    const c = await createInquiry(t, b);
    expect((await get(b, `/v1/inquiry/${c.id}/status_history`)).results).toEqual([]);
    const { importCatalog } = await import('../../../src/modules/catalog/catalog-import.ts');
    const ids = await importCatalog(t.testDb.db, b.businessId, {
      folders: [
        { key: 'f', name: 'Pipeline', isDefault: true, statuses: [{ key: 's', title: 'Open', isDefault: true }] },
      ],
    });
    await patch(b, c.id, { status: { id: ids.statuses.s } });
    expect((await get(b, `/v1/inquiry/${c.id}/status_history`)).results).toMatchObject([
      { status: { id: ids.statuses.s }, previousStatus: null },
    ]);
    expect((await get(b, `/v1/inquiry/${c.id}/folder_history`)).results).toMatchObject([
      { folder: { id: ids.folders.f }, previousFolder: null },
    ]);
  });

  it('shows the member of rows written by other means', async () => {
    const b = await newBusiness(t);
    const c = await createInquiry(t, b);
    await t.testDb.db
      .insertInto('inquiry_status_history')
      .values({
        business_id: b.businessId,
        inquiry_id: c.id,
        status_id: b.ids.statuses.won!,
        previous_status_id: b.ids.statuses.new!,
        member_id: b.ids.members.lee!,
        created: '2030-01-01T00:00:00.000Z',
      })
      .execute();
    const [latest] = (await get(b, `/v1/inquiry/${c.id}/status_history`)).results;
    expect(latest.member).toEqual(memberOf(b, 'lee'));
  });
});

describe('text history', () => {
  it('creates a note with defaults and lists notes newest first by created', async () => {
    const b = await newBusiness(t);
    const c = await createInquiry(t, b);
    const before = Date.now();
    const first = await note(b, c.id, { content: 'First call' });
    // create answers and list items have no updated (docs/api.md#updated); the full shape has
    expect(first).toEqual({ id: expect.any(Number), content: 'First call', created: expect.any(String), member: null });
    expect((await get(b, `/v1/inquiry/${c.id}/text_history/${first.id}`)).updated).toBe(first.created);
    expect(Date.parse(first.created)).toBeGreaterThanOrEqual(before - 5);
    const dated = await note(b, c.id, {
      content: 'Back-dated',
      created: '2026-01-05T09:00:00+09:00',
      member: { id: b.ids.members.kim },
    });
    expect(dated).toEqual({
      id: expect.any(Number),
      content: 'Back-dated',
      created: '2026-01-05T00:00:00.000Z',
      member: memberOf(b, 'kim'),
    });
    // updated is the time of the write, not the date the note was given
    const datedFull = await get(b, `/v1/inquiry/${c.id}/text_history/${dated.id}`);
    expect(datedFull).toEqual({ ...dated, updated: expect.any(String) });
    expect(Date.parse(datedFull.updated)).toBeGreaterThanOrEqual(before - 5);
    const page = await get(b, `/v1/inquiry/${c.id}/text_history`);
    expect(page.results).toEqual([first, dated]);
  });

  it('keeps 5000 characters and ignores unknown properties', async () => {
    const b = await newBusiness(t);
    const c = await createInquiry(t, b);
    const n = await note(b, c.id, { content: '가'.repeat(5000), id: 9999, bogus: 1 });
    expect(n.content).toHaveLength(5000);
    expect(n.id).not.toBe(9999);
  });

  it('PATCH changes content and created, never the member', async () => {
    const b = await newBusiness(t);
    const c = await createInquiry(t, b);
    const n = await note(b, c.id, { content: 'Draft', member: { id: b.ids.members.kim } });
    const url = `/v1/inquiry/${c.id}/text_history/${n.id}`;
    const res = await call(b, {
      method: 'PATCH',
      url,
      body: { content: 'Final', created: '2026-02-01T12:00:00Z', member: { id: b.ids.members.lee } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: n.id,
      content: 'Final',
      created: '2026-02-01T12:00:00.000Z',
      member: memberOf(b, 'kim'),
      updated: expect.any(String),
    });
    expect(res.body.updated >= n.created).toBe(true);
    const same = await call(b, { method: 'PATCH', url, body: {} });
    expect(same.body).toEqual(res.body);
    expect(await get(b, url)).toEqual(res.body);
  });

  it('DELETE removes the note for good', async () => {
    const b = await newBusiness(t);
    const c = await createInquiry(t, b);
    const keep = await note(b, c.id, { content: 'Keep' });
    const drop = await note(b, c.id, { content: 'Drop' });
    const url = `/v1/inquiry/${c.id}/text_history/${drop.id}`;
    const res = await call(b, { method: 'DELETE', url });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect((await call(b, { method: 'GET', url })).status).toBe(404);
    expect((await call(b, { method: 'DELETE', url })).status).toBe(404);
    expect((await get(b, `/v1/inquiry/${c.id}/text_history`)).results).toEqual([keep]);
  });

  it('pages through the notes', async () => {
    const b = await newBusiness(t);
    const c = await createInquiry(t, b);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await note(b, c.id, { content: `n${i}`, created: `2026-01-0${i + 1}T00:00:00Z` })).id);
    const seen: number[] = [];
    let url: string | null = `/v1/inquiry/${c.id}/text_history?page_size=2`;
    while (url) {
      const page = await get(b, url);
      seen.push(...page.results.map((r: { id: number }) => r.id));
      url = page.next ? relative(page.next) : null;
    }
    expect(seen).toEqual([...ids].reverse());
  });

  it('writes inquiry.text_history_created to the responsible members in the same transaction', async () => {
    const b = await newBusiness(t);
    const c = await createInquiry(t, b, { inChargeSet: [{ id: b.ids.members.kim }, { id: b.ids.members.lee }] });
    const n = await note(b, c.id, { content: 'Heads-up' });
    const rows = await t.testDb.db
      .selectFrom('notification_outbox')
      .select(['event_type', 'member_id', 'inquiry_id', 'payload'])
      .where('business_id', '=', b.businessId)
      .where('event_type', '=', 'inquiry.text_history_created')
      .execute();
    expect(rows).toEqual([
      {
        event_type: 'inquiry.text_history_created',
        member_id: b.ids.members.kim,
        inquiry_id: c.id,
        payload: JSON.stringify({ textHistoryId: n.id }),
      },
    ]);
  });
});

describe('deprecated /history aliases', () => {
  it('serve the same notes as text_history, with Deprecation and a Link to the successor', async () => {
    const b = await newBusiness(t);
    const c = await createInquiry(t, b);
    const created = await call(b, {
      method: 'POST',
      url: `/v1/inquiry/${c.id}/history`,
      body: { content: 'Old client' },
    });
    expect(created.status).toBe(201);
    expect(created.headers.deprecation).toBe('@1772496000');
    expect(created.headers.link).toBe(`<http://localhost/v1/inquiry/${c.id}/text_history>; rel="successor-version"`);
    const viaNew = await get(b, `/v1/inquiry/${c.id}/text_history`);
    expect(viaNew.results).toEqual([created.body]);

    const list = await call(b, { method: 'GET', url: `/v1/inquiry/${c.id}/history?page_size=5` });
    expect(list.status).toBe(200);
    expect(list.body.results).toEqual([created.body]);
    expect(list.headers.deprecation).toBe('@1772496000');
    expect(list.headers.link).toBe(`<http://localhost/v1/inquiry/${c.id}/text_history>; rel="successor-version"`);

    const item = `/v1/inquiry/${c.id}/history/${created.body.id}`;
    const one = await call(b, { method: 'GET', url: item });
    expect(one.body).toEqual({ ...created.body, updated: created.body.created });
    expect(one.headers.link).toBe(
      `<http://localhost/v1/inquiry/${c.id}/text_history/${created.body.id}>; rel="successor-version"`,
    );
    const changed = await call(b, { method: 'PATCH', url: item, body: { content: 'Edited' } });
    expect(changed.status).toBe(200);
    expect(changed.body.content).toBe('Edited');
    expect(changed.headers.deprecation).toBe('@1772496000');
    const gone = await call(b, { method: 'DELETE', url: item });
    expect(gone.status).toBe(204);
    expect(gone.headers.deprecation).toBe('@1772496000');
    const missing = await call(b, { method: 'GET', url: item });
    expect(missing.status).toBe(404);
    expect(missing.headers.deprecation).toBe('@1772496000');
  });

  it('are marked deprecated in the OpenAPI document; their successors are not', async () => {
    const doc = (await raw(undefined, { method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, any>>;
    };
    const old = doc.paths['/v1/inquiry/{inquiry_id}/history']!;
    const oldItem = doc.paths['/v1/inquiry/{inquiry_id}/history/{history_id}']!;
    for (const op of [old.get, old.post, oldItem.get, oldItem.patch, oldItem.delete]) {
      expect(op.deprecated).toBe(true);
      expect(op.description).toMatch(/Deprecated/);
    }
    const current = doc.paths['/v1/inquiry/{inquiry_id}/text_history']!;
    expect(current.get.deprecated).toBeUndefined();
    expect(current.post.deprecated).toBeUndefined();
    const detail = (await dereference(doc)).paths['/v1/inquiry/{inquiry_id}']!.get.responses['200'].content[
      'application/json'
    ].schema;
    expect(detail.properties.isHidden['x-extension']).toBe(true);
  });

  it('the successor operations carry no Deprecation header', async () => {
    const b = await newBusiness(t);
    const c = await createInquiry(t, b);
    const res = await call(b, { method: 'GET', url: `/v1/inquiry/${c.id}/text_history` });
    expect(res.headers.deprecation).toBeUndefined();
    expect(res.headers.link).toBeUndefined();
  });
});

describe('read-only pages', () => {
  it('email_history, email_reply_history and submit_history show rows written from outside the API', async () => {
    const b = await newBusiness(t);
    const c = await createInquiry(t, b);
    const db = t.testDb.db;
    // Written as an integration reports them: the restore entry point, id 0 asking for a new id.
    const { id: sent } = await restoreEmailHistory(
      db,
      b,
      c.id,
      {
        id: 0,
        title: 'Quote',
        fromEmail: 'kim@example.com',
        toSet: [{ toEmail: 'jane@acme.example' }, { toEmail: 'joe@acme.example' }],
        ccSet: [{ ccEmail: 'boss@example.com' }],
        status: 'S',
        sentAt: '2026-01-02T03:04:05.678Z',
        created: '2026-01-02T03:04:05.678Z',
      },
      {},
    );
    const { id: draft } = await restoreEmailHistory(
      db,
      b,
      c.id,
      {
        id: 0,
        title: 'Follow-up',
        fromEmail: 'kim@example.com',
        toSet: [{ toEmail: 'jane@acme.example' }],
        ccSet: [],
        status: 'D',
        sentAt: null,
        created: '2026-01-03T00:00:00.000Z',
      },
      {},
    );
    expect((await get(b, `/v1/inquiry/${c.id}/email_history`)).results).toEqual([
      {
        id: draft,
        title: 'Follow-up',
        fromEmail: 'kim@example.com',
        toSet: [{ toEmail: 'jane@acme.example' }],
        ccSet: [],
        status: 'D',
        sentAt: null,
        created: '2026-01-03T00:00:00.000Z',
      },
      {
        id: sent,
        title: 'Quote',
        fromEmail: 'kim@example.com',
        toSet: [{ toEmail: 'jane@acme.example' }, { toEmail: 'joe@acme.example' }],
        ccSet: [{ ccEmail: 'boss@example.com' }],
        status: 'S',
        sentAt: '2026-01-02T03:04:05.678Z',
        created: '2026-01-02T03:04:05.678Z',
      },
    ]);
    const { id: reply } = await restoreEmailReplyHistory(
      db,
      b,
      c.id,
      {
        id: 0,
        title: 'Re: Quote',
        fromEmail: 'jane@acme.example',
        toSet: [{ toEmail: 'kim@example.com' }],
        ccSet: [],
        isUnread: true,
        receivedAt: '2026-01-04T00:00:00.000Z',
        created: '2026-01-04T00:00:01.000Z',
      },
      {},
    );
    expect((await get(b, `/v1/inquiry/${c.id}/email_reply_history`)).results).toEqual([
      {
        id: reply,
        title: 'Re: Quote',
        fromEmail: 'jane@acme.example',
        toSet: [{ toEmail: 'kim@example.com' }],
        ccSet: [],
        isUnread: true,
        receivedAt: '2026-01-04T00:00:00.000Z',
        created: '2026-01-04T00:00:01.000Z',
      },
    ]);
    const answers = [
      { question: 'Budget', answer: '10M' },
      { question: 'Deadline', answer: null },
    ];
    const { id: submit } = await restoreSubmitHistory(
      db,
      b,
      c.id,
      { id: 0, form: { id: 3, title: 'Contact us' }, answers, created: '2026-01-01T00:00:00.000Z' },
      {},
    );
    expect((await get(b, `/v1/inquiry/${c.id}/submit_history`)).results).toEqual([
      { id: submit, form: { id: 3, title: 'Contact us' }, answers, created: '2026-01-01T00:00:00.000Z' },
    ]);
  });

  it('answer empty pages for an inquiry without such rows', async () => {
    const b = await newBusiness(t);
    const c = await createInquiry(t, b);
    for (const page of ['email_history', 'email_reply_history', 'submit_history', 'text_history', 'folder_history']) {
      expect(await get(b, `/v1/inquiry/${c.id}/${page}`)).toEqual({ next: null, previous: null, results: [] });
    }
  });
});

describe('soft delete keeps history', () => {
  it('the inquiry disappears everywhere, its history rows stay in the database', async () => {
    const b = await newBusiness(t);
    const c = await createInquiry(t, b, { workSet: [{ name: 'Task' }] });
    await patch(b, c.id, { status: { id: b.ids.statuses.lost } });
    await note(b, c.id, { content: 'Note' });
    const del = await call(b, { method: 'DELETE', url: `/v1/inquiry/${c.id}` });
    expect(del.status).toBe(204);
    for (const page of [
      'status_history',
      'folder_history',
      'text_history',
      'email_history',
      'email_reply_history',
      'submit_history',
      'history',
    ]) {
      const res = await call(b, { method: 'GET', url: `/v1/inquiry/${c.id}/${page}` });
      expect(res.status, page).toBe(404);
    }
    expect((await call(b, { method: 'GET', url: `/v1/inquiry/${c.id}` })).status).toBe(404);
    expect((await call(b, { method: 'PATCH', url: `/v1/inquiry/${c.id}`, body: { name: 'x' } })).status).toBe(404);
    expect((await call(b, { method: 'DELETE', url: `/v1/inquiry/${c.id}` })).status).toBe(404);
    expect((await get(b, '/v1/inquiry')).results).toEqual([]);
    expect((await get(b, '/v1/inquiry/work')).results).toEqual([]);
    const db = t.testDb.db;
    const count = async (
      table: 'inquiry_status_history' | 'inquiry_folder_history' | 'inquiry_text_history' | 'inquiry',
    ) => (await db.selectFrom(table).select('id').where('business_id', '=', b.businessId).execute()).length;
    expect(await count('inquiry')).toBe(1);
    expect(await count('inquiry_status_history')).toBe(2);
    expect(await count('inquiry_folder_history')).toBe(1);
    expect(await count('inquiry_text_history')).toBe(1);
  });
});

describe('the demo business', () => {
  it('has inquiries with status, folder, text, e-mail, reply and submit histories, readable with its key', async () => {
    const demo = await createDemo(t.testDb.db, t.masterKey);
    const b = { ...demo, businessId: demo.business.id, ids: demo.catalog, timezone: demo.business.timezone };
    const list = await get(b, '/v1/inquiry?page_size=100');
    expect(list.results.map((r: { name: string }) => r.name)).toEqual([...DEMO_INQUIRIES].reverse().map((d) => d.name));
    const byName = (name: string) => list.results.find((r: { name: string }) => r.name === name);
    const brand = byName('Brand refresh for the spring campaign');
    expect(brand.client.companyName).toBe('Hanbit Studio');
    expect(brand.uniqueId).toBe('1');
    const total = async (id: number, page: string) => (await get(b, `/v1/inquiry/${id}/${page}`)).results.length;
    expect(await total(brand.id, 'status_history')).toBe(2);
    expect(await total(brand.id, 'text_history')).toBe(2);
    expect(await total(brand.id, 'email_history')).toBe(2);
    expect(await total(brand.id, 'email_reply_history')).toBe(1);
    expect(await total(brand.id, 'submit_history')).toBe(1);
    const store = byName('Online store for coffee subscriptions');
    expect(store.status).toEqual({
      id: demo.catalog.statuses.won,
      title: 'Won',
      folder: { id: demo.catalog.folders.closed, name: 'Closed' },
    });
    expect(await total(store.id, 'status_history')).toBe(4);
    expect((await get(b, `/v1/inquiry/${store.id}/folder_history`)).results).toMatchObject([
      { folder: { id: demo.catalog.folders.closed }, previousFolder: { id: demo.catalog.folders.sales } },
    ]);
    expect((await get(b, '/v1/inquiry?is_hidden=true')).results.map((r: { name: string }) => r.name)).toEqual([
      'Inquiry from the website chat',
    ]);
    expect((await get(b, '/v1/inquiry/work')).results.length).toBeGreaterThanOrEqual(5);
  });
});
