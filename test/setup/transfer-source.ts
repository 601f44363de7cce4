/**
 * A source business for the transfer tests (docs/deployment.md#11-moving-a-business-in-and-out): a real
 * `bizapi serve` process on its own SQLite file holding the demo business (which carries every inquiry
 * history kind, attachments, contracts with settlements, projects, workers, todos and estimate items) plus
 * generated data of every resource — custom fields of every data type on every record kind, Korean text,
 * notes and histories, attachments, hidden and soft-deleted records — and helpers that read a business
 * through the API for comparison.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createBizapi } from '@bizapi/client';
import { type BizapiProcess, runUntilExit, serverEnv, startBizapi } from './server-process.ts';

/** An API key pair. */
export interface Keys {
  apiKey: string;
  secretKey: string;
}

/** A signed JSON caller of one server. */
export interface Caller {
  baseUrl: string;
  /** Sends a signed request; answers the parsed JSON (`undefined` for 204). @throws on a non-2xx answer */
  call(method: string, urlPath: string, body?: unknown): Promise<any>;
  /** Every item of a list (following `next`; a plain array as it is). */
  all(urlPath: string): Promise<any[]>;
}

/** A signed caller of `baseUrl` (signature version 1, no retries). */
export function caller(baseUrl: string, keys: Keys): Caller {
  const api = createBizapi({ baseUrl, ...keys, signatureVersion: 'v1', retry: { retries: 0 } });
  const call = async (method: string, urlPath: string, body?: unknown) => {
    const init: RequestInit = { method, headers: { Accept: 'application/json' } };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
    }
    const res = await api.fetch(urlPath.startsWith('http') ? urlPath : `${baseUrl}${urlPath}`, init);
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${urlPath}: ${res.status} ${text}`);
    return text === '' ? undefined : JSON.parse(text);
  };
  const all = async (urlPath: string) => {
    let page = await call('GET', urlPath);
    if (Array.isArray(page)) return page;
    const out: any[] = [...page.results];
    while (typeof page.next === 'string') {
      page = await call('GET', page.next);
      out.push(...page.results);
    }
    return out;
  };
  return { baseUrl, call, all };
}

/** A running source server. */
export interface SourceServer {
  dir: string;
  baseUrl: string;
  keys: Keys;
  process: BizapiProcess;
  stop(): Promise<void>;
}

/** Extra custom fields: every data type on every record kind, Korean names and options. */
function extraCatalog() {
  const kinds = [
    ['I', '의뢰'],
    ['C', '고객'],
    ['CO', '계약'],
  ] as const;
  const fields = kinds.flatMap(([category, word]) => [
    { key: `${category}_s`, name: `${word} 메모`, category, dataType: 'S' },
    { key: `${category}_t`, name: `${word} 긴 설명`, category, dataType: 'T' },
    { key: `${category}_n`, name: `${word} 숫자`, category, dataType: 'N' },
    { key: `${category}_d`, name: `${word} 날짜`, category, dataType: 'D' },
    { key: `${category}_b`, name: `${word} 여부`, category, dataType: 'B' },
    {
      key: `${category}_sl`,
      name: `${word} 채널`,
      category,
      dataType: 'SL',
      options: [
        { id: 'web', title: '웹' },
        { id: 'tel', title: '전화' },
      ],
    },
    {
      key: `${category}_ml`,
      name: `${word} 태그`,
      category,
      dataType: 'ML',
      options: [
        { id: 'a', title: '가' },
        { id: 'b', title: '나' },
      ],
    },
    { key: `${category}_m`, name: `${word} 담당`, category, dataType: 'M', members: ['ext'] },
  ]);
  return {
    grades: [{ key: 'ext', title: '외부' }],
    members: [
      {
        key: 'ext',
        nickname: '외부 담당자',
        email: 'ext@example.kr',
        isActive: true,
        grade: 'ext',
        notificationsEnabled: false,
      },
    ],
    fields,
    contractCategories: [{ key: 'kr', title: '국내 사업' }],
  };
}

/**
 * Starts a source: `bizapi demo` into `<dir>/source.db`, the extra catalog, then `bizapi serve` (rate limit
 * off) on it. The caller generates data with {@link generateData} and stops it.
 */
export async function startSource(env: Record<string, string> = {}): Promise<SourceServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-source-'));
  const base = serverEnv({
    databaseUrl: `sqlite:${path.join(dir, 'source.db')}`,
    dataDir: dir,
    env: { BIZAPI_RATE_LIMIT: '0', ...env },
  });
  const demo = await runUntilExit(['demo'], base);
  if (demo.code !== 0) throw new Error(`bizapi demo failed: ${demo.stderr}`);
  const created = JSON.parse(demo.stdout) as { business: { id: number } } & Keys;
  const catalogFile = path.join(dir, 'catalog.json');
  fs.writeFileSync(catalogFile, JSON.stringify(extraCatalog()));
  const imported = await runUntilExit(
    ['catalog', 'import', '--business', String(created.business.id), catalogFile],
    base,
  );
  if (imported.code !== 0) throw new Error(`bizapi catalog import failed: ${imported.stderr}`);
  const server = await startBizapi(['serve'], base);
  const baseUrl = `http://127.0.0.1:${server.port}`;
  return {
    dir,
    baseUrl,
    keys: { apiKey: created.apiKey, secretKey: created.secretKey },
    process: server,
    stop: async () => {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A small PDF-like byte string (any bytes: the server stores what it receives). */
function fileBytes(n: number): Buffer {
  return Buffer.from(`%PDF-1.4\n% 첨부 ${n}\n${'x'.repeat(200 + n * 37)}\n%%EOF\n`, 'utf8');
}

/** Uploads bytes through `POST /v1/presigned` and a `PUT`; answers the path to attach. */
async function upload(api: Caller, name: string, bytes: Buffer): Promise<string> {
  const { url, path: objectPath } = await api.call('POST', '/v1/presigned', { name });
  const res = await fetch(url, { method: 'PUT', body: new Uint8Array(bytes) });
  if (!res.ok) throw new Error(`PUT ${url}: ${res.status}`);
  return objectPath as string;
}

/**
 * Generates data of every resource on the source business through its API: `n` clients, inquiries and
 * contracts (each with a settlement, notes and a project), workers, todos and estimate items; custom field
 * values of every data type; Korean text; attachments; status changes (status and folder histories); text
 * notes; hidden records; and soft-deleted ones (created, then deleted).
 */
export async function generateData(api: Caller, n = 4): Promise<void> {
  const fields = new Map<string, any[]>();
  for (const category of ['I', 'C', 'CO']) fields.set(category, await api.all(`/v1/field?category=${category}`));
  const members = await api.all('/v1/member');
  const statuses = await api.all('/v1/inquiry/status');
  const clientStatuses = await api.all('/v1/client/status');
  const categories = await api.all('/v1/contract/category');
  const types = await api.all('/v1/settlement/type');
  const classifications = await api.all('/v1/estimate/item/classification');
  const positions = (await api.all('/v1/worker')).map((w) => w.position).filter(Boolean);
  const value = (f: any, i: number): string => {
    switch (f.dataType) {
      case 'N':
        return String(1000 + i);
      case 'D':
        return `2026-0${(i % 9) + 1}-1${i % 10}`;
      case 'B':
        return i % 2 === 0 ? 'true' : 'false';
      case 'SL':
        return f.optionSet[i % f.optionSet.length].id;
      case 'ML':
        return f.optionSet.map((o: any) => o.id).join(',');
      case 'M':
        return String(f.memberSet[i % f.memberSet.length]?.id ?? '');
      default:
        return `값 ${i} — 한국어 텍스트`;
    }
  };
  const fieldSet = (category: string, i: number) =>
    fields
      .get(category)!
      .map((f) => ({ field: { id: f.id }, value: value(f, i) }))
      .filter((v) => v.value !== '');

  for (let i = 0; i < n; i++) {
    const client = await api.call('POST', '/v1/client', {
      companyName: `주식회사 테스트 ${i}`,
      inCharge: `김철수 ${i}`,
      position: '대표',
      contact: `010-1234-56${i}0`,
      email: `client${i}@example.kr`,
      content: `고객 메모 ${i}\n둘째 줄`,
      ceoName: '홍길동',
      companyAddress: '서울특별시 강남구',
      status: { id: clientStatuses[i % clientStatuses.length].id },
      fieldSet: fieldSet('C', i),
      isHidden: i === 1,
    });
    const files =
      i % 2 === 0 ? [{ name: `견적서 ${i}.pdf`, file: await upload(api, `견적서 ${i}.pdf`, fileBytes(i)) }] : [];
    const inquiry = await api.call('POST', '/v1/inquiry', {
      name: `홈페이지 제작 문의 ${i}`,
      client: { id: client.id },
      content: `문의 내용 ${i}`,
      estimate: `${1500000 + i}.50`,
      inquiryDate: `2026-10-1${i}`,
      status: { id: statuses[0].id },
      inChargeSet: members.slice(0, 2).map((m) => ({ id: m.id })),
      workSet: [{ name: `할 일 ${i}` }, { name: '견적 보내기' }],
      fileLinkSet: [{ text: '기획서', link: `https://docs.example.kr/${i}` }],
      funnel: { utmSource: 'naver', utmCampaign: `캠페인 ${i}` },
      fieldSet: fieldSet('I', i),
      fileSet: files,
      isHidden: i === 2,
    });
    // Status changes: status history, and a folder history when the folder changes.
    for (const s of [statuses[1], statuses[statuses.length - 1]])
      await api.call('PATCH', `/v1/inquiry/${inquiry.id}`, { status: { id: s.id } });
    await api.call('POST', `/v1/inquiry/${inquiry.id}/text_history`, {
      content: `통화함 ${i}`,
      member: { id: members[0].id },
    });
    await api.call('POST', `/v1/inquiry/${inquiry.id}/text_history`, {
      content: `메모 ${i}`,
      created: '2026-09-01T09:00:00+09:00',
    });
    const contract = await api.call('POST', '/v1/contract', {
      title: `계약 ${i}`,
      amount: 10_000_000 + i,
      type: 'I',
      inquiry: { id: inquiry.id },
      client: { id: client.id },
      startDate: '2026-12-01',
      endDate: '2027-03-31',
      categorySet: [{ id: categories[i % categories.length].id }],
      fieldSet: fieldSet('CO', i),
    });
    await api.call('POST', `/v1/contract/${contract.id}/history`, {
      content: `계약 메모 ${i}`,
      member: { id: members[1].id },
    });
    const type = types.find((t) => t.allowsMultipleRounds) ?? types[0];
    const settlement = await api.call('POST', '/v1/settlement', {
      title: `중도금 ${i}`,
      amount: 3_000_000,
      additionalAmount: 0,
      vat: 300_000,
      contract: { id: contract.id },
      type: { id: type.id },
      dueDate: '2026-12-10',
    });
    await api.call('POST', `/v1/settlement/${settlement.id}/history`, { content: `정산 메모 ${i}` });
    await api.call('POST', '/v1/project', {
      contract: { id: contract.id },
      title: `프로젝트 ${i}`,
      status: 'U',
      symbolColor: '#2f80ed',
      startDate: '2026-12-01',
      endDate: '2027-02-28',
    });
    if (positions.length > 0)
      await api.call('POST', '/v1/worker', {
        name: `작업자 ${i}`,
        position: { id: positions[i % positions.length].id },
        order: i + 1,
        manMonthAmount: 6_500_000,
      });
    await api.call('POST', '/v1/todo', {
      inquiry: { id: inquiry.id },
      type: 'CA',
      dueDate: '2026-11-25',
      dueTime: '10:00',
      action: `전화하기 ${i}`,
      inCharge: { id: members[0].id },
    });
    await api.call('POST', '/v1/estimate/item', {
      title: `디자인 ${i}`,
      unitCost: `${450000 + i}`,
      unit: 'M/M',
      description: '화면 설계',
      classification: classifications[0] ? { id: classifications[0].id } : null,
    });
  }
  // Soft-deleted records: not visible, not imported.
  const gone = await api.call('POST', '/v1/client', { companyName: '삭제된 고객' });
  await api.call('DELETE', `/v1/client/${gone.id}`);
  const goneInquiry = await api.call('POST', '/v1/inquiry', { name: '삭제된 문의' });
  await api.call('DELETE', `/v1/inquiry/${goneInquiry.id}`);
}

/** Removes download URLs (they point at each server and expire) from a JSON value, for comparison. */
export function withoutUrls(value: any): any {
  if (Array.isArray(value)) return value.map(withoutUrls);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'file' && typeof v === 'string' && /^https?:/.test(v)) continue;
    out[k] = withoutUrls(v);
  }
  return out;
}

/**
 * Reads a business through the API the way the equality test compares it: every list (default order and
 * a few filters, all pages' results), every record's `GET`, every history and note list. Keys are the
 * paths read; download URLs removed.
 */
export async function snapshot(api: Caller): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const take = async (p: string) => (out[p] = withoutUrls(await api.all(p)));
  for (const p of [
    '/v1/member',
    '/v1/folder',
    '/v1/inquiry/status',
    '/v1/client/status',
    '/v1/field',
    '/v1/field?category=I',
    '/v1/contract/category',
    '/v1/settlement/type',
    '/v1/estimate/item/classification',
    '/v1/client',
    '/v1/client?is_hidden=true',
    '/v1/client?search=%ED%85%8C%EC%8A%A4%ED%8A%B8',
    '/v1/inquiry',
    '/v1/inquiry?is_hidden=false',
    '/v1/inquiry/work',
    '/v1/contract',
    '/v1/settlement',
    '/v1/project',
    '/v1/worker',
    '/v1/todo',
    '/v1/estimate/item',
  ]) {
    await take(p);
  }
  const detail = async (list: string, one: (id: number) => string, extra: (id: number) => string[] = () => []) => {
    for (const item of out[list] as { id: number }[]) {
      out[one(item.id)] = withoutUrls(await api.call('GET', one(item.id)));
      for (const p of extra(item.id)) await take(p);
    }
  };
  await detail('/v1/client', (id) => `/v1/client/${id}`);
  await detail(
    '/v1/inquiry',
    (id) => `/v1/inquiry/${id}`,
    (id) =>
      [
        'text_history',
        'email_history',
        'email_reply_history',
        'status_history',
        'folder_history',
        'submit_history',
      ].map((h) => `/v1/inquiry/${id}/${h}`),
  );
  await detail(
    '/v1/contract',
    (id) => `/v1/contract/${id}`,
    (id) => [`/v1/contract/${id}/history`],
  );
  await detail(
    '/v1/settlement',
    (id) => `/v1/settlement/${id}`,
    (id) => [`/v1/settlement/${id}/history`],
  );
  await detail('/v1/project', (id) => `/v1/project/${id}`);
  await detail('/v1/worker', (id) => `/v1/worker/${id}`);
  await detail('/v1/todo', (id) => `/v1/todo/${id}`);
  await detail('/v1/estimate/item', (id) => `/v1/estimate/item/${id}`);
  return out;
}

/** The bytes of every attachment of a business, by inquiry id and file id. */
export async function attachmentBytes(api: Caller): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const { id } of await api.all('/v1/inquiry')) {
    const inquiry = await api.call('GET', `/v1/inquiry/${id}`);
    for (const f of inquiry.fileSet as { id: number; file: string }[]) {
      const res = await fetch(f.file);
      out[`${id}/${f.id}`] = Buffer.from(await res.arrayBuffer()).toString('base64');
    }
  }
  return out;
}
