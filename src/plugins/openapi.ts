/**
 * The OpenAPI 3.1 document, generated from the route schemas by `@fastify/swagger`, served at
 * `GET /openapi.json` (and `/openapi.json/`, the form the reference's clients use), and a Swagger UI at
 * `/docs` served from the package's local assets. Neither needs a key, and neither is logged in the API
 * call log (docs/api.md#api-call-log).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import Type from 'typebox';
import { packageVersion } from '../shared/package-version.ts';
import { ErrorDetail, Named } from '../shared/schemas.ts';
import { IDEMPOTENCY_HEADER, IDEMPOTENT_METHODS } from './idempotency.ts';
import { componentize } from './openapi-components.ts';
import { DOCS_CSS, FAVICON_SVG, LOGO_SVG } from './docs-ui/assets.ts';

/** The docs page's signing script (a browser script, served as `/docs/static/theme/bizapi-sign.js`). */
const SIGN_REQUESTS_JS = fs.readFileSync(new URL('./docs-ui/sign-requests.js', import.meta.url), 'utf8');
/** The docs page's tab title. */
export const DOCS_TITLE = 'bizapi — API docs';

/**
 * CSP hashes (`'sha256-…'`) of the `<style>` elements Swagger UI's standalone preset renders (the top bar's
 * SVG logo carries one), read from the installed package so that an upgrade keeps the page free of CSP
 * violations without allowing inline styles in general.
 */
export function presetStyleHashes(): string[] {
  const dir = path.dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui/package.json'));
  const preset = fs.readFileSync(path.join(dir, 'static', 'swagger-ui-standalone-preset.js'), 'utf8');
  const hashes = [...preset.matchAll(/createElement\("style",null,"((?:[^"\\]|\\.)*)"\)/g)].map(
    (m) =>
      `'sha256-${createHash('sha256')
        .update(JSON.parse(`"${m[1]}"`) as string)
        .digest('base64')}'`,
  );
  return [...new Set(hashes)];
}

/** Operation tags, in the order the docs list them. */
export const TAGS = [
  { name: 'client', description: 'Clients (customer companies).' },
  { name: 'contract', description: 'Contracts, with their categories, custom fields and notes.' },
  { name: 'settlement', description: 'Settlements (payments due under contracts), their status history and notes.' },
  { name: 'inquiry', description: 'Inquiries (sales leads): the pipeline, with tasks, links and histories.' },
  {
    name: 'catalog',
    description:
      'Read-only catalogs: members, custom fields, inquiry statuses, folders, client statuses, contract categories, settlement types.',
  },
  { name: 'log', description: 'The log of the calls made with the business’s keys (last 14 days).' },
  { name: 'operations', description: 'Probes and metrics for operators (extensions; no API key).' },
  { name: 'project', description: 'Projects (plans FREE and AGENCY only).' },
  { name: 'worker', description: 'Workers (plans FREE and AGENCY only).' },
  { name: 'notification', description: 'In-app notifications of members (extension).' },
  {
    name: 'file',
    description:
      'Attachments: pre-signed upload URLs, and the signed upload and download URLs the server serves itself.',
  },
  { name: 'todo', description: 'Todos attached to inquiries.' },
  { name: 'estimate', description: 'Estimate item templates (the lines of a quote) and their classifications.' },
];

const DESCRIPTION = `Self-hosted server for the Business Management REST API.

**Authentication.** Every \`/v1\` request sends \`X-API-Key\` (the business's API key) and \`X-Signature\`: the lowercase hex
HMAC-SHA256 of the exact raw request body bytes, keyed with the key's secret (a request without a body signs the
empty string). Missing or unknown key: 401. Wrong signature, or none while the server requires signatures: 403.

**Signature version 2** (extension, replay-proof): send \`X-Signature-Timestamp: <Unix seconds>\` and
\`X-Signature: v2=<lowercase hex HMAC-SHA256 of "{timestamp}.{METHOD}.{path and query as sent}.{raw body}">\`. The
timestamp must be within 300 seconds of the server's clock (else 403 \`signature_expired\`; a missing or non-numeric
one: 403 \`signature_timestamp_invalid\`), and each signature is accepted once (again: 403 \`signature_replayed\`).
With \`BIZAPI_SIGNATURE_MODE=v2\` only version 2 is accepted (else 403 \`signature_required\`).

**Idempotent retries** (extension): every \`POST\`, \`PATCH\` and \`DELETE\` may send \`Idempotency-Key\` (1..255 printable
ASCII characters). The first request runs and its answer is kept for 24 hours; the same key with the same method, path
and body gets that answer again, byte for byte, with \`Idempotent-Replayed: true\`, and runs nothing. The same key
with another request: 422 \`idempotency_key_reused\`; while the first still runs: 409 \`idempotency_key_in_progress\`
with \`Retry-After: 1\`. Answers 5xx, 409 and 429 are not kept.

**Errors** use Django REST framework's shape: \`{"detail": "…"}\`, or for validation a map of property → messages
(\`{"companyName": ["This field is required."]}\`), references nested (\`{"status": {"id": ["…"]}}\`).
Every response carries \`X-Request-Id\`; error bodies repeat it as \`requestId\`.

**Pagination.** Lists take \`page_size\` (alias \`limit\`; default 20, at most 100) and \`cursor\`, and answer
\`{next, previous, results}\` with absolute links.

**Request bodies** may be JSON, \`application/x-www-form-urlencoded\` or \`multipart/form-data\`
(\`client.id=5\` or \`client[id]=5\`; \`inChargeSet[0].id=3\`).

Properties and operations marked \`x-extension: true\` go beyond the reference service.`;

