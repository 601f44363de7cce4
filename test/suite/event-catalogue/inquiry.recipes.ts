/** Event catalogue recipes: inquiries, their text notes (and the deprecated `/history` alias), their files (docs/api.md#events). */
import { upload } from '../../modules/file/file-helpers.ts';
import { created, type Recipes } from './recipe.ts';

const CONTRACT = { title: 'Catalogue', amount: 1, type: 'I' };

/** An inquiry with a linked contract and a todo, which nest it. */
async function nestedInquiry(ctx: Parameters<NonNullable<Recipes[string]['setup']>>[0]): Promise<{ id: number }> {
  const contract = await created(ctx.api, ctx.b, '/v1/contract', CONTRACT);
  const inquiry = await created(ctx.api, ctx.b, '/v1/inquiry', { name: 'Catalogue', contract: { id: contract.id } });
  await created(ctx.api, ctx.b, '/v1/todo', {
    inquiry: { id: inquiry.id },
    type: 'CA',
    dueDate: '2026-12-01',
    action: 'Call',
  });
  return inquiry;
}

/** An inquiry and one of its text notes under `segment`. */
async function inquiryWithNote(ctx: Parameters<NonNullable<Recipes[string]['setup']>>[0], segment: string) {
  const inquiry = await created(ctx.api, ctx.b, '/v1/inquiry', { name: 'Catalogue' });
  const note = await created(ctx.api, ctx.b, `/v1/inquiry/${inquiry.id}/${segment}`, { content: 'Note' });
  return { inquiry, note };
}

/** The three text-note write operations under `segment` (`text_history`, or the deprecated `history`). */
function noteRecipes(segment: 'text_history' | 'history'): Recipes {
  return {
    [`inquiry_${segment}_create`]: {
      setup: ({ api, b }) => created(api, b, '/v1/inquiry', { name: 'Catalogue' }),
      call: ({ api, b }, inquiry) => api.post(b, `/v1/inquiry/${inquiry.id}/${segment}`, { content: 'Note' }),
    },
    [`inquiry_${segment}_partial_update`]: {
      setup: (ctx) => inquiryWithNote(ctx, segment),
      call: ({ api, b }, { inquiry, note }) =>
        api.patch(b, `/v1/inquiry/${inquiry.id}/${segment}/${note.id}`, { content: 'Note 2' }),
    },
    [`inquiry_${segment}_destroy`]: {
      setup: (ctx) => inquiryWithNote(ctx, segment),
      call: ({ api, b }, { inquiry, note }) => api.delete(b, `/v1/inquiry/${inquiry.id}/${segment}/${note.id}`),
    },
  };
}

export const inquiryRecipes: Recipes = {
  inquiry_create: {
    // Linking a contract: the contract's `inquiry` changes (docs/api.md#cascades).
    setup: ({ api, b }) => created(api, b, '/v1/contract', CONTRACT),
    call: ({ api, b }, contract) => api.post(b, '/v1/inquiry', { name: 'Catalogue', contract: { id: contract.id } }),
  },
  inquiry_partial_update: {
    // A rename: the linked contract and the todo nest the name.
    setup: nestedInquiry,
    call: ({ api, b }, inquiry) => api.patch(b, `/v1/inquiry/${inquiry.id}`, { name: 'Catalogue 2' }),
  },
  inquiry_destroy: {
    // With a text note, a todo and a contract: the notes and todos go, the contract is released.
    setup: async (ctx) => {
      const inquiry = await nestedInquiry(ctx);
      await created(ctx.api, ctx.b, `/v1/inquiry/${inquiry.id}/text_history`, { content: 'Note' });
      return inquiry;
    },
    call: ({ api, b }, inquiry) => api.delete(b, `/v1/inquiry/${inquiry.id}`),
  },
  ...noteRecipes('text_history'),
  ...noteRecipes('history'),
  presigned_create: { call: ({ api, b }) => api.post(b, '/v1/presigned', { name: 'catalogue.pdf' }) },
  inquiry_file_destroy: {
    setup: async ({ t, api, b }) => {
      const path = await upload(t.app, b, 'catalogue.pdf');
      const inquiry = await created(api, b, '/v1/inquiry', { fileSet: [{ name: 'catalogue.pdf', file: path }] });
      const full = await api.get(b, `/v1/inquiry/${inquiry.id}`);
      return { inquiryId: inquiry.id, fileId: full.body.fileSet[0].id };
    },
    call: ({ api, b }, { inquiryId, fileId }) => api.delete(b, `/v1/inquiry/${inquiryId}/file/${fileId}`),
  },
};
