#!/usr/bin/env node
/**
 * A bizapi webhook receiver in plain Node.js (20+), with `node:crypto` only: no package to install
 * (docs/webhooks.md#receivers). It verifies each delivery's Standard Webhooks signature over the exact body
 * bytes (docs/webhooks.md#signatures), drops repeats by `webhook-id` (delivery is at least once,
 * docs/webhooks.md#delivery), and prints every new event as one JSON line on standard output.
 *
 *   WEBHOOK_SECRET=whsec_… PORT=3000 node examples/webhook-receiver.mjs
 *
 * Answers: 204 for a verified delivery (also for a repeat, so that the server stops retrying it), 400 when the
 * signature does not verify, 405 for anything but POST, 413 above 5 MiB. `HOST` defaults to 127.0.0.1;
 * `PORT=0` takes a free port. The first line on standard output is `listening on http://HOST:PORT/`.
 *
 * With the `standardwebhooks` package the check is one line, `new Webhook(secret).verify(body, headers)`;
 * with the bizapi SDK, `await verifyWebhook(secret, headers, body)`. This file shows what both do.
 */
import { Buffer } from 'node:buffer';
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { pathToFileURL } from 'node:url';

const TOLERANCE_SECONDS = 300;
const MAX_BODY_BYTES = 5 * 1024 * 1024;
const REMEMBERED_IDS = 10_000;

/**
 * Checks one delivery (docs/webhooks.md#signatures): the three headers are present, `webhook-timestamp` is
 * within 5 minutes of now, and one of the space-separated `v1,<base64>` signatures of `webhook-signature`
 * (two during a rotation) is the HMAC-SHA256 of `"{webhook-id}.{webhook-timestamp}.{body}"`, keyed with the
 * base64-decoded part of the secret after `whsec_`.
 * @param {string} secret `whsec_…`
 * @param {import('node:http').IncomingHttpHeaders} headers
 * @param {Buffer} body the exact bytes received
 * @returns {string | null} null when the delivery verifies, otherwise why not
 */
export function checkSignature(secret, headers, body) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string')
    return 'missing webhook headers';
  if (!/^\d{1,12}$/.test(timestamp)) return 'webhook-timestamp is not Unix seconds';
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS)
    return 'webhook-timestamp is too old or too new';
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
  for (const versioned of signatures.split(' ')) {
    const [version, signature] = versioned.split(',', 2);
    if (version !== 'v1' || signature === undefined) continue;
    const given = Buffer.from(signature, 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return null;
  }
  return 'no signature matches';
}

/**
 * A receiver: `onEvent(event, webhookId)` runs once per new verified delivery.
 * @param {string} secret
 * @param {(event: unknown, webhookId: string) => void} onEvent
 */
export function createReceiver(secret, onEvent) {
  /** The ids seen lately, oldest first (a database table with a unique key in a real service). */
  const seen = new Set();
  return http.createServer((req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        res.writeHead(413, { connection: 'close' }).end();
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const problem = checkSignature(secret, req.headers, body);
      if (problem !== null) {
        process.stderr.write(`refused a delivery: ${problem}\n`);
        return void res.writeHead(400, { 'content-type': 'text/plain' }).end(`${problem}\n`);
      }
      const id = String(req.headers['webhook-id']);
      if (seen.has(id)) {
        process.stderr.write(`dropped a repeat of ${id}\n`);
        return void res.writeHead(204).end();
      }
      let event;
      try {
        event = JSON.parse(body.toString('utf8'));
      } catch {
        return void res.writeHead(400, { 'content-type': 'text/plain' }).end('body is not JSON\n');
      }
      seen.add(id);
      if (seen.size > REMEMBERED_IDS) seen.delete(seen.values().next().value);
      // Answer fast (within the server's 10 s); do slow work after answering, or queue it.
      res.writeHead(204).end();
      onEvent(event, id);
    });
  });
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret?.startsWith('whsec_')) {
    process.stderr.write('Set WEBHOOK_SECRET to the endpoint secret (whsec_…).\n');
    process.exit(2);
  }
  const host = process.env.HOST ?? '127.0.0.1';
  const server = createReceiver(secret, (event, webhookId) =>
    process.stdout.write(`${JSON.stringify({ webhookId, event })}\n`),
  );
  server.listen(Number(process.env.PORT ?? 3000), host, () => {
    process.stdout.write(`listening on http://${host}:${server.address().port}/\n`);
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
}
