/**
 * Verify webhook deliveries (Standard Webhooks). Starts a receiver on PORT (default 3000) that answers 204 for
 * a delivery whose signature verifies with WEBHOOK_SECRET and 400 otherwise; with `--self-test` it sends
 * itself one signed and one tampered delivery and exits.
 *   WEBHOOK_SECRET=whsec_… npx tsx examples/verify-webhook.ts [--self-test]
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { signWebhook, verifyWebhook, WebhookVerificationError } from '../sdk/src/index.ts';
import { type Env, runIfMain } from './env.ts';

/** A receiver: verifies each delivery over its exact body bytes. */
export function receiver(secret: string, onEvent: (event: unknown) => void): http.Server {
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      verifyWebhook<unknown>(secret, req.headers, Buffer.concat(chunks)).then(
        (event) => {
          onEvent(event);
          res.writeHead(204).end();
        },
        (err: unknown) => res.writeHead(err instanceof WebhookVerificationError ? 400 : 500).end(),
      );
    });
  });
}

export async function main(env: Env, selfTest = process.argv.includes('--self-test')): Promise<unknown> {
  const secret =
    env.WEBHOOK_SECRET ??
    (selfTest ? `whsec_${Buffer.from('bizapi example webhook secret!!').toString('base64')}` : undefined);
  if (!secret) throw new Error('Set WEBHOOK_SECRET (whsec_…).');
  const events: unknown[] = [];
  const server = receiver(secret, (e) => events.push(e));
  await new Promise<void>((resolve) => server.listen(selfTest ? 0 : Number(env.PORT ?? 3000), '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  if (!selfTest) {
    process.stderr.write(`listening for webhooks on ${url}\n`);
    return new Promise(() => undefined);
  }
  const body = JSON.stringify({ type: 'inquiry.created', data: { id: 1 } });
  const good = await fetch(url, { method: 'POST', headers: await signWebhook(secret, body), body });
  const tampered = await fetch(url, {
    method: 'POST',
    headers: await signWebhook(secret, body),
    body: body.replace('1', '2'),
  });
  server.close();
  return { signed: good.status, tampered: tampered.status, events };
}

runIfMain(import.meta.url, main);
