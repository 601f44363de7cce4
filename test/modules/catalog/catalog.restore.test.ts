/**
 * Restore entry points of the catalogs (src/modules/catalog/catalog-restore.ts, src/shared/restore.ts,
 * docs/deployment.md#11-moving-a-business-in-and-out): business A's catalog, read through the API, is restored
 * into an empty business B; B's catalog endpoints then answer A's JSON (ids through the restore's id map, since
 * A holds every one of its own ids in this database); a second run with the target ids is `unchanged` throughout.
 * Also: ids kept where free (and PostgreSQL's identity moved past them), in-place updates, re-creation of a
 * missing target row, defaults given to new clients and inquiries, custom field values, bad references.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as catalog from '../../../src/modules/catalog/catalog.service.ts';
import * as clients from '../../../src/modules/client/client.service.ts';
import { ValidationError } from '../../../src/shared/errors.ts';
import type { RestoreResult } from '../../../src/shared/restore.ts';
import { apiClient } from '../../setup/api-client.ts';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const api = apiClient(() => t.app);
type Json = any;

async function get(b: TestBusiness, url: string): Promise<Json> {
  const res = await api.get(b, url);
  expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}
/** Every item of a paged list (page size 100, following `next`). */
async function all(b: TestBusiness, url: string): Promise<Json[]> {
  const out: Json[] = [];
  let link: string | null = `${url}${url.includes('?') ? '&' : '?'}page_size=100`;
  while (link) {
    const body = await get(b, link);
    out.push(...body.results);
    link = body.next === null ? null : `${new URL(body.next).pathname}${new URL(body.next).search}`;
  }
  return out;
}

/** The catalog as the API answers it, plus the worker position nested in a worker made for the purpose. */
async function readCatalog(b: TestBusiness, positionWorkerId: number) {
  return {
    members: await all(b, '/v1/member'),
    fields: await all(b, '/v1/field'),
    fieldsByCategory: {
      I: await all(b, '/v1/field?category=I'),
      C: await all(b, '/v1/field?category=C'),
      CO: await all(b, '/v1/field?category=CO'),
    },
    statuses: await all(b, '/v1/inquiry/status'),
    folders: await get(b, '/v1/folder'),
    clientStatuses: await all(b, '/v1/client/status'),
    contractCategories: await all(b, '/v1/contract/category'),
    settlementTypes: await get(b, '/v1/settlement/type'),
    classifications: await all(b, '/v1/estimate/item/classification'),
    position: (await get(b, `/v1/worker/${positionWorkerId}`)).position,
  };
}
type Catalog = Awaited<ReturnType<typeof readCatalog>>;

/** Source id → target id, per catalog. */
type IdMap = Record<
  | 'grade'
  | 'member'
  | 'folder'
  | 'status'
  | 'clientStatus'
  | 'field'
  | 'category'
  | 'settlementType'
  | 'position'
  | 'classification',
  Map<number, number>
>;
const newIdMap = (): IdMap => ({
  grade: new Map(),
  member: new Map(),
  folder: new Map(),
  status: new Map(),
  clientStatus: new Map(),
  field: new Map(),
  category: new Map(),
  settlementType: new Map(),
  position: new Map(),
  classification: new Map(),
});
const to = (map: Map<number, number>, id: number): number => {
  const v = map.get(id);
  if (v === undefined) throw new Error(`no target id for ${id}`);
  return v;
};

