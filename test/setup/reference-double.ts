/**
 * A double of the reference service, written from ../shared/spec/reference-api.md (and business-api.md), not
 * from bizapi's answers: a real HTTP server on 127.0.0.1 for the import tests
 * (docs/deployment.md#11-moving-a-business-in-and-out).
 *
 * - Documented paths and shapes only; anything else is a 404 with an HTML body (as Django answers). Record
 *   shapes leave out what the reference does not document (`isHidden` of clients, inquiries, contracts and
 *   settlements; `created` of estimate items; `updated` everywhere).
 * - Every request signed (version 1: `X-API-Key`, `X-Signature` = lowercase hex HMAC-SHA256 of the raw body
 *   with the secret key): a missing key is a 401, a wrong signature a 403 with the static body `<p></p>`.
 * - Cursor pagination: `{next, previous, results}`, `next` an absolute URL; folders and settlement types
 *   are plain arrays. Records list newest first.
 * - Large ids with gaps: one client has id 3,000,000,123 (above 2^31 − 1, below 2^52); the estimate item
 *   classification a client hard-codes is 2648.
 * - Hidden records appear only through the documented `is_hidden` filter of the lists.
 * - A 429 with `Retry-After: 1` now and then (`throttleEvery`).
 * - Variants for what the document leaves open (`variant`): the item shapes of the e-mail, e-mail reply,
 *   status, folder and submit histories and of `/v1/inquiry/work`, and an attachment entry without `created`.
 *
 * Exported for other tests (hostile sources): `options.intercept` answers any request first, and
 * `options.mutate` changes the data set before the server starts.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

type Obj = Record<string, any>;

/** What the document leaves open, chosen per run. */
export interface ReferenceVariant {
  /** Item shapes of the e-mail, reply, status, folder and submit histories: `'bizapi'` (the shapes bizapi answers), or `'other'` (other property names). */
  historyShapes?: 'bizapi' | 'other';
  /** One attachment entry without `created` (its shape is not documented). */
  fileWithoutCreated?: boolean;
}

