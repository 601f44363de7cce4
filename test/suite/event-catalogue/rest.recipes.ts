/** Event catalogue recipes: projects, workers, todos and estimate items (docs/api.md#events). */
import { created, type Recipes } from './recipe.ts';

const estimateItem = { title: 'Catalogue', unitCost: '100', unit: 'EA' };

export const restRecipes: Recipes = {
  project_create: { call: ({ api, b }) => api.post(b, '/v1/project', { title: 'Catalogue' }) },
  project_partial_update: {
    setup: ({ api, b }) => created(api, b, '/v1/project', { title: 'Catalogue' }),
    call: ({ api, b }, project) => api.patch(b, `/v1/project/${project.id}`, { title: 'Catalogue 2' }),
  },
  project_destroy: {
    setup: ({ api, b }) => created(api, b, '/v1/project', { title: 'Catalogue' }),
    call: ({ api, b }, project) => api.delete(b, `/v1/project/${project.id}`),
  },
  worker_create: { call: ({ api, b }) => api.post(b, '/v1/worker', { name: 'Catalogue' }) },
  worker_partial_update: {
    setup: ({ api, b }) => created(api, b, '/v1/worker', { name: 'Catalogue' }),
    call: ({ api, b }, worker) => api.patch(b, `/v1/worker/${worker.id}`, { name: 'Catalogue 2' }),
  },
  worker_destroy: {
    setup: ({ api, b }) => created(api, b, '/v1/worker', { name: 'Catalogue' }),
    call: ({ api, b }, worker) => api.delete(b, `/v1/worker/${worker.id}`),
  },
  todo_create: {
    setup: ({ api, b }) => created(api, b, '/v1/inquiry', { name: 'Catalogue' }),
    call: ({ api, b }, inquiry) =>
      api.post(b, '/v1/todo', { inquiry: { id: inquiry.id }, type: 'CA', dueDate: '2026-12-01', action: 'Call' }),
  },
  todo_partial_update: {
    setup: async ({ api, b }) => {
      const inquiry = await created(api, b, '/v1/inquiry', { name: 'Catalogue' });
      return created(api, b, '/v1/todo', {
        inquiry: { id: inquiry.id },
        type: 'CA',
        dueDate: '2026-12-01',
        action: 'Call',
      });
    },
    call: ({ api, b }, todo) => api.patch(b, `/v1/todo/${todo.id}`, { isComplete: true }),
  },
  todo_destroy: {
    setup: async ({ api, b }) => {
      const inquiry = await created(api, b, '/v1/inquiry', { name: 'Catalogue' });
      return created(api, b, '/v1/todo', {
        inquiry: { id: inquiry.id },
        type: 'CA',
        dueDate: '2026-12-01',
        action: 'Call',
      });
    },
    call: ({ api, b }, todo) => api.delete(b, `/v1/todo/${todo.id}`),
  },
  estimate_item_create: { call: ({ api, b }) => api.post(b, '/v1/estimate/item', estimateItem) },
  estimate_item_partial_update: {
    setup: ({ api, b }) => created(api, b, '/v1/estimate/item', estimateItem),
    call: ({ api, b }, item) => api.patch(b, `/v1/estimate/item/${item.id}`, { unitCost: '200' }),
  },
  estimate_item_destroy: {
    setup: ({ api, b }) => created(api, b, '/v1/estimate/item', estimateItem),
    call: ({ api, b }, item) => api.delete(b, `/v1/estimate/item/${item.id}`),
  },
};
