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
import { pipeline } from 'node:stream/promises';
import { PassThrough } from 'node:stream';
import zlib from 'node:zlib';
import { jsonDeeperThan, MAX_JSON_DEPTH } from '../../shared/utf8.ts';
import {
  TRANSFER_TYPES,
  type TransferFileRef,
  type TransferItem,
  type TransferSource,
  type TransferType,
} from './transfer.types.ts';

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

/**
 * What {@link writeExport} wrote: lines per type (`file` included), the attachments' bytes, and the source's
 * warnings (e.g. a plan that forbids `member_list`: the members then travel nested in the records).
 */
export interface ExportSummary {
  counts: Record<string, number>;
  files: { count: number; bytes: number };
  warnings: string[];
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
export async function writeExport(
  source: TransferSource,
  out: string,
  business: ExportBusiness,
  exported = new Date().toISOString(),
): Promise<ExportSummary> {
  const counts: Record<string, number> = {};
  const files = { count: 0, bytes: 0 };
  const warnings: string[] = [];
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
    for await (const item of source.items((m) => warnings.push(m))) {
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
    return { counts, files, warnings };
  } catch (err) {
    lines.destroy();
    await written.catch(() => undefined);
    fs.rmSync(temp, { force: true });
    throw err;
  }
}

/**
 * The longest line read by default (docs/deployment.md#export-to-a-file-import-from-a-file): 64 MiB, or a file
 * line of the largest attachment (50 MiB in base64 and its JSON), whichever is more.
 */
export const DEFAULT_MAX_LINE_BYTES = maxLineBytesFor(64 * 1024 * 1024, 50 * 1024 * 1024);

/**
 * The longest line an import reads (docs/deployment.md#export-to-a-file-import-from-a-file): `maxAnswerBytes`
 * (`BIZAPI_IMPORT_MAX_ANSWER_BYTES`), or the line of an attachment of `maxFileBytes` (`BIZAPI_UPLOAD_MAX_BYTES`:
 * its base64 and 64 KiB for the rest of its JSON), whichever is more. Bytes.
 */
export function maxLineBytesFor(maxAnswerBytes: number, maxFileBytes: number): number {
  return Math.max(maxAnswerBytes, Math.ceil(maxFileBytes / 3) * 4 + 64 * 1024);
}

/**
 * The lines of a stream as UTF-8 text (a final `\r` dropped), each at most `maxBytes`: a longer one throws
 * `tooLong(n)` once it passes the limit, so a line of hundreds of MiB is never held whole (readline would
 * build it into one string and fail with a RangeError past V8's longest string).
 */
async function* boundedLines(
  input: AsyncIterable<Buffer>,
  maxBytes: number,
  tooLong: (n: number) => Error,
): AsyncGenerator<string> {
  let parts: Buffer[] = [];
  let size = 0;
  let n = 0;
  const take = (end: Buffer): string => {
    const line = Buffer.concat([...parts, end]).toString('utf8');
    parts = [];
    size = 0;
    return line.endsWith('\r') ? line.slice(0, -1) : line;
  };
  for await (const chunk of input) {
    let start = 0;
    for (let at = chunk.indexOf(0x0a); at >= 0; at = chunk.indexOf(0x0a, start)) {
      n += 1;
      if (size + (at - start) > maxBytes) throw tooLong(n);
      yield take(chunk.subarray(start, at));
      start = at + 1;
    }
    const rest = chunk.subarray(start);
    size += rest.length;
    if (size > maxBytes) throw tooLong(n + 1);
    if (rest.length > 0) parts.push(rest);
  }
  if (size > 0) yield take(Buffer.alloc(0));
}

/**
 * The lines of a gzip JSON Lines file, parsed, with their line numbers (1-based): each at most `maxLineBytes`
 * long and nested at most {@link MAX_JSON_DEPTH} levels.
 */
async function* readLines(file: string, maxLineBytes: number): AsyncGenerator<{ n: number; value: Obj }> {
  const input = fs.createReadStream(file).pipe(zlib.createGunzip());
  const tooLong = (n: number) =>
    new ExportFileError(
      `${file}, line ${n}: longer than ${maxLineBytes} bytes, the limit of a line (BIZAPI_IMPORT_MAX_ANSWER_BYTES, BIZAPI_UPLOAD_MAX_BYTES).`,
    );
  let n = 0;
  try {
    for await (const line of boundedLines(input, maxLineBytes, tooLong)) {
      n += 1;
      if (line.trim() === '') continue;
      if (jsonDeeperThan(line, MAX_JSON_DEPTH + 1))
        throw new ExportFileError(
          `${file}, line ${n}: JSON nested deeper than ${MAX_JSON_DEPTH} levels, the limit of a record.`,
        );
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (err) {
        throw new ExportFileError(`${file}, line ${n}: not JSON (${(err as Error).message}).`);
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value))
        throw new ExportFileError(`${file}, line ${n}: not a JSON object.`);
      yield { n, value: value as Obj };
    }
  } catch (err) {
    if (err instanceof ExportFileError) throw err;
    throw new ExportFileError(`${file}: cannot be read as gzip JSON Lines (${(err as Error).message}).`);
  } finally {
    input.destroy();
  }
}

