/**
 * The inquiry ↔ contract link, failing paths (spec: Contract rule 1; decisions §2, §7): an inquiry already
 * linked to another contract (400 on `inquiry.id`), a contract already linked to another inquiry (400 on
 * `contract.id`), unknown and soft-deleted records, bad reference shapes — each writing nothing on either side.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { apiClient, expect400 } from '../../setup/api-client.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const INQUIRY_TAKEN = 'This inquiry is already linked to another contract.';
const CONTRACT_TAKEN = 'This contract is already linked to another inquiry.';

const { call } = apiClient(() => t.app);
async function inquiry(b: TestBusiness, body: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await call(b, { method: 'POST', url: '/v1/inquiry', body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
async function contract(b: TestBusiness, body: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await call(b, {
    method: 'POST',
    url: '/v1/contract',
    body: { title: 'Deal', amount: 1000, type: 'G', ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
async function count(b: TestBusiness, url: string): Promise<number> {
  return (await call(b, { method: 'GET', url: `${url}?page_size=100` })).body.results.length;
}
const contractBase = { title: 'Deal', amount: 1, type: 'G' };

describe('contract side: inquiry', () => {
  it('an inquiry already linked to another contract: 400 on inquiry.id, nothing written', async () => {
    const b = await newBusiness(t);
    const i = await inquiry(b);
    const holder = await contract(b, { inquiry: { id: i.id } });
    expect400(
      await call(b, { method: 'POST', url: '/v1/contract', body: { ...contractBase, inquiry: { id: i.id } } }),
      {
        inquiry: { id: [INQUIRY_TAKEN] },
      },
    );
    expect(await count(b, '/v1/contract')).toBe(1);
    const other = await contract(b, { title: 'Other' });
    const before = (await call(b, { method: 'GET', url: `/v1/contract/${other.id}` })).body;
    expect400(
      await call(b, {
        method: 'PATCH',
        url: `/v1/contract/${other.id}`,
        body: { title: 'Changed', inquiry: { id: i.id } },
      }),
      {
        inquiry: { id: [INQUIRY_TAKEN] },
      },
    );
    expect((await call(b, { method: 'GET', url: `/v1/contract/${other.id}` })).body).toEqual(before);
    expect((await call(b, { method: 'GET', url: `/v1/inquiry/${i.id}` })).body.contract.id).toBe(holder.id);
  });

  it('an unknown or soft-deleted inquiry: 400 Invalid pk on inquiry.id', async () => {
    const b = await newBusiness(t);
    expect400(
      await call(b, { method: 'POST', url: '/v1/contract', body: { ...contractBase, inquiry: { id: 999999 } } }),
      {
        inquiry: { id: ['Invalid pk "999999" - object does not exist.'] },
      },
    );
    const gone = await inquiry(b);
    await call(b, { method: 'DELETE', url: `/v1/inquiry/${gone.id}` });
    const c = await contract(b);
    expect400(await call(b, { method: 'PATCH', url: `/v1/contract/${c.id}`, body: { inquiry: { id: gone.id } } }), {
      inquiry: { id: [`Invalid pk "${gone.id}" - object does not exist.`] },
    });
  });

  it('reference shapes', async () => {
    const b = await newBusiness(t);
    expect400(await call(b, { method: 'POST', url: '/v1/contract', body: { ...contractBase, inquiry: 5 } }), {
      inquiry: ['Invalid data. Expected a dictionary, but got int.'],
    });
    expect400(await call(b, { method: 'POST', url: '/v1/contract', body: { ...contractBase, inquiry: {} } }), {
      inquiry: { id: ['This field is required.'] },
    });
    expect400(await call(b, { method: 'POST', url: '/v1/contract', body: { ...contractBase, inquiry: { id: 'x' } } }), {
      inquiry: { id: ['A valid integer is required.'] },
    });
  });

  it('a link problem is reported with the other problems, and nothing is written', async () => {
    const b = await newBusiness(t);
    const i = await inquiry(b);
    await contract(b, { inquiry: { id: i.id } });
    expect400(
      await call(b, {
        method: 'POST',
        url: '/v1/contract',
        body: { ...contractBase, inquiry: { id: i.id }, client: { id: 999999 } },
      }),
      {
        inquiry: { id: [INQUIRY_TAKEN] },
        client: { id: ['Invalid pk "999999" - object does not exist.'] },
      },
    );
    expect(await count(b, '/v1/contract')).toBe(1);
  });
});

describe('inquiry side: contract', () => {
  it('a contract already linked to another inquiry: 400 on contract.id, nothing written', async () => {
    const b = await newBusiness(t);
    const c = await contract(b);
    const holder = await inquiry(b, { contract: { id: c.id } });
    expect400(await call(b, { method: 'POST', url: '/v1/inquiry', body: { name: 'Second', contract: { id: c.id } } }), {
      contract: { id: [CONTRACT_TAKEN] },
    });
    expect(await count(b, '/v1/inquiry')).toBe(1);
    const other = await inquiry(b, { name: 'Other' });
    const before = (await call(b, { method: 'GET', url: `/v1/inquiry/${other.id}` })).body;
    expect400(
      await call(b, {
        method: 'PATCH',
        url: `/v1/inquiry/${other.id}`,
        body: { name: 'Changed', contract: { id: c.id } },
      }),
      {
        contract: { id: [CONTRACT_TAKEN] },
      },
    );
    expect((await call(b, { method: 'GET', url: `/v1/inquiry/${other.id}` })).body).toEqual(before);
    expect((await call(b, { method: 'GET', url: `/v1/contract/${c.id}` })).body.inquiry.id).toBe(holder.id);
  });

  it('a failed inquiry PATCH keeps its previous contract linked', async () => {
    const b = await newBusiness(t);
    const mine = await contract(b);
    const taken = await contract(b);
    const i = await inquiry(b, { contract: { id: mine.id } });
    await inquiry(b, { contract: { id: taken.id } });
    expect400(await call(b, { method: 'PATCH', url: `/v1/inquiry/${i.id}`, body: { contract: { id: taken.id } } }), {
      contract: { id: [CONTRACT_TAKEN] },
    });
    expect((await call(b, { method: 'GET', url: `/v1/inquiry/${i.id}` })).body.contract.id).toBe(mine.id);
    expect((await call(b, { method: 'GET', url: `/v1/contract/${mine.id}` })).body.inquiry.id).toBe(i.id);
  });

  it('an unknown contract: 400 Invalid pk on contract.id; reference shapes', async () => {
    const b = await newBusiness(t);
    expect400(await call(b, { method: 'POST', url: '/v1/inquiry', body: { contract: { id: 999999 } } }), {
      contract: { id: ['Invalid pk "999999" - object does not exist.'] },
    });
    expect400(await call(b, { method: 'POST', url: '/v1/inquiry', body: { contract: 'x' } }), {
      contract: ['Invalid data. Expected a dictionary, but got str.'],
    });
    expect400(await call(b, { method: 'POST', url: '/v1/inquiry', body: { contract: {} } }), {
      contract: { id: ['This field is required.'] },
    });
    expect(await count(b, '/v1/inquiry')).toBe(0);
  });
});
