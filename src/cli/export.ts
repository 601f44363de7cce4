/**
 * `bizapi export --business ID --out FILE` (docs/deployment.md#export-to-a-file-import-from-a-file):
 * the whole business as one gzip JSON Lines file (src/modules/transfer/export-file.ts).
 *
 * The business is read through this server's own API, answered in process (`app.inject`, no port): the same
 * reader as `bizapi import --from` (the HTTP source), so every line is the record's full API shape exactly as
 * a client would receive it, and an import of the file restores what an import from this server would.
 * The reads are signed with a temporary API key of the business, deleted when the export ends, and are not
 * recorded in the business's API call log: an export leaves no trace in the business (issue 36: a revoked
 * key was left in `key list` on every run).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { type CliContext, CliError, cliMasterKey, printJson, withDb } from './context.ts';

/** Options of `export`, as given on the command line. */
export interface ExportOptions {
  business: number;
  out: string;
  force?: boolean;
}

/**
 * The base address of the in-process reads (never resolved: requests to it are answered by `app.inject`; local
 * storage's download links point here too, S3's to the bucket).
 */
const IN_PROCESS = 'http://bizapi.export';

/**
 * Writes business `businessId` of `db` to `out` and returns what was written. Builds the app over `db` (rate
 * limit off, no API call log), issues a temporary key, reads through the HTTP source with a `fetch` that
 * injects each request, and closes the app and deletes the key whatever happens.
 * @throws CliError for an unknown business; what the reader throws (a request the server refused, named)
 */
export async function exportBusiness(
  db: Kysely<Database>,
  config: Config,
  masterKey: Buffer,
  businessId: number,
  out: string,
) {
  const [{ buildApp }, auth, { createHttpSource }, { writeExport }] = await Promise.all([
    import('../app.ts'),
    import('../modules/auth/auth.service.ts'),
    import('../modules/transfer/http-source.ts'),
    import('../modules/transfer/export-file.ts'),
  ]);
  const business = await auth.retrieveBusiness(db, businessId);
  if (!business) throw new CliError(`--business ${businessId}: there is no business with this id.`);

  const app = await buildApp(
    { ...config, rateLimit: 0, logLevel: 'silent', publicUrl: undefined, maxEventLoopDelay: 0 },
    { db, masterKey, recordCalls: false },
  );
  const key = await auth.createApiKey(db, masterKey, businessId);
  try {
    await app.ready();
    const injectFetch: typeof globalThis.fetch = async (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      // Attachments in S3 are downloaded from the bucket's pre-signed URLs; everything else is this server.
      if (url.origin !== IN_PROCESS) return globalThis.fetch(request);
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => (headers[name] = value));
      const body =
        request.method === 'GET' || request.method === 'HEAD' ? undefined : Buffer.from(await request.arrayBuffer());
      const res = await app.inject({
        method: request.method as 'GET',
        url: `${url.pathname}${url.search}`,
        headers: { ...headers, host: url.host },
        ...(body && { payload: body }),
      });
      const responseHeaders = new Headers();
      for (const [name, value] of Object.entries(res.headers)) {
        if (value === undefined) continue;
        for (const v of Array.isArray(value) ? value : [String(value)]) responseHeaders.append(name, v);
      }
      return new Response(res.statusCode === 204 || res.statusCode === 304 ? null : new Uint8Array(res.rawPayload), {
        status: res.statusCode,
        headers: responseHeaders,
      });
    };
    const source = createHttpSource({
      url: IN_PROCESS,
      apiKey: key.apiKey,
      secretKey: key.secretKey,
      rate: 0,
      tries: 1,
      fetch: injectFetch,
    });
    return await writeExport(source, out, { name: business.name, plan: business.plan, timezone: business.timezone });
  } finally {
    await app.close();
    await auth.deleteApiKey(db, key.apiKey);
  }
}

/**
 * `export --business ID --out FILE [--force]`: prints `{"path", "bytes", "counts": {<type>: lines}, "files":
 * {"count", "bytes"}, "warnings": [str]}`.
 * @throws CliError for an unknown business, an existing `--out` without `--force`, a missing directory
 */
export async function exportCommand(ctx: CliContext, opts: ExportOptions): Promise<void> {
  const out = path.resolve(opts.out);
  if (!fs.existsSync(path.dirname(out)))
    throw new CliError(`--out: the directory ${path.dirname(out)} does not exist.`);
  if (fs.existsSync(out) && opts.force !== true)
    throw new CliError(`--out: ${out} already exists (add --force to replace it).`);
  const config = ctx.config();
  const summary = await withDb(config, async (db) =>
    exportBusiness(db, config, await cliMasterKey(db, config), opts.business, out),
  );
  printJson({ path: out, bytes: fs.statSync(out).size, ...summary });
}
