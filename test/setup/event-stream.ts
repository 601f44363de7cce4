/**
 * A client of the feed's Server-Sent Events stream (`GET /v1/event/stream`, docs/api.md#stream) over real HTTP,
 * signed like any GET: it parses the messages as they arrive and keeps them, with the comments (heartbeats).
 */
import http from 'node:http';
import { signBody } from '../../src/modules/auth/hmac.ts';
import type { Credentials } from './signed-request.ts';

/** One message of the stream: its `id:`, `event:` and parsed `data:`. */
export interface StreamMessage {
  id: string;
  event: string;
  data: any;
}

/** An open stream. */
export interface EventStream {
  /** The status and headers once they came. */
  response: Promise<http.IncomingMessage>;
  messages: StreamMessage[];
  /** The comment lines (`: ping`, `: stream open`), without the colon and space. */
  comments: string[];
  /** The raw text received so far. */
  text(): string;
  /** Resolves when the server ended the response (true) or the connection failed (false). */
  ended: Promise<boolean>;
  /** Resolves once `n` messages arrived (rejects after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<StreamMessage[]>;
  /** Closes the connection (the client goes away). */
  close(): void;
}

/**
 * Opens `GET path` on 127.0.0.1:`port` as `creds` (no key when undefined), `headers` added.
 */
export function openEventStream(
  port: number,
  creds: Credentials | undefined,
  path: string,
  headers: Record<string, string> = {},
): EventStream {
  const messages: StreamMessage[] = [];
  const comments: string[] = [];
  let raw = '';
  let buffer = '';
  const waiters: (() => void)[] = [];
  const all: Record<string, string> = { accept: 'text/event-stream', ...headers };
  if (creds) Object.assign(all, { 'x-api-key': creds.apiKey, 'x-signature': signBody(creds.secretKey, '') });
  let resolveEnded: (ended: boolean) => void = () => undefined;
  const ended = new Promise<boolean>((resolve) => (resolveEnded = resolve));
  const req = http.request({ host: '127.0.0.1', port, method: 'GET', path, headers: all, agent: false });
  const response = new Promise<http.IncomingMessage>((resolve, reject) => {
    req.on('response', (res) => {
      resolve(res);
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        raw += chunk;
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const fields: Record<string, string> = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else {
              const colon = line.indexOf(':');
              fields[line.slice(0, colon)] = line.slice(colon + 1).replace(/^ /, '');
            }
          }
          if (fields.data !== undefined)
            messages.push({ id: fields.id ?? '', event: fields.event ?? '', data: JSON.parse(fields.data) });
        }
        for (const w of waiters.splice(0)) w();
      });
      res.on('end', () => resolveEnded(true));
      res.on('error', () => resolveEnded(false));
    });
    req.on('error', (err) => {
      resolveEnded(false);
      reject(err);
    });
  });
  response.catch(() => undefined);
  req.end();
  return {
    response,
    messages,
    comments,
    text: () => raw,
    ended,
    async waitFor(n, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < n) {
        if (Date.now() > deadline)
          throw new Error(`the stream sent ${messages.length} of ${n} messages in ${timeoutMs} ms:\n${raw}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return messages.slice(0, n);
    },
    close: () => req.destroy(),
  };
}
