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
 *
 * Bounded (docs/deployment.md#source-limits): the source's credentials (`X-API-Key`, the signature) go to the
 * origin of `url` only — a redirect or a `next` link to another origin stops the import, naming it; each
 * answer at most `maxAnswerBytes`, nested at most {@link MAX_JSON_DEPTH} levels, complete within
 * `requestTimeoutMs`; a list at most `maxPages` pages, none of its `next` links seen twice. Past a limit the
 * import stops with a {@link SourceError} naming the request and the limit, before anything of that answer is
 * yielded. Attachments are downloaded unsigned through the public-only client (src/shared/http-client.ts),
 * at most `maxFileBytes` each; a refused one is a {@link RefusedFileError}.
 */
import { BizapiError, BizapiNetworkError, createBizapi, type Bizapi, type SignatureVersion } from '@bizapi/client';
import { get as httpGet } from '../../shared/http-client.ts';
import { resourceNames } from '../../shared/resources.ts';
import { jsonDeeperThan, MAX_JSON_DEPTH } from '../../shared/utf8.ts';
import {
  RefusedFileError,
  type TransferFileRef,
  type TransferItem,
  type TransferOrigin,
  type TransferSource,
  type TransferType,
} from './transfer.types.ts';

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
   * own routes in process, so an export reads exactly what an import from this server would. With it, the
   * attachments are downloaded through it too (this server's own files).
   */
  fetch?: typeof globalThis.fetch;
  /** Attachments may be downloaded from non-public addresses, not cloud metadata ones (`BIZAPI_IMPORT_ALLOW_PRIVATE`; default false). */
  allowPrivateFiles?: boolean;
  /** Largest attachment downloaded, in bytes (default 50 MiB, `BIZAPI_UPLOAD_MAX_BYTES`'s default). */
  maxFileBytes?: number;
  /** Largest answer read, in bytes (default 64 MiB, `BIZAPI_IMPORT_MAX_ANSWER_BYTES`). */
  maxAnswerBytes?: number;
  /** Pages read of one list at most (default 10 000, `BIZAPI_IMPORT_MAX_PAGES`). */
  maxPages?: number;
  /** Milliseconds one request (one attempt, its whole answer read) may take (default 120 000, `BIZAPI_IMPORT_REQUEST_TIMEOUT`). */
  requestTimeoutMs?: number;
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

/** Redirects of one API request followed at most (each to the source's own origin). */
const MAX_REDIRECTS = 5;

const PAGE = { page_size: 100 };

type Obj = Record<string, unknown>;

/**
 * Creates the HTTP source. The first request (`GET /v1/client?page_size=1`) checks the key and secret
 * before anything is yielded, so a wrong key stops the import before it writes anything.
 */
export function createHttpSource(options: HttpSourceOptions): TransferSource {
  const base = options.url.replace(/\/+$/, '').replace(/\/v1$/, '');
  const origin = new URL(base).origin;
  const rate = options.rate ?? 900;
  const pace = pacer(rate > 0 ? 60_000 / rate : 0);
  const tries = options.tries ?? 5;
  const baseDelay = options.baseDelayMs ?? 500;
  const send = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const maxAnswerBytes = options.maxAnswerBytes ?? 64 * 1024 * 1024;
  const maxPages = options.maxPages ?? 10_000;
  const timeoutMs = options.requestTimeoutMs ?? 120_000;
  const maxFileBytes = options.maxFileBytes ?? 50 * 1024 * 1024;

  /**
   * The request {@link getUrl} is making (one at a time: the stream reads sequentially). A limit aborts it with
   * its {@link SourceError}, so that the client does not retry: the limit stops the import.
   */
  let current: AbortController | undefined;
  const stop = (error: SourceError): never => {
    current?.abort(error);
    throw error;
  };

  /** Reads a whole answer body, at most `maxAnswerBytes` (`stop`s beyond). */
  async function readBody(response: Response, url: string): Promise<Uint8Array<ArrayBuffer>> {
    const limit = `the limit of an answer is ${maxAnswerBytes} bytes (BIZAPI_IMPORT_MAX_ANSWER_BYTES)`;
    if (Number(response.headers.get('content-length') ?? 0) > maxAnswerBytes) {
      await response.body?.cancel().catch(() => undefined);
      stop(new SourceError(`GET ${url} answered ${response.headers.get('content-length')} bytes; ${limit}`));
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    if (response.body) {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        size += chunk.length;
        if (size > maxAnswerBytes) {
          await response.body.cancel().catch(() => undefined);
          stop(new SourceError(`GET ${url} answered more than ${maxAnswerBytes} bytes; ${limit}`));
        }
        chunks.push(chunk);
      }
    }
    return Buffer.concat(chunks, size);
  }

  const pacedFetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    let url = request.url;
    for (let hop = 0; ; hop++) {
      await pace();
      options.onRequest?.(request.method, url);
      // The deadline of this attempt, its whole answer read: past it, the import stops (no retry).
      const deadline = setTimeout(
        () =>
          current?.abort(
            new SourceError(`GET ${url} did not answer in full within ${timeoutMs} ms (BIZAPI_IMPORT_REQUEST_TIMEOUT)`),
          ),
        timeoutMs,
      );
      try {
        // Redirects are followed here, only within the source's origin: the credentials never leave it.
        const response = await send(
          new Request(url, {
            method: request.method,
            headers: request.headers,
            signal: request.signal,
            redirect: 'manual',
          }),
        );
        if (response.status >= 300 && response.status < 400 && response.headers.has('location')) {
          await response.body?.cancel().catch(() => undefined);
          const target = new URL(response.headers.get('location')!, url);
          if (target.origin !== origin) {
            stop(
              new SourceError(
                `GET ${url} redirected to ${target.href}, another origin than the source's ${origin}; the import does not send the source's credentials there`,
              ),
            );
          }
          if (hop >= MAX_REDIRECTS)
            stop(new SourceError(`GET ${request.url} redirected more than ${MAX_REDIRECTS} times`));
          url = target.href;
          continue;
        }
        if (response.status >= 500 && response.status !== 503) {
          await response.body?.cancel().catch(() => undefined);
          throw new RetryableStatus(`answered ${response.status}`);
        }
        const body = await readBody(response, url);
        return new Response(response.status === 204 || response.status === 304 ? null : body, {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
        });
      } catch (err) {
        // The deadline (or a limit) aborted this request: its reason is the message.
        if (current?.signal.aborted && current.signal.reason instanceof SourceError) throw current.signal.reason;
        throw err;
      } finally {
        clearTimeout(deadline);
      }
    }
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
    return getUrl(urlOf(path, query));
  }

  function urlOf(path: string, query: Obj = {}): string {
    const url = new URL(`${base}${path}`);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
    return url.href;
  }

  async function getUrl(href: string): Promise<unknown> {
    let response: Response;
    let text: string;
    const controller = new AbortController();
    current = controller;
    try {
      response = await api.fetch(href, { headers: { Accept: 'application/json' }, signal: controller.signal });
      text = await response.text();
    } catch (err) {
      if (err instanceof SourceError) throw err;
      if (controller.signal.reason instanceof SourceError) throw controller.signal.reason;
      const cause =
        err instanceof BizapiNetworkError
          ? ((err.cause as Error | undefined)?.message ?? err.message)
          : (err as Error).message;
      throw new SourceError(`GET ${href} failed after ${tries} tries: ${cause}`);
    } finally {
      current = undefined;
    }
    if (!response.ok) {
      const error = await BizapiError.fromResponse(
        new Response(text, { status: response.status, headers: response.headers }),
        'GET',
      );
      const body = error.body as { detail?: unknown; code?: unknown } | undefined;
      const detail = typeof body?.detail === 'string' ? `: ${body.detail}` : '';
      const code = typeof body?.code === 'string' ? ` ${body.code}` : '';
      throw Object.assign(new SourceError(`GET ${href} answered ${response.status}${code}${detail}`), {
        status: response.status,
        code: body?.code,
      });
    }
    if (jsonDeeperThan(text, MAX_JSON_DEPTH))
      throw new SourceError(
        `GET ${href} answered JSON nested deeper than ${MAX_JSON_DEPTH} levels, the limit of an answer`,
      );
    try {
      return JSON.parse(text);
    } catch (err) {
      throw new SourceError(
        `GET ${href} answered ${response.status} with a body that is not JSON (${(err as Error).message})`,
      );
    }
  }

  /**
   * Every item of a paged list (following `next`), or of a plain array answer.
   * @throws SourceError for a page that is not a list, a `next` link to another origin, one seen before in
   *   this list (a cursor loop), or more than `maxPages` pages
   */
  async function* list(path: string, query: Obj = {}): AsyncGenerator<Obj> {
    let url = urlOf(path, { ...PAGE, ...query });
    const seen = new Set<string>([url]);
    let page = await getUrl(url);
    for (let pages = 1; ; pages++) {
      if (Array.isArray(page)) {
        yield* page as Obj[];
        return;
      }
      const p = page as { next?: unknown; results?: unknown } | null;
      if (p === null || typeof p !== 'object' || !Array.isArray(p.results))
        throw new SourceError(`GET ${url} answered neither a list nor a page {next, results: [...]}`);
      const next = p.next;
      if (typeof next === 'string' && next !== '') {
        let target: URL;
        try {
          target = new URL(next, url);
        } catch {
          throw new SourceError(
            `GET ${url} answered a next link that is not a URL: ${JSON.stringify(next.slice(0, 200))}`,
          );
        }
        if (target.origin !== origin) {
          throw new SourceError(
            `GET ${url} links its next page to ${target.href}, another origin than the source's ${origin}; the import does not send the source's credentials there`,
          );
        }
        if (seen.has(target.href))
          throw new SourceError(
            `GET ${url} links its next page to ${target.href}, a page of this list already read (a cursor loop)`,
          );
        if (pages >= maxPages)
          throw new SourceError(
            `GET ${path}: the list goes on past ${maxPages} pages, the limit of a list (BIZAPI_IMPORT_MAX_PAGES)`,
          );
        seen.add(target.href);
        const results = p.results as Obj[];
        yield* results;
        url = target.href;
        page = await getUrl(url);
        continue;
      }
      yield* p.results as Obj[];
      return;
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
  const withHidden = (record: Obj, hidden: Set<number>): Obj =>
    'isHidden' in record ? record : { ...record, isHidden: hidden.has(record.id as number) };

  const isPlanDenied = (err: unknown) => (err as { status?: number }).status === 403;

  async function* items(
    warn: (message: string) => void,
    total: (type: TransferType, count: number) => void = () => undefined,
  ): AsyncGenerator<TransferItem> {
    // The key check: a wrong key or secret stops here, before anything is written.
    try {
      await get('/v1/client', { page_size: 1 });
    } catch (err) {
      if ((err as { code?: unknown }).code !== 'signature_required') throw err;
      api = client('v2');
      await get('/v1/client', { page_size: 1 });
    }
    const one = (type: TransferType, data: Obj, parent?: TransferItem['parent']): TransferItem =>
      parent ? { type, data, parent } : { type, data };

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
    for (const f of [...folders.filter((f) => f.isDefault), ...folders.filter((f) => !f.isDefault).reverse()])
      yield one('folder', f);
    for await (const s of list('/v1/inquiry/status')) yield one('inquiry_status', s);
    for await (const s of list('/v1/client/status')) yield one('client_status', s);
    // The field shape does not name its record kind; the query does, and the item carries it as `category`.
    const categoryOf = new Map<number, string>();
    for (const category of ['I', 'C', 'CO'])
      for (const f of await all('/v1/field', { category })) categoryOf.set(f.id as number, category);
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
    for (const id of await counted('client', '/v1/client'))
      yield one('client', withHidden((await get(`/v1/client/${id}`)) as Obj, hiddenClients));

    // An inquiry's notes and histories (src/shared/resources.ts), each under /v1/inquiry/{id}/<its name's last part>.
    const historyPaths = resourceNames((r) => r.parent === 'inquiry').map((type): [TransferType, string] => [
      type,
      type.slice('inquiry.'.length),
    ]);
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
        inquiry.workSet = (inquiry.workSet as Obj[]).map((w, i) =>
          known[i]!.name === w.name ? { ...w, id: known[i]!.id, created: known[i]!.created } : w,
        );
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
      for (const id of await counted('project', '/v1/project'))
        yield one('project', (await get(`/v1/project/${id}`)) as Obj);
    } catch (err) {
      if (!isPlanDenied(err)) throw err;
      warn(`${(err as Error).message}; projects are not imported.`);
    }
    total('worker', workerIds.length);
    for (const id of workerIds) yield one('worker', (await get(`/v1/worker/${id}`)) as Obj);
    for (const id of await counted('todo', '/v1/todo')) yield one('todo', (await get(`/v1/todo/${id}`)) as Obj);
    for (const id of await counted('estimate.item', '/v1/estimate/item'))
      yield one('estimate.item', (await get(`/v1/estimate/item/${id}`)) as Obj);
  }

  /**
   * Downloads a file from its pre-signed URL (unsigned, paced, retried): through the public-only client
   * (src/shared/http-client.ts), redirects re-checked, at most `maxFileBytes`; through `options.fetch` when
   * given (`bizapi export`: this server's own files).
   * @throws RefusedFileError for an address not admitted, an answer too large, too many redirects; SourceError
   *   when the download keeps failing
   */
  async function fileBytes(ref: TransferFileRef): Promise<Uint8Array> {
    const what = `file ${ref.fileId} ("${ref.name}") of inquiry ${ref.inquiryId}`;
    let last = '';
    for (let attempt = 0; attempt < tries; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(30_000, baseDelay * 2 ** (attempt - 1))));
      await pace();
      options.onRequest?.('GET', ref.file);
      let status: number | null;
      let retryAfter: string | null | undefined;
      if (options.fetch) {
        try {
          const response = await options.fetch(ref.file);
          if (response.ok) return new Uint8Array(await response.arrayBuffer());
          await response.body?.cancel();
          status = response.status;
          retryAfter = response.headers.get('retry-after');
          last = `answered ${response.status}`;
        } catch (err) {
          last = (err as Error).message;
          continue;
        }
      } else {
        const r = await httpGet(ref.file, {
          allowPrivate: options.allowPrivateFiles === true,
          timeoutMs,
          maxBytes: maxFileBytes,
        });
        if (r.body !== null) return new Uint8Array(r.body.buffer, r.body.byteOffset, r.body.byteLength);
        if (r.refused) {
          const limit = /larger than/.test(r.error ?? '')
            ? ' (BIZAPI_UPLOAD_MAX_BYTES)'
            : /not a public address/.test(r.error ?? '')
              ? ' (BIZAPI_IMPORT_ALLOW_PRIVATE admits private addresses)'
              : '';
          throw new RefusedFileError(
            `the download of ${what} from ${redactQuery(ref.file)} was refused: ${r.error}${limit}`,
          );
        }
        status = r.statusCode;
        retryAfter = r.retryAfter;
        last = r.statusCode === null ? (r.error ?? 'no answer') : `answered ${r.statusCode}`;
        if (r.statusCode === null) continue;
      }
      if (status === 429 || status === 503) {
        const after = Number(retryAfter);
        if (Number.isFinite(after) && after > 0) await new Promise((r) => setTimeout(r, Math.min(after, 300) * 1000));
        continue;
      }
      if (status !== null && status < 500) break;
    }
    throw new SourceError(`GET of ${what} failed: ${last}`);
  }

  return {
    origin: { url: base, apiKeyPrefix: options.apiKey.slice(0, 10) } satisfies TransferOrigin,
    items,
    fileBytes,
  };
}

/** A URL without its query string (a pre-signed URL's signature stays out of messages). */
function redactQuery(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? url : `${url.slice(0, at)}?…`;
}
