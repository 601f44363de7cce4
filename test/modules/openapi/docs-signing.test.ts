/**
 * The docs page makes signed calls (docs/authentication.md#docs-page): in Debian's Chromium, with
 * `BIZAPI_SIGNATURE_MODE=v2` (version-2 signatures only), a user authorizes with the API key and the secret,
 * creates a client through "Try it out" and gets 201, then sends the same request again at once and gets 201
 * again (not 403 signature_replayed) — the page signed timestamp, method, target and the exact body bytes
 * with Web Crypto. The secret is
 * never sent and never stored in the browser; the page's console shows no CSP violation. A screenshot is
 * kept in `test-artifacts/docs-signing.png`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness } from '../../setup/factories.ts';
import { signV2 } from '../../../src/modules/auth/hmac.ts';
import { apiClient } from '../../setup/api-client.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/', import.meta.url));

describe.skipIf(!fs.existsSync(CHROMIUM))('the docs page signs Try-it-out requests (Chromium)', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  beforeAll(async () => {
    t = await buildTestApp({ BIZAPI_SIGNATURE_MODE: 'v2' });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('authorize with key and secret, create a client with Try it out: 201, no CSP error, secret kept in memory', async () => {
    const b = await newBusiness(t);
    const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
    const consoleErrors: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error' || /Content Security Policy/i.test(msg.text())) consoleErrors.push(msg.text());
    });
    page.on('pageerror', (err) => consoleErrors.push(err.message));
    const sent: { url: string; headers: Record<string, string>; body: string | null }[] = [];
    page.on('request', (req) => {
      if (req.url().includes('/v1/')) sent.push({ url: req.url(), headers: req.headers(), body: req.postData() });
    });

    expect((await page.goto(`${base}/docs`, { waitUntil: 'load' }))?.status()).toBe(200);
    await page.waitForFunction(() => document.querySelectorAll('.opblock').length > 0, undefined, { timeout: 45_000 });

    // Authorize: the API key, and the secret in the signature field.
    await page.click('button.authorize');
    const dialog = page.locator('.dialog-ux .modal-ux');
    await dialog.waitFor();
    const forms = dialog.locator('.auth-container');
    await forms.filter({ hasText: 'X-API-Key' }).locator('input').fill(b.apiKey);
    await forms.filter({ hasText: 'X-API-Key' }).locator('button.authorize').click();
    await forms.filter({ hasText: 'X-Signature' }).locator('input').fill(b.secretKey);
    await forms.filter({ hasText: 'X-Signature' }).locator('button.authorize').click();
    await dialog.locator('button.btn-done').first().click();

    // Try it out on POST /v1/client.
    const op = page
      .locator('.opblock-post')
      .filter({ has: page.locator('[data-path="/v1/client"]') })
      .first();
    await op.locator('.opblock-summary').click();
    await op.locator('button.try-out__btn').click();
    const name = `From the docs ${Date.now()}`;
    await op
      .locator('textarea.body-param__text')
      .fill(JSON.stringify({ companyName: name, content: 'Ünïcode body' }, null, 2));
    await op.locator('button.execute').click();
    const status = op.locator('.live-responses-table .response .response-col_status');
    await status.first().waitFor({ timeout: 20_000 });
    const statusText = (await status.first().textContent())?.trim();
    await op.scrollIntoViewIfNeeded();
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'docs-signing.png'), fullPage: false });
    expect(statusText, (await op.locator('.live-responses-table').textContent()) ?? '').toBe('201');
    // The same request again, within the same second: signed anew, created again.
    const before = sent.length;
    await op.locator('button.execute').click();
    await expect.poll(() => sent.length, { timeout: 20_000 }).toBeGreaterThan(before);
    await expect
      .poll(
        async () =>
          (await op.locator('.live-responses-table .response .response-col_status').first().textContent())?.trim(),
        { timeout: 20_000 },
      )
      .toBe('201');

    // Both clients exist; the requests carried signatures, never the secret.
    const url = `/v1/client?search=${encodeURIComponent(name)}`;
    const ts = Math.floor(Date.now() / 1000);
    const list = await apiClient(t.app).raw(undefined, {
      method: 'GET',
      url,
      headers: {
        'x-api-key': b.apiKey,
        'x-signature-timestamp': String(ts),
        'x-signature': `v2=${signV2(b.secretKey, ts, 'GET', url, '')}`,
      },
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().results.map((c: { companyName: string }) => c.companyName)).toEqual([name, name]);
    const posts = sent.filter((r) => r.url.endsWith('/v1/client'));
    expect(posts).toHaveLength(2);
    for (const post of posts) {
      expect(post.headers['x-signature']).toMatch(/^v2=[0-9a-f]{64}$/);
      expect(post.headers['x-signature-timestamp']).toMatch(/^\d+$/);
    }
    expect(posts[0]!.headers['x-signature']).not.toBe(posts[1]!.headers['x-signature']);
    expect(JSON.stringify(sent)).not.toContain(b.secretKey);

    // Nothing persisted in the browser.
    const stored = await page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie,
    );
    expect(stored).not.toContain(b.secretKey);
    expect(stored).not.toContain(b.apiKey);

    expect(consoleErrors).toEqual([]);
    await page.close();
  }, 90_000);
});