/** Options of {@link startReferenceDouble}. */
export interface ReferenceDoubleOptions {
  /** Answer every n-th request (counted from 1) with 429 `Retry-After: 1`; 0 never (default 0). */
  throttleEvery?: number;
  /** Most entries a page holds whatever `page_size` asks (default 100). */
  maxPageSize?: number;
  variant?: ReferenceVariant;
  /** Changes the data set before the server starts. */
  mutate?: (data: ReferenceData) => void;
  /** Sees every request first; answers it (and returns true) to replace the double's answer. */
  intercept?: (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => boolean | Promise<boolean>;
}

/** The business the double serves: every list as the reference answers it, full shapes. */
export interface ReferenceData {
  members: Obj[];
  folders: Obj[];
  inquiryStatuses: Obj[];
  clientStatuses: Obj[];
  /** Fields with their record kind `category` (`I`, `C`, `CO`), which the answers leave out. */
  fields: Obj[];
  contractCategories: Obj[];
  settlementTypes: Obj[];
  classifications: Obj[];
  workers: Obj[];
  /** Full shapes, plus `hidden` (answered only through the `is_hidden` filter). */
  clients: Obj[];
  inquiries: Obj[];
  contracts: Obj[];
  settlements: Obj[];
  projects: Obj[];
  todos: Obj[];
  estimateItems: Obj[];
  /** Histories by inquiry id, by kind (`text_history`, `email_history`, …). */
  histories: Record<number, Record<string, Obj[]>>;
  contractNotes: Record<number, Obj[]>;
  settlementNotes: Record<number, Obj[]>;
  /** Attachment bytes by file id. */
  files: Record<number, Buffer>;
  /** Tasks (`GET /v1/inquiry/work`). */
  works: Obj[];
}

/** A running double. */
export interface ReferenceDouble {
  baseUrl: string;
  keys: { apiKey: string; secretKey: string };
  data: ReferenceData;
  /** Every request received: `METHOD path?query`. */
  requests: string[];
  stop(): Promise<void>;
}

/** The id above 2^31 − 1 (and below 2^52) one client has. */
export const LARGE_ID = 3_000_000_123;

const at = (day: number, hour = 9) => `2026-0${1 + (day % 9)}-1${day % 10}T0${hour % 10}:15:30.123456+09:00`;

/** The default data set (see the module comment); `variant` shapes the undocumented parts. */
export function referenceData(variant: ReferenceVariant = {}): ReferenceData {
  const grade = { id: 71, title: '팀장' };
  const members = [
    { id: 501, nickname: '김담당', email: 'kim@example.kr', isActive: true, grade },
    { id: 507, nickname: '이영업', email: 'lee@example.kr', isActive: false, grade: { id: 74, title: '사원' } },
  ];
  const folders = [
    { id: 11, name: '영업', isDefault: true },
    { id: 19, name: '완료', isDefault: false },
  ];
  const folderRef = (id: number) => ({ id, name: folders.find((f) => f.id === id)!.name });
  const inquiryStatuses = [
    { id: 31, title: '신규', folder: folderRef(11) },
    { id: 38, title: '계약', folder: folderRef(19) },
  ];
  const clientStatuses = [
    { id: 41, title: '잠재' },
    { id: 45, title: '거래중' },
  ];
  const fields = [
    { id: 61, name: '유입 경로', dataType: 'S', optionSet: [], memberSet: [], category: 'I' },
    {
      id: 66,
      name: '등급',
      dataType: 'SL',
      optionSet: [
        { id: 'a', title: 'A' },
        { id: 'b', title: 'B' },
      ],
      memberSet: [],
      category: 'C',
    },
  ];
  const contractCategories = [{ id: 81, title: '웹 개발' }];
  const settlementTypes = [
    { id: 91, baseType: 'INI', category: 'I', title: '선금', allowsMultipleRounds: false },
    { id: 95, baseType: 'SUB', category: 'I', title: '회차', allowsMultipleRounds: true },
  ];
  const classifications = [
    { id: 2648, title: '디자인' },
    { id: 2702, title: '개발' },
  ];
  const positions = [{ id: 121, title: '디자이너', symbolColor: '#ff8800' }];
  const workers = [
    {
      id: 131,
      name: '박작업',
      created: at(1),
      position: positions[0],
      order: 1,
      isHidden: false,
      manMonthAmount: 6500000,
    },
    { id: 137, name: '최숨김', created: at(2), position: positions[0], order: 2, isHidden: true, manMonthAmount: 0 },
  ];
  const clientIds = [201, 205, 230, 231, LARGE_ID];
  const clients = clientIds.map((id, i) => ({
    id,
    companyName: `주식회사 참조 ${i}`,
    created: at(i),
    status: clientStatuses[i % 2],
    inCharge: `담당 ${i}`,
    position: '대표',
    contact: `010-0000-000${i}`,
    email: `c${i}@example.kr`,
    content: `메모 ${i}`,
    businessRegistrationNumber: null,
    ceoName: '홍길동',
    companyAddress: '서울',
    companyDetailAddress: null,
    businessType: null,
    businessClass: null,
    branchNumber: null,
    taxInvoiceEmail: null,
    fieldSet:
      i === 0
        ? [
            {
              field: { id: 66, name: '등급', dataType: 'SL', optionSet: fields[1]!.optionSet, memberSet: [] },
              value: 'a',
            },
          ]
        : [],
    hidden: i === 2 || i === 3,
  }));
  const clientSummary = (c: Obj) => ({
    id: c.id,
    status: c.status,
    companyName: c.companyName,
    inCharge: c.inCharge,
    position: c.position,
    contact: c.contact,
    email: c.email,
  });
  const inquiryIds = [301, 302, 310];
  let fileId = 701;
  const files: Record<number, Buffer> = {};
  const works: Obj[] = [];
  let workId = 801;
  const inquiries = inquiryIds.map((id, i) => {
    const fileSet = [0, 1].slice(0, i === 0 ? 2 : 1).map((n) => {
      const fid = fileId++;
      files[fid] = Buffer.from(`%PDF-1.4\n% 첨부 ${fid}\n${'x'.repeat(100 + n)}\n%%EOF\n`);
      const entry: Obj = { id: fid, name: `견적서 ${fid}.pdf`, file: `/files/${fid}.pdf`, created: at(i, 3) };
      if (variant.fileWithoutCreated && i === 0 && n === 1) delete entry.created;
      return entry;
    });
    const workSet = [{ name: `할 일 ${i}` }];
    works.push({ id: workId++, name: workSet[0]!.name, created: at(i, 4), inquiry: { id, name: `문의 ${i}` } });
    return {
      id,
      uniqueId: String(1000 + i),
      status: inquiryStatuses[i % 2],
      client: clientSummary(clients[i]!),
      contract: null as Obj | null,
      name: `문의 ${i}`,
      content: `문의 내용 ${i}`,
      estimate: `${1500000 + i}.00`,
      inquiryDate: `2026-10-1${i}`,
      funnel: {
        utmCampaign: null,
        utmSource: 'naver',
        utmMedium: null,
        utmContent: null,
        utmTerm: null,
        guestUid: null,
        gclid: null,
      },
      workSet,
      inChargeSet: [members[0]],
      fieldSet: [{ field: { id: 61, name: '유입 경로', dataType: 'S', optionSet: [], memberSet: [] }, value: '검색' }],
      fileLinkSet: [{ id: 901 + i, text: '기획서', link: `https://docs.example.kr/${i}`, created: at(i, 5) }],
      fileSet,
      created: at(i),
      hidden: i === 1,
    };
  });
  const histories: Record<number, Record<string, Obj[]>> = {};
  let historyId = 1001;
  const other = variant.historyShapes === 'other';
  for (const [i, inq] of inquiries.entries()) {
    const h: Record<string, Obj[]> = {};
    h.text_history = [{ id: historyId++, content: `통화 ${i}`, created: at(i, 6), member: members[0] }];
    h.email_history = [
      other
        ? { id: historyId++, subject: `견적 ${i}`, to: ['a@example.kr'], cc: [], sendStatus: 'S', created: at(i, 7) }
        : {
            id: historyId++,
            title: `견적 ${i}`,
            fromEmail: 'kim@example.kr',
            toSet: [{ toEmail: 'a@example.kr' }],
            ccSet: [],
            status: 'S',
            sentAt: at(i, 7),
            created: at(i, 7),
          },
    ];
    h.email_reply_history = [
      {
        id: historyId++,
        title: `회신 ${i}`,
        fromEmail: 'a@example.kr',
        toSet: [{ toEmail: 'kim@example.kr' }],
        ccSet: [{ ccEmail: 'lee@example.kr' }],
        isUnread: i === 0,
        receivedAt: at(i, 8),
        created: at(i, 8),
      },
    ];
    h.status_history = [
      other
        ? {
            id: historyId++,
            statusName: inq.status!.title,
            symbolColor: '#00aa00',
            member: members[0],
            created: at(i, 8),
          }
        : { id: historyId++, status: inq.status!, previousStatus: inquiryStatuses[0], member: null, created: at(i, 8) },
    ];
    h.folder_history = [
      other
        ? { id: historyId++, previousFolderName: '영업', folderName: '완료', member: members[0], created: at(i, 8) }
        : {
            id: historyId++,
            folder: folderRef(19),
            previousFolder: folderRef(11),
            member: members[0],
            created: at(i, 8),
          },
    ];
    h.submit_history = [
      other
        ? { id: historyId++, formId: 5, formTitle: '상담 신청', created: at(i, 2) }
        : { id: historyId++, form: { id: 5, title: '상담 신청' }, answers: { 이름: '홍길동' }, created: at(i, 2) },
    ];
    histories[inq.id] = h;
  }
  const inquirySummary = (q: Obj) => ({
    id: q.id,
    status: q.status,
    name: q.name,
    estimate: q.estimate,
    inquiryDate: q.inquiryDate,
  });
  const contracts = [401, 420].map((id, i) => ({
    id,
    contractNumber: `C-${i}`,
    title: `계약 ${i}`,
    amount: 10000000 + i,
    type: 'I',
    status: 'P',
    startDate: '2026-12-01',
    endDate: '2027-03-31',
    created: at(i, 1),
    inquiry: inquirySummary(inquiries[i]!),
    client: clientSummary(clients[i]!),
    categorySet: [contractCategories[0]],
    vatType: 'E',
    settlementFrequency: null,
    settlementCycle: null,
    settlementDay: null,
    fieldSet: [],
    hidden: i === 1,
  }));
  const contractSummary = (c: Obj) => ({
    id: c.id,
    title: c.title,
    amount: c.amount,
    type: c.type,
    status: c.status,
    startDate: c.startDate,
    endDate: c.endDate,
  });
  for (const [i, c] of contracts.entries()) inquiries[i]!.contract = contractSummary(c);
  const contractNotes: Record<number, Obj[]> = {
    401: [{ id: 1101, content: '계약 메모', created: at(3), member: members[0] }],
    420: [],
  };
  const settlements = [451, 458].map((id, i) => ({
    id,
    title: `정산 ${i}`,
    status: 'C',
    amount: 3000000,
    additionalAmount: 0,
    vat: 300000,
    settlementRound: 1,
    isTaxInvoiceIssued: false,
    isTaxInvoiceNeeded: true,
    typeAlias: settlementTypes[1]!.title,
    created: at(i, 2),
    contract: contractSummary(contracts[i]!),
    type: settlementTypes[1],
    dueDate: '2026-12-10',
    settledDate: null,
    taxInvoiceIssuedDate: null,
    taxInvoiceIssueDueDate: null,
    inChargeSet: [members[0]],
    hidden: i === 0,
  }));
  const settlementNotes: Record<number, Obj[]> = {
    451: [{ id: 1201, content: '정산 메모', created: at(4), member: null }],
    458: [],
  };
  const projects = [
    {
      id: 601,
      title: '프로젝트',
      created: at(5),
      contract: contractSummary(contracts[0]!),
      status: 'U',
      symbolColor: '#2f80ed',
      startDate: '2026-12-01',
      endDate: '2027-02-28',
      actualEndDate: null,
      isHidden: true,
    },
  ];
  const todos = [
    {
      id: 651,
      inquiry: { id: 301, name: '문의 0' },
      inCharge: members[0],
      completedInCharge: null,
      type: 'CA',
      dueDate: '2026-11-25',
      dueTime: '10:00:00',
      action: '전화하기',
      actionHistory: null,
      isComplete: false,
      completedAt: null,
      dDay: 0,
      created: at(6),
    },
  ];
  // The documented estimate item shape has no `created` (reference-api.md, estimate item templates).
  const estimateItems = [
    {
      id: 91071,
      title: '디자인',
      unitCost: '450000.00',
      unit: 'M/M',
      image: '',
      description: '화면 설계',
      classification: classifications[0],
    },
    {
      id: 91090,
      title: '개발',
      unitCost: '600000.00',
      unit: 'M/M',
      image: '',
      description: null,
      classification: classifications[1],
    },
  ];
  return {
    members,
    folders,
    inquiryStatuses,
    clientStatuses,
    fields,
    contractCategories,
    settlementTypes,
    classifications,
    workers,
    clients,
    inquiries,
    contracts,
    settlements,
    projects,
    todos,
    estimateItems,
    histories,
    contractNotes,
    settlementNotes,
    files,
    works,
  };
}

const withoutHidden = (r: Obj): Obj => {
  const { hidden: _hidden, ...rest } = r;
  return rest;
};

/** Starts the double on a free port of 127.0.0.1. */
export async function startReferenceDouble(options: ReferenceDoubleOptions = {}): Promise<ReferenceDouble> {
  const data = referenceData(options.variant);
  options.mutate?.(data);
  const keys = {
    apiKey: `ref_${crypto.randomBytes(8).toString('hex')}`,
    secretKey: crypto.randomBytes(24).toString('hex'),
  };
  const requests: string[] = [];
  const maxPage = options.maxPageSize ?? 100;
  let count = 0;
  let baseUrl = '';

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const html = (res: http.ServerResponse, status: number, body: string) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body);
  };
  /** A cursor page of `items` (the `cursor` is the offset, base64), `next` absolute with the same query. */
  const page = (res: http.ServerResponse, url: URL, items: Obj[]) => {
    const size = Math.min(maxPage, Math.max(1, Number(url.searchParams.get('page_size') ?? 20) || 20));
    const cursor = url.searchParams.get('cursor');
    const offset = cursor ? Number(Buffer.from(cursor, 'base64').toString().replace(/^o=/, '')) : 0;
    const link = (o: number) => {
      const next = new URL(url.pathname + url.search, baseUrl);
      next.searchParams.set('cursor', Buffer.from(`o=${o}`).toString('base64'));
      return next.href;
    };
    json(res, 200, {
      next: offset + size < items.length ? link(offset + size) : null,
      previous: offset > 0 ? link(Math.max(0, offset - size)) : null,
      results: items.slice(offset, offset + size),
    });
  };
  const hiddenFilter = (url: URL, items: Obj[]) => {
    const v = url.searchParams.get('is_hidden');
    if (v === null) return items;
    const want = v === 'true' || v === 'True' || v === '1';
    return items.filter((r) => Boolean(r.hidden ?? r.isHidden) === want);
  };
  const newestFirst = (items: Obj[]) => [...items].sort((a, b) => b.id - a.id);

  const route = (url: URL): ((res: http.ServerResponse) => void) | undefined => {
    const p = url.pathname;
    const byId = (items: Obj[], id: string) => items.find((r) => String(r.id) === id);
    const one = (item: Obj | undefined) => (res: http.ServerResponse) =>
      item ? json(res, 200, withoutHidden(item)) : json(res, 404, { detail: 'Not found.' });
    const list =
      (items: Obj[], filter = false) =>
      (res: http.ServerResponse) =>
        page(res, url, newestFirst(filter ? hiddenFilter(url, items) : items).map(withoutHidden));
    let m: RegExpMatchArray | null;
    if (p === '/v1/member') return list(data.members);
    if (p === '/v1/folder') return (res) => json(res, 200, data.folders);
    if (p === '/v1/inquiry/status') return (res) => page(res, url, data.inquiryStatuses);
    if (p === '/v1/client/status') return (res) => page(res, url, data.clientStatuses);
    if (p === '/v1/field') {
      const category = url.searchParams.get('category');
      return (res) =>
        page(
          res,
          url,
          newestFirst(data.fields.filter((f) => category === null || f.category === category)).map(
            ({ category: _c, ...f }) => f,
          ),
        );
    }
    if (p === '/v1/contract/category') return (res) => page(res, url, data.contractCategories);
    if (p === '/v1/settlement/type') return (res) => json(res, 200, data.settlementTypes);
    if (p === '/v1/estimate/item/classification') return (res) => page(res, url, data.classifications);
    if (p === '/v1/worker') return list(data.workers, true);
    if ((m = /^\/v1\/worker\/(\d+)$/.exec(p))) return one(byId(data.workers, m[1]!));
    if (p === '/v1/client') return list(data.clients, true);
    if ((m = /^\/v1\/client\/(\d+)$/.exec(p))) return one(byId(data.clients, m[1]!));
    if (p === '/v1/inquiry') return list(data.inquiries, true);
    if (p === '/v1/inquiry/work') return list(data.works);
    if ((m = /^\/v1\/inquiry\/(\d+)$/.exec(p))) {
      const inquiry = byId(data.inquiries, m[1]!);
      // `fileSet[].file`: a pre-signed download URL, absolute.
      return one(
        inquiry && {
          ...inquiry,
          fileSet: inquiry.fileSet.map((f: Obj) => ({ ...f, file: `${baseUrl}${f.file}?X-Amz-Signature=${f.id}` })),
        },
      );
    }
    if (
      (m =
        /^\/v1\/inquiry\/(\d+)\/(text_history|email_history|email_reply_history|status_history|folder_history|submit_history)$/.exec(
          p,
        ))
    ) {
      const h = data.histories[Number(m[1])];
      return h ? list(h[m[2]!]!) : one(undefined);
    }
    if (p === '/v1/contract') return list(data.contracts, true);
    if ((m = /^\/v1\/contract\/(\d+)$/.exec(p))) return one(byId(data.contracts, m[1]!));
    if ((m = /^\/v1\/contract\/(\d+)\/history$/.exec(p))) {
      const notes = data.contractNotes[Number(m[1])];
      return notes ? list(notes) : one(undefined);
    }
    if (p === '/v1/settlement') return list(data.settlements, true);
    if ((m = /^\/v1\/settlement\/(\d+)$/.exec(p))) return one(byId(data.settlements, m[1]!));
    if ((m = /^\/v1\/settlement\/(\d+)\/history$/.exec(p))) {
      const notes = data.settlementNotes[Number(m[1])];
      return notes ? list(notes) : one(undefined);
    }
    if (p === '/v1/project') return list(data.projects, true);
    if ((m = /^\/v1\/project\/(\d+)$/.exec(p))) return one(byId(data.projects, m[1]!));
    if (p === '/v1/todo') return list(data.todos);
    if ((m = /^\/v1\/todo\/(\d+)$/.exec(p))) return one(byId(data.todos, m[1]!));
    if (p === '/v1/estimate/item') return list(data.estimateItems);
    if ((m = /^\/v1\/estimate\/item\/(\d+)$/.exec(p))) return one(byId(data.estimateItems, m[1]!));
    return undefined;
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', baseUrl);
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    if (options.intercept && (await options.intercept(req, res, url))) return;
    // Attachments: pre-signed URLs, no API key (S3).
    const file = /^\/files\/(\d+)\.pdf$/.exec(url.pathname);
    if (file && req.method === 'GET') {
      const bytes = data.files[Number(file[1])];
      if (!bytes) return html(res, 404, '<Error><Code>NoSuchKey</Code></Error>');
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': bytes.length });
      return res.end(bytes);
    }
    count++;
    if (options.throttleEvery && count % options.throttleEvery === 0) {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
      return res.end(JSON.stringify({ detail: 'Request was throttled. Expected available in 1 second.' }));
    }
    const handler = req.method === 'GET' ? route(url) : undefined;
    if (!handler)
      return html(
        res,
        404,
        '<!doctype html><html><head><title>Not Found</title></head><body><h1>Not Found</h1><p>The requested resource was not found on this server.</p></body></html>',
      );
    if (req.headers['x-api-key'] !== keys.apiKey) return json(res, 401, { detail: 'Invalid API key.' });
    const expected = crypto.createHmac('sha256', keys.secretKey).update(body).digest('hex');
    const given = String(req.headers['x-signature'] ?? '');
    if (given.length !== expected.length || !crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected)))
      return html(res, 403, '<p></p>');
    handler(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    keys,
    data,
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
