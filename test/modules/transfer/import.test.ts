/**
 * `bizapi import --from URL` end to end (docs/deployment.md#11-moving-a-business-in-and-out, decisions §16):
 * a real source server (`bizapi serve` on its own SQLite file, the demo business plus generated data of every
 * resource), the import as a process into a fresh target (the database under test: a SQLite file, or a
 * schema of its own on PostgreSQL), then a target server answering the same JSON as the source.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runUntilExit, startBizapi } from '../../setup/server-process.ts';
import {
  attachmentBytes,
  caller,
  generateData,
  type Keys,
  snapshot,
  type SourceServer,
  startSource,
} from '../../setup/transfer-source.ts';
import { businesses, freshTarget, runImport, type Target, targetEnv } from '../../setup/transfer-target.ts';

const envOf = (t: Target) => targetEnv(t);

/** Serves the target while `fn` runs. */
async function withTargetServer<T>(t: Target, fn: (baseUrl: string) => Promise<T>): Promise<T> {
  const server = await startBizapi(['serve'], envOf(t));
  try {
    return await fn(`http://127.0.0.1:${server.port}`);
  } finally {
    await server.stop();
  }
}

/** The paths whose JSON differs between two snapshots (a short failure message before the full diff). */
function differing(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}

/** Every count of an answer is `unchanged` (read = unchanged, nothing created or updated). */
function expectAllUnchanged(answer: any): void {
  for (const [type, c] of Object.entries(answer.counts) as [string, any][]) {
    expect({ type, created: c.created, updated: c.updated, unchanged: c.unchanged }).toEqual({
      type,
      created: 0,
      updated: 0,
      unchanged: c.read,
    });
  }
}

let source: SourceServer;
let sourceSnapshot: Record<string, unknown>;
let sourceFiles: Record<string, string>;

beforeAll(async () => {
  source = await startSource();
  const api = caller(source.baseUrl, source.keys);
  await generateData(api, 2);
  sourceSnapshot = await snapshot(api);
  sourceFiles = await attachmentBytes(api);
}, 180_000);

afterAll(async () => {
  await source?.stop();
});

