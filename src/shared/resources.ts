/**
 * The one list of the API's resources (issue 42): the catalogs, the records and their notes and histories,
 * named as in the API (the event types for records, the list paths / operation ids for catalogs). The event
 * vocabulary (src/modules/event/event.types.ts), the transfer stream's order and its restore checks
 * (src/modules/transfer/) derive from it. Constants only, on the shared floor, so that every module can read it.
 */

/** One resource of {@link RESOURCES}. */
interface Resource {
  /** The API's name, e.g. `inquiry.text_history` for the notes under `/v1/inquiry/{id}/text_history`. */
  readonly name: string;
  /** `catalog` (read-only lists), `record` (the API writes it) or `note` (a record's history or note, under its {@link parent}). */
  readonly kind: 'catalog' | 'record' | 'note';
  /** A note's record: its items follow the record's in the transfer stream. */
  readonly parent?: string;
  /**
   * Whether the API writes it with `<name>.created|updated|deleted` events (docs/api.md#events); its restore
   * then validates every value before it touches the database (`bizapi import --dry-run`).
   */
  readonly events?: boolean;
  /** The resources its items reference by `{id}` beyond its {@link parent}, which the transfer stream carries first. */
  readonly refers?: readonly string[];
}

/**
 * Every resource, the catalogs first, then the records in the order of the published event types
 * (`GET /openapi.json`, the `type` enum of an event), each note after its record.
 */
export const RESOURCES = [
  { name: 'member', kind: 'catalog' },
  { name: 'folder', kind: 'catalog' },
  { name: 'inquiry_status', kind: 'catalog', refers: ['folder'] },
  { name: 'client_status', kind: 'catalog' },
  { name: 'field', kind: 'catalog' },
  { name: 'contract_category', kind: 'catalog' },
  { name: 'settlement_type', kind: 'catalog' },
  { name: 'estimate_item_classification', kind: 'catalog' },
  { name: 'worker_position', kind: 'catalog' },
  { name: 'inquiry', kind: 'record', events: true, refers: ['client'] },
  { name: 'inquiry.text_history', kind: 'note', parent: 'inquiry', events: true },
  { name: 'inquiry.email_history', kind: 'note', parent: 'inquiry' },
  { name: 'inquiry.email_reply_history', kind: 'note', parent: 'inquiry' },
  { name: 'inquiry.status_history', kind: 'note', parent: 'inquiry' },
  { name: 'inquiry.folder_history', kind: 'note', parent: 'inquiry' },
  { name: 'inquiry.submit_history', kind: 'note', parent: 'inquiry' },
  { name: 'client', kind: 'record', events: true },
  // A contract is read with its `inquiry` link (an inquiry's nested `contract` is not), so it follows inquiries.
  { name: 'contract', kind: 'record', events: true, refers: ['client', 'inquiry'] },
  { name: 'contract.history', kind: 'note', parent: 'contract', events: true },
  { name: 'settlement', kind: 'record', events: true, refers: ['contract'] },
  { name: 'settlement.history', kind: 'note', parent: 'settlement', events: true },
  { name: 'project', kind: 'record', events: true, refers: ['contract'] },
  { name: 'worker', kind: 'record', events: true },
  { name: 'todo', kind: 'record', events: true, refers: ['inquiry'] },
  { name: 'estimate.item', kind: 'record', events: true },
] as const satisfies readonly Resource[];

/** A resource's name. */
export type ResourceName = (typeof RESOURCES)[number]['name'];

/** The names of the resources of {@link RESOURCES} that pass `test`, in its order. */
export function resourceNames<N extends ResourceName = ResourceName>(
  test: (resource: Resource) => boolean = () => true,
): N[] {
  return RESOURCES.filter((resource: Resource) => test(resource)).map((resource) => resource.name as N);
}

/**
 * {@link RESOURCES} parents first, the order of the transfer stream (docs/deployment.md#11-moving-a-business-in-and-out):
 * each time, the first resource in the list whose parent and references are all placed. So a record's
 * references point only to resources earlier in it.
 */
export function dependencyOrder(): ResourceName[] {
  const placed: ResourceName[] = [];
  const waiting: Resource[] = [...RESOURCES];
  while (waiting.length > 0) {
    const next = waiting.findIndex((r) =>
      [r.parent ?? [], r.refers ?? []].flat().every((name) => placed.includes(name as ResourceName)),
    );
    if (next < 0) throw new Error(`resources that reference each other: ${waiting.map((r) => r.name).join(', ')}`);
    placed.push(waiting.splice(next, 1)[0]!.name as ResourceName);
  }
  return placed;
}
