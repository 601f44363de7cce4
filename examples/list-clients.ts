/**
 * List and search clients: the first page, a search, and every client (auto-pagination).
 *   npx tsx examples/list-clients.ts [search term]
 */
import { BizapiError } from '../sdk/src/index.ts';
import { clientFromEnv, type Env, runIfMain } from './env.ts';

export async function main(
  env: Env,
  term = process.argv[2] ?? 'a',
): Promise<{ firstPage: string[]; matching: string[]; total: number }> {
  const bizapi = clientFromEnv(env);
  // One page, typed: `page.results[0].companyName` is a string.
  const page = await bizapi.call('client_list', { params: { query: { page_size: 5 } } });
  // Every client whose name, contact, … contains the term, across all pages.
  const matching: string[] = [];
  for await (const client of bizapi.paginate('client_list', { params: { query: { search: [term] } } }))
    matching.push(client.companyName);
  let total = 0;
  for await (const _client of bizapi.paginate('client_list', { params: { query: { page_size: 100 } } })) total++;
  try {
    await bizapi.call('client_retrieve', { params: { path: { client_id: 999999999 } } });
  } catch (err) {
    if (!(err instanceof BizapiError && err.code === 'not_found')) throw err; // typed errors: status, code, detail, requestId
  }
  return { firstPage: page.results.map((c) => c.companyName), matching, total };
}

runIfMain(import.meta.url, main);
