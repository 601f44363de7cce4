/**
 * The restore entry points of todos and estimate items (src/shared/restore.ts, decisions §16): records
 * created through the API in business A with every property (a completed todo with its completing member,
 * Korean text, a classified item with a decimal cost), their full shapes rewritten to business B's ids and
 * restored through the services; B's GET answers the same JSON, a second restore is `unchanged` (a todo's
 * derived `dDay` aside), a changed shape `updated`, a taken id moves, a deleted target comes back under its
 * id, references B lacks are refused by name, no event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as todos from '../../../src/modules/todo/todo.service.ts';
import * as estimates from '../../../src/modules/estimate/estimate.service.ts';
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
let inquiryA: number;
let todo: { rich: number; bare: number };
let item: { rich: number; bare: number };

const auth = authOf;
const { created, read } = httpHelpers(api);

beforeAll(async () => {
  t = await buildTestApp();
  a = await newBusiness(t, { catalog: restoreCatalog() });
  b = await newBusiness(t, { catalog: restoreCatalog() });
  maps = catalogMaps(a, b);
  const inquiry = { name: '쇼핑몰 구축 문의', estimate: '25000000', inquiryDate: '2026-11-10' };
  inquiryA = (await created(a, '/v1/inquiry', inquiry)).id;
  maps.inquiries!.set(inquiryA, (await created(b, '/v1/inquiry', inquiry)).id);

  const ids = a.ids;
  const td = await created(a, '/v1/todo', {
    inquiry: { id: inquiryA },
    inCharge: { id: ids.members.kim },
    type: 'MS',
    dueDate: '2026-12-03',
    dueTime: '14:30',
    action: '견적서 발송',
    actionHistory: '1차 통화 완료',
  });
  expect(
    (
      await patch(a, `/v1/todo/${td.id}`, {
        isComplete: true,
        completedAt: '2026-12-03T15:00:00+09:00',
        completedInCharge: { id: ids.members.lee },
      })
    ).status,
  ).toBe(200);
  todo = {
    rich: td.id,
    bare: (
      await created(a, '/v1/todo', { inquiry: { id: inquiryA }, type: 'M', dueDate: '2027-01-15', action: 'Call back' })
    ).id,
  };

  const it = await created(a, '/v1/estimate/item', {
    title: '반응형 웹 디자인',
    unitCost: '1500000.50',
    unit: '페이지',
    description: '메인 + 서브 10p',
    classification: { id: ids.estimateItemClassifications.design },
  });
  expect((await patch(a, `/v1/estimate/item/${it.id}`, { unitCost: '-200000' })).status).toBe(200);
  item = {
    rich: it.id,
    bare: (await created(a, '/v1/estimate/item', { title: 'Bare', unitCost: '0', unit: 'EA' })).id,
  };
});
afterAll(() => t.close());

interface Resource {
  path: string;
  table: string;
  restore: (shape: any, targetId?: number) => Promise<{ id: number; outcome: string }>;
  change: Record<string, unknown>;
}
const resources: Record<'todo' | 'estimate item', () => Resource> = {
  todo: () => ({
    path: '/v1/todo',
    table: 'todo',
    restore: (shape, targetId) => todos.restore(t.testDb.db, auth(b), shape, { targetId }),
    change: { isComplete: false, completedAt: null, completedInCharge: null, dueTime: null },
  }),
  'estimate item': () => ({
    path: '/v1/estimate/item',
    table: 'estimate_item',
    restore: (shape, targetId) => estimates.restore(t.testDb.db, auth(b), shape, { targetId }),
    change: { unitCost: '99.90', classification: null, description: null },
  }),
};
const ids = { todo: () => todo, 'estimate item': () => item };

describe.each(['todo', 'estimate item'] as const)('%s restore', (name) => {
  const r = () => resources[name]();
  const shapeOf = async (id: number) => remap(await read(a, `${r().path}/${id}`), maps);

  it('writes every property under a free id: B answers the same JSON; unchanged, then updated; no event', async () => {
    const since = await lastEventId(b);
    const shape = { ...(await shapeOf(ids[name]().rich)), id: await freeId(t.testDb.db, r().table) };
    expect(shape.updated).not.toBe(shape.created);
    expect(await r().restore(shape)).toEqual({ id: shape.id, outcome: 'created' });
    expect(await read(b, `${r().path}/${shape.id}`)).toEqual(shape);

    expect(await r().restore(shape, shape.id)).toEqual({ id: shape.id, outcome: 'unchanged' });
    const changed = { ...shape, ...r().change, updated: '2027-04-01T00:00:00.000Z' };
    expect(await r().restore(changed, shape.id)).toEqual({ id: shape.id, outcome: 'updated' });
    expect(await read(b, `${r().path}/${shape.id}`)).toEqual(changed);
    expect(await eventsAfter(b, since)).toEqual([]);
  });

  it('an id taken elsewhere gives a new id; a deleted target comes back under its id', async () => {
    const shape = await shapeOf(ids[name]().bare);
    const first = await r().restore(shape);
    expect(first.outcome).toBe('created');
    expect(first.id).not.toBe(shape.id);
    expect(await read(b, `${r().path}/${first.id}`)).toEqual({ ...shape, id: first.id });
    expect((await api.delete(b, `${r().path}/${first.id}`)).status).toBe(204);
    expect(await r().restore(shape, first.id)).toEqual({ id: first.id, outcome: 'created' });
    expect(await read(b, `${r().path}/${first.id}`)).toEqual({ ...shape, id: first.id });
  });
});

describe('todo details', () => {
  it('dDay is derived, not compared: a shape read on another day is still unchanged', async () => {
    const shape = { ...remap(await read(a, `/v1/todo/${todo.rich}`), maps), id: await freeId(t.testDb.db, 'todo') };
    await todos.restore(t.testDb.db, auth(b), shape, {});
    expect(
      await todos.restore(t.testDb.db, auth(b), { ...shape, dDay: shape.dDay + 1 }, { targetId: shape.id }),
    ).toEqual({ id: shape.id, outcome: 'unchanged' });
  });

  it('a todo hidden with its deleted inquiry moves to the shape’s live inquiry', async () => {
    const shape = remap(await read(a, `/v1/todo/${todo.bare}`), maps);
    const other = await created(b, '/v1/inquiry', { name: '임시 문의' });
    const { id } = await todos.restore(
      t.testDb.db,
      auth(b),
      { ...shape, inquiry: { ...shape.inquiry, id: other.id } },
      {},
    );
    expect((await api.delete(b, `/v1/inquiry/${other.id}`)).status).toBe(204);
    expect((await get(b, `/v1/todo/${id}`)).status).toBe(404);
    expect(await todos.restore(t.testDb.db, auth(b), shape, { targetId: id })).toEqual({ id, outcome: 'created' });
    expect(await read(b, `/v1/todo/${id}`)).toEqual({ ...shape, id });
  });

  it('refuses references B does not have, naming each property, and writes nothing', async () => {
    const shape = { ...remap(await read(a, `/v1/todo/${todo.rich}`), maps), id: await freeId(t.testDb.db, 'todo') };
    await expectValidation(
      todos.restore(
        t.testDb.db,
        auth(b),
        {
          ...shape,
          inquiry: { ...shape.inquiry, id: inquiryA },
          completedInCharge: { ...shape.completedInCharge, id: a.ids.members.lee },
        },
        {},
      ),
      {
        inquiry: { id: [`Invalid pk "${inquiryA}" - object does not exist.`] },
        completedInCharge: { id: [`Invalid pk "${a.ids.members.lee}" - object does not exist.`] },
      },
    );
    expect((await get(b, `/v1/todo/${shape.id}`)).status).toBe(404);
  });
});

describe('estimate item details', () => {
  it('refuses a classification B does not have and a cost that is not a decimal; a source image is neither stored nor compared', async () => {
    const shape = {
      ...remap(await read(a, `/v1/estimate/item/${item.rich}`), maps),
      id: await freeId(t.testDb.db, 'estimate_item'),
    };
    await expectValidation(
      estimates.restore(
        t.testDb.db,
        auth(b),
        {
          ...shape,
          unitCost: 'abc',
          classification: { ...shape.classification, id: a.ids.estimateItemClassifications.design },
        },
        {},
      ),
      {
        unitCost: ['A valid number is required.'],
        classification: { id: [`Invalid pk "${a.ids.estimateItemClassifications.design}" - object does not exist.`] },
      },
    );
    expect((await get(b, `/v1/estimate/item/${shape.id}`)).status).toBe(404);
    const withImage = { ...shape, image: 'https://source.example/media/item.png' };
    expect(await estimates.restore(t.testDb.db, auth(b), withImage, {})).toEqual({ id: shape.id, outcome: 'created' });
    expect(await read(b, `/v1/estimate/item/${shape.id}`)).toEqual(shape);
    expect(await estimates.restore(t.testDb.db, auth(b), withImage, { targetId: shape.id })).toEqual({
      id: shape.id,
      outcome: 'unchanged',
    });
  });
});
