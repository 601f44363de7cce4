/**
 * The event vocabulary (docs/api.md#events): the resources that emit events, named as in their paths, and
 * the event types. Constants only, so that schemas and other modules can name types without the service.
 */
import { RESOURCES, resourceNames } from '../../shared/resources.ts';

/** A resource that emits events: a resource of src/shared/resources.ts with `events`. */
export type EventResource = Extract<(typeof RESOURCES)[number], { events: true }>['name'];

/** Every resource the API can write, named as in its path (docs/api.md#events), in the published order. */
export const EVENT_RESOURCES: readonly EventResource[] = resourceNames<EventResource>((r) => r.events === true);

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

/**
 * The types a list of type patterns names (docs/api.md#filtering-by-type), or `undefined` for every type: a
 * pattern is an event type (`client.created`), a prefix ending in `.*` (`inquiry.*`: every type that starts
 * with `inquiry.`, `inquiry.text_history.*` included), or `*` alone (every type). The vocabulary is closed
 * ({@link EVENT_TYPES}), so a prefix expands to the types it names; the list filter is then `type IN (…)`.
 * @returns the types in {@link EVENT_TYPES} order, or `undefined` when `patterns` is empty or holds `*`
 * @throws RangeError naming the first pattern that is malformed or names no type (its message is the API's)
 */
export function typesOfPatterns(patterns: readonly string[]): EventType[] | undefined {
  if (patterns.length === 0) return undefined;
  const wanted = new Set<string>();
  let all = false;
  for (const pattern of patterns) {
    if (pattern === '*') {
      all = true;
      continue;
    }
    const named = pattern.endsWith('.*')
      ? EVENT_TYPES.filter((t) => t.startsWith(pattern.slice(0, -1)))
      : EVENT_TYPES.filter((t) => t === pattern);
    if (named.length === 0 || !/^[a-z_]+(\.[a-z_]+)*(\.\*)?$/.test(pattern))
      throw new RangeError(`"${pattern}" is not a valid choice.`);
    for (const t of named) wanted.add(t);
  }
  return all ? undefined : EVENT_TYPES.filter((t) => wanted.has(t));
}
