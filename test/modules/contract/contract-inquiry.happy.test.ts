/**
 * The inquiry ↔ contract link, successful paths (spec: Contract rule 1, Operation rules › Contract create /
 * update, Inquiry; decisions §7): linking from either side, the summaries each side shows, releasing on a
 * change, on `null`, on an inquiry's soft delete and on a contract's delete, the `inquiry_id` filter, and
 * racing requests that end with exactly one success (a transaction and a unique index, not a read-then-write).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { type SignedRequest } from '../../setup/signed-request.ts';
import { apiClient } from '../../setup/api-client.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const { call, get, raw } = apiClient(() => t.app);
async function inquiry(b: TestBusiness, body: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await call(b, { method: 'POST', url: '/v1/inquiry', body: { name: 'Lead', ...body } });
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
/** The contract id an inquiry shows, and the inquiry id a contract shows. */
async function contractOfInquiry(b: TestBusiness, id: number): Promise<number | null> {
  const res = await get(b, `/v1/inquiry/${id}`);
  expect(res.status).toBe(200);
  return res.body.contract?.id ?? null;
}
async function inquiryOfContract(b: TestBusiness, id: number): Promise<number | null> {
  const res = await get(b, `/v1/contract/${id}`);
  expect(res.status).toBe(200);
  return res.body.inquiry?.id ?? null;
}

