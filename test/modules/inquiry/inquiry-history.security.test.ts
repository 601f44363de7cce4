/**
 * Security suite for every inquiry history route (the deprecated `/history` aliases included), plus tenant
 * isolation: another business's inquiry or note is "Not found.", a note of another inquiry too, and another
 * business's member in a note body is a 400 on `member.id`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import {
  runCommonRouteTests,
  runOtherBusinessIdTest,
  runOtherBusinessReferenceTest,
} from '../../setup/common-route-tests.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { createInquiry } from './inquiry-helpers.ts';
import { apiClient } from '../../setup/api-client.ts';

let t: TestApp;
const { call } = apiClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});
const ctx = () => t;

async function inquiryOf(b: TestBusiness): Promise<number> {
  return (await createInquiry(t, b, { name: 'Owned' })).id as number;
}
async function noteOf(b: TestBusiness, segment = 'text_history'): Promise<string> {
  const inquiryId = await inquiryOf(b);
  const res = await call(b, {
    method: 'POST',
    url: `/v1/inquiry/${inquiryId}/${segment}`,
    body: { content: 'Owned note' },
  });
  expect(res.status).toBe(201);
  return `/v1/inquiry/${inquiryId}/${segment}/${res.body.id}`;
}

describe('inquiry history routes', () => {
  for (const page of ['status_history', 'folder_history', 'email_history', 'email_reply_history', 'submit_history']) {
    runCommonRouteTests(ctx, {
      name: `GET /v1/inquiry/{inquiry_id}/${page}`,
      okStatus: 200,
      request: async (_t, b) => ({ method: 'GET', url: `/v1/inquiry/${await inquiryOf(b)}/${page}` }),
    });
    runOtherBusinessIdTest(ctx, `GET /v1/inquiry/{inquiry_id}/${page}`, async (_t, owner) => ({
      method: 'GET',
      url: `/v1/inquiry/${await inquiryOf(owner)}/${page}`,
    }));
  }

  for (const segment of ['text_history', 'history']) {
    runCommonRouteTests(ctx, {
      name: `GET /v1/inquiry/{inquiry_id}/${segment}`,
      okStatus: 200,
      request: async (_t, b) => ({ method: 'GET', url: `/v1/inquiry/${await inquiryOf(b)}/${segment}` }),
    });
    runCommonRouteTests(ctx, {
      name: `POST /v1/inquiry/{inquiry_id}/${segment}`,
      okStatus: 201,
      request: async (_t, b) => ({
        method: 'POST',
        url: `/v1/inquiry/${await inquiryOf(b)}/${segment}`,
        body: { content: 'Signed note' },
      }),
    });
    runCommonRouteTests(ctx, {
      name: `GET /v1/inquiry/{inquiry_id}/${segment}/{history_id}`,
      okStatus: 200,
      request: async (_t, b) => ({ method: 'GET', url: await noteOf(b, segment) }),
    });
    runCommonRouteTests(ctx, {
      name: `PATCH /v1/inquiry/{inquiry_id}/${segment}/{history_id}`,
      okStatus: 200,
      request: async (_t, b) => ({ method: 'PATCH', url: await noteOf(b, segment), body: { content: 'Changed' } }),
    });
    runCommonRouteTests(ctx, {
      name: `DELETE /v1/inquiry/{inquiry_id}/${segment}/{history_id}`,
      okStatus: 204,
      request: async (_t, b) => ({ method: 'DELETE', url: await noteOf(b, segment) }),
    });

    runOtherBusinessIdTest(ctx, `GET /v1/inquiry/{inquiry_id}/${segment}`, async (_t, owner) => ({
      method: 'GET',
      url: `/v1/inquiry/${await inquiryOf(owner)}/${segment}`,
    }));
    runOtherBusinessIdTest(ctx, `POST /v1/inquiry/{inquiry_id}/${segment}`, async (_t, owner) => ({
      method: 'POST',
      url: `/v1/inquiry/${await inquiryOf(owner)}/${segment}`,
      body: { content: 'Intruder' },
    }));
    runOtherBusinessIdTest(ctx, `GET /v1/inquiry/{inquiry_id}/${segment}/{history_id}`, async (_t, owner) => ({
      method: 'GET',
      url: await noteOf(owner, segment),
    }));
    runOtherBusinessIdTest(ctx, `PATCH /v1/inquiry/{inquiry_id}/${segment}/{history_id}`, async (_t, owner) => ({
      method: 'PATCH',
      url: await noteOf(owner, segment),
      body: { content: 'Hijacked' },
    }));
    runOtherBusinessIdTest(ctx, `DELETE /v1/inquiry/{inquiry_id}/${segment}/{history_id}`, async (_t, owner) => ({
      method: 'DELETE',
      url: await noteOf(owner, segment),
    }));
    runOtherBusinessReferenceTest(
      ctx,
      `POST /v1/inquiry/{inquiry_id}/${segment}`,
      ['member', 'id'],
      async (_t, caller, foreign) => ({
        method: 'POST',
        url: `/v1/inquiry/${await inquiryOf(caller)}/${segment}`,
        body: { content: 'x', member: { id: foreign.ids.members.kim } },
      }),
    );
  }

  it('a note reached through another inquiry of the same business is Not found. for every method', async () => {
    const b = await newBusiness(t);
    const url = await noteOf(b);
    const noteId = url.split('/').pop();
    const other = await inquiryOf(b);
    for (const segment of ['text_history', 'history']) {
      const wrong = `/v1/inquiry/${other}/${segment}/${noteId}`;
      for (const req of [
        { method: 'GET' as const, url: wrong },
        { method: 'PATCH' as const, url: wrong, body: { content: 'moved?' } },
        { method: 'DELETE' as const, url: wrong },
      ]) {
        const res = await call(b, req);
        expect(res.status, `${req.method} ${wrong}`).toBe(404);
        expect(res.body.detail).toBe('Not found.');
      }
    }
    const still = await call(b, { method: 'GET', url });
    expect(still.status).toBe(200);
    expect(still.body.content).toBe('Owned note');
  });
});
