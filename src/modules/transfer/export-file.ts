/**
 * The export file of `bizapi export` and `bizapi import --file` (docs/deployment.md#export-to-a-file-import-from-a-file):
 * one business as gzip-compressed JSON Lines.
 *
 * ```
 * {"format":"bizapi-export","version":1,"business":{"name","plan","timezone"},"exported":"<date-time>"}
 * {"type":"member","data":{…}}                          one line per catalog entry, record, note, history entry,
 * {"type":"inquiry.text_history","data":{…},"parent":{"type":"inquiry","id":7}}   in the stream's order
 * {"type":"file","path":"inquiry/7/file/3","name","size","sha256","base64"}       one per attached file, last
 * ```
 *
 * `data` is the item's full API shape as this server answers it, keys in the API's order; notes and histories
 * name their record in `parent` (their API shapes do not). An inquiry's `fileSet[].file` (a download URL that
 * expires) is replaced by the `path` of its `file` line, `inquiry/<inquiry id>/file/<file id>`, so that the
 * lines depend only on the business's data: an export of a business imported from an export gives the same
 * lines apart from the header's `exported` (the header names the business without its id, which differs from
 * server to server).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { PassThrough } from 'node:stream';
import zlib from 'node:zlib';
import { TRANSFER_TYPES, type TransferFileRef, type TransferItem, type TransferSource, type TransferType } from './transfer.types.ts';

/** The `format` of the header line. */
export const EXPORT_FORMAT = 'bizapi-export';
/** The `version` of the header line this server writes and reads. */
export const EXPORT_VERSION = 1;

/** The business as the header names it. */
export interface ExportBusiness {
  name: string;
  plan: string;
  timezone: string;
}

/** The header line. */
export interface ExportHeader {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  business: ExportBusiness;
  /** When the export was written (ISO 8601). */
  exported: string;
}

/** What {@link writeExport} wrote: lines per type (`file` included) and the attachments' bytes. */
export interface ExportSummary {
  counts: Record<string, number>;
  files: { count: number; bytes: number };
}

/** A failure to read an export file; the message names the line. */
export class ExportFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExportFileError';
  }
}

/** The `path` of an attachment's `file` line. */
export function exportFilePath(inquiryId: number, fileId: number): string {
  return `inquiry/${inquiryId}/file/${fileId}`;
}

type Obj = Record<string, unknown>;

/**
 * Writes the business `source` yields to `out` (gzip JSON Lines, mode 0600 under the CLI's umask), through a
 * temporary file renamed over `out` at the end, so `out` never holds half an export. Attachments are fetched
 * with `source.fileBytes` after the records, in the order the inquiries name them.
 *
 * @param business the header's business
 * @param exported the header's time (default now)
 * @returns lines per type and the attachments' total
 * @throws what the source throws (the temporary file is removed)
 */
export async function writeExport(source: TransferSource, out: string, business: ExportBusiness, exported = new Date().toISOString()): Promise<ExportSummary> {
  const counts: Record<string, number> = {};
  const files = { count: 0, bytes: 0 };
  const temp = `${out}.partial-${process.pid}`;
  const lines = new PassThrough();
  const written = pipeline(lines, zlib.createGzip(), fs.createWriteStream(temp));
  const write = async (value: unknown) => {
    if (!lines.write(`${JSON.stringify(value)}\n`)) await new Promise((resolve) => lines.once('drain', resolve));
  };
  try {
    const header: ExportHeader = { format: EXPORT_FORMAT, version: EXPORT_VERSION, business, exported };
    await write(header);
    const attachments: TransferFileRef[] = [];
    for await (const item of source.items(() => undefined)) {
      let data = item.data;
      if (item.type === 'inquiry' && Array.isArray(data.fileSet)) {
        const inquiryId = data.id as number;
        data = {
          ...data,
          fileSet: (data.fileSet as Obj[]).map((f) => {
            attachments.push({ inquiryId, fileId: f.id as number, name: f.name as string, file: f.file as string });
            return { ...f, file: exportFilePath(inquiryId, f.id as number) };
          }),
        };
      }
      await write(item.parent ? { type: item.type, data, parent: item.parent } : { type: item.type, data });
      counts[item.type] = (counts[item.type] ?? 0) + 1;
    }
    for (const ref of attachments) {
      const bytes = Buffer.from(await source.fileBytes(ref));
      await write({
        type: 'file',
        path: exportFilePath(ref.inquiryId, ref.fileId),
        name: ref.name,
        size: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        base64: bytes.toString('base64'),
      });
      files.count += 1;
      files.bytes += bytes.length;
    }
    counts.file = files.count;
    lines.end();
    await written;
    fs.renameSync(temp, out);
    return { counts, files };
  } catch (err) {
    lines.destroy();
    await written.catch(() => undefined);
    fs.rmSync(temp, { force: true });
    throw err;
  }
}

