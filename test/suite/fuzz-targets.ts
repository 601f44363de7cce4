/**
 * What the fuzz suite and campaign run against: a business on the AGENCY plan (every operation allowed)
 * with one record behind each documented path parameter, created by POSTing each collection's documented
 * example (so the ids point at live records where the examples are valid, and at missing ones otherwise).
 */
import type { FastifyInstance } from 'fastify';
import type { Document } from '../setup/openapi-document.ts';
import { type Credentials, sendJson } from '../setup/signed-request.ts';

/** The operations worth fuzzing: the documented, key-protected ones. */
export function fuzzableOperations(doc: Document) {
  return doc.operations.filter((o) => o.secured && o.path.startsWith('/v1/'));
}

/**
 * Creates one record per collection that has a documented POST example, parents first, and returns the
 * ids by path parameter name (`client_id`, `inquiry_id`, `history_id`, …).
 */
export async function seedIds(app: FastifyInstance, creds: Credentials, doc: Document): Promise<Record<string, number>> {
  const ids: Record<string, number> = {};
  const posts = doc.operations
    .filter((o) => o.method === 'POST' && o.requestExample !== undefined && o.path.startsWith('/v1/'))
    .sort((a, b) => a.pathParams.length - b.pathParams.length);
  for (const op of posts) {
    const child = doc.operations.find((o) => o.path.startsWith(`${op.path}/{`) && o.pathParams.length === op.pathParams.length + 1);
    if (!child) continue;
    const param = child.pathParams.at(-1)!;
    let url = op.path;
    for (const p of op.pathParams) url = url.replace(`{${p}}`, String(ids[p] ?? 0));
    // The documented example first; `{}` for collections whose properties are all optional.
    for (const body of [op.requestExample, {}]) {
      const res = await sendJson(app, creds, { method: 'POST', url, body });
      if (res.status === 201 && typeof res.body?.id === 'number') {
        ids[param] = res.body.id;
        break;
      }
    }
  }
  return ids;
}
