/**
 * The project's one property ↔ column map (src/shared/property-map.ts; docs/api.md#projects-and-workers): every
 * property of the full shape in its order (`inList`: the list shape's too), the `project` column that stores it
 * and its create default. The row mappers, the repository's column list, the create insert and answer, the
 * PATCH columns, the stored values a PATCH compares and the restore body derive from it; adding a stored
 * property to projects is a migration, a column of `ProjectTable`, an entry here and its schemas.
 * `actualEndDate` is written only by PATCH and restore: the create insert sets it to null
 * (./project.service.ts).
 */
import type { Selectable } from 'kysely';
import type { ProjectTable } from '../../db/tables/project.table.ts';
import { inList, propertiesOf } from '../../shared/property-map.ts';
import { type Project, PROJECT_STATUSES } from './project.schemas.ts';

const p = propertiesOf<Selectable<ProjectTable>>();

/** The project's properties in the order of its full shape; `inList` marks the list shape's (create answers, list items). */
export const PROJECT_PROPERTIES = {
  id: inList(p.column('id', { readOnly: true })),
  // The read row's `contract_id` is the joined contract's id (NESTED_CONTRACT_COLUMNS); a deleted contract
  // unlinks its projects, so it is the stored one.
  contract: inList(p.reference<'contract_id', Project['contract']>('contract_id', 'contract_id')),
  title: inList(p.column('title')),
  status: inList(p.oneOf('status', PROJECT_STATUSES, { default: 'U' })),
  symbolColor: inList(p.column('symbol_color', { default: null })),
  startDate: inList(p.column('start_date', { default: null })),
  endDate: inList(p.column('end_date', { default: null })),
  actualEndDate: inList(p.column('actual_end_date', { default: null })),
  isHidden: inList(p.flag('is_hidden')),
  created: inList(p.column('created', { readOnly: true })),
  updated: p.column('updated', { readOnly: true }),
};
