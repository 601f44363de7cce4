/**
 * Todo shapes (docs/api.md#todos). The list items and the create
 * response carry the short shape (no `completedInCharge`, no `actionHistory`); retrieve and update the full
 * one, which also carries `updated` (docs/api.md#events).
 */
import Type, { type Static } from 'typebox';
import { PageQueryProperties } from '../../shared/pagination.ts';
import { messages } from '../../shared/errors.ts';
import {
  DateString,
  EXAMPLES,
  IdParam,
  Member,
  Nullable,
  Page,
  QueryBoolean,
  QueryDate,
  QueryId,
  StringEnum,
  Timestamp,
  UpdatedProperty,
  UpdatedQueryProperties,
  withExample,
  Named,
} from '../../shared/schemas.ts';

/** Todo types: `M` meeting, `CA` call, `MS` message, `E` other. */
export const TODO_TYPES = ['M', 'CA', 'MS', 'E'] as const;

/** Longest `action`: 2048 (docs/api.md#todos). */
export const MAX_ACTION_LENGTH = 2048;

/** DRF's message for a time that is not `hh:mm[:ss[.uuuuuu]]`. */
const TIME_MESSAGE = messages.invalidTime;

const typeDescription = 'M meeting, CA call, MS message, E other.';

/** A member reference `{id}` (docs/api.md#todos: other member keys are ignored; a missing `id` is a 400). */
const memberRef = (description: string) => Type.Optional(Nullable(Type.Object({ id: IdParam }, { description })));

/** A time of day: `HH:MM`, `HH:MM:SS` or `HH:MM:SS.ffffff` (fractions are dropped); answered as `HH:MM:SS`. */
const TimeInput = Type.String({
  pattern: '^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\\.[0-9]{1,6})?)?$',
  'x-pattern-message': TIME_MESSAGE,
  description: 'Time of day `HH:MM[:SS]`, in the business time zone.',
  examples: ['14:30:00'],
});

const action = Type.String({
  minLength: 1,
  maxLength: MAX_ACTION_LENGTH,
  description: 'What to do (1..2048 characters).',
});

/** Properties writable by both create and update (all optional here). */
const writable = {
  inCharge: memberRef('Responsible member `{id}`; `null` for none.'),
  dueTime: Type.Optional(Nullable(TimeInput)),
  actionHistory: Type.Optional(Nullable(Type.String({ description: 'Notes on what was done.' }))),
};

/** `POST /v1/todo` body: `inquiry`, `type`, `dueDate` and `action` are required (docs/api.md#todos). */
export const TodoCreateBody = Named(
  'TodoRequest',
  Type.Object(
    {
      inquiry: Type.Object(
        { id: IdParam },
        { description: 'The inquiry `{id}` the todo belongs to: a live inquiry of the business.' },
      ),
      type: StringEnum(TODO_TYPES, { description: typeDescription }),
      dueDate: Type.String({ format: 'date', description: 'Due date `YYYY-MM-DD`.' }),
      action,
      ...writable,
    },
    {
      examples: [
        {
          inquiry: { id: 42 },
          type: 'CA',
          dueDate: '2026-11-25',
          dueTime: '10:00',
          action: 'Call back about the estimate',
          inCharge: { id: 1 },
        },
      ],
    },
  ),
);
export type TodoCreateBody = Static<typeof TodoCreateBody>;

/**
 * `PATCH /v1/todo/{todo_id}` body: any of these (docs/api.md#todos). `inquiry` is not writable
 * (ignored). Completion (docs/api.md#todos): `isComplete: true` sets `completedAt` to now unless given;
 * `isComplete: false` clears `completedAt` and `completedInCharge`.
 */
export const TodoUpdateBody = Named(
  'PatchedTodoRequest',
  Type.Object(
    {
      type: Type.Optional(StringEnum(TODO_TYPES, { description: typeDescription })),
      dueDate: Type.Optional(Type.String({ format: 'date' })),
      action: Type.Optional(action),
      ...writable,
      isComplete: Type.Optional(Type.Boolean({ description: 'Completion flag.' })),
      completedAt: Type.Optional(
        Nullable(
          Type.String({ format: 'date-time', description: 'When it was completed (any offset; answered in UTC).' }),
        ),
      ),
      completedInCharge: memberRef('The member who completed it `{id}`; only on a complete todo.'),
    },
    {
      examples: [
        { isComplete: true, completedInCharge: { id: 1 }, actionHistory: 'Called; they accept the estimate.' },
      ],
    },
  ),
);
export type TodoUpdateBody = Static<typeof TodoUpdateBody>;

