/**
 * `bizapi import --from URL` and `bizapi business list` (docs/deployment.md#11-moving-a-business-in-and-out):
 * reads a business through the public API of a server that speaks the protocol and writes it
 * into this server's database with its ids; prints the answer as one JSON document on stdout, progress bars
 * on stderr when stderr is a terminal.
 */
import fs from 'node:fs';
import type { TransferSource } from '../modules/transfer/transfer.types.ts';
import { PLANS, type Plan } from '../shared/auth-context.ts';
import { type CliContext, CliError, cliMasterKey, printJson, withDb } from './context.ts';

/** Options of `bizapi import`, as given on the command line. */
export interface ImportCliOptions {
  from?: string;
  /** An export file (`bizapi export`) instead of `from`. */
  file?: string;
  apiKey?: string;
  secretKey?: string;
  business?: number;
  name?: string;
  /** Default: the export file's, else AGENCY. */
  plan?: string;
  /** Default: the export file's, else Asia/Seoul. */
  timezone?: string;
  rate: number;
  dryRun?: boolean;
}

/** Counts of one resource as the progress shows them. */
interface Progress {
  read: number;
  created: number;
  updated: number;
  unchanged: number;
}

/** `3725` s → `1h02m`; `95` → `1m35s`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s >= 3600) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  if (s >= 60) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${s}s`;
}

/** How often a progress line is written when stderr is not a terminal, in ms. */
const PROGRESS_LINE_INTERVAL_MS = 30_000;

/**
 * The progress of an import on stderr (docs/deployment.md#progress): per resource the records read of its
 * total (the source counts a record list before it reads the records), created / updated / unchanged, and an
 * ETA from the pace so far. On a terminal one bar per resource (cli-progress); otherwise a line when a total is
 * known and at most every {@link PROGRESS_LINE_INTERVAL_MS}. `summary` writes one line per resource at the
 * end, whatever stderr is.
 */
async function progressReporter(): Promise<{
  total(type: string, total: number): void;
  update(type: string, counts: Progress): void;
  stop(): void;
  summary(counts: Record<string, Progress>): void;
}> {
  const totals = new Map<string, number>();
  const started = new Map<string, number>();
  const eta = (type: string, read: number): string => {
    const total = totals.get(type);
    const since = started.get(type);
    if (total === undefined || since === undefined || read === 0) return '';
    const perRecord = (Date.now() - since) / 1000 / read;
    return ` | ETA ${formatDuration(perRecord * Math.max(0, total - read))}`;
  };
  const summary = (counts: Record<string, Progress>) => {
    for (const [type, c] of Object.entries(counts)) {
      process.stderr.write(
        `${type}: ${c.read} read, ${c.created} created, ${c.updated} updated, ${c.unchanged} unchanged\n`,
      );
    }
  };
  if (!process.stderr.isTTY) {
    let lastLine = 0;
    return {
      total(type, total) {
        totals.set(type, total);
        started.set(type, Date.now());
        process.stderr.write(`${type}: ${total} to read\n`);
      },
      update(type, c) {
        if (!started.has(type)) started.set(type, Date.now());
        if (Date.now() - lastLine < PROGRESS_LINE_INTERVAL_MS) return;
        lastLine = Date.now();
        const total = totals.get(type);
        process.stderr.write(
          `${type}: ${c.read}${total === undefined ? '' : `/${total}`} read, ${c.created} created, ${c.updated} updated, ${c.unchanged} unchanged${eta(type, c.read)}\n`,
        );
      },
      stop: () => undefined,
      summary,
    };
  }
  const { MultiBar, Presets } = await import('cli-progress');
  const multi = new MultiBar(
    {
      stream: process.stderr,
      format:
        ' {resource} | {bar} {value}/{total} | {created} created, {updated} updated, {unchanged} unchanged{eta_text}',
      hideCursor: true,
      clearOnComplete: false,
    },
    Presets.shades_classic,
  );
  const bars = new Map<string, ReturnType<typeof multi.create>>();
  const bar = (type: string) => {
    let b = bars.get(type);
    if (!b)
      bars.set(
        type,
        (b = multi.create(0, 0, { resource: type.padEnd(28), created: 0, updated: 0, unchanged: 0, eta_text: '' })),
      );
    return b;
  };
  return {
    total(type, total) {
      totals.set(type, total);
      started.set(type, Date.now());
      bar(type).setTotal(total);
    },
    update(type, c) {
      if (!started.has(type)) started.set(type, Date.now());
      const b = bar(type);
      if (!totals.has(type)) b.setTotal(c.read);
      b.update(c.read, { created: c.created, updated: c.updated, unchanged: c.unchanged, eta_text: eta(type, c.read) });
    },
    stop: () => multi.stop(),
    summary,
  };
}

/**
 * `bizapi import --from URL --api-key KEY --secret-key SECRET [--business ID] [--name NAME] [--plan PLAN]
 * [--timezone TZ] [--rate N] [--dry-run]`: prints the answer of docs/deployment.md#11-moving-a-business-in-and-out.
 * @throws CliError for bad options, a source that refuses the key or a request (named), an unknown business
 */
