/** Row types of the transfer module's tables (migration 2026_11_26_0042_transfer). */
import type { Bool, Timestamp } from '../columns.ts';

/** Where an imported business came from (`importedFrom`, docs/deployment.md#11-moving-a-business-in-and-out). */
export interface TransferOriginTable {
  business_id: number;
  /** The source's base URL (no `/v1`), or `file:<path>`. */
  url: string;
  /** The first characters of the source's API key. */
  api_key_prefix: string;
  /** When the last import run started. */
  last_run: Timestamp;
  /** Whether a run read the whole source and finished. */
  complete: Bool;
}

/** The id a source record got here (`resource` is the stream's type, e.g. `client`, `inquiry.file`). */
export interface TransferIdMapTable {
  business_id: number;
  resource: string;
  source_id: number;
  target_id: number;
}
