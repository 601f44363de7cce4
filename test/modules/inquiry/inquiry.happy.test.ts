/**
 * Inquiries, the successful paths (spec: Resources › Inquiry, Operation rules › Inquiry create / update /
 * delete, States and transitions; reference: Inquiry, items 15 and 16; decisions §1, §4, §5, §7): shapes,
 * defaults, numbers, nested data, partial update semantics, histories written by changes, soft delete,
 * encodings, paging and every list filter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextDay, todayIn } from '../../../src/shared/time.ts';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import {
  CREATE_KEYS,
  createClient,
  createInquiry,
  FULL_KEYS,
  LIST_KEYS,
  memberOf,
  newInquiryBusiness,
  prevDay,
  relative,
} from './inquiry-helpers.ts';
import { apiClient } from '../../setup/api-client.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const RFC3339_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const { call, get, listIds } = apiClient(() => t.app);
function create(b: TestBusiness, body: Record<string, unknown> = {}) {
  return createInquiry(t, b, body);
}
describe('POST /v1/inquiry', () => {
  it('answers 201 with exactly the create shape and fills every default', async () => {
    const b = await newBusiness(t);
    const before = Date.now();
    const res = await call(b, { method: 'POST', url: '/v1/inquiry', body: {} });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(CREATE_KEYS);
    expect(res.body).toEqual({
      id: expect.any(Number),
      uniqueId: '1',
      created: expect.stringMatching(RFC3339_MS_UTC),
      status: { id: b.ids.statuses.new, title: 'New', folder: { id: b.ids.folders.sales, name: 'Sales' } },
      client: null,
      contract: null,
      name: '의뢰 제목',
      estimate: '0.00',
      inquiryDate: todayIn('Asia/Seoul', new Date(res.body.created)),
      inChargeSet: [],
    });
    expect(Date.parse(res.body.created)).toBeGreaterThanOrEqual(before - 5);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it("defaults inquiryDate to today in the business's time zone, not the server's", async () => {
    // UTC+14 and UTC−11 are 25 hours apart: at any instant their calendar dates differ
    const dates: string[] = [];
    for (const timezone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
      const b = await newBusiness(t, { timezone });
      const c = await create(b);
      expect(c.inquiryDate).toBe(todayIn(timezone, new Date(c.created)));
      dates.push(c.inquiryDate);
    }
    expect(dates[0]).not.toBe(dates[1]);
  });

  it('treats null like omitted for status, name, inquiryDate and estimate', async () => {
    const b = await newBusiness(t);
    const c = await create(b, {
      status: null,
      name: null,
      inquiryDate: null,
      estimate: null,
      client: null,
      content: null,
      funnel: null,
      workSet: null,
      inChargeSet: null,
      fieldSet: null,
      fileLinkSet: null,
    });
    expect(c).toMatchObject({ status: { id: b.ids.statuses.new }, name: '의뢰 제목', estimate: '0.00', client: null });
    expect(c.inquiryDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('keeps the values sent, with the client summary and the status folder', async () => {
    const b = await newBusiness(t);
    const clientId = await createClient(t, b, {
      companyName: 'Acme Corp.',
      inCharge: 'Jane',
      position: 'CTO',
      contact: '010',
      email: 'jane@acme.example',
      content: 'not in the summary',
    });
    const c = await create(b, {
      name: 'Website renewal',
      status: { id: b.ids.statuses.lost },
      client: { id: clientId },
      estimate: '1500000',
      inquiryDate: '2026-01-31',
      inChargeSet: [{ id: b.ids.members.kim }],
    });
    expect(c).toEqual({
      id: expect.any(Number),
      uniqueId: '1',
      created: expect.any(String),
      status: { id: b.ids.statuses.lost, title: 'Lost', folder: { id: b.ids.folders.archive, name: 'Archive' } },
      client: {
        id: clientId,
        status: { id: b.ids.clientStatuses.lead, title: 'Lead' },
        companyName: 'Acme Corp.',
        inCharge: 'Jane',
        position: 'CTO',
        contact: '010',
        email: 'jane@acme.example',
      },
      contract: null,
      name: 'Website renewal',
      estimate: '1500000.00',
      inquiryDate: '2026-01-31',
      inChargeSet: [memberOf(b, 'kim')],
    });
  });

  it('renders estimate with exactly two decimals, from strings and JSON numbers', async () => {
    const b = await newBusiness(t);
    const cases: [unknown, string][] = [
      ['0', '0.00'],
      ['12.5', '12.50'],
      ['-12.34', '-12.34'],
      ['-0', '0.00'],
      ['007', '7.00'],
      [1500000, '1500000.00'],
      [0.1, '0.10'],
      [-3.25, '-3.25'],
      ['9'.repeat(28) + '.99', '9'.repeat(28) + '.99'],
      ['-' + '9'.repeat(28), '-' + '9'.repeat(28) + '.00'],
    ];
    for (const [input, output] of cases) {
      const c = await create(b, { estimate: input });
      expect(c.estimate, String(input)).toBe(output);
      expect((await get(b, `/v1/inquiry/${c.id}`)).body.estimate).toBe(output);
    }
  });

  it('keeps a 64-character name and any Unicode text', async () => {
    const b = await newBusiness(t);
    expect((await create(b, { name: 'x'.repeat(64) })).name).toBe('x'.repeat(64));
    expect((await create(b, { name: '홈페이지 리뉴얼 🚀' })).name).toBe('홈페이지 리뉴얼 🚀');
  });

  it('numbers inquiries 1, 2, 3 per business and never reuses a deleted number', async () => {
    const a = await newBusiness(t);
    const other = await newBusiness(t);
    expect((await create(a)).uniqueId).toBe('1');
    const second = await create(a);
    expect(second.uniqueId).toBe('2');
    expect((await create(other)).uniqueId).toBe('1');
    expect((await call(a, { method: 'DELETE', url: `/v1/inquiry/${second.id}` })).status).toBe(204);
    expect((await create(a)).uniqueId).toBe('3');
  });

  it('gives concurrent creates distinct numbers', async () => {
    const b = await newBusiness(t);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => call(b, { method: 'POST', url: '/v1/inquiry', body: {} })),
    );
    for (const r of results) expect(r.status).toBe(201);
    const numbers = results.map((r) => Number(r.body.uniqueId)).sort((x, y) => x - y);
    expect(numbers).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('assigns no status when the business has no catalog', async () => {
    const b = await newBusiness(t, { catalog: null });
    const c = await create(b, { name: 'Bare' });
    expect(c.status).toBeNull();
  });

  it('ignores unknown and read-only properties (id, uniqueId, created)', async () => {
    const b = await newBusiness(t);
    const c = await create(b, { id: 987654, uniqueId: 'X-1', created: '2000-01-01T00:00:00.000Z', bogus: true });
    expect(c.id).not.toBe(987654);
    expect(c.uniqueId).toBe('1');
    expect(c.created).not.toBe('2000-01-01T00:00:00.000Z');
    expect(Object.keys(c)).toEqual(CREATE_KEYS);
  });

  it('accepts a member reference carrying the other member keys (they are ignored)', async () => {
    const b = await newBusiness(t);
    const c = await create(b, { inChargeSet: [{ id: b.ids.members.kim, nickname: 'Someone else', email: 'x@y.z' }] });
    expect(c.inChargeSet).toEqual([memberOf(b, 'kim')]);
    expect((await get(b, `/v1/inquiry/${c.id}`)).body.inChargeSet).toEqual([memberOf(b, 'kim')]);
  });
});

describe('GET /v1/inquiry/{inquiry_id}', () => {
  it('answers the full shape with every nested property', async () => {
    const b = await newInquiryBusiness(t);
    const f = b.ids.fields;
    const clientId = await createClient(t, b);
    const c = await create(b, {
      name: 'Full',
      client: { id: clientId },
      content: 'A long memo',
      estimate: '42.1',
      inquiryDate: '2026-02-28',
      isHidden: true,
      funnel: {
        utmCampaign: 'spring',
        utmSource: 'google',
        utmMedium: 'cpc',
        utmContent: 'ad1',
        utmTerm: 'web design',
        guestUid: 'g-1',
        gclid: 'abc',
      },
      workSet: [{ name: 'Call back' }, { name: 'Send a quote' }],
      inChargeSet: [{ id: b.ids.members.lee }, { id: b.ids.members.kim }, { id: b.ids.members.lee }],
      fieldSet: [
        { field: { id: f.iChannel }, value: 'phone' },
        { field: { id: f.iTags }, value: 'a, b' },
        { field: { id: f.iOwner }, value: String(b.ids.members.kim) },
        { field: { id: f.budget }, value: 1200 },
        { field: { id: f.iLaunch }, value: '2026-05-01' },
        { field: { id: f.iUrgent }, value: true },
        { field: { id: f.iNote }, value: 'free text' },
      ],
      fileLinkSet: [
        { text: 'Brief', link: 'https://docs.example.com/brief' },
        { text: 'Moodboard', link: 'https://example.com/mood' },
      ],
    });
    const res = await get(b, `/v1/inquiry/${c.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(FULL_KEYS);
    const kim = memberOf(b, 'kim');
    const lee = memberOf(b, 'lee');
    expect(res.body).toEqual({
      ...c,
      content: 'A long memo',
      funnel: {
        utmCampaign: 'spring',
        utmSource: 'google',
        utmMedium: 'cpc',
        utmContent: 'ad1',
        utmTerm: 'web design',
        guestUid: 'g-1',
        gclid: 'abc',
      },
      workSet: [{ name: 'Call back' }, { name: 'Send a quote' }],
      inChargeSet: [lee, kim],
      fieldSet: [
        { field: { id: f.budget, name: 'Budget', dataType: 'N', optionSet: [], memberSet: [] }, value: '1200' },
        {
          field: {
            id: f.iChannel,
            name: 'Inquiry channel',
            dataType: 'SL',
            optionSet: [
              { id: 'web', title: 'Web' },
              { id: 'phone', title: 'Phone' },
            ],
            memberSet: [],
          },
          value: 'phone',
        },
        {
          field: {
            id: f.iTags,
            name: 'Inquiry tags',
            dataType: 'ML',
            optionSet: [
              { id: 'a', title: 'A' },
              { id: 'b', title: 'B' },
            ],
            memberSet: [],
          },
          value: 'a,b',
        },
        {
          field: { id: f.iOwner, name: 'Inquiry owner', dataType: 'M', optionSet: [], memberSet: [kim] },
          value: String(kim.id),
        },
        { field: { id: f.iLaunch, name: 'Launch', dataType: 'D', optionSet: [], memberSet: [] }, value: '2026-05-01' },
        { field: { id: f.iUrgent, name: 'Urgent', dataType: 'B', optionSet: [], memberSet: [] }, value: 'true' },
        {
          field: { id: f.iNote, name: 'Inquiry note', dataType: 'T', optionSet: [], memberSet: [] },
          value: 'free text',
        },
      ],
      fileLinkSet: [
        { id: expect.any(Number), text: 'Brief', link: 'https://docs.example.com/brief', created: c.created },
        { id: expect.any(Number), text: 'Moodboard', link: 'https://example.com/mood', created: c.created },
      ],
      fileSet: [],
      isHidden: true,
      updated: c.created,
    });
  });

  it('fills the optional properties with null or empty sets when nothing was sent', async () => {
    const b = await newBusiness(t);
    const c = await create(b);
    const res = await get(b, `/v1/inquiry/${c.id}`);
    expect(res.body).toEqual({
      ...c,
      content: null,
      funnel: {
        utmCampaign: null,
        utmSource: null,
        utmMedium: null,
        utmContent: null,
        utmTerm: null,
        guestUid: null,
        gclid: null,
      },
      workSet: [],
      inChargeSet: [],
      fieldSet: [],
      fileLinkSet: [],
      fileSet: [],
      isHidden: false,
      updated: c.created,
    });
  });

  it('shows a deleted client as null', async () => {
    const b = await newBusiness(t);
    const clientId = await createClient(t, b);
    const c = await create(b, { client: { id: clientId } });
    expect((await call(b, { method: 'DELETE', url: `/v1/client/${clientId}` })).status).toBe(204);
    expect((await get(b, `/v1/inquiry/${c.id}`)).body.client).toBeNull();
    expect((await get(b, '/v1/inquiry')).body.results[0].client).toBeNull();
  });

  it('answers 404 Not found. for an unknown id', async () => {
    const b = await newBusiness(t);
    const res = await get(b, '/v1/inquiry/2147483647');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'Not found.', code: 'not_found', requestId: res.headers['x-request-id'] });
  });
});

describe('GET /v1/inquiry — shape, order and pagination', () => {
  it('lists newest first, each item the create shape plus inChargeSet', async () => {
    const b = await newBusiness(t);
    const first = await create(b, {
      name: 'First',
      inChargeSet: [{ id: b.ids.members.kim }, { id: b.ids.members.park }],
    });
    const second = await create(b, { name: 'Second' });
    const res = await get(b, '/v1/inquiry');
    expect(res.status).toBe(200);
    expect(res.body.next).toBeNull();
    expect(res.body.previous).toBeNull();
    expect(res.body.results.map((r: { id: number }) => r.id)).toEqual([second.id, first.id]);
    for (const item of res.body.results) expect(Object.keys(item)).toEqual(LIST_KEYS);
    expect(res.body.results[1]).toEqual({ ...first, inChargeSet: [memberOf(b, 'kim'), memberOf(b, 'park')] });
    expect(res.body.results[0]).toEqual({ ...second, inChargeSet: [] });
  });

  it('breaks ties of created by id descending', async () => {
    const b = await newBusiness(t);
    const ids = [(await create(b)).id, (await create(b)).id, (await create(b)).id];
    await t.testDb.db
      .updateTable('inquiry')
      .set({ created: '2026-01-01T00:00:00.000Z' })
      .where('id', 'in', ids)
      .execute();
    expect(await listIds(b, '/v1/inquiry')).toEqual([...ids].reverse());
  });

  it('walks every page exactly once with next, and back with previous', async () => {
    const b = await newBusiness(t);
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) ids.push((await create(b, { name: `I${i}` })).id);
    const seen: number[] = [];
    let url: string | null = '/v1/inquiry?page_size=3';
    const pages: string[] = [];
    while (url) {
      pages.push(url);
      const res = await get(b, url);
      expect(res.status).toBe(200);
      seen.push(...res.body.results.map((r: { id: number }) => r.id));
      url = res.body.next ? relative(res.body.next) : null;
    }
    expect(seen).toEqual([...ids].reverse());
    const page2 = await get(b, pages[1]!);
    const back = await get(b, relative(page2.body.previous));
    expect(back.body.results.map((r: { id: number }) => r.id)).toEqual([...ids].reverse().slice(0, 3));
    expect(await listIds(b, '/v1/inquiry?limit=2')).toHaveLength(2);
  });
});

describe('GET /v1/inquiry — filters', () => {
  it('search matches name, uniqueId or client companyName, case-insensitively; repeated terms AND', async () => {
    const b = await newBusiness(t);
    const acme = await createClient(t, b, { companyName: 'ACME Holdings' });
    const byName = (await create(b, { name: 'Website Renewal' })).id;
    const byClient = (await create(b, { name: 'Other', client: { id: acme } })).id;
    const both = (await create(b, { name: 'Acme website', client: { id: acme } })).id;
    expect(await listIds(b, '/v1/inquiry?search=website')).toEqual([both, byName]);
    expect(await listIds(b, '/v1/inquiry?search=acme')).toEqual([both, byClient]);
    expect(await listIds(b, '/v1/inquiry?search=acme&search=WEBSITE')).toEqual([both]);
    const numbered = await create(b, { name: 'Numbered' });
    expect(await listIds(b, `/v1/inquiry?search=${numbered.uniqueId}&search=numbered`)).toEqual([numbered.id]);
    expect(await listIds(b, '/v1/inquiry?search=nothing-like-this')).toEqual([]);
  });

  it('search treats % and _ literally and ignores a deleted client', async () => {
    const b = await newBusiness(t);
    const pct = (await create(b, { name: '100% done' })).id;
    await create(b, { name: '1000 done' });
    expect(await listIds(b, '/v1/inquiry?search=100%25')).toEqual([pct]);
    expect(await listIds(b, '/v1/inquiry?search=_')).toEqual([]);
    const gone = await createClient(t, b, { companyName: 'Vanished Ltd.' });
    await create(b, { name: 'X', client: { id: gone } });
    await call(b, { method: 'DELETE', url: `/v1/client/${gone}` });
    expect(await listIds(b, '/v1/inquiry?search=vanished')).toEqual([]);
  });

  it('status_id and folder_id narrow to one status or to the folder of the status', async () => {
    const b = await newBusiness(t);
    const inNew = (await create(b)).id;
    const inWon = (await create(b, { status: { id: b.ids.statuses.won } })).id;
    const inLost = (await create(b, { status: { id: b.ids.statuses.lost } })).id;
    expect(await listIds(b, `/v1/inquiry?status_id=${b.ids.statuses.won}`)).toEqual([inWon]);
    expect(await listIds(b, `/v1/inquiry?folder_id=${b.ids.folders.sales}`)).toEqual([inWon, inNew]);
    expect(await listIds(b, `/v1/inquiry?folder_id=${b.ids.folders.archive}`)).toEqual([inLost]);
    expect(await listIds(b, `/v1/inquiry?folder_id=${b.ids.folders.archive}&status_id=${b.ids.statuses.won}`)).toEqual(
      [],
    );
    expect(await listIds(b, '/v1/inquiry?status_id=')).toHaveLength(3);
  });

  it('is_hidden: true/1 only hidden, false/0 only visible, omitted all', async () => {
    const b = await newBusiness(t);
    const hidden = (await create(b, { isHidden: true })).id;
    const visible = (await create(b)).id;
    expect(await listIds(b, '/v1/inquiry?is_hidden=true')).toEqual([hidden]);
    expect(await listIds(b, '/v1/inquiry?is_hidden=1')).toEqual([hidden]);
    expect(await listIds(b, '/v1/inquiry?is_hidden=false')).toEqual([visible]);
    expect(await listIds(b, '/v1/inquiry?is_hidden=0')).toEqual([visible]);
    expect(await listIds(b, '/v1/inquiry')).toEqual([visible, hidden]);
  });

  it('inquiry_date_start / inquiry_date_end are inclusive', async () => {
    const b = await newBusiness(t);
    const jan = (await create(b, { inquiryDate: '2026-01-31' })).id;
    const feb = (await create(b, { inquiryDate: '2026-02-01' })).id;
    const mar = (await create(b, { inquiryDate: '2026-03-01' })).id;
    expect(await listIds(b, '/v1/inquiry?inquiry_date_start=2026-02-01')).toEqual([mar, feb]);
    expect(await listIds(b, '/v1/inquiry?inquiry_date_end=2026-02-01')).toEqual([feb, jan]);
    expect(await listIds(b, '/v1/inquiry?inquiry_date_start=2026-01-31&inquiry_date_end=2026-01-31')).toEqual([jan]);
    expect(await listIds(b, '/v1/inquiry?inquiry_date_start=2026-02-02&inquiry_date_end=2026-02-28')).toEqual([]);
  });

  for (const timezone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
    it(`created_start / created_end are inclusive dates in the business time zone (${timezone})`, async () => {
      const b = await newBusiness(t, { timezone });
      const c = await create(b);
      const today = todayIn(timezone, new Date(c.created));
      expect(c.inquiryDate).toBe(today);
      const yesterday = prevDay(today);
      const tomorrow = nextDay(today);
      expect(await listIds(b, `/v1/inquiry?created_start=${today}&created_end=${today}`)).toEqual([c.id]);
      expect(await listIds(b, `/v1/inquiry?created_start=${yesterday}&created_end=${yesterday}`)).toEqual([]);
      expect(await listIds(b, `/v1/inquiry?created_start=${tomorrow}`)).toEqual([]);
      expect(await listIds(b, `/v1/inquiry?created_end=${yesterday}`)).toEqual([]);
    });
  }

  it('created range bounds are the business-local midnights', async () => {
    const b = await newBusiness(t, { timezone: 'Asia/Seoul' });
    const early = (await create(b)).id;
    const late = (await create(b)).id;
    const db = t.testDb.db;
    await db.updateTable('inquiry').set({ created: '2026-02-28T15:00:00.000Z' }).where('id', '=', early).execute();
    await db.updateTable('inquiry').set({ created: '2026-02-28T14:59:59.999Z' }).where('id', '=', late).execute();
    expect(await listIds(b, '/v1/inquiry?created_start=2026-03-01&created_end=2026-03-01')).toEqual([early]);
    expect(await listIds(b, '/v1/inquiry?created_start=2026-02-28&created_end=2026-02-28')).toEqual([late]);
  });

  it('combines filters and keeps them in the page links', async () => {
    const b = await newBusiness(t);
    for (let i = 0; i < 3; i++)
      await create(b, { name: `Combo ${i}`, isHidden: true, status: { id: b.ids.statuses.won } });
    await create(b, { name: 'Combo visible', status: { id: b.ids.statuses.won } });
    const res = await get(b, `/v1/inquiry?search=combo&is_hidden=true&status_id=${b.ids.statuses.won}&page_size=2`);
    expect(res.body.results).toHaveLength(2);
    const next = new URL(res.body.next);
    expect(next.searchParams.get('search')).toBe('combo');
    expect(next.searchParams.get('is_hidden')).toBe('true');
    expect((await get(b, relative(res.body.next))).body.results).toHaveLength(1);
  });
});

describe('PATCH /v1/inquiry/{inquiry_id}', () => {
  async function patch(b: TestBusiness, id: number, body: Record<string, unknown>) {
    const res = await call(b, { method: 'PATCH', url: `/v1/inquiry/${id}`, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body)).toEqual(FULL_KEYS);
    return res.body;
  }
  async function full(b: TestBusiness, id: number) {
    return (await get(b, `/v1/inquiry/${id}`)).body;
  }

  it('changes only the properties sent and answers the full shape', async () => {
    const b = await newBusiness(t);
    const c = await create(b, { name: 'Before', content: 'memo', estimate: '10', inquiryDate: '2026-01-01' });
    const before = await full(b, c.id);
    const res = await patch(b, c.id, { name: 'After', content: null, inquiryDate: '2026-02-02' });
    expect(res).toEqual({
      ...before,
      name: 'After',
      content: null,
      inquiryDate: '2026-02-02',
      updated: expect.any(String),
    });
    expect(res.updated >= before.updated).toBe(true);
    expect(await full(b, c.id)).toEqual(res);
    expect(await patch(b, c.id, {})).toEqual(res);
  });

  it('workSet, inChargeSet and fileLinkSet replace the whole set; null changes nothing; [] clears', async () => {
    const b = await newBusiness(t);
    const c = await create(b, {
      workSet: [{ name: 'A' }, { name: 'B' }],
      inChargeSet: [{ id: b.ids.members.kim }],
      fileLinkSet: [{ text: 'One', link: 'https://one.example' }],
    });
    let res = await patch(b, c.id, {
      workSet: [{ name: 'C' }],
      inChargeSet: [{ id: b.ids.members.lee }, { id: b.ids.members.park }],
      fileLinkSet: [
        { text: 'Two', link: 'https://two.example' },
        { text: 'Three', link: 'https://three.example' },
      ],
    });
    expect(res.workSet).toEqual([{ name: 'C' }]);
    expect(res.inChargeSet).toEqual([memberOf(b, 'lee'), memberOf(b, 'park')]);
    expect(res.fileLinkSet.map((l: { text: string }) => l.text)).toEqual(['Two', 'Three']);
    res = await patch(b, c.id, { workSet: null, inChargeSet: null, fileLinkSet: null, name: 'Only the name' });
    expect(res.workSet).toEqual([{ name: 'C' }]);
    expect(res.inChargeSet).toHaveLength(2);
    expect(res.fileLinkSet).toHaveLength(2);
    res = await patch(b, c.id, { workSet: [], inChargeSet: [], fileLinkSet: [] });
    expect(res).toMatchObject({ workSet: [], inChargeSet: [], fileLinkSet: [] });
  });

  it('fieldSet sets the fields it names, keeps the others, and an empty value clears one', async () => {
    const b = await newInquiryBusiness(t);
    const f = b.ids.fields;
    const c = await create(b, {
      fieldSet: [
        { field: { id: f.iChannel }, value: 'web' },
        { field: { id: f.iNote }, value: 'keep me' },
        { field: { id: f.budget }, value: '10' },
      ],
    });
    const res = await patch(b, c.id, {
      fieldSet: [
        { field: { id: f.iChannel }, value: 'phone' },
        { field: { id: f.budget }, value: '' },
        { field: { id: f.iUrgent }, value: 'false' },
      ],
    });
    expect(res.fieldSet.map((v: { field: { id: number }; value: string }) => [v.field.id, v.value])).toEqual([
      [f.iChannel, 'phone'],
      [f.iUrgent, 'false'],
      [f.iNote, 'keep me'],
    ]);
    expect((await patch(b, c.id, { fieldSet: null })).fieldSet).toHaveLength(3);
    expect((await patch(b, c.id, { fieldSet: [] })).fieldSet).toHaveLength(3);
  });

  it('funnel sets the keys it names; a key sent as null clears it; funnel null clears all', async () => {
    const b = await newBusiness(t);
    const c = await create(b, { funnel: { utmSource: 'google', utmMedium: 'cpc', gclid: 'g1' } });
    let res = await patch(b, c.id, { funnel: { utmMedium: 'email', gclid: null, utmTerm: 'design' } });
    expect(res.funnel).toEqual({
      utmCampaign: null,
      utmSource: 'google',
      utmMedium: 'email',
      utmContent: null,
      utmTerm: 'design',
      guestUid: null,
      gclid: null,
    });
    res = await patch(b, c.id, { funnel: null });
    expect(Object.values(res.funnel).every((v) => v === null)).toBe(true);
  });

  it('links, changes and unlinks the client; sets estimate, hidden flag and status', async () => {
    const b = await newBusiness(t);
    const one = await createClient(t, b, { companyName: 'One' });
    const two = await createClient(t, b, { companyName: 'Two' });
    const c = await create(b, { client: { id: one } });
    expect((await patch(b, c.id, { client: { id: two } })).client).toMatchObject({ id: two, companyName: 'Two' });
    expect((await patch(b, c.id, { client: null })).client).toBeNull();
    expect((await patch(b, c.id, { estimate: '123.4' })).estimate).toBe('123.40');
    expect((await patch(b, c.id, { estimate: null })).estimate).toBe('0.00');
    expect((await patch(b, c.id, { isHidden: true })).isHidden).toBe(true);
    expect((await patch(b, c.id, { isHidden: false })).isHidden).toBe(false);
    expect((await patch(b, c.id, { status: { id: b.ids.statuses.lost } })).status).toEqual({
      id: b.ids.statuses.lost,
      title: 'Lost',
      folder: { id: b.ids.folders.archive, name: 'Archive' },
    });
  });

  it('ignores unknown and read-only properties', async () => {
    const b = await newBusiness(t);
    const c = await create(b);
    const before = await full(b, c.id);
    const res = await patch(b, c.id, {
      id: 5,
      uniqueId: '999',
      created: '2000-01-01T00:00:00Z',
      fileSet: [],
      bogus: 1,
    });
    expect(res).toEqual(before);
  });
});

describe('DELETE /v1/inquiry/{inquiry_id}', () => {
  it('answers 204 with no body; afterwards every read answers 404 and the lists drop it', async () => {
    const b = await newBusiness(t);
    const keep = await create(b, { name: 'Keep' });
    const drop = await create(b, { name: 'Drop', workSet: [{ name: 'Task of a deleted inquiry' }] });
    const res = await call(b, { method: 'DELETE', url: `/v1/inquiry/${drop.id}` });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect((await get(b, `/v1/inquiry/${drop.id}`)).status).toBe(404);
    expect((await call(b, { method: 'DELETE', url: `/v1/inquiry/${drop.id}` })).status).toBe(404);
    expect(await listIds(b, '/v1/inquiry')).toEqual([keep.id]);
    expect(await listIds(b, '/v1/inquiry?search=drop')).toEqual([]);
    expect((await get(b, '/v1/inquiry/work')).body.results).toEqual([]);
  });
});

describe('GET /v1/inquiry/work', () => {
  it('lists the tasks of every live inquiry, newest first, with their inquiry', async () => {
    const b = await newBusiness(t);
    const a = await create(b, { name: 'Alpha', workSet: [{ name: 'a1' }, { name: 'a2' }] });
    const z = await create(b, { name: 'Zulu', workSet: [{ name: 'z1' }] });
    await create(b, { name: 'No tasks' });
    const res = await get(b, '/v1/inquiry/work');
    expect(res.status).toBe(200);
    const aRef = { id: a.id, uniqueId: a.uniqueId, name: 'Alpha' };
    expect(res.body.results).toEqual([
      {
        id: expect.any(Number),
        name: 'z1',
        inquiry: { id: z.id, uniqueId: z.uniqueId, name: 'Zulu' },
        created: z.created,
      },
      { id: expect.any(Number), name: 'a2', inquiry: aRef, created: a.created },
      { id: expect.any(Number), name: 'a1', inquiry: aRef, created: a.created },
    ]);
    for (const item of res.body.results) expect(Object.keys(item)).toEqual(['id', 'name', 'inquiry', 'created']);
  });

  it('pages, and follows a workSet replacement', async () => {
    const b = await newBusiness(t);
    const c = await create(b, { workSet: [{ name: 'w1' }, { name: 'w2' }, { name: 'w3' }] });
    const first = await get(b, '/v1/inquiry/work?page_size=2');
    expect(first.body.results).toHaveLength(2);
    const second = await get(b, relative(first.body.next));
    expect(second.body.results).toHaveLength(1);
    await call(b, { method: 'PATCH', url: `/v1/inquiry/${c.id}`, body: { workSet: [{ name: 'only' }] } });
    expect((await get(b, '/v1/inquiry/work')).body.results.map((w: { name: string }) => w.name)).toEqual(['only']);
  });
});

describe('body encodings', () => {
  it('JSON, urlencoded (dot and bracket notation) and multipart give the same inquiry', async () => {
    const b = await newBusiness(t);
    const clientId = await createClient(t, b);
    const json = {
      name: 'Encoded',
      estimate: '12.5',
      isHidden: true,
      client: { id: clientId },
      inChargeSet: [{ id: b.ids.members.kim }],
      workSet: [{ name: 'w' }],
      funnel: { utmSource: 'google' },
      fileLinkSet: [{ text: 't', link: 'https://l.example' }],
      fieldSet: [{ field: { id: b.ids.fields.budget }, value: '7' }],
    };
    const dots = {
      name: 'Encoded',
      estimate: '12.5',
      isHidden: 'true',
      'client.id': String(clientId),
      'inChargeSet[0].id': String(b.ids.members.kim),
      'workSet[0].name': 'w',
      'funnel.utmSource': 'google',
      'fileLinkSet[0].text': 't',
      'fileLinkSet[0].link': 'https://l.example',
      'fieldSet[0].field.id': String(b.ids.fields.budget),
      'fieldSet[0].value': '7',
    };
    const brackets = Object.fromEntries(Object.entries(dots).map(([k, v]) => [k.replace(/\.(\w+)/g, '[$1]'), v]));
    const strip = (x: Record<string, unknown>) => ({
      ...x,
      id: 0,
      uniqueId: '',
      created: '',
      updated: '',
      fileLinkSet: (x.fileLinkSet as any[]).map((l) => ({ ...l, id: 0, created: '' })),
    });
    const shapes = [];
    for (const req of [
      { body: json },
      { body: dots, form: 'urlencoded' as const },
      { body: brackets, form: 'urlencoded' as const },
      { body: dots, form: 'multipart' as const },
    ]) {
      const res = await call(b, { method: 'POST', url: '/v1/inquiry', ...req });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      shapes.push(strip((await get(b, `/v1/inquiry/${res.body.id}`)).body));
    }
    for (const s of shapes.slice(1)) expect(s).toEqual(shapes[0]);
    expect(shapes[0]).toMatchObject({ isHidden: true, estimate: '12.50', inChargeSet: [memberOf(b, 'kim')] });
  });

  it('a form PATCH coerces booleans and changes only what it names', async () => {
    const b = await newBusiness(t);
    const c = await create(b, { name: 'Form', isHidden: true });
    const res = await call(b, {
      method: 'PATCH',
      url: `/v1/inquiry/${c.id}`,
      body: { isHidden: 'false', 'status[id]': String(b.ids.statuses.won) },
      form: 'urlencoded',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ name: 'Form', isHidden: false, status: { id: b.ids.statuses.won } });
  });
});

describe('wire conventions', () => {
  it('tolerates a trailing slash on every inquiry path', async () => {
    const b = await newBusiness(t);
    const posted = await call(b, { method: 'POST', url: '/v1/inquiry/', body: { name: 'Slash' } });
    expect(posted.status).toBe(201);
    expect((await get(b, `/v1/inquiry/${posted.body.id}/`)).status).toBe(200);
    expect((await get(b, '/v1/inquiry/')).status).toBe(200);
    expect((await get(b, '/v1/inquiry/work/')).status).toBe(200);
    expect((await get(b, `/v1/inquiry/${posted.body.id}/status_history/`)).status).toBe(200);
  });
});

describe('notification events (decisions §8) written with the change', () => {
  async function outbox(b: TestBusiness) {
    return t.testDb.db
      .selectFrom('notification_outbox')
      .select(['event_type', 'member_id', 'inquiry_id', 'payload'])
      .where('business_id', '=', b.businessId)
      .orderBy('id')
      .execute();
  }

  it('create with inChargeSet: inquiry.created to the active members with notifications on', async () => {
    const b = await newBusiness(t);
    const c = await create(b, {
      inChargeSet: [{ id: b.ids.members.kim }, { id: b.ids.members.lee }, { id: b.ids.members.park }],
    });
    // lee has notifications off, park is inactive.
    expect(await outbox(b)).toEqual([
      { event_type: 'inquiry.created', member_id: b.ids.members.kim, inquiry_id: c.id, payload: '{}' },
    ]);
    await create(b, { name: 'Nobody in charge' });
    expect(await outbox(b)).toHaveLength(1);
  });

  it('status change: inquiry.status_changed to the responsible members; the same status again sends nothing', async () => {
    const b = await newBusiness(t);
    const c = await create(b, { inChargeSet: [{ id: b.ids.members.lee }] });
    await call(b, {
      method: 'PATCH',
      url: `/v1/inquiry/${c.id}`,
      body: { inChargeSet: [{ id: b.ids.members.lee }, { id: b.ids.members.kim }] },
    });
    const before = (await outbox(b)).length;
    await call(b, { method: 'PATCH', url: `/v1/inquiry/${c.id}`, body: { status: { id: b.ids.statuses.won } } });
    const rows = await outbox(b);
    expect(rows.slice(before)).toEqual([
      {
        event_type: 'inquiry.status_changed',
        member_id: b.ids.members.kim,
        inquiry_id: c.id,
        payload: JSON.stringify({ statusId: b.ids.statuses.won, previousStatusId: b.ids.statuses.new }),
      },
    ]);
    await call(b, { method: 'PATCH', url: `/v1/inquiry/${c.id}`, body: { status: { id: b.ids.statuses.won } } });
    expect(await outbox(b)).toHaveLength(rows.length);
  });

  it('inChargeSet gains members: inquiry.in_charge_added to the new ones only', async () => {
    const b = await newBusiness(t);
    const c = await create(b, { inChargeSet: [{ id: b.ids.members.lee }] });
    expect(await outbox(b)).toEqual([]);
    await call(b, {
      method: 'PATCH',
      url: `/v1/inquiry/${c.id}`,
      body: { inChargeSet: [{ id: b.ids.members.lee }, { id: b.ids.members.kim }] },
    });
    expect(await outbox(b)).toEqual([
      { event_type: 'inquiry.in_charge_added', member_id: b.ids.members.kim, inquiry_id: c.id, payload: '{}' },
    ]);
    await call(b, { method: 'PATCH', url: `/v1/inquiry/${c.id}`, body: { inChargeSet: [{ id: b.ids.members.kim }] } });
    expect(await outbox(b)).toHaveLength(1);
  });

  it('a rejected change writes no event', async () => {
    const b = await newBusiness(t);
    const c = await create(b);
    const res = await call(b, {
      method: 'PATCH',
      url: `/v1/inquiry/${c.id}`,
      body: { inChargeSet: [{ id: b.ids.members.kim }], status: { id: 999999 } },
    });
    expect(res.status).toBe(400);
    expect(await outbox(b)).toEqual([]);
    expect((await get(b, `/v1/inquiry/${c.id}`)).body.inChargeSet).toEqual([]);
  });
});
