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


/**
 * A progress bar per resource on stderr, only when stderr is a terminal (cli-progress); a no-op otherwise.
 * Totals are unknown (the API's pages give no count), so each bar shows the records read so far.
 */
async function progressBars(): Promise<{ update(type: string, read: number): void; stop(): void }> {
  if (!process.stderr.isTTY) return { update: () => undefined, stop: () => undefined };
  const { MultiBar, Presets } = await import('cli-progress');
  const multi = new MultiBar(
    { stream: process.stderr, format: ' {resource} | {value} read | {created} created, {updated} updated, {unchanged} unchanged', hideCursor: true, clearOnComplete: false },
    Presets.shades_classic,
  );
  const bars = new Map<string, ReturnType<typeof multi.create>>();
  return {
    update(type, read) {
      let bar = bars.get(type);
      if (!bar) bars.set(type, (bar = multi.create(0, 0, { resource: type.padEnd(28), created: 0, updated: 0, unchanged: 0 })));
      bar.setTotal(read);
      bar.update(read);
    },
    stop: () => multi.stop(),
  };
}

/**
 * `bizapi import --from URL --api-key KEY --secret-key SECRET [--business ID] [--name NAME] [--plan PLAN]
 * [--timezone TZ] [--rate N] [--dry-run]`: prints the answer of docs/deployment.md#11-moving-a-business-in-and-out.
 * @throws CliError for bad options, a source that refuses the key or a request (named), an unknown business
 */
export async function importCommand(ctx: CliContext, opts: ImportCliOptions): Promise<void> {
  const [{ createHttpSource, SourceError }, { importBusiness }, { createStorage }, exportFile] = await Promise.all([
    import('../modules/transfer/http-source.ts'),
    import('../modules/transfer/transfer.service.ts'),
    import('../modules/file/create-storage.ts'),
    import('../modules/transfer/export-file.ts'),
  ]);
  let source: TransferSource;
  let defaults: { name?: string; plan: string; timezone: string } = { plan: 'AGENCY', timezone: 'Asia/Seoul' };
  if (opts.file !== undefined) {
    // An export file (docs/deployment.md#export-to-a-file-import-from-a-file): its header names the business a new one is made like.
    if (opts.from !== undefined) throw new CliError('--file and --from exclude each other: import from a file or from a server.');
    if (!fs.existsSync(opts.file)) throw new CliError(`--file: ${opts.file} does not exist.`);
    const maxLineBytes = exportFile.maxLineBytesFor(ctx.config().importSource.maxAnswerBytes, ctx.config().files.maxUploadBytes);
    try {
      defaults = (await exportFile.readExportHeader(opts.file, maxLineBytes)).business;
    } catch (err) {
      throw new CliError((err as Error).message);
    }
    source = exportFile.createFileSource(opts.file, maxLineBytes);
  } else {
    if (opts.from === undefined) throw new CliError('--from URL (the source server, without /v1) or --file FILE (an export) is required.');
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
  if (!(PLANS as readonly string[]).includes(plan)) throw new CliError(`--plan: "${plan}" is not one of ${PLANS.join(', ')}.`);
  const { isValidTimezone } = await import('../modules/auth/auth.service.ts');
  if (!isValidTimezone(timezone)) throw new CliError(`--timezone: "${timezone}" is not a known IANA time zone.`);
  if (opts.name !== undefined && opts.name.trim() === '') throw new CliError('--name must not be empty.');
  const name = opts.name?.trim() ?? defaults.name;
  const config = ctx.config();
  const bars = await progressBars();
  try {
    const answer = await withDb(config, async (db) => {
      const masterKey = await cliMasterKey(db, config);
      const storage = await createStorage(config, masterKey);
      return importBusiness(db, source, {
        businessId: opts.business,
        name,
        plan: plan as Plan,
        timezone,
        dryRun: opts.dryRun === true,
        masterKey: async () => masterKey,
        files: { storage, files: config.files, origin: `http://${config.host}:${config.port}` },
        onProgress: (type, counts) => bars.update(type, counts.read),
        onWarning: (message) => {
          if (!process.stderr.isTTY) process.stderr.write(`warning: ${message}\n`);
        },
      });
    });
    bars.stop();
    printJson(answer);
  } catch (err) {
    bars.stop();
    if (err instanceof SourceError || err instanceof exportFile.ExportFileError) {
      throw new CliError(`Import stopped: ${err.message}. What was written is kept; run the same command again to continue.`);
    }
    if (err instanceof Error && err.message.startsWith('--business')) throw new CliError(err.message);
    throw err;
  }
}

/** `bizapi business list`: every business `{id, name, plan, timezone, created, importedFrom}` by id. */
export async function businessList(ctx: CliContext): Promise<void> {
  const { listBusinessesWithOrigin } = await import('../modules/transfer/transfer.service.ts');
  printJson(await withDb(ctx.config(), (db) => listBusinessesWithOrigin(db)));
}
