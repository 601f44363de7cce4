// Vitest: every test file under test/, on SQLite by default and on PostgreSQL when DATABASE_URL is set.
import { defineConfig } from 'vitest/config';
import { TEST_WORKERS } from './test/setup/test-workers.ts';

// `@bizapi/client` and `@bizapi/mcp` (the sdk/ and mcp/ workspaces) resolve to their TypeScript sources (the `bizapi-source` export
// condition, as in tsconfig.json and bin/bizapi), so tests never run a stale sdk/dist or mcp/dist.
const conditions = ['bizapi-source', 'node', 'development|production'];

export default defineConfig({
  ssr: { resolve: { conditions, externalConditions: ['bizapi-source'] } },
  test: {
    include: ['test/**/*.test.ts', 'sdk/test/**/*.test.ts', 'mcp/test/**/*.test.ts', 'examples/test/**/*.test.ts'],
    globalSetup: ['test/setup/global-setup.ts'],
    setupFiles: ['test/setup/worker-database.ts'],
    // Files at once (test/setup/test-workers.ts): most of the suite's time is waiting, not CPU.
    maxWorkers: TEST_WORKERS,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // No load shedding in tests (servers started as child processes inherit this): an in-process app shares
    // its event loop with the test code, and a loaded CI machine lags; test/ops/limits.test.ts turns it on.
    env: { BIZAPI_MAX_EVENT_LOOP_DELAY: '0' },
  },
});
