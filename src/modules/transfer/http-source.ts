/**
 * The HTTP source of `bizapi import --from URL` (docs/deployment.md#11-moving-a-business-in-and-out): reads
 * one business through the public API of any server that speaks the protocol, with `@bizapi/client`, every
 * request signed (version 1, the reference service's; version 2 when the source demands it).
 *
 * Polite to the source (docs/deployment.md#11-moving-a-business-in-and-out): at most `rate` requests per minute, spaced evenly (a request starts
 * no sooner than `60000 / rate` ms after the previous one, retries and file downloads included); 429 and 503
 * wait for `Retry-After`; network errors and other 5xx answers are retried with back-off, 5 tries in all;
 * any other 4xx stops the import with an error naming the request.
 *
 * Requests per record (for the time estimate in the docs): one list page per 100 records (the task list
 * included, whose ids and times the inquiry shape leaves out: they are added to `workSet` entries) plus one `GET` per
 * client, inquiry, contract, settlement, project, worker, todo and estimate item; per inquiry six more (its
 * text, e-mail, e-mail reply, status, folder and submit histories, one page each up to 100 entries) and one
 * per attached file; per contract and settlement one more (its notes); and the `is_hidden=true` list of clients, inquiries,
 * contracts and settlements (one page per 100 hidden records).
 */
import { BizapiError, BizapiNetworkError, createBizapi, type Bizapi, type SignatureVersion } from '@bizapi/client';
import type { TransferFileRef, TransferItem, TransferOrigin, TransferSource, TransferType } from './transfer.types.ts';

/** Options of {@link createHttpSource}. */
export interface HttpSourceOptions {
  /** Base address of the source, without `/v1`. */
  url: string;
  apiKey: string;
  secretKey: string;
  /** Requests per minute at most (default 900); 0 turns pacing off. */
  rate?: number;
  /** Tries per request for network errors and 5xx (default 5). */
  tries?: number;
  /** First back-off delay in ms (default 500), doubled per retry. */
  baseDelayMs?: number;
  /** Called once per request attempt sent, with its method and URL (tests count them). */
  onRequest?: (method: string, url: string) => void;
  /**
   * The HTTP client (default `globalThis.fetch`): `bizapi export` passes one that answers from this server's
   * own routes in process, so an export reads exactly what an import from this server would.
   */
  fetch?: typeof globalThis.fetch;
}

/** A failure of the source that stops the import; the message names the request. */
export class SourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceError';
  }
}

/** Spaces calls at least `intervalMs` apart (start to start). */
function pacer(intervalMs: number): () => Promise<void> {
  let next = 0;
  return async () => {
    if (intervalMs <= 0) return;
    const now = Date.now();
    const at = Math.max(now, next);
    next = at + intervalMs;
    if (at > now) await new Promise((r) => setTimeout(r, at - now));
  };
}

/** A 5xx answer other than 503, turned into a failed attempt so that the client retries it with back-off. */
class RetryableStatus extends Error {}

const PAGE = { page_size: 100 };

type Obj = Record<string, unknown>;

/**
 * Creates the HTTP source. The first request (`GET /v1/client?page_size=1`) checks the key and secret
 * before anything is yielded, so a wrong key stops the import before it writes anything.
 */