describe('bizapi import --from', () => {
  it('imports every resource with its ids: the same JSON on target and source, attachment bytes equal; a second run changes nothing', async () => {
    const t = await freshTarget();
    try {
      const first = await runImport(t, source.baseUrl, source.keys);
      expect(first.code, first.stderr).toBe(0);
      expect(first.answer.warnings).toEqual([]);
      expect(first.answer.idsChanged).toEqual({});
      expect(first.answer.dryRun).toBe(false);
      expect(first.answer.files.downloaded).toBeGreaterThan(0);
      for (const type of [
        'member',
        'folder',
        'inquiry_status',
        'client_status',
        'field',
        'contract_category',
        'settlement_type',
        'estimate_item_classification',
        'worker_position',
        'client',
        'inquiry',
        'inquiry.text_history',
        'inquiry.email_history',
        'inquiry.email_reply_history',
        'inquiry.status_history',
        'inquiry.folder_history',
        'inquiry.submit_history',
        'contract',
        'contract.history',
        'settlement',
        'settlement.history',
        'project',
        'worker',
        'todo',
        'estimate.item',
      ]) {
        expect(first.answer.counts[type]?.read, type).toBeGreaterThan(0);
        expect(first.answer.counts[type].created, type).toBe(first.answer.counts[type].read);
      }
      const keys: Keys = { apiKey: first.answer.apiKey, secretKey: first.answer.secretKey };
      await withTargetServer(t, async (baseUrl) => {
        const api = caller(baseUrl, keys);
        const got = await snapshot(api);
        expect(differing(got, sourceSnapshot)).toEqual([]);
        expect(got).toEqual(sourceSnapshot);
        expect(await attachmentBytes(api)).toEqual(sourceFiles);
      });

      const second = await runImport(t, source.baseUrl, source.keys);
      expect(second.code, second.stderr).toBe(0);
      expect(second.answer.business.id).toBe(first.answer.business.id);
      expect(second.answer.apiKey).toBeUndefined();
      expectAllUnchanged(second.answer);
      expect(second.answer.files.downloaded).toBe(0);
      const list = await businesses(t);
      expect(list).toHaveLength(1);
      expect(list[0].importedFrom).toMatchObject({
        url: source.baseUrl,
        apiKeyPrefix: source.keys.apiKey.slice(0, 10),
        complete: true,
      });
    } finally {
      await t.drop();
    }
  }, 300_000);

  it('into a target whose ids are partly taken: idsChanged lists exactly the moved records, and references follow them', async () => {
    const t = await freshTarget();
    try {
      // The target's own demo business takes the low ids of every table.
      const demo = await runUntilExit(['demo'], envOf(t));
      expect(demo.code, demo.stderr).toBe(0);
      const own = JSON.parse(demo.stdout) as Keys;
      const r = await runImport(t, source.baseUrl, source.keys);
      expect(r.code, r.stderr).toBe(0);
      const changed = r.answer.idsChanged as Record<string, Record<string, number>>;
      const keys: Keys = { apiKey: r.answer.apiKey, secretKey: r.answer.secretKey };
      await withTargetServer(t, async (baseUrl) => {
        const mine = caller(baseUrl, own);
        const api = caller(baseUrl, keys);
        for (const [type, list] of [
          ['client', '/v1/client'],
          ['inquiry', '/v1/inquiry'],
          ['contract', '/v1/contract'],
        ] as const) {
          const taken = new Set((await mine.all(list)).map((x) => x.id));
          const sourceIds = (sourceSnapshot[list] as { id: number }[]).map((x) => x.id);
          expect(
            Object.keys(changed[type] ?? {})
              .map(Number)
              .sort(),
            type,
          ).toEqual(sourceIds.filter((id) => taken.has(id)).sort());
        }
        const map = (type: string, id: number) => changed[type]?.[String(id)] ?? id;
        for (const s of sourceSnapshot['/v1/inquiry'] as any[]) {
          const target = await api.call('GET', `/v1/inquiry/${map('inquiry', s.id)}`);
          expect(target.name).toBe(s.name);
          expect(target.client?.id ?? null).toBe(s.client ? map('client', s.client.id) : null);
          expect(target.status?.id ?? null).toBe(s.status ? map('inquiry_status', s.status.id) : null);
          expect(target.inChargeSet.map((m: any) => m.id)).toEqual(s.inChargeSet.map((m: any) => map('member', m.id)));
        }
        for (const s of sourceSnapshot['/v1/contract'] as any[]) {
          const target = await api.call('GET', `/v1/contract/${map('contract', s.id)}`);
          expect(target.title).toBe(s.title);
          expect(target.inquiry?.id ?? null).toBe(s.inquiry ? map('inquiry', s.inquiry.id) : null);
          expect(target.client?.id ?? null).toBe(s.client ? map('client', s.client.id) : null);
        }
        // The target's own business is untouched.
        expect((await mine.all('/v1/client')).length).toBeGreaterThan(0);
      });
    } finally {
      await t.drop();
    }
  }, 300_000);

  it('--dry-run reads everything and writes nothing; a wrong secret stops with a clear message, exit 1, nothing written', async () => {
    const t = await freshTarget();
    try {
      const dry = await runImport(t, source.baseUrl, source.keys, ['--dry-run']);
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.answer.dryRun).toBe(true);
      expect(dry.answer.counts.client.read).toBeGreaterThan(0);
      expect(dry.answer.counts.client.created).toBe(0);
      expect(dry.answer.files.downloaded).toBeGreaterThan(0);
      expect(await businesses(t)).toEqual([]);

      const wrong = await runImport(t, source.baseUrl, { apiKey: source.keys.apiKey, secretKey: 'not-the-secret' });
      expect(wrong.code).toBe(1);
      expect(wrong.stdout).toBe('');
      expect(wrong.stderr).toMatch(
        /GET http:\/\/127\.0\.0\.1:\d+\/v1\/client\?page_size=1 answered 403 signature_invalid/,
      );
      expect(await businesses(t)).toEqual([]);
    } finally {
      await t.drop();
    }
  }, 180_000);

  it('killed (SIGKILL) at three points and run again: the same end state as an uninterrupted import; a second full run changes nothing', async () => {
    const t = await freshTarget();
    try {
      const args = [
        'import',
        '--from',
        source.baseUrl,
        '--api-key',
        source.keys.apiKey,
        '--secret-key',
        source.keys.secretKey,
        '--rate',
        '3000',
      ];
      for (const ms of [700, 1500, 2500]) {
        const child: ChildProcess = spawn(process.execPath, [BIN, ...args], { env: envOf(t), stdio: 'ignore' });
        const exited = new Promise((resolve) => child.once('exit', resolve));
        await new Promise((r) => setTimeout(r, ms));
        child.kill('SIGKILL');
        await exited;
      }
      const list = await businesses(t);
      expect(list.length).toBeLessThanOrEqual(1);
      // The key may not have been printed before the kill: a new one for the business.
      const rest = await runImport(t, source.baseUrl, source.keys);
      expect(rest.code, rest.stderr).toBe(0);
      let keys: Keys = rest.answer.apiKey
        ? { apiKey: rest.answer.apiKey, secretKey: rest.answer.secretKey }
        : (undefined as never);
      if (!keys) {
        const k = await runUntilExit(['key', 'create', '--business', String(rest.answer.business.id)], envOf(t));
        keys = JSON.parse(k.stdout);
      }
      expect(await businesses(t)).toHaveLength(1);
      await withTargetServer(t, async (baseUrl) => {
        const api = caller(baseUrl, keys);
        const got = await snapshot(api);
        expect(differing(got, sourceSnapshot)).toEqual([]);
        expect(got).toEqual(sourceSnapshot);
        expect(await attachmentBytes(api)).toEqual(sourceFiles);
      });
      const again = await runImport(t, source.baseUrl, source.keys);
      expect(again.code, again.stderr).toBe(0);
      expectAllUnchanged(again.answer);
    } finally {
      await t.drop();
    }
  }, 300_000);

  it('through a proxy answering 429 with Retry-After, 503 and dropped connections now and then: completes, never faster than its rate', async () => {
    const t = await freshTarget();
    const target = new URL(source.baseUrl);
    const forwarded: number[] = [];
    let n = 0;
    const faults = { 429: 0, 503: 0, drop: 0 };
    // Two of each fault, early on, so that the run also shows it keeps its pace after them.
    const proxy = http.createServer((req, res) => {
      n++;
      const faulty = faults[429] + faults[503] + faults.drop < 6;
      if (faulty && n % 17 === 5) {
        faults[429]++;
        res
          .writeHead(429, { 'Retry-After': '1', 'Content-Type': 'application/json' })
          .end('{"detail":"Request was throttled.","code":"throttled"}');
        return;
      }
      if (faulty && n % 17 === 11) {
        faults[503]++;
        res.writeHead(503, { 'Retry-After': '1' }).end();
        return;
      }
      if (faulty && n % 17 === 14) {
        faults.drop++;
        req.socket.destroy();
        return;
      }
      forwarded.push(Date.now());
      const up = http.request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: target.host },
        },
        (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        },
      );
      up.on('error', () => res.destroy());
      req.pipe(up);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const port = (proxy.address() as { port: number }).port;
    try {
      const rate = 3000;
      const r = await runUntilExit(
        [
          'import',
          '--from',
          `http://127.0.0.1:${port}`,
          '--api-key',
          source.keys.apiKey,
          '--secret-key',
          source.keys.secretKey,
          '--rate',
          String(rate),
        ],
        envOf(t),
      );
      expect(r.code, r.stderr).toBe(0);
      const answer = JSON.parse(r.stdout);
      expect(answer.warnings).toEqual([]);
      expect(faults).toEqual({ 429: 2, 503: 2, drop: 2 });
      // Pacing: requests start at least 60000 / rate ms apart, so no second holds more than rate / 60 (+ 2 for network jitter).
      const perSecond = rate / 60;
      for (let i = 0; i < forwarded.length; i++) {
        const inWindow = forwarded.filter((at) => at >= forwarded[i]! && at < forwarded[i]! + 1000).length;
        expect(inWindow).toBeLessThanOrEqual(perSecond + 2);
      }
      // The answer holds every record (the counts of the run without faults).
      expect(answer.counts.client.created).toBe((sourceSnapshot['/v1/client'] as unknown[]).length);
      expect(answer.counts.inquiry.created).toBe((sourceSnapshot['/v1/inquiry'] as unknown[]).length);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
      await t.drop();
    }
  }, 300_000);
});
