/**
 * The `bizapi` command (README.md#provisioning-businesses-keys-and-catalogs), loaded by `bin/bizapi`.
 *
 * Contract: every command that prints data prints exactly one JSON document on stdout; diagnostics go to
 * stderr; a failure prints a clear message on stderr, nothing on stdout, and exits non-zero. Configuration
 * is the environment (with an optional `.env` file), parsed by `loadConfig`; every command that touches
 * the database migrates it first and closes it at the end.
 *
 * The command tree is declared here; each command's implementation lives in its own module, imported only
 * when that command runs, so that `bizapi sign` does not load the database layer and `bizapi key list`
 * does not load the HTTP server.
 */
import cluster from 'node:cluster';
import fs from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { ConfigError } from '../config.ts';
import { type CliContext, CliError, createContext, databaseNotice, parseId, printJson, withDb } from './context.ts';

/** The commands that open the database: each states on stderr which one (issue 26, trap 3; issue 36). */
const DATABASE_COMMANDS = new Set([
  'migrate',
  'business',
  'catalog',
  'key',
  'webhook',
  'demo',
  'worker',
  'serve',
  'import',
  'export',
  'backup',
  'distribute',
]);

/**
 * The commands that may create a missing SQLite database (README.md#provisioning-businesses-keys-and-catalogs):
 * every other one refuses a file that does not exist, so that a mistyped `DATABASE_URL` is not silently a
 * new, empty database (issue 36, item 3).
 */
const CREATING_COMMANDS = new Set(['serve', 'migrate', 'demo', 'business create']);

/** Parses `--port`: an integer 0..65535. */
function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new InvalidArgumentError('a port is an integer from 0 to 65535.');
  return port;
}

