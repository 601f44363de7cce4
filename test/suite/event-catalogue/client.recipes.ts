/** Event catalogue recipes: clients, with the inquiry and contract that nest them (docs/api.md#cascades). */
import { created, type RecipeContext, type Recipes } from './recipe.ts';

/** A client with one inquiry and one contract that nest it. */
async function nestedClient({ api, b }: RecipeContext): Promise<{ id: number }> {
  const client = await created(api, b, '/v1/client', { companyName: 'Catalogue' });
  await created(api, b, '/v1/inquiry', { name: 'Catalogue', client: { id: client.id } });
  await created(api, b, '/v1/contract', { title: 'Catalogue', amount: 1, type: 'I', client: { id: client.id } });
  return client;
}

export const clientRecipes: Recipes = {
  client_create: { call: ({ api, b }) => api.post(b, '/v1/client', { companyName: 'Catalogue' }) },
  client_partial_update: {
    setup: nestedClient,
    call: ({ api, b }, client) => api.patch(b, `/v1/client/${client.id}`, { companyName: 'Catalogue 2' }),
  },
  client_destroy: {
    setup: nestedClient,
    call: ({ api, b }, client) => api.delete(b, `/v1/client/${client.id}`),
  },
};
