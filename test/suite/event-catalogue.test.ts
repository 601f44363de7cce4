/**
 * The event catalogue (docs/api.md#events): every write operation of the OpenAPI document (`POST`,
 * `PATCH`, `PUT`, `DELETE` under `/v1`) documents the events it writes in `x-events`, and performing it
 * writes exactly those events — one each, in that order — so a new write path cannot forget its event
 * (its operation has no recipe, or no `x-events`, and this test fails).
 *
 * Recipes live beside this file, one file per module (`<module>.recipes.ts`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../setup/api-client.ts';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness } from '../setup/factories.ts';
import { type DocOperation, loadDocument } from '../setup/openapi-document.ts';
import type { Recipes } from './event-catalogue/recipe.ts';
import { clientRecipes } from './event-catalogue/client.recipes.ts';
import { inquiryRecipes } from './event-catalogue/inquiry.recipes.ts';
import { webhookRecipes } from './event-catalogue/webhook.recipes.ts';
import { contractSettlementRecipes } from './event-catalogue/contract-settlement.recipes.ts';
import { restRecipes } from './event-catalogue/rest.recipes.ts';

const RECIPES: Recipes = {
  ...clientRecipes,
  ...inquiryRecipes,
  ...webhookRecipes,
  ...contractSettlementRecipes,
  ...restRecipes,
};

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ BIZAPI_WEBHOOK_ALLOW_PRIVATE: 'true' });
});
afterAll(() => t.close());

const api = apiClient(() => t.app);

/** Write operations under `/v1` that take the API key. */
async function writeOperations(): Promise<(DocOperation & { events: unknown })[]> {
  const doc = await loadDocument(t.app);
  return doc.operations
    .filter((op) => op.method !== 'GET' && op.path.startsWith('/v1/') && op.secured)
    .map((op) => ({ ...op, events: doc.resolved.paths[op.path][op.method.toLowerCase()]['x-events'] }));
}

describe('event catalogue', () => {
  it('every write operation documents its events and has a recipe', async () => {
    const ops = await writeOperations();
    expect(ops.length).toBeGreaterThan(30);
    const missing = ops
      .filter((op) => !Array.isArray(op.events))
      .map((op) => `${op.method} ${op.path} (${op.operationId})`);
    expect(missing, 'operations without x-events').toEqual([]);
    const noRecipe = ops.filter((op) => RECIPES[op.operationId] === undefined).map((op) => op.operationId);
    expect(noRecipe, 'operations without a recipe in test/suite/event-catalogue/').toEqual([]);
  });

  it('each write operation writes exactly the events it documents', async () => {
    const failures: string[] = [];
    for (const op of await writeOperations()) {
      const recipe = RECIPES[op.operationId];
      if (!recipe || !Array.isArray(op.events)) continue;
      const b = await newBusiness(t);
      const ctx = { t, b, api };
      const state = recipe.setup ? await recipe.setup(ctx) : undefined;
      const last = (await api.get(b, '/v1/event?page_size=1')).body.results[0]?.id ?? 0;
      const res = await recipe.call(ctx, state);
      if (res.status >= 300) {
        failures.push(`${op.operationId}: answered ${res.status} ${JSON.stringify(res.body)}`);
        continue;
      }
      const after = (await api.get(b, '/v1/event?page_size=100')).body.results as { id: number; type: string }[];
      const written = after
        .filter((e) => e.id > last)
        .map((e) => e.type)
        .reverse();
      if (JSON.stringify(written) !== JSON.stringify(op.events)) {
        failures.push(`${op.operationId}: documents ${JSON.stringify(op.events)}, wrote ${JSON.stringify(written)}`);
      }
    }
    expect(failures).toEqual([]);
    // Every write operation of the document, each in a new business with the records it cascades to.
  }, 120_000);
});