/** The request encodings of the API (docs/api.md#requests), declared on every operation with a body. */
const CONSUMES = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'];

/** The `Idempotency-Key` header parameter (docs/api.md#idempotent-retries). */
const IDEMPOTENCY_KEY_SCHEMA = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  pattern: '^[\\x20-\\x7E]+$',
  description:
    'Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business.',
  'x-extension': true,
};

/** The answers only a request with `Idempotency-Key` can get. */
const IDEMPOTENCY_RESPONSES = {
  409: {
    ...ErrorDetail,
    description:
      'A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`.',
  },
  422: {
    ...ErrorDetail,
    description: 'The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`).',
  },
};

type RouteSchema = Record<string, unknown>;

/** The security scheme of `X-API-Key`, named as docs/authentication.md#docs-page names the box. */
const API_KEY_SCHEME = 'X-API-Key';
/** The security scheme of `X-Signature` (on the docs page: the box of the secret key). */
const SIGNATURE_SCHEME = 'X-Signature';
/** The security scheme of `GET /metrics` (`BIZAPI_METRICS_TOKEN`, docs/deployment.md). */
export const METRICS_SCHEME = 'Metrics-Token';

/**
 * Moves the examples of every operation parameter (`examples`, `example`, and those of its schema) into its
 * description ("Example: `2026-11-26`."), in place, and returns the document. Swagger UI's Try-it-out fills a
 * parameter with its first example, so a list filtered by `updated_start=2026-11-26` (the example date)
 * answered an empty page on any other day (issue 26); an example is shown, never sent by default.
 */
export function examplesAsText<T>(document: T): T {
  const doc = document as { paths?: Record<string, Record<string, { parameters?: Record<string, unknown>[] }>> };
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item)) {
      if (op === null || typeof op !== 'object' || !Array.isArray(op.parameters)) continue;
      for (const param of op.parameters) {
        const schema = (param.schema ?? {}) as Record<string, unknown>;
        const values: unknown[] = [];
        if (param.examples && typeof param.examples === 'object')
          for (const e of Object.values(param.examples)) values.push((e as { value?: unknown }).value);
        if ('example' in param) values.push(param.example);
        if (Array.isArray(schema.examples)) values.push(...(schema.examples as unknown[]));
        if ('example' in schema) values.push(schema.example);
        delete param.examples;
        delete param.example;
        delete schema.examples;
        delete schema.example;
        const shown = [
          ...new Set(
            values.filter((v) => v !== undefined).map((v) => `\`${typeof v === 'string' ? v : JSON.stringify(v)}\``),
          ),
        ];
        if (shown.length === 0) continue;
        const text = `${shown.length > 1 ? 'Examples' : 'Example'}: ${shown.join(', ')}.`;
        param.description =
          typeof param.description === 'string' && param.description !== '' ? `${param.description} ${text}` : text;
      }
    }
  }
  return document;
}

/**
 * Names every response `@fastify/swagger` left as "Default Response" (a route schema's response without a
 * description), in place, and returns the document: the status's reason phrase and, when the body is a named
 * schema, its name (`Created: \`ClientListItem\`.`). Issue 36: 74 answers of the docs page read "Default Response".
 */
