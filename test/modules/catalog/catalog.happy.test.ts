/**
 * The read-only catalogs, the successful paths (spec: Member, Custom field, Inquiry status and folder;
 * reference: Member, folder, field, `GET /v1/client/status`, `/v1/contract/category`, `/v1/settlement/type`;
 * decisions §4 order, §5 filters, §7): exact shapes, orders, filters and paging.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCatalog } from '../../../src/modules/catalog/catalog-import.ts';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness, testCatalog } from '../../setup/factories.ts';
import { apiClient } from '../../setup/api-client.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const api = apiClient(() => t.app);
async function get(b: TestBusiness, url: string) {
  const res = await api.get(b, url);
  expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}
/** Results of a paged list, after checking the envelope of a single page. */
async function onePage(b: TestBusiness, url: string): Promise<Record<string, unknown>[]> {
  const body = await get(b, url);
  expect(Object.keys(body)).toEqual(['next', 'previous', 'results']);
  expect(body.next).toBeNull();
  expect(body.previous).toBeNull();
  return body.results;
}
const ids = (rows: Record<string, unknown>[]) => rows.map((r) => r.id);
/** Every row of a paged list, following `next` from `url`. */
async function walk(b: TestBusiness, url: string): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  let link: string | null = url;
  while (link) {
    const body = await get(b, link);
    rows.push(...body.results);
    link = body.next === null ? null : `${new URL(body.next).pathname}${new URL(body.next).search}`;
  }
  return rows;
}

function members(b: TestBusiness) {
  const g = b.ids.grades;
  const m = b.ids.members;
  return {
    kim: {
      id: m.kim,
      nickname: 'Kim',
      email: 'kim@example.com',
      isActive: true,
      grade: { id: g.owner, title: 'Owner' },
    },
    lee: {
      id: m.lee,
      nickname: 'Lee',
      email: 'lee@example.com',
      isActive: true,
      grade: { id: g.staff, title: 'Staff' },
    },
    park: {
      id: m.park,
      nickname: null,
      email: 'park@sample.org',
      isActive: false,
      grade: { id: g.staff, title: 'Staff' },
    },
  };
}

describe('GET /v1/member', () => {
  it('lists every member with exactly five keys, newest first', async () => {
    const b = await newBusiness(t);
    const { kim, lee, park } = members(b);
    const rows = await onePage(b, '/v1/member');
    for (const r of rows) expect(Object.keys(r)).toEqual(['id', 'nickname', 'email', 'isActive', 'grade']);
    // One import writes one `created`; ties go by id descending.
    expect(rows).toEqual([park, lee, kim]);
    // `created` decides before the id.
    await t.testDb.db
      .updateTable('member')
      .set({ created: '2099-01-01T00:00:00.000Z' })
      .where('id', '=', kim.id!)
      .execute();
    expect(await onePage(b, '/v1/member')).toEqual([kim, park, lee]);
  });

  it('search matches nickname or e-mail, case-insensitively; repeated terms all must match', async () => {
    const catalog = testCatalog();
    catalog.members!.push({
      key: 'choi',
      nickname: 'Choi Dev',
      email: 'x1@corp.example',
      isActive: true,
      grade: 'staff',
    });
    const b = await newBusiness(t, { catalog });
    const { kim, lee, park } = members(b);
    const choi = b.ids.members.choi;
    expect(ids(await onePage(b, '/v1/member?search=KIM'))).toEqual([kim.id]);
    expect(ids(await onePage(b, '/v1/member?search=dev'))).toEqual([choi]);
    expect(ids(await onePage(b, '/v1/member?search=CORP.example'))).toEqual([choi]);
    expect(ids(await onePage(b, '/v1/member?search=sample.org'))).toEqual([park.id]);
    expect(ids(await onePage(b, '/v1/member?search=example.com'))).toEqual([lee.id, kim.id]);
    expect(ids(await onePage(b, '/v1/member?search=example.com&search=lee'))).toEqual([lee.id]);
    expect(ids(await onePage(b, '/v1/member?search=nobody'))).toEqual([]);
    expect(ids(await onePage(b, '/v1/member?search=%25'))).toEqual([]);
  });

  it('is_active: true/1 only active, false/0 only inactive, omitted all', async () => {
    const b = await newBusiness(t);
    const { kim, lee, park } = members(b);
    expect(ids(await onePage(b, '/v1/member?is_active=true'))).toEqual([lee.id, kim.id]);
    expect(ids(await onePage(b, '/v1/member?is_active=1'))).toEqual([lee.id, kim.id]);
    expect(ids(await onePage(b, '/v1/member?is_active=false'))).toEqual([park.id]);
    expect(ids(await onePage(b, '/v1/member?is_active=0'))).toEqual([park.id]);
    expect(ids(await onePage(b, '/v1/member?is_active=false&search=kim'))).toEqual([]);
    expect(ids(await onePage(b, '/v1/member'))).toEqual([park.id, lee.id, kim.id]);
  });

  it('pages with page_size / limit and links that keep the filters', async () => {
    const b = await newBusiness(t);
    const { kim, lee, park } = members(b);
    const first = await get(b, '/v1/member?page_size=2&search=e');
    expect(ids(first.results)).toEqual([park.id, lee.id]);
    expect(new URL(first.next).searchParams.get('search')).toBe('e');
    expect(ids(await walk(b, '/v1/member?limit=1'))).toEqual([park.id, lee.id, kim.id]);
  });
});

