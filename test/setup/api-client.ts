/**
 * The one typed request harness of the HTTP tests: `get` / `post` / `patch` / `delete` (and `call` for any
 * {@link SignedRequest}) on the test app, signed with the business's key the way an integrator's client
 * signs (`X-API-Key`, `X-Signature` over the exact body bytes), the JSON body parsed; `raw` answers the
 * unparsed response instead (text, bytes, headers: the docs HTML, `/metrics`, a file download, a body that
 * is not JSON). Credentials `undefined` send no key at all (the public paths, `/healthz`, `/openapi.json`,
 * hand-made headers). Every answer is checked against the OpenAPI document on the way (see {@link sendJson}).
 *
 * ```ts
 * let t: TestApp;
 * beforeAll(async () => { t = await buildTestApp(); });
 * const { get, post, patch } = apiClient(() => t.app);
 * const res = await post(b, '/v1/client', { companyName: 'Acme' });
 * expect(res.status).toBe(201);
 * ```
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { type Credentials, send, sendJson, type SignedRequest } from './signed-request.ts';

/** An answer: its status, its parsed JSON body (`undefined` when empty) and its headers. */
export type JsonResponse<T = any> = Awaited<ReturnType<typeof sendJson<T>>>;

/** What a request may carry beside its method, URL and body (a form encoding, a signature override, headers). */
export type RequestOptions = Omit<SignedRequest, 'method' | 'url' | 'body'>;

/**
 * Signed requests on one test app; each method is a plain function (destructuring keeps it working). `call`
 * takes the body's type (`call<Client>(…)`); the shortcuts answer `any` bodies, as tests read them freely.
 */
export interface ApiClient {
  /** Sends any request as `creds` (`undefined`: no key at all). */
  call<T = any>(creds: Credentials | undefined, req: SignedRequest): Promise<JsonResponse<T>>;
  /**
   * Sends any request as `creds` and answers the response unparsed (`statusCode`, `body` text,
   * `rawPayload` bytes, `headers`, `json()`): for answers that are not JSON, or whose exact bytes matter.
   */
  raw(creds: Credentials | undefined, req: SignedRequest): Promise<LightMyRequestResponse>;
  /** `GET url`. */
  get(creds: Credentials | undefined, url: string, options?: RequestOptions): Promise<JsonResponse>;
  /** `POST url` with `body` (JSON unless `options.form` says otherwise; none when `undefined`). */
  post(creds: Credentials | undefined, url: string, body?: unknown, options?: RequestOptions): Promise<JsonResponse>;
  /** `PATCH url` with `body`. */
  patch(creds: Credentials | undefined, url: string, body?: unknown, options?: RequestOptions): Promise<JsonResponse>;
  /** `DELETE url`. */
  delete(creds: Credentials | undefined, url: string, options?: RequestOptions): Promise<JsonResponse>;
  /** The ids of the list page `GET url` answers (`results[].id`, in order), asserting 200. */
  listIds(creds: Credentials | undefined, url: string): Promise<number[]>;
}

/**
 * The harness for the app `app()` returns, read at each request (test files build their app in `beforeAll`,
 * after this runs at module load), or for one app already built (`apiClient(other).get(…)`).
 */
export function apiClient(target: FastifyInstance | (() => FastifyInstance)): ApiClient {
  const app = 'inject' in target ? () => target : target;
  const call = <T>(creds: Credentials | undefined, req: SignedRequest) => sendJson<T>(app(), creds, req);
  return {
    call,
    raw: (creds, req) => send(app(), creds, req),
    get: (creds, url, options) => call(creds, { ...options, method: 'GET', url }),
    post: (creds, url, body, options) => call(creds, { ...options, method: 'POST', url, body }),
    patch: (creds, url, body, options) => call(creds, { ...options, method: 'PATCH', url, body }),
    delete: (creds, url, options) => call(creds, { ...options, method: 'DELETE', url }),
    listIds: async (creds, url) => {
      const res = await call<{ results: { id: number }[] }>(creds, { method: 'GET', url });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.results.map((r) => r.id);
    },
  };
}

/**
 * Asserts a validation failure (`docs/api.md#errors`): status 400 and a body that is exactly `fields`
 * (DRF-shaped, `{ property: [message] }`) plus the answer's `requestId` (its `X-Request-Id` header).
 */
export function expect400(
  res: { status: number; body: unknown; headers: Record<string, unknown> },
  fields: Record<string, unknown>,
): void {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body).toEqual({ ...fields, requestId: res.headers['x-request-id'] });
}
