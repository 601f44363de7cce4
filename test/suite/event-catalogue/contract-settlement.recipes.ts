/**
 * Event catalogue recipes: contracts, settlements and their notes (docs/api.md#events). The contract
 * recipes link, move or release an inquiry, so that each writes its documented `inquiry.updated` too.
 */
import { created, type RecipeContext, type Recipes } from './recipe.ts';

const CONTRACT = { title: 'Catalogue', amount: 1000, type: 'I', startDate: '2026-01-01', endDate: '2026-12-31' };

/** A settlement create body on contract `contractId`, of the test catalog's multi-round type. */
function settlementBody({ b }: RecipeContext, contractId: number): Record<string, unknown> {
  return {
    title: 'Catalogue',
    amount: 1,
    additionalAmount: 0,
    vat: 0,
    contract: { id: contractId },
    type: { id: b.ids.settlementTypes.sub },
  };
}

/** A settlement on a new contract. */
async function settlement(ctx: RecipeContext): Promise<{ id: number }> {
  const contract = await created(ctx.api, ctx.b, '/v1/contract', CONTRACT);
  return created(ctx.api, ctx.b, '/v1/settlement', settlementBody(ctx, contract.id));
}

export const contractSettlementRecipes: Recipes = {
  contract_create: {
    setup: ({ api, b }) => created(api, b, '/v1/inquiry', { name: 'Catalogue' }),
    call: ({ api, b }, inquiry) => api.post(b, '/v1/contract', { ...CONTRACT, inquiry: { id: inquiry.id } }),
  },
  contract_partial_update: {
    // A title change that also links an inquiry: the inquiry, the project and the settlement nest the summary.
    setup: async (ctx) => {
      const contract = await created(ctx.api, ctx.b, '/v1/contract', CONTRACT);
      const inquiry = await created(ctx.api, ctx.b, '/v1/inquiry', { name: 'Catalogue' });
      await created(ctx.api, ctx.b, '/v1/project', { title: 'Catalogue', contract: { id: contract.id } });
      await created(ctx.api, ctx.b, '/v1/settlement', settlementBody(ctx, contract.id));
      return { id: contract.id, inquiryId: inquiry.id };
    },
    call: ({ api, b }, s) =>
      api.patch(b, `/v1/contract/${s.id}`, { title: 'Catalogue 2', inquiry: { id: s.inquiryId } }),
  },
  contract_destroy: {
    // A contract with an inquiry, a note, a project, and a settlement with a note: one event of each documented type.
    setup: async (ctx) => {
      const inquiry = await created(ctx.api, ctx.b, '/v1/inquiry', { name: 'Catalogue' });
      const contract = await created(ctx.api, ctx.b, '/v1/contract', { ...CONTRACT, inquiry: { id: inquiry.id } });
      await created(ctx.api, ctx.b, '/v1/project', { title: 'Catalogue', contract: { id: contract.id } });
      await created(ctx.api, ctx.b, `/v1/contract/${contract.id}/history`, { content: 'Catalogue' });
      const s = await created(ctx.api, ctx.b, '/v1/settlement', settlementBody(ctx, contract.id));
      await created(ctx.api, ctx.b, `/v1/settlement/${s.id}/history`, { content: 'Catalogue' });
      return contract;
    },
    call: ({ api, b }, contract) => api.delete(b, `/v1/contract/${contract.id}`),
  },
  contract_history_create: {
    setup: ({ api, b }) => created(api, b, '/v1/contract', CONTRACT),
    call: ({ api, b }, contract) => api.post(b, `/v1/contract/${contract.id}/history`, { content: 'Catalogue' }),
  },
  contract_history_partial_update: {
    setup: async ({ api, b }) => {
      const contract = await created(api, b, '/v1/contract', CONTRACT);
      const note = await created(api, b, `/v1/contract/${contract.id}/history`, { content: 'Catalogue' });
      return `/v1/contract/${contract.id}/history/${note.id}`;
    },
    call: ({ api, b }, url) => api.patch(b, url, { content: 'Catalogue 2' }),
  },
  contract_history_destroy: {
    setup: async ({ api, b }) => {
      const contract = await created(api, b, '/v1/contract', CONTRACT);
      const note = await created(api, b, `/v1/contract/${contract.id}/history`, { content: 'Catalogue' });
      return `/v1/contract/${contract.id}/history/${note.id}`;
    },
    call: ({ api, b }, url) => api.delete(b, url),
  },
  settlement_create: {
    setup: ({ api, b }) => created(api, b, '/v1/contract', CONTRACT),
    call: (ctx, contract) => ctx.api.post(ctx.b, '/v1/settlement', settlementBody(ctx, contract.id)),
  },
  settlement_partial_update: {
    setup: settlement,
    call: ({ api, b }, s) => api.patch(b, `/v1/settlement/${s.id}`, { title: 'Catalogue 2', status: 'S' }),
  },
  settlement_destroy: {
    setup: async (ctx) => {
      const s = await settlement(ctx);
      await created(ctx.api, ctx.b, `/v1/settlement/${s.id}/history`, { content: 'Catalogue' });
      return s;
    },
    call: ({ api, b }, s) => api.delete(b, `/v1/settlement/${s.id}`),
  },
  settlement_history_create: {
    setup: settlement,
    call: ({ api, b }, s) => api.post(b, `/v1/settlement/${s.id}/history`, { content: 'Catalogue' }),
  },
  settlement_history_partial_update: {
    setup: async (ctx) => {
      const s = await settlement(ctx);
      const note = await created(ctx.api, ctx.b, `/v1/settlement/${s.id}/history`, { content: 'Catalogue' });
      return `/v1/settlement/${s.id}/history/${note.id}`;
    },
    call: ({ api, b }, url) => api.patch(b, url, { content: 'Catalogue 2' }),
  },
  settlement_history_destroy: {
    setup: async (ctx) => {
      const s = await settlement(ctx);
      const note = await created(ctx.api, ctx.b, `/v1/settlement/${s.id}/history`, { content: 'Catalogue' });
      return `/v1/settlement/${s.id}/history/${note.id}`;
    },
    call: ({ api, b }, url) => api.delete(b, url),
  },
};
