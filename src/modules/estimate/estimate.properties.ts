/**
 * The estimate item's one property ↔ column map (src/shared/property-map.ts; docs/api.md#estimate-items): every
 * property of the full shape in its order (`inList`: the list shape's too), the `estimate_item` column that
 * stores it and its create default. The row mappers, the repository's column list, the create insert and
 * answer, the PATCH columns and the restore body derive from it; adding a stored property to estimate items is
 * a migration, a column of `EstimateItemTable`, an entry here and its schemas. `unitCost` is stored as the
 * decimal text ./estimate.service.ts normalises the body's string or number to; `image` is not stored (always
 * `""`: no picture can be set).
 */
import type { Selectable } from 'kysely';
import type { EstimateItemTable } from '../../db/tables/estimate.table.ts';
import { inList, propertiesOf } from '../../shared/property-map.ts';
import type { EstimateItem } from './estimate.schemas.ts';

const p = propertiesOf<Selectable<EstimateItemTable>>();

/** The estimate item's properties in the order of its full shape; `inList` marks the list shape's (create answers, list items). */
export const ESTIMATE_ITEM_PROPERTIES = {
  id: inList(p.column('id', { readOnly: true })),
  title: inList(p.column('title')),
  unitCost: inList(p.column('unit_cost')),
  unit: inList(p.column('unit')),
  description: inList(p.column('description', { default: null })),
  image: inList(p.derived<EstimateItem['image']>()),
  // The read row's `classification_id` is the stored one (a left join keeps it when the classification is gone).
  classification: inList(
    p.reference<'classification_id', EstimateItem['classification']>('classification_id', 'classification_id'),
  ),
  created: inList(p.column('created', { readOnly: true })),
  updated: p.column('updated', { readOnly: true }),
};
