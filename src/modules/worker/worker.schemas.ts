/**
 * Worker shapes (docs/api.md#projects-and-workers). The list items
 * and the create response show {@link WorkerListItem}; retrieve and update the full shape {@link Worker},
 * which adds `updated` (docs/api.md#events).
 */
import Type, { type Static } from 'typebox';
import { PageQueryProperties } from '../../shared/pagination.ts';
import {
  EXAMPLES,
  IdParam,
  Nullable,
  Page,
  QueryBoolean,
  QueryId,
  QuerySearch,
  Timestamp,
  UpdatedProperty,
  UpdatedQueryProperties,
  withExample,
  Named,
} from '../../shared/schemas.ts';

/** Largest `manMonthAmount`: the largest integer JSON clients read exactly (2^53 − 1). */
export const MAX_MAN_MONTH_AMOUNT = Number.MAX_SAFE_INTEGER;
/** Largest `order`: a 32-bit signed integer, like the other integer columns. */
export const MAX_ORDER = 2147483647;

const name = Type.String({ minLength: 1, maxLength: 32 });

/** Properties writable by create and update (all optional here). */
const writable = {
  position: Type.Optional(
    Nullable(
      Type.Object(
        { id: IdParam },
        {
          description:
            'Worker position `{id}` (a `worker_position` of the business); `null` clears it. Other keys are ignored.',
        },
      ),
    ),
  ),
  order: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_ORDER,
      description: 'Display order, an integer from 0 to 2147483647; default 0.',
    }),
  ),
  isHidden: Type.Optional(Type.Boolean({ description: 'Hidden flag; default false.' })),
  manMonthAmount: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_MAN_MONTH_AMOUNT,
      description: 'Amount per man-month, an integer from 0 to 2^53 − 1; default 0.',
    }),
  ),
};

/** `POST /v1/worker` body: only `name` is required. */
export const WorkerCreateBody = Named(
  'WorkerRequest',
  Type.Object(
    { name, ...writable },
    { examples: [{ name: 'Choi Minho', position: { id: 1 }, order: 1, manMonthAmount: 6500000 }] },
  ),
);
export type WorkerCreateBody = Static<typeof WorkerCreateBody>;

/** `PATCH /v1/worker/{worker_id}` body: any create property. */
export const WorkerUpdateBody = Named(
  'PatchedWorkerRequest',
  Type.Object(
    { name: Type.Optional(name), ...writable },
    { examples: [{ position: { id: 2 }, manMonthAmount: 7000000 }] },
  ),
);
export type WorkerUpdateBody = Static<typeof WorkerUpdateBody>;

/** A worker position as responses nest it. */
export const WorkerPosition = Named(
  'WorkerPosition',
  Type.Object({ id: Type.Integer(), title: Type.String(), symbolColor: Type.String() }),
);

const workerExample = {
  id: 12,
  name: 'Choi Minho',
  created: EXAMPLES.created,
  position: { id: 1, title: 'Developer', symbolColor: '#2f80ed' },
  order: 1,
  isHidden: false,
  manMonthAmount: 6500000,
};

const listItemProperties = {
  id: Type.Integer(),
  name: Type.String(),
  created: Timestamp,
  position: Nullable(WorkerPosition),
  order: Type.Integer(),
  isHidden: Type.Boolean(),
  manMonthAmount: Type.Integer(),
};

/** A worker as the list items and the create response show it (docs/api.md#projects-and-workers: every key but `updated`). */
export const WorkerListItem = Named('WorkerListItem', Type.Object(listItemProperties));
export type WorkerListItem = Static<typeof WorkerListItem>;

/** The full shape (retrieve, update, event `data`): the list item plus `updated` (docs/api.md#events). */
export const Worker = Named('Worker', Type.Object({ ...listItemProperties, updated: UpdatedProperty }));
export type Worker = Static<typeof Worker>;

/** The create response, with its example. */
export const WorkerCreated = withExample(WorkerListItem, workerExample);

/** The retrieve / update response, with its example. */
export const WorkerDetail = withExample(Worker, { ...workerExample, updated: EXAMPLES.created });

/** `GET /v1/worker` response. */
export const WorkerPage = withExample(Page(WorkerListItem), {
  next: EXAMPLES.pageLink.replace('/client?', '/worker?'),
  previous: null,
  results: [workerExample],
});

/** `GET /v1/worker` query (docs/api.md#projects-and-workers, docs/api.md#filters). */
export const WorkerListQuery = Type.Object({
  ...PageQueryProperties,
  is_hidden: Type.Optional(QueryBoolean),
  position_id: Type.Optional(QueryId),
  search: Type.Optional(QuerySearch),
  ...UpdatedQueryProperties,
});
export type WorkerListQuery = Static<typeof WorkerListQuery>;

/** Path parameters of `/v1/worker/{worker_id}`. */
export const WorkerIdParams = Type.Object({ worker_id: IdParam });
