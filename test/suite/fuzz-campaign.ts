/**
 * `npm run fuzz -- --minutes <n>` (issues 8, 13 and 28): the long fuzzing campaign; server errors are logged to stderr. Runs the same properties as
 * test/suite/fuzz.test.ts over every documented operation — schema-driven cases and the hostile shapes of
 * fuzz-hostile.ts (huge lists, wide objects, deep nesting, bad UTF-8, odd Host headers and encodings, path
 * ids) — and the event mirror property of test/suite/event-mirror.test.ts (`--mirror-runs` operation
 * sequences per round, up to `--mirror-ops` long; a failure is shrunk and reported with its counterexample)
 * round after round with new seeds, until the time is up; prints the number of requests by status
 * class and every distinct problem, and exits 1 when there was one (any 5xx is one). Uses the test database
 * (SQLite by default, PostgreSQL with DATABASE_URL: its first test worker's schema, as `npm test` sets it up).
 */
import { Command } from 'commander';
import { buildTestApp } from '../setup/build-test-app.ts';
import setupTestDatabase from '../setup/global-setup.ts';
import { newBusiness } from '../setup/factories.ts';
import { fuzzOperation } from '../setup/fuzz.ts';
import { loadDocument } from '../setup/openapi-document.ts';
import { fuzzHostile } from './fuzz-hostile.ts';
import { securedOperations, seedRecords } from './fuzz-targets.ts';
import { apiClient } from '../setup/api-client.ts';
import { urlWithSchema, workerSchema } from '../setup/test-workers.ts';
import { checkMirrorProperty } from './event-mirror/mirror.ts';

const opts = new Command()
  .name('fuzz')
  .option('--minutes <n>', 'how long to run', '10')
  .option('--runs <n>', 'cases per property and round', '50')
  .option('--mirror-runs <n>', 'event mirror: operation sequences per round (0: off)', '20')
  .option('--mirror-ops <n>', 'event mirror: operations per sequence, at most', '80')
  .parse()
  .opts<{ minutes: string; runs: string; mirrorRuns: string; mirrorOps: string }>();

const deadline = Date.now() + Number(opts.minutes) * 60_000;
// On PostgreSQL the database is emptied and migrated first, as `npm test` does (the URL must name a throwaway one).
await setupTestDatabase();
// The setup migrates one schema per test worker (test/setup/global-setup.ts); the campaign is worker 1.
if (process.env.DATABASE_URL?.startsWith('postgres'))
  process.env.DATABASE_URL = urlWithSchema(process.env.DATABASE_URL, workerSchema(1));
// Server errors go to stderr (LOG_LEVEL=error), so a 5xx comes with its stack.
const t = await buildTestApp({ BIZAPI_RATE_LIMIT: '0', LOG_LEVEL: 'error' });
const doc = await loadDocument(t.app);
// the event stream never ends (see fuzz.test.ts): left out
const operations = securedOperations(doc).filter((o) => !o.eventStream);
const problems = new Map<string, string>();
let cases = 0;
// Every request the campaign sends (seeding included), counted by status class.
const byClass: Record<string, number> = {};
let requests = 0;
const inject = t.app.inject.bind(t.app) as (o: object) => Promise<{ statusCode: number }>;
(t.app as unknown as { inject: typeof inject }).inject = async (o: object) => {
  const res = await inject(o);
  requests += 1;
  const k = `${Math.floor(res.statusCode / 100)}xx`;
  byClass[k] = (byClass[k] ?? 0) + 1;
  return res;
};
let round = 0;
try {
  while (Date.now() < deadline) {
    round += 1;
    // A fresh business each round, so that deletes of earlier rounds do not starve later ones of records.
    const b = await newBusiness(t, { plan: 'AGENCY' });
    const ids = await seedRecords(t.app, b, doc);
    for (const op of operations) {
      if (Date.now() >= deadline) break;
      const report = await fuzzOperation(t.app, b, doc, op, {
        runs: Number(opts.runs),
        records: ids,
        seed: round * 7919,
      });
      cases += report.cases;
      for (const p of report.problems) if (!problems.has(p)) problems.set(p, op.operationId);
      if (Date.now() >= deadline) break;
      const hostile = await fuzzHostile(t.app, b, doc, op, {
        runs: Math.max(1, Math.floor(Number(opts.runs) / 5)),
        records: ids,
        seed: round * 104729,
      });
      cases += hostile.cases;
      for (const p of hostile.problems) if (!problems.has(p)) problems.set(p, op.operationId);
    }
    if (Number(opts.mirrorRuns) > 0 && Date.now() < deadline) {
      const seed = Math.floor(Math.random() * 2 ** 31);
      try {
        await checkMirrorProperty(
          { t, api: apiClient(() => t.app) },
          {
            seed,
            numRuns: Number(opts.mirrorRuns),
            maxOps: Number(opts.mirrorOps),
            timeLimitMs: Math.max(1000, deadline - Date.now()),
          },
        );
      } catch (err) {
        // fast-check's report (seed, shrunk counterexample), then the property's own message: the problems.
        const cause = (err as Error & { cause?: Error }).cause;
        const report = `event mirror: ${(err as Error).message}${cause ? `\n${cause.message}` : ''}`;
        if (!problems.has(report)) problems.set(report, 'event mirror');
      }
      cases += Number(opts.mirrorRuns);
    }
    process.stderr.write(
      `round ${round}: ${cases} cases, ${requests} requests ${JSON.stringify(byClass)}, ${problems.size} problems\n`,
    );
  }
} finally {
  await t.close();
}
process.stdout.write(
  `fuzzed ${operations.length} operations for ${opts.minutes} min: ${cases} cases in ${round} rounds; ${requests} requests: ` +
    `${byClass['2xx'] ?? 0} × 2xx, ${byClass['4xx'] ?? 0} × 4xx, ${byClass['5xx'] ?? 0} × 5xx; ${problems.size} distinct problems\n`,
);
for (const p of problems.keys()) process.stdout.write(`- ${p}\n`);
process.exit(problems.size > 0 || (byClass['5xx'] ?? 0) > 0 ? 1 : 0);
