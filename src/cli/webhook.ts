/** `bizapi webhook create | list | delete` (docs/webhooks.md#endpoints): webhook endpoints of a business. */
import type { Db } from '../db/database.ts';
import { retrieveBusiness } from '../modules/auth/auth.service.ts';
import { ValidationError } from '../shared/errors.ts';
import { type CliContext, CliError, cliMasterKey, printJson, withDb } from './context.ts';

/** Options of `webhook create`, as given on the command line. */
export interface WebhookCreateOptions {
  business: number;
  url: string;
  /** Comma-separated event types, or `*`. */
  events: string;
  format?: string;
  description?: string;
}

/**
 * `webhook create --business ID --url U --events a,b [--format standard|pluuug] [--description D]`: prints
 * the endpoint as `POST /v1/webhook` answers it, `{id, url, eventTypes, description, isActive, format,
 * created, secret}`; the secret is shown only here. The URL is checked as the API checks it
 * (`BIZAPI_WEBHOOK_ALLOW_PRIVATE` applies).
 * @throws CliError for an unknown business, event type or format, or a refused URL
 */
export async function webhookCreate(ctx: CliContext, opts: WebhookCreateOptions): Promise<void> {
  const { SUBSCRIBABLE_EVENT_TYPES, ALL_EVENT_TYPES, WEBHOOK_FORMATS } =
    await import('../modules/webhook/webhook.schemas.ts');
  const eventTypes = opts.events
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  if (eventTypes.length === 0) throw new CliError('--events: give at least one event type, or "*" for every type.');
  const known = new Set<string>([...SUBSCRIBABLE_EVENT_TYPES, ALL_EVENT_TYPES]);
  const unknown = eventTypes.filter((e) => !known.has(e));
  if (unknown.length > 0) {
    throw new CliError(
      `--events: unknown event type ${unknown.map((e) => `"${e}"`).join(', ')}; use ${SUBSCRIBABLE_EVENT_TYPES.slice(0, 3).join(', ')}, … or "*".`,
    );
  }
  const format = opts.format ?? 'standard';
  if (!(WEBHOOK_FORMATS as readonly string[]).includes(format)) {
    throw new CliError(`--format: "${format}" is not one of ${WEBHOOK_FORMATS.join(', ')}.`);
  }
  if (opts.url.length > 2000) throw new CliError('--url: at most 2000 characters.');
  if (opts.description !== undefined && opts.description.length > 500)
    throw new CliError('--description: at most 500 characters.');

  const config = ctx.config();
  const created = await withDb(config, async (db) => {
    await requireBusiness(db, opts.business);
    const service = await import('../modules/webhook/webhook.service.ts');
    const settings = {
      masterKey: await cliMasterKey(db, config),
      allowPrivate: config.webhookAllowPrivate,
      maxEndpoints: config.webhooks.maxEndpoints,
    };
    const body = {
      url: opts.url,
      eventTypes: eventTypes as (typeof SUBSCRIBABLE_EVENT_TYPES)[number][],
      format: format as (typeof WEBHOOK_FORMATS)[number],
      ...(opts.description !== undefined && { description: opts.description }),
    };
    try {
      return await service.create(db, settings, { businessId: opts.business }, body);
    } catch (err) {
      if (err instanceof ValidationError) throw new CliError(describeErrors(err));
      throw err;
    }
  });
  printJson(created);
}

/**
 * `webhook list --business ID`: prints `{"webhooks": [{id, url, eventTypes, description, isActive, format,
 * created}]}`, newest first; never the secrets.
 * @throws CliError "Business 9 does not exist."
 */
export async function webhookList(ctx: CliContext, opts: { business: number }): Promise<void> {
  const webhooks = await withDb(ctx.config(), async (db) => {
    await requireBusiness(db, opts.business);
    const service = await import('../modules/webhook/webhook.service.ts');
    return service.listAll(db, opts.business);
  });
  printJson({ webhooks });
}

/**
 * `webhook delete --business ID --id N`: deletes the endpoint and its deliveries; prints `{"deleted": true}`.
 * @throws CliError for an unknown business, or an endpoint id the business does not have
 */
export async function webhookDelete(ctx: CliContext, opts: { business: number; id: number }): Promise<void> {
  await withDb(ctx.config(), async (db) => {
    await requireBusiness(db, opts.business);
    const service = await import('../modules/webhook/webhook.service.ts');
    if (!(await service.exists(db, { businessId: opts.business }, opts.id))) {
      throw new CliError(`Business ${opts.business} has no webhook endpoint ${opts.id}.`);
    }
    await service.destroy(db, { businessId: opts.business }, opts.id);
  });
  printJson({ deleted: true });
}

/** `url: message; eventTypes: message` from a validation error's field map. */
function describeErrors(err: ValidationError): string {
  return Object.entries(err.fields)
    .map(
      ([field, value]) =>
        `${field === 'eventTypes' ? '--events' : `--${field}`}: ${Array.isArray(value) ? value.join(' ') : JSON.stringify(value)}`,
    )
    .join('\n');
}

async function requireBusiness(db: Db, businessId: number): Promise<void> {
  if ((await retrieveBusiness(db, businessId)) === undefined) {
    throw new CliError(`Business ${businessId} does not exist.`);
  }
}
