/**
 * Remote MCP on `bizapi serve` (docs/mcp.md#remote-mcp, §21 there): the Model Context Protocol over
 * Streamable HTTP at `/mcp`, stateless (no session: every POST carries its own bearer token, and any process
 * answers any request), plus `/.well-known/oauth-protected-resource` (RFC 9728).
 *
 * - `Authorization: Bearer bzm_…`: an MCP token (`bizapi key create --business ID --mcp`), read from the
 *   database on every request, so a revocation is refused at once by every process. Missing, unknown or
 *   revoked → 401 in DRF's shape with `WWW-Authenticate: Bearer resource_metadata="…"`.
 * - Narrowing headers: `X-MCP-Read-Only: true` and `X-MCP-Tools: a,b` narrow what the token allows, never
 *   widen it (a tool the token does not allow → 403 `permission_denied`); `X-MCP-Tool-List: full` asks for one
 *   tool per operation instead of the three default tools.
 * - Each tool call is an in-process call of the API (`app.inject`, authenticated as the token's business by a
 *   one-use nonce, plugins/authenticate.ts `internalCall`): plan-gated, rate-limited per token and written to
 *   the API call log like any API call.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Db } from '../db/database.ts';
import { authenticateMcpToken, type McpGrant } from '../modules/auth/auth.service.ts';
import { INTERNAL_CALL_HEADER, internalCall } from './authenticate.ts';
import { AuthenticationFailed, NotAuthenticated, PermissionDenied, ValidationError } from '../shared/errors.ts';
import { buildOperationTools, createMcpServer, type OperationTool } from '@bizapi/mcp';

/** Options of the plugin. */
export interface RemoteMcpOptions {
  db: Db;
  /** `BIZAPI_PUBLIC_URL`'s origin, for the resource metadata; default: the request's own origin. */
  publicUrl: string | undefined;
  /** The server's version, reported to the client. */
  version: string;
}

/** The `resource_metadata` URL of RFC 9728 for this server. */
function origin(request: FastifyRequest, publicUrl: string | undefined): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v.join(',') : v;
}

/** A comma-separated list of operation ids, or `undefined` when the header is absent. */
function listHeader(request: FastifyRequest, name: string): string[] | undefined {
  const value = header(request, name);
  if (value === undefined) return undefined;
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * The operations a request may use: the token's bounds, narrowed by the request's headers.
 * @throws ValidationError for a malformed header; PermissionDenied for a header that would widen the token
 */
export function grantedOperations(
  all: readonly OperationTool[],
  grant: Pick<McpGrant, 'readOnly' | 'tools'>,
  headers: { readOnly?: string; tools?: string[] },
): OperationTool[] {
  let ops = all.filter((op) => grant.tools === undefined || grant.tools.includes(op.name));
  if (grant.readOnly) ops = ops.filter((op) => op.method === 'GET');
  if (headers.readOnly !== undefined) {
    const v = headers.readOnly.trim().toLowerCase();
    if (v !== 'true' && v !== 'false' && v !== '1' && v !== '0')
      throw new ValidationError({ 'X-MCP-Read-Only': ['Must be true or false.'] });
    if (v === 'true' || v === '1') ops = ops.filter((op) => op.method === 'GET');
  }
  if (headers.tools !== undefined) {
    if (headers.tools.length === 0) throw new ValidationError({ 'X-MCP-Tools': ['Name at least one operation id.'] });
    const allowed = new Set(ops.map((op) => op.name));
    const refused = headers.tools.filter((t) => !allowed.has(t));
    if (refused.length > 0)
      throw new PermissionDenied(
        `X-MCP-Tools names operations this token does not allow here: ${refused.join(', ')}. Headers narrow a token, never widen it.`,
      );
    const wanted = new Set(headers.tools);
    ops = ops.filter((op) => wanted.has(op.name));
  }
  return ops;
}

/** A `fetch` that runs each request in this process through `app.inject`, as `auth`'s business. */
function injectFetch(app: FastifyInstance, grant: McpGrant, remoteAddress: string): typeof globalThis.fetch {
  return async (input, init) => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    const headers: Record<string, string> = {};
    req.headers.forEach((value, name) => {
      if (name !== 'x-api-key' && name !== 'x-signature' && name !== 'x-signature-timestamp') headers[name] = value;
    });
    const call = internalCall({
      businessId: grant.businessId,
      apiKeyId: 0,
      mcpTokenId: grant.tokenId,
      plan: grant.plan,
      timezone: grant.timezone,
      secret: '',
    });
    headers[INTERNAL_CALL_HEADER] = call.nonce;
    try {
      const body = req.body === null ? undefined : Buffer.from(await req.arrayBuffer());
      const res = await app.inject({
        method: req.method as 'GET',
        url: url.pathname + url.search,
        headers,
        remoteAddress,
        ...(body !== undefined && { payload: body }),
      });
      const out = new Headers();
      for (const [name, value] of Object.entries(res.headers))
        if (value !== undefined) out.set(name, Array.isArray(value) ? value.join(', ') : String(value));
      return new Response(res.statusCode === 204 || res.statusCode === 304 ? null : new Uint8Array(res.rawPayload), {
        status: res.statusCode,
        headers: out,
      });
    } finally {
      call.release();
    }
  };
}

