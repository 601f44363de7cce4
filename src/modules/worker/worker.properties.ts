/**
 * The worker's one property ↔ column map (src/shared/property-map.ts; docs/api.md#projects-and-workers): every
 * property of the full shape in its order (`inList`: the list shape's too), the `worker` column that stores it
 * and its create default. The row mappers, the repository's column list, the create insert, the PATCH columns,
 * the stored values a PATCH compares and the restore body derive from it; adding a stored property to
 * workers is a migration, a column of `WorkerTable`, an entry here and its schemas.
 */
import type { Selectable } from 'kysely';
import type { WorkerTable } from '../../db/tables/worker.table.ts';
import { inList, propertiesOf } from '../../shared/property-map.ts';
import type { Worker } from './worker.schemas.ts';

const p = propertiesOf<Selectable<WorkerTable>>();

/** The worker's properties in the order of its full shape; `inList` marks the list shape's (create answers, list items). */
export const WORKER_PROPERTIES = {
  id: inList(p.column('id', { readOnly: true })),
  name: inList(p.column('name')),
  created: inList(p.column('created', { readOnly: true })),
  position: inList(p.reference<'position_id', Worker['position']>('position_id', 'position_id')),
  order: inList(p.column('sort_order', { default: 0 })),
  isHidden: inList(p.flag('is_hidden')),
  manMonthAmount: inList(p.column('man_month_amount', { default: 0 })),
  updated: p.column('updated', { readOnly: true }),
};
