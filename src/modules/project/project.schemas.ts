/**
 * Project shapes (docs/api.md#projects-and-workers). The list items and the create
 * response show {@link ProjectListItem}; retrieve and update the full shape {@link Project}, which adds
 * `updated` (docs/api.md#events). `contract` nests the contract summary. `actualEndDate` is written only by
 * PATCH (docs/api.md#projects-and-workers).
 */
import Type, { type Static } from 'typebox';
import { PageQueryProperties } from '../../shared/pagination.ts';
import { ContractSummary } from '../contract/contract.schemas.ts';
import {
  DateString,
  EXAMPLES,
  IdParam,
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

/** Project status codes: `U` scheduled, `I` in progress, `A` additional period, `E` ended. */
export const PROJECT_STATUSES = ['U', 'I', 'A', 'E'] as const;

const statusDescription = 'U scheduled, I in progress, A additional period, E ended.';
const status = StringEnum(PROJECT_STATUSES, { description: statusDescription });
const title = Type.String({ minLength: 1, maxLength: 128 });
const nullableDate = (description: string) => Type.Optional(Nullable(Type.String({ format: 'date', description })));

/** Properties writable by create and update (all optional here). */
const writable = {
  contract: Type.Optional(
    Nullable(
      Type.Object(
        { id: IdParam },
        { description: 'The contract `{id}` (a contract of the business); `null` unlinks.' },
      ),
    ),
  ),
  status: Type.Optional(StringEnum(PROJECT_STATUSES, { description: `${statusDescription} Default on create: U.` })),
  symbolColor: Type.Optional(
    Nullable(Type.String({ minLength: 1, maxLength: 32, description: 'Display colour, e.g. `#2f80ed`.' })),
  ),
  startDate: nullableDate('Planned start.'),
  endDate: nullableDate('Planned end.'),
  isHidden: Type.Optional(Type.Boolean({ description: 'Hidden flag; default false.' })),
};

/** `POST /v1/project` body: only `title` is required; `actualEndDate` is not accepted (ignored). */
export const ProjectCreateBody = Named(
  'ProjectRequest',
  Type.Object(
    { title, ...writable },
    {
      examples: [
        {
          contract: { id: 3 },
          title: 'Website renewal',
          status: 'U',
          symbolColor: '#2f80ed',
          startDate: '2026-12-01',
          endDate: '2027-02-28',
        },
      ],
    },
  ),
);
export type ProjectCreateBody = Static<typeof ProjectCreateBody>;

/** `PATCH /v1/project/{project_id}` body: any create property, plus `actualEndDate`. */
export const ProjectUpdateBody = Named(
  'PatchedProjectRequest',
  Type.Object(
    { title: Type.Optional(title), ...writable, actualEndDate: nullableDate('Actual end; settable only here.') },
    { examples: [{ status: 'E', actualEndDate: '2027-03-04' }] },
  ),
);
export type ProjectUpdateBody = Static<typeof ProjectUpdateBody>;

const projectExample = {
  id: 7,
  contract: {
    id: 3,
    title: 'Website renewal',
    amount: 24000000,
    type: 'I',
    status: 'I',
    startDate: '2026-12-01',
    endDate: '2027-02-28',
  },
  title: 'Website renewal',
  status: 'I',
  symbolColor: '#2f80ed',
  startDate: '2026-12-01',
  endDate: '2027-02-28',
  actualEndDate: null,
  isHidden: false,
  created: EXAMPLES.created,
};

const listItemProperties = {
  id: Type.Integer(),
  contract: Nullable(ContractSummary),
  title: Type.String(),
  status,
  symbolColor: Nullable(Type.String()),
  startDate: Nullable(DateString),
  endDate: Nullable(DateString),
  actualEndDate: Nullable(DateString),
  isHidden: Type.Boolean(),
  created: Timestamp,
};

/** A project as the list items and the create response show it (docs/api.md#projects-and-workers: every key but `updated`). */
export const ProjectListItem = Named('ProjectListItem', Type.Object(listItemProperties));
export type ProjectListItem = Static<typeof ProjectListItem>;

/** The full shape (retrieve, update, event `data`): the list item plus `updated` (docs/api.md#events). */
export const Project = Named('Project', Type.Object({ ...listItemProperties, updated: UpdatedProperty }));
export type Project = Static<typeof Project>;

/** The create response, with its example. */
export const ProjectCreated = withExample(ProjectListItem, projectExample);

/** The retrieve / update response, with its example. */
export const ProjectDetail = withExample(Project, { ...projectExample, updated: EXAMPLES.created });

/** `GET /v1/project` response. */
export const ProjectPage = withExample(Page(ProjectListItem), {
  next: EXAMPLES.pageLink.replace('/client?', '/project?'),
  previous: null,
  results: [projectExample],
});

/** `GET /v1/project` query (docs/api.md#projects-and-workers, docs/api.md#filters). */
export const ProjectListQuery = Type.Object({
  ...PageQueryProperties,
  status: Type.Optional(
    StringEnum(PROJECT_STATUSES, { description: `Only projects in this status: ${statusDescription}` }),
  ),
  is_hidden: Type.Optional(QueryBoolean),
  start_date_start: Type.Optional(QueryDate),
  start_date_end: Type.Optional(QueryDate),
  end_date_start: Type.Optional(QueryDate),
  end_date_end: Type.Optional(QueryDate),
  contract_id: Type.Optional({ ...QueryId, description: 'Only the projects linked to this contract.' }),
  ...UpdatedQueryProperties,
});
export type ProjectListQuery = Static<typeof ProjectListQuery>;

/** Path parameters of `/v1/project/{project_id}`. */
export const ProjectIdParams = Type.Object({ project_id: IdParam });
