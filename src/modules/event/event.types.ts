/**
 * The event vocabulary (docs/api.md#events): the resources that emit events, named as in their paths, and
 * the event types. Constants only, so that schemas and other modules can name types without the service.
 */

/** Every resource the API can write, named as in its path (docs/api.md#events). */
export const EVENT_RESOURCES = [
  'inquiry',
  'inquiry.text_history',
  'client',
  'contract',
  'contract.history',
  'settlement',
  'settlement.history',
  'project',
  'worker',
  'todo',
  'estimate.item',
] as const;

/** A resource that emits events. */
export type EventResource = (typeof EVENT_RESOURCES)[number];

/** What happened to the record. */
export type EventAction = 'created' | 'updated' | 'deleted';

/**
 * Every event type: `<resource>.<action>` for each resource, `catalog.updated` for a catalog import
 * (docs/api.md#cascades) and `webhook.test` (docs/api.md#events).
 */
export const EVENT_TYPES = [
  ...EVENT_RESOURCES.flatMap((r) => [`${r}.created`, `${r}.updated`, `${r}.deleted`] as const),
  'catalog.updated',
  'webhook.test',
] as const;

/** An event type. */
export type EventType = `${EventResource}.${EventAction}` | 'catalog.updated' | 'webhook.test';
