/** Row types of the estimate item tables (migration 2026_11_24_0031). */
import type { Generated } from 'kysely';
import type { Timestamp } from '../columns.ts';

/**
 * An estimate item classification (docs/api.md#estimate-items): a read-only catalog entry written by the catalog
 * import (section `estimateItemClassifications`); `position` is its configured order in the business.
 */
export interface EstimateItemClassificationTable {
  id: Generated<number>;
  business_id: number;
  title: string;
  position: number;
  created: Timestamp;
}

/**
 * An estimate item template (docs/api.md#estimate-items). `unit_cost` is an exact decimal
 * rendered with two decimals (`"1500000.00"`, negative for a discount line); `classification_id`
 * references `estimate_item_classification` (null: none). Deleted rows are removed for good.
 */
export interface EstimateItemTable {
  id: Generated<number>;
  business_id: number;
  title: string;
  unit_cost: string;
  unit: string;
  description: string | null;
  classification_id: number | null;
  created: Timestamp;
  /** The last change of the record or of one of its sets (docs/api.md#events; migration 2026_11_26_0038). */
  updated: Timestamp;
}
