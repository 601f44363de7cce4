/**
 * Webhook endpoints through HTTP (docs/webhooks.md): create / list / retrieve / update / delete, the secret
 * shown only on create and rotation (and stored sealed), URL safety (scheme, credentials, non-public and
 * unresolvable hosts; `BIZAPI_WEBHOOK_ALLOW_PRIVATE`), event type validation, tenant isolation, the test
 * ping (a published `webhook.test` event and one pending delivery) and the retry of a delivery.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { decryptSecret } from '../../../src/modules/auth/secret-box.ts';
import { checkWebhookUrl } from '../../../src/modules/webhook/url-safety.ts';
import { isPublicAddress } from '../../../src/shared/public-address.ts';
import { apiClient } from '../../setup/api-client.ts';
import { buildSiblingApp, buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';

/** `t.app` refuses non-public addresses; `open` (same database) allows them, as BIZAPI_WEBHOOK_ALLOW_PRIVATE=true does. */
let t: TestApp;
let open: FastifyInstance;
beforeAll(async () => {
  t = await buildTestApp({ BIZAPI_WEBHOOK_ALLOW_PRIVATE: 'false' });
  open = await buildSiblingApp(t, { BIZAPI_WEBHOOK_ALLOW_PRIVATE: 'true' });
});
afterAll(async () => {
  await open.close();
  await t.close();
});

const strict = apiClient(() => t.app);
const api = apiClient(() => open);

const SECRET = /^whsec_[A-Za-z0-9+/]{32}$/;
const URL_OK = 'http://127.0.0.1:9/hook';

