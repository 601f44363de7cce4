/**
 * The record stream of the transfer module (docs/deployment.md#11-moving-a-business-in-and-out): what a
 * source (`bizapi import --from URL`, `bizapi import --file FILE`) yields and the writer consumes, and what
 * `bizapi export` writes as JSON Lines. Types (and one error class), so that every source, the writer and the
 * export share one vocabulary without importing each other.
 */
import { dependencyOrder, type ResourceName } from '../../shared/resources.ts';

/**
 * Every resource the stream carries, in dependency order (src/shared/resources.ts, `dependencyOrder`): a record's
 * references point only to resources earlier in this list (an inquiry's nested `contract` is read through the
 * contract's own `inquiry` link, so contracts follow inquiries). Names are the API's (the event types for records,
 * the list paths / operation ids for catalogs): `member` (with its nested `grade`), `folder`, `inquiry_status`
 * (nested `folder`), `client_status`, `field` (options and member set), `contract_category`, `settlement_type`,
 * `estimate_item_classification`, `worker_position`; then the records and their notes and histories.
 */
export const TRANSFER_TYPES: readonly TransferType[] = dependencyOrder();

/** One resource of the stream. */
export type TransferType = ResourceName;

/** A reference to another item of the stream by its source id. */
export interface TransferRef {
  type: TransferType;
  id: number;
}

/**
 * One item of the stream: a catalog entry, record, note or history entry.
 *
 * - `data` is its full API shape exactly as the source answers it (`GET /v1/<resource>/{id}` for records,
 *   the list item for catalogs, notes and histories), camelCase, ids and nested references as the source
 *   gives them (the writer rewrites them through its id map).
 * - Additions where the API shape leaves out what a faithful copy needs: a `field` carries its record kind
 *   `category` (`I`, `C`, `CO`, from the list's filter); an inquiry's `workSet` entries may carry the task's
 *   `id` and `created` (from `GET /v1/inquiry/work`).
 * - `parent` names the record a note or history entry belongs to (`inquiry.*_history` → its inquiry,
 *   `contract.history` → its contract, `settlement.history` → its settlement), since the API shapes of notes
 *   do not carry it. Absent for everything else.
 */
export interface TransferItem {
  type: TransferType;
  data: Record<string, unknown>;
  parent?: TransferRef;
}

/**
 * An attached file as an inquiry's `fileSet` entry names it: `inquiryId` and `fileId` are source ids, `name`
 * the display name, `file` the entry's `file` property (a download URL from an HTTP source, the object path
 * of the export file's `file` line from a file source).
 */
export interface TransferFileRef {
  inquiryId: number;
  fileId: number;
  name: string;
  file: string;
}

/** Where a business came from, as the target business records it (`importedFrom`, docs/deployment.md#11-moving-a-business-in-and-out). */
export interface TransferOrigin {
  /** The source's base address (`https://api.example.com`, no `/v1`), or `file:<path>` for an export file. */
  url: string;
  /** The first characters of the source API key (never the whole key); `''` for a file. */
  apiKeyPrefix: string;
}

/**
 * A source of a business: yields the stream and fetches file bytes. Implementations: the HTTP source
 * (`transfer/http-source.ts`) and the export file source.
 */
export interface TransferSource {
  /** What the target business records as its origin. */
  readonly origin: TransferOrigin;
  /**
   * The stream, in the order of {@link TRANSFER_TYPES} (all items of one type before the next type begins,
   * except that a note or history entry may follow its parent directly). Warnings (e.g. `member_list`
   * answered 403: members come from the nested member objects) go to `warn`; `total` is told how many records
   * of a resource follow, where the source knows it before yielding them (progress and ETA).
   * @throws an Error naming the failed request or line; the writer stops and keeps what it wrote
   */
  items(
    warn: (message: string) => void,
    total?: (type: TransferType, count: number) => void,
  ): AsyncIterable<TransferItem>;
  /**
   * The bytes of one attached file.
   * @throws RefusedFileError naming the file when the source's URL for it is refused (the import goes on
   *   without it); another Error naming the file when it cannot be read (the import stops)
   */
  fileBytes(ref: TransferFileRef): Promise<Uint8Array>;
}

/**
 * A source's refusal of one attached file that a retry cannot change (docs/deployment.md#source-limits): its
 * URL names an address that is not public, it redirects to one, it is larger than the upload limit. The writer
 * warns, naming the inquiry and the file, and goes on without it.
 */
export class RefusedFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedFileError';
  }
}