export default fp<RemoteMcpOptions>(
  async function remoteMcp(app: FastifyInstance, opts: RemoteMcpOptions) {
    /** Every /v1 operation as a tool, built once from the served document (after `ready`, on first use). */
    let all: OperationTool[] | undefined;
    const operations = (): OperationTool[] => (all ??= buildOperationTools(app.swagger()));

    app.get('/.well-known/oauth-protected-resource', { schema: { hide: true } }, async (request) => {
      const base = origin(request, opts.publicUrl);
      return {
        resource: `${base}/mcp`,
        bearer_methods_supported: ['header'],
        resource_name: 'bizapi MCP',
        authorization_servers: [],
      };
    });

    const unauthorized = (request: FastifyRequest, reply: FastifyReply) =>
      reply.header(
        'WWW-Authenticate',
        `Bearer resource_metadata="${origin(request, opts.publicUrl)}/.well-known/oauth-protected-resource"`,
      );

    const handle = async (request: FastifyRequest, reply: FastifyReply) => {
      const auth = header(request, 'authorization');
      const token = auth !== undefined && /^Bearer\s+/i.test(auth) ? auth.replace(/^Bearer\s+/i, '').trim() : undefined;
      if (token === undefined || token === '') {
        unauthorized(request, reply);
        throw new NotAuthenticated(
          'Authentication credentials were not provided: send Authorization: Bearer <MCP token> (bizapi key create --business ID --mcp).',
        );
      }
      const grant = await authenticateMcpToken(opts.db, token);
      if (grant === undefined) {
        unauthorized(request, reply);
        throw new AuthenticationFailed('Invalid or revoked MCP token.');
      }
      const ops = grantedOperations(operations(), grant, {
        readOnly: header(request, 'x-mcp-read-only'),
        tools: listHeader(request, 'x-mcp-tools'),
      });
      const toolList = header(request, 'x-mcp-tool-list')?.trim().toLowerCase();
      if (toolList !== undefined && toolList !== 'full' && toolList !== 'default')
        throw new ValidationError({ 'X-MCP-Tool-List': ['Must be default or full.'] });
      if (request.method !== 'POST') {
        // Stateless: no stream to resume (GET) and no session to end (DELETE).
        reply.header('Allow', 'POST');
        return reply.code(405).send({ detail: `Method "${request.method}" not allowed.` });
      }
      const { server } = createMcpServer({
        document: undefined,
        operations: ops,
        baseUrl: 'http://bizapi.internal',
        apiKey: 'internal',
        secretKey: 'internal',
        full: toolList === 'full' || listHeader(request, 'x-mcp-tools') !== undefined,
        statelessCursors: true,
        retries: 0,
        version: opts.version,
        fetch: injectFetch(app, grant, request.ip),
      });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      reply.hijack();
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    };
    app.route({ method: ['POST', 'GET', 'DELETE'], url: '/mcp', schema: { hide: true }, handler: handle });
  },
  { name: 'remote-mcp' },
);
