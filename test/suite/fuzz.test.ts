/**
 * Bounded property-based fuzzing of every documented operation (issue 8), on the test database: valid
 * bodies succeed or fail with a documented 4xx, hostile ones get a 4xx, nothing gets a 5xx, and every
 * answer conforms to the document. `FUZZ_RUNS` sets the cases per property (default 10); `npm run fuzz`
 * runs the long campaign.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../setup/factories.ts';
import { fuzzOperation } from '../setup/fuzz.ts';
import { type Document, loadDocument } from '../setup/openapi-document.ts';
import { fuzzHostile } from './fuzz-hostile.ts';
import { securedOperations, seedRecords } from './fuzz-targets.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 10);

let t: TestApp;
let doc: Document;
let b: TestBusiness;
let ids: Record<string, number>;
beforeAll(async () => {
  t = await buildTestApp({ BIZAPI_RATE_LIMIT: '0' });
  doc = await loadDocument(t.app);
  b = await newBusiness(t, { plan: 'AGENCY' });
  ids = await seedRecords(t.app, b, doc);
});
afterAll(async () => {
  await t.close();
});

// The document is read from a throwaway app at collection time so that each operation is its own test. The
// event stream (GET /v1/event/stream) is left out: a valid request opens a stream that never ends, which the
// in-process requests of the fuzzer wait for; its bad inputs (400s) are tested in test/modules/event/event.stream.test.ts.
const collected = await (async () => {
  const probe = await buildTestApp();
  try {
    return securedOperations(await loadDocument(probe.app))
      .filter((o) => !o.eventStream)
      .map((o) => ({ method: o.method, path: o.path }));
  } finally {
    await probe.close();
  }
})();

describe('fuzzing every documented operation', () => {
  it('covers at least one operation', () => {
    expect(collected.length).toBeGreaterThan(0);
  });
  for (const { method, path } of collected) {
    it(`${method} ${path}`, async () => {
      const op = doc.operations.find((o) => o.method === method && o.path === path)!;
      const report = await fuzzOperation(t.app, b, doc, op, { runs: RUNS, records: ids, seed: 20261122 });
      expect(report.cases).toBeGreaterThan(0);
      expect(report.problems, report.problems.join('\n')).toEqual([]);
    });
  }
});

describe('hostile shapes (issue 13): huge lists, wide objects, deep nesting, bad UTF-8, odd Host, encodings, path ids', () => {
  // Two cases per operation keep this bounded; `npm run fuzz` runs many more.
  for (const { method, path } of collected) {
    it(`${method} ${path}`, async () => {
      const op = doc.operations.find((o) => o.method === method && o.path === path)!;
      const report = await fuzzHostile(t.app, b, doc, op, { runs: Math.min(RUNS, 2), records: ids, seed: 20261124 });
      expect(report.cases).toBeGreaterThan(0);
      expect(report.byClass['5xx']).toBe(0);
      expect(report.problems, report.problems.join('\n')).toEqual([]);
    });
  }
});