/** Builds the command tree around `ctx`. */
export function buildProgram(ctx: CliContext): Command {
  const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  const program = new Command()
    .name('bizapi')
    .description('Business Management REST API: server and provisioning tool.')
    .version(pkg.version)
    .showHelpAfterError('(run with --help for usage)');
  // Which database a command opened, and a warning when it is the default file while the installation's
  // .env names another one (context.ts, databaseNotice). A cluster worker of `serve` stays quiet (its primary spoke).
  program.hook('preAction', (_program, action) => {
    let top = action;
    while (top.parent !== null && top.parent !== program) top = top.parent;
    if (!DATABASE_COMMANDS.has(top.name()) || cluster.isWorker) return;
    const config = ctx.config();
    for (const line of databaseNotice(config, ctx.databaseSource)) process.stderr.write(`${line}\n`);
    const name = top === action ? top.name() : `${top.name()} ${action.name()}`;
    if (
      config.database.dialect === 'sqlite' &&
      config.database.path !== ':memory:' &&
      !CREATING_COMMANDS.has(name) &&
      !fs.existsSync(config.database.path)
    ) {
      throw new CliError(
        `There is no SQLite database at ${config.database.path}: \`bizapi ${name}\` opens an existing one only. ` +
          'Check DATABASE_URL (and the directory you run in), or create the database with `bizapi migrate` (or `bizapi serve`, `bizapi demo`, `bizapi business create`).',
      );
    }
  });

  program
    .command('migrate')
    .description('Bring the database schema to the newest migration. Prints {"applied": [names]}.')
    .action(async () => {
      const applied = await withDb(ctx.config(), async (_db, names) => names, { reportMigrations: false });
      printJson({ applied });
    });

  program
    .command('distribute')
    .description(
      'On a Citus coordinator: migrate, then distribute the business-owned tables on business_id (colocated) and make business and api_key reference tables. Idempotent. Prints what it did.',
    )
    .option(
      '--shard-count <n>',
      'shards per distributed table when none is distributed yet (default: citus.shard_count, 32)',
      (v: string) => {
        const n = Number(v);
        if (!/^\d+$/.test(v) || n < 1 || n > 64000)
          throw new InvalidArgumentError('a shard count is an integer from 1 to 64000.');
        return n;
      },
    )
    .action(async (opts: { shardCount?: number }) => (await import('./distribute.ts')).distributeCommand(ctx, opts));

  program
    .command('serve')
    .description('Run the HTTP server on HOST:PORT (migrates first).')
    .option('--demo', 'create a demo business when the database holds none, and print its key')
    .option('--port <port>', 'TCP port (default: $PORT, else 8000; 0 picks a free one)', parsePort)
    .option('--host <host>', 'address to listen on (default: $HOST, else 127.0.0.1; 0.0.0.0 for every interface)')
    .option(
      '--workers <n>',
      'server processes on the one port (node:cluster): a number or "auto" (one per CPU); default BIZAPI_WORKERS or 1',
    )
    .action(async (opts: { demo?: boolean; port?: number; host?: string; workers?: string }) => {
      const config = {
        ...ctx.config(),
        ...(opts.port !== undefined && { port: opts.port }),
        ...(opts.host !== undefined && { host: opts.host }),
      };
      const { isClusterWorker, parseWorkers, serveCluster } = await import('../cluster.ts');
      const workers =
        opts.workers !== undefined ? parseWorkers(opts.workers, '--workers') : parseWorkers(config.cluster.workers);
      const { startServer, ListenError } = await import('../server.ts');
      try {
        if (workers > 1 || isClusterWorker(config)) {
          await serveCluster(config, { demo: opts.demo === true, workers });
          return;
        }
        await startServer(config, { demo: opts.demo === true });
      } catch (err) {
        if (err instanceof ListenError) throw new CliError(err.message);
        throw err;
      }
    });

  program
    .command('worker')
    .description(
      'Deliver notifications (the outbox dispatcher) without the HTTP server, until SIGINT / SIGTERM (migrates first).',
    )
    .action(async () => (await import('./worker.ts')).worker(ctx));

  const business = program.command('business').description('Manage businesses (tenants).');
  business
    .command('create')
    .description('Create a business with its first API key, and optionally import a catalog file.')
    .requiredOption('--name <name>', 'business name')
    .requiredOption('--plan <plan>', 'plan: FREE, BASIC, TEAM or AGENCY')
    .option('--timezone <tz>', 'IANA time zone of the business', 'Asia/Seoul')
    .option('--catalog <file>', 'catalog file (JSON) to import into the new business')
    .action(async (opts) => (await import('./business.ts')).businessCreate(ctx, opts));

  business
    .command('list')
    .description('List every business: id, name, plan, time zone, creation time and where it was imported from.')
    .action(async () => (await import('./import.ts')).businessList(ctx));

  program
    .command('import')
    .description(
      'Import a business from another server that speaks the protocol (docs/deployment.md, "Moving a business in and out"), with its ids. Prints counts, changed ids and warnings.',
    )
    .option('--from <url>', 'base address of the source server, without /v1')
    .option(
      '--file <file>',
      'an export file (bizapi export) instead of a server; --api-key and --secret-key are not needed',
    )
    .option('--api-key <key>', 'API key of the business on the source')
    .option('--secret-key <secret>', 'its secret (signs the requests; never sent)')
    .option('--business <id>', 'continue into this business (a resumed or repeated import)', parseId)
    .option('--name <name>', 'name of a new business (default: the export file\'s, else "Imported from <host>")')
    .option(
      '--plan <plan>',
      "plan of a new business: FREE, BASIC, TEAM or AGENCY (default: the export file's, else AGENCY)",
    )
    .option('--timezone <tz>', "IANA time zone of a new business (default: the export file's, else Asia/Seoul)")
    .option(
      '--rate <n>',
      'requests per minute to the source at most (0: no limit)',
      (v: string) => {
        if (!/^\d+$/.test(v)) throw new InvalidArgumentError('requests per minute, a non-negative integer.');
        return Number(v);
      },
      900,
    )
    .option('--dry-run', 'read everything, write nothing')
    .action(async (opts) => (await import('./import.ts')).importCommand(ctx, opts));
  program
    .command('export')
    .description(
      'Write a business to one gzip JSON Lines file: catalogs, records, notes, histories and attached files (docs/deployment.md, "Moving a business in and out"). Prints what was written.',
    )
    .requiredOption('--business <id>', 'business id', parseId)
    .requiredOption('--out <file>', 'the file to write (its directory must exist)')
    .option('--force', 'replace --out when it exists')
    .action(async (opts) => (await import('./export.ts')).exportCommand(ctx, opts));
  program
    .command('backup')
    .description(
      'Copy the embedded SQLite database while the server runs (online backup), check the copy; prints {"path", "bytes", "integrity"}. PostgreSQL: use pg_dump.',
    )
    .requiredOption('--out <file>', 'the copy to write (its directory must exist)')
    .option('--force', 'replace --out when it exists')
    .action(async (opts) => (await import('./backup.ts')).backup(ctx, opts));

  const catalog = program.command('catalog').description('Manage the read-only catalogs of a business.');
  catalog
    .command('import')
    .description('Import a catalog file (JSON) into a business; catalogs accumulate across imports.')
    .requiredOption('--business <id>', 'business id', parseId)
    .argument('<file>', 'catalog file (JSON)')
    .action(async (file: string, opts) => (await import('./catalog.ts')).catalogImport(ctx, file, opts));

  const key = program.command('key').description('Manage API keys.');
  key
    .command('create')
    .description(
      'Issue a new API key and secret (rotation: create the new key, then revoke the old one); with --mcp, a bearer token for the remote MCP endpoint (docs/mcp.md#tokens).',
    )
    .requiredOption('--business <id>', 'business id', parseId)
    .option('--mcp', 'issue an MCP token (for an AI assistant, /mcp only) instead of an API key')
    .option('--read-only', 'with --mcp: the token may call only the reads')
    .option('--tools <ids>', 'with --mcp: the token may call only these operation ids (comma-separated)')
    .option('--name <label>', 'with --mcp: a label shown by key list')
    .action(async (opts) => (await import('./key.ts')).keyCreate(ctx, opts));
  key
    .command('list')
    .description('List the keys of a business: id, display prefix, creation and revocation times.')
    .requiredOption('--business <id>', 'business id', parseId)
    .action(async (opts) => (await import('./key.ts')).keyList(ctx, opts));
  key
    .command('revoke')
    .description(
      'Revoke an API key or MCP token at once, named by its id or prefix (as `key list` shows them) or its full value.',
    )
    .argument(
      '<key>',
      'the key id, its prefix (bz_ and 8 characters) or the full API key; an MCP token by its prefix (bzm_…) or full value',
    )
    .action(async (ref: string) => (await import('./key.ts')).keyRevoke(ctx, ref));

  const webhook = program
    .command('webhook')
    .description('Manage the webhook endpoints of a business (docs/webhooks.md).');
  webhook
    .command('create')
    .description('Create a webhook endpoint; prints it with its signing secret (shown only here).')
    .requiredOption('--business <id>', 'business id', parseId)
    .requiredOption(
      '--url <url>',
      'http or https URL the events are POSTed to (a public host unless BIZAPI_WEBHOOK_ALLOW_PRIVATE=true)',
    )
    .requiredOption(
      '--events <types>',
      'comma-separated event types (client.created,inquiry.updated,…), or "*" for every type',
    )
    .option('--format <format>', 'body format: standard or pluuug', 'standard')
    .option('--description <text>', 'a note for people')
    .action(async (opts) => (await import('./webhook.ts')).webhookCreate(ctx, opts));
  webhook
    .command('list')
    .description('List the webhook endpoints of a business, newest first (no secrets).')
    .requiredOption('--business <id>', 'business id', parseId)
    .action(async (opts) => (await import('./webhook.ts')).webhookList(ctx, opts));
  webhook
    .command('delete')
    .description('Delete a webhook endpoint and its delivery history.')
    .requiredOption('--business <id>', 'business id', parseId)
    .requiredOption('--id <id>', 'webhook endpoint id', parseId)
    .action(async (opts) => (await import('./webhook.ts')).webhookDelete(ctx, opts));

  program
    .command('openapi')
    .description('Print the OpenAPI document the server serves at /openapi.json (needs no database).')
    .action(async () => (await import('./openapi.ts')).openapi());

  program
    .command('mcp')
    .description(
      'Serve every API operation to AI assistants (Model Context Protocol over stdio; docs/mcp.md): three tools by default, one per operation with --full. Reads BIZAPI_URL (or --url), BIZAPI_API_KEY, BIZAPI_SECRET_KEY.',
    )
    .option('--url <url>', "the API's address (default: $BIZAPI_URL, else http://127.0.0.1:8000)")
    .option(
      '--signature <version>',
      "request signature: v1 (the reference service's; default) or v2 (timestamped, replay-proof)",
      'v1',
    )
    .option('--read-only', 'offer only the reads (GET operations)')
    .option(
      '--tools <ids>',
      'offer only these operations (comma-separated operation ids, e.g. client_list,client_retrieve)',
    )
    .option(
      '--full',
      'offer one tool per operation (about 25,000 tokens) instead of the three default tools (list_operations, describe_operation, call_operation)',
    )
    .option('--dynamic', 'the three default tools (the default; kept for older configurations)')
    .option('--no-extensions', 'leave out the extensions (operations the reference service lacks: webhooks, events, …)')
    .option('--openapi <file>', 'generate the tools from this OpenAPI document (JSON) instead of the bundled one')
    .action(async (opts) => (await import('./mcp.ts')).mcp(ctx, opts));

  program
    .command('demo')
    .description('Create a demo business ("Demo Company", AGENCY) with a catalog and clients; print its key.')
    .action(async () => (await import('./demo.ts')).demo(ctx));

  program
    .command('sign')
    .description(
      'Compute the X-Signature of a request body (HMAC-SHA256 with the key secret, hex), or with --v2 of a whole request.',
    )
    .option('--secret <secret>', 'the API key secret (default: $BIZAPI_SECRET_KEY)')
    .addOption(new Option('--data <body>', 'the exact request body').conflicts('file'))
    .option('--file <path>', 'read the exact request body bytes from a file')
    .option('--hex', 'print only the signature and a newline')
    .option('--v2', 'sign version 2: timestamp, method, path and query, body (needs --method and --path)')
    .option('--method <method>', 'with --v2: the HTTP method')
    .option('--path <path>', 'with --v2: the path and query exactly as sent, e.g. /v1/client?page_size=5')
    .option('--timestamp <seconds>', 'with --v2: the Unix time to sign (default: now)')
    .action(async (opts) => (await import('./sign.ts')).sign(ctx, opts));

  program
    .command('request')
    .description('Send a signed request to a bizapi server and print the response body.')
    .argument('<method>', 'HTTP method (GET, POST, PATCH, DELETE, …)')
    .argument('<path>', 'path with query string, e.g. /v1/client?page_size=5')
    .option('--data <body>', 'request body, sent as application/json')
    .option('--url <url>', 'server address (default: $BIZAPI_URL, else http://127.0.0.1:8000)')
    .addOption(new Option('--base-url <url>', 'old name of --url (deprecated)').hideHelp())
    .option('--key <apiKey>', 'API key (default: $BIZAPI_API_KEY)')
    .option('--secret <secret>', 'API key secret (default: $BIZAPI_SECRET_KEY)')
    .option('--v2', 'sign version 2 (timestamp, method, path and query, body) instead of version 1')
    .option('--idempotency-key <key>', 'send this Idempotency-Key (safe retries of POST, PATCH, DELETE)')
    .option('--all', 'follow `next` across every page of a list (GET) and print one JSON array of all results')
    .action(async (method: string, path: string, opts) =>
      (await import('./request.ts')).request(ctx, method, path, opts),
    );

  return program;
}

