/** Event catalogue recipes: inquiries, their text notes (and the deprecated `/history` alias), their files (docs/api.md#events). */
import { upload } from '../../modules/file/file-helpers.ts';
import { created, type Recipes } from './recipe.ts';

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
      call: ({ api, b }, { inquiry, note }) => api.patch(b, `/v1/inquiry/${inquiry.id}/${segment}/${note.id}`, { content: 'Note 2' }),
    },
    [`inquiry_${segment}_destroy`]: {
      setup: (ctx) => inquiryWithNote(ctx, segment),
      call: ({ api, b }, { inquiry, note }) => api.delete(b, `/v1/inquiry/${inquiry.id}/${segment}/${note.id}`),
    },
  };
}

export const inquiryRecipes: Recipes = {
  inquiry_create: { call: ({ api, b }) => api.post(b, '/v1/inquiry', { name: 'Catalogue' }) },
  inquiry_partial_update: {
    setup: ({ api, b }) => created(api, b, '/v1/inquiry', { name: 'Catalogue' }),
    call: ({ api, b }, inquiry) => api.patch(b, `/v1/inquiry/${inquiry.id}`, { name: 'Catalogue 2' }),
  },
  inquiry_destroy: {
    setup: ({ api, b }) => created(api, b, '/v1/inquiry', { name: 'Catalogue' }),
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
