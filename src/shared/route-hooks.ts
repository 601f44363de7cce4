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

/**
 * The handler side of DRF's 404-before-400 for a route declared with `attachValidation: true` (the lean write
 * path, docs/api.md#events: no existence query on the happy path, where the service's locking read is the one
 * check): when the request failed validation, throws "Not found." if the body was invalid and the record `id`
 * of path parameter `param` is not live in the caller's business (`exists`), else the validation error. Does
 * nothing for a valid request.
 * @throws NotFound, or the request's validation error
 */
export async function throwIfInvalid(request: FastifyRequest, param: string, exists: (auth: AuthContext, id: number) => Promise<boolean>): Promise<void> {
  const invalid = request.validationError;
  if (!invalid) return;
  const id = (request.params as Record<string, unknown>)[param];
  if (invalid.validationContext !== 'params' && typeof id === 'number' && !(await exists(request.auth, id))) throw new NotFound();
  throw invalid;
}
