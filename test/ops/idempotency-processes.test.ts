/**
 * `Idempotency-Key` and signature version 2 across real processes (decisions §14, §15;
 * docs/api.md#idempotent-retries): two `bin/bizapi serve` child processes on the test database (a SQLite
 * file, or the PostgreSQL database of the run). 50 simultaneous requests with one key, spread over both
 * processes, create exactly one record; a version-2 signature accepted by one process is refused by the other.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signV2 } from '../../src/modules/auth/hmac.ts';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness } from '../setup/factories.ts';
import { type BizapiProcess, type Outcome, request, startServer as startProcess } from '../setup/server-process.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let t: TestApp;
let dataDir: string;
beforeAll(async () => {
  t = await buildTestApp();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bizapi-idempotency-processes-'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Starts `bin/bizapi serve` on a random port of 127.0.0.1, on the test database, with `env` added. */
function startServer(env: Record<string, string>): Promise<BizapiProcess> {
  return startProcess({ databaseUrl: t.testDb.url, dataDir, env });
}

describe('two server processes on one database', () => {
  it('50 simultaneous requests with one Idempotency-Key create one record; a v2 signature is accepted once', async () => {
    const [one, two] = await Promise.all([startServer({}), startServer({})]);
    try {
      const b = await newBusiness(t);
      const key = `cross-process-${Date.now()}`;
      const body = { companyName: 'Across processes' };
      const outcomes = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          request(i % 2 === 0 ? one.port : two.port, b, 'POST', '/v1/client', body, undefined, {
            'idempotency-key': key,
          }),
        ),
      );
      const ok = outcomes.filter((o): o is Extract<Outcome, { status: number }> => 'status' in o);
      expect(ok).toHaveLength(50);
      expect(ok.every((o) => o.status === 201 || o.status === 409)).toBe(true);
      const originals = ok.filter((o) => o.status === 201 && o.headers['idempotent-replayed'] === undefined);
      expect(originals).toHaveLength(1);
      for (const o of ok.filter((x) => x.status === 201)) expect(o.body).toBe(originals[0]!.body);
      // Once settled, every retry on either process is the stored answer.
      for (const port of [one.port, two.port]) {
        const again = await request(port, b, 'POST', '/v1/client', body, undefined, { 'idempotency-key': key });
        expect('status' in again && again.status === 201 && again.headers['idempotent-replayed'] === 'true').toBe(true);
      }
      const count = await t.testDb.db
        .selectFrom('client')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('business_id', '=', b.businessId)
        .where('company_name', '=', 'Across processes')
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(1);

      const ts = String(Math.floor(Date.now() / 1000));
      const v2 = {
        'x-signature-timestamp': ts,
        'x-signature': `v2=${signV2(b.secretKey, ts, 'GET', '/v1/folder', '')}`,
      };
      const first = await request(one.port, b, 'GET', '/v1/folder', undefined, undefined, v2);
      const replay = await request(two.port, b, 'GET', '/v1/folder', undefined, undefined, v2);
      expect('status' in first && first.status).toBe(200);
      expect('status' in replay && replay.status).toBe(403);
      expect('status' in replay && JSON.parse(replay.body).code).toBe('signature_replayed');
    } finally {
      await Promise.all([one.stop(), two.stop()]);
    }
  });
});
