/**
 * The receivers of docs/webhooks.md#receivers as real processes: `node examples/webhook-receiver.mjs` and
 * `python3 examples/webhook_receiver.py`, each on a free loopback port with one secret. Deliveries are signed
 * here with the `standardwebhooks` package (`Webhook.sign`), as the server signs them
 * (docs/webhooks.md#signatures): a correct one is answered 204 and printed once; a repeat of its
 * `webhook-id` is answered 204 and not printed again; a rotation's two signatures verify; a tampered body,
 * another secret, a changed id or timestamp, a stale or future timestamp, a missing header or another
 * signature version are answered 400 and printed nothing.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const hasPython = spawnSync('python3', ['--version']).status === 0;

/** A receiver process: its URL, the JSON lines it printed, and a way to stop it. */
interface Receiver {
  url: string;
  /** The events printed once at least `n` are (the process prints after answering), at most 10 s. */
  printed: (n: number) => Promise<{ webhookId: string; event: unknown }[]>;
  stop: () => Promise<void>;
}

async function startReceiver(command: string, args: string[], secret: string): Promise<Receiver> {
  const child: ChildProcess = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, WEBHOOK_SECRET: secret, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const deadline = Date.now() + 20_000;
  let url: string | undefined;
  while (url === undefined) {
    url = /^listening on (http:\/\/\S+)$/m.exec(stdout)?.[1];
    if (child.exitCode !== null)
      throw new Error(`${command} ${args.join(' ')} exited with ${child.exitCode}:\n${stderr}`);
    if (Date.now() > deadline) throw new Error(`${command} ${args.join(' ')} did not listen within 20 s:\n${stderr}`);
    if (url === undefined) await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    printed: async (n) => {
      const lines = () =>
        stdout
          .split('\n')
          .slice(1)
          .filter((line) => line.trim() !== '');
      for (const until = Date.now() + 10_000; lines().length < n && Date.now() < until;)
        await new Promise((r) => setTimeout(r, 20));
      return lines().map((line) => JSON.parse(line) as { webhookId: string; event: unknown });
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
      }),
  };
}

const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/** The headers of a delivery signed with each secret (two secrets: a rotation), as the server sends them. */
function signed(secrets: string[], id: string, body: string, at = new Date()): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(id, at, body)).join(' '),
  };
}

const receivers = [
  {
    name: 'Node (examples/webhook-receiver.mjs)',
    command: process.execPath,
    args: ['examples/webhook-receiver.mjs'],
    skip: false,
  },
  {
    name: 'Python (examples/webhook_receiver.py)',
    command: 'python3',
    args: ['examples/webhook_receiver.py'],
    skip: !hasPython,
  },
];

describe.each(receivers)('$name', ({ command, args, skip }) => {
  const secret = newSecret();
  let r: Receiver;
  beforeAll(async () => {
    if (!skip) r = await startReceiver(command, args, secret);
  });
  afterAll(async () => {
    await r?.stop();
  });

  const post = async (headers: Record<string, string>, body: string) =>
    (await fetch(r.url, { method: 'POST', headers, body })).status;
  const event = (id: number) => ({
    id,
    type: 'client.updated',
    created: new Date().toISOString(),
    changedFields: ['companyName'],
    data: { id: 42, companyName: `Ünïcode 한빛 ${id}` },
  });

  it.skipIf(skip)(
    'accepts a correctly signed delivery once, prints it, and drops a repeat of its webhook-id',
    async () => {
      const body = JSON.stringify(event(9001));
      const headers = signed([secret], '9001', body);
      expect(await post(headers, body)).toBe(204);
      expect(await r.printed(1)).toEqual([{ webhookId: '9001', event: JSON.parse(body) }]);
      // The same delivery again (a retry after a lost answer), and later re-signed: 204, nothing printed —
      // the next new delivery is the next line.
      expect(await post(headers, body)).toBe(204);
      expect(await post(signed([secret], '9001', body, new Date(Date.now() - 60_000)), body)).toBe(204);
      const next = JSON.stringify(event(9002));
      expect(await post(signed([secret], '9002', next), next)).toBe(204);
      expect((await r.printed(2)).map((p) => p.webhookId)).toEqual(['9001', '9002']);
    },
  );

  it.skipIf(skip)('accepts a rotation (two signatures: the new secret first or second)', async () => {
    const other = newSecret();
    const body = JSON.stringify(event(9003));
    expect(await post(signed([other, secret], '9003', body), body)).toBe(204);
    const body4 = JSON.stringify(event(9004));
    expect(await post(signed([secret, other], '9004', body4), body4)).toBe(204);
    expect((await r.printed(4)).map((p) => p.webhookId)).toEqual(['9001', '9002', '9003', '9004']);
  });

  it.skipIf(skip)('refuses with 400 what does not verify, and prints nothing for it', async () => {
    const body = JSON.stringify(event(9100));
    const good = signed([secret], '9100', body);
    const refusals: [string, Record<string, string>, string][] = [
      ['a tampered body', good, body.replace('9100', '9101')],
      ['a re-serialised body', good, JSON.stringify(JSON.parse(body), null, 1)],
      ['another secret', signed([newSecret()], '9100', body), body],
      ['another webhook-id', { ...good, 'webhook-id': '9102' }, body],
      ['another timestamp', { ...good, 'webhook-timestamp': String(Number(good['webhook-timestamp']) - 1) }, body],
      ['a stale timestamp', signed([secret], '9100', body, new Date(Date.now() - 10 * 60_000)), body],
      ['a future timestamp', signed([secret], '9100', body, new Date(Date.now() + 10 * 60_000)), body],
      ['another version', { ...good, 'webhook-signature': good['webhook-signature']!.replace('v1,', 'v2,') }, body],
      ['no signature', { ...good, 'webhook-signature': '' }, body],
    ];
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      const { [name]: _dropped, ...rest } = good;
      refusals.push([`no ${name}`, rest, body]);
    }
    for (const [what, headers, sent] of refusals) {
      expect({ what, status: await post(headers, sent) }).toEqual({ what, status: 400 });
    }
    // The genuine delivery still goes through after all that (nothing refused was remembered as seen), and
    // is the next line printed (nothing refused was printed).
    expect(await post(good, body)).toBe(204);
    expect((await r.printed(5)).map((p) => p.webhookId)).toEqual(['9001', '9002', '9003', '9004', '9100']);
  });

  it.skipIf(skip)('answers 405 to anything but POST', async () => {
    expect((await fetch(r.url)).status).toBe(405);
  });
});