describe('GET /v1/field', () => {
  it('lists fields newest first; optionSet only for SL / ML, memberSet only for M', async () => {
    const b = await newBusiness(t);
    const f = b.ids.fields;
    const { kim, lee } = members(b);
    const rows = await onePage(b, '/v1/field');
    for (const r of rows) expect(Object.keys(r)).toEqual(['id', 'name', 'dataType', 'optionSet', 'memberSet']);
    expect(rows).toEqual([
      { id: f.po, name: 'PO number', dataType: 'S', optionSet: [], memberSet: [] },
      { id: f.budget, name: 'Budget', dataType: 'N', optionSet: [], memberSet: [] },
      { id: f.note, name: 'Note', dataType: 'S', optionSet: [], memberSet: [] },
      { id: f.vip, name: 'VIP', dataType: 'B', optionSet: [], memberSet: [] },
      { id: f.since, name: 'Customer since', dataType: 'D', optionSet: [], memberSet: [] },
      { id: f.employees, name: 'Employees', dataType: 'N', optionSet: [], memberSet: [] },
      { id: f.owner, name: 'Owner', dataType: 'M', optionSet: [], memberSet: [kim, lee] },
      {
        id: f.tags,
        name: 'Tags',
        dataType: 'ML',
        optionSet: [
          { id: 'a', title: 'A' },
          { id: 'b', title: 'B' },
        ],
        memberSet: [],
      },
      {
        id: f.channel,
        name: 'Channel',
        dataType: 'SL',
        optionSet: [
          { id: 'web', title: 'Web' },
          { id: 'phone', title: 'Phone' },
        ],
        memberSet: [],
      },
    ]);
  });

  it('category narrows to one record kind', async () => {
    const b = await newBusiness(t);
    const f = b.ids.fields;
    expect(ids(await onePage(b, '/v1/field?category=C'))).toEqual([
      f.note,
      f.vip,
      f.since,
      f.employees,
      f.owner,
      f.tags,
      f.channel,
    ]);
    expect(ids(await onePage(b, '/v1/field?category=I'))).toEqual([f.budget]);
    expect(ids(await onePage(b, '/v1/field?category=CO'))).toEqual([f.po]);
  });

  it('pages', async () => {
    const b = await newBusiness(t);
    const first = await get(b, '/v1/field?category=C&page_size=3');
    expect(first.results).toHaveLength(3);
    expect(new URL(first.next).searchParams.get('category')).toBe('C');
    const all = await walk(b, '/v1/field?category=C&page_size=3');
    expect(all).toHaveLength(7);
    expect(new Set(ids(all)).size).toBe(7);
  });
});

