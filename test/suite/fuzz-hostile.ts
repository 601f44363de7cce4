/**
 * Hostile shapes for the fuzzing of one documented operation (issue 13): bodies of up to 1 MiB built to
 * cost the server work (lists of thousands of items in every list property, wide objects, nesting thousands
 * of levels deep, long strings), text that is not UTF-8 or holds lone surrogates, odd `Host` headers, body
 * encodings and path ids. Every answer must be a 4xx (or a success), never a 5xx, and conform to the
 * document; a page link or a pre-signed URL must never read `http:///`; a path id that is not plain decimal
 * must answer 404. Used by `npm run fuzz` (fuzz-campaign.ts) and, bounded, by fuzz.test.ts.
 */
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { signBody } from '../../src/modules/auth/hmac.ts';
import { checkResponse, type DocOperation, type Document, type JsonSchema } from '../setup/openapi-document.ts';
import type { Credentials } from '../setup/signed-request.ts';
import { fillPath, type Records } from './fuzz-targets.ts';
import { apiClient } from '../setup/api-client.ts';

/** What one run produced: the number of requests, the count by status class, the distinct problems. */
export interface HostileReport {
  cases: number;
  byClass: Record<'2xx' | '3xx' | '4xx' | '5xx', number>;
  problems: string[];
}

/** The list properties of a request schema (top level), and its string properties. */
function propertiesOf(schema: JsonSchema | undefined): { lists: string[]; strings: string[] } {
  const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>;
  const typeOf = (s: JsonSchema) => (Array.isArray(s.type) ? (s.type as string[]) : [s.type as string]);
  return {
    lists: Object.entries(properties)
      .filter(([, s]) => typeOf(s).includes('array'))
      .map(([k]) => k),
    strings: Object.entries(properties)
      .filter(([, s]) => typeOf(s).includes('string'))
      .map(([k]) => k),
  };
}

/** A JSON body text of about `bytes` bytes, of one hostile shape. */
function hostileBody(shape: string, key: string, size: number): string | Buffer {
  switch (shape) {
    case 'zeros':
      return `{"${key}": [${Array(size).fill('0').join(',')}]}`;
    case 'objects':
      return `{"${key}": [${Array(size).fill('{"id":"x","field":{"id":[]}}').join(',')}]}`;
    case 'lists':
      return `{"${key}": [${Array(size).fill('[[[]]]').join(',')}]}`;
    case 'wide':
      return `{${Array.from({ length: size }, (_, i) => `"k${i}":${i}`).join(',')}}`;
    case 'deepArray':
      return `{"${key}": ${'['.repeat(size)}${']'.repeat(size)}}`;
    case 'deepObject':
      return `${'{"a":'.repeat(size)}1${'}'.repeat(size)}`;
    case 'longString':
      return JSON.stringify({ [key]: 'x'.repeat(size * 20) });
    case 'badUtf8':
      return Buffer.concat([
        Buffer.from(`{"${key}": "`),
        Buffer.from([0xff, 0xc0, 0xaf, 0xed, 0xa0, 0x80]),
        Buffer.from('"}'),
      ]);
    case 'loneSurrogate':
      return `{"${key}": "a\\ud800b\\udfff"}`;
    case 'nul':
      return `{"${key}": "a\\u0000b"}`;
    default:
      throw new Error(shape);
  }
}

const SHAPES = [
  'zeros',
  'objects',
  'lists',
  'wide',
  'deepArray',
  'deepObject',
  'longString',
  'badUtf8',
  'loneSurrogate',
  'nul',
] as const;
const HOSTS = ['a b', '[::1', 'x.example:99999', 'evil.example', 'x@y', 'x.example/path', '[::1]:8000', 'EXAMPLE.COM.'];
const ENCODINGS = ['gzip', 'br', 'deflate', 'compress', 'identity, gzip', 'x-unknown'];
const PATH_IDS = (id: number) => [
  `0${id}`,
  `${id}.0`,
  `${id}e0`,
  `0x${id.toString(16)}`,
  `+${id}`,
  `%3${String(id)[0]}${String(id).slice(1)}`,
  ` ${id}`,
];