describe('linking from the contract side', () => {
  it('POST /v1/contract with inquiry: the contract shows the inquiry summary, the inquiry the contract summary', async () => {
    const b = await newBusiness(t);
    const i = await inquiry(b, {
      name: 'Website renewal',
      estimate: '1500000',
      inquiryDate: '2026-11-02',
      status: { id: b.ids.statuses.won },
    });
    const c = await contract(b, {
      title: 'Renewal',
      amount: 12_000_000,
      type: 'I',
      status: 'I',
      startDate: '2026-12-01',
      endDate: '2027-03-31',
      inquiry: { id: i.id },
    });
    const summary = {
      id: i.id,
      uniqueId: i.uniqueId,
      status: { id: b.ids.statuses.won, title: 'Won', folder: { id: b.ids.folders.sales, name: 'Sales' } },
      name: 'Website renewal',
      estimate: '1500000.00',
      inquiryDate: '2026-11-02',
    };
    expect(c.inquiry).toEqual(summary);
    expect((await get(b, `/v1/contract/${c.id}`)).body.inquiry).toEqual(summary);
    expect((await get(b, '/v1/contract')).body.results[0].inquiry).toEqual(summary);
    const contractSummary = {
      id: c.id,
      title: 'Renewal',
      amount: 12_000_000,
      type: 'I',
      status: 'I',
      startDate: '2026-12-01',
      endDate: '2027-03-31',
    };
    expect((await get(b, `/v1/inquiry/${i.id}`)).body.contract).toEqual(contractSummary);
    expect((await get(b, '/v1/inquiry')).body.results[0].contract).toEqual(contractSummary);
    // The inquiry's summary follows the contract.
    await call(b, { method: 'PATCH', url: `/v1/contract/${c.id}`, body: { title: 'Renewal 2', status: 'C' } });
    expect((await get(b, `/v1/inquiry/${i.id}`)).body.contract).toMatchObject({ title: 'Renewal 2', status: 'C' });
  });

  it('PATCH to another inquiry releases the previous one; null unlinks; the same inquiry again is fine', async () => {
    const b = await newBusiness(t);
    const one = await inquiry(b);
    const two = await inquiry(b);
    const c = await contract(b, { inquiry: { id: one.id } });
    const moved = await call(b, { method: 'PATCH', url: `/v1/contract/${c.id}`, body: { inquiry: { id: two.id } } });
    expect(moved.status).toBe(200);
    expect(moved.body.inquiry.id).toBe(two.id);
    expect(await contractOfInquiry(b, one.id)).toBeNull();
    expect(await contractOfInquiry(b, two.id)).toBe(c.id);
    expect(
      (
        await call(b, {
          method: 'PATCH',
          url: `/v1/contract/${c.id}`,
          body: { inquiry: { id: two.id }, title: 'Again' },
        })
      ).status,
    ).toBe(200);
    const cleared = await call(b, { method: 'PATCH', url: `/v1/contract/${c.id}`, body: { inquiry: null } });
    expect(cleared.body.inquiry).toBeNull();
    expect(await contractOfInquiry(b, two.id)).toBeNull();
    // A released inquiry can be linked to another contract.
    const other = await contract(b, { inquiry: { id: two.id } });
    expect(await contractOfInquiry(b, two.id)).toBe(other.id);
  });

  it('a PATCH without inquiry keeps the link', async () => {
    const b = await newBusiness(t);
    const i = await inquiry(b);
    const c = await contract(b, { inquiry: { id: i.id } });
    await call(b, { method: 'PATCH', url: `/v1/contract/${c.id}`, body: { title: 'Renamed' } });
    expect(await inquiryOfContract(b, c.id)).toBe(i.id);
  });

  it('urlencoded bodies link too (inquiry.id=…)', async () => {
    const b = await newBusiness(t);
    const i = await inquiry(b);
    const res = await call(b, {
      method: 'POST',
      url: '/v1/contract',
      form: 'urlencoded',
      body: { title: 'Form', amount: 1, type: 'G', 'inquiry.id': i.id },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await contractOfInquiry(b, i.id)).toBe(res.body.id);
  });

  it('GET /v1/contract?inquiry_id= keeps the contract linked to that inquiry', async () => {
    const b = await newBusiness(t);
    const one = await inquiry(b);
    const two = await inquiry(b);
    const c1 = await contract(b, { inquiry: { id: one.id } });
    await contract(b, { inquiry: { id: two.id } });
    await contract(b);
    const ids = (await get(b, `/v1/contract?inquiry_id=${one.id}`)).body.results.map((r: { id: number }) => r.id);
    expect(ids).toEqual([c1.id]);
    expect((await get(b, '/v1/contract?inquiry_id=999999')).body.results).toEqual([]);
  });
});

describe('linking from the inquiry side', () => {
  it('POST /v1/inquiry with contract links both sides; the create, list and full shapes carry the contract summary', async () => {
    const b = await newBusiness(t);
    const c = await contract(b, { title: 'Support', amount: 500, type: 'S', startDate: '2026-01-01' });
    const i = await inquiry(b, { contract: { id: c.id } });
    const summary = {
      id: c.id,
      title: 'Support',
      amount: 500,
      type: 'S',
      status: 'P',
      startDate: '2026-01-01',
      endDate: null,
    };
    expect(i.contract).toEqual(summary);
    expect((await get(b, `/v1/inquiry/${i.id}`)).body.contract).toEqual(summary);
    expect(await inquiryOfContract(b, c.id)).toBe(i.id);
  });

  it('PATCH to another contract releases the previous one; null unlinks; the same contract again is fine', async () => {
    const b = await newBusiness(t);
    const c1 = await contract(b);
    const c2 = await contract(b);
    const i = await inquiry(b, { contract: { id: c1.id } });
    const moved = await call(b, { method: 'PATCH', url: `/v1/inquiry/${i.id}`, body: { contract: { id: c2.id } } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.contract.id).toBe(c2.id);
    expect(await inquiryOfContract(b, c1.id)).toBeNull();
    expect(await inquiryOfContract(b, c2.id)).toBe(i.id);
    expect(
      (await call(b, { method: 'PATCH', url: `/v1/inquiry/${i.id}`, body: { contract: { id: c2.id } } })).status,
    ).toBe(200);
    expect(await inquiryOfContract(b, c2.id)).toBe(i.id);
    const cleared = await call(b, { method: 'PATCH', url: `/v1/inquiry/${i.id}`, body: { contract: null } });
    expect(cleared.body.contract).toBeNull();
    expect(await inquiryOfContract(b, c2.id)).toBeNull();
  });

  it('a PATCH without contract keeps the link', async () => {
    const b = await newBusiness(t);
    const c = await contract(b);
    const i = await inquiry(b, { contract: { id: c.id } });
    await call(b, { method: 'PATCH', url: `/v1/inquiry/${i.id}`, body: { name: 'Renamed' } });
    expect(await contractOfInquiry(b, i.id)).toBe(c.id);
  });
});

describe('releasing', () => {
  it('a soft-deleted inquiry releases its contract link (decisions §7)', async () => {
    const b = await newBusiness(t);
    const gone = await inquiry(b);
    const c = await contract(b, { inquiry: { id: gone.id } });
    expect((await raw(b, { method: 'DELETE', url: `/v1/inquiry/${gone.id}` })).statusCode).toBe(204);
    expect(await inquiryOfContract(b, c.id)).toBeNull();
    expect((await get(b, `/v1/contract?inquiry_id=${gone.id}`)).body.results).toEqual([]);
    // The contract is free for another inquiry, from either side.
    const next = await inquiry(b, { contract: { id: c.id } });
    expect(await inquiryOfContract(b, c.id)).toBe(next.id);
  });

  it('deleting a contract releases its inquiry', async () => {
    const b = await newBusiness(t);
    const i = await inquiry(b);
    const c = await contract(b, { inquiry: { id: i.id } });
    expect((await raw(b, { method: 'DELETE', url: `/v1/contract/${c.id}` })).statusCode).toBe(204);
    expect(await contractOfInquiry(b, i.id)).toBeNull();
    const other = await contract(b, { inquiry: { id: i.id } });
    expect(await contractOfInquiry(b, i.id)).toBe(other.id);
  });
});

describe('concurrency: racing links end with exactly one success', () => {
  it('20 parallel POST /v1/contract with the same inquiry', async () => {
    const b = await newBusiness(t);
    const i = await inquiry(b);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        call(b, {
          method: 'POST',
          url: '/v1/contract',
          body: { title: `Race ${n}`, amount: 1, type: 'G', inquiry: { id: i.id } },
        }),
      ),
    );
    const won = results.filter((r) => r.status === 201);
    expect(won).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 201)) {
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        inquiry: { id: ['This inquiry is already linked to another contract.'] },
        requestId: r.headers['x-request-id'],
      });
    }
    expect(await contractOfInquiry(b, i.id)).toBe(won[0]!.body.id);
    expect((await get(b, '/v1/contract?page_size=100')).body.results).toHaveLength(1);
  });

  it('20 contracts PATCHed in parallel to the same inquiry', async () => {
    const b = await newBusiness(t);
    const i = await inquiry(b);
    const ids: number[] = [];
    for (let n = 0; n < 20; n++) ids.push((await contract(b)).id);
    const results = await Promise.all(
      ids.map((id) => call(b, { method: 'PATCH', url: `/v1/contract/${id}`, body: { inquiry: { id: i.id } } })),
    );
    const won = results.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    expect(results.filter((r) => r.status === 400)).toHaveLength(19);
    expect(await contractOfInquiry(b, i.id)).toBe(won[0]!.body.id);
    const linked = (await get(b, `/v1/contract?inquiry_id=${i.id}`)).body.results;
    expect(linked.map((c: { id: number }) => c.id)).toEqual([won[0]!.body.id]);
  });

  it('20 parallel POST /v1/inquiry with the same contract', async () => {
    const b = await newBusiness(t);
    const c = await contract(b);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        call(b, { method: 'POST', url: '/v1/inquiry', body: { contract: { id: c.id } } }),
      ),
    );
    const won = results.filter((r) => r.status === 201);
    expect(won).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 201)) {
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        contract: { id: ['This contract is already linked to another inquiry.'] },
        requestId: r.headers['x-request-id'],
      });
    }
    expect(await inquiryOfContract(b, c.id)).toBe(won[0]!.body.id);
    expect((await get(b, '/v1/inquiry?page_size=100')).body.results).toHaveLength(1);
  });

  it('20 inquiries PATCHed in parallel to the same contract', async () => {
    const b = await newBusiness(t);
    const c = await contract(b);
    const ids: number[] = [];
    for (let n = 0; n < 20; n++) ids.push((await inquiry(b)).id);
    const results = await Promise.all(
      ids.map((id) => call(b, { method: 'PATCH', url: `/v1/inquiry/${id}`, body: { contract: { id: c.id } } })),
    );
    const won = results.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    expect(results.filter((r) => r.status === 400)).toHaveLength(19);
    expect(await inquiryOfContract(b, c.id)).toBe(won[0]!.body.id);
    for (const id of ids) expect(await contractOfInquiry(b, id)).toBe(id === won[0]!.body.id ? c.id : null);
  });

  it('contracts linking an inquiry while it is deleted leave no link behind (no phantom holder of the contract)', async () => {
    for (let round = 0; round < 5; round++) {
      const b = await newBusiness(t);
      const ids: number[] = [];
      for (let n = 0; n < 6; n++) ids.push((await contract(b)).id);
      const i = await inquiry(b);
      const [deleted, ...results] = await Promise.all([
        call(b, { method: 'DELETE', url: `/v1/inquiry/${i.id}` }),
        ...ids.map((id) => call(b, { method: 'PATCH', url: `/v1/contract/${id}`, body: { inquiry: { id: i.id } } })),
      ]);
      expect(deleted.status).toBe(204);
      for (const r of results) expect([200, 400], JSON.stringify(r.body)).toContain(r.status);
      expect((await get(b, `/v1/contract?inquiry_id=${i.id}`)).body.results).toEqual([]);
      for (const id of ids) {
        expect(await inquiryOfContract(b, id)).toBeNull();
        // The contract is really free: a new inquiry can take it.
        const fresh = await call(b, { method: 'POST', url: '/v1/inquiry', body: { name: 'Next', contract: { id } } });
        expect(fresh.status, JSON.stringify(fresh.body)).toBe(201);
      }
    }
  });

  it('both sides racing for one pair of records leave both sides in agreement', async () => {
    const b = await newBusiness(t);
    const contracts: number[] = [];
    const inquiries: number[] = [];
    for (let n = 0; n < 5; n++) {
      contracts.push((await contract(b)).id);
      inquiries.push((await inquiry(b)).id);
    }
    const requests: SignedRequest[] = [];
    for (let n = 0; n < 10; n++) {
      requests.push({
        method: 'PATCH',
        url: `/v1/contract/${contracts[n % 5]}`,
        body: { inquiry: { id: inquiries[(n * 3) % 5] } },
      });
      requests.push({
        method: 'PATCH',
        url: `/v1/inquiry/${inquiries[n % 5]}`,
        body: { contract: { id: contracts[(n * 2) % 5] } },
      });
    }
    const results = await Promise.all(requests.map((r) => call(b, r)));
    for (const r of results) expect([200, 400]).toContain(r.status);
    for (const c of contracts) {
      const linked = await inquiryOfContract(b, c);
      if (linked !== null) expect(await contractOfInquiry(b, linked)).toBe(c);
    }
    for (const i of inquiries) {
      const linked = await contractOfInquiry(b, i);
      if (linked !== null) expect(await inquiryOfContract(b, linked)).toBe(i);
    }
  });
});
