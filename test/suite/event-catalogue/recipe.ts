/**
 * A recipe of the event catalogue test (test/suite/event-catalogue.test.ts): how to perform one write
 * operation of the OpenAPI document successfully in a new business. `setup` creates what the operation
 * needs (its own events are not counted); `call` performs the operation itself, and every event it writes
 * is compared with the operation's documented `x-events`.
 */
import type { ApiClient, JsonResponse } from '../../setup/api-client.ts';
import type { TestApp } from '../../setup/build-test-app.ts';
import type { TestBusiness } from '../../setup/factories.ts';

/** What a recipe receives. */
export interface RecipeContext {
  t: TestApp;
  b: TestBusiness;
  api: ApiClient;
}

/** One write operation, performed for real. */
export interface Recipe<S = any> {
  /** Creates the records the operation needs; the answer is handed to `call`. */
  setup?: (ctx: RecipeContext) => Promise<S>;
  /** Performs the operation; must answer 2xx. */
  call: (ctx: RecipeContext, state: S) => Promise<JsonResponse>;
}

/** Recipes by `operationId`. */
export type Recipes = Record<string, Recipe>;

/** `POST url body` answering 2xx, or the test fails with the answer; returns the body. */
export async function created(api: ApiClient, b: TestBusiness, url: string, body: unknown): Promise<any> {
  const res = await api.post(b, url, body);
  if (res.status >= 300) throw new Error(`setup POST ${url} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}
