/**
 * The demo business's data (README.md#quick-start) and its shapes: `src/demo/data/*.json`, one file a section,
 * typed here; demo.ts writes it through the services. The JSON files are imported, so `npm run build` copies
 * them next to the compiled code in `dist/demo/data/`.
 */
import type { createBusiness } from '../modules/auth/auth.service.ts';
import type { CatalogFile } from '../modules/catalog/catalog-import.ts';
import type { ContractCreateBody } from '../modules/contract/contract.schemas.ts';
import type { EstimateItemCreateBody } from '../modules/estimate/estimate.schemas.ts';
import type { create as createProject } from '../modules/project/project.service.ts';
import type { SettlementStatus } from '../modules/settlement/settlement.schemas.ts';
import { demoPdf, demoPng } from './demo-files.ts';
import attachmentsJson from './data/attachments.json' with { type: 'json' };
import businessJson from './data/business.json' with { type: 'json' };
import catalogJson from './data/catalog.json' with { type: 'json' };
import clientsJson from './data/clients.json' with { type: 'json' };
import contractsJson from './data/contracts.json' with { type: 'json' };
import estimateItemsJson from './data/estimate-items.json' with { type: 'json' };
import inquiriesJson from './data/inquiries.json' with { type: 'json' };
import projectsJson from './data/projects.json' with { type: 'json' };
import todosJson from './data/todos.json' with { type: 'json' };
import workersJson from './data/workers.json' with { type: 'json' };

/** The demo business (`data/business.json`): the `createBusiness` input. */
export const DEMO_BUSINESS = businessJson as Parameters<typeof createBusiness>[1];

/**
 * The demo catalog (`data/catalog.json`), in the catalog-file format of README.md#provisioning-businesses-keys-and-catalogs
 * (`importCatalog` validates it).
 */
export const DEMO_CATALOG = catalogJson as CatalogFile;

/**
 * A demo client: the API's client create body (docs/api.md#clients), except that catalog references
 * name the {@link DEMO_CATALOG} key instead of an id (`status: {key}`, `fieldSet[].field: {key}`), since
 * ids exist only after the import. {@link demoClientBody} turns one into the create body.
 */
export interface DemoClient {
  companyName: string;
  inCharge: string;
  position: string;
  contact: string;
  email: string;
  content?: string;
  ceoName?: string;
  companyAddress?: string;
  status: { key: string };
  fieldSet?: { field: { key: string }; value: string }[];
}

/** The five demo clients (`data/clients.json`), in creation order. */
export const DEMO_CLIENTS: readonly DemoClient[] = clientsJson;

/**
 * A demo project: the `POST /v1/project` body (docs/api.md#projects-and-workers), with its contract as a
 * position in {@link DEMO_CONTRACTS} (none when absent).
 */
export type DemoProject = Parameters<typeof createProject>[2] & { contract?: number };

/** The demo projects (`data/projects.json`), in creation order. */
export const DEMO_PROJECTS = projectsJson as readonly DemoProject[];

/** A demo worker: the `POST /v1/worker` body, with the position named by its {@link DEMO_CATALOG} key. */
export interface DemoWorker {
  name: string;
  position: { key: string } | null;
  order: number;
  manMonthAmount: number;
  isHidden?: boolean;
}

/** The demo workers (`data/workers.json`), in creation order. */
export const DEMO_WORKERS: readonly DemoWorker[] = workersJson;

/**
 * A demo inquiry: the `POST /v1/inquiry` body with catalog references named by their {@link DEMO_CATALOG}
 * key and the client by its company name, the statuses it then moves through (`PATCH status`, which writes
 * status and folder history), its text notes, and the e-mails, replies and web-form submissions that reach
 * an inquiry from outside the API (their instants are given when they are written: just after now).
 */