export function describeResponses<T>(document: T): T {
  type Response = { description?: string; content?: Record<string, { schema?: { $ref?: string } }> };
  const doc = document as {
    paths?: Record<string, Record<string, { responses?: Record<string, Response> }>>;
    components?: { responses?: Record<string, Response> };
  };
  const name = (code: string, res: Response) => {
    const ref = Object.values(res.content ?? {})[0]?.schema?.$ref;
    const reason = STATUS_CODES[Number(code)] ?? `Status ${code}`;
    return ref === undefined ? `${reason}.` : `${reason}: \`${ref.slice(ref.lastIndexOf('/') + 1)}\`.`;
  };
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item)) {
      if (op === null || typeof op !== 'object' || op.responses === undefined) continue;
      for (const [code, res] of Object.entries(op.responses))
        if (res.description === 'Default Response') res.description = name(code, res);
    }
  }
  return document;
}

/**
 * The swagger transform: adds the `Idempotency-Key` header and its 409 / 422 answers to every `POST`,
 * `PATCH` and `DELETE` operation under `/v1`, in the document only (the plugin `idempotency.ts` checks the
 * header itself), so no route file has to declare them.
 */
export function addIdempotencyKey(
  schema: RouteSchema | undefined,
  url: string,
  methods: readonly string[],
): RouteSchema | undefined {
  if (!schema || schema.hide || !url.startsWith('/v1') || !methods.some((m) => IDEMPOTENT_METHODS.has(m)))
    return schema;
  const headers = (schema.headers ?? { type: 'object', properties: {} }) as RouteSchema;
  return {
    ...schema,
    headers: {
      ...headers,
      properties: { ...(headers.properties as RouteSchema), [IDEMPOTENCY_HEADER]: IDEMPOTENCY_KEY_SCHEMA },
    },
    response: { ...IDEMPOTENCY_RESPONSES, ...(schema.response as RouteSchema) },
  };
}

/** `GET /` (decisions: the root): what OpenAPI tools probe as a health check. */
const ApiRoot = Named(
  'ApiRoot',
  Type.Object(
    {
      name: Type.String(),
      version: Type.String({ description: 'The server’s package version.' }),
      docs: Type.String({ description: 'Path of the docs UI.' }),
      openapi: Type.String({ description: 'Path of this document.' }),
    },
    { examples: [{ name: 'bizapi', version: '0.1.0', docs: '/docs', openapi: '/openapi.json' }] },
  ),
);

/** A route as registered: its methods and URL pattern (`/v1/client/:client_id`). */
export interface RegisteredRoute {
  methods: string[];
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered after this plugin, in order (the test that the document covers them reads it). */
    registeredRoutes: RegisteredRoute[];
  }
}

/**
 * Documents a route's plan gate (`config.plans`, docs/api.md#plans) in its operation: `x-plans` lists
 * the allowed plans, and the description says what every other plan gets.
 */
function documentPlanGate(schema: Record<string, unknown>, plans: readonly string[]): void {
  schema['x-plans'] = [...plans];
  const description = typeof schema.description === 'string' ? schema.description : '';
  if (description.includes('PLAN_PERMISSION_DENIED')) return;
  const names = plans.length > 1 ? `${plans.slice(0, -1).join(', ')} and ${plans[plans.length - 1]}` : plans.join('');
  const sentence = `Only on the ${names} plans: any other plan gets 403 \`PLAN_PERMISSION_DENIED\` before the request is read.`;
  schema.description = description ? `${description} ${sentence}` : sentence;
}