/**
 * Runs the command line `argv` (as in `process.argv`). Errors are printed on stderr and set the exit code
 * to 1: expected ones (bad configuration, bad input, unknown ids) as their message; unexpected ones with
 * their stack trace as well when `LOG_LEVEL` is `debug` or `trace`.
 */
export async function run(argv: readonly string[]): Promise<void> {
  // Everything this process creates — the SQLite database and its journal, the data directory, master key,
  // stored files, mail outbox — is readable by its own user only: files 0600, directories 0700
  // (docs/deployment.md#files-on-disk).
  process.umask(0o077);
  const ctx = createContext();
  try {
    await buildProgram(ctx).parseAsync(argv as string[]);
  } catch (err) {
    process.exitCode = 1;
    if (err instanceof ConfigError || err instanceof CliError) {
      process.stderr.write(`${err.message}\n`);
      return;
    }
    const e = err instanceof Error ? err : new Error(String(err));
    // An AggregateError (e.g. every address of a database host refused) may carry no message of its own.
    const message =
      e.message || (e instanceof AggregateError ? e.errors.map((x) => String(x?.message ?? x)).join('; ') : e.name);
    const verbose = ['debug', 'trace'].includes(ctx.env.LOG_LEVEL ?? '');
    process.stderr.write(`error: ${verbose ? (e.stack ?? message) : message}\n`);
  }
}

await run(process.argv);
