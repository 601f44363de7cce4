/**
 * `npm run fuzz -- --minutes <n>` (issue 8): the long fuzzing campaign. Runs the same properties as
 * test/suite/fuzz.test.ts over every documented operation, round after round with new seeds, until the time
 * is up; prints the number of cases and every distinct problem, and exits 1 when there was one. Uses the
 * test database (SQLite by default, PostgreSQL with DATABASE_URL).
 */
import { Command } from 'commander';
import { buildTestApp } from '../setup/build-test-app.ts';
import { newBusiness } from '../setup/factories.ts';
import { fuzzOperation } from '../setup/fuzz.ts';
import { loadDocument } from '../setup/openapi-document.ts';
import { securedOperations, seedRecords } from './fuzz-targets.ts';

const opts = new Command()
  .name('fuzz')
  .option('--minutes <n>', 'how long to run', '10')
  .option('--runs <n>', 'cases per property and round', '50')
  .parse()
  .opts<{ minutes: string; runs: string }>();

const deadline = Date.now() + Number(opts.minutes) * 60_000;
const t = await buildTestApp({ BIZAPI_RATE_LIMIT: '0' });
const doc = await loadDocument(t.app);
const operations = securedOperations(doc);
const problems = new Map<string, string>();
let cases = 0;
let round = 0;
try {
  while (Date.now() < deadline) {
    round += 1;
    // A fresh business each round, so that deletes of earlier rounds do not starve later ones of records.
    const b = await newBusiness(t, { plan: 'AGENCY' });
    const ids = await seedRecords(t.app, b, doc);
    for (const op of operations) {
      if (Date.now() >= deadline) break;
      const report = await fuzzOperation(t.app, b, doc, op, { runs: Number(opts.runs), records: ids, seed: round * 7919 });
      cases += report.cases;
      for (const p of report.problems) if (!problems.has(p)) problems.set(p, op.operationId);
    }
    process.stderr.write(`round ${round}: ${cases} cases, ${problems.size} problems\n`);
  }
} finally {
  await t.close();
}
process.stdout.write(`fuzzed ${operations.length} operations for ${opts.minutes} min: ${cases} cases in ${round} rounds, ${problems.size} distinct problems\n`);
for (const p of problems.keys()) process.stdout.write(`- ${p}\n`);
process.exit(problems.size > 0 ? 1 : 0);