/**
 * Reads the header line of an export file.
 * @param maxLineBytes the longest line read ({@link maxLineBytesFor})
 * @throws ExportFileError for a file that is not gzip JSON Lines, or whose first line is not the header of
 *   format `bizapi-export` version 1, or is longer than `maxLineBytes`
 */
export async function readExportHeader(file: string, maxLineBytes = DEFAULT_MAX_LINE_BYTES): Promise<ExportHeader> {
  for await (const { value } of readLines(file, maxLineBytes)) {
    const business = value.business as Obj | undefined;
    if (value.format !== EXPORT_FORMAT)
      throw new ExportFileError(`${file}: line 1 is not a bizapi export header (format "${EXPORT_FORMAT}").`);
    if (value.version !== EXPORT_VERSION)
      throw new ExportFileError(
        `${file}: export version ${String(value.version)}; this server reads version ${EXPORT_VERSION}.`,
      );
    if (
      !business ||
      typeof business.name !== 'string' ||
      typeof business.plan !== 'string' ||
      typeof business.timezone !== 'string'
    ) {
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
 * @param maxLineBytes the longest line read ({@link maxLineBytesFor}; docs/deployment.md#export-to-a-file-import-from-a-file)
 * @throws ExportFileError (from `items`) naming the line: an unknown type, a line without `data`, a file line
 *   whose bytes do not match its size or sha256, a missing header, a line longer than `maxLineBytes` or
 *   nested deeper than {@link MAX_JSON_DEPTH} levels
 */
export function createFileSource(file: string, maxLineBytes = DEFAULT_MAX_LINE_BYTES): TransferSource {
  const absolute = path.resolve(file);
  let dir: string | undefined;
  const stored = new Map<string, string>();

  async function unpack(): Promise<void> {
    await readExportHeader(absolute, maxLineBytes);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-import-'));
    let index = 0;
    for await (const { n, value } of readLines(absolute, maxLineBytes)) {
      if (n === 1) continue;
      const where = `${absolute}, line ${n}`;
      if (value.type === 'file') {
        const { path: p, size, sha256, base64 } = value;
        if (
          typeof p !== 'string' ||
          typeof size !== 'number' ||
          typeof sha256 !== 'string' ||
          typeof base64 !== 'string'
        ) {
          throw new ExportFileError(`${where}: a file line needs path, size, sha256 and base64.`);
        }
        const bytes = Buffer.from(base64, 'base64');
        if (bytes.length !== size)
          throw new ExportFileError(`${where}: file ${p} holds ${bytes.length} bytes, its line says ${size}.`);
        if (createHash('sha256').update(bytes).digest('hex') !== sha256)
          throw new ExportFileError(`${where}: file ${p} does not match its sha256.`);
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
      for await (const { n, value } of readLines(absolute, maxLineBytes)) {
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
    if (at === undefined)
      throw new ExportFileError(
        `${absolute}: no file line for ${ref.file} ("${ref.name}") of inquiry ${ref.inquiryId}.`,
      );
    return fs.readFileSync(at);
  }

  return { origin: { url: `file:${absolute}`, apiKeyPrefix: '' }, items, fileBytes };
}
