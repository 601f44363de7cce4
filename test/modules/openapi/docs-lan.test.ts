/**
 * The docs page over plain HTTP through a non-loopback address of this machine (issue 36, item 1), as a
 * Docker, LAN or staging user opens it first, in Debian's Chromium driven by playwright-core:
 * - it loads: every asset from this server over http (no `upgrade-insecure-requests` turning them into https
 *   requests), every operation listed, no CSP violation, and a tab titled as bizapi's (not "Swagger UI");
 * - the browser offers no Web Crypto there (not a secure context): the page says so at the top, and Try it out
 *   still works, unsigned and without sending the secret (the server's default `optional` mode accepts it);
 * - where the browser treats that origin as secure (Chromium's `--unsafely-treat-insecure-origin-as-secure`, as
 *   an https proxy would make it), the page signs: with signatures required, a POST through Try it out gets 201,
 *   no notice is shown, and the curl command carries the note that its signature was used.
 * Skipped, saying why, without `/usr/bin/chromium` or without a non-loopback IPv4 address.
 */
import fs from 'node:fs';
import os from 'node:os';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { apiClient } from '../../setup/api-client.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/** This machine's own non-loopback IPv4 address, or undefined when it has none. */
function ownAddress(): string | undefined {
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return undefined;
}
const ADDRESS = ownAddress();
const skip = !fs.existsSync(CHROMIUM)
  ? 'needs /usr/bin/chromium (Debian package chromium)'
  : ADDRESS === undefined
    ? 'this machine has no non-loopback IPv4 address'
    : undefined;

/** Opens /docs, waits for the operations, and returns what went wrong on the way. */
async function openDocs(page: Page, base: string) {
  const failed: string[] = [];
  const foreign: string[] = [];
  const errors: string[] = [];
  page.on('requestfailed', (req) => failed.push(`${req.url()} ${req.failure()?.errorText ?? ''}`));
  page.on('request', (req) => {
    if (!req.url().startsWith(base) && !req.url().startsWith('data:')) foreign.push(req.url());
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error' || /Content Security Policy/i.test(msg.text())) errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  expect((await page.goto(`${base}/docs`, { waitUntil: 'load' }))?.status()).toBe(200);
  await page
    .waitForFunction(() => document.querySelectorAll('.opblock').length > 0, undefined, { timeout: 45_000 })
    .catch(() => undefined);
  return { failed, foreign, errors };
}

/** Authorizes with the key and the secret, runs Try it out on POST /v1/client; returns the status shown and the requests sent. */
async function createClientThroughPage(page: Page, b: TestBusiness, companyName: string) {
  const sent: { url: string; headers: Record<string, string> }[] = [];
  page.on('request', (req) => {
    if (req.url().includes('/v1/')) sent.push({ url: req.url(), headers: req.headers() });
  });
  await page.click('button.authorize');
  const dialog = page.locator('.dialog-ux .modal-ux');
  await dialog.waitFor();
  const forms = dialog.locator('.auth-container');
  await forms.filter({ hasText: 'X-API-Key' }).locator('input').fill(b.apiKey);
  await forms.filter({ hasText: 'X-API-Key' }).locator('button.authorize').click();
  await forms.filter({ hasText: 'X-Signature' }).locator('input').fill(b.secretKey);
  await forms.filter({ hasText: 'X-Signature' }).locator('button.authorize').click();
  await dialog.locator('button.btn-done').first().click();
  const op = page
    .locator('.opblock-post')
    .filter({ has: page.locator('[data-path="/v1/client"]') })
    .first();
  await op.locator('.opblock-summary').click();
  await op.locator('button.try-out__btn').click();
  await op.locator('textarea.body-param__text').fill(JSON.stringify({ companyName }));
  await op.locator('button.execute').click();
  const status = op.locator('.live-responses-table .response .response-col_status');
  await status.first().waitFor({ timeout: 20_000 });
  const curlNote = await op
    .locator('.curl-command')
    .first()
    .evaluate((el) => getComputedStyle(el, '::after').content)
    .catch(() => 'none');
  return { status: (await status.first().textContent())?.trim(), sent, curlNote };
}

describe.skipIf(skip !== undefined)(
  `the docs page over plain HTTP on a non-loopback address (${skip ?? ADDRESS})`,
  () => {
    let optional: TestApp;
    let required: TestApp;
    let optionalBase: string;
    let requiredBase: string;
    let browser: Browser;
    let secureBrowser: Browser;
    beforeAll(async () => {
      optional = await buildTestApp();
      optionalBase = await optional.app.listen({ host: ADDRESS, port: 0 });
      required = await buildTestApp({ BIZAPI_SIGNATURE_MODE: 'required' });
      requiredBase = await required.app.listen({ host: ADDRESS, port: 0 });
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
      secureBrowser = await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: [...ARGS, `--unsafely-treat-insecure-origin-as-secure=${requiredBase}`],
      });
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      await secureBrowser?.close();
      await optional?.close();
      await required?.close();
    });

    it('loads every asset over http and lists every operation; says it cannot sign there; Try it out works unsigned', async () => {
      expect(optionalBase).toMatch(/^http:\/\/\d+\.\d+\.\d+\.\d+:\d+$/);
      expect(optionalBase).not.toContain('127.0.0.1');
      const b = await newBusiness(optional);
      const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
      const { failed, foreign, errors } = await openDocs(page, optionalBase);
      expect(failed).toEqual([]);
      expect(foreign).toEqual([]);
      const doc = (await apiClient(optional.app).raw(undefined, { method: 'GET', url: '/openapi.json' })).json() as {
        paths: Record<string, object>;
      };
      const operations = Object.values(doc.paths).reduce(
        (n, item) => n + Object.keys(item).filter((k) => ['get', 'post', 'patch', 'put', 'delete'].includes(k)).length,
        0,
      );
      expect(await page.locator('.opblock').count()).toBe(operations);
      expect(await page.title()).toBe('bizapi — API docs');
      expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
      const notice = page.locator('#bizapi-signing-notice');
      await expect.poll(() => notice.count()).toBe(1);
      expect(await notice.textContent()).toMatch(/cannot sign requests at http:\/\/.*Web Crypto/);

      const companyName = `Unsigned from the LAN ${Date.now()}`;
      const { status, sent } = await createClientThroughPage(page, b, companyName);
      expect(status).toBe('201');
      const post = sent.find((r) => r.url.endsWith('/v1/client'));
      expect(post?.headers['x-signature']).toBeUndefined();
      expect(JSON.stringify(sent)).not.toContain(b.secretKey);
      expect(errors).toEqual([]);
      await page.close();
    }, 120_000);

    it('where the browser treats the origin as secure, it signs: 201 with signatures required, no notice', async () => {
      const b = await newBusiness(required);
      const page = await secureBrowser.newPage({ viewport: { width: 1280, height: 1400 } });
      const { failed, errors } = await openDocs(page, requiredBase);
      expect(failed).toEqual([]);
      expect(await page.evaluate(() => window.isSecureContext)).toBe(true);
      expect(await page.locator('#bizapi-signing-notice').count()).toBe(0);
      const { status, sent, curlNote } = await createClientThroughPage(page, b, `Signed from the LAN ${Date.now()}`);
      expect(status).toBe('201');
      expect(sent.find((r) => r.url.endsWith('/v1/client'))?.headers['x-signature']).toMatch(/^v2=[0-9a-f]{64}$/);
      expect(curlNote).toContain('signature_replayed');
      expect(errors).toEqual([]);
      await page.close();
    }, 120_000);
  },
);