export default fp(
  async function openapi(app: FastifyInstance) {
    const registeredRoutes: RegisteredRoute[] = [];
    app.decorate('registeredRoutes', registeredRoutes);
    app.addHook('onRoute', (route) => {
      if (route.schema?.body && !route.schema.consumes) route.schema.consumes = CONSUMES;
      registeredRoutes.push({ methods: [route.method].flat(), url: route.url });
      const plans = route.config?.plans;
      if (route.schema && plans) documentPlanGate(route.schema as Record<string, unknown>, plans);
    });
    await app.register(swagger, {
      transform: ({ schema, url, route }) => ({
        schema: addIdempotencyKey(schema as RouteSchema | undefined, url, [route.method].flat()) as typeof schema,
        url,
      }),
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'bizapi — Business Management REST API',
          version: '1.0.0',
          description: DESCRIPTION,
          license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
        },
        // Relative: the document describes the server that serves it, wherever it is deployed.
        servers: [{ url: '/', description: 'This server' }],
        tags: TAGS,
        components: {
          // Named as docs/authentication.md names them: Swagger UI's "Authorize" dialog titles each box with
          // its scheme's name (docs/authentication.md#docs-page).
          securitySchemes: {
            [API_KEY_SCHEME]: {
              type: 'apiKey',
              in: 'header',
              name: 'X-API-Key',
              description:
                'The **API key** of the business (`bz_…`, printed by `bizapi key create` or `bizapi business create`).',
            },
            [SIGNATURE_SCHEME]: {
              type: 'apiKey',
              in: 'header',
              name: 'X-Signature',
              description:
                "On the docs page (/docs), enter the key's **secret key** here (not a signature): the page signs each request with it in the browser (version 2) and sends only the signature. " +
                'Version 1: lowercase hex HMAC-SHA256 of the raw request body (empty string when there is none), keyed with the secret key. Version 2 (extension, replay-proof): `v2=` + lowercase hex HMAC-SHA256 of `"{X-Signature-Timestamp}.{METHOD}.{path and query as sent}.{raw body}"`, sent with `X-Signature-Timestamp`; valid within 300 seconds of the server clock, once. `BIZAPI_SIGNATURE_MODE=v2` accepts only version 2.',
            },
            [METRICS_SCHEME]: {
              type: 'http',
              scheme: 'bearer',
              description:
                "Operators only, for `GET /metrics`: the server's `BIZAPI_METRICS_TOKEN` (`Authorization: Bearer …`), needed only when the server sets one. Leave it empty for the `/v1` API.",
            },
          },
        },
        security: [{ [API_KEY_SCHEME]: [], [SIGNATURE_SCHEME]: [] }],
      },
      // Named component schemas with $ref, error responses and headers (plugins/openapi-components.ts).
      // Parameter examples into their descriptions (examplesAsText), so the docs page never pre-fills them.
      transformObject: (documents) =>
        describeResponses(
          examplesAsText(
            componentize((documents as { openapiObject: Parameters<typeof componentize>[0] }).openapiObject),
          ),
        ),
    });
    // The docs page signs each Try-it-out request in the browser (docs/authentication.md#docs-page): a local
    // script (no inline code, so the CSP holds) defines the request interceptor; the secret entered in
    // "Authorize" stays in the page's memory (no persistAuthorization, nothing in localStorage).
    const styleHashes = presetStyleHashes();
    await app.register(swaggerUi, {
      routePrefix: '/docs',
      staticCSP: true,
      // Swagger UI's own CSP, plus the hashes of the preset's inline <style> (else the console shows a violation),
      // without `upgrade-insecure-requests`: over plain HTTP on any address but localhost it turned every asset
      // into an https:// request this server does not answer, a blank page (issue 36; docs/authentication.md#docs-page).
      transformStaticCSP: (header: string) =>
        header
          .replace("style-src 'self' https:", `style-src 'self' https: ${styleHashes.join(' ')}`)
          .replace(/\s*upgrade-insecure-requests;?/, ''),
      logo: { type: 'image/svg+xml', content: Buffer.from(LOGO_SVG), href: '/docs', target: '_self' },
      theme: {
        title: DOCS_TITLE,
        favicon: [
          {
            filename: 'favicon.svg',
            rel: 'icon',
            sizes: 'any',
            type: 'image/svg+xml',
            content: Buffer.from(FAVICON_SVG),
          },
        ],
        css: [{ filename: 'bizapi-docs.css', content: DOCS_CSS }],
        js: [{ filename: 'bizapi-sign.js', content: SIGN_REQUESTS_JS }],
      },
      uiConfig: {
        docExpansion: 'list',
        deepLinking: true,
        persistAuthorization: false,
        // Serialized into Swagger UI's own initializer script; calls the function of bizapi-sign.js.
        requestInterceptor: ((request: unknown) =>
          (globalThis as unknown as { bizapiSignRequest: (r: unknown) => unknown }).bizapiSignRequest(
            request,
          )) as never,
      },
    });
    app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    const root = { name: 'bizapi', version: packageVersion(), docs: '/docs', openapi: '/openapi.json' };
    app.get(
      '/',
      {
        schema: {
          tags: ['operations'],
          operationId: 'root_retrieve',
          summary: 'Identify the server',
          description:
            'The server’s name and version and where its docs and this document are (extension; no API key, not logged). OpenAPI tools probe it as a health check.',
          security: [],
          'x-extension': true,
          response: { 200: ApiRoot },
        } as Record<string, unknown>,
      },
      async () => root,
    );
  },
  { name: 'openapi' },
);
