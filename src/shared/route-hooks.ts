/**
 * Route-level hooks shared by the resource modules.
 */
import type { FastifyRequest } from 'fastify';
import type { AuthContext } from './auth-context.ts';
import { NotFound } from './errors.ts';

/** Options of {@link notFoundBeforeValidation}. */
export interface NotFoundBeforeValidationOptions {
  /**
   * Look the record up only when the request failed validation: the lean write path (docs/api.md#events),
   * where the service's locking read is the one existence check of a valid request. Default `false`: every
   * request is looked up first (one query), so a valid body to a missing record is "Not found." before any
   * rule of the service runs.
   */
  onlyWhenInvalid?: boolean;
}

/**
 * DRF's 404 before 400, as `get_object()` runs before the serializer in `create` / `update` /
 * `partial_update`: a write with a bad body (or query) to a record that does not exist, or belongs to
 * another business, is "Not found.", not a list of body errors (docs/api.md#estimate-items: "answers 404
 * before its body is checked"). Path ids that do not validate are a 404 anyway (error-handler.ts).
 *
 * Returns route options to spread into the route's: `attachValidation: true`, so a validation error reaches
 * the returned `preHandler`, which throws NotFound when the record named by the path parameters `params` (in
 * that order; e.g. `['inquiry_id', 'history_id']` for a note, `'client_id'` for a client) is not live in the
 * caller's business according to `exists`, else the validation error, if any.
 *
 * @param params the path parameter(s) naming the record, parent first
 * @param exists whether the record is live in the caller's business; called with the ids of `params`
 * @throws NotFound, or the request's validation error (400, or a params 404)
 */
export function notFoundBeforeValidation(
  params: string | readonly string[],
  exists: (auth: AuthContext, ...ids: number[]) => Promise<boolean>,
  options: NotFoundBeforeValidationOptions = {},
): { attachValidation: true; preHandler: (request: FastifyRequest) => Promise<void> } {
  const names = typeof params === 'string' ? [params] : params;
  const lookAlways = options.onlyWhenInvalid !== true;
  return {
    attachValidation: true,
    preHandler: async (request) => {
      const invalid = request.validationError;
      if (invalid?.validationContext === 'params') throw invalid;
      if (invalid || lookAlways) {
        const values = request.params as Record<string, unknown>;
        if (!(await exists(request.auth, ...names.map((name) => Number(values[name]))))) throw new NotFound();
      }
      if (invalid) throw invalid;
    },
  };
}