/**
 * Sends the hostile shapes to one operation (`runs` random cases per property, seeded).
 * @param records seeded record ids (fuzz-targets.ts)
 */
export async function fuzzHostile(
  app: FastifyInstance,
  creds: Credentials,
  doc: Document,
  op: DocOperation,
  opts: { runs: number; seed?: number; records: Records },
): Promise<HostileReport> {
  const report: HostileReport = { cases: 0, byClass: { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 }, problems: [] };
  const problems = new Set<string>();
  const url = fillPath(op.path, opts.records);
  const exchange = async (
    label: string,
    req: { url?: string; payload?: string | Buffer; headers?: Record<string, string> },
  ) => {
    const payload = req.payload;
    const headers: Record<string, string> = {
      'x-api-key': creds.apiKey,
      'x-signature': signBody(creds.secretKey, payload ?? ''),
      ...(payload !== undefined && { 'content-type': 'application/json' }),
      ...req.headers,
    };
    const target = req.url ?? url;
    const res = await apiClient(app).raw(undefined, {
      method: op.method,
      url: target,
      ...(payload !== undefined && { raw: { payload } }),
      headers,
    });
    report.cases += 1;
    report.byClass[`${Math.floor(res.statusCode / 100)}xx` as keyof HostileReport['byClass']] += 1;
    const where = `${op.method} ${op.path} [${label}]`;
    if (res.statusCode >= 500) problems.add(`${where}: answered ${res.statusCode} ${res.body.slice(0, 200)}`);
    if (res.body.includes('http:///')) problems.add(`${where}: a link without a host`);
    for (const p of checkResponse(doc, op.method, target.split('?')[0]!, res.statusCode, res.body))
      problems.add(`${where}: ${p}`);
    return res;
  };
  const params = { numRuns: opts.runs, seed: opts.seed, endOnFailure: false };
  const { lists, strings } = propertiesOf(op.requestSchema);

  if (op.requestSchema) {
    const keys = [...lists, ...strings, 'unknownProperty'];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...SHAPES),
        fc.constantFrom(...keys),
        fc.integer({ min: 1_001, max: 60_000 }),
        async (shape, key, size) => {
          // Deep shapes go from just past the limit (33) to 100,000 levels; the others stay within 1 MiB.
          const n = shape.startsWith('deep')
            ? Math.min(size * 2, 100_000)
            : shape === 'objects'
              ? Math.min(size, 30_000)
              : size;
          const res = await exchange(`${shape} ${key} ×${n}`, { payload: hostileBody(shape, key, n) });
          if (res.statusCode < 400 && shape !== 'longString')
            problems.add(`${op.method} ${op.path} [${shape} ${key}]: accepted (${res.statusCode})`);
        },
      ),
      params,
    );
    for (const coding of ENCODINGS) {
      const res = await exchange(`Content-Encoding ${coding}`, {
        payload: '{}',
        headers: { 'content-encoding': coding },
      });
      if (res.statusCode !== 415 && res.statusCode !== 401 && res.statusCode !== 403)
        problems.add(`${op.method} ${op.path} [Content-Encoding ${coding}]: ${res.statusCode}, not 415`);
    }
  }
  for (const host of HOSTS)
    await exchange(`Host ${host}`, { payload: op.requestSchema ? '{}' : undefined, headers: { host } });
  for (const p of op.pathParams) {
    const collection = op.path.slice(0, op.path.indexOf(`/{${p}}`));
    const id = opts.records[collection];
    if (id === undefined) continue;
    for (const bad of PATH_IDS(id)) {
      const target = op.path.replace(/\{(\w+)\}/g, (_m, q: string) =>
        q === p
          ? bad.replace(' ', '%20')
          : String(opts.records[op.path.slice(0, op.path.indexOf(`/{${q}}`))] ?? 2_147_483_000),
      );
      const res = await exchange(`path ${p}=${bad}`, { url: target, payload: op.requestSchema ? '{}' : undefined });
      if (res.statusCode !== 404)
        problems.add(`${op.method} ${op.path} [path ${p}=${bad}]: ${res.statusCode}, not 404`);
    }
  }
  report.problems = [...problems];
  return report;
}
