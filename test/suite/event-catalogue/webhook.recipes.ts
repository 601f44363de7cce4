/**
 * Event catalogue recipes: webhook endpoints (docs/webhooks.md). Endpoint writes are configuration and write
 * no events; the test ping writes one `webhook.test`. The catalogue's app allows private addresses, so the
 * endpoints point at a local URL.
 */
import { created, type Recipes } from './recipe.ts';

const ENDPOINT = { url: 'http://127.0.0.1:9/catalogue', eventTypes: ['*'] };

export const webhookRecipes: Recipes = {
  webhook_create: { call: ({ api, b }) => api.post(b, '/v1/webhook', ENDPOINT) },
  webhook_partial_update: {
    setup: ({ api, b }) => created(api, b, '/v1/webhook', ENDPOINT),
    call: ({ api, b }, webhook) =>
      api.patch(b, `/v1/webhook/${webhook.id}`, { description: 'Catalogue 2', isActive: false }),
  },
  webhook_destroy: {
    setup: ({ api, b }) => created(api, b, '/v1/webhook', ENDPOINT),
    call: ({ api, b }, webhook) => api.delete(b, `/v1/webhook/${webhook.id}`),
  },
  webhook_rotate_secret: {
    setup: ({ api, b }) => created(api, b, '/v1/webhook', ENDPOINT),
    call: ({ api, b }, webhook) => api.post(b, `/v1/webhook/${webhook.id}/rotate_secret`),
  },
  webhook_resume: {
    setup: ({ api, b }) => created(api, b, '/v1/webhook', ENDPOINT),
    call: ({ api, b }, webhook) => api.post(b, `/v1/webhook/${webhook.id}/resume`),
  },
  webhook_recover_create: {
    setup: ({ api, b }) => created(api, b, '/v1/webhook', ENDPOINT),
    call: ({ api, b }, webhook) =>
      api.post(b, `/v1/webhook/${webhook.id}/recover`, { since: new Date(Date.now() - 60_000).toISOString() }),
  },
  webhook_replay_create: {
    setup: ({ api, b }) => created(api, b, '/v1/webhook', ENDPOINT),
    call: ({ api, b }, webhook) => api.post(b, `/v1/webhook/${webhook.id}/replay`, { after_sequence: 0 }),
  },
  webhook_test: {
    setup: ({ api, b }) => created(api, b, '/v1/webhook', ENDPOINT),
    call: ({ api, b }, webhook) => api.post(b, `/v1/webhook/${webhook.id}/test`),
  },
  webhook_delivery_retry: {
    setup: async ({ api, b }) => {
      const webhook = await created(api, b, '/v1/webhook', ENDPOINT);
      const delivery = await created(api, b, `/v1/webhook/${webhook.id}/test`, undefined);
      return { webhook, delivery };
    },
    call: ({ api, b }, { webhook, delivery }) => api.post(b, `/v1/webhook/${webhook.id}/delivery/${delivery.id}/retry`),
  },
};
