/**
 * The endpoints' health marks written in one statement per batch of finished attempts
 * (webhook-delivery.service.ts `recordAttempts`, docs/webhooks.md#retries), on the dialect under test: for
 * random runs of successes, answered failures and failures without an answer, the net mark of the whole run
 * (`foldMark`, written by `markEndpoints` once) leaves an endpoint exactly as the marks written one by one do
 * — `last_success_at`, `failing_since` and `sick_streak` — from a healthy and from a failing start.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { encryptSecret } from '../../../src/modules/auth/secret-box.ts';
import { markEndpoints, type EndpointMark } from '../../../src/modules/webhook/webhook-delivery.repository.ts';
import { foldMark } from '../../../src/modules/webhook/webhook-delivery.service.ts';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';

let t: TestApp;
let b: TestBusiness;
beforeAll(async () => {
  t = await buildTestApp();
  b = await newBusiness(t, { catalog: null });
});
afterAll(async () => {
  await t.close();
});

const START = Date.parse('2026-11-27T00:00:00.000Z');
const at = (i: number) => new Date(START + i * 1000).toISOString();

async function newEndpoint(failingSince: string | null, sickStreak: number): Promise<number> {
  const now = at(0);
  const row = await t.testDb.db
    .insertInto('webhook_endpoint')
    .values({
      business_id: b.businessId,
      url: 'https://example.com/hook',
      event_types: JSON.stringify(['*']),
      description: null,
      is_active: 1,
      format: 'standard',
      secret: encryptSecret(t.masterKey, 'whsec_dGVzdA=='),
      previous_secret: null,
      previous_secret_expires_at: null,
      last_success_at: null,
      failing_since: failingSince,
      sick_streak: sickStreak,
      created: now,
      updated: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function health(id: number) {
  const r = await t.testDb.db
    .selectFrom('webhook_endpoint')
    .select(['last_success_at', 'failing_since', 'sick_streak'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const ms = (v: unknown) => (v === null ? null : new Date(v as string).getTime());
  return { lastSuccessAt: ms(r.last_success_at), failingSince: ms(r.failing_since), sickStreak: Number(r.sick_streak) };
}

type Kind = 'success' | 'failure' | 'no-answer';

it('a batch written as one net mark equals the marks written one by one', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.constantFrom<Kind>('success', 'failure', 'no-answer'), { minLength: 1, maxLength: 8 }),
      fc.boolean(),
      async (kinds, failing) => {
        const [one, batch] = [
          await newEndpoint(failing ? at(0) : null, failing ? 2 : 0),
          await newEndpoint(failing ? at(0) : null, failing ? 2 : 0),
        ];
        const marks = new Map<number, EndpointMark>();
        for (const [i, kind] of kinds.entries()) {
          const mark = kind === 'success' ? { at: at(i + 1) } : { at: at(i + 1), noAnswer: kind === 'no-answer' };
          const single = new Map<number, EndpointMark>();
          foldMark(single, one, mark);
          await markEndpoints(t.testDb.db, [...single.values()]);
          foldMark(marks, batch, mark);
        }
        await markEndpoints(t.testDb.db, [...marks.values()]);
        expect(await health(batch), kinds.join(',')).toEqual(await health(one));
      },
    ),
    { numRuns: 40, seed: 28 },
  );
});
