/**
 * Route-level hooks shared by the resource modules.
 */
import type { FastifyRequest } from 'fastify';
import type { AuthContext } from './auth-context.ts';
import { NotFound } from './errors.ts';

/**
 * A `preValidation` hook that answers 404 for a missing record before the body is validated, as DRF's
 * `get_object()` does in `update` / `partial_update`: a PATCH with a bad body to an id that does not exist
 * (or belongs to another business) is "Not found.", not a list of body errors. Ids that are not integers
 * are left to params validation (also 404).
 *
 * @param param the path parameter holding the id (e.g. `client_id`)
 * @param exists whether the record is live in the caller's business
 */
export function notFoundBeforeValidation(param: string, exists: (auth: AuthContext, id: number) => Promise<boolean>) {
  return async (request: FastifyRequest): Promise<void> => {
    const raw = String((request.params as Record<string, unknown>)[param] ?? '');
    if (!/^\d{1,10}$/.test(raw)) return;
    if (!(await exists(request.auth, Number(raw)))) throw new NotFound();
  };
}
