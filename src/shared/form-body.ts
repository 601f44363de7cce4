/**
 * The two form encodings the API accepts (`application/x-www-form-urlencoded`, `multipart/form-data`) turned into
 * the same objects a JSON body gives (docs/api.md#requests):
 * `client.id=5` and `client[id]=5` → `{client: {id: "5"}}`; `inChargeSet[0].id=3` and `inChargeSet[0][id]=3`
 * → `{inChargeSet: [{id: "3"}]}`. Values stay strings; the body validator coerces them to the schema's types
 * (see validation-errors.ts), which is why parsed form bodies are marked with {@link isFormBody}.
 */
import { Busboy, type BusboyInstance } from '@fastify/busboy';
import qs from 'qs';
import { ParseError } from './errors.ts';

const formBodies = new WeakSet<object>();

/** Whether `value` came from a form encoding (and so holds strings to coerce). */
export function isFormBody(value: unknown): boolean {
  return typeof value === 'object' && value !== null && formBodies.has(value);
}

/** The most entries of one list a form may address (the API's list properties hold at most 100; docs/api.md#limits). */
const MAX_LIST_INDEX = 100;

/**
 * Parses an urlencoded body into nested objects and arrays. A repeated plain key keeps its last value.
 * @throws ParseError when the nesting is deeper than 5 levels or has more than 1000 parameters
 */
export function parseUrlEncoded(text: string): Record<string, unknown> {
  let parsed: Record<string, unknown>;
  try {
    parsed = qs.parse(text, {
      allowDots: true,
      arrayLimit: MAX_LIST_INDEX,
      depth: 5,
      strictDepth: true,
      parameterLimit: 1000,
      throwOnLimitExceeded: true,
      duplicates: 'last',
      allowPrototypes: false,
    }) as Record<string, unknown>;
  } catch (err) {
    throw new ParseError(`Form parse error - ${(err as Error).message}`);
  }
  formBodies.add(parsed);
  return parsed;
}

/**
 * Parses a buffered `multipart/form-data` body. Text fields are read like urlencoded pairs; file parts are
 * not accepted here (inquiry files go through `POST /v1/presigned`).
 * @throws ParseError when the body is not valid multipart or carries a file part
 */
export function parseMultipart(body: Buffer, contentType: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const params = new URLSearchParams();
    let failed = false;
    const fail = (message: string) => {
      if (!failed) reject(new ParseError(`Multipart form parse error - ${message}`));
      failed = true;
    };
    let bb: BusboyInstance;
    try {
      bb = new Busboy({ headers: { 'content-type': contentType }, limits: { fields: 1000, fieldSize: 1024 * 1024 } });
    } catch (err) {
      fail((err as Error).message);
      return;
    }
    bb.on('field', (name: string, value: string) => params.append(name, value));
    bb.on('file', (name: string, stream: NodeJS.ReadableStream) => {
      stream.resume();
      fail(`File part "${name}" is not accepted; upload files through POST /v1/presigned.`);
    });
    bb.on('error', (err: Error) => fail(err.message));
    bb.on('finish', () => {
      if (failed) return;
      try {
        resolve(parseUrlEncoded(params.toString()));
      } catch (err) {
        fail((err as Error).message);
      }
    });
    bb.end(body);
  });
}