describe('GET /v1/inquiry/status', () => {
  it('lists statuses with their folder in configured order', async () => {
    const b = await newBusiness(t);
    const s = b.ids.statuses;
    const sales = { id: b.ids.folders.sales, name: 'Sales' };
    const archive = { id: b.ids.folders.archive, name: 'Archive' };
    const rows = await onePage(b, '/v1/inquiry/status');
    for (const r of rows) expect(Object.keys(r)).toEqual(['id', 'title', 'folder']);
    expect(rows).toEqual([
      { id: s.new, title: 'New', folder: sales },
      { id: s.won, title: 'Won', folder: sales },
      { id: s.lost, title: 'Lost', folder: archive },
    ]);
    // The configured position decides, not the id.
    await t.testDb.db.updateTable('inquiry_status').set({ position: 1000 }).where('id', '=', s.new!).execute();
    expect(ids(await onePage(b, '/v1/inquiry/status'))).toEqual([s.won, s.lost, s.new]);
  });

  it('folder_id narrows to one folder', async () => {
    const b = await newBusiness(t);
    const s = b.ids.statuses;
    expect(ids(await onePage(b, `/v1/inquiry/status?folder_id=${b.ids.folders.sales}`))).toEqual([s.new, s.won]);
    expect(ids(await onePage(b, `/v1/inquiry/status?folder_id=${b.ids.folders.archive}`))).toEqual([s.lost]);
    expect(ids(await onePage(b, '/v1/inquiry/status?folder_id=2147483647'))).toEqual([]);
  });

  it('pages in configured order', async () => {
    const b = await newBusiness(t);
    const s = b.ids.statuses;
    const first = await get(b, '/v1/inquiry/status?page_size=2');
    expect(ids(first.results)).toEqual([s.new, s.won]);
    expect(ids(await walk(b, '/v1/inquiry/status?page_size=2'))).toEqual([s.new, s.won, s.lost]);
    expect(ids(await walk(b, '/v1/inquiry/status?limit=1'))).toEqual([s.new, s.won, s.lost]);
  });
});

describe('GET /v1/folder', () => {
  it('answers a plain array: the default folder first, then newest first', async () => {
    const b = await newBusiness(t);
    const f = b.ids.folders;
    const body = await get(b, '/v1/folder');
    expect(body).toEqual([
      { id: f.sales, name: 'Sales', isDefault: true },
      { id: f.archive, name: 'Archive', isDefault: false },
    ]);
    for (const r of body) expect(Object.keys(r)).toEqual(['id', 'name', 'isDefault']);
    const later = await importCatalog(t.testDb.db, b.businessId, {
      folders: [{ key: 'later', name: 'Later', statuses: [] }],
    });
    expect(ids(await get(b, '/v1/folder'))).toEqual([f.sales, later.folders.later, f.archive]);
    // `created` decides before the id; the default folder stays first even when it is the oldest.
    await t.testDb.db
      .updateTable('folder')
      .set({ created: '2099-01-01T00:00:00.000Z' })
      .where('id', '=', f.archive!)
      .execute();
    await t.testDb.db
      .updateTable('folder')
      .set({ created: '2000-01-01T00:00:00.000Z' })
      .where('id', '=', f.sales!)
      .execute();
    expect(ids(await get(b, '/v1/folder'))).toEqual([f.sales, f.archive, later.folders.later]);
  });

  it('search matches the name case-insensitively; % is literal', async () => {
    const b = await newBusiness(t);
    const f = b.ids.folders;
    expect(await get(b, '/v1/folder?search=ARCH')).toEqual([{ id: f.archive, name: 'Archive', isDefault: false }]);
    expect(ids(await get(b, '/v1/folder?search=s'))).toEqual([f.sales]);
    expect(ids(await get(b, '/v1/folder?search=a'))).toEqual([f.sales, f.archive]);
    expect(ids(await get(b, '/v1/folder?search=a&search=chi'))).toEqual([f.archive]);
    expect(await get(b, '/v1/folder?search=%25')).toEqual([]);
    expect(await get(b, '/v1/folder?search=nothing')).toEqual([]);
  });
});

