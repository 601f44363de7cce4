/**
 * Drop-in compatibility (issue 14; docs/api.md#migrating-from-the-reference-service): the requests real clients
 * of the reference service send — a vendor CLI that sends `Content-Type: application/json` on every call and
 * re-serialises bodies compactly, edge functions that sign nothing in optional mode, scripts that pass
 * `page_size` as a string and follow `next` verbatim, a daily briefing that fires its date-filtered lists in
 * parallel — and the answers they read (`results[].status.title`, `status.folder.name`, `detail`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBody } from '../../src/modules/auth/hmac.ts';
import { todayIn } from '../../src/shared/time.ts';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness, testCatalog, type TestBusiness } from '../setup/factories.ts';
import { apiClient } from '../setup/api-client.ts';

let t: TestApp;
const { raw } = apiClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp({ BIZAPI_RATE_LIMIT: '0' });
});
afterAll(async () => {
  await t.close();
});

/**
 * What the vendor CLI does: every request carries `Content-Type: application/json`, the body (if any) is the
 * exact bytes given, the signature is the HMAC of those bytes (of the empty string without a body).
 */
async function cli(b: TestBusiness, method: string, url: string, body = '', sign = true) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-api-key': b.apiKey,
    accept: 'application/json',
  };
  if (sign) headers['x-signature'] = signBody(b.secretKey, body);
  const res = await raw(undefined, {
    method: method as 'GET',
    url,
    headers,
    ...(body !== '' && { raw: { payload: Buffer.from(body, 'utf8') } }),
  });
  return { status: res.statusCode, body: res.body ? (JSON.parse(res.body) as any) : undefined, headers: res.headers };
}

/** Python's `json.dumps(obj, separators=(",", ":"), ensure_ascii=…)`: compact, non-ASCII raw or `\uXXXX`. */
function compact(value: unknown, ensureAscii: boolean): string {
  const text = JSON.stringify(value);
  return ensureAscii
    ? text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    : text;
}