/** The lines of a gzip JSON Lines file, parsed, with their line numbers (1-based). */
async function* readLines(file: string): AsyncGenerator<{ n: number; value: Obj }> {
  const input = fs.createReadStream(file).pipe(zlib.createGunzip());
  const rl = readline.createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  try {
    for await (const line of rl) {
      n += 1;
      if (line.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (err) {
        throw new ExportFileError(`${file}, line ${n}: not JSON (${(err as Error).message}).`);
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ExportFileError(`${file}, line ${n}: not a JSON object.`);
      yield { n, value: value as Obj };
    }
  } catch (err) {
    if (err instanceof ExportFileError) throw err;
    throw new ExportFileError(`${file}: cannot be read as gzip JSON Lines (${(err as Error).message}).`);
  } finally {
    rl.close();
    input.destroy();
  }
}

/**
 * Reads the header line of an export file.
 * @throws ExportFileError for a file that is not gzip JSON Lines, or whose first line is not the header of
 *   format `bizapi-export` version 1
 */
export async function readExportHeader(file: string): Promise<ExportHeader> {
  for await (const { value } of readLines(file)) {
    const business = value.business as Obj | undefined;
    if (value.format !== EXPORT_FORMAT) throw new ExportFileError(`${file}: line 1 is not a bizapi export header (format "${EXPORT_FORMAT}").`);
    if (value.version !== EXPORT_VERSION) throw new ExportFileError(`${file}: export version ${String(value.version)}; this server reads version ${EXPORT_VERSION}.`);
    if (!business || typeof business.name !== 'string' || typeof business.plan !== 'string' || typeof business.timezone !== 'string') {
      throw new ExportFileError(`${file}: the header's business needs name, plan and timezone.`);
    }
    return value as unknown as ExportHeader;
  }
  throw new ExportFileError(`${file}: the file is empty.`);
}

const TYPES = new Set<string>(TRANSFER_TYPES);

/**
 * The source of `bizapi import --file` (a {@link TransferSource}): yields the file's items in their order and
 * serves the attachments from its `file` lines. A first pass checks every line (type, shape, each file's
 * size and sha256) and unpacks the attachments into a private temporary directory, removed once the items
 * have all been read; the second pass streams the items.
 *
 * @throws ExportFileError (from `items`) naming the line: an unknown type, a line without `data`, a file line
 *   whose bytes do not match its size or sha256, a missing header
 */
export function createFileSource(file: string): TransferSource {
  const absolute = path.resolve(file);
  let dir: string | undefined;
  const stored = new Map<string, string>();

  async function unpack(): Promise<void> {
    await readExportHeader(absolute);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-import-'));
    let index = 0;
    for await (const { n, value } of readLines(absolute)) {
      if (n === 1) continue;
      const where = `${absolute}, line ${n}`;
      if (value.type === 'file') {
        const { path: p, size, sha256, base64 } = value;
        if (typeof p !== 'string' || typeof size !== 'number' || typeof sha256 !== 'string' || typeof base64 !== 'string') {
          throw new ExportFileError(`${where}: a file line needs path, size, sha256 and base64.`);
        }
        const bytes = Buffer.from(base64, 'base64');
        if (bytes.length !== size) throw new ExportFileError(`${where}: file ${p} holds ${bytes.length} bytes, its line says ${size}.`);
        if (createHash('sha256').update(bytes).digest('hex') !== sha256) throw new ExportFileError(`${where}: file ${p} does not match its sha256.`);
        const target = path.join(dir, String(index++));
        fs.writeFileSync(target, bytes, { mode: 0o600 });
        stored.set(p, target);
      } else if (typeof value.type !== 'string' || !TYPES.has(value.type)) {
        throw new ExportFileError(`${where}: unknown type ${JSON.stringify(value.type)}.`);
      } else if (value.data === null || typeof value.data !== 'object' || Array.isArray(value.data)) {
        throw new ExportFileError(`${where}: a ${value.type} line needs a data object.`);
      }
    }
  }

  function cleanUp(): void {
    if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  }

  async function* items(): AsyncGenerator<TransferItem> {
    try {
      await unpack();
      for await (const { n, value } of readLines(absolute)) {
        if (n === 1 || value.type === 'file') continue;
        const parent = value.parent as { type?: unknown; id?: unknown } | undefined;
        const item: TransferItem = { type: value.type as TransferType, data: value.data as Obj };
        if (parent && typeof parent.type === 'string' && TYPES.has(parent.type) && typeof parent.id === 'number') {
          item.parent = { type: parent.type as TransferType, id: parent.id };
        }
        yield item;
      }
    } finally {
      cleanUp();
    }
  }

  async function fileBytes(ref: TransferFileRef): Promise<Uint8Array> {
    const at = stored.get(ref.file);
    if (at === undefined) throw new ExportFileError(`${absolute}: no file line for ${ref.file} ("${ref.name}") of inquiry ${ref.inquiryId}.`);
    return fs.readFileSync(at);
  }

  return { origin: { url: `file:${absolute}`, apiKeyPrefix: '' }, items, fileBytes };
}