/** The inquiry a todo belongs to, as responses nest it. */
export const TodoInquiry = Named(
  'TodoInquiry',
  Type.Object({ id: Type.Integer(), uniqueId: Nullable(Type.String()), name: Type.String() }),
);

const shortProperties = {
  id: Type.Integer(),
  inquiry: TodoInquiry,
  inCharge: Nullable(Member),
  type: StringEnum(TODO_TYPES, { description: typeDescription }),
  dueDate: DateString,
  dueTime: Nullable(Type.String({ description: '`HH:MM:SS`' })),
  action: Type.String(),
  isComplete: Type.Boolean(),
  completedAt: Nullable(Timestamp),
  dDay: Type.Integer({
    description: '`dueDate` minus today in the business time zone, in days: 0 today, negative when overdue.',
  }),
  created: Timestamp,
};

/** The short shape: list items and the create response. */
export const TodoSummary = Named('TodoListItem', Type.Object(shortProperties));
export type TodoSummary = Static<typeof TodoSummary>;

/** The full shape: retrieve and update responses, and the `data` of todo events (docs/api.md#events). */
export const Todo = Named(
  'Todo',
  Type.Object({
    id: shortProperties.id,
    inquiry: shortProperties.inquiry,
    inCharge: shortProperties.inCharge,
    completedInCharge: Nullable(Member),
    type: shortProperties.type,
    dueDate: shortProperties.dueDate,
    dueTime: shortProperties.dueTime,
    action: shortProperties.action,
    actionHistory: Nullable(Type.String()),
    isComplete: shortProperties.isComplete,
    completedAt: shortProperties.completedAt,
    dDay: shortProperties.dDay,
    created: shortProperties.created,
    updated: UpdatedProperty,
  }),
);
export type Todo = Static<typeof Todo>;

const summaryExample = {
  id: 5,
  inquiry: { id: 42, uniqueId: '1042', name: 'Website renewal' },
  inCharge: EXAMPLES.member,
  type: 'CA',
  dueDate: '2026-11-25',
  dueTime: '10:00:00',
  action: 'Call back about the estimate',
  isComplete: false,
  completedAt: null,
  dDay: 3,
  created: EXAMPLES.created,
};

/** The create response, with its example. */
export const TodoCreated = withExample(TodoSummary, summaryExample);

/** The retrieve / update response, with its example. */
export const TodoDetail = withExample(Todo, {
  id: 5,
  inquiry: summaryExample.inquiry,
  inCharge: EXAMPLES.member,
  completedInCharge: EXAMPLES.member,
  type: 'CA',
  dueDate: '2026-11-25',
  dueTime: '10:00:00',
  action: 'Call back about the estimate',
  actionHistory: 'Called; they accept the estimate.',
  isComplete: true,
  completedAt: '2026-11-24T01:12:00.000Z',
  dDay: 3,
  created: EXAMPLES.created,
  updated: '2026-11-24T01:12:00.000Z',
});

/** `GET /v1/todo` response. */
export const TodoPage = withExample(Page(TodoSummary), {
  next: EXAMPLES.pageLink.replace('/client?', '/todo?'),
  previous: null,
  results: [summaryExample],
});

/** `GET /v1/todo` query: `cursor`, `due_date_end`, `due_date_start`, `inquiry_id`, `is_complete`, `page_size` (docs/api.md#todos). */
export const TodoListQuery = Type.Object({
  ...PageQueryProperties,
  due_date_start: Type.Optional(QueryDate),
  due_date_end: Type.Optional(QueryDate),
  inquiry_id: Type.Optional(QueryId),
  is_complete: Type.Optional(QueryBoolean),
  ...UpdatedQueryProperties,
});
export type TodoListQuery = Static<typeof TodoListQuery>;

/** Path parameters of `/v1/todo/{todo_id}`. */
export const TodoIdParams = Type.Object({ todo_id: IdParam });