describe('GET /v1/client/status', () => {
  it('lists {id, title} in configured order, paged', async () => {
    const b = await newBusiness(t);
    const c = b.ids.clientStatuses;
    expect(await onePage(b, '/v1/client/status')).toEqual([
      { id: c.lead, title: 'Lead' },
      { id: c.customer, title: 'Customer' },
    ]);
    const first = await get(b, '/v1/client/status?page_size=1');
    expect(first.results).toEqual([{ id: c.lead, title: 'Lead' }]);
    expect(first.next).toMatch(/^https?:\/\/[^/]+\/v1\/client\/status\?/);
    expect(first.previous).toBeNull();
    const second = await get(b, `${new URL(first.next).pathname}${new URL(first.next).search}`);
    expect(second.results).toEqual([{ id: c.customer, title: 'Customer' }]);
    expect(second.next).toBeNull();
    const back = await get(b, `${new URL(second.previous).pathname}${new URL(second.previous).search}`);
    expect(back.results).toEqual([{ id: c.lead, title: 'Lead' }]);
  });
});

describe('GET /v1/contract/category', () => {
  it('lists {id, title} newest first, paged, with search on the title', async () => {
    const b = await newBusiness(t);
    const c = b.ids.contractCategories;
    const rows = await onePage(b, '/v1/contract/category');
    expect(rows).toEqual([
      { id: c.design, title: 'Design' },
      { id: c.web, title: 'Web development' },
    ]);
    expect(await onePage(b, '/v1/contract/category?search=WEB')).toEqual([{ id: c.web, title: 'Web development' }]);
    expect(ids(await onePage(b, '/v1/contract/category?search=e&search=sign'))).toEqual([c.design]);
    expect(await onePage(b, '/v1/contract/category?search=_')).toEqual([]);
    const first = await get(b, '/v1/contract/category?page_size=1&search=e');
    expect(ids(first.results)).toEqual([c.design]);
    expect(new URL(first.next).searchParams.get('search')).toBe('e');
    expect(ids(await walk(b, '/v1/contract/category?page_size=1'))).toEqual([c.design, c.web]);
  });
});

describe('GET /v1/settlement/type', () => {
  it('answers a plain array in catalog order with all five keys', async () => {
    const b = await newBusiness(t);
    const s = b.ids.settlementTypes;
    const body = await get(b, '/v1/settlement/type');
    expect(body).toEqual([
      { id: s.ini, baseType: 'INI', category: 'I', title: 'Down payment', allowsMultipleRounds: false },
      { id: s.sub, baseType: 'SUB', category: 'I', title: 'Round', allowsMultipleRounds: true },
    ]);
    for (const r of body)
      expect(Object.keys(r)).toEqual(['id', 'baseType', 'category', 'title', 'allowsMultipleRounds']);
  });
});

describe('a business without any catalog', () => {
  it('gets empty lists everywhere', async () => {
    const b = await newBusiness(t, { catalog: null });
    for (const url of ['/v1/member', '/v1/field', '/v1/inquiry/status', '/v1/client/status', '/v1/contract/category']) {
      expect(await get(b, url), url).toEqual({ next: null, previous: null, results: [] });
    }
    expect(await get(b, '/v1/folder')).toEqual([]);
    expect(await get(b, '/v1/settlement/type')).toEqual([]);
  });
});

describe('trailing slash', () => {
  it('every catalog path answers with a trailing slash too', async () => {
    const b = await newBusiness(t);
    for (const url of [
      '/v1/member/',
      '/v1/field/',
      '/v1/inquiry/status/',
      '/v1/folder/',
      '/v1/client/status/',
      '/v1/contract/category/',
      '/v1/settlement/type/',
    ]) {
      await get(b, url);
    }
  });
});