async function newWebhook(b: TestBusiness, body: Record<string, unknown> = {}): Promise<any> {
  const res = await api.post(b, '/v1/webhook', { url: URL_OK, eventTypes: ['client.created'], ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const endpointRow = (id: number) =>
  t.testDb.db.selectFrom('webhook_endpoint').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('webhook endpoints', () => {
  it('create answers the endpoint with its secret once; retrieve and list never show it', async () => {
    const b = await newBusiness(t);
    const res = await api.post(b, '/v1/webhook', {
      url: 'https://hooks.internal.example/bizapi',
      eventTypes: ['client.created', 'inquiry.updated'],
      description: 'CRM sync',
      format: 'pluuug',
      isActive: false,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(Object.keys(res.body)).toEqual([
      'id',
      'url',
      'eventTypes',
      'description',
      'isActive',
      'format',
      'isParked',
      'created',
      'secret',
    ]);
    expect(res.body).toMatchObject({
      url: 'https://hooks.internal.example/bizapi',
      eventTypes: ['client.created', 'inquiry.updated'],
      description: 'CRM sync',
      isActive: false,
      format: 'pluuug',
    });
    expect(res.body.secret).toMatch(SECRET);
    expect(Buffer.from(res.body.secret.slice(6), 'base64')).toHaveLength(24);
    const { secret, ...endpoint } = res.body;

    const one = await api.get(b, `/v1/webhook/${endpoint.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(endpoint);
    const list = await api.get(b, '/v1/webhook');
    expect(list.body.results).toEqual([endpoint]);
    for (const r of [one, list]) expect(JSON.stringify(r.body)).not.toContain(secret);

    // Stored sealed with the master key, never as is.
    const row = await endpointRow(endpoint.id);
    expect(row.secret).not.toContain(secret.slice(6));
    expect(decryptSecret(t.masterKey, row.secret)).toBe(secret);
    expect(row.previous_secret).toBeNull();
  });

  it('defaults: active, standard format, no description; two creates give two secrets', async () => {
    const b = await newBusiness(t);
    const first = await newWebhook(b, { eventTypes: ['*'] });
    expect(first).toMatchObject({ eventTypes: ['*'], description: null, isActive: true, format: 'standard' });
    const second = await newWebhook(b);
    expect(second.secret).not.toBe(first.secret);
  });

  it('lists newest first, in pages', async () => {
    const b = await newBusiness(t);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await newWebhook(b, { description: `n${i}` })).id);
    const page1 = await api.get(b, '/v1/webhook?page_size=2');
    expect(page1.body.results.map((w: any) => w.id)).toEqual([ids[2], ids[1]]);
    expect(page1.body.next).toEqual(expect.any(String));
    const page2 = await api.get(b, new URL(page1.body.next).pathname + new URL(page1.body.next).search);
    expect(page2.body.results.map((w: any) => w.id)).toEqual([ids[0]]);
    expect(page2.body.next).toBeNull();
  });

  it('PATCH changes only what it sends; eventTypes are deduplicated', async () => {
    const b = await newBusiness(t);
    const w = await newWebhook(b, { description: 'keep' });
    const res = await api.patch(b, `/v1/webhook/${w.id}`, {
      url: 'http://10.0.0.7/in',
      eventTypes: ['inquiry.created', 'client.deleted', 'inquiry.created'],
      format: 'pluuug',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      id: w.id,
      url: 'http://10.0.0.7/in',
      eventTypes: ['inquiry.created', 'client.deleted'],
      description: 'keep',
      isActive: true,
      format: 'pluuug',
      isParked: false,
      created: w.created,
    });
    expect((await api.get(b, `/v1/webhook/${w.id}`)).body).toEqual(res.body);
    const cleared = await api.patch(b, `/v1/webhook/${w.id}`, { description: null });
    expect(cleared.body.description).toBeNull();
    // The secret is untouched by updates.
    expect(decryptSecret(t.masterKey, (await endpointRow(w.id)).secret)).toBe(w.secret);
  });

  it('turning isActive back on clears the failure streak', async () => {
    const b = await newBusiness(t);
    const w = await newWebhook(b);
    const since = new Date(Date.now() - 6 * 86_400_000).toISOString();
    await t.testDb.db
      .updateTable('webhook_endpoint')
      .set({ is_active: 0, failing_since: since })
      .where('id', '=', w.id)
      .execute();
    expect((await api.get(b, `/v1/webhook/${w.id}`)).body.isActive).toBe(false);
    // Sending false again keeps it.
    await api.patch(b, `/v1/webhook/${w.id}`, { isActive: false });
    expect((await endpointRow(w.id)).failing_since).toBe(since);
    const res = await api.patch(b, `/v1/webhook/${w.id}`, { isActive: true });
    expect(res.status).toBe(200);
    expect(res.body.isActive).toBe(true);
    const row = await endpointRow(w.id);
    expect(row.is_active).toBe(1);
    expect(row.failing_since).toBeNull();
  });

  it('DELETE answers 204, then the endpoint is gone (404), with its deliveries', async () => {
    const b = await newBusiness(t);
    const w = await newWebhook(b);
    const delivery = (await api.post(b, `/v1/webhook/${w.id}/test`)).body;
    const res = await api.delete(b, `/v1/webhook/${w.id}`);
    expect(res.status).toBe(204);
    expect((await api.get(b, `/v1/webhook/${w.id}`)).status).toBe(404);
    expect((await api.delete(b, `/v1/webhook/${w.id}`)).status).toBe(404);
    expect((await api.get(b, '/v1/webhook')).body.results).toEqual([]);
    const left = await t.testDb.db.selectFrom('webhook_delivery').select('id').where('id', '=', delivery.id).execute();
    expect(left).toEqual([]);
  });

  it('another business’s endpoint and deliveries answer 404 to every operation', async () => {
    const owner = await newBusiness(t);
    const other = await newBusiness(t);
    const w = await newWebhook(owner);
    const d = (await api.post(owner, `/v1/webhook/${w.id}/test`)).body;
    const attempts = [
      api.get(other, `/v1/webhook/${w.id}`),
      api.patch(other, `/v1/webhook/${w.id}`, { description: 'x' }),
      api.patch(other, `/v1/webhook/${w.id}`, { url: 'ftp://bad' }),
      api.delete(other, `/v1/webhook/${w.id}`),
      api.post(other, `/v1/webhook/${w.id}/rotate_secret`),
      api.post(other, `/v1/webhook/${w.id}/test`),
      api.post(other, `/v1/webhook/${w.id}/recover`, { since: new Date(Date.now() - 60_000).toISOString() }),
      api.post(other, `/v1/webhook/${w.id}/replay`, { after_sequence: 0 }),
      api.get(other, `/v1/webhook/${w.id}/delivery`),
      api.post(other, `/v1/webhook/${w.id}/delivery/${d.id}/retry`),
    ];
    for (const res of await Promise.all(attempts)) expect(res.status, JSON.stringify(res.body)).toBe(404);
    expect((await api.get(other, '/v1/webhook')).body.results).toEqual([]);
    // Nothing changed for the owner.
    const after = await api.get(owner, `/v1/webhook/${w.id}`);
    expect(after.body.description).toBeNull();
    expect(decryptSecret(t.masterKey, (await endpointRow(w.id)).secret)).toBe(w.secret);
    expect((await api.get(owner, `/v1/webhook/${w.id}/delivery`)).body.results).toHaveLength(1);
    // A delivery id of the right business but under another endpoint is 404 too.
    const w2 = await newWebhook(owner);
    expect((await api.post(owner, `/v1/webhook/${w2.id}/delivery/${d.id}/retry`)).status).toBe(404);
  });
});

describe('validation', () => {
  it('requires url and a non-empty eventTypes of known types, "*" alone', async () => {
    const b = await newBusiness(t);
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{}, { url: ['This field is required.'], eventTypes: ['This field is required.'] }],
      [{ url: URL_OK, eventTypes: [] }, { eventTypes: ['This list may not be empty.'] }],
      [
        { url: URL_OK, eventTypes: ['client.exploded'] },
        { eventTypes: [expect.stringContaining('"client.exploded" is not a valid choice.')] },
      ],
      [
        { url: URL_OK, eventTypes: ['webhook.test'] },
        { eventTypes: [expect.stringContaining('"webhook.test" is not a valid choice.')] },
      ],
      [
        { url: URL_OK, eventTypes: ['*', 'client.created'] },
        { eventTypes: [expect.stringContaining('must be alone')] },
      ],
      [{ url: URL_OK, eventTypes: ['client.created'], format: 'xml' }, { format: ['"xml" is not a valid choice.'] }],
      [{ url: '', eventTypes: ['*'] }, { url: ['This field may not be blank.'] }],
      [{ url: 'not a url', eventTypes: ['*'] }, { url: ['Enter a valid URL.'] }],
      [
        { url: 'ftp://files.example.com/x', eventTypes: ['*'] },
        { url: ['The URL must use the http or https scheme.'] },
      ],
      [
        { url: 'https://user:pw@hooks.example.com/', eventTypes: ['*'] },
        { url: ['The URL must not contain a user name or password.'] },
      ],
    ];
    for (const [body, errors] of cases) {
      const res = await api.post(b, '/v1/webhook', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body, JSON.stringify(body)).toEqual({ ...errors, requestId: expect.any(String) });
    }
    expect((await api.get(b, '/v1/webhook')).body.results).toEqual([]);
  });

  it('PATCH validates like create, and a refused PATCH changes nothing', async () => {
    const b = await newBusiness(t);
    const w = await newWebhook(b);
    for (const body of [
      { url: 'ftp://x.example/' },
      { eventTypes: [] },
      { eventTypes: ['*', 'client.created'] },
      { url: 'https://[::1]/x' },
    ]) {
      const res = await strict.patch(b, `/v1/webhook/${w.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const { secret, ...endpoint } = w;
    expect(secret).toMatch(SECRET);
    expect((await api.get(b, `/v1/webhook/${w.id}`)).body).toEqual(endpoint);
  });

  it('refuses hosts that are or resolve to non-public addresses without BIZAPI_WEBHOOK_ALLOW_PRIVATE', async () => {
    const b = await newBusiness(t);
    const refused = [
      'http://127.0.0.1/hook',
      'http://127.1/hook',
      'http://2130706433/hook',
      'http://localhost:8080/hook',
      'http://10.1.2.3/hook',
      'http://172.16.0.1/hook',
      'http://192.168.1.1/hook',
      'http://100.64.0.1/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://0.0.0.0/hook',
      'http://224.0.0.1/hook',
      'http://240.0.0.1/hook',
      'http://[::1]/hook',
      'http://[::]/hook',
      'http://[fe80::1]/hook',
      'http://[fd00:ec2::254]/hook',
      'http://[fc00::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[::ffff:a9fe:a9fe]/hook',
      'http://[2002:7f00:1::]/hook',
      'http://[::127.0.0.1]/hook',
      'http://[64:ff9b::a00:1]/hook',
    ];
    for (const url of refused) {
      const res = await strict.post(b, '/v1/webhook', { url, eventTypes: ['*'] });
      expect(res.status, url).toBe(400);
      expect(Object.keys(res.body).sort(), url).toEqual(['requestId', 'url']);
      expect(res.body.url[0], url).toMatch(/not a public address|resolves to an address that is not public/);
      // The same URL passes where the server allows private addresses (deleted again: 20 endpoints at most).
      const allowed = await api.post(b, '/v1/webhook', { url, eventTypes: ['*'] });
      expect(allowed.status, url).toBe(201);
      expect((await api.delete(b, `/v1/webhook/${allowed.body.id}`)).status).toBe(204);
    }
    // A PATCH to such a URL is refused the same way.
    const w = (await strict.post(b, '/v1/webhook', { url: 'https://8.8.8.8/hook', eventTypes: ['*'] })).body;
    expect(w.id).toEqual(expect.any(Number));
    const res = await strict.patch(b, `/v1/webhook/${w.id}`, { url: 'http://192.168.0.10/' });
    expect(res.status).toBe(400);
    expect(res.body.url).toEqual([
      'The host 192.168.0.10 is not a public address. To deliver to a receiver on this machine or a private network, set BIZAPI_WEBHOOK_ALLOW_PRIVATE=true on the server.',
    ]);
    // Public addresses pass.
    for (const url of ['https://8.8.8.8/hook', 'http://[2606:4700:4700::1111]:8443/x', 'https://[::ffff:8.8.4.4]/y']) {
      expect((await strict.post(b, '/v1/webhook', { url, eventTypes: ['*'] })).status, url).toBe(201);
    }
  });

  it('refuses a host name that does not resolve', async () => {
    const b = await newBusiness(t);
    const res = await strict.post(b, '/v1/webhook', { url: 'https://no-such-host.invalid/hook', eventTypes: ['*'] });
    expect(res.status).toBe(400);
    expect(res.body.url).toEqual(['The host name no-such-host.invalid could not be resolved.']);
  });

  it('the allow-private setting never lifts the scheme or credentials checks', async () => {
    const b = await newBusiness(t);
    for (const url of ['file:///etc/passwd', 'gopher://127.0.0.1/', 'https://a:b@127.0.0.1/']) {
      expect((await api.post(b, '/v1/webhook', { url, eventTypes: ['*'] })).status, url).toBe(400);
    }
  });
});

describe('url-safety', () => {
  it('BIZAPI_WEBHOOK_ALLOW_PRIVATE: false unless "true"; anything else is a configuration error', () => {
    expect(loadConfig({}).webhookAllowPrivate).toBe(false);
    expect(loadConfig({ BIZAPI_WEBHOOK_ALLOW_PRIVATE: 'true' }).webhookAllowPrivate).toBe(true);
    expect(loadConfig({ BIZAPI_WEBHOOK_ALLOW_PRIVATE: 'false' }).webhookAllowPrivate).toBe(false);
    expect(() => loadConfig({ BIZAPI_WEBHOOK_ALLOW_PRIVATE: 'yes' })).toThrow(ConfigError);
  });

  it('isPublicAddress: public unicast only, mapped IPv4 judged as IPv4', () => {
    for (const ip of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      expect(isPublicAddress(ip), ip).toBe(true);
    for (const ip of [
      '127.0.0.1',
      '10.0.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '100.100.100.100',
      '169.254.169.254',
      '169.254.1.1',
      '0.0.0.0',
      '255.255.255.255',
      '224.0.0.251',
      '192.0.2.1',
      '198.18.0.1',
      '::1',
      '::',
      'fe80::1',
      'fe80::1%eth0',
      'fd00:ec2::254',
      'fc00::1',
      'ff02::1',
      '::ffff:10.0.0.1',
      '::ffff:127.0.0.1',
      '64:ff9b::a00:1',
      '2002:a00:1::',
      '2001:db8::1',
      'not-an-ip',
      '',
    ]) {
      expect(isPublicAddress(ip), ip).toBe(false);
    }
  });

  it('checkWebhookUrl: every resolved address must be public; the lookup is bounded', async () => {
    const lookup = (addresses: string[]) => async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    await expect(
      checkWebhookUrl('https://a.example/', { allowPrivate: false, lookup: lookup(['8.8.8.8', '1.1.1.1']) }),
    ).resolves.toMatchObject({
      addresses: ['8.8.8.8', '1.1.1.1'],
    });
    await expect(
      checkWebhookUrl('https://a.example/', { allowPrivate: false, lookup: lookup(['8.8.8.8', '10.0.0.1']) }),
    ).rejects.toThrow('resolves to an address that is not public');
    await expect(checkWebhookUrl('https://a.example/', { allowPrivate: false, lookup: lookup([]) })).rejects.toThrow(
      'could not be resolved',
    );
    const never = () => new Promise<never>(() => {});
    const started = Date.now();
    await expect(
      checkWebhookUrl('https://slow.example/', { allowPrivate: false, lookup: never, timeoutMs: 50 }),
    ).rejects.toThrow('could not be resolved');
    expect(Date.now() - started).toBeLessThan(2000);
    // allowPrivate: no lookup at all.
    await expect(checkWebhookUrl('https://a.example/', { allowPrivate: true, lookup: never })).resolves.toMatchObject({
      addresses: [],
    });
  });
});

describe('the API call log', () => {
  it('never keeps a secret: create and rotation answers are logged with the secret redacted', async () => {
    const b = await newBusiness(t);
    const w = await newWebhook(b);
    const rotated = (await api.post(b, `/v1/webhook/${w.id}/rotate_secret`)).body;
    await open.logWriter.flush();
    const log = await api.get(b, '/v1/log/?page_size=100');
    expect(log.status).toBe(200);
    const text = JSON.stringify(log.body);
    expect(text).not.toContain(w.secret.slice(6));
    expect(text).not.toContain(rotated.secret.slice(6));
    const created = log.body.results.find((e: any) => e.method === 'POST' && e.path === '/v1/webhook');
    expect(JSON.stringify(created.responseBody)).toContain('whsec_[REDACTED]');
  });
});

describe('secret rotation', () => {
  it('answers a new secret; the old one keeps signing for 24 hours', async () => {
    const b = await newBusiness(t);
    const w = await newWebhook(b);
    const before = Date.now();
    const res = await api.post(b, `/v1/webhook/${w.id}/rotate_secret`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['secret']);
    expect(res.body.secret).toMatch(SECRET);
    expect(res.body.secret).not.toBe(w.secret);
    const row = await endpointRow(w.id);
    expect(decryptSecret(t.masterKey, row.secret)).toBe(res.body.secret);
    expect(decryptSecret(t.masterKey, row.previous_secret!)).toBe(w.secret);
    const expires = Date.parse(row.previous_secret_expires_at!);
    expect(expires).toBeGreaterThanOrEqual(before + 86_400_000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 86_400_000 + 1000);
    // Neither secret is shown anywhere else.
    const one = await api.get(b, `/v1/webhook/${w.id}`);
    expect(JSON.stringify(one.body)).not.toContain(res.body.secret);
    // A second rotation: the first rotation's secret becomes the previous one.
    const again = await api.post(b, `/v1/webhook/${w.id}/rotate_secret`);
    const row2 = await endpointRow(w.id);
    expect(decryptSecret(t.masterKey, row2.secret)).toBe(again.body.secret);
    expect(decryptSecret(t.masterKey, row2.previous_secret!)).toBe(res.body.secret);
  });
});

describe('test ping and deliveries', () => {
  it('writes a published webhook.test event and one pending delivery to this endpoint only', async () => {
    const b = await newBusiness(t);
    const other = await newWebhook(b, { eventTypes: ['*'] });
    const w = await newWebhook(b, { isActive: false });
    const before = new Date().toISOString();
    const res = await api.post(b, `/v1/webhook/${w.id}/test`);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toEqual({
      id: expect.any(Number),
      event: { id: expect.any(Number), type: 'webhook.test' },
      status: 'pending',
      attempts: 0,
      lastStatusCode: null,
      lastError: null,
      lastAttemptAt: null,
      nextAttemptAt: expect.any(String),
      created: expect.any(String),
    });
    expect(res.body.nextAttemptAt >= before).toBe(true);
    expect(res.body.nextAttemptAt <= new Date().toISOString()).toBe(true);

    const event = await api.get(b, `/v1/event/${res.body.event.id}`);
    expect(event.status).toBe(200);
    expect(event.body).toMatchObject({ type: 'webhook.test', changedFields: [], data: { id: w.id, url: w.url } });
    const stored = await t.testDb.db
      .selectFrom('event')
      .select('published_at')
      .where('id', '=', res.body.event.id)
      .executeTakeFirstOrThrow();
    expect(stored.published_at).not.toBeNull();

    const deliveries = await api.get(b, `/v1/webhook/${w.id}/delivery`);
    expect(deliveries.status).toBe(200);
    expect(deliveries.body.results).toEqual([res.body]);
    expect((await api.get(b, `/v1/webhook/${other.id}/delivery`)).body.results).toEqual([]);
    const rows = await t.testDb.db
      .selectFrom('webhook_delivery')
      .selectAll()
      .where('event_id', '=', res.body.event.id)
      .execute();
    expect(rows.map((r) => r.webhook_id)).toEqual([w.id]);
  });

  it('lists deliveries newest first, filtered by status', async () => {
    const b = await newBusiness(t);
    const w = await newWebhook(b);
    const first = (await api.post(b, `/v1/webhook/${w.id}/test`)).body;
    const second = (await api.post(b, `/v1/webhook/${w.id}/test`)).body;
    await t.testDb.db
      .updateTable('webhook_delivery')
      .set({ status: 'succeeded', next_attempt_at: null, attempts: 1, last_status_code: 200 })
      .where('id', '=', first.id)
      .execute();
    const all = await api.get(b, `/v1/webhook/${w.id}/delivery`);
    expect(all.body.results.map((d: any) => d.id)).toEqual([second.id, first.id]);
    expect(all.body.results[1]).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      lastStatusCode: 200,
      nextAttemptAt: null,
    });
    const pending = await api.get(b, `/v1/webhook/${w.id}/delivery?status=pending`);
    expect(pending.body.results.map((d: any) => d.id)).toEqual([second.id]);
    const paged = await api.get(b, `/v1/webhook/${w.id}/delivery?page_size=1`);
    expect(paged.body.results.map((d: any) => d.id)).toEqual([second.id]);
    expect(paged.body.next).toEqual(expect.any(String));
    expect((await api.get(b, `/v1/webhook/${w.id}/delivery?status=lost`)).status).toBe(400);
  });

  it('retry makes a failed delivery pending and due now, keeping its attempts; a pending one still answers 202', async () => {
    const b = await newBusiness(t);
    const w = await newWebhook(b);
    const d = (await api.post(b, `/v1/webhook/${w.id}/test`)).body;
    const earlier = '2026-01-01T00:00:00.000Z';
    await t.testDb.db
      .updateTable('webhook_delivery')
      .set({
        status: 'failed',
        attempts: 8,
        next_attempt_at: null,
        last_status_code: 500,
        last_error: 'HTTP 500',
        last_attempt_at: earlier,
      })
      .where('id', '=', d.id)
      .execute();
    expect((await api.get(b, `/v1/webhook/${w.id}/delivery`)).body.results[0]).toMatchObject({
      status: 'failed',
      attempts: 8,
    });
    const before = new Date().toISOString();
    const res = await api.post(b, `/v1/webhook/${w.id}/delivery/${d.id}/retry`);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toMatchObject({
      id: d.id,
      status: 'pending',
      attempts: 8,
      lastStatusCode: 500,
      lastError: 'HTTP 500',
      lastAttemptAt: earlier,
    });
    expect(res.body.nextAttemptAt >= before).toBe(true);
    expect((await api.get(b, `/v1/webhook/${w.id}/delivery`)).body.results[0]).toEqual(res.body);

    // Pending, due later (a retry backoff): due now.
    await t.testDb.db
      .updateTable('webhook_delivery')
      .set({ next_attempt_at: '2099-01-01T00:00:00.000Z' })
      .where('id', '=', d.id)
      .execute();
    const again = await api.post(b, `/v1/webhook/${w.id}/delivery/${d.id}/retry`);
    expect(again.status).toBe(202);
    expect(again.body.status).toBe('pending');
    expect(again.body.nextAttemptAt < '2099-01-01T00:00:00.000Z').toBe(true);

    // Being sent right now (a live lease): left alone, still 202.
    const lease = new Date(Date.now() + 60_000).toISOString();
    await t.testDb.db
      .updateTable('webhook_delivery')
      .set({ lease_owner: 'w1', lease_until: lease, next_attempt_at: lease })
      .where('id', '=', d.id)
      .execute();
    const busy = await api.post(b, `/v1/webhook/${w.id}/delivery/${d.id}/retry`);
    expect(busy.status).toBe(202);
    const row = await t.testDb.db
      .selectFrom('webhook_delivery')
      .selectAll()
      .where('id', '=', d.id)
      .executeTakeFirstOrThrow();
    expect(row.lease_owner).toBe('w1');

    expect((await api.post(b, `/v1/webhook/${w.id}/delivery/2147483000/retry`)).status).toBe(404);
  });
});
