/**
 * The todo's one property ↔ column map (src/shared/property-map.ts; docs/api.md#todos): every property of the
 * full shape in its order (`inList`: the short shape's too, which list items and the create answer carry), the
 * `todo` column that stores it, its coercions and its create default. The row mappers, the repository's
 * column list, the create insert, the PATCH columns and the restore columns derive from it; adding a stored
 * property to todos is a migration, a column of `TodoTable`, an entry here and its schemas.
 *
 * Two rules stay in ./todo.service.ts: a new todo is incomplete whatever the body says (`isComplete`,
 * `completedAt`, `completedInCharge`), and a PATCH writes the completion by docs/api.md#todos and never
 * `inquiry` ({@link TODO_PATCHED_BY_RULE}).
 */
import type { Selectable } from 'kysely';
import type { TodoTable } from '../../db/tables/todo.table.ts';
import { inList, propertiesOf } from '../../shared/property-map.ts';
import { type Todo, TODO_TYPES } from './todo.schemas.ts';

const p = propertiesOf<Selectable<TodoTable>>();

/** `HH:MM`, `HH:MM:SS` or `HH:MM:SS.ffffff` → `HH:MM:SS` (the stored and answered form); null stays null. */
function normalizeTime(value: string | null): string | null {
  if (value === null) return null;
  return value.length === 5 ? `${value}:00` : value.slice(0, 8);
}

/** A date-time with any offset → UTC with milliseconds (docs/api.md#responses-and-status-codes); null stays null. */
function toUtc(value: string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

/** The todo's properties in the order of its full shape; `inList` marks the short shape's (list items, create answers). */
export const TODO_PROPERTIES = {
  id: inList(p.column('id', { readOnly: true })),
  // The read row's `inquiry_id` is the joined live inquiry's id (NESTED_INQUIRY_COLUMNS, an inner join).
  inquiry: inList(p.reference<'inquiry_id', Todo['inquiry']>('inquiry_id', 'inquiry_id')),
  inCharge: inList(p.reference<'in_charge_id', Todo['inCharge']>('in_charge_id', 'in_charge_id')),
  completedInCharge: p.reference<'completed_in_charge_id', Todo['completedInCharge']>(
    'completed_in_charge_id',
    'completed_in_charge_id',
  ),
  type: inList(p.oneOf('type', TODO_TYPES)),
  dueDate: inList(p.column('due_date')),
  dueTime: inList(p.coerced('due_time', { toColumn: normalizeTime, fromColumn: (value) => value }, { default: null })),
  action: inList(p.column('action')),
  actionHistory: p.column('action_history', { default: null }),
  isComplete: inList(p.flag('is_complete')),
  completedAt: inList(p.coerced('completed_at', { toColumn: toUtc, fromColumn: (value) => value }, { default: null })),
  dDay: inList(p.derived<number>()),
  created: inList(p.column('created', { readOnly: true })),
  updated: p.column('updated', { readOnly: true }),
};

/**
 * The writable properties a PATCH does not write from the body as they are: the completion, which
 * ./todo.service.ts writes by the rules of docs/api.md#todos, and `inquiry`, which PATCH ignores.
 */
export const TODO_PATCHED_BY_RULE = ['inquiry', 'isComplete', 'completedAt', 'completedInCharge'] as const;