export function createHttpSource(options: HttpSourceOptions): TransferSource {
  const base = options.url.replace(/\/+$/, '').replace(/\/v1$/, '');
  const rate = options.rate ?? 900;
  const pace = pacer(rate > 0 ? 60_000 / rate : 0);
  const tries = options.tries ?? 5;
  const baseDelay = options.baseDelayMs ?? 500;
  const send = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  const pacedFetch: typeof globalThis.fetch = async (input, init) => {
    await pace();
    const request = new Request(input, init);
    options.onRequest?.(request.method, request.url);
    const response = await send(request);
    if (response.status >= 500 && response.status !== 503) {
      await response.body?.cancel();
      throw new RetryableStatus(`answered ${response.status}`);
    }
    return response;
  };

  const client = (signatureVersion: SignatureVersion): Bizapi =>
    createBizapi({
      baseUrl: base,
      apiKey: options.apiKey,
      secretKey: options.secretKey,
      signatureVersion,
      fetch: pacedFetch,
      retry: { retries: tries - 1, baseDelayMs: baseDelay, maxDelayMs: 30_000, maxRetryAfterMs: 300_000 },
    });
  let api = client('v1');

  /** `GET path` (with `/v1`), JSON; translates failures into a {@link SourceError} naming the request. */
  async function get(path: string, query: Obj = {}): Promise<unknown> {
    const url = new URL(`${base}${path}`);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
    return getUrl(url.href);
  }

  async function getUrl(href: string): Promise<unknown> {
    let response: Response;
    try {
      response = await api.fetch(href, { headers: { Accept: 'application/json' } });
    } catch (err) {
      const cause = err instanceof BizapiNetworkError ? ((err.cause as Error | undefined)?.message ?? err.message) : (err as Error).message;
      throw new SourceError(`GET ${href} failed after ${tries} tries: ${cause}`);
    }
    if (!response.ok) {
      const error = await BizapiError.fromResponse(response, 'GET');
      const body = error.body as { detail?: unknown; code?: unknown } | undefined;
      const detail = typeof body?.detail === 'string' ? `: ${body.detail}` : '';
      const code = typeof body?.code === 'string' ? ` ${body.code}` : '';
      throw Object.assign(new SourceError(`GET ${href} answered ${response.status}${code}${detail}`), { status: response.status, code: body?.code });
    }
    return response.json();
  }

  /** Every item of a paged list (following `next`), or of a plain array answer. */
  async function* list(path: string, query: Obj = {}): AsyncGenerator<Obj> {
    let page = await get(path, { ...PAGE, ...query });
    for (;;) {
      if (Array.isArray(page)) {
        yield* page as Obj[];
        return;
      }
      const p = page as { next?: string | null; results: Obj[] };
      yield* p.results;
      if (typeof p.next !== 'string' || p.next === '') return;
      page = await getUrl(p.next);
    }
  }

  /** Ids of every item of a list. */
  async function ids(path: string, query: Obj = {}): Promise<number[]> {
    const out: number[] = [];
    for await (const item of list(path, query)) out.push(item.id as number);
    return out;
  }

  /**
   * The records of a resource, each with its hidden flag: the reference's record shapes of clients,
   * inquiries, contracts and settlements do not carry `isHidden`; its documented `is_hidden=true` list
   * names the hidden ones, so a record without the property gets
   * `isHidden` from that list.
   */
  async function hiddenFlags(path: string): Promise<Set<number>> {
    return new Set(await ids(path, { is_hidden: true }));
  }
  const withHidden = (record: Obj, hidden: Set<number>): Obj => ('isHidden' in record ? record : { ...record, isHidden: hidden.has(record.id as number) });

  const isPlanDenied = (err: unknown) => (err as { status?: number }).status === 403;

  async function* items(warn: (message: string) => void, total: (type: TransferType, count: number) => void = () => undefined): AsyncGenerator<TransferItem> {
    // The key check: a wrong key or secret stops here, before anything is written.
    try {
      await get('/v1/client', { page_size: 1 });
    } catch (err) {
      if ((err as { code?: unknown }).code !== 'signature_required') throw err;
      api = client('v2');
      await get('/v1/client', { page_size: 1 });
    }
    const one = (type: TransferType, data: Obj, parent?: TransferItem['parent']): TransferItem => (parent ? { type, data, parent } : { type, data });

    // Lists that answer newest first are yielded oldest first, so that entries that need new ids here get
    // them in the order the source created them (and list in the same order).
    const all = async (path: string, query: Obj = {}) => {
      const out: Obj[] = [];
      for await (const x of list(path, query)) out.push(x);
      return out;
    };
    try {
      for (const m of (await all('/v1/member')).reverse()) yield one('member', m);
    } catch (err) {
      if (!isPlanDenied(err)) throw err;
      warn(`${(err as Error).message}; members are taken from the member objects nested in the records.`);
    }
    const folders = await all('/v1/folder');
    for (const f of [...folders.filter((f) => f.isDefault), ...folders.filter((f) => !f.isDefault).reverse()]) yield one('folder', f);
    for await (const s of list('/v1/inquiry/status')) yield one('inquiry_status', s);
    for await (const s of list('/v1/client/status')) yield one('client_status', s);
    // The field shape does not name its record kind; the query does, and the item carries it as `category`.
    const categoryOf = new Map<number, string>();
    for (const category of ['I', 'C', 'CO']) for (const f of await all('/v1/field', { category })) categoryOf.set(f.id as number, category);
    for (const f of (await all('/v1/field')).reverse()) {
      const category = categoryOf.get(f.id as number);
      if (category !== undefined) yield one('field', { ...f, category });
    }
    for (const c of (await all('/v1/contract/category')).reverse()) yield one('contract_category', c);
    for await (const t of list('/v1/settlement/type')) yield one('settlement_type', t);
    for await (const c of list('/v1/estimate/item/classification')) yield one('estimate_item_classification', c);

    // Worker positions exist only nested in the workers.
    let workerIds: number[] = [];
    try {
      const positions = new Map<number, Obj>();
      for await (const w of list('/v1/worker')) {
        workerIds.push(w.id as number);
        const p = w.position as Obj | null | undefined;
        if (p && typeof p.id === 'number' && !positions.has(p.id)) positions.set(p.id, p);
      }
      for (const p of positions.values()) yield one('worker_position', p);
    } catch (err) {
      if (!isPlanDenied(err)) throw err;
      warn(`${(err as Error).message}; workers and worker positions are not imported.`);
      workerIds = [];
    }

    /** Every id of a record list, its count told to `total`. */
    const counted = async (type: TransferType, path: string): Promise<number[]> => {
      const found = await ids(path);
      total(type, found.length);
      return found;
    };
    const hiddenClients = await hiddenFlags('/v1/client');
    for (const id of await counted('client', '/v1/client')) yield one('client', withHidden((await get(`/v1/client/${id}`)) as Obj, hiddenClients));

    const historyPaths: [TransferType, string][] = [
      ['inquiry.text_history', 'text_history'],
      ['inquiry.email_history', 'email_history'],
      ['inquiry.email_reply_history', 'email_reply_history'],
      ['inquiry.status_history', 'status_history'],
      ['inquiry.folder_history', 'folder_history'],
      ['inquiry.submit_history', 'submit_history'],
    ];
    // The tasks' ids and times, which the inquiry shape leaves out: from the task list, added to `workSet`.
    const works = new Map<number, Obj[]>();
    for await (const w of list('/v1/inquiry/work')) {
      const inquiryId = (w.inquiry as Obj | null)?.id as number | undefined;
      if (inquiryId === undefined) continue;
      let set = works.get(inquiryId);
      if (!set) works.set(inquiryId, (set = []));
      set.push(w);
    }
    const hiddenInquiries = await hiddenFlags('/v1/inquiry');
    for (const id of await counted('inquiry', '/v1/inquiry')) {
      const inquiry = withHidden((await get(`/v1/inquiry/${id}`)) as Obj, hiddenInquiries);
      const known = (works.get(id) ?? []).sort((a, b) => (a.id as number) - (b.id as number));
      if (Array.isArray(inquiry.workSet) && known.length === inquiry.workSet.length) {
        inquiry.workSet = (inquiry.workSet as Obj[]).map((w, i) => (known[i]!.name === w.name ? { ...w, id: known[i]!.id, created: known[i]!.created } : w));
      }
      yield one('inquiry', inquiry);
      for (const [type, path] of historyPaths) {
        // Oldest first, so that entries written at the same instant keep their order of ids.
        const entries: Obj[] = [];
        for await (const h of list(`/v1/inquiry/${id}/${path}`)) entries.push(h);
        for (const h of entries.reverse()) yield one(type, h, { type: 'inquiry', id });
      }
    }

    const hiddenContracts = await hiddenFlags('/v1/contract');
    for (const id of await counted('contract', '/v1/contract')) {
      yield one('contract', withHidden((await get(`/v1/contract/${id}`)) as Obj, hiddenContracts));
      const notes: Obj[] = [];
      for await (const n of list(`/v1/contract/${id}/history`)) notes.push(n);
      for (const n of notes.reverse()) yield one('contract.history', n, { type: 'contract', id });
    }
    const hiddenSettlements = await hiddenFlags('/v1/settlement');
    for (const id of await counted('settlement', '/v1/settlement')) {
      yield one('settlement', withHidden((await get(`/v1/settlement/${id}`)) as Obj, hiddenSettlements));
      const notes: Obj[] = [];
      for await (const n of list(`/v1/settlement/${id}/history`)) notes.push(n);
      for (const n of notes.reverse()) yield one('settlement.history', n, { type: 'settlement', id });
    }
    try {
      for (const id of await counted('project', '/v1/project')) yield one('project', (await get(`/v1/project/${id}`)) as Obj);
    } catch (err) {
      if (!isPlanDenied(err)) throw err;
      warn(`${(err as Error).message}; projects are not imported.`);
    }
    total('worker', workerIds.length);
    for (const id of workerIds) yield one('worker', (await get(`/v1/worker/${id}`)) as Obj);
    for (const id of await counted('todo', '/v1/todo')) yield one('todo', (await get(`/v1/todo/${id}`)) as Obj);
    for (const id of await counted('estimate.item', '/v1/estimate/item')) yield one('estimate.item', (await get(`/v1/estimate/item/${id}`)) as Obj);
  }

  /** Downloads a file from its pre-signed URL (unsigned, paced, retried). */
  async function fileBytes(ref: TransferFileRef): Promise<Uint8Array> {
    let last = '';
    for (let attempt = 0; attempt < tries; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(30_000, baseDelay * 2 ** (attempt - 1))));
      try {
        await pace();
        options.onRequest?.('GET', ref.file);
        const response = await send(ref.file);
        if (response.ok) return new Uint8Array(await response.arrayBuffer());
        await response.body?.cancel();
        last = `answered ${response.status}`;
        if (response.status === 429 || response.status === 503) {
          const after = Number(response.headers.get('retry-after'));
          if (Number.isFinite(after) && after > 0) await new Promise((r) => setTimeout(r, Math.min(after, 300) * 1000));
          continue;
        }
        if (response.status < 500) break;
      } catch (err) {
        last = (err as Error).message;
      }
    }
    throw new SourceError(`GET of file ${ref.fileId} ("${ref.name}") of inquiry ${ref.inquiryId} failed: ${last}`);
  }

  const origin: TransferOrigin = { url: base, apiKeyPrefix: options.apiKey.slice(0, 10) };
  return { origin, items, fileBytes };
}