export interface DemoInquiry {
  name: string;
  client?: string;
  content?: string;
  estimate?: string;
  inquiryDate?: string;
  inCharge?: string[];
  workSet?: string[];
  funnel?: Record<string, string>;
  fieldSet?: { field: string; value: string }[];
  fileLinkSet?: { text: string; link: string }[];
  isHidden?: boolean;
  /** Status keys the inquiry moves through after it is created in the default status. */
  moves?: string[];
  notes?: { content: string; member?: string }[];
  emails?: { title: string; from: string; to: string[]; cc?: string[]; status: 'S' | 'D' | 'C' | 'F'; sent: boolean }[];
  replies?: { title: string; from: string; to: string[]; cc?: string[]; isUnread: boolean }[];
  submits?: { formId: number; formTitle: string; answers: unknown }[];
}

/** The demo inquiries (`data/inquiries.json`), in creation order. */
export const DEMO_INQUIRIES = inquiriesJson as readonly DemoInquiry[];

/**
 * A demo contract: the API's contract create body, except that the client is an index into
 * {@link DEMO_CLIENTS} and catalog references name {@link DEMO_CATALOG} keys. Its settlements are created in
 * order (a settlement `status` other than `C` is set by a PATCH afterwards, which records status history);
 * `statusAfter` sets the contract's status once its settlements exist (a suspended contract takes none).
 */
export interface DemoContract {
  body: Omit<ContractCreateBody, 'client' | 'categorySet' | 'fieldSet' | 'inquiry'>;
  client: number;
  categories: string[];
  fieldSet?: { field: string; value: string }[];
  settlements: {
    type: string;
    title: string;
    amount: number;
    vat: number;
    additionalAmount?: number;
    dueDate: string;
    settledDate?: string;
    status?: SettlementStatus;
    members?: string[];
  }[];
  statusAfter?: ContractCreateBody['status'];
}

/** The demo contracts (`data/contracts.json`): all three types, with settlements in every state (C, D, S, P). */
export const DEMO_CONTRACTS = contractsJson as readonly DemoContract[];

/**
 * A demo todo: the `POST /v1/todo` body with the inquiry named by its position among the demo business's
 * inquiries (oldest first), the member by its {@link DEMO_CATALOG} key and the due date as days from today;
 * `completed` todos are then marked complete.
 */
export interface DemoTodo {
  inquiry: number;
  type: 'M' | 'CA' | 'MS' | 'E';
  dueInDays: number;
  dueTime?: string;
  action: string;
  actionHistory?: string;
  inCharge?: string;
  completed?: boolean;
}

/** The demo todos (`data/todos.json`), in creation order. */
export const DEMO_TODOS = todosJson as readonly DemoTodo[];

/**
 * The demo estimate items (`data/estimate-items.json`, docs/api.md#estimate-items): quote lines in Korean and
 * English, units `식`, `EA` and `M/M`, a negative discount line and one without a classification;
 * `classification` names a key of the {@link DEMO_CATALOG} section `estimateItemClassifications`. Created in
 * this order, so the list (newest first) shows them reversed.
 */
export const DEMO_ESTIMATE_ITEMS: readonly (Omit<EstimateItemCreateBody, 'classification'> & {
  classification?: string;
})[] = estimateItemsJson;

/** A demo attachment: a generated file (no binary blobs in the repository) on the demo inquiry named `inquiry`. */
export interface DemoAttachment {
  inquiry: string;
  /** The display name (`fileSet[].name`), with one of the 13 allowed extensions. */
  name: string;
  bytes: () => Buffer;
}

/**
 * A demo attachment as `data/attachments.json` describes it: a PDF of the given lines ({@link demoPdf}) or a
 * PNG of the given size and starting colour ({@link demoPng}).
 */
interface DemoAttachmentFile {
  inquiry: string;
  name: string;
  pdf?: string[];
  png?: { width: number; height: number; rgb: [number, number, number] };
}

/** The demo attachments (`data/attachments.json`), in the order they are attached. */
export const DEMO_ATTACHMENTS: readonly DemoAttachment[] = (attachmentsJson as DemoAttachmentFile[]).map(
  ({ inquiry, name, pdf, png }) => ({
    inquiry,
    name,
    bytes: () => (pdf ? demoPdf(pdf) : demoPng(png?.width, png?.height, png?.rgb)),
  }),
);
