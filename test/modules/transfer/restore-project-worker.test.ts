/**
 * The restore entry points of projects and workers (src/shared/restore.ts, decisions §16): records created
 * through the API in business A with every property (Korean text, a contract, a position, an actual end
 * date set by PATCH), their full shapes rewritten to business B's ids and restored through the services;
 * B's GET answers the same JSON, a second restore is `unchanged`, a changed shape `updated`, a taken id
 * moves, a soft-deleted target is revived under its id, references B lacks are refused by name, no event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as projects from '../../../src/modules/project/project.service.ts';
import * as workers from '../../../src/modules/worker/worker.service.ts';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { apiClient } from '../../setup/api-client.ts';
import { eventHelpers } from '../../setup/event-helpers.ts';
import {
  authOf,
  catalogMaps,
  expectValidation,
  freeId,
  httpHelpers,
  type IdMaps,
  remap,
  restoreCatalog,
} from './restore-helpers.ts';

let t: TestApp;
const api = apiClient(() => t.app);
const { get, patch } = api;
const { eventsAfter, lastEventId } = eventHelpers(api);

let a: TestBusiness;
let b: TestBusiness;
let maps: IdMaps;
let contractA: number;
let project: { rich: number; bare: number };
let worker: { rich: number; bare: number };

const auth = authOf;
const { created, read } = httpHelpers(api);

beforeAll(async () => {
  t = await buildTestApp();
  a = await newBusiness(t, { catalog: restoreCatalog() });
  b = await newBusiness(t, { catalog: restoreCatalog() });
  maps = catalogMaps(a, b);
  const contract = {
    title: '앱 개발 계약',
    amount: 30_000_000,
    type: 'G',
    status: 'I',
    startDate: '2026-12-01',
    endDate: '2027-06-30',
  };
  contractA = (await created(a, '/v1/contract', contract)).id;
  maps.contracts!.set(contractA, (await created(b, '/v1/contract', contract)).id);

  const p = await created(a, '/v1/project', {
    title: '모바일 앱 1단계',
    contract: { id: contractA },
    status: 'I',
    symbolColor: '#ff8800',
    startDate: '2026-12-01',
    endDate: '2027-03-31',
    isHidden: true,
  });
  expect((await patch(a, `/v1/project/${p.id}`, { status: 'E', actualEndDate: '2027-03-28' })).status).toBe(200);
  const w = await created(a, '/v1/worker', {
    name: '이서연',
    position: { id: a.ids.positions.dev },
    order: 3,
    isHidden: true,
    manMonthAmount: 7_500_000,
  });
  expect((await patch(a, `/v1/worker/${w.id}`, { order: 4 })).status).toBe(200);
  project = { rich: p.id, bare: (await created(a, '/v1/project', { title: 'Bare' })).id };
  worker = { rich: w.id, bare: (await created(a, '/v1/worker', { name: 'Bare' })).id };
});
afterAll(() => t.close());

/** The restore of one resource, the way the cases below drive both. */
interface Resource {
  path: string;
  table: string;
  restore: (shape: any, targetId?: number) => Promise<{ id: number; outcome: string }>;
  change: Record<string, unknown>;
}
const resources: Record<'project' | 'worker', () => Resource> = {
  project: () => ({
    path: '/v1/project',
    table: 'project',
    restore: (shape, targetId) => projects.restore(t.testDb.db, auth(b), shape, { targetId }),
    change: { title: '모바일 앱 1단계 (완료)', contract: null, actualEndDate: null },
  }),
  worker: () => ({
    path: '/v1/worker',
    table: 'worker',
    restore: (shape, targetId) => workers.restore(t.testDb.db, auth(b), shape, { targetId }),
    change: { name: '이서연 (퇴사)', position: null, manMonthAmount: 0 },
  }),
};
const ids = { project: () => project, worker: () => worker };

describe.each(['project', 'worker'] as const)('%s restore', (name) => {
  const r = () => resources[name]();
  const shapeOf = async (id: number) => remap(await read(a, `${r().path}/${id}`), maps);

  it('writes every property under a free id: B answers the same JSON; unchanged, then updated; no event', async () => {
    const since = await lastEventId(b);
    const shape = { ...(await shapeOf(ids[name]().rich)), id: await freeId(t.testDb.db, r().table) };
    expect(shape.updated).not.toBe(shape.created);
    expect(await r().restore(shape)).toEqual({ id: shape.id, outcome: 'created' });
    expect(await read(b, `${r().path}/${shape.id}`)).toEqual(shape);
    const { updated: _u, ...item } = shape;
    expect((await read(b, r().path)).results.find((x: any) => x.id === shape.id)).toEqual(item);

    expect(await r().restore(shape, shape.id)).toEqual({ id: shape.id, outcome: 'unchanged' });
    // A property another server adds and this one does not store is not a change.
    expect(await r().restore({ ...shape, sourceOnly: 'x' }, shape.id)).toEqual({ id: shape.id, outcome: 'unchanged' });
    const changed = { ...shape, ...r().change, updated: '2027-04-01T00:00:00.000Z' };
    expect(await r().restore(changed, shape.id)).toEqual({ id: shape.id, outcome: 'updated' });
    expect(await read(b, `${r().path}/${shape.id}`)).toEqual(changed);
    expect(await eventsAfter(b, since)).toEqual([]);
  });

  it('an id taken elsewhere gives a new id; a soft-deleted target is revived under its id', async () => {
    const shape = await shapeOf(ids[name]().bare);
    const first = await r().restore(shape);
    expect(first.outcome).toBe('created');
    expect(first.id).not.toBe(shape.id);
    expect(await read(b, `${r().path}/${first.id}`)).toEqual({ ...shape, id: first.id });
    expect((await api.delete(b, `${r().path}/${first.id}`)).status).toBe(204);
    expect((await get(b, `${r().path}/${first.id}`)).status).toBe(404);
    expect(await r().restore(shape, first.id)).toEqual({ id: first.id, outcome: 'created' });
    expect(await read(b, `${r().path}/${first.id}`)).toEqual({ ...shape, id: first.id });
  });
});

describe('references B does not have', () => {
  it('a project on a contract of A: ValidationError on contract.id, nothing written', async () => {
    const shape = {
      ...remap(await read(a, `/v1/project/${project.rich}`), maps),
      id: await freeId(t.testDb.db, 'project'),
    };
    await expectValidation(
      projects.restore(t.testDb.db, auth(b), { ...shape, contract: { ...shape.contract, id: contractA } }, {}),
      {
        contract: { id: [`Invalid pk "${contractA}" - object does not exist.`] },
      },
    );
    expect((await get(b, `/v1/project/${shape.id}`)).status).toBe(404);
  });

  it('a worker in a position of A: ValidationError on position.id, nothing written', async () => {
    const shape = {
      ...remap(await read(a, `/v1/worker/${worker.rich}`), maps),
      id: await freeId(t.testDb.db, 'worker'),
    };
    await expectValidation(
      workers.restore(t.testDb.db, auth(b), { ...shape, position: { ...shape.position, id: a.ids.positions.dev } }, {}),
      {
        position: { id: [`Invalid pk "${a.ids.positions.dev}" - object does not exist.`] },
      },
    );
    expect((await get(b, `/v1/worker/${shape.id}`)).status).toBe(404);
  });
});
