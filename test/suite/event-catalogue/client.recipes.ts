/** Event catalogue recipes: clients (docs/api.md#events). */
import { created, type Recipes } from './recipe.ts';

export const clientRecipes: Recipes = {
  client_create: { call: ({ api, b }) => api.post(b, '/v1/client', { companyName: 'Catalogue' }) },
  client_partial_update: {
    setup: ({ api, b }) => created(api, b, '/v1/client', { companyName: 'Catalogue' }),
    call: ({ api, b }, client) => api.patch(b, `/v1/client/${client.id}`, { companyName: 'Catalogue 2' }),
  },
  client_destroy: {
    setup: ({ api, b }) => created(api, b, '/v1/client', { companyName: 'Catalogue' }),
    call: ({ api, b }, client) => api.delete(b, `/v1/client/${client.id}`),
  },
};