export async function importCommand(ctx: CliContext, opts: ImportCliOptions): Promise<void> {
  const [{ createHttpSource, SourceError }, { importBusiness }, { createStorage }, exportFile, { services }] =
    await Promise.all([
      import('../modules/transfer/http-source.ts'),
      import('../modules/transfer/transfer.service.ts'),
      import('../modules/file/create-storage.ts'),
      import('../modules/transfer/export-file.ts'),
      import('../services.ts'),
    ]);
  let source: TransferSource;
  let defaults: { name?: string; plan: string; timezone: string } = { plan: 'AGENCY', timezone: 'Asia/Seoul' };
  if (opts.file !== undefined) {
    // An export file (docs/deployment.md#export-to-a-file-import-from-a-file): its header names the business a new one is made like.
    if (opts.from !== undefined)
      throw new CliError('--file and --from exclude each other: import from a file or from a server.');
    if (!fs.existsSync(opts.file)) throw new CliError(`--file: ${opts.file} does not exist.`);
    const maxLineBytes = exportFile.maxLineBytesFor(
      ctx.config().importSource.maxAnswerBytes,
      ctx.config().files.maxUploadBytes,
    );
    try {
      defaults = (await exportFile.readExportHeader(opts.file, maxLineBytes)).business;
    } catch (err) {
      throw new CliError((err as Error).message);
    }
    source = exportFile.createFileSource(opts.file, maxLineBytes);
  } else {
    if (opts.from === undefined)
      throw new CliError('--from URL (the source server, without /v1) or --file FILE (an export) is required.');
    if (!/^https?:\/\/[^/]/.test(opts.from)) throw new CliError(`--from: "${opts.from}" is not an http or https URL.`);
    if (!opts.apiKey) throw new CliError('--api-key is required.');
    if (!opts.secretKey) throw new CliError('--secret-key is required.');
    const limits = ctx.config().importSource;
    source = createHttpSource({
      url: opts.from,
      apiKey: opts.apiKey,
      secretKey: opts.secretKey,
      rate: opts.rate,
      allowPrivateFiles: limits.allowPrivate,
      maxFileBytes: ctx.config().files.maxUploadBytes,
      maxAnswerBytes: limits.maxAnswerBytes,
      maxPages: limits.maxPages,
      requestTimeoutMs: limits.requestTimeoutMs,
    });
  }
  const plan = opts.plan ?? defaults.plan;
  const timezone = opts.timezone ?? defaults.timezone;
  if (!(PLANS as readonly string[]).includes(plan))
    throw new CliError(`--plan: "${plan}" is not one of ${PLANS.join(', ')}.`);
  const { isValidTimezone } = await import('../modules/auth/auth.service.ts');
  if (!isValidTimezone(timezone)) throw new CliError(`--timezone: "${timezone}" is not a known IANA time zone.`);
  if (opts.name !== undefined && opts.name.trim() === '') throw new CliError('--name must not be empty.');
  const name = opts.name?.trim() ?? defaults.name;
  const config = ctx.config();
  const bars = await progressReporter();
  const dryRun = opts.dryRun === true;
  const run = async (db: Parameters<typeof importBusiness>[0], masterKey: Buffer | undefined) => {
    const storage = masterKey === undefined ? undefined : await createStorage(config, masterKey);
    return importBusiness(db, source, {
      businessId: opts.business,
      name,
      plan: plan as Plan,
      timezone,
      dryRun,
      masterKey: async () => masterKey!,
      files: { storage: storage!, files: config.files, origin: `http://${config.host}:${config.port}` },
      services,
      onProgress: (type, counts) => bars.update(type, counts),
      onTotal: (type, total) => bars.total(type, total),
      onWarning: (message) => {
        if (!process.stderr.isTTY) process.stderr.write(`warning: ${message}\n`);
      },
    });
  };
  try {
    // --dry-run writes nothing: no database is opened (or migrated) unless --business names one, and no
    // master key or storage is made.
    const answer =
      dryRun && opts.business === undefined
        ? await run(undefined, undefined)
        : await withDb(config, async (db) => (dryRun ? run(db, undefined) : run(db, await cliMasterKey(db, config))));
    bars.stop();
    bars.summary(answer.counts);
    process.stderr.write(`${answer.warnings.length} warning(s)${dryRun ? ' (dry run: nothing written)' : ''}\n`);
    printJson(answer);
  } catch (err) {
    bars.stop();
    if (err instanceof SourceError || err instanceof exportFile.ExportFileError) {
      throw new CliError(
        `Import stopped: ${err.message}. What was written is kept; run the same command again to continue.`,
      );
    }
    if (err instanceof Error && err.message.startsWith('--business')) throw new CliError(err.message);
    // A fault of this server (its database or storage): the import stops and is not marked complete.
    if (err instanceof Error)
      throw new CliError(
        `Import stopped by a fault of this server: ${err.message}. What was written is kept; run the same command again to continue.`,
      );
    throw err;
  }
}

/** `bizapi business list`: every business `{id, name, plan, timezone, created, importedFrom}` by id. */
export async function businessList(ctx: CliContext): Promise<void> {
  const { listBusinessesWithOrigin } = await import('../modules/transfer/transfer.service.ts');
  printJson(await withDb(ctx.config(), (db) => listBusinessesWithOrigin(db)));
}