/** A's catalog JSON with every id replaced by B's. */
function mapCatalog(c: Catalog, m: IdMap): Catalog {
  const member = (x: Json) => ({ ...x, id: to(m.member, x.id), grade: { ...x.grade, id: to(m.grade, x.grade.id) } });
  const field = (x: Json) => ({ ...x, id: to(m.field, x.id), memberSet: x.memberSet.map(member) });
  const idTitle = (map: Map<number, number>) => (x: Json) => ({ ...x, id: to(map, x.id) });
  return {
    members: c.members.map(member),
    fields: c.fields.map(field),
    fieldsByCategory: {
      I: c.fieldsByCategory.I.map(field),
      C: c.fieldsByCategory.C.map(field),
      CO: c.fieldsByCategory.CO.map(field),
    },
    statuses: c.statuses.map((x: Json) => ({
      ...x,
      id: to(m.status, x.id),
      folder: { ...x.folder, id: to(m.folder, x.folder.id) },
    })),
    folders: c.folders.map(idTitle(m.folder)),
    clientStatuses: c.clientStatuses.map(idTitle(m.clientStatus)),
    contractCategories: c.contractCategories.map(idTitle(m.category)),
    settlementTypes: c.settlementTypes.map(idTitle(m.settlementType)),
    classifications: c.classifications.map(idTitle(m.classification)),
    position: { ...c.position, id: to(m.position, c.position.id) },
  };
}

/**
 * Restores catalog `c` (read from the source) into `businessId` the way the transfer module does: grades before
 * members, folders before statuses, members before fields; newest-first lists oldest first so that new ids keep
 * their order. `map` is filled on the first run and passed as `targetId` on later ones. Returns every outcome.
 */
async function restoreCatalog(businessId: number, c: Catalog, map: IdMap): Promise<RestoreResult['outcome'][]> {
  const outcomes: RestoreResult['outcome'][] = [];
  const db = t.testDb.db;
  const run = async (
    ids: Map<number, number>,
    sourceId: number,
    fn: (targetId: number | undefined) => Promise<RestoreResult>,
  ) => {
    const r = await fn(ids.get(sourceId));
    ids.set(sourceId, r.id);
    outcomes.push(r.outcome);
  };
  const grades = new Map<number, { id: number; title: string }>();
  for (const x of c.members) grades.set(x.grade.id, x.grade);
  for (const g of [...grades.values()].sort((a, b) => a.id - b.id)) {
    await run(map.grade, g.id, (targetId) => catalog.restoreGrade(db, businessId, g, { targetId }));
  }
  for (const x of [...c.members].reverse()) {
    await run(map.member, x.id, (targetId) =>
      catalog.restoreMember(
        db,
        businessId,
        { ...x, grade: { ...x.grade, id: to(map.grade, x.grade.id) } },
        { targetId },
      ),
    );
  }
  for (const x of [...c.folders].reverse())
    await run(map.folder, x.id, (targetId) => catalog.restoreFolder(db, businessId, x, { targetId }));
  for (const x of c.statuses) {
    await run(map.status, x.id, (targetId) =>
      catalog.restoreInquiryStatus(
        db,
        businessId,
        { ...x, folder: { ...x.folder, id: to(map.folder, x.folder.id) } },
        { targetId },
      ),
    );
  }
  for (const x of c.clientStatuses)
    await run(map.clientStatus, x.id, (targetId) => catalog.restoreClientStatus(db, businessId, x, { targetId }));
  const categoryOf = new Map<number, 'I' | 'C' | 'CO'>();
  for (const k of ['I', 'C', 'CO'] as const) for (const f of c.fieldsByCategory[k]) categoryOf.set(f.id, k);
  for (const x of [...c.fields].reverse()) {
    const shape = {
      ...x,
      category: categoryOf.get(x.id)!,
      memberSet: x.memberSet.map((mm: Json) => ({ ...mm, id: to(map.member, mm.id) })),
    };
    await run(map.field, x.id, (targetId) => catalog.restoreField(db, businessId, shape, { targetId }));
  }
  for (const x of [...c.contractCategories].reverse()) {
    await run(map.category, x.id, (targetId) => catalog.restoreContractCategory(db, businessId, x, { targetId }));
  }
  for (const x of c.settlementTypes)
    await run(map.settlementType, x.id, (targetId) => catalog.restoreSettlementType(db, businessId, x, { targetId }));
  await run(map.position, c.position.id, (targetId) =>
    catalog.restoreWorkerPosition(db, businessId, c.position, { targetId }),
  );
  for (const x of c.classifications) {
    await run(map.classification, x.id, (targetId) =>
      catalog.restoreEstimateItemClassification(db, businessId, x, { targetId }),
    );
  }
  return outcomes;
}