describe('the vendor CLI: a JSON content type on every request', () => {
  it('GET and DELETE with Content-Type: application/json and no body, signed over the empty string', async () => {
    const b = await newBusiness(t);
    const created = await cli(b, 'POST', '/v1/client', compact({ companyName: 'Acme' }, false));
    expect(created.status).toBe(201);
    expect((await cli(b, 'GET', '/v1/client')).body.results).toHaveLength(1);
    expect((await cli(b, 'GET', `/v1/client/${created.body.id}`)).body.companyName).toBe('Acme');
    expect((await cli(b, 'DELETE', `/v1/client/${created.body.id}`)).status).toBe(204);
    expect((await cli(b, 'GET', '/v1/client')).body.results).toEqual([]);
    const gone = await cli(b, 'GET', `/v1/client/${created.body.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.detail).toBe('Not found.');
  });

  it('compact UTF-8 bodies with Korean text and emoji, raw or \\u-escaped, keep every character and verify', async () => {
    const b = await newBusiness(t);
    const name = '홈페이지 리뉴얼 견적 🚀✨ (긴급)';
    for (const ensureAscii of [false, true]) {
      const body = compact({ name, estimate: '1500000.00', client: null }, ensureAscii);
      expect(body.includes('\\u')).toBe(ensureAscii);
      const created = await cli(b, 'POST', '/v1/inquiry', body);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.name).toBe(name);
      const note = compact({ content: '고객 통화 완료 👍 — 다음 주 미팅' }, ensureAscii);
      const history = await cli(b, 'POST', `/v1/inquiry/${created.body.id}/text_history`, note);
      expect(history.status).toBe(201);
      expect(history.body.content).toBe('고객 통화 완료 👍 — 다음 주 미팅');
      const read = await cli(b, 'GET', `/v1/inquiry/${created.body.id}`);
      expect(read.body.name).toBe(name);
      expect(read.body.estimate).toBe('1500000.00');
    }
    // A signature over other bytes (the body re-serialised with spaces) does not verify.
    const body = compact({ name }, false);
    const res = await raw(undefined, {
      method: 'POST',
      url: '/v1/inquiry',
      raw: { payload: body },
      headers: {
        'content-type': 'application/json',
        'x-api-key': b.apiKey,
        'x-signature': signBody(b.secretKey, JSON.stringify({ name }, null, 1)),
      },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toMatch(/X-Signature/);
  });
});

describe('edge functions: unsigned calls in the default (optional) signature mode', () => {
  it('a call without X-Signature passes; a wrong one is refused with detail', async () => {
    const b = await newBusiness(t);
    expect(t.config.signatureMode).toBe('optional');
    const created = await cli(b, 'POST', '/v1/client', compact({ companyName: '한빛 주식회사' }, false), false);
    expect(created.status).toBe(201);
    expect((await cli(b, 'GET', '/v1/client', '', false)).body.results[0].companyName).toBe('한빛 주식회사');
    expect((await cli(b, 'DELETE', `/v1/client/${created.body.id}`, '', false)).status).toBe(204);
    const wrong = await raw(undefined, {
      method: 'GET',
      url: '/v1/client',
      headers: { 'x-api-key': b.apiKey, 'x-signature': 'deadbeef' },
    });
    expect(wrong.statusCode).toBe(403);
    expect(typeof wrong.json().detail).toBe('string');
  });
});

describe('scripts that page: page_size as a string, next followed verbatim', () => {
  it('walks every page by following the full next URL as given', async () => {
    const b = await newBusiness(t);
    const names = Array.from({ length: 7 }, (_, i) => `거래처 ${i + 1}`);
    for (const companyName of names) await cli(b, 'POST', '/v1/client', compact({ companyName }, false));
    const seen: string[] = [];
    let url: string | null = `/v1/client?page_size=${encodeURIComponent('3')}&search=${encodeURIComponent('거래처')}`;
    let pages = 0;
    while (url) {
      const page = await cli(b, 'GET', url);
      expect(page.status, url).toBe(200);
      expect(page.body.results.length).toBeLessThanOrEqual(3);
      seen.push(...page.body.results.map((c: { companyName: string }) => c.companyName));
      if (page.body.next) {
        expect(page.body.next).toMatch(/^https?:\/\//);
        expect(new URL(page.body.next as string).searchParams.get('search')).toBe('거래처');
      }
      url = page.body.next as string | null; // absolute: http://host/v1/client?…
      pages += 1;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual([...names].reverse());
  });

  it('a page_size that is not a number answers 400 on page_size; a tampered next answers 404 Invalid cursor', async () => {
    const b = await newBusiness(t);
    const bad = await cli(b, 'GET', '/v1/client?page_size=twenty');
    expect(bad.status).toBe(400);
    expect(bad.body.page_size).toEqual(['A valid integer is required.']);
    for (const companyName of ['A', 'B']) await cli(b, 'POST', '/v1/client', compact({ companyName }, false));
    const first = await cli(b, 'GET', '/v1/client?page_size=1');
    const tampered = (first.body.next as string).replace(
      /cursor=(.)/,
      (_m, c: string) => `cursor=${c === 'A' ? 'B' : 'A'}`,
    );
    const res = await cli(b, 'GET', tampered);
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe('Invalid cursor');
  });
});

describe('a daily briefing: parallel date-filtered lists', () => {
  it('today’s inquiries, todos due, this month’s contracts and settlements, active projects — and what it reads', async () => {
    const b = await newBusiness(t, {
      catalog: {
        ...testCatalog(),
        settlementTypes: [{ key: 'ins', baseType: 'INS', category: 'I', title: '중도금', allowsMultipleRounds: true }],
      },
    });
    const today = todayIn(b.timezone);
    const month = today.slice(0, 7);
    const lastDay = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0))
      .toISOString()
      .slice(0, 10);
    const inquiry = (await cli(b, 'POST', '/v1/inquiry', compact({ name: '오늘의 문의 ☀️' }, false))).body;
    await cli(b, 'POST', '/v1/inquiry', compact({ name: '지난 문의', inquiryDate: '2020-01-01' }, false));
    await cli(
      b,
      'POST',
      '/v1/todo',
      compact({ inquiry: { id: inquiry.id }, type: 'CA', dueDate: today, action: '고객에게 전화 📞' }, false),
    );
    await cli(
      b,
      'POST',
      '/v1/todo',
      compact({ inquiry: { id: inquiry.id }, type: 'M', dueDate: '2099-01-01', action: 'Later' }, false),
    );
    const contract = (
      await cli(
        b,
        'POST',
        '/v1/contract',
        compact(
          { title: '웹사이트 구축 계약', amount: 33_000_000, type: 'I', startDate: `${month}-01`, endDate: lastDay },
          false,
        ),
      )
    ).body;
    expect(contract.id).toEqual(expect.any(Number));
    const settlement = await cli(
      b,
      'POST',
      '/v1/settlement',
      compact(
        {
          title: '1차 중도금',
          amount: 10_000_000,
          additionalAmount: 0,
          vat: 1_000_000,
          contract: { id: contract.id },
          type: { id: b.ids.settlementTypes.ins },
          dueDate: today,
        },
        false,
      ),
    );
    expect(settlement.status, JSON.stringify(settlement.body)).toBe(201);
    await cli(b, 'POST', '/v1/project', compact({ title: '진행 중 프로젝트', status: 'I' }, false));
    await cli(b, 'POST', '/v1/project', compact({ title: '끝난 프로젝트', status: 'E' }, false));

    const [inquiries, todos, contracts, settlements, projects] = await Promise.all([
      cli(b, 'GET', `/v1/inquiry?inquiry_date_start=${today}&inquiry_date_end=${today}&page_size=100`),
      cli(b, 'GET', `/v1/todo?is_complete=false&due_date_end=${today}&page_size=100`),
      cli(b, 'GET', `/v1/contract?created_start=${month}-01&created_end=${lastDay}&page_size=100`),
      cli(b, 'GET', `/v1/settlement?due_date_start=${month}-01&due_date_end=${lastDay}&page_size=100`),
      cli(b, 'GET', '/v1/project?status=I&page_size=100'),
    ]);
    for (const res of [inquiries, todos, contracts, settlements, projects])
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    // What the briefing prints.
    expect(inquiries.body.results.map((i: any) => `${i.name} [${i.status.title} / ${i.status.folder.name}]`)).toEqual([
      '오늘의 문의 ☀️ [New / Sales]',
    ]);
    expect(todos.body.results.map((x: any) => x.action)).toEqual(['고객에게 전화 📞']);
    expect(contracts.body.results.map((c: any) => c.title)).toEqual(['웹사이트 구축 계약']);
    expect(settlements.body.results.map((s: any) => `${s.title} ${s.amount + s.vat}`)).toEqual(['1차 중도금 11000000']);
    expect(projects.body.results.map((p: any) => p.title)).toEqual(['진행 중 프로젝트']);
  });

  it('the errors a client shows are in detail (or per property for validation)', async () => {
    const b = await newBusiness(t);
    const missing = await cli(b, 'GET', '/v1/inquiry/2147483000');
    expect(missing.body.detail).toBe('Not found.');
    const unauth = await raw(undefined, {
      method: 'GET',
      url: '/v1/inquiry',
      headers: { 'content-type': 'application/json' },
    });
    expect(unauth.statusCode).toBe(401);
    expect(typeof unauth.json().detail).toBe('string');
    const invalid = await cli(b, 'POST', '/v1/todo', compact({ type: 'CA' }, false));
    expect(invalid.status).toBe(400);
    expect(invalid.body.inquiry).toEqual(['This field is required.']);
  });
});
