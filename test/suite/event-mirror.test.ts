/**
 * The mirror property of the change feed (issue 28, decisions §17, docs/api.md#events), model-based with
 * fast-check: random sequences of API operations across every resource (test/suite/event-mirror/operations.ts),
 * then a mirror built only by folding `GET /v1/event?after_sequence=N` must equal what `GET` answers for every
 * live record and hold no deleted one (test/suite/event-mirror/mirror.ts). The known cascades first
 * (test/suite/event-mirror/cascades.ts), then a fixed seed and a few runs here;
 * `npm run fuzz` runs it with random seeds.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../setup/api-client.ts';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { answerCounts, checkMirrorProperty, Mirror } from './event-mirror/mirror.ts';
import { CASCADES } from './event-mirror/cascades.ts';
import { newBusiness } from '../setup/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ BIZAPI_RATE_LIMIT: '0' });
});
afterAll(() => t?.close());

const api = apiClient(() => t.app);

describe('event mirror', () => {
  it(
    'a mirror folded from the feed equals GET for every record, after random operations',
    { timeout: 120_000 },
    async () => {
      await checkMirrorProperty(
        { t, api },
        {
          seed: 2811,
          numRuns: 10,
          maxOps: 60,
          timeLimitMs: 45_000,
          examples: CASCADES,
        },
      );
      // The model is not vacuous: most kinds of write succeeded somewhere in the runs.
      const succeeded = [...answerCounts.keys()].filter((k) => / 20[014]$/.test(k)).map((k) => k.replace(/ \d+$/, ''));
      for (const what of [
        'create client',
        'patch inquiry',
        'create contract',
        'patch contract',
        'create settlement',
        'create inquiry.text_history',
      ]) {
        expect(succeeded, `no successful ${what}`).toContain(what);
      }
    },
  );

  it(
    'followers of the long-poll and of the stream, folding while the operations run, end equal to the API too',
    { timeout: 120_000 },
    async () => {
      const live = await buildTestApp({ BIZAPI_RATE_LIMIT: '0' });
      try {
        await live.app.listen({ port: 0, host: '127.0.0.1' });
        const port = (live.app.server.address() as AddressInfo).port;
        await checkMirrorProperty(
          { t: live, api: apiClient(() => live.app) },
          { seed: 3911, numRuns: 6, maxOps: 40, timeLimitMs: 45_000, examples: CASCADES, live: { port } },
        );
      } finally {
        await live.close();
      }
    },
  );

  it('the fold: created and updated set the record, deleted removes it, notes sit under their parent, catalog.updated touches no record', async () => {
    const b = await newBusiness(t);
    const m = new Mirror(api, b);
    m.fold({ id: 1, sequence: 1, type: 'client.created', changedFields: [], data: { id: 5, companyName: 'A' } });
    m.fold({
      id: 2,
      sequence: 2,
      type: 'client.updated',
      changedFields: ['companyName'],
      data: { id: 5, companyName: 'B' },
    });
    m.fold({
      id: 3,
      sequence: 3,
      type: 'inquiry.text_history.created',
      parent: { type: 'inquiry', id: 7 },
      changedFields: [],
      data: { id: 5, content: 'n' },
    });
    m.fold({
      id: 4,
      sequence: 4,
      type: 'catalog.updated',
      parent: null,
      changedFields: [],
      data: { id: 0, section: 'clientStatuses', ids: [3] } as never,
    });
    expect([...m.records.entries()]).toEqual([
      ['client 5', { id: 5, companyName: 'B' }],
      ['inquiry.text_history 5 (on inquiry 7)', { id: 5, content: 'n' }],
    ]);
    expect(m.catalog.get('clientStatuses')).toEqual(new Set([3]));
    m.fold({ id: 5, sequence: 5, type: 'client.deleted', changedFields: [], data: { id: 5 } });
    m.fold({
      id: 6,
      sequence: 4,
      type: 'inquiry.text_history.deleted',
      parent: { type: 'inquiry', id: 7 },
      changedFields: [],
      data: { id: 5 },
    });
    expect(m.records.size).toBe(0);
    expect(m.problems).toEqual([
      'event 6 (inquiry.text_history.deleted) has sequence 4, not above the last one folded (5)',
    ]);
  });
});
