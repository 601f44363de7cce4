/**
 * Probes for load balancers and orchestrators (extensions; no key needed, nothing secret in the answers):
 *
 * - `GET /healthz` (liveness): 200 `{"status": "ok"}` while the process serves HTTP.
 * - `GET /readyz` (readiness): 200 when the database answers, every migration this build knows is
 *   applied and the master key decrypts the stored API-key secrets; 503 otherwise, and from the moment a graceful shutdown begins, so the load balancer stops
 *   sending new requests while the in-flight ones finish.
 *
 * Neither is rate limited, shed under pressure or written to the API call log (they live outside `/v1`).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import Type from 'typebox';
import type { Db } from '../db/database.ts';
import { pendingMigrations } from '../db/migrator.ts';
import { checkMasterKey } from '../modules/auth/auth.service.ts';
import { Named, StringEnum } from '../shared/schemas.ts';

/** Options of the plugin. */
export interface HealthOptions {
  db: Db;
  /** Whether a graceful shutdown has begun. */
  isDraining: () => boolean;
  /** The master key: `/readyz` checks that it decrypts the stored secrets. */
  masterKey: Buffer;
  /** Milliseconds the database gets to answer a readiness check (default 2000). */
  checkTimeoutMs?: number;
}

const Liveness = Named(
  'Liveness',
  Type.Object(
    { status: Type.Literal('ok') },
    { description: 'The process serves HTTP.', examples: [{ status: 'ok' }] },
  ),
);

const Readiness = Named(
  'Readiness',
  Type.Object(
    {
      status: StringEnum(['ready', 'unavailable'] as const),
      checks: Type.Object({
        database: StringEnum(['ok', 'unreachable'] as const, { description: 'Whether the database answers a query.' }),
        migrations: StringEnum(['ok', 'pending', 'unknown'] as const, {
          description:
            '`pending`: the database lacks migrations this build needs; `unknown`: the database did not answer.',
        }),
        process: StringEnum(['ok', 'draining'] as const, { description: '`draining`: a graceful shutdown has begun.' }),
        masterKey: StringEnum(['ok', 'mismatch', 'unknown'] as const, {
          description:
            '`mismatch`: the configured master key cannot decrypt the stored API-key secrets; `unknown`: not checked (the database did not answer, or migrations are pending).',
        }),
      }),
    },
    {
      description: 'Ready to serve.',
      examples: [{ status: 'ready', checks: { database: 'ok', migrations: 'ok', process: 'ok', masterKey: 'ok' } }],
    },
  ),
);

/** Rejects after `ms` milliseconds unless `promise` settles first. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const health: FastifyPluginAsyncTypebox<HealthOptions> = async (app, opts) => {
  const timeoutMs = opts.checkTimeoutMs ?? 2000;
  let migrationsCurrent = false;

  const tags = ['operations'];
  const security: Record<string, string[]>[] = [];

  app.get(
    '/healthz',
    {
      schema: {
        tags,
        security,
        operationId: 'healthz_retrieve',
        summary: 'Liveness probe',
        description: 'Extension. 200 while the process serves HTTP. No key needed.',
        'x-extension': true,
        response: { 200: Liveness },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags,
        security,
        operationId: 'readyz_retrieve',
        summary: 'Readiness probe',
        description:
          'Extension. 200 when the database answers and its schema is current; 503 otherwise, and as soon as a graceful shutdown begins. No key needed.',
        'x-extension': true,
        response: { 200: Readiness, 503: { ...Readiness, description: 'Not ready: see `checks`.' } },
      },
    },
    async (request, reply) => {
      let database: 'ok' | 'unreachable' = 'ok';
      let migrations: 'ok' | 'pending' | 'unknown' = 'ok';
      let masterKey: 'ok' | 'mismatch' | 'unknown' = 'unknown';
      try {
        await withTimeout(sql`select 1`.execute(opts.db), timeoutMs);
        if (!migrationsCurrent) {
          migrationsCurrent = (await withTimeout(pendingMigrations(opts.db), timeoutMs)).length === 0;
          if (!migrationsCurrent) migrations = 'pending';
        }
        // The secrets table exists only once the migrations ran.
        if (migrationsCurrent)
          masterKey =
            (await withTimeout(checkMasterKey(opts.db, opts.masterKey), timeoutMs)) === 'mismatch' ? 'mismatch' : 'ok';
      } catch (err) {
        request.log.warn({ err }, 'readiness check: the database did not answer');
        database = 'unreachable';
        migrations = migrationsCurrent ? 'ok' : 'unknown';
      }
      const draining = opts.isDraining();
      const checks = { database, migrations, process: draining ? ('draining' as const) : ('ok' as const), masterKey };
      const ready = database === 'ok' && migrations === 'ok' && masterKey === 'ok' && !draining;
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', checks });
    },
  );
};

export default health;