/** The largest id of a table (any business): an id above it is free. */
async function maxId(table: string): Promise<number> {
  const { rows } = await sql<{ max: number | null }>`select max(id) as max from ${sql.table(table)}`.execute(
    t.testDb.db,
  );
  return Number(rows[0]?.max ?? 0);
}

describe('catalog restore', () => {
  it("restores A's catalog into an empty business: the same JSON from every catalog endpoint, then `unchanged` throughout", async () => {
    const a = await newBusiness(t);
    const b = await newBusiness(t, { catalog: null });
    const workerA = await api.post(a, '/v1/worker', { name: 'Kim', position: { id: a.ids.positions.dev } });
    expect(workerA.status).toBe(201);
    const source = await readCatalog(a, workerA.body.id);
    expect(source.members.length).toBe(3);
    expect(source.statuses.length).toBe(3);

    const map = newIdMap();
    const first = await restoreCatalog(b.businessId, source, map);
    expect(new Set(first)).toEqual(new Set(['created']));
    // Every id of A is taken (by A), so every entry got a new id.
    for (const ids of Object.values(map)) for (const [from, into] of ids) expect(into).not.toBe(from);

    const workerB = await api.post(b, '/v1/worker', {
      name: 'Kim',
      position: { id: to(map.position, source.position.id) },
    });
    expect(workerB.status).toBe(201);
    expect(await readCatalog(b, workerB.body.id)).toEqual(mapCatalog(source, map));

    const second = await restoreCatalog(b.businessId, source, map);
    expect(second.length).toBe(first.length);
    expect(new Set(second)).toEqual(new Set(['unchanged']));
    expect(await readCatalog(b, workerB.body.id)).toEqual(mapCatalog(source, map));

    // The defaults the API does not show came over: a new client and a new inquiry get the same status as on A.
    const clientA = await api.post(a, '/v1/client', { companyName: 'Acme' });
    const clientB = await api.post(b, '/v1/client', { companyName: 'Acme' });
    expect(clientB.body.status).toEqual({ ...clientA.body.status, id: to(map.clientStatus, clientA.body.status.id) });
    const inquiryA = await api.post(a, '/v1/inquiry', { name: 'Hello' });
    const inquiryB = await api.post(b, '/v1/inquiry', { name: 'Hello' });
    expect(inquiryA.status).toBe(201);
    expect(inquiryB.body.status).toEqual({
      ...inquiryA.body.status,
      id: to(map.status, inquiryA.body.status.id),
      folder: { ...inquiryA.body.status.folder, id: to(map.folder, inquiryA.body.status.folder.id) },
    });

    // Custom field values: B's client gets A's client's fieldSet through the client's restore.
    const fieldSet = [
      { field: { id: a.ids.fields.channel }, value: 'phone' },
      { field: { id: a.ids.fields.tags }, value: 'a,b' },
      { field: { id: a.ids.fields.owner }, value: String(a.ids.members.lee) },
      { field: { id: a.ids.fields.note }, value: '한국어 메모' },
    ];
    const patched = await api.patch(a, `/v1/client/${clientA.body.id}`, { fieldSet });
    expect(patched.status).toBe(200);
    const sourceClient = await get(a, `/v1/client/${clientA.body.id}`);
    const mappedSet = sourceClient.fieldSet.map((v: Json) => ({
      field: mapCatalog({ ...source, fields: [v.field] }, map).fields[0],
      value: v.field.dataType === 'M' ? String(to(map.member, Number(v.value))) : v.value,
    }));
    const targetClient = await get(b, `/v1/client/${clientB.body.id}`);
    const restoreSet = (set: Json[]) =>
      clients.restore(
        t.testDb.db,
        { businessId: b.businessId, timezone: b.timezone },
        { ...targetClient, fieldSet: set },
        { targetId: clientB.body.id },
      );
    expect((await restoreSet(mappedSet)).outcome).toBe('updated');
    expect((await get(b, `/v1/client/${clientB.body.id}`)).fieldSet).toEqual(mappedSet);
    expect((await restoreSet(mappedSet)).outcome).toBe('unchanged');
    expect((await restoreSet(mappedSet.slice(1))).outcome).toBe('updated');
    expect((await get(b, `/v1/client/${clientB.body.id}`)).fieldSet).toEqual(mappedSet.slice(1));
  });

  it('keeps a free id (and a later ordinary insert does not collide with it), updates in place, re-creates a missing target', async () => {
    const b = await newBusiness(t, { catalog: null });
    const free = (await maxId('contract_category')) + 50;
    const kept = await catalog.restoreContractCategory(t.testDb.db, b.businessId, { id: free, title: 'Web' });
    expect(kept).toEqual({ id: free, outcome: 'created' });
    // An ordinary insert afterwards (a catalog import) gets an id past it (PostgreSQL's identity was moved).
    const other = await newBusiness(t);
    expect(other.ids.contractCategories.web).toBeGreaterThan(free);

    expect(
      await catalog.restoreContractCategory(
        t.testDb.db,
        b.businessId,
        { id: 1, title: 'Web design' },
        { targetId: free },
      ),
    ).toEqual({
      id: free,
      outcome: 'updated',
    });
    expect(await all(b, '/v1/contract/category')).toEqual([{ id: free, title: 'Web design' }]);

    // A target id this business has no row for (its row is gone): re-created under that id when free.
    const gone = (await maxId('estimate_item_classification')) + 10;
    const recreated = await catalog.restoreEstimateItemClassification(
      t.testDb.db,
      b.businessId,
      { id: 3, title: 'Design' },
      { targetId: gone },
    );
    expect(recreated).toEqual({ id: gone, outcome: 'created' });
    expect(await all(b, '/v1/estimate/item/classification')).toEqual([{ id: gone, title: 'Design' }]);

    // A field's option and member sets are part of its state: a change is `updated`, and shows.
    const grade = await catalog.restoreGrade(t.testDb.db, b.businessId, { id: 1, title: 'Owner' });
    const member = await catalog.restoreMember(t.testDb.db, b.businessId, {
      id: 1,
      nickname: null,
      email: 'kim@example.com',
      isActive: true,
      grade: { id: grade.id, title: 'Owner' },
    });
    const shape = {
      id: 1,
      name: 'Channel',
      dataType: 'SL' as const,
      category: 'C' as const,
      optionSet: [{ id: 'web', title: 'Web' }],
      memberSet: [],
    };
    const field = await catalog.restoreField(t.testDb.db, b.businessId, shape);
    const reordered = {
      ...shape,
      optionSet: [
        { id: 'tv', title: 'TV' },
        { id: 'web', title: 'Web' },
      ],
    };
    expect(await catalog.restoreField(t.testDb.db, b.businessId, reordered, { targetId: field.id })).toEqual({
      id: field.id,
      outcome: 'updated',
    });
    expect(await catalog.restoreField(t.testDb.db, b.businessId, reordered, { targetId: field.id })).toEqual({
      id: field.id,
      outcome: 'unchanged',
    });
    expect((await all(b, '/v1/field'))[0].optionSet).toEqual(reordered.optionSet);
    const withMember = {
      ...shape,
      id: 2,
      name: 'Owner',
      dataType: 'M' as const,
      optionSet: [],
      memberSet: [
        {
          id: member.id,
          nickname: null,
          email: 'kim@example.com',
          isActive: true,
          grade: { id: grade.id, title: 'Owner' },
        },
      ],
    };
    const mField = await catalog.restoreField(t.testDb.db, b.businessId, withMember);
    expect((await all(b, '/v1/field')).find((f: Json) => f.id === mField.id).memberSet).toEqual(withMember.memberSet);
  });

  it("moves the default folder to a restored default one, finds or restores a member's grade, refuses references outside the business", async () => {
    const b = await newBusiness(t);
    const a = await newBusiness(t);
    const folder = await catalog.restoreFolder(t.testDb.db, b.businessId, { id: 1, name: 'Imported', isDefault: true });
    const folders = await get(b, '/v1/folder');
    expect(folders[0]).toEqual({ id: folder.id, name: 'Imported', isDefault: true });
    expect(folders.filter((f: Json) => f.isDefault).length).toBe(1);
    expect(
      await catalog.restoreFolder(
        t.testDb.db,
        b.businessId,
        { id: 1, name: 'Imported', isDefault: true },
        { targetId: folder.id },
      ),
    ).toEqual({
      id: folder.id,
      outcome: 'unchanged',
    });

    // A member's grade: another business's grade id is not taken over; B's grade of that title is used.
    const m1 = await catalog.restoreMember(t.testDb.db, b.businessId, {
      id: 1,
      nickname: 'X',
      email: 'x@example.com',
      isActive: true,
      grade: { id: a.ids.grades.owner!, title: 'Owner' },
    });
    const memberOf = async (id: number) => (await all(b, '/v1/member')).find((x: Json) => x.id === id);
    expect((await memberOf(m1.id)).grade).toEqual({ id: b.ids.grades.owner, title: 'Owner' });
    // A title B has not got: a new grade, under the source's id when free; shared by the next member naming it.
    const freeGrade = (await maxId('grade')) + 5;
    const intern = { id: freeGrade, title: 'Intern' };
    const m2 = await catalog.restoreMember(t.testDb.db, b.businessId, {
      id: 2,
      nickname: null,
      email: 'y@example.com',
      isActive: false,
      grade: intern,
    });
    const m3 = await catalog.restoreMember(t.testDb.db, b.businessId, {
      id: 3,
      nickname: 'Z',
      email: 'z@example.com',
      isActive: true,
      grade: intern,
    });
    expect((await memberOf(m2.id)).grade).toEqual(intern);
    expect((await memberOf(m3.id)).grade).toEqual(intern);
    expect(
      await catalog.restoreMember(
        t.testDb.db,
        b.businessId,
        { id: 3, nickname: 'Z', email: 'z@example.com', isActive: true, grade: intern },
        { targetId: m3.id },
      ),
    ).toEqual({ id: m3.id, outcome: 'unchanged' });

    // Another business's folder, member or field is "not found", as in the API; nothing is written.
    await expect(
      catalog.restoreInquiryStatus(t.testDb.db, b.businessId, {
        id: 1,
        title: 'New',
        folder: { id: a.ids.folders.sales!, name: 'Sales' },
      }),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(
      catalog.restoreField(t.testDb.db, b.businessId, {
        id: 1,
        name: 'Owner',
        dataType: 'M',
        category: 'C',
        optionSet: [],
        memberSet: [
          {
            id: a.ids.members.kim!,
            nickname: 'Kim',
            email: 'kim@example.com',
            isActive: true,
            grade: { id: 1, title: 'Owner' },
          },
        ],
      }),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(
      clients.restore(
        t.testDb.db,
        { businessId: b.businessId, timezone: b.timezone },
        {
          id: 1,
          companyName: 'Acme',
          created: '2026-01-01T00:00:00.000Z',
          status: null,
          inCharge: null,
          position: null,
          contact: null,
          email: null,
          content: null,
          businessRegistrationNumber: null,
          ceoName: null,
          companyAddress: null,
          companyDetailAddress: null,
          businessType: null,
          businessClass: null,
          branchNumber: null,
          taxInvoiceEmail: null,
          isHidden: false,
          fieldSet: [{ field: { id: a.ids.fields.channel! }, value: 'web' }],
        } as never,
        {},
      ),
    ).rejects.toBeInstanceOf(ValidationError);
  });
});
